-- 0001: accounts, tables and seats, hands, and the double-entry ledger.
-- Applied files are never edited: a change is a new numbered file.

-- One balance per player per server. The balance is a cache of the player's balance entries in
-- `entries`; `check()` proves they agree.
CREATE TABLE accounts (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    balance       INTEGER NOT NULL CHECK (balance >= 0),
    last_bonus_at INTEGER,                       -- unix seconds of the last daily bonus
    created_at    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) STRICT;

-- A poker table in a channel. `state` is the engine's Table.to_dict() as of the last hand
-- boundary; `pot` holds the chips at the table that are in no seat (a carried pot).
CREATE TABLE poker_tables (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    creator_id INTEGER NOT NULL,
    variant    TEXT    NOT NULL,
    options    TEXT    NOT NULL,                 -- JSON
    state      TEXT    NOT NULL,                 -- JSON
    status     TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    pot        INTEGER NOT NULL DEFAULT 0 CHECK (pot >= 0),
    created_at INTEGER NOT NULL,
    closed_at  INTEGER
) STRICT;

CREATE UNIQUE INDEX one_open_table_per_channel ON poker_tables (channel_id) WHERE status = 'open';
CREATE INDEX poker_tables_by_guild ON poker_tables (guild_id, status);

-- The chips in front of each seated player.
CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES poker_tables (id),
    user_id  INTEGER NOT NULL,
    stack    INTEGER NOT NULL CHECK (stack >= 0),
    PRIMARY KEY (table_id, user_id)
) STRICT;

-- One row per hand. The start-of-hand snapshot (start_pot, start_state and hand_seats.start_stack)
-- is written before the first card is dealt, so a hand interrupted by a crash can be cancelled.
CREATE TABLE hands (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER NOT NULL REFERENCES poker_tables (id),
    number      INTEGER NOT NULL CHECK (number >= 1),
    status      TEXT    NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'cancelled')),
    started_at  INTEGER NOT NULL,
    start_pot   INTEGER NOT NULL CHECK (start_pot >= 0),
    start_state TEXT    NOT NULL,                -- JSON
    finished_at INTEGER,
    end_pot     INTEGER CHECK (end_pot >= 0),
    end_state   TEXT,                            -- JSON
    record      TEXT,                            -- JSON: the engine's hand record
    UNIQUE (table_id, number)
) STRICT;

CREATE UNIQUE INDEX one_running_hand_per_table ON hands (table_id) WHERE status = 'running';

CREATE TABLE hand_seats (
    hand_id     INTEGER NOT NULL REFERENCES hands (id),
    user_id     INTEGER NOT NULL,
    start_stack INTEGER NOT NULL CHECK (start_stack >= 0),
    end_stack   INTEGER CHECK (end_stack >= 0),
    PRIMARY KEY (hand_id, user_id)
) STRICT;

CREATE INDEX hand_seats_by_user ON hand_seats (user_id, hand_id);

-- The ledger is append-only and double-entry. A movement is one operation (one transaction);
-- its entries say which accounts it changed and by how much. An account is a player's balance,
-- a player's seat at a table, or a table's pot. The reasons `start`, `bonus` and `grant` bring new
-- chips into a server (one positive balance entry); every other movement only moves chips, so its
-- entries add up to zero.
CREATE TABLE movements (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    reason     TEXT    NOT NULL CHECK (reason IN
                   ('start', 'bonus', 'grant', 'buy_in', 'cash_out', 'close', 'hand', 'refund')),
    table_id   INTEGER REFERENCES poker_tables (id),
    hand_id    INTEGER REFERENCES hands (id),
    by_user_id INTEGER,                          -- the admin who granted
    created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE entries (
    id          INTEGER PRIMARY KEY,
    movement_id INTEGER NOT NULL REFERENCES movements (id),
    guild_id    INTEGER NOT NULL,
    account     TEXT    NOT NULL CHECK (account IN ('balance', 'seat', 'pot')),
    user_id     INTEGER,
    table_id    INTEGER REFERENCES poker_tables (id),
    amount      INTEGER NOT NULL CHECK (amount <> 0),
    CHECK (
        (account = 'balance' AND user_id IS NOT NULL AND table_id IS NULL)
        OR (account = 'seat' AND user_id IS NOT NULL AND table_id IS NOT NULL)
        OR (account = 'pot' AND user_id IS NULL AND table_id IS NOT NULL)
    )
) STRICT;

CREATE INDEX entries_by_player ON entries (guild_id, user_id, id);
CREATE INDEX entries_by_table ON entries (table_id, account, user_id);
CREATE INDEX entries_by_movement ON entries (movement_id);

-- Append-only: the ledger can be read and added to, never changed.
CREATE TRIGGER movements_append_only_update BEFORE UPDATE ON movements
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TRIGGER movements_append_only_delete BEFORE DELETE ON movements
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TRIGGER entries_append_only_update BEFORE UPDATE ON entries
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TRIGGER entries_append_only_delete BEFORE DELETE ON entries
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
