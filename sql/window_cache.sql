-- The query's cache of stored values (type/probe.c): a query that checks
-- keys against many stored filters in turn (a rolling window of 24
-- buckets, a table of shards) reads each value once, not once per switch
-- from one value to another, within bloomfilter.cache_memory; past it,
-- values are read by slices, and every answer is the one the uncached
-- path gives.  Buffer counts (EXPLAIN (ANALYZE, BUFFERS)) show the reads.
-- Values kept between queries (sql/session_cache) would hide them: off.
SET max_parallel_workers_per_gather = 0;
SET bloomfilter.session_cache_memory = 0;

-- 24 hourly buckets of 100,000 keys at 1% (120 kB, about 60 TOAST chunks
-- each, out of line and uncompressed): bucket h holds h * 1000000 + 1 ..
-- h * 1000000 + 5000
CREATE TABLE wc_seen (bucket int PRIMARY KEY, bf bloomfilter NOT NULL);
INSERT INTO wc_seen
	SELECT h, (SELECT bf_agg(h * 1000000::bigint + g, 100000, 0.01) FROM generate_series(1, 5000) g)
	FROM generate_series(0, 23) h;
VACUUM ANALYZE wc_seen;
SELECT count(*) AS buckets, min(pg_column_size(bf)) AS bytes,
	count(*) FILTER (WHERE pg_column_compression(bf) IS NULL) AS uncompressed FROM wc_seen;
-- the setting exists once the library is loaded (it is now)
SHOW bloomfilter.cache_memory;

-- the shared buffers a statement touched (hit or read)
CREATE FUNCTION wc_buffers(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || query
		INTO plan;
	RETURN (plan->0->'Plan'->>'Shared Hit Blocks')::bigint +
		(plan->0->'Plan'->>'Shared Read Blocks')::bigint;
END $$;

-- the README's check over the last n buckets, for the keys -1 .. -k (absent:
-- each is checked against every bucket); the keys come from a function, so
-- only the buckets and their values count buffers
CREATE FUNCTION wc_window(n int, k int) RETURNS text LANGUAGE sql AS $$
	SELECT format('SELECT count(*) FROM generate_series(1, %s) g WHERE EXISTS '
		'(SELECT FROM wc_seen WHERE bucket < %s AND bf_contains(bf, -g::bigint))', k, n)
$$;
SELECT pg_relation_size(reltoastrelid) / 8192 AS toast_pages
FROM pg_class WHERE relname = 'wc_seen' \gset

-- Each value is read once per query: 2,000 keys x 24 buckets touch as many
-- buffers as 1,000 keys do (the reads of the first checks, then none), about
-- the pages of the values themselves; 1.4 held 8 values per call site, and
-- read 4 buffers per check of a ninth or later: 190,000 here.
-- (a first run fills the session's catalog caches, whose reads count too)
SELECT wc_buffers(wc_window(24, 10)) > 0 AS warm;
SELECT wc_buffers(wc_window(24, 1000)) AS all_1000, wc_buffers(wc_window(24, 2000)) AS all_2000 \gset
SELECT :all_2000 = :all_1000 AS once_per_query, :all_2000 <= :toast_pages + 24 * 40 AS about_the_values;
-- 8 buckets as well, and a week's worth would be the same: a window of 24
-- costs three times a window of 8, as its values are
SELECT wc_buffers(wc_window(24, 2000)) <= 3 * wc_buffers(wc_window(8, 2000)) + 24 AS linear;

-- A budget smaller than one value: nothing is held, every check reads
-- slices, so the buffers grow with the keys; the answers are the same.
SET bloomfilter.cache_memory = '64kB';
SELECT wc_buffers(wc_window(24, 200)) AS none_200, wc_buffers(wc_window(24, 400)) AS none_400 \gset
SELECT :none_200 > 24 * 200 AS slices_per_check, :none_400 > 2 * :none_200 - 24 * 10 AS grows_with_keys;
-- A budget for some of the values (1 MB: 8 of the 24): those stay held and
-- the others are read by slices, rather than each evicting the next one
-- needed; fewer buffers than holding none, more than holding all.
SET bloomfilter.cache_memory = '1MB';
SELECT wc_buffers(wc_window(24, 400)) AS some_400 \gset
RESET bloomfilter.cache_memory;
SELECT wc_buffers(wc_window(24, 400)) AS all_400 \gset
SELECT :some_400 < :none_400 - 8 * 400 AS some_held, :some_400 > :all_400 AS not_all_held;
SET bloomfilter.cache_memory = 0;
SELECT wc_buffers(wc_window(8, 400)) > 8 * 400 AS zero_holds_none;
RESET bloomfilter.cache_memory;
SHOW bloomfilter.cache_memory;

-- Answers.  For every key (present in one bucket, absent, or a false
-- positive), the buckets that say it may be present: the same with the
-- cache, with a budget for some values, and with none; present keys are
-- found in their bucket.
CREATE TABLE wc_keys AS
	SELECT (g % 24) * 1000000::bigint + (g * 7) % 6000 + 1 AS k FROM generate_series(1, 3000) g
	UNION ALL SELECT -g FROM generate_series(1, 500) g;
CREATE FUNCTION wc_answers() RETURNS TABLE (k bigint, buckets int[]) LANGUAGE sql AS $$
	SELECT k, array_agg(bucket ORDER BY bucket) FILTER (WHERE bf_contains(bf, k))
	FROM wc_keys, wc_seen GROUP BY k
$$;
CREATE TABLE wc_cached AS SELECT * FROM wc_answers();
SET bloomfilter.cache_memory = '1MB';
CREATE TABLE wc_some AS SELECT * FROM wc_answers();
SET bloomfilter.cache_memory = 0;
CREATE TABLE wc_none AS SELECT * FROM wc_answers();
RESET bloomfilter.cache_memory;
SELECT count(*) AS keys,
	count(*) FILTER (WHERE c.buckets IS NOT DISTINCT FROM n.buckets) AS same_uncached,
	count(*) FILTER (WHERE c.buckets IS NOT DISTINCT FROM s.buckets) AS same_partial
FROM wc_cached c JOIN wc_none n USING (k) JOIN wc_some s USING (k);
SELECT count(*) AS present, count(*) FILTER (WHERE (k / 1000000)::int = ANY (buckets)) AS found
FROM wc_cached WHERE k > 0 AND k % 1000000 <= 5000;

-- The same Datum position, different values: the window's buckets come
-- through a Materialize node (one slot, one address, 24 values) and a
-- sort; in-line values (small filters) among out-of-line ones; a
-- compressed out-of-line value; the checks of both filter types and
-- bf_contains_all in one query.
CREATE TABLE wc_mixed (id int PRIMARY KEY, bf bloomfilter, cf cuckoofilter);
CREATE TABLE wc_mixed_z (LIKE wc_mixed);
ALTER TABLE wc_mixed_z ALTER COLUMN bf SET STORAGE extended;
-- in line (20 keys), out of line (5000 keys); compressed (50 keys in 300,000)
INSERT INTO wc_mixed
	SELECT h, (SELECT bf_agg(h * 1000000::bigint + g, CASE WHEN h % 2 = 0 THEN 20 ELSE 50000 END, 0.01)
			FROM generate_series(1, CASE WHEN h % 2 = 0 THEN 20 ELSE 5000 END) g),
		(SELECT cf_agg(h * 1000000::bigint + g, 50000, 0.01) FROM generate_series(1, 5000) g)
	FROM generate_series(0, 7) h;
INSERT INTO wc_mixed_z
	SELECT h, (SELECT bf_agg(h * 1000000::bigint + g, 300000, 0.01) FROM generate_series(1, 50) g),
		(SELECT cf_agg(h * 1000000::bigint + g, 50000, 0.01) FROM generate_series(1, 5000) g)
	FROM generate_series(8, 11) h;
SELECT count(*) FILTER (WHERE pg_column_size(bf) < 2000) AS in_line,
	count(*) FILTER (WHERE pg_column_size(bf) >= 2000 AND pg_column_compression(bf) IS NULL) AS out_of_line,
	count(*) FILTER (WHERE pg_column_size(bf) >= 2000 AND pg_column_compression(bf) IS NOT NULL) AS compressed
FROM (SELECT bf FROM wc_mixed UNION ALL SELECT bf FROM wc_mixed_z) m;
CREATE FUNCTION wc_mixed_answers() RETURNS TABLE (k bigint, bf int[], cf int[], bf_all int[])
LANGUAGE sql AS $$
	SELECT k, array_agg(id ORDER BY id) FILTER (WHERE bf_contains(m.bf, k)),
		array_agg(id ORDER BY id) FILTER (WHERE cf_contains(m.cf, k)),
		array_agg(id ORDER BY id) FILTER (WHERE (bf_contains_all(m.bf, ARRAY[k, k + 1]))[1])
	FROM (SELECT (g % 12) * 1000000::bigint + g % 5001 AS k FROM generate_series(1, 1500) g
		UNION ALL SELECT -g FROM generate_series(1, 200) g) keys
	CROSS JOIN LATERAL (SELECT * FROM wc_mixed UNION ALL SELECT * FROM wc_mixed_z
		ORDER BY id DESC OFFSET 0) m
	GROUP BY k
$$;
CREATE TABLE wc_mixed_cached AS SELECT * FROM wc_mixed_answers();
SET bloomfilter.cache_memory = 0;
CREATE TABLE wc_mixed_none AS SELECT * FROM wc_mixed_answers();
RESET bloomfilter.cache_memory;
SELECT count(*) AS keys,
	count(*) FILTER (WHERE row(c.*) IS NOT DISTINCT FROM row(n.*)) AS same,
	count(*) FILTER (WHERE c.k > 0 AND c.k % 1000000 BETWEEN 1 AND 20
		AND NOT ((c.k / 1000000)::int = ANY (c.bf) AND (c.k / 1000000)::int = ANY (c.cf))) AS missed
FROM wc_mixed_cached c JOIN wc_mixed_none n USING (k);

-- Rows updated while a cache lives.  A plpgsql function's RETURN is a
-- simple expression whose state lasts the transaction: its cache sees the
-- bucket before and after updates in the same transaction, each version a
-- new TOAST value.
CREATE FUNCTION wc_check(f bloomfilter, k bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	RETURN bf_contains(f, k);
END $$;
BEGIN;
SELECT count(*) FILTER (WHERE wc_check(bf, 5 * 1000000::bigint + g)) AS found_before,
	count(*) FILTER (WHERE wc_check(bf, 77000000 + g)) AS new_before
FROM wc_seen, generate_series(1, 100) g WHERE bucket = 5;
UPDATE wc_seen SET bf = bf_add_all(bf, ARRAY(SELECT 77000000 + g FROM generate_series(1, 100) g))
WHERE bucket = 5;
SELECT count(*) FILTER (WHERE wc_check(bf, 5 * 1000000::bigint + g)) AS found_after,
	count(*) FILTER (WHERE wc_check(bf, 77000000 + g)) AS new_after
FROM wc_seen, generate_series(1, 100) g WHERE bucket = 5;
UPDATE wc_seen SET bf = (SELECT bf_agg(88000000 + g, 100000, 0.01) FROM generate_series(1, 100) g)
WHERE bucket = 5;
SELECT count(*) FILTER (WHERE wc_check(bf, 5 * 1000000::bigint + g)) AS old_keys_replaced,
	count(*) FILTER (WHERE wc_check(bf, 88000000 + g)) AS replaced_found
FROM wc_seen, generate_series(1, 100) g WHERE bucket = 5;
COMMIT;
-- One statement that updates a bucket per row through a volatile function
-- and checks it in a subquery each row: the subquery sees the statement's
-- snapshot (the version before the updates) with and without the cache.
CREATE FUNCTION wc_bump(i int) RETURNS int LANGUAGE sql VOLATILE AS $$
	UPDATE wc_seen SET bf = bf_add(bf, 99000000 + i::bigint) WHERE bucket = 6 RETURNING i
$$;
CREATE TABLE wc_bumped AS
	SELECT wc_bump(i), (SELECT bf_contains(bf, 99000000 + i::bigint) FROM wc_seen WHERE bucket = 6) AS seen
	FROM generate_series(1, 30) i;
SET bloomfilter.cache_memory = 0;
CREATE TABLE wc_bumped_none AS
	SELECT wc_bump(i + 30), (SELECT bf_contains(bf, 99000000 + i + 30::bigint) FROM wc_seen WHERE bucket = 6) AS seen
	FROM generate_series(1, 30) i;
RESET bloomfilter.cache_memory;
SELECT (SELECT count(*) FILTER (WHERE seen) FROM wc_bumped) AS cached_seen,
	(SELECT count(*) FILTER (WHERE seen) FROM wc_bumped_none) AS uncached_seen,
	(SELECT count(*) FROM generate_series(1, 60) i, wc_seen
	 WHERE bucket = 6 AND bf_contains(bf, 99000000 + i::bigint)) AS all_added_after;

-- the setting's bounds
-- (the message's range differs between majors: 15 prints it without units)
DO $$ BEGIN SET bloomfilter.cache_memory = -1;
EXCEPTION WHEN OTHERS THEN RAISE NOTICE '% %', SQLSTATE, split_part(SQLERRM, ' (', 1); END $$;
SET bloomfilter.cache_memory = '2TB';
SET bloomfilter.cache_memory = '1GB';
SHOW bloomfilter.cache_memory;
RESET bloomfilter.cache_memory;

DROP FUNCTION wc_bump(int), wc_check(bloomfilter, bigint), wc_mixed_answers(), wc_answers(),
	wc_window(int, int), wc_buffers(text);
DROP TABLE wc_seen, wc_keys, wc_cached, wc_some, wc_none, wc_mixed, wc_mixed_z, wc_mixed_cached,
	wc_mixed_none, wc_bumped, wc_bumped_none;
