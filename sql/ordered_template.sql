-- bf_agg(element, bf_shape(template) ORDER BY ...): the ordered template
-- form that sorts the shape of an empty template (its header and the few
-- payload bytes that are not zero) instead of the template (issue 34,
-- item 5).  Its result must be the bytes bf_agg(element, template ORDER BY
-- ...) gives, for every layout, key type and order; bad shapes are refused
-- at input.  Its speed is bench/ordered_template.sh's, not a test's.
SET extra_float_digits = 0;
SELECT setseed(0.34);

-- rows in groups, with orders: i (insertion), r (random), a few ties in g2
CREATE TABLE rows AS
SELECT i, (i % 3) AS g, (i % 5) AS g2, random() AS r,
	   CASE WHEN i % 17 = 0 THEN NULL ELSE (i * 7919) % 2003 END::int8 AS k8,
	   CASE WHEN i % 19 = 0 THEN NULL ELSE ((i * 104729) % 3001)::int4 END AS k4,
	   CASE WHEN i % 23 = 0 THEN NULL ELSE 'key ' || ((i * 31) % 1501) END AS kt
FROM generate_series(1, 3000) i;

-- templates of every layout that builds: plain, counting, scalable, Guava,
-- RedisBloom of several capacities and growths (NONSCALING too), typed
-- and untyped; small, so that the old ordered form is quick enough to
-- compare with
CREATE TABLE templates (name text, key text, tpl bloomfilter);
INSERT INTO templates VALUES
	('plain', 'k8', bf_create(2000, 0.01)),
	('plain seeded', 'kt', bf_create(500, 0.05, seed => 7)),
	('counting', 'k4', bf_create(2000, 0.01, counting => true)),
	('scalable', 'k8', bf_create(100, 0.01, expansion => 2)),
	('scalable typed', 'kt', bf_create(300, 0.02, expansion => 3, key_type => 'text')),
	('guava int8', 'k8', bf_create(2000, 0.01, layout => 'guava', key_type => 'bigint')),
	('guava text', 'kt', bf_create(1000, 0.03, layout => 'guava', key_type => 'text')),
	('redis 10 x2', 'k8', bf_create(10, 0.01, expansion => 2, layout => 'redisbloom')),
	('redis 100 x1', 'kt', bf_create(100, 0.01, expansion => 1, layout => 'redisbloom')),
	('redis 50 x4', 'k4', bf_create(50, 0.001, expansion => 4, layout => 'redisbloom')),
	('redis 300 x3 typed', 'kt', bf_create(300, 0.05, expansion => 3, layout => 'redisbloom', key_type => 'text')),
	('redis nonscaling', 'k8', bf_create(5000, 0.01, layout => 'redisbloom'));

-- a shape is some tens of bytes whatever the template's size, and makes
-- the template again: bf_agg over a row whose element is NULL gives it back
SELECT name, pg_column_size(tpl) AS template_bytes, pg_column_size(bf_shape(tpl)) AS shape_bytes,
	   (SELECT bf_agg(x, bf_shape(tpl)) FROM (VALUES (NULL::int8)) v(x))::bytea = tpl::bytea AS remade
FROM templates ORDER BY name;
SELECT pg_column_size(bf_shape(bf_create(1740000, 0.01, expansion => 2, layout => 'redisbloom'))) < 200 AS large_redis_shape_small;

-- the old ordered form against the new, byte for byte, for each template,
-- its key column, and five orders: insertion, random, key descending,
-- ties broken by a second key, and the element itself
CREATE FUNCTION compare(tpl bloomfilter, key text, ord text) RETURNS TABLE (grp int, same boolean, changed boolean)
LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format(
		'SELECT g, bf_agg(%1$I, $1 ORDER BY %2$s)::bytea = bf_agg(%1$I, bf_shape($1) ORDER BY %2$s)::bytea,
				bf_agg(%1$I, $1 ORDER BY %2$s)::bytea <> $1::bytea
		 FROM rows GROUP BY g', key, ord) USING tpl;
END $$;
SELECT count(*) AS cases, count(*) FILTER (WHERE NOT (same AND changed AND groups = 3)) AS failing,
	   string_agg(name || ' by ' || ord, '; ') FILTER (WHERE NOT (same AND changed AND groups = 3)) AS which
FROM (SELECT t.name, o.ord, bool_and(c.same) AS same, bool_and(c.changed) AS changed, count(*) AS groups
	  FROM templates t
	  CROSS JOIN (VALUES ('i'), ('r'), ('k8 DESC NULLS FIRST, i'), ('g2, r DESC'), ('kt, i')) o(ord)
	  CROSS JOIN LATERAL compare(t.tpl, t.key, o.ord) c
	  GROUP BY t.name, o.ord) cases;

-- the order matters to a RedisBloom chain that grows (so the comparison
-- above is one of orders): insertion and random order differ, and the
-- shape form follows each
SELECT bf_agg(k8, tpl ORDER BY i)::bytea <> bf_agg(k8, tpl ORDER BY r)::bytea AS order_changes_bytes,
	   bf_agg(k8, bf_shape(tpl) ORDER BY i)::bytea = bf_agg(k8, tpl ORDER BY i)::bytea AS by_i,
	   bf_agg(k8, bf_shape(tpl) ORDER BY r)::bytea = bf_agg(k8, tpl ORDER BY r)::bytea AS by_r
FROM rows, templates WHERE name = 'redis 10 x2';

-- without ORDER BY, the same as the template form too
SELECT bool_and((SELECT bf_agg(k8, t.tpl)::bytea = bf_agg(k8, bf_shape(t.tpl))::bytea FROM rows)) AS unordered_same
FROM templates t WHERE t.key = 'k8';

-- every element is present (no false negative), in every group
SELECT bool_and(bf_contains(f, k8)) AS all_present
FROM (SELECT g, bf_agg(k8, bf_shape(bf_create(10, 0.01, expansion => 2, layout => 'redisbloom')) ORDER BY r) AS f
	  FROM rows GROUP BY g) a JOIN rows USING (g) WHERE k8 IS NOT NULL;

-- NULLs: NULL elements are skipped; no rows give NULL, as the template form
SELECT bf_agg(k, bf_shape(bf_create(100, 0.01)) ORDER BY k) IS NULL AS no_rows
FROM (SELECT 1::int8 AS k WHERE false) s;
SELECT bf_agg(k, bf_shape(bf_create(100, 0.01)) ORDER BY k)::bytea = bf_create(100, 0.01)::bytea AS only_nulls
FROM (VALUES (NULL::int8), (NULL)) s(k);
SELECT g, bf_cardinality(bf_agg(k8, bf_shape(bf_create(100, 0.01)) ORDER BY i)) IS NOT NULL AS built
FROM rows WHERE g < 2 GROUP BY g ORDER BY g;
SELECT bf_shape(NULL) IS NULL AS null_shape;
\set VERBOSITY sqlstate
SELECT bf_agg(k8, NULL::bloomfilter_shape ORDER BY i) FROM rows;
\set VERBOSITY default

-- a filter that holds elements has no shape; add in order with bf_add_all,
-- which gives the ordered form's bytes
SELECT bf_shape(bf_add(bf_create(100, 0.01), 1));
SELECT bf_add_all(tpl, (SELECT array_agg(k8 ORDER BY i) FROM rows WHERE k8 IS NOT NULL))::bytea
	   = (SELECT bf_agg(k8, tpl ORDER BY i) FROM rows)::bytea AS add_all_same
FROM templates WHERE name = 'redis 10 x2';

-- the transition function is the aggregate's only
SELECT bloomfilter_agg_trans(NULL::bloomfilter, 1, bf_shape(bf_create(10)));

-- parallel plans: sql/parallel.sql

-- text and binary I/O: the text round trip, and binary COPY out and in
SELECT bf_shape(tpl)::text::bloomfilter_shape::text = bf_shape(tpl)::text AS text_round_trip
FROM templates WHERE name = 'redis 50 x4';
CREATE TABLE shapes AS SELECT name, bf_shape(tpl) AS s FROM templates;
\copy shapes TO 'results/ordered_template_shapes.bin' WITH (FORMAT binary)
CREATE TABLE shapes_in (LIKE shapes);
\copy shapes_in FROM 'results/ordered_template_shapes.bin' WITH (FORMAT binary)
SELECT count(*) AS copied, bool_and(a.s::text = b.s::text) AS same
FROM shapes a JOIN shapes_in b USING (name);

-- bad shapes are refused at input: text 22P02, binary 22P03
CREATE FUNCTION b64(bytea) RETURNS text LANGUAGE sql IMMUTABLE
	AS $$ SELECT translate(encode($1, 'base64'), E'\n', '') $$;
CREATE FUNCTION shape_bytes(bloomfilter_shape) RETURNS bytea LANGUAGE sql IMMUTABLE
	AS $$ SELECT decode($1::text, 'base64') $$;
CREATE TABLE good AS
SELECT shape_bytes(bf_shape(bf_create(10, 0.01, expansion => 2, layout => 'redisbloom'))) AS b,
	   bf_create(10, 0.01)::bytea AS filter;
\set VERBOSITY sqlstate
SELECT '!!!!'::bloomfilter_shape;
SELECT b64(substring(b from 1 for 47))::bloomfilter_shape FROM good;             -- truncated header
SELECT b64(overlay(b placing '\x00' from 1 for 1))::bloomfilter_shape FROM good;  -- magic
SELECT b64(overlay(b placing '\x09' from 6 for 1))::bloomfilter_shape FROM good;  -- layout
SELECT b64(overlay(b placing '\x01' from 41 for 1))::bloomfilter_shape FROM good; -- bits set
SELECT b64(substring(b from 1 for length(b) - 1))::bloomfilter_shape FROM good;  -- truncated run
SELECT b64(b || '\x0000000001000000'::bytea)::bloomfilter_shape FROM good;       -- run of nothing
SELECT b64(b || '\x00000000010000002a'::bytea)::bloomfilter_shape FROM good;     -- overlapping run
SELECT b64(b || '\xffffff0001000000ff'::bytea)::bloomfilter_shape FROM good;     -- run past the payload
SELECT b64(overlay(b placing '\x00' from 65 for 1))::bloomfilter_shape FROM good; -- a scaling chain of growth 0
SELECT b64(filter)::bloomfilter_shape FROM good;                                 -- a filter is no shape
\set VERBOSITY default
SELECT b64(substring(b from 1 for 47))::bloomfilter_shape FROM good;
SELECT b64(overlay(b placing '\x01' from 41 for 1))::bloomfilter_shape FROM good;
SELECT b64(filter)::bloomfilter_shape FROM good;
SELECT b64(overlay(b placing '\x00' from 65 for 1))::bloomfilter_shape FROM good;
\set VERBOSITY sqlstate
CREATE TABLE bad_bin (s bytea);
INSERT INTO bad_bin SELECT overlay(b placing '\x01' from 41 for 1) FROM good;
\copy bad_bin TO 'results/ordered_template_bad.bin' WITH (FORMAT binary)
CREATE TABLE bad_in (s bloomfilter_shape);
\copy bad_in FROM 'results/ordered_template_bad.bin' WITH (FORMAT binary)
\set VERBOSITY default

DROP TABLE rows, templates, shapes, shapes_in, good, bad_bin, bad_in;
DROP FUNCTION compare(bloomfilter, text, text), b64(bytea), shape_bytes(bloomfilter_shape);
