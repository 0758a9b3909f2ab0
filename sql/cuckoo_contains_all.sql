-- cf_contains_all: cf_contains of every element, in the array's shape,
-- NULL for NULL elements (shared with bf_contains_all: bloom_contains_all).
CREATE TABLE cfa AS SELECT cf_add_all(cf_create(1000), ARRAY[1, 2, 3, 5, 8]::bigint[]) AS cf;
SELECT cf_contains_all(cf, ARRAY[1, 2, 4, 8, NULL]::bigint[]) FROM cfa;
SELECT cf_contains_all(cf, '{}'::bigint[]) AS empty, cf_contains_all(cf, NULL::bigint[]) AS null_array FROM cfa;
SELECT cf_contains_all(NULL::cuckoofilter, ARRAY[1]) AS null_filter;
-- shape and bounds are the input's
SELECT cf_contains_all(cf, '[0:1][2:4]={{1,4,NULL},{5,6,8}}'::bigint[]) AS two_d FROM cfa;
SELECT array_dims(cf_contains_all(cf, '[0:1][2:4]={{1,4,NULL},{5,6,8}}'::bigint[])) FROM cfa;
-- every element converted to the key type, as cf_contains converts it
SELECT cf_key_type(cf) FROM cfa;
SELECT cf_contains_all(cf, ARRAY['1', '5', '7', '08', NULL]::text[]) AS text_as_bigint,
       cf_contains_all(cf, ARRAY[1, 5, 7]::int4[]) AS int4_as_bigint,
       cf_contains_all(cf, ARRAY[1.0, 1.5, 8]::numeric[]) AS numeric_as_bigint FROM cfa;
SELECT cf_contains_all(cf, ARRAY['x']::text[]) FROM cfa;

-- the answers are cf_contains's, across batches (65536 elements each), for
-- a value in memory and one stored out of line
CREATE TABLE cfa_big AS SELECT cf_agg(g, 100000) AS cf FROM generate_series(1, 100000, 2) g;
SELECT octet_length(cf::bytea) > 8192 AS out_of_line FROM cfa_big;
SELECT count(*) AS n,
       bool_and(a.found = cf_contains(cf, a.i::int)) AS same_as_cf_contains,
       bool_and(a.found) FILTER (WHERE a.i % 2 = 1 AND a.i <= 100000) AS members_found,
       count(*) FILTER (WHERE a.found AND (a.i % 2 = 0 OR a.i > 100000)) < 3000 AS few_false_positives
FROM cfa_big,
     unnest(cf_contains_all(cf, (SELECT array_agg(g ORDER BY g) FROM generate_series(1, 150000) g)))
		WITH ORDINALITY AS a(found, i);
-- in memory, through a subquery's value
SELECT cf_contains_all(cf_add(cf, 2), ARRAY[1, 2, 4]) AS fresh_copy FROM cfa_big;
-- one call site, two stored values: the second is read, not the cached first
INSERT INTO cfa_big SELECT cf_agg(g, 100000) FROM generate_series(2, 100000, 2) g;
SELECT cf_contains_all(cf, ARRAY[1, 2]) AS per_row FROM cfa_big ORDER BY 1;

DROP TABLE cfa, cfa_big;
