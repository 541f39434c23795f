-- 0006: computer players and the house account that stakes them (see the SQLite 0006): a computer
-- sits with a negative user id, his chips come from and go back to the house account (user_id 0).
CREATE TABLE computers (
    table_id BIGINT NOT NULL REFERENCES poker_tables (id),
    user_id  BIGINT NOT NULL CHECK (user_id < 0),
    level    TEXT   NOT NULL CHECK (level IN ('facile', 'esperto')),
    PRIMARY KEY (table_id, user_id)
);
