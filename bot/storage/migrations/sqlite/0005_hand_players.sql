-- 0005: one summary row per player per finished hand, for /statistiche and the night's summary.

-- Written by finish_hand in the same transaction as the hand's chips, from the engine's events
-- (bot/hand_summary.py), so the statistics are aggregate queries over these rows and never need
-- the JSON records. `net` is the player's chip result in the hand (what he won minus what he put
-- in; a pot carried to the next hand counts against who put chips into it). `pot_won` is every
-- chip he received from the pots. `shown_strength` is the engine's strength of the hand he showed
-- at the showdown (rules §1: a total order inside one ranking), NULL when he showed nothing;
-- `shown_category` its category position in that ranking and `shown_text` what the table read.
CREATE TABLE hand_players (
    hand_id          INTEGER NOT NULL REFERENCES hands (id),
    guild_id         INTEGER NOT NULL,
    table_id         INTEGER NOT NULL REFERENCES poker_tables (id),
    variant          TEXT    NOT NULL,
    user_id          INTEGER NOT NULL,
    net              INTEGER NOT NULL,
    won              INTEGER NOT NULL CHECK (won IN (0, 1)),
    pots_showdown    INTEGER NOT NULL CHECK (pots_showdown >= 0),
    pots_uncontested INTEGER NOT NULL CHECK (pots_uncontested >= 0),
    pot_won          INTEGER NOT NULL CHECK (pot_won >= 0),
    shown_strength   INTEGER,
    shown_category   INTEGER,
    shown_text       TEXT,
    PRIMARY KEY (hand_id, user_id)
) STRICT;

CREATE INDEX hand_players_by_player ON hand_players (guild_id, user_id, variant);
CREATE INDEX hand_players_by_table ON hand_players (table_id);
