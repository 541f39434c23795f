-- 0013: table messages whose last edit Discord failed (PostgreSQL; the same schema as SQLite's 0013),
-- so that a restart in between shows or ends them.
CREATE TABLE stale_table_messages (
    channel_id  BIGINT  NOT NULL,
    message_id  BIGINT  NOT NULL,
    guild_id    BIGINT  NOT NULL,
    hand_number INTEGER,  -- the hand it still shows running; NULL: it shows its end, only buttons
    PRIMARY KEY (channel_id, message_id)
);
