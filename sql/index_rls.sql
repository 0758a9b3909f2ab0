-- Reading a bloomfilter index under row-level security and column
-- privileges.  The filter holds the key of every row, so a caller whom the
-- policies show only some rows, or who cannot read a column the keys are
-- made of, is refused by every bf_index_* function (42501).
CREATE ROLE regress_bfr_owner;
CREATE ROLE regress_bfr_reader;
CREATE ROLE regress_bfr_bypass BYPASSRLS;

-- ---- row-level security ----
CREATE TABLE bfr_orders (id int4, tenant text);
ALTER TABLE bfr_orders OWNER TO regress_bfr_owner;
INSERT INTO bfr_orders SELECT g, CASE WHEN g % 2 = 0 THEN 'even' ELSE 'odd' END
FROM generate_series(1, 100) g;
CREATE INDEX bfr_orders_id ON bfr_orders USING bloomfilter (id) WITH (capacity = 1000);
GRANT SELECT ON bfr_orders TO regress_bfr_reader, regress_bfr_bypass;
CREATE POLICY bfr_even ON bfr_orders FOR SELECT TO regress_bfr_reader USING (tenant = 'even');
ALTER TABLE bfr_orders ENABLE ROW LEVEL SECURITY;

-- the reader sees the even rows only; the index would tell it about the
-- odd ones (1 is odd), export them, and count them
SET ROLE regress_bfr_reader;
SELECT count(*) AS visible_rows, bool_or(id = 1) AS sees_1 FROM bfr_orders;
SELECT bf_index_contains('bfr_orders_id', 1);
SELECT bf_index_contains_all('bfr_orders_id', ARRAY[1, 2]);
SELECT bf_index_filter('bfr_orders_id');
SELECT bf_index_info('bfr_orders_id')->'keys_at_build';
-- with row_security off a query fails rather than filter; so does the index
SET row_security = off;
SELECT count(*) FROM bfr_orders;
SELECT bf_index_contains('bfr_orders_id', 1);
RESET row_security;
RESET ROLE;

-- the owner bypasses its table's policies unless they are forced on it
SET ROLE regress_bfr_owner;
SELECT bf_index_contains('bfr_orders_id', 1) AS owner_not_forced,
	bf_index_info('bfr_orders_id')->'keys_at_build' AS keys;
RESET ROLE;
ALTER TABLE bfr_orders FORCE ROW LEVEL SECURITY;
SET ROLE regress_bfr_owner;
SELECT count(*) AS owner_forced_rows FROM bfr_orders;
SELECT bf_index_contains('bfr_orders_id', 1);
SELECT bf_index_filter('bfr_orders_id');
RESET ROLE;

-- a role with BYPASSRLS, and a superuser, read it even when forced, also
-- with row_security off
SET ROLE regress_bfr_bypass;
SELECT bf_index_contains('bfr_orders_id', 1) AS bypassrls,
	bf_contains(bf_index_filter('bfr_orders_id'), 1) AS bypassrls_filter;
SET row_security = off;
SELECT bf_index_contains_all('bfr_orders_id', ARRAY[1, 2]) AS bypassrls_row_security_off;
RESET row_security;
RESET ROLE;
SELECT bf_index_contains('bfr_orders_id', 1) AS superuser,
	bf_index_info('bfr_orders_id')->'keys_at_build' AS keys;

-- the decision is taken at every call, not when a plan is made: one
-- prepared statement, executed by roles of different rights
ALTER TABLE bfr_orders NO FORCE ROW LEVEL SECURITY;
PREPARE bfr_probe AS SELECT bf_index_contains('bfr_orders_id', 1);
SET ROLE regress_bfr_owner;
EXECUTE bfr_probe;
SET ROLE regress_bfr_reader;
EXECUTE bfr_probe;
RESET ROLE;
DEALLOCATE bfr_probe;

-- without ENABLE ROW LEVEL SECURITY the policy does nothing, for the
-- index as for queries
ALTER TABLE bfr_orders DISABLE ROW LEVEL SECURITY;
SET ROLE regress_bfr_reader;
SELECT count(*) AS visible_rows FROM bfr_orders;
SELECT bf_index_contains('bfr_orders_id', 1) AS rls_disabled;
RESET ROLE;
DROP TABLE bfr_orders;

-- ---- column privileges ----
-- SELECT on the table, or on every column the keys are made of: the key
-- columns, the columns an expression reads, the columns of a partial
-- index's predicate
CREATE TABLE bfr_people (id int4, region text, email text, salary int4);
ALTER TABLE bfr_people OWNER TO regress_bfr_owner;
INSERT INTO bfr_people SELECT g, CASE WHEN g % 2 = 0 THEN 'eu' ELSE 'us' END,
	'User' || g || '@Example.com', 1000 * g
FROM generate_series(1, 100) g;
CREATE INDEX bfr_people_id ON bfr_people USING bloomfilter (id) WITH (capacity = 1000);
CREATE INDEX bfr_people_salary ON bfr_people USING bloomfilter (salary) WITH (capacity = 1000);
CREATE INDEX bfr_people_id_region ON bfr_people USING bloomfilter (id, region) WITH (capacity = 1000);
CREATE INDEX bfr_people_id_salary ON bfr_people USING bloomfilter (id, salary) WITH (capacity = 1000);
CREATE INDEX bfr_people_next ON bfr_people USING bloomfilter ((id + 1)) WITH (capacity = 1000);
CREATE INDEX bfr_people_email ON bfr_people USING bloomfilter (lower(email)) WITH (capacity = 1000);
CREATE INDEX bfr_people_rich ON bfr_people USING bloomfilter (id) WITH (capacity = 1000)
	WHERE salary > 50000;
CREATE INDEX bfr_people_row ON bfr_people USING bloomfilter ((bfr_people IS NOT NULL)) WITH (capacity = 1000);

-- no right to any column: refused before the index is opened
SET ROLE regress_bfr_reader;
SELECT bf_index_contains('bfr_people_id', 1);
RESET ROLE;

GRANT SELECT (id, region) ON bfr_people TO regress_bfr_reader;
SET ROLE regress_bfr_reader;
-- indexes over the columns it may read
SELECT bf_index_contains('bfr_people_id', 1) AS id,
	bf_index_contains('bfr_people_id_region', ROW(2, 'eu')) AS id_region,
	bf_index_contains('bfr_people_next', 2) AS expression,
	bf_index_contains_all('bfr_people_id', ARRAY[1, 1000]) AS id_all,
	bf_contains(bf_index_filter('bfr_people_id'), 3) AS id_filter,
	bf_index_info('bfr_people_id')->'keys_at_build' AS id_keys;
-- an index over a column it may not read, by every function
SELECT bf_index_contains('bfr_people_salary', 1000);
SELECT bf_index_contains_all('bfr_people_salary', ARRAY[1000]);
SELECT bf_index_filter('bfr_people_salary');
SELECT bf_index_info('bfr_people_salary');
-- a multi-column index with one such column
SELECT bf_index_contains('bfr_people_id_salary', ROW(1, 1000));
-- an expression over one, a predicate reading one, the whole row
SELECT bf_index_contains('bfr_people_email', 'user1@example.com');
SELECT bf_index_contains('bfr_people_rich', 60);
SELECT bf_index_contains('bfr_people_row', true);
RESET ROLE;

-- granted every column, it reads them all, the whole row included
GRANT SELECT (email, salary) ON bfr_people TO regress_bfr_reader;
SET ROLE regress_bfr_reader;
SELECT bf_index_contains('bfr_people_salary', 1000) AS salary,
	bf_index_contains('bfr_people_id_salary', ROW(1, 1000)) AS id_salary,
	bf_index_contains('bfr_people_email', 'user1@example.com') AS email,
	bf_index_contains('bfr_people_rich', 60) AS rich,
	bf_index_contains('bfr_people_row', true) AS whole_row;
RESET ROLE;

-- the owner reads its indexes even after revoking its own SELECT
REVOKE SELECT ON bfr_people FROM regress_bfr_owner;
SET ROLE regress_bfr_owner;
SELECT bf_index_contains('bfr_people_salary', 1000) AS owner_without_select;
RESET ROLE;

DROP TABLE bfr_people;
DROP ROLE regress_bfr_owner;
DROP ROLE regress_bfr_reader;
DROP ROLE regress_bfr_bypass;
