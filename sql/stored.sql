-- How a stored filter is read.  The filter lives out of line in TOAST;
-- EXPLAIN (ANALYZE, BUFFERS) counts the buffers each statement touched,
-- detoasting included.
CREATE TABLE filters (name text PRIMARY KEY, bf bloomfilter);
INSERT INTO filters SELECT 'k', bf_agg(g::bigint, 200000, 0.01) FROM generate_series(1, 200000) g;
CREATE TABLE probe AS SELECT g::bigint AS id FROM generate_series(1, 2000) g;
VACUUM ANALYZE filters;
VACUUM ANALYZE probe;
SELECT pg_column_size(bf) > 200000 AS out_of_line_and_uncompressed FROM filters;

-- buffers (shared hits and reads) a statement touched
CREATE FUNCTION blocks(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || query INTO plan;
	RETURN (plan->0->'Plan'->>'Shared Hit Blocks')::bigint
	     + (plan->0->'Plan'->>'Shared Read Blocks')::bigint;
END $$;
SET max_parallel_workers_per_gather = 0;

-- baselines: one full read of the value, and the probe scan without a filter
SELECT blocks('SELECT md5(bf::bytea) FROM filters WHERE name = ''k''') AS one_read \gset
SELECT blocks('SELECT count(*) FROM probe p JOIN filters f ON f.name = ''k'' WHERE p.id > 0') AS scan \gset
SELECT :one_read > 30 AS a_full_read_touches_many_blocks;

-- a point check reads the header and one block by slices, not the value
SELECT blocks('SELECT bf_contains(bf, 12345::bigint) FROM filters WHERE name = ''k''') < 20
	AS point_check_reads_little;

-- a join against the filters row detoasts the value once, not once per row
SELECT blocks('SELECT count(*) FROM probe p JOIN filters f ON f.name = ''k'' WHERE bf_contains(f.bf, p.id)')
	<= :scan + 2 * :one_read AS join_reads_once;

-- so does the scalar subquery form
SELECT blocks('SELECT count(*) FROM probe p WHERE bf_contains((SELECT bf FROM filters WHERE name = ''k''), p.id)')
	<= :scan + 2 * :one_read AS subquery_reads_once;

-- and the operator with its arguments swapped
SELECT blocks('SELECT count(*) FROM probe p JOIN filters f ON f.name = ''k'' WHERE p.id <@ f.bf')
	<= :scan + 2 * :one_read AS commutator_reads_once;

-- introspection reads only the header
SELECT blocks('SELECT bf_capacity(bf), bf_nbits(bf), bf_nhashes(bf), bf_bits_set(bf), bf_error_rate(bf) FROM filters WHERE name = ''k''') < 20
	AS header_reads_little;

-- the answers themselves
SELECT count(*) AS found FROM probe p JOIN filters f ON f.name = 'k' WHERE bf_contains(f.bf, p.id);
SELECT count(*) AS found FROM probe p WHERE bf_contains((SELECT bf FROM filters WHERE name = 'k'), p.id);

-- two filters probed alternately still give right answers (the cache is per value)
INSERT INTO filters SELECT 'odd', bf_agg(g::bigint, 200000, 0.01) FROM generate_series(1, 200000, 2) g;
SELECT f.name, count(*) FILTER (WHERE bf_contains(f.bf, p.id)) AS hits
FROM probe p CROSS JOIN filters f WHERE p.id <= 100 GROUP BY f.name ORDER BY f.name;

-- filters taken in turn, row by row (a join on region), are each read once
-- into the call site's cache, not by slices for every row
SELECT blocks('SELECT count(*) FROM probe p JOIN filters f ON f.name = CASE WHEN p.id % 2 = 0 THEN ''k'' ELSE ''odd'' END WHERE bf_contains(f.bf, p.id)')
	<= :scan + 4 * :one_read AS alternating_reads_each_once;
SELECT count(*) AS alternating_found
FROM probe p JOIN filters f ON f.name = CASE WHEN p.id % 2 = 0 THEN 'k' ELSE 'odd' END
WHERE bf_contains(f.bf, p.id);

-- after an update, the same query sees the new value
UPDATE filters SET bf = bf_add(bf, 999999999::bigint) WHERE name = 'k';
SELECT bf_contains(bf, 999999999::bigint) AS sees_update FROM filters WHERE name = 'k';

-- a filter stored compressed (if someone changes the storage) still answers
ALTER TABLE filters ALTER COLUMN bf SET STORAGE extended;
INSERT INTO filters SELECT 'empty', bf_create(200000);
SELECT pg_column_size(bf) < 10000 AS compressed, bf_contains(bf, 1) AS empty_has_nothing
FROM filters WHERE name = 'empty';
SELECT count(*) FROM probe p JOIN filters f ON f.name = 'empty' WHERE bf_contains(f.bf, p.id);
-- and one with members: every probe that was added is found through the
-- detoasted copy too
INSERT INTO filters SELECT 'sparse', bf_add_all(bf_create(200000), array_agg(g::bigint))
FROM generate_series(1, 50) g;
SELECT pg_column_size(bf) < 10000 AS compressed FROM filters WHERE name = 'sparse';
SELECT count(*) FILTER (WHERE p.id <= 50) AS members_found,
       count(*) FILTER (WHERE p.id > 50) < 20 AS few_false_positives
FROM probe p JOIN filters f ON f.name = 'sparse' WHERE bf_contains(f.bf, p.id);

-- bf_count of a stored counting filter reads the header and one block too
ALTER TABLE filters ALTER COLUMN bf SET STORAGE external;
INSERT INTO filters SELECT 'counting', bf_agg(g::bigint, bf_create(200000, 0.01, counting => true))
FROM generate_series(1, 200000) g;
SELECT blocks('SELECT bf_count(bf, 12345::bigint) FROM filters WHERE name = ''counting''') < 20
	AS count_reads_little;
SELECT bf_count(bf, 12345::bigint) AS count_member, bf_count(bf, 0::bigint) AS count_absent
FROM filters WHERE name = 'counting';

RESET max_parallel_workers_per_gather;
DROP TABLE filters, probe;
DROP FUNCTION blocks(text);
