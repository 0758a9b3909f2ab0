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
