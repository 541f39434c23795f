-- 0006: reserved for another feature's migration, developed in parallel. This empty placeholder
-- keeps the numbering without gaps on this branch; it is replaced by the real 0006 file at merge.
SELECT 1;
