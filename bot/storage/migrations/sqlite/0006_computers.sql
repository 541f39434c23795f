-- 0006: computer players and the house account that stakes them.

-- A computer player sits with a negative user id (never a Discord snowflake, which is positive). He
-- has no account: his buy-in comes from the server's house account, the `accounts` row whose
-- user_id is 0 (`ledger.HOUSE`), and his stack goes back there when he leaves. This table keeps each
-- computer's level, so that a restart seats him again playing as before.
CREATE TABLE computers (
    table_id INTEGER NOT NULL REFERENCES poker_tables (id),
    user_id  INTEGER NOT NULL CHECK (user_id < 0),
    level    TEXT    NOT NULL CHECK (level IN ('facile', 'esperto')),
    PRIMARY KEY (table_id, user_id)
) STRICT;
