-- 0010: the turn calls shown in the channels (PostgreSQL; the same schema as SQLite's 0010), so that
-- a bot that died without a clean stop deletes its last calls after the restart.
CREATE TABLE turn_calls_shown (
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    guild_id   BIGINT NOT NULL,
    PRIMARY KEY (channel_id, message_id)
);
