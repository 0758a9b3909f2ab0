-- bloomfilter_citus: the per-type overloads of bf_agg and cf_agg that
-- Citus needs to split an aggregate between workers and coordinator, as a
-- companion extension of bloomfilter (bloomfilter_citus--1.4.sql).  One
-- step where Citus runs: CREATE EXTENSION bloomfilter_citus, in
-- bloomfilter's schema.  In a database of its own, so that the other
-- suites see a plain install.
SELECT current_database() AS regress_db \gset
CREATE DATABASE regress_bf_citus;
\c regress_bf_citus
SET client_min_messages = warning;
CREATE SCHEMA filters;

-- it needs bloomfilter; CASCADE installs both, in one schema
CREATE EXTENSION bloomfilter_citus;
CREATE EXTENSION bloomfilter_citus SCHEMA filters CASCADE;
SELECT extname, extversion, extnamespace::regnamespace AS schema, extrelocatable
FROM pg_extension WHERE extname LIKE 'bloomfilter%' ORDER BY 1;
DROP EXTENSION bloomfilter_citus, bloomfilter;

-- in bloomfilter's schema and nowhere else, whether named or the first on
-- the search_path
CREATE EXTENSION bloomfilter;
-- (no CONTEXT lines: 18 adds the extension script's statement to them)
\set SHOW_CONTEXT never
CREATE EXTENSION bloomfilter_citus SCHEMA filters;
SET search_path = filters, public;
CREATE EXTENSION bloomfilter_citus;
RESET search_path;
\set SHOW_CONTEXT errors

-- The same rows in every type with an overload, and a float8 column (no
-- overload: the polymorphic forms).  Every form of both aggregates over
-- every column, before the overloads exist and after: the same bytes.
CREATE TABLE typed_rows AS
	SELECT g::int2 AS i2, g::int4 AS i4, g::int8 AS i8, 'k' || g AS t, ('v' || g)::varchar AS vc,
		   ('c' || g)::char(6) AS bp, ('n' || g)::name AS nm, chr(g % 90 + 33)::"char" AS ch,
		   int8send(g) AS b, md5(g::text)::uuid AS u, g / 7.0 AS n, date '2024-01-01' + g AS d,
		   timestamp '2024-01-01' + g * interval '1 minute' AS ts,
		   timestamptz '2024-01-01 00:00+00' + g * interval '1 second' AS tz, g / 3.0::float8 AS f8
	FROM generate_series(1, 500) g;
CREATE FUNCTION every_form() RETURNS TABLE (col text, bytes text) LANGUAGE plpgsql AS $$
DECLARE
	c text;
BEGIN
	FOREACH c IN ARRAY ARRAY['i2', 'i4', 'i8', 't', 'vc', 'bp', 'nm', 'ch', 'b', 'u', 'n', 'd', 'ts', 'tz', 'f8'] LOOP
		RETURN QUERY EXECUTE format(
			'SELECT %1$L, md5(concat_ws('','', bf_agg(%1$I, 500, 0.01), bf_agg(%1$I, 500),
										bf_agg(%1$I, bf_create(500, counting => true)), bf_agg(%1$I),
										cf_agg(%1$I, 500, 0.01), cf_agg(%1$I, 500)))
			   FROM typed_rows', c);
	END LOOP;
END $$;
CREATE TABLE polymorphic AS SELECT * FROM every_form();

CREATE EXTENSION bloomfilter_citus;
SELECT extname, extversion, extnamespace::regnamespace AS schema FROM pg_extension
WHERE extname LIKE 'bloomfilter%' ORDER BY 1;

SELECT count(*) AS columns, count(*) FILTER (WHERE o.bytes <> p.bytes) AS different_bytes
FROM every_form() o JOIN polymorphic p USING (col);

-- what it holds: an aggregate and its transition function for every form
-- and type, each commented, immutable, parallel safe and not strict
SELECT count(*) AS members,
	   count(*) FILTER (WHERE p.prokind = 'a') AS aggregates,
	   count(*) FILTER (WHERE obj_description(d.objid, 'pg_proc') IS NULL) AS undocumented,
	   count(*) FILTER (WHERE p.provolatile <> 'i' OR p.proparallel <> 's' OR p.proisstrict) AS unlike_the_rest
FROM pg_depend d
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomfilter_citus'
LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
WHERE d.deptype = 'e';

-- each overload is its polymorphic form with a concrete element type: the
-- same C transition function, final and combine functions and state
SELECT pc.proname, count(*) AS overloads,
	   count(DISTINCT pc.proargtypes[0]) AS element_types,
	   count(*) FILTER (WHERE tc.prosrc <> tp.prosrc OR tc.probin <> tp.probin
						OR ac.aggfinalfn <> ap.aggfinalfn OR ac.aggcombinefn <> ap.aggcombinefn
						OR ac.aggtranstype <> ap.aggtranstype OR ac.aggfinalmodify <> ap.aggfinalmodify
						OR pc.proparallel <> pp.proparallel) AS unlike_polymorphic
FROM pg_proc pc
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = pc.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomfilter_citus'
JOIN pg_aggregate ac ON ac.aggfnoid = pc.oid
JOIN pg_proc tc ON tc.oid = ac.aggtransfn
JOIN pg_proc pp ON pp.proname = pc.proname AND pp.pronargs = pc.pronargs
	AND pp.proargtypes[0] = 'anyelement'::regtype
	AND pp.proargtypes[1] IS NOT DISTINCT FROM pc.proargtypes[1]
	AND pp.proargtypes[2] IS NOT DISTINCT FROM pc.proargtypes[2]
JOIN pg_aggregate ap ON ap.aggfnoid = pp.oid
JOIN pg_proc tp ON tp.oid = ap.aggtransfn
GROUP BY pc.proname ORDER BY 1;

-- Overload resolution, as Citus needs it: each type reaches its own
-- overload in every form (bpchar, name and "char" too, rather than by a
-- cast to text), a domain its base type's, and a type without one the
-- polymorphic form; never another type's, which would hash it otherwise.
CREATE DOMAIN dint AS int4;
CREATE TABLE resolved (typ regtype, form text, agg regprocedure);
DO $$
DECLARE
	t regtype;
	f text;
	a regprocedure;
BEGIN
	FOREACH t IN ARRAY ARRAY['int2', 'int4', 'int8', 'text', 'varchar', 'bpchar', 'name', '"char"', 'bytea',
							 'uuid', 'numeric', 'date', 'timestamp', 'timestamptz', 'dint', 'float8']::regtype[] LOOP
		FOREACH f IN ARRAY ARRAY['bf_agg(x)', 'bf_agg(x, 10)', 'bf_agg(x, 10, 0.01)',
								 'bf_agg(x, bf_create(10))', 'cf_agg(x, 10)', 'cf_agg(x, 10, 0.01)'] LOOP
			EXECUTE format('CREATE TEMP VIEW v AS SELECT %s FROM (SELECT NULL::%s AS x) s', f, t);
			SELECT d.refobjid INTO a FROM pg_depend d JOIN pg_rewrite w ON w.oid = d.objid
			 WHERE w.ev_class = 'v'::regclass AND d.refclassid = 'pg_proc'::regclass
			   AND d.refobjid IN (SELECT oid FROM pg_proc WHERE proname IN ('bf_agg', 'cf_agg'));
			INSERT INTO resolved VALUES (t, f, a);
			DROP VIEW v;
		END LOOP;
	END LOOP;
END $$;
SELECT r.typ, count(*) AS forms, string_agg(DISTINCT p.proargtypes[0]::regtype::text, ', ') AS resolves_to
FROM resolved r LEFT JOIN pg_proc p ON p.oid = r.agg
GROUP BY r.typ ORDER BY r.typ::text COLLATE "C";

-- relocatable, so that it can follow bloomfilter to another schema; its
-- aggregates call bloomfilter's functions by OID
ALTER EXTENSION bloomfilter SET SCHEMA filters;
ALTER EXTENSION bloomfilter_citus SET SCHEMA filters;
SET search_path = filters;
SELECT extname, extnamespace::regnamespace AS schema FROM pg_extension
WHERE extname LIKE 'bloomfilter%' ORDER BY 1;
SELECT bf_contains(bf_agg(i8, 500, 0.01), 7::int8) AS found, cf_contains(cf_agg(t, 500), 'k7') AS cf_found
FROM public.typed_rows;
RESET search_path;

-- bloomfilter cannot go while its companion is there
DROP EXTENSION bloomfilter;
DROP EXTENSION bloomfilter_citus;
SELECT count(*) AS overloads_left FROM pg_proc
WHERE proname IN ('bf_agg', 'cf_agg') AND proargtypes[0] <> 'anyelement'::regtype;

\c :regress_db
DROP DATABASE regress_bf_citus;
