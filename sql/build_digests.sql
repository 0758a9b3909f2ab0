-- The bytes a build makes, pinned: bf_agg of every layout and cf_agg, of
-- several key types, sized and growing, as aggregates and as window
-- aggregates.  A build that batches, prefetches or reorders its work must
-- still write exactly these bytes (the digests were made by 1.4's code).
SET max_parallel_workers_per_gather = 0;

-- New values carry hash id 5 (text as UTF-8 in every database), which in
-- a UTF8 database hashes every key as hash id 2 did: so each value with
-- its hash id bytes set back to 2 (the header's, and each sub-filter's of
-- a scalable filter) must still be exactly what the pinned digests say.
CREATE FUNCTION pin(b bytea) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
	pos int;
	nbits int8;
BEGIN
	IF substring(b FROM 1 FOR 4) = '\x434b4f46' THEN
		IF get_byte(b, 5) <> 5 THEN
			RAISE 'a new cuckoo filter has hash id %', get_byte(b, 5);
		END IF;
		RETURN md5(set_byte(b, 5, 2));
	END IF;
	IF get_byte(b, 6) <> 5 THEN
		RAISE 'a new bloomfilter has hash id %', get_byte(b, 6);
	END IF;
	b := set_byte(b, 6, 2);
	IF get_byte(b, 5) = 3 THEN
		-- scalable: a 16-byte prefix, then per sub-filter a count and a filter
		pos := 48 + 16;
		FOR i IN 1 .. get_byte(b, 7) LOOP
			pos := pos + 8;
			b := set_byte(b, pos + 6, 2);
			nbits := 0;
			FOR j IN REVERSE 7 .. 0 LOOP
				nbits := nbits * 256 + get_byte(b, pos + 16 + j);
			END LOOP;
			pos := pos + 48 + (nbits / 8)::int;
		END LOOP;
	END IF;
	RETURN md5(b);
END $$;
CREATE TABLE bd (i int8, t text, u uuid, n numeric);
INSERT INTO bd SELECT g, 'key ' || g, md5(g::text)::uuid, g / 7.0
FROM generate_series(1, 30000) g;

SELECT 'bf sized ' || c AS build, pin(bf_agg(i, c, 0.01)::bytea) FROM bd, (VALUES (1000), (30000), (1000000)) v(c) GROUP BY c
UNION ALL
SELECT 'bf unsized', pin(bf_agg(i)::bytea) FROM bd
UNION ALL
SELECT 'bf unsized text', pin(bf_agg(t)::bytea) FROM bd
UNION ALL
SELECT 'bf counting', pin(bf_agg(i, bf_create(30000, 0.01, counting => true))::bytea) FROM bd
UNION ALL
SELECT 'bf scalable', pin(bf_agg(i, bf_create(1000, 0.01, expansion => 2))::bytea) FROM bd
UNION ALL
SELECT 'bf uuid', pin(bf_agg(u, 30000, 0.001)::bytea) FROM bd
UNION ALL
SELECT 'bf numeric', pin(bf_agg(n, 30000, 0.01)::bytea) FROM bd
UNION ALL
SELECT 'cf sized ' || c, pin(cf_agg(i, c, 0.01)::bytea) FROM bd, (VALUES (1000), (30000), (1000000)) v(c) GROUP BY c
UNION ALL
SELECT 'cf text', pin(cf_agg(t, 30000, 0.001)::bytea) FROM bd
UNION ALL
SELECT 'cf uuid', pin(cf_agg(u, 5000)::bytea) FROM bd
ORDER BY 1;

-- groups of uneven sizes, one state each
SELECT i % 7 AS g, pin(bf_agg(i, 10000, 0.01)::bytea) AS bf, pin(cf_agg(i, 2000)::bytea) AS cf
FROM bd GROUP BY 1 ORDER BY 1;

-- a window aggregate reads its state after every row, then adds to it
SELECT md5(string_agg(pin(bf::bytea) || pin(cf::bytea), ',' ORDER BY i)) AS running
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
SELECT 'bf counting saturated' AS build, pin(bf_agg(i % 50, bf_create(1000, 0.01, counting => true))::bytea) FROM bd2
UNION ALL
SELECT 'bf counting k14', pin(bf_agg(i, bf_create(30000, 0.0001, counting => true))::bytea) FROM bd2
UNION ALL
SELECT 'bf sized k14', pin(bf_agg(i, 30000, 0.0001)::bytea) FROM bd2
UNION ALL
SELECT 'bf_add_all', pin(bf_add_all(bf_create(30000, 0.01), array_agg(i))::bytea) FROM bd2
UNION ALL
SELECT 'bf_add_all counting', pin(bf_add_all(bf_create(3000, 0.01, counting => true), array_agg(i % 700))::bytea) FROM bd2
UNION ALL
SELECT 'cf_add_all', pin(cf_add_all(cf_create(30000, 0.01), array_agg(i))::bytea) FROM bd2
UNION ALL
SELECT 'cf_add_all growing', pin(cf_add_all(cf_create(1000, 0.01), array_agg(i))::bytea) FROM bd2
ORDER BY 1;
CREATE INDEX bd2_bf ON bd2 USING bloomfilter (i) WITH (capacity = 30000, error_rate = 0.01);
SELECT 'index build' AS build, pin(bf_index_filter('bd2_bf')::bytea);
DROP TABLE bd2;
DROP FUNCTION pin(bytea);
