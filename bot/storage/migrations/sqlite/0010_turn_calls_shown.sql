-- 0010: the turn call shown in each channel (bot/turn_calls.py), so that a bot that died without a
-- clean stop deletes its last calls after the restart. One row per channel at most (a table has at
-- most one call at a time), written when a call is posted and removed when it is deleted; no chip
-- is involved. `guild_id` lets each process take away only the calls of its own shards.
CREATE TABLE turn_calls_shown (
    channel_id INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    message_id INTEGER NOT NULL
) STRICT;
