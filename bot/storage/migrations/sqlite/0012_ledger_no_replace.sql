-- 0012: the ledger stays append-only under INSERT OR REPLACE (REPLACE INTO) and upserts.
-- A REPLACE that meets an existing id deletes that row without firing its DELETE trigger (SQLite
-- fires them for a replace only with recursive_triggers on, a setting of each connection that any
-- other client leaves off), so the triggers of 0001 alone would let a tool rewrite a movement or an
-- entry in place. An insert whose id is already there is refused before any replace can happen; a
-- new row (no id given, or a new one) costs one primary-key lookup.
CREATE TRIGGER movements_append_only_replace BEFORE INSERT ON movements
WHEN EXISTS (SELECT 1 FROM movements WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TRIGGER entries_append_only_replace BEFORE INSERT ON entries
WHEN EXISTS (SELECT 1 FROM entries WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
