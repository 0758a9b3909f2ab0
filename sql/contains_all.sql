-- bf_contains_all: bf_contains for every element of an array, in one call
CREATE TABLE ca (name text PRIMARY KEY, bf bloomfilter);
INSERT INTO ca VALUES ('small', bf_add_all(bf_create(100), ARRAY[1, 2, 3]));

-- answers in input order, NULL for NULL elements
SELECT bf_contains_all(bf, ARRAY[3, 42, NULL, 1, 2]) FROM ca WHERE name = 'small';
-- the shape and bounds of the input
SELECT bf_contains_all(bf, '{{1,2},{7,3}}'::int[]) FROM ca WHERE name = 'small';
SELECT bf_contains_all(bf, '[0:2]={3,9,1}'::int[]) FROM ca WHERE name = 'small';
-- empty in, empty out; NULL array or filter: NULL
SELECT bf_contains_all(bf, '{}'::int[]) AS empty, bf_contains_all(bf, NULL::int[]) IS NULL AS null_array,
       bf_contains_all(NULL, ARRAY[1]) IS NULL AS null_filter
FROM ca WHERE name = 'small';
SELECT bf_contains_all(bf, ARRAY[NULL, NULL]::int[]) FROM ca WHERE name = 'small';
-- other element types, widened integers, a literal array (text)
SELECT bf_contains_all(bf, ARRAY[1, 4]::int2[]) AS int2, bf_contains_all(bf, ARRAY[1, 4]::int8[]) AS int8,
       bf_contains_all(bf, ARRAY[1.0, 4]) AS numeric
FROM ca WHERE name = 'small';
SELECT bf_contains_all(bf_add_all(bf_create(100), ARRAY['a', 'b']), '{a,c,NULL}'::text[]) AS text_literal;
-- an untyped literal needs its type, as for bf_add_all
SELECT bf_contains_all(bf_create(100), '{a,c}');
SELECT bf_contains_all(bf_add_all(bf_create(100), ARRAY['a', 'b']), ARRAY['b', 'z']::varchar[]) AS varchar;
-- not an array (terse: 19 words the hint of a missing function otherwise)
\set VERBOSITY terse
SELECT bf_contains_all(bf, 1) FROM ca WHERE name = 'small';
\set VERBOSITY default

-- agreement with bf_contains over many keys, for every form of a value:
-- in line, out of line (read by slices, then held by the call site),
-- compressed, and for both hash ids (a hash id 1 filter is made by setting
-- header byte 6, as release 1.1 wrote it)
INSERT INTO ca SELECT 'inline', bf_add_all(bf_create(300, 0.1), array_agg(g)) FROM generate_series(1, 300, 3) g;
INSERT INTO ca SELECT 'stored', bf_agg(g, 200000, 0.01) FROM generate_series(1, 200000, 3) g;
INSERT INTO ca SELECT 'stored_h1', bf_add_all(overlay(bf_create(200000, 0.01)::bytea placing '\x01' from 7 for 1)::bloomfilter,
                                             array_agg(g)) FROM generate_series(1, 200000, 3) g;
INSERT INTO ca SELECT 'text_h1', bf_add_all(overlay(bf_create(20000, 0.01)::bytea placing '\x01' from 7 for 1)::bloomfilter,
                                           array_agg('k' || g)) FROM generate_series(1, 20000, 3) g;
INSERT INTO ca SELECT 'text', bf_add_all(bf_create(20000, 0.01), array_agg('k' || g)) FROM generate_series(1, 20000, 3) g;
SELECT name, get_byte(bf::bytea, 6) AS hash_id, pg_column_size(bf) > 2000 AS out_of_line FROM ca ORDER BY name;

CREATE TABLE batches AS
	SELECT b, array_agg(CASE WHEN g % 97 = 0 THEN NULL ELSE g END ORDER BY g) AS keys
	FROM (SELECT g, g % 20 AS b FROM generate_series(1, 40000) g) s GROUP BY b;
-- each batch alone (a value the call site has not seen: slices) ...
SELECT f.name, count(*) AS batches,
       bool_and(bf_contains_all(f.bf, k.keys) IS NOT DISTINCT FROM
                ARRAY(SELECT bf_contains(f.bf, x) FROM unnest(k.keys) WITH ORDINALITY u(x, i) ORDER BY i)) AS agree,
       sum((SELECT count(*) FROM unnest(bf_contains_all(f.bf, k.keys)) a WHERE a)) AS found
FROM ca f CROSS JOIN batches k WHERE f.name NOT LIKE 'text%' GROUP BY f.name ORDER BY f.name;
SELECT f.name,
       bool_and(bf_contains_all(f.bf, t.keys) IS NOT DISTINCT FROM
                ARRAY(SELECT bf_contains(f.bf, x) FROM unnest(t.keys) WITH ORDINALITY u(x, i) ORDER BY i)) AS agree,
       sum((SELECT count(*) FROM unnest(bf_contains_all(f.bf, t.keys)) a WHERE a)) AS found
FROM ca f CROSS JOIN (SELECT b, array_agg('k' || x) AS keys FROM batches, unnest(keys) x GROUP BY b) t
WHERE f.name LIKE 'text%' GROUP BY f.name ORDER BY f.name;
-- ... one call per value (slices: spans far apart, then many close together)
SELECT name,
       bf_contains_all(bf, ARRAY(SELECT g * 661 FROM generate_series(1, 300) g)) =
       ARRAY(SELECT bf_contains(bf, g * 661) FROM generate_series(1, 300) g) AS spread_agree,
       bf_contains_all(bf, ARRAY(SELECT g FROM generate_series(1, 20000) g)) =
       ARRAY(SELECT bf_contains(bf, g) FROM generate_series(1, 20000) g) AS dense_agree
FROM ca WHERE name LIKE 'stored%' ORDER BY name;
-- ... a few keys and one key, by slices
SELECT name, bf_contains_all(bf, ARRAY[1, 2, 4, 199999, 200000]) AS few,
       bf_contains_all(bf, ARRAY[199999]) AS one
FROM ca WHERE name LIKE 'stored%' ORDER BY name;
-- ... and compressed (if someone changes the storage)
ALTER TABLE ca ALTER COLUMN bf SET STORAGE extended;
INSERT INTO ca SELECT 'compressed', bf_add_all(bf_create(200000), ARRAY[1, 4, 7]);
SELECT pg_column_size(bf) < 10000 AS compressed, bf_contains_all(bf, ARRAY[1, 2, 7, NULL]) FROM ca WHERE name = 'compressed';

-- a batch of a stored filter reads the spans it needs, not the whole value
-- (unless the session keeps the value for later queries: not here)
SET bloomfilter.session_cache_memory = 0;
CREATE TABLE big (bf bloomfilter);
INSERT INTO big SELECT bf_add_all(bf_create(5000000), ARRAY(SELECT g * 7919 FROM generate_series(1, 1000) g));
CREATE FUNCTION blocks(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || query INTO plan;
	RETURN (plan->0->'Plan'->>'Shared Hit Blocks')::bigint
	     + (plan->0->'Plan'->>'Shared Read Blocks')::bigint;
END $$;
SELECT blocks('SELECT md5(bf::bytea) FROM big') AS whole \gset
SELECT :whole > 500 AS a_whole_read_touches_many_blocks;
SELECT blocks('SELECT bf_contains_all(bf, ARRAY(SELECT g * 7919 FROM generate_series(1, 100) g)) FROM big')
	< :whole / 2 AS hundred_keys_read_under_half;
SELECT blocks('SELECT bf_contains_all(bf, ARRAY(SELECT g * 7919 FROM generate_series(1, 10) g)) FROM big')
	< 60 AS ten_keys_read_little;
SELECT (SELECT count(*) FROM unnest(bf_contains_all(bf, ARRAY(SELECT g * 7919 FROM generate_series(1, 1000) g))) a WHERE a)
	AS all_members_found FROM big;

DROP TABLE ca, batches, big;
RESET bloomfilter.session_cache_memory;
DROP FUNCTION blocks(text);
