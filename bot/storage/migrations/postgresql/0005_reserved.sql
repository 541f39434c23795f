-- 0005: reserved for the hand summaries and statistics, which land on another branch with their own
-- 0005 file. This placeholder only keeps the numbering without gaps until then: when that file
-- arrives, delete this one (two files numbered 0005 stop the bot at start-up, by design).
SELECT 1;
