-- 0003: the process that owns a table, when several processes share one database.

-- NULL: no owner (one bot process, the default). Otherwise the token of the process that claimed
-- the table's shard (Storage.claim_tables); every write to the table then checks it, in the same
-- transaction, so a process that lost its shard can no longer start or finish a hand there.
ALTER TABLE poker_tables ADD COLUMN owner TEXT;
