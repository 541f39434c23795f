-- 0005: one summary row per player per finished hand (PostgreSQL; see the SQLite 0005 for what
-- each column means). Written by finish_hand in the same transaction as the hand's chips.
CREATE TABLE hand_players (
    hand_id          BIGINT  NOT NULL REFERENCES hands (id),
    guild_id         BIGINT  NOT NULL,
    table_id         BIGINT  NOT NULL REFERENCES poker_tables (id),
    variant          TEXT    NOT NULL,
    user_id          BIGINT  NOT NULL,
    net              BIGINT  NOT NULL,
    won              INTEGER NOT NULL CHECK (won IN (0, 1)),
    pots_showdown    INTEGER NOT NULL CHECK (pots_showdown >= 0),
    pots_uncontested INTEGER NOT NULL CHECK (pots_uncontested >= 0),
    pot_won          BIGINT  NOT NULL CHECK (pot_won >= 0),
    shown_strength   BIGINT,
    shown_category   INTEGER,
    shown_text       TEXT,
    PRIMARY KEY (hand_id, user_id)
);

CREATE INDEX hand_players_by_player ON hand_players (guild_id, user_id, variant);
CREATE INDEX hand_players_by_table ON hand_players (table_id);
