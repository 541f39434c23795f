-- 0009: the hands of a tournament, for /mano at its table (PostgreSQL; the same schema as SQLite's
-- 0009). 'running' when dealt, 'finished' with the engine's record at the boundary, 'cancelled' when
-- the deal after a restart finds the interrupted hand still 'running'.
CREATE TABLE tournament_hands (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id),
    number        INTEGER NOT NULL CHECK (number >= 1),
    status        TEXT    NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'cancelled')),
    record        TEXT,
    finished_at   BIGINT,
    PRIMARY KEY (tournament_id, number)
);
