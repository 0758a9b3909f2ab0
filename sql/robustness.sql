-- Robustness: what users (and superusers) can reach that must answer with
-- a clean result or a clean error, never a crash, a leak or XX000.
\set VERBOSITY terse

CREATE TABLE rb AS SELECT g AS i, g::text AS t FROM generate_series(1, 1000) g;
ANALYZE rb;

-- the planner's row estimate of the top node of a query, not run
CREATE FUNCTION rb_rows(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
	RETURN (plan->0->'Plan'->>'Plan Rows')::bigint;
END $$;

-- 1. The estimators attached to operators that are not our checks (a
-- superuser can): the default selectivity, 0.1, and no crash.  Over int
-- and text, restriction and join clauses:
CREATE OPERATOR ### (LEFTARG = int, RIGHTARG = int, FUNCTION = int4eq,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
CREATE OPERATOR ### (LEFTARG = text, RIGHTARG = text, FUNCTION = texteq,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
SELECT rb_rows('SELECT * FROM rb WHERE i ### 5') AS int_restrict,
       rb_rows('SELECT * FROM rb WHERE 5 ### i') AS int_restrict_const_left,
       rb_rows('SELECT * FROM rb WHERE t ### ''5''') AS text_restrict,
       rb_rows('SELECT * FROM rb a JOIN rb b ON a.i ### b.i') AS int_join,
       rb_rows('SELECT * FROM rb a JOIN rb b ON a.t ### b.t') AS text_join;
SELECT count(*) FROM rb WHERE i ### 5;
SELECT count(*) FROM rb a JOIN rb b ON a.t ### b.t;
-- our C entry point declared over other types (never called here): the
-- function is ours but the filter side is not a bloomfilter
CREATE FUNCTION rb_fake_contains(int, int) RETURNS boolean
	AS '$libdir/bloomfilter', 'bloomfilter_contains' LANGUAGE C;
CREATE OPERATOR #@> (LEFTARG = int, RIGHTARG = int, FUNCTION = rb_fake_contains,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
SELECT rb_rows('SELECT * FROM rb WHERE 7 #@> i') AS fake_restrict,
       rb_rows('SELECT * FROM rb a JOIN rb b ON a.i #@> b.i') AS fake_join;
-- a filter on the side the function's name does not suggest: functions
-- named like ours in another schema, with their sides swapped, as
-- operators and as functions given our support function.  The argument
-- types say which side is the filter: estimated by calling them (3 of 1000
-- rows; 10 is the histogram's step), joins at the default
CREATE SCHEMA rb_other;
CREATE FUNCTION rb_other.bf_contains(int, bloomfilter) RETURNS boolean
	LANGUAGE plpgsql IMMUTABLE AS 'BEGIN RETURN public.bf_contains($2, $1); END';
CREATE FUNCTION rb_other.bf_contained(bloomfilter, int) RETURNS boolean
	LANGUAGE plpgsql IMMUTABLE AS 'BEGIN RETURN public.bf_contains($1, $2); END';
ALTER FUNCTION rb_other.bf_contains(int, bloomfilter) SUPPORT bloomfilter_support;
ALTER FUNCTION rb_other.bf_contained(bloomfilter, int) SUPPORT bloomfilter_support;
CREATE OPERATOR #<@ (LEFTARG = int, RIGHTARG = bloomfilter, FUNCTION = rb_other.bf_contains,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
CREATE OPERATOR #@> (LEFTARG = bloomfilter, RIGHTARG = int, FUNCTION = rb_other.bf_contained,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
CREATE TABLE rb_filters AS SELECT bf_add_all(bf_create(100), ARRAY[1, 2, 3]) AS bf;
ANALYZE rb_filters;
SELECT rb_rows('SELECT * FROM rb WHERE i #<@ bf_add_all(bf_create(100), ARRAY[1, 2, 3])') AS swapped_op,
       rb_rows('SELECT * FROM rb WHERE bf_add_all(bf_create(100), ARRAY[1, 2, 3]) #@> i') AS swapped_op2,
       rb_rows('SELECT * FROM rb WHERE rb_other.bf_contains(i, bf_add_all(bf_create(100), ARRAY[1, 2, 3]))') AS swapped_fn,
       rb_rows('SELECT * FROM rb WHERE rb_other.bf_contained(bf_add_all(bf_create(100), ARRAY[1, 2, 3]), i)') AS swapped_fn2,
       rb_rows('SELECT * FROM rb, rb_filters f WHERE i #<@ f.bf') AS swapped_join,
       rb_rows('SELECT * FROM rb, rb_filters f WHERE f.bf #@> i') AS swapped_join2;
SELECT count(*) FROM rb WHERE rb_other.bf_contains(i, bf_add_all(bf_create(100), ARRAY[1, 2, 3]));
SELECT count(*) FROM rb, rb_filters f WHERE f.bf #@> i;
-- a cuckoofilter check given bloomfilter's estimators: estimated as a
-- cuckoo filter (its type says so), not its bytes read as a bloom filter's
CREATE OPERATOR #~> (LEFTARG = cuckoofilter, RIGHTARG = anycompatible, FUNCTION = cf_contains,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
SELECT rb_rows('SELECT * FROM rb WHERE cf_add(cf_create(100), 1) #~> i') AS cuckoo_restrict;
SELECT count(*) FROM rb WHERE cf_add(cf_create(100), 1) #~> i;
DROP OPERATOR #~> (cuckoofilter, anycompatible);
-- our own checks keep their estimates: 3 members of 1000 rows, not 100
SELECT rb_rows('SELECT * FROM rb WHERE bf_add_all(bf_create(100), ARRAY[1, 2, 3]) @> i') < 50 AS op_estimated,
       rb_rows('SELECT * FROM rb WHERE i <@ bf_add_all(bf_create(100), ARRAY[1, 2, 3])') < 50 AS commuted_estimated,
       rb_rows('SELECT * FROM rb WHERE bf_contains(bf_add_all(bf_create(100), ARRAY[1, 2, 3]), i)') < 50 AS fn_estimated;
-- also over a domain of bloomfilter
CREATE DOMAIN rb_bf AS bloomfilter;
SELECT rb_rows('SELECT * FROM rb WHERE bf_add_all(bf_create(100), ARRAY[1, 2, 3])::rb_bf @> i') < 50 AS domain_estimated;
DROP OPERATOR #<@ (int, bloomfilter);
DROP OPERATOR #@> (bloomfilter, int);
DROP OPERATOR #@> (int, int);
DROP OPERATOR ### (int, int);
DROP OPERATOR ### (text, text);
DROP FUNCTION rb_fake_contains(int, int);
DROP SCHEMA rb_other CASCADE;

-- 4. Transition functions called directly, outside an aggregate: a clean
-- 0A000 naming the aggregate to use, for every form, with and without a
-- state
\set VERBOSITY default
SELECT bloomfilter_agg_trans(NULL::bloomfilter, 1);
\set VERBOSITY sqlstate
SELECT bloomfilter_agg_trans(NULL::bloomfilter, 1, 100);
SELECT bloomfilter_agg_trans(NULL::bloomfilter, 1, 100, 0.01);
SELECT bloomfilter_agg_trans(NULL::bloomfilter, 1, bf_create(100));
SELECT bloomfilter_agg_trans(bf_create(100), 1, 100, 0.01);
SELECT bloomfilter_agg_trans(bf_create(100), 'a'::text);
SELECT bloomfilter_agg_trans(bf_create(100), 1::bigint, bf_create(100));
\set VERBOSITY default
SELECT cuckoofilter_agg_trans(NULL::cuckoofilter, 1, 100);
\set VERBOSITY sqlstate
SELECT cuckoofilter_agg_trans(NULL::cuckoofilter, 1, 100, 0.01);
SELECT cuckoofilter_agg_trans(cf_create(100), 1, 100, 0.01);
SELECT cuckoofilter_agg_trans(cf_create(100), 'a'::text, 100);
\set VERBOSITY terse
-- the other functions aggregates use work on their own: the final
-- function and the combine functions
SELECT bloomfilter_agg_final(bf_add(bf_create(100), 1)) @> 1 AS final_alone,
       bf_union(bf_add(bf_create(100), 1), bf_add(bf_create(100), 2)) @> 2 AS union_alone,
       cf_merge(cf_add(cf_create(100), 1), cf_add(cf_create(100), 2)) @> 2 AS merge_alone;

-- 3. One call site switching between anonymous row types on every row
-- keeps one set of column types, not one per switch: the memory of the
-- backend's contexts, sampled during the query, does not grow with the
-- rows (about 210 bytes a switch before).  The sampling function is called
-- with the row number so that it runs again each time.  A filter of rows of
-- two shapes records neither's column types (bf_set_key_type 'record'),
-- or the second row would be converted to the first's.
CREATE FUNCTION rb_mem(int) RETURNS numeric LANGUAGE sql VOLATILE
	AS 'SELECT sum(total_bytes) FROM pg_backend_memory_contexts';
SELECT max(m) - min(m) < 500000 AS bounded, count(*) FILTER (WHERE c) AS found
FROM (SELECT CASE WHEN i IN (10000, 40000) THEN rb_mem(i) END AS m,
             bf_contains(f, CASE WHEN i % 2 = 0 THEN ROW(i, 'a'::text) ELSE ROW('a'::text, i) END) AS c
      FROM (SELECT bf_add(bf_set_key_type(bf_add(bf_create(100), ROW(2, 'a'::text)), 'record'),
                          ROW('a'::text, 3)) AS f) s,
           generate_series(1, 40000) i) q;
-- nested: a record whose second column switches row type, a cache below
-- a cache
SELECT max(m) - min(m) < 500000 AS bounded, count(*) FILTER (WHERE c) AS found
FROM (SELECT CASE WHEN i IN (10000, 40000) THEN rb_mem(i) END AS m,
             bf_contains(f, ROW(i, CASE WHEN i % 2 = 0 THEN ROW(i, 'a'::text) ELSE ROW('a'::text, i) END)) AS c
      FROM (SELECT bf_add(bf_create(100), ROW(2, ROW(2, 'a'::text))) AS f) s,
           generate_series(1, 40000) i) q;

-- 2. bf_contains_all goes through an array a batch of 65,536 elements at
-- a time (test/hardening/limits.sh checks 67 million): arrays just over a
-- batch, with NULLs at the boundary or none, several dimensions, expanded
-- arrays, in-line and stored filters, answer as bf_contains does, in a
-- result of the same bytes as before (a NULL bitmap only with NULLs)
CREATE TABLE rb_keys AS
	SELECT 'nulls' AS kind,
	       array_agg(CASE WHEN g % 1000 = 0 OR g IN (65536, 65537) THEN NULL ELSE g END ORDER BY g) AS keys
	FROM generate_series(1, 140000) g
	UNION ALL SELECT 'no nulls', array_agg(g ORDER BY g) FROM generate_series(1, 65537) g
	UNION ALL SELECT 'one batch', array_agg(g ORDER BY g) FROM generate_series(1, 65536) g;
CREATE TABLE rb_stored (name text, bf bloomfilter);
INSERT INTO rb_stored SELECT 'inline', bf_add_all(bf_create(1000, 0.1), ARRAY(SELECT g FROM generate_series(1, 140000, 149) g));
INSERT INTO rb_stored SELECT 'stored', bf_add_all(bf_create(200000), ARRAY(SELECT g FROM generate_series(1, 140000, 3) g));
SELECT name, pg_column_size(bf) > 2000 AS out_of_line FROM rb_stored ORDER BY name;
SELECT s.name, k.kind, cardinality(a) AS n, a = e AS agree, pg_column_size(a) = pg_column_size(e) AS same_size,
       (SELECT count(*) FROM unnest(a) x WHERE x) AS found, (SELECT count(*) FROM unnest(a) x WHERE x IS NULL) AS nulls
FROM rb_stored s CROSS JOIN rb_keys k,
     LATERAL (SELECT bf_contains_all(s.bf, k.keys) AS a,
                     ARRAY(SELECT bf_contains(s.bf, x) FROM unnest(k.keys) WITH ORDINALITY u(x, i) ORDER BY i) AS e) r
ORDER BY 1, 2;
-- two dimensions, each longer than a batch
SELECT s.name, bf_contains_all(s.bf, ARRAY[k.keys[1:70000], k.keys[70001:140000]]) =
       ARRAY[bf_contains_all(s.bf, k.keys[1:70000]), bf_contains_all(s.bf, k.keys[70001:140000])] AS agree,
       array_dims(bf_contains_all(s.bf, ARRAY[k.keys[1:70000], k.keys[70001:140000]])) AS dims
FROM rb_stored s, rb_keys k WHERE k.kind = 'nulls' ORDER BY 1;
-- an expanded array (a PL/pgSQL variable), with and without NULLs
CREATE FUNCTION rb_expanded(f bloomfilter, n int, with_nulls boolean) RETURNS boolean[]
LANGUAGE plpgsql AS $$
DECLARE
	a int[] := '{}';
BEGIN
	FOR i IN 1..n LOOP
		a[i] := CASE WHEN with_nulls AND i % 7 = 0 THEN NULL ELSE i END;
	END LOOP;
	RETURN bf_contains_all(f, a);
END $$;
SELECT s.name, w, rb_expanded(s.bf, 70000, w) = bf_contains_all(s.bf, ARRAY(
           SELECT CASE WHEN w AND g % 7 = 0 THEN NULL ELSE g END FROM generate_series(1, 70000) g)) AS agree,
       pg_column_size(rb_expanded(s.bf, 70000, w)) AS size
FROM rb_stored s, (VALUES (true), (false)) v(w) ORDER BY 1, 2;

-- 5. Merging or combining filters of different shapes fails on what their
-- headers say, before either is copied whole: the blocks of the TOAST
-- table read by the failing statement (from the statistics, flushed by
-- pg_stat_force_next_flush) are a few, not the ~70 each value fills
CREATE TABLE rb_big (name text, cf cuckoofilter, bf bloomfilter);
INSERT INTO rb_big VALUES ('a', cf_create(400000), bf_create(400000)),
                          ('b', cf_create(300000), bf_create(300000));
CREATE FUNCTION rb_toast_blocks(rel name) RETURNS bigint LANGUAGE sql VOLATILE AS $$
	SELECT pg_stat_clear_snapshot();
	SELECT toast_blks_read + toast_blks_hit FROM pg_statio_user_tables WHERE relname = rel
$$;
SELECT pg_stat_force_next_flush() AS flushed \gset
SELECT rb_toast_blocks('rb_big') AS before \gset
SELECT cf_merge(a.cf, b.cf) FROM rb_big a, rb_big b WHERE a.name = 'a' AND b.name = 'b';
SELECT pg_stat_force_next_flush() AS flushed \gset
SELECT rb_toast_blocks('rb_big') - :before < 10 AS merge_reads_headers;
SELECT rb_toast_blocks('rb_big') AS before \gset
SELECT bf_union(a.bf, b.bf) FROM rb_big a, rb_big b WHERE a.name = 'a' AND b.name = 'b';
SELECT pg_stat_force_next_flush() AS flushed \gset
SELECT rb_toast_blocks('rb_big') - :before < 10 AS union_reads_headers;
SELECT rb_toast_blocks('rb_big') AS before \gset
SELECT bf_intersect(a.bf, b.bf) FROM rb_big a, rb_big b WHERE a.name = 'a' AND b.name = 'b';
SELECT pg_stat_force_next_flush() AS flushed \gset
SELECT rb_toast_blocks('rb_big') - :before < 10 AS intersect_reads_headers;
-- the same shape still merges, whole (so the check above can see reads)
SELECT rb_toast_blocks('rb_big') AS before \gset
SELECT cf_items(cf_merge(a.cf, b.cf)) FROM rb_big a, rb_big b WHERE a.name = 'a' AND b.name = 'a';
SELECT pg_stat_force_next_flush() AS flushed \gset
SELECT rb_toast_blocks('rb_big') - :before > 100 AS merge_reads_values;
-- compressed and in-line operands: the shape error, the same
SELECT cf_merge(cf_create(100), cf_create(200));
ALTER TABLE rb_big ALTER COLUMN cf SET STORAGE main;
INSERT INTO rb_big VALUES ('c', cf_create(2000), NULL);
SELECT pg_column_size(cf) < 1000 AS compressed FROM rb_big WHERE name = 'c';
SELECT cf_merge(c.cf, a.cf) FROM rb_big a, rb_big c WHERE a.name = 'a' AND c.name = 'c';
SELECT cf_items(cf_merge(c.cf, cf_add(cf_create(2000), 1))) FROM rb_big c WHERE c.name = 'c';

-- 6. A cuckoo filter that grows: cf_agg's grown state is an expanded
-- object the executor adopts without a copy, and our own values grow in
-- place (test/hardening/limits.sh measures the memory up to 54000).  The
-- bytes are those of adds one by one, whichever path grew them: the
-- aggregate (sorted and hashed groups, a window), cf_add_all, cf_add
CREATE TABLE rb_cf_rows AS SELECT g % 3 AS grp, g AS x FROM generate_series(1, 3000) g;
ANALYZE rb_cf_rows;
CREATE TABLE rb_cf_built AS
	SELECT grp, cf_add_all(cf_create(50, 0.01, 0), array_agg(x ORDER BY x)) AS cf FROM rb_cf_rows GROUP BY grp;
SELECT grp, (cf_info(cf)->>'subfilters')::jsonb @? '$[3]' AS grew FROM rb_cf_built ORDER BY grp;
SET enable_hashagg = off;
SELECT a.grp, a.cf::bytea = b.cf::bytea AS same_bytes, cf_items(a.cf) AS items
FROM (SELECT grp, cf_agg(x, 50, 0.01 ORDER BY x) AS cf FROM rb_cf_rows GROUP BY grp) a
JOIN rb_cf_built b USING (grp) ORDER BY grp;
SET enable_hashagg = on;
SET enable_sort = off;
SELECT a.grp, a.cf::bytea = b.cf::bytea AS same_bytes
FROM (SELECT grp, cf_agg(x, 50, 0.01) AS cf FROM (SELECT * FROM rb_cf_rows ORDER BY x) s GROUP BY grp) a
JOIN rb_cf_built b USING (grp) ORDER BY grp;
RESET enable_sort;
-- a running window: each row's value is the state so far, flattened
SELECT bool_and(w.cf::bytea = cf_add_all(cf_create(50, 0.01, 0), ARRAY(SELECT g FROM generate_series(1, w.x) g))::bytea)
	AS window_agrees
FROM (SELECT x, cf_agg(x, 50, 0.01) OVER (ORDER BY x) AS cf FROM rb_cf_rows WHERE x <= 400) w
WHERE w.x % 50 = 0;
-- the aggregate's result read in place, as an initplan's value: every
-- member found, and the same answers as the stored filter
SELECT count(*) FILTER (WHERE grp = 1 AND cf_contains((SELECT cf_agg(x, 50, 0.01) FROM rb_cf_rows WHERE grp = 1), x)) AS members_found,
       count(*) FILTER (WHERE cf_contains((SELECT cf_agg(x, 50, 0.01) FROM rb_cf_rows WHERE grp = 1), x) <>
                              cf_contains((SELECT cf FROM rb_cf_built WHERE grp = 1), x)) AS disagree
FROM rb_cf_rows;
SELECT cf_merge((SELECT cf_agg(x, 50, 0.01) FROM rb_cf_rows WHERE grp = 1),
                (SELECT cf_agg(x, 50, 0.01) FROM rb_cf_rows WHERE grp = 2))::bytea =
       cf_merge((SELECT cf FROM rb_cf_built WHERE grp = 1), (SELECT cf FROM rb_cf_built WHERE grp = 2))::bytea
	AS merge_agrees;
SELECT cf_merge((SELECT cf_agg(x, 50, 0.01) FROM rb_cf_rows WHERE grp = 1),
                (SELECT cf_agg(x, 60, 0.01) FROM rb_cf_rows WHERE grp = 2));
-- cf_add growing one step at a time, and cf_add_all from a grown value
SELECT cf_add(cf_add_all(cf_create(50, 0.01, 0), ARRAY(SELECT g FROM generate_series(2, 2996, 3) g)), 2999)::bytea =
       (SELECT cf FROM rb_cf_built WHERE grp = 2)::bytea AS add_agrees;
-- a parallel aggregate whose partial states grow: combined as before
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT cf_items(cf_agg(x, 50, 0.01)) AS items,
       bool_and(cf_contains((SELECT cf_agg(x, 50, 0.01) FROM rb_cf_rows), x)) AS all_found
FROM rb_cf_rows;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
-- the header of a compressed bloom filter is read by decompressing its
-- front: fewer TOAST blocks than the whole compressed value fills.  Only
-- pglz can (PostgreSQL fetches all of an lz4 value for any slice of it),
-- and 19 compresses with lz4 by default: the column names pglz.
CREATE TABLE rb_zipped (name text, bf bloomfilter);
ALTER TABLE rb_zipped ALTER COLUMN bf SET STORAGE extended, ALTER COLUMN bf SET COMPRESSION pglz;
INSERT INTO rb_zipped VALUES
	('a', bf_add_all(bf_create(3000000), ARRAY(SELECT g * 7919 FROM generate_series(1, 3000) g))),
	('b', bf_add_all(bf_create(2000000), ARRAY(SELECT g * 7919 FROM generate_series(1, 3000) g)));
SELECT name, pg_column_size(bf) BETWEEN 20000 AND octet_length(bf::bytea) / 4 AS compressed_out_of_line
FROM rb_zipped ORDER BY name;
SELECT pg_stat_force_next_flush() AS flushed \gset
SELECT rb_toast_blocks('rb_zipped') AS before \gset
SELECT bf_capacity(bf) FROM rb_zipped WHERE name = 'a';
SELECT pg_stat_force_next_flush() AS flushed \gset
SELECT rb_toast_blocks('rb_zipped') - :before < 6 AS header_blocks;
SELECT rb_toast_blocks('rb_zipped') AS before \gset
SELECT bf_cardinality(bf) > 2000 AS some FROM rb_zipped WHERE name = 'a';
SELECT pg_stat_force_next_flush() AS flushed \gset
SELECT rb_toast_blocks('rb_zipped') - :before > 10 AS whole_blocks;
SELECT bf_capacity(bf), bf_nbits(bf), bf_bits_set(bf) > 0 AS some_set FROM rb_zipped ORDER BY name;
SELECT bf_union(a.bf, b.bf) FROM rb_zipped a, rb_zipped b WHERE a.name = 'a' AND b.name = 'b';
SELECT bf_intersect(a.bf, b.bf) FROM rb_zipped a, rb_zipped b WHERE a.name = 'a' AND b.name = 'b';
SELECT bf_bits_set(bf_union(a.bf, b.bf)) = bf_bits_set(a.bf) AS union_same
FROM rb_zipped a, rb_zipped b WHERE a.name = 'a' AND b.name = 'a';

DROP TABLE rb, rb_filters, rb_keys, rb_stored, rb_big, rb_cf_rows, rb_cf_built, rb_zipped;
DROP FUNCTION rb_rows(text), rb_mem(int), rb_expanded(bloomfilter, int, boolean),
	rb_toast_blocks(name);
DROP DOMAIN rb_bf;
