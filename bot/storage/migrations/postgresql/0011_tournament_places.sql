-- 0011: each player's finishing place and prize in a finished tournament, for /statistiche
-- (PostgreSQL; the same schema as SQLite's 0011). Written with the prizes; the chips are in the ledger.
CREATE TABLE tournament_places (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id),
    guild_id      BIGINT  NOT NULL,
    user_id       BIGINT  NOT NULL,
    place         INTEGER NOT NULL CHECK (place >= 1),
    prize         BIGINT  NOT NULL CHECK (prize >= 0),
    PRIMARY KEY (tournament_id, user_id)
);

CREATE INDEX tournament_places_by_player ON tournament_places (guild_id, user_id);
