-- The bytes a build makes, pinned: bf_agg of every layout and cf_agg, of
-- several key types, sized and growing, as aggregates and as window
-- aggregates.  A build that batches, prefetches or reorders its work must
-- still write exactly these bytes (the digests were made by 1.4's code).
SET max_parallel_workers_per_gather = 0;
CREATE TABLE bd (i int8, t text, u uuid, n numeric);
INSERT INTO bd SELECT g, 'key ' || g, md5(g::text)::uuid, g / 7.0
FROM generate_series(1, 30000) g;

SELECT 'bf sized ' || c AS build, md5(bf_agg(i, c, 0.01)::bytea) FROM bd, (VALUES (1000), (30000), (1000000)) v(c) GROUP BY c
UNION ALL
SELECT 'bf unsized', md5(bf_agg(i)::bytea) FROM bd
UNION ALL
SELECT 'bf unsized text', md5(bf_agg(t)::bytea) FROM bd
UNION ALL
SELECT 'bf counting', md5(bf_agg(i, bf_create(30000, 0.01, counting => true))::bytea) FROM bd
UNION ALL
SELECT 'bf scalable', md5(bf_agg(i, bf_create(1000, 0.01, expansion => 2))::bytea) FROM bd
UNION ALL
SELECT 'bf uuid', md5(bf_agg(u, 30000, 0.001)::bytea) FROM bd
UNION ALL
SELECT 'bf numeric', md5(bf_agg(n, 30000, 0.01)::bytea) FROM bd
UNION ALL
SELECT 'cf sized ' || c, md5(cf_agg(i, c, 0.01)::bytea) FROM bd, (VALUES (1000), (30000), (1000000)) v(c) GROUP BY c
UNION ALL
SELECT 'cf text', md5(cf_agg(t, 30000, 0.001)::bytea) FROM bd
UNION ALL
SELECT 'cf uuid', md5(cf_agg(u, 5000)::bytea) FROM bd
ORDER BY 1;

-- groups of uneven sizes, one state each
SELECT i % 7 AS g, md5(bf_agg(i, 10000, 0.01)::bytea) AS bf, md5(cf_agg(i, 2000)::bytea) AS cf
FROM bd GROUP BY 1 ORDER BY 1;

-- a window aggregate reads its state after every row, then adds to it
SELECT md5(string_agg(md5(bf::bytea) || md5(cf::bytea), ',' ORDER BY i)) AS running
FROM (SELECT i, bf_agg(i, 200, 0.01) OVER w AS bf, cf_agg(i, 100) OVER w AS cf
	  FROM bd WHERE i <= 300 WINDOW w AS (ORDER BY i)) s;
DROP TABLE bd;

-- 1.5's second pass over the builds (a batch's marks of drawn cells, the
-- counting add's flat loop, the cuckoo batch and its walks followed
-- ahead): counters that saturate, more hashes per element, bf_add_all,
-- cf_add_all sized and growing, and the index build, whose snapshot is
-- bf_add_all's bytes.  These digests were made by the code before that
-- pass (main at 72cedd7).
CREATE TABLE bd2 (i int8);
INSERT INTO bd2 SELECT g FROM generate_series(1, 30000) g;
SELECT 'bf counting saturated' AS build, md5(bf_agg(i % 50, bf_create(1000, 0.01, counting => true))::bytea) FROM bd2
UNION ALL
SELECT 'bf counting k14', md5(bf_agg(i, bf_create(30000, 0.0001, counting => true))::bytea) FROM bd2
UNION ALL
SELECT 'bf sized k14', md5(bf_agg(i, 30000, 0.0001)::bytea) FROM bd2
UNION ALL
SELECT 'bf_add_all', md5(bf_add_all(bf_create(30000, 0.01), array_agg(i))::bytea) FROM bd2
UNION ALL
SELECT 'bf_add_all counting', md5(bf_add_all(bf_create(3000, 0.01, counting => true), array_agg(i % 700))::bytea) FROM bd2
UNION ALL
SELECT 'cf_add_all', md5(cf_add_all(cf_create(30000, 0.01), array_agg(i))::bytea) FROM bd2
UNION ALL
SELECT 'cf_add_all growing', md5(cf_add_all(cf_create(1000, 0.01), array_agg(i))::bytea) FROM bd2
ORDER BY 1;
CREATE INDEX bd2_bf ON bd2 USING bloomfilter (i) WITH (capacity = 30000, error_rate = 0.01);
SELECT 'index build' AS build, md5(bf_index_filter('bd2_bf')::bytea);
DROP TABLE bd2;
