-- Values kept between queries (type/probe.c): a session that checks one
-- stored filter query after query reads it whole once (in its second
-- statement at the earliest) and lends it to each later query after one
-- read of its first chunk, within
-- bloomfilter.session_cache_memory.  Whatever happens to the row (an
-- UPDATE, a DELETE with VACUUM and a new row, VACUUM FULL, TRUNCATE, DROP
-- and a new table of the same name, a rolled-back change), the next query
-- answers from the value the row holds then, as the uncached path does.
SET max_parallel_workers_per_gather = 0;

-- a million-key filter at 1% (1.2 MB, about 600 TOAST chunks), holding
-- the keys lo .. hi
CREATE FUNCTION sc_filter(lo int, hi int) RETURNS bloomfilter LANGUAGE sql AS $$
	SELECT bf_agg(g::bigint, 1000000, 0.01) FROM generate_series(lo, hi) g
$$;
CREATE TABLE sc (name text PRIMARY KEY, bf bloomfilter NOT NULL);
INSERT INTO sc VALUES ('a', sc_filter(1, 10000));
VACUUM ANALYZE sc;
-- the setting exists once the library is loaded (it is now)
SHOW bloomfilter.session_cache_memory;
SELECT pg_relation_size(reltoastrelid) / 8192 AS toast_pages
FROM pg_class WHERE relname = 'sc' \gset

-- the shared buffers a statement touched (hit or read)
CREATE FUNCTION sc_buffers(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || query
		INTO plan;
	RETURN (plan->0->'Plan'->>'Shared Hit Blocks')::bigint +
		(plan->0->'Plan'->>'Shared Read Blocks')::bigint;
END $$;
-- a batch of 100 keys spread over the filter (each in another block)
\set batch 'SELECT bf_contains_all(bf, ARRAY(SELECT g * 9973 FROM generate_series(1, 100) g)) FROM sc WHERE name = ''a'''
\set point 'SELECT bf_contains(bf, 9973::bigint) FROM sc WHERE name = ''a'''
-- kept values alive in this backend (each has its own memory context)
CREATE VIEW sc_kept AS
	SELECT count(*) AS kept FROM pg_backend_memory_contexts WHERE name = 'bloomfilter kept value';

-- Without keeping, every query reads its keys' chunks again; kept, a
-- query after the first reads the first chunk's page and the row's.
SET bloomfilter.session_cache_memory = 0;
SELECT sc_buffers(:'batch') > 0 AS warm;
SELECT sc_buffers(:'batch') AS off_1, sc_buffers(:'batch') AS off_2 \gset
SELECT kept AS kept_when_off FROM sc_kept;
RESET bloomfilter.session_cache_memory;
SELECT sc_buffers(:'batch') AS on_1 \gset
SELECT sc_buffers(:'batch') AS on_2 \gset
SELECT sc_buffers(:'batch') AS on_3, sc_buffers(:'batch') AS on_4, sc_buffers(:'point') AS on_point \gset
SELECT :off_1 > 40 AND :off_2 > 40 AS slices_each_query,
	:on_1 > 40 AND :on_1 < :toast_pages AS first_statement_slices,
	:on_2 >= :toast_pages AS second_reads_whole,
	:on_3 <= 3 AND :on_4 <= 3 AND :on_point <= 3 AS first_chunk_after,
	(SELECT kept FROM sc_kept) AS kept;

-- Point checks alone keep a value once they have read as many chunks as
-- a 32nd of it (600 chunks: about 20 checks), and no sooner.
INSERT INTO sc VALUES ('p', sc_filter(1, 10000));
SELECT sc_buffers('SELECT bf_contains(bf, 1::bigint) FROM sc WHERE name = ''p''') AS p_1 \gset
SELECT count(*) FILTER (WHERE sc_buffers('SELECT bf_contains(bf, 1::bigint) FROM sc WHERE name = ''p''') > :p_1 + 100)
	AS reads_whole_once, (SELECT kept FROM sc_kept) AS kept
FROM generate_series(1, 40);
SELECT sc_buffers('SELECT bf_contains(bf, 1::bigint) FROM sc WHERE name = ''p''') <= 3 AS point_kept;

-- Answers: the kept path against the uncached one (cache_memory 0 holds
-- nothing, in the query or the session) and against the keys added, for
-- 3,000 keys around the members, by a batch and by point checks.
CREATE FUNCTION sc_agree(lo int, hi int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	keys bigint[] := ARRAY(SELECT g FROM generate_series(lo - 1500, hi + 1500, greatest((hi - lo) / 1500, 1)) g);
	kept bool[];
	points bool[];
	plain bool[];
	budget text := current_setting('bloomfilter.cache_memory');
BEGIN
	SELECT bf_contains_all(bf, keys) INTO kept FROM sc WHERE name = 'a';
	SELECT array_agg(bf_contains(bf, k) ORDER BY i) INTO points
	FROM sc, unnest(keys) WITH ORDINALITY u(k, i) WHERE name = 'a';
	PERFORM set_config('bloomfilter.cache_memory', '0', false);
	SELECT bf_contains_all(bf, keys) INTO plain FROM sc WHERE name = 'a';
	PERFORM set_config('bloomfilter.cache_memory', budget, false);
	IF kept IS DISTINCT FROM plain OR points IS DISTINCT FROM plain THEN
		RETURN 'DIFFERENT';
	END IF;
	IF EXISTS (SELECT FROM unnest(keys, kept) u(k, f) WHERE k BETWEEN lo AND hi AND NOT f) THEN
		RETURN 'FALSE NEGATIVE';
	END IF;
	RETURN format('agree, %s of %s members found', (SELECT count(*) FROM unnest(keys, kept) u(k, f) WHERE f AND k BETWEEN lo AND hi),
		(SELECT count(*) FROM unnest(keys) k WHERE k BETWEEN lo AND hi));
END $$;
SELECT sc_agree(1, 10000);
SELECT sc_agree(1, 10000);

-- an UPDATE: a new value under a new OID
UPDATE sc SET bf = sc_filter(20001, 30000) WHERE name = 'a';
SELECT sc_agree(20001, 30000);
SELECT sc_agree(20001, 30000);
-- the row deleted, the table vacuumed, a new row of the same name
DELETE FROM sc WHERE name = 'a';
VACUUM sc;
INSERT INTO sc VALUES ('a', sc_filter(40001, 50000));
SELECT sc_agree(40001, 50000);
SELECT sc_agree(40001, 50000);
-- VACUUM FULL rewrites the TOAST table (the value keeps its OID)
VACUUM FULL sc;
SELECT sc_agree(40001, 50000);
-- a change rolled back: seen inside its transaction, gone after
BEGIN;
UPDATE sc SET bf = sc_filter(60001, 70000) WHERE name = 'a';
SELECT sc_agree(60001, 70000);
ROLLBACK;
SELECT sc_agree(40001, 50000);
-- TRUNCATE (a new, empty TOAST table) and a new row
TRUNCATE sc;
INSERT INTO sc VALUES ('a', sc_filter(80001, 90000));
SELECT sc_agree(80001, 90000);
SELECT sc_agree(80001, 90000);
-- DROP and a new table of the same name (a new TOAST relation)
DROP VIEW sc_kept;
DROP TABLE sc;
CREATE TABLE sc (name text PRIMARY KEY, bf bloomfilter NOT NULL);
INSERT INTO sc VALUES ('a', sc_filter(100001, 110000));
CREATE VIEW sc_kept AS
	SELECT count(*) AS kept FROM pg_backend_memory_contexts WHERE name = 'bloomfilter kept value';
SELECT sc_agree(100001, 110000);
SELECT sc_agree(100001, 110000);
-- a scalable filter and a cuckoo filter are kept alike
UPDATE sc SET bf = (SELECT bf_agg(g::bigint, bf_create(100000, 0.01, expansion => 2))
	FROM generate_series(1, 300000) g) WHERE name = 'a';
SELECT sc_agree(1, 300000);
SELECT sc_agree(1, 300000);
CREATE TABLE scf (cf cuckoofilter);
INSERT INTO scf SELECT cf_agg(g::bigint, 200000, 0.01) FROM generate_series(1, 100000) g;
SELECT count(*) FILTER (WHERE a) AS found, count(*) AS checked
FROM scf, unnest(cf_contains_all(cf, ARRAY(SELECT g::bigint FROM generate_series(1, 100000, 7) g))) a;
SELECT count(*) FILTER (WHERE a) AS found, count(*) AS checked
FROM scf, unnest(cf_contains_all(cf, ARRAY(SELECT g::bigint FROM generate_series(1, 100000, 7) g))) a;

-- Memory.  A lower setting lets values go at the next check; a value a
-- query still uses is freed when that query ends, on error too.
SELECT kept > 0 AS some_kept FROM sc_kept;
SET bloomfilter.session_cache_memory = '64kB';
SELECT bf_contains(bf, 1::bigint) FROM sc WHERE name = 'a';
SELECT kept AS kept_under_64kb FROM sc_kept;
RESET bloomfilter.session_cache_memory;
SELECT sc_agree(1, 300000);
SELECT sc_agree(1, 300000);
SELECT kept AS kept_again FROM sc_kept;
-- the batch borrows the value; then keeping is turned off inside the
-- query, and the next check lets it go: it lives until the query ends
SELECT bf_contains_all(bf, ARRAY[1, 2, 3]::bigint[]) AS borrowed,
	set_config('bloomfilter.session_cache_memory', '0', false) AS off,
	bf_contains(bf, 4::bigint) AS checked,
	(SELECT kept FROM sc_kept) AS during
FROM sc WHERE name = 'a';
SELECT kept AS after FROM sc_kept;
RESET bloomfilter.session_cache_memory;
SELECT sc_agree(1, 300000);
SELECT sc_agree(1, 300000);
SELECT kept AS kept_again FROM sc_kept;
SELECT bf_contains_all(bf, ARRAY[1, 2, 3]::bigint[]) AS borrowed,
	set_config('bloomfilter.session_cache_memory', '0', false) AS off,
	bf_contains(bf, 4::bigint) AS checked, 1 / (length(name) - 1) AS fails
FROM sc WHERE name = 'a';
SELECT kept AS after_error FROM sc_kept;
RESET bloomfilter.session_cache_memory;

DROP VIEW sc_kept;
DROP TABLE sc, scf;
DROP FUNCTION sc_filter, sc_buffers, sc_agree;
RESET max_parallel_workers_per_gather;
