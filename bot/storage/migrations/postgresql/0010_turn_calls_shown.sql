-- 0010: the turn call shown in each channel (PostgreSQL; the same schema as SQLite's 0010), so that
-- a bot that died without a clean stop deletes its last calls after the restart.
CREATE TABLE turn_calls_shown (
    channel_id BIGINT PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    message_id BIGINT NOT NULL
);
