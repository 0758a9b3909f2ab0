-- bf_agg(element, bf_shape(template) ORDER BY ...): the ordered template
-- form that sorts the shape of an empty template (its header and the few
-- payload bytes that are not zero) instead of the template (issue 34,
-- item 5).  Its result must be the bytes bf_agg(element, template ORDER BY
-- ...) gives, for every layout, key type and order.  A shape is a bytea
-- (a type of its own would cost five of the 200 catalog objects a plain
-- install keeps within: sql/catalog_fresh.sql), so bf_agg checks it when it
-- reads it, and refuses every corruption of one.  Its speed is
-- bench/ordered_template.sh's, not a test's.
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
SELECT bf_agg(k8, NULL::bytea ORDER BY i) FROM rows;
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

-- which form a call means: a bloomfilter the template form, an integer the
-- capacity form, a bytea the shape form.  Both casts between bytea and
-- bloomfilter are explicit, so no call means another form than it did
-- before the shape form, and an unknown literal still means a capacity
-- (as PostgreSQL 15 with release 1.4 resolves these calls).
CREATE TABLE calls (name text, tpl bloomfilter, shape bytea);
INSERT INTO calls SELECT name, tpl, bf_shape(tpl) FROM templates WHERE name = 'redis 10 x2';
CREATE VIEW call_template AS SELECT bf_agg(k8, tpl) FROM rows, calls;
CREATE VIEW call_capacity AS SELECT bf_agg(k8, 1000) FROM rows;
CREATE VIEW call_capacity_rate AS SELECT bf_agg(k8, 1000, 0.01) FROM rows;
CREATE VIEW call_unknown AS SELECT bf_agg(k8, '1000') FROM rows;
CREATE VIEW call_null AS SELECT bf_agg(k8, NULL) FROM rows;
CREATE VIEW call_shape AS SELECT bf_agg(k8, bf_shape(tpl)) FROM rows, calls;
CREATE VIEW call_shape_column AS SELECT bf_agg(k8, shape) FROM rows, calls;
CREATE VIEW call_bytes_template AS SELECT bf_agg(k8, tpl::bytea::bloomfilter) FROM rows, calls;
SELECT c.relname AS call, p.oid::regprocedure AS aggregate
FROM pg_class c JOIN pg_rewrite w ON w.ev_class = c.oid
JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = w.oid
JOIN pg_proc p ON d.refclassid = 'pg_proc'::regclass AND p.oid = d.refobjid AND p.proname = 'bf_agg'
WHERE c.relname LIKE 'call\_%'
ORDER BY 1;
SELECT (SELECT * FROM call_template)::bytea = (SELECT bf_agg(k8, tpl ORDER BY i) FROM rows, calls)::bytea
	   AND (SELECT * FROM call_shape)::bytea = (SELECT * FROM call_template)::bytea
	   AND (SELECT * FROM call_shape_column)::bytea = (SELECT * FROM call_template)::bytea AS same_bytes,
	   (SELECT * FROM call_unknown)::bytea = (SELECT * FROM call_capacity)::bytea AS unknown_is_capacity;
SELECT bf_agg(k8, NULL) FROM rows;
SELECT bf_agg(k8, '\x00') FROM rows;
DROP VIEW call_template, call_capacity, call_capacity_rate, call_unknown, call_null,
	call_shape, call_shape_column, call_bytes_template;

-- a shape kept in a bytea column, through binary COPY and back, gives the
-- same bytes later: for every template, ordered
CREATE TABLE shapes AS SELECT name, key, bf_shape(tpl) AS s FROM templates;
\copy shapes TO 'results/ordered_template_shapes.bin' WITH (FORMAT binary)
CREATE TABLE shapes_in (LIKE shapes);
\copy shapes_in FROM 'results/ordered_template_shapes.bin' WITH (FORMAT binary)
CREATE FUNCTION compare_stored(tpl bloomfilter, s bytea, key text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE same boolean;
BEGIN
	EXECUTE format('SELECT bf_agg(%1$I, $1 ORDER BY r)::bytea = bf_agg(%1$I, $2 ORDER BY r)::bytea FROM rows', key)
		INTO same USING tpl, s;
	RETURN same;
END $$;
SELECT count(*) AS stored, bool_and(b.s = a.s) AS copied_same,
	   bool_and(compare_stored(t.tpl, b.s, t.key)) AS same_filters
FROM templates t JOIN shapes a USING (name) JOIN shapes_in b USING (name);

-- a shape is not a filter, nor a filter a shape: each starts with a magic
-- number of its own, so each is refused as the other with a detail saying
-- what it is
SELECT bf_shape(tpl)::bloomfilter FROM calls;
SELECT bf_agg(k8, tpl::bytea ORDER BY i) FROM rows, calls;

-- bad shapes are refused where bf_agg reads them, on a group's first row,
-- with 22P03 (a bad binary value) and a hint: every truncation of a
-- genuine shape, each header byte changed four ways, each run's offset and
-- length, runs appended, and each byte of each run
SELECT bf_agg(k8, '\x00'::bytea) FROM rows;
SELECT bf_agg(k8, overlay(shape placing '\x01' from 41 for 1)) FROM rows, calls;
SELECT bf_agg(k8, substring(shape from 1 for length(shape) - 1)) FROM rows, calls;
SELECT bf_agg(k8, overlay(shape placing '\x00' from 65 for 1)) FROM rows, calls;

CREATE FUNCTION put32(b bytea, at int, v int8) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
	SELECT set_byte(set_byte(set_byte(set_byte(b, at, (v & 255)::int), at + 1, ((v >> 8) & 255)::int),
					at + 2, ((v >> 16) & 255)::int), at + 3, ((v >> 24) & 255)::int) $$;
CREATE FUNCTION get32(b bytea, at int) RETURNS int8 LANGUAGE sql IMMUTABLE AS $$
	SELECT get_byte(b, at) + 256::int8 * get_byte(b, at + 1) + 65536::int8 * get_byte(b, at + 2)
		   + 16777216::int8 * get_byte(b, at + 3) $$;
-- what bf_agg makes of a shape: its SQLSTATE if refused; if not, 'made',
-- checked to be a filter the bloomfilter input accepts, whose header is the
-- shape's
CREATE FUNCTION made(s bytea) RETURNS text LANGUAGE plpgsql AS $$
DECLARE f bytea;
BEGIN
	BEGIN
		SELECT bf_agg(x, s)::bytea INTO f FROM (VALUES (NULL::int8)) v(x);
	EXCEPTION WHEN OTHERS THEN
		RETURN SQLSTATE;
	END;
	BEGIN
		PERFORM f::bloomfilter;
	EXCEPTION WHEN OTHERS THEN
		RETURN 'made a bad filter: ' || SQLSTATE;
	END;
	IF substring(f from 5 for 44) <> substring(s from 5 for 44) THEN
		RETURN 'made another header';
	END IF;
	RETURN 'made';
END $$;
-- what the bloomfilter input makes of a filter's bytes, in the same words
CREATE FUNCTION taken(f bytea) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	PERFORM f::bloomfilter;
	RETURN 'made';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END $$;

CREATE TABLE genuine AS
SELECT name, bf_shape(tpl) AS s, tpl::bytea AS f FROM templates
WHERE name IN ('plain', 'counting', 'scalable', 'guava int8', 'redis 10 x2', 'redis nonscaling');
-- the runs of each: where each starts in the shape, its offset and length
CREATE TABLE runs AS
WITH RECURSIVE r(name, at) AS (
	SELECT name, 48 FROM genuine WHERE length(s) > 48
	UNION ALL
	SELECT r.name, r.at + 8 + get32(g.s, r.at + 4)::int FROM r JOIN genuine g USING (name)
	WHERE r.at + 8 + get32(g.s, r.at + 4) < length(g.s))
SELECT r.name, r.at, get32(g.s, r.at) AS off, get32(g.s, r.at + 4) AS len FROM r JOIN genuine g USING (name);
SELECT name, length(s) AS shape_bytes, (SELECT count(*) FROM runs r WHERE r.name = g.name) AS runs,
	   made(s) AS genuine
FROM genuine g ORDER BY name;

CREATE TABLE corruptions (name text, what text, s bytea, f bytea);
INSERT INTO corruptions
SELECT name, 'truncated', substring(s from 1 for n), NULL FROM genuine, generate_series(0, length(s) - 1) n;
-- a header byte changed: the same change to the template's header is the
-- filter to compare with, but for the number of bits, which sizes the
-- payload (a shape gives the payload's length only through its header)
INSERT INTO corruptions
SELECT name, CASE WHEN at < 4 THEN 'header: magic' WHEN at = 4 THEN 'header: version'
				  WHEN at = 5 THEN 'header: layout' WHEN at = 6 THEN 'header: hash id'
				  WHEN at = 7 THEN 'header: hashes' WHEN at < 12 THEN 'header: seed'
				  WHEN at < 16 THEN 'header: key type' WHEN at < 24 THEN 'header: bits'
				  WHEN at < 32 THEN 'header: capacity' WHEN at < 40 THEN 'header: error rate'
				  ELSE 'header: bits set' END,
	   set_byte(s, at, v), CASE WHEN at BETWEEN 4 AND 15 OR at BETWEEN 24 AND 39 THEN set_byte(f, at, v) END
FROM genuine, generate_series(0, 47) at,
	 LATERAL (SELECT DISTINCT v FROM unnest(ARRAY[get_byte(s, at) # 1, get_byte(s, at) # 128, 0, 255]) v) vs
WHERE v <> get_byte(s, at)
	  -- a header that sizes a payload between 16 MB and the size limit may
	  -- be a valid filter of that size, which made again would cost that
	  -- much: those are left out (nbits is bytes 16 to 23)
	  AND NOT (at BETWEEN 16 AND 23 AND (get32(set_byte(s, at, v), 20) = 1
			   OR (get32(set_byte(s, at, v), 20) = 0 AND get32(set_byte(s, at, v), 16) >= 134217728)));
-- each run's offset and length: 0, one less, one more, the payload's
-- length, 2^32 - 1
INSERT INTO corruptions
SELECT r.name, 'run ' || field, put32(g.s, r.at + fo, v), NULL
FROM runs r JOIN genuine g USING (name),
	 LATERAL (VALUES ('offset', 0, r.off), ('length', 4, r.len)) fld(field, fo, cur),
	 LATERAL (SELECT DISTINCT v FROM unnest(ARRAY[0, cur - 1, cur + 1, length(g.f) - 48, 4294967295]) v) vs
WHERE v <> cur AND v >= 0;
-- runs appended: of nothing, over the last, past the payload's end, ending
-- at it, a head alone, part of a head
INSERT INTO corruptions
SELECT name, 'run appended: ' || what, s || tail, NULL
FROM genuine g,
	 LATERAL (VALUES
		('of nothing', put32(put32('\x0000000000000000'::bytea, 0, length(g.f) - 49), 4, 0)),
		('over the last', put32(put32('\x00000000000000002a'::bytea, 0,
			coalesce((SELECT max(off) FROM runs r WHERE r.name = g.name), 0)), 4, 1)),
		('past the end', put32(put32('\x00000000000000002a2a'::bytea, 0, length(g.f) - 49), 4, 2)),
		('at the end', put32(put32('\x00000000000000002a'::bytea, 0, length(g.f) - 48), 4, 1)),
		('a head alone', put32(put32('\x0000000000000000'::bytea, 0, length(g.f) - 49), 4, 1)),
		('part of a head', '\x00000000'::bytea)) t(what, tail);
-- each byte of each run, changed: the same change to the template's
-- payload is the filter to compare with
INSERT INTO corruptions
SELECT r.name, 'run byte', set_byte(g.s, r.at + 8 + j, v), set_byte(g.f, 48 + r.off::int + j, v)
FROM runs r JOIN genuine g USING (name), generate_series(0, r.len::int - 1) j,
	 LATERAL (SELECT DISTINCT v FROM unnest(ARRAY[get_byte(g.s, r.at + 8 + j) # 1, get_byte(g.s, r.at + 8 + j) # 128, 0]) v) vs
WHERE v <> get_byte(g.s, r.at + 8 + j);

-- every corruption's verdict: refused (22P03) or made into a valid filter
-- with the shape's header (a change to a field that leaves another valid
-- empty filter, a seed say); where the template with the same change is
-- there to compare, the bloomfilter input's verdict is the same
CREATE TABLE verdicts AS SELECT *, made(s) AS verdict, taken(f) AS filter_verdict FROM corruptions;
SELECT what, count(*) AS cases,
	   string_agg(DISTINCT verdict, ', ') AS verdicts,
	   count(*) FILTER (WHERE verdict = 'made') AS made,
	   count(*) FILTER (WHERE f IS NOT NULL) AS compared,
	   count(*) FILTER (WHERE f IS NOT NULL AND verdict <> filter_verdict) AS disagreeing
FROM verdicts GROUP BY what ORDER BY what;
SELECT name, what, verdict, filter_verdict FROM verdicts
WHERE verdict NOT IN ('made', '22P03') OR (what IN ('truncated', 'header: magic', 'header: bits set') AND verdict <> '22P03')
	  OR (f IS NOT NULL AND verdict <> filter_verdict)
ORDER BY 1, 2 LIMIT 20;

DROP TABLE rows, templates, calls, shapes, shapes_in, genuine, runs, corruptions, verdicts;
DROP FUNCTION compare(bloomfilter, text, text), compare_stored(bloomfilter, bytea, text),
	put32(bytea, int, int8), get32(bytea, int), made(bytea), taken(bytea);
