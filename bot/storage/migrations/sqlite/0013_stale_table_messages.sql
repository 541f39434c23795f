-- 0013: table messages whose last edit Discord failed (or had not taken at the next deal), so that a
-- restart in between shows the table's own message again and ends older ones instead of leaving a
-- hand long over showing a turn and buttons (bot/session.py). A row is written when such an edit
-- fails and removed once the message is up to date; no chip is involved. `guild_id` lets each
-- process fix only the messages of its own shards.
CREATE TABLE stale_table_messages (
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    hand_number INTEGER,  -- the hand it still shows running; NULL: it shows its end, only buttons
    PRIMARY KEY (channel_id, message_id)
) STRICT;
