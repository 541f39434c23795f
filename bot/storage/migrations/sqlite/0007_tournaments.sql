-- 0007: sit-and-go tournaments and their prize pools.

-- A tournament in a channel or thread. Its prize pool is the `pot` of a row of `poker_tables` made
-- for it (`pool_table_id`): the buy-ins move from the balances into that pot and the prizes out of
-- it, through the same double-entry ledger, so check() proves the pool like any other pot, and the
-- one-open-table-per-channel index keeps a cash table and a tournament out of the same channel.
-- The players' tournament chips are no server chips: they live only in `state` (the engine's
-- Tournament.to_dict() and Table.to_dict() at the last hand boundary), never in a seat.
-- `status` follows the tournament: 'iscrizioni' (registration), 'in_corso', then 'finito' (the
-- prizes are paid in the same transaction as this flip, so never twice) or 'annullato' (refunded).
CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    creator_id    INTEGER NOT NULL,
    pool_table_id INTEGER NOT NULL UNIQUE REFERENCES poker_tables (id),
    config        TEXT    NOT NULL,              -- JSON
    state         TEXT    NOT NULL,              -- JSON
    status        TEXT    NOT NULL DEFAULT 'iscrizioni'
                  CHECK (status IN ('iscrizioni', 'in_corso', 'finito', 'annullato')),
    message_id    INTEGER,                       -- the public message of the current (or last) hand
    announced     INTEGER NOT NULL DEFAULT 0 CHECK (announced IN (0, 1)),  -- final standings posted
    created_at    INTEGER NOT NULL,
    finished_at   INTEGER
) STRICT;

CREATE INDEX tournaments_by_status ON tournaments (status);

-- The tournament a movement belongs to (its buy-ins, refunds and prizes), for the players' history.
ALTER TABLE movements ADD COLUMN tournament_id INTEGER REFERENCES tournaments (id);
