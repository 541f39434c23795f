-- 0003: the process that owns a table when several processes share the database (see the SQLite
-- 0003). NULL: no owner; otherwise the token of the process that claimed the table's shard.
ALTER TABLE poker_tables ADD COLUMN owner TEXT;
