-- 0012 (PostgreSQL): nothing to change. SQLite's 0012 refuses INSERT OR REPLACE on the ledger; here
-- an upsert (INSERT ... ON CONFLICT DO UPDATE) already fires the BEFORE UPDATE trigger of 0001, and
-- there is no REPLACE. The file keeps both dialects' migrations numbered alike.
SELECT 1;
