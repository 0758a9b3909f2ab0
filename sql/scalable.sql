-- Scalable filters (layout 3): sub-filters added as elements arrive, each
-- larger (expansion) and tighter (half the rate), so the compound rate
-- stays under the request.
SELECT get_byte(f::bytea, 5) AS layout, bf_info(f)->>'layout' AS name,
       bf_info(f)->>'expansion' AS expansion, jsonb_array_length(bf_info(f)->'subfilters') AS subfilters,
       bf_info(f)->'subfilters'->0->>'capacity' AS first_capacity,
       bf_info(f)->'subfilters'->0->>'error_rate' AS first_rate
FROM (SELECT bf_create(1000, 0.01, expansion => 2) f) s;
SELECT bf_create(1000, 0.01, expansion => 0)::bytea = bf_create(1000, 0.01)::bytea AS expansion_0_is_fixed;

-- 1x, 10x and 100x the initial capacity: the rate stays under 1%, and the
-- items are counted exactly (an element already present does not count)
CREATE TABLE sc (n int, f bloomfilter);
INSERT INTO sc SELECT n, bf_add_all(bf_create(1000, 0.01, expansion => 2), ARRAY(SELECT generate_series(1, n)))
FROM (VALUES (1000), (10000), (100000)) v(n);
SELECT n, jsonb_array_length(bf_info(f)->'subfilters') AS subfilters,
       (bf_info(f)->>'items')::bigint BETWEEN n * 0.99 AND n AS items_close,
       (SELECT bool_and(f @> g) FROM generate_series(1, n) g) AS no_false_negatives,
       (SELECT count(*) FILTER (WHERE f @> g) FROM generate_series(1000001, 1100000) g) / 100000.0 < 0.01 AS rate_under_1pct,
       bf_fpp(f) < 0.01 AS estimate_under,
       round(length(f::bytea)::numeric / length(bf_create(n, 0.01)::bytea), 1) AS size_vs_fixed
FROM sc ORDER BY n;
SELECT (bf_info(bf_add_all(bf_create(1000, 0.01, expansion => 2), array_fill(7, ARRAY[500])))->>'items')::int AS repeats_count_once;

-- RedisBloom's test: reserve 100 at 0.1%, add 4,000 distinct items
WITH f AS (SELECT bf_add_all(bf_create(100, 0.001, expansion => 2), ARRAY(SELECT generate_series(1, 4000))) f)
SELECT abs((bf_info(f)->>'items')::int - 4000) <= 400 AS count_within_10pct,
       (SELECT count(*) FILTER (WHERE f @> g) FROM generate_series(10001, 20000) g) <= 10 AS at_most_0_1pct_of_10000
FROM f;

-- bf_agg(element): no sizing, scalable at 1%
SELECT (bf_info(f)->>'items')::int BETWEEN 49500 AND 50000 AS items, bf_info(f)->>'layout' AS layout,
       bf_error_rate(f) AS rate, bf_capacity(f) AS starts_at,
       (SELECT bool_and(f @> g) FROM generate_series(1, 50000) g) AS no_false_negatives
FROM (SELECT bf_agg(g) f FROM generate_series(1, 50000) g) s;

-- the template aggregate in a forced parallel plan: each partial fills its
-- share of every sub-filter, so the union keeps the rate
CREATE TABLE par AS SELECT g AS id FROM generate_series(1, 200000) g;
ANALYZE par;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
CREATE FUNCTION plan_is_parallel(query text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
	RETURN jsonb_path_exists(plan, 'strict $.**."Partial Mode" ? (@ == "Partial")');
END $$;
SELECT plan_is_parallel('SELECT bf_agg(id, bf_create(1000, 0.01, expansion => 2)) FROM par') AS parallel;
CREATE TABLE par_f AS SELECT bf_agg(id, bf_create(1000, 0.01, expansion => 2)) AS f FROM par;
RESET ALL;
-- each sub-filter of the union holds up to its capacity, so the rate is
-- about 0.9% (sizing's margin); which rows each worker gets varies from run
-- to run, so the measurement is allowed 1.2%
SELECT (SELECT bool_and(f @> id) FROM par) AS no_false_negatives,
       (SELECT count(*) FILTER (WHERE f @> g) FROM generate_series(1000001, 1100000) g) / 100000.0 < 0.012 AS rate_about_1pct,
       (bf_info(f)->>'items')::int BETWEEN 198000 AND 200000 AS items,
       (SELECT bool_and((s->>'items')::bigint <= (s->>'capacity')::bigint)
          FROM jsonb_array_elements(bf_info(f)->'subfilters') s) AS no_subfilter_overfilled,
       (SELECT string_agg((s->>'items') || '/' || (s->>'capacity'), ' ')
          FROM jsonb_array_elements(bf_info(f)->'subfilters') s) IS NOT NULL AS listed
FROM par_f;

-- union: sub-filter by sub-filter, when each sub-filter of the union holds
-- no more than it was sized for (a full sub-filter refuses any more:
-- scalable_union.sql); no intersection; shapes must match
WITH a AS (SELECT bf_add_all(bf_create(1000, 0.01, expansion => 2), ARRAY(SELECT generate_series(1, 400))) f),
     b AS (SELECT bf_add_all(bf_create(1000, 0.01, expansion => 2), ARRAY(SELECT generate_series(3001, 3500))) f)
SELECT (SELECT bool_and((a.f | b.f) @> g) FROM (SELECT generate_series(1, 400) UNION ALL SELECT generate_series(3001, 3500)) s(g)) AS union_has_all,
       (a.f | b.f)::bytea = (b.f | a.f)::bytea AS commutes,
       (bf_info(a.f | b.f)->>'items')::int = (bf_info(a.f)->>'items')::int + (bf_info(b.f)->>'items')::int AS items_add
FROM a, b;
SELECT bf_create(1000, 0.01, expansion => 2) & bf_create(1000, 0.01, expansion => 2);
-- either operand: the layout that cannot intersect says why, before shapes
SELECT bf_create(1000, 0.01) & bf_create(1000, 0.01, expansion => 2);
SELECT bf_create(1000, 0.01, expansion => 2) | bf_create(2000, 0.01, expansion => 2);
SELECT bf_create(1000, 0.01, expansion => 2) | bf_create(1000, 0.01, expansion => 3);
SELECT bf_create(1000, 0.01, expansion => 2) | bf_create(1000, 0.01);

-- growth ends at the limits with an error, never a wrong answer
SELECT bf_add_all(bf_create(10, 1e-9, expansion => 1), ARRAY(SELECT generate_series(1, 40)));
SELECT bf_create(1000, 0.01, expansion => -1);
SELECT bf_create(1000, 0.01, expansion => 2000);
SELECT bf_create(1000, 0.01, counting => true, expansion => 2);
SELECT bf_create(1000, 1.5e-10, expansion => 2);      -- half the rate is below the minimum
SELECT bf_create(600000000, 0.01, expansion => 2);    -- fits plain, not at half the rate
\set VERBOSITY sqlstate
SELECT bf_create(600000000, 0.01, expansion => 2);
\set VERBOSITY default

-- stored, read back through every path
CREATE TABLE st (f bloomfilter);
INSERT INTO st SELECT f FROM sc WHERE n = 100000;
SELECT (SELECT count(*) FILTER (WHERE st.f @> g) FROM generate_series(1, 100000) g) AS found_stored,
       f::text::bloomfilter::bytea = f::bytea AS text_round_trip
FROM st;

-- pinned bytes of a small scalable filter that grew twice
SELECT md5(bf_add_all(bf_create(10, 0.01, expansion => 2), ARRAY(SELECT generate_series(1, 50)))::bytea) AS pinned;

-- binary input checks every sub-filter
CREATE TABLE good AS SELECT bf_add_all(bf_create(10, 0.01, expansion => 2), ARRAY(SELECT generate_series(1, 20)))::bytea AS b;
SELECT b::bloomfilter::bytea = b AS round_trip FROM good;
SELECT overlay(b placing '\x00' from 49 for 1)::bloomfilter FROM good;        -- expansion 0
SELECT overlay(b placing '\x09' from 53 for 1)::bloomfilter FROM good;        -- fill divisor 9: only inside an aggregate
SELECT overlay(b placing '\xff' from 57 for 1)::bloomfilter FROM good;        -- reserved
SELECT overlay(b placing '\x0b' from 97 for 1)::bloomfilter FROM good;        -- first sub-filter's capacity
SELECT overlay(b placing '\x03' from 8 for 1)::bloomfilter FROM good;         -- sub-filter count
SELECT overlay(b placing '\x01' from 80 for 1)::bloomfilter FROM good;        -- first sub-filter's k

DROP TABLE sc, par, par_f, st, good;
DROP FUNCTION plan_is_parallel(text);
