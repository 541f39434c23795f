-- 0013: older table messages whose last edit (their hand's end, without buttons) Discord failed, so
-- that a restart in between still ends them instead of leaving a hand long over showing a turn and
-- buttons (bot/session.py). A row is written when such an edit fails and removed once it is made; no
-- chip is involved. `guild_id` lets each process end only the messages of its own shards.
CREATE TABLE stale_table_messages (
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    hand_number INTEGER,  -- the hand it still shows running; NULL: it shows its end, only buttons
    PRIMARY KEY (channel_id, message_id)
) STRICT;
