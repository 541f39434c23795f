-- 0004: a player's own choices in a server that are not chips (see the SQLite 0004): whether he is
-- called by a mention when it is his turn (/avvisi). No row means the defaults (called).
CREATE TABLE player_settings (
    guild_id   BIGINT  NOT NULL,
    user_id    BIGINT  NOT NULL,
    turn_calls INTEGER NOT NULL DEFAULT 1 CHECK (turn_calls IN (0, 1)),
    PRIMARY KEY (guild_id, user_id)
);
