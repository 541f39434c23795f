-- 0009: the hands of a tournament, for /mano at its table.

-- A tournament's hands are not rows of `hands`: their chips are tournament chips, which live in the
-- tournament's `state`, never in the ledger. Each hand gets a row here instead, written in the same
-- transaction as the tournament's state: 'running' when it is dealt, 'finished' with the engine's
-- record (and the fair deck's reveal) at its boundary; a hand a restart interrupted stays 'running'
-- until the next deal marks it 'cancelled'.
CREATE TABLE tournament_hands (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    number        INTEGER NOT NULL CHECK (number >= 1),
    status        TEXT    NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'cancelled')),
    record        TEXT,                          -- JSON: the engine's hand record, once finished
    finished_at   INTEGER,
    PRIMARY KEY (tournament_id, number)
) STRICT;
