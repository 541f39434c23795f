-- 0011: each player's finishing place and prize in a finished tournament, for /statistiche.

-- Written in the transaction that pays the prizes (and flips the tournament to 'finito'), one row
-- per entrant; the chips themselves are in the ledger (the buy-in and the prize are movements with
-- the tournament's id), so a player's net result is read from there, never from here.
CREATE TABLE tournament_places (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    place         INTEGER NOT NULL CHECK (place >= 1),
    prize         INTEGER NOT NULL CHECK (prize >= 0),
    PRIMARY KEY (tournament_id, user_id)
) STRICT;

CREATE INDEX tournament_places_by_player ON tournament_places (guild_id, user_id);
