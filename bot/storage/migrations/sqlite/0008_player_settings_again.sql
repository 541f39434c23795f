-- 0008: player_settings for the databases migrated while 0004 was still a placeholder (SELECT 1,
-- before the turn calls landed): they passed version 4 without the table. The same table as 0004;
-- a database that has it already is left as it is.
CREATE TABLE IF NOT EXISTS player_settings (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    turn_calls INTEGER NOT NULL DEFAULT 1 CHECK (turn_calls IN (0, 1)),
    PRIMARY KEY (guild_id, user_id)
) STRICT;
