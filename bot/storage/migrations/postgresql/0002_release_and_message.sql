-- 0002: chips released during a hand to a player who left, and the table's public message
-- (see the SQLite 0002 for what they mean).
ALTER TABLE hand_seats ADD COLUMN released BIGINT CHECK (released >= 0);
ALTER TABLE poker_tables ADD COLUMN message_id BIGINT;
