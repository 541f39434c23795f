-- 0010: the turn calls shown in the channels (bot/turn_calls.py), so that a bot that died without a
-- clean stop deletes its last calls after the restart. A row is written when a call is posted and
-- removed once the call is deleted; a call Discord failed to delete keeps its row, so the next start
-- tries again. No chip is involved. `guild_id` lets each process take away only the calls of its
-- own shards.
CREATE TABLE turn_calls_shown (
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    guild_id   INTEGER NOT NULL,
    PRIMARY KEY (channel_id, message_id)
) STRICT;
