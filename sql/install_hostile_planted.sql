-- Updating beside objects of the extension's names in another schema
-- (issue 32, item 9).  Any role with CREATE on some schema can make a
-- function, aggregate or operator of the same name and argument types as
-- one of the extension's, and a cast between types of the same names.  An
-- install or upgrade script that tests whether something exists must look
-- at the extension's own objects (its schema and its members), or a
-- planted object makes it skip a step: in 1.5, a planted
-- @>(bloomfilter, bigint) made the update from 1.3 skip the extension's @>,
-- and creating <@ (COMMUTATOR = @>) then left @> a shell, so that every
-- "bf @> x" failed.
--
-- The list of what to plant is the catalog of every version a script makes
-- (each released one and the current one, with bloomfilter_citus), not a
-- list kept by hand.  A type the start version does not have yet is planted
-- as a composite type of the same name in the planter's schema, and so is
-- every type of the extension, for the casts.  What no ordinary role can
-- create anywhere (a function of an argument of type internal or cstring,
-- an operator class, an access method) is listed, not planted.
SELECT current_database() AS regress_db \gset
CREATE ROLE regress_bf_planter;
CREATE DATABASE regress_bf_planted;
\c regress_bf_planted
SET client_min_messages = warning;
CREATE SCHEMA bf;
GRANT USAGE ON SCHEMA bf TO PUBLIC;
CREATE SCHEMA planted AUTHORIZATION regress_bf_planter;

-- 1. what the scripts make: each member of either extension, its argument
--    types named as the scripts name them (the extension's schema on the
--    path, so its types go unqualified)
CREATE TABLE script_objects (kind text, name name, args text[], plantable boolean);
CREATE FUNCTION record_objects() RETURNS bigint LANGUAGE sql SET search_path = bf AS $$
	WITH members AS (
		SELECT d.classid, d.objid FROM pg_catalog.pg_depend d
		JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid
		WHERE d.deptype = 'e' AND e.extname IN ('bloomfilter', 'bloomfilter_citus')),
	recorded AS (
	INSERT INTO public.script_objects
	SELECT p.prokind::text, p.proname,
		   ARRAY(SELECT format_type(a.t, NULL) FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY a(t, n) ORDER BY a.n),
		   -- an SQL function takes no pseudo-type but a polymorphic one
		   NOT EXISTS (SELECT FROM unnest(p.proargtypes::oid[]) a(t) JOIN pg_type y ON y.oid = a.t
					   WHERE y.typtype = 'p' AND y.typname !~ '^any.')
	FROM members m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
	UNION ALL
	SELECT 'o', o.oprname, ARRAY[format_type(nullif(o.oprleft, 0), NULL), format_type(o.oprright, NULL)], true
	FROM members m JOIN pg_operator o ON m.classid = 'pg_operator'::regclass AND o.oid = m.objid
	UNION ALL
	SELECT 'c', NULL, ARRAY[format_type(c.castsource, NULL), format_type(c.casttarget, NULL)], true
	FROM members m JOIN pg_cast c ON m.classid = 'pg_cast'::regclass AND c.oid = m.objid
	UNION ALL
	SELECT 't', t.typname, NULL, true
	FROM members m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
	WHERE t.typcategory <> 'A'
	UNION ALL
	SELECT 'x', NULL, ARRAY[m.classid::regclass::text, pg_describe_object(m.classid, m.objid, 0)], false
	FROM members m
	WHERE m.classid NOT IN ('pg_proc'::regclass, 'pg_operator'::regclass, 'pg_cast'::regclass, 'pg_type'::regclass)
	RETURNING 1)
	SELECT count(*) FROM recorded
$$;
SELECT format('CREATE EXTENSION bloomfilter VERSION %L SCHEMA bf', v.version) AS create_version,
	   format('SELECT record_objects() AS "members of %s"', v.version) AS record,
	   'DROP EXTENSION bloomfilter' AS drop_it
FROM pg_available_extension_versions v
JOIN pg_available_extensions a ON a.name = v.name AND v.version <> a.default_version
WHERE v.name = 'bloomfilter'
ORDER BY string_to_array(v.version, '.')::int[] \gexec
CREATE EXTENSION bloomfilter SCHEMA bf;
CREATE EXTENSION bloomfilter_citus SCHEMA bf;
SELECT record_objects() AS "members of the current version, with bloomfilter_citus";
-- the members of a fresh install, to compare each update against
SET search_path = bf;
CREATE TABLE public.fresh_members AS
	SELECT e.extname, pg_describe_object(d.classid, d.objid, 0) AS object
	FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
	WHERE d.deptype = 'e' AND e.extname IN ('bloomfilter', 'bloomfilter_citus');
RESET search_path;
DROP EXTENSION bloomfilter_citus, bloomfilter;

-- and, as in the issue, each operator with a polymorphic operand once more
-- with bigint in its place
INSERT INTO script_objects
SELECT 'o', name, ARRAY(SELECT CASE WHEN a ~ '^any' THEN 'bigint' ELSE a END FROM unnest(args) WITH ORDINALITY u(a, n) ORDER BY n), true
FROM script_objects WHERE kind = 'o' AND array_to_string(args, ',') ~ '(^|,)any';
CREATE TABLE plants AS
	SELECT DISTINCT ON (replace(kind, 'a', 'f'), name, args) kind, name, args, plantable
	FROM script_objects WHERE kind IN ('f', 'a', 'o', 'c', 't')
	ORDER BY replace(kind, 'a', 'f'), name, args, kind;
SELECT CASE kind WHEN 'f' THEN 'function' WHEN 'a' THEN 'aggregate' WHEN 'o' THEN 'operator'
				 WHEN 'c' THEN 'cast' WHEN 't' THEN 'type' END AS kind,
	   count(*) FILTER (WHERE plantable) AS planted, count(*) FILTER (WHERE NOT plantable) AS not_plantable
FROM plants GROUP BY kind ORDER BY 1;
-- what no ordinary role can make: those go unplanted
SELECT format('%s(%s)', name, array_to_string(args, ',')) AS not_plantable FROM plants WHERE NOT plantable
ORDER BY 1;
SELECT args[1] AS catalog, count(DISTINCT args[2]) AS not_plantable FROM script_objects WHERE kind = 'x'
GROUP BY 1 ORDER BY 1;

-- 2. the planter's statements: each object made by the planter in schema
--    planted, its types read with the extension's schema first on the path
--    (the extension's types where they exist, else the stand-ins)
CREATE FUNCTION plant_statements() RETURNS SETOF text LANGUAGE sql AS $$
	SELECT format('CREATE TYPE planted.%I AS (stand_in integer)', name)
	FROM public.plants WHERE kind = 't'
	UNION ALL
	SELECT stmt FROM (
		SELECT p.kind, p.name, p.args, array_to_string(p.args, ', ') AS list,
			   (SELECT array_agg(CASE WHEN t.name IS NULL THEN a.a ELSE format('planted.%I', a.a) END ORDER BY a.n)
				FROM unnest(p.args) WITH ORDINALITY a(a, n) LEFT JOIN public.plants t ON t.kind = 't' AND t.name = a.a) AS own
		FROM public.plants p WHERE p.kind IN ('f', 'a', 'o', 'c') AND p.plantable) p,
	LATERAL unnest(CASE p.kind
		WHEN 'f' THEN ARRAY[format('CREATE FUNCTION planted.%I(%s) RETURNS boolean LANGUAGE sql AS ''SELECT NULL::boolean''',
								   p.name, p.list)]
		WHEN 'a' THEN ARRAY[
			format('CREATE OR REPLACE FUNCTION planted.planted_trans(boolean%s) RETURNS boolean LANGUAGE sql AS ''SELECT NULL::boolean''',
				   CASE WHEN p.list = '' THEN '' ELSE ', ' || p.list END),
			format('CREATE AGGREGATE planted.%I(%s) (SFUNC = planted.planted_trans, STYPE = boolean)', p.name, p.list)]
		WHEN 'o' THEN ARRAY[
			format('CREATE OR REPLACE FUNCTION planted.planted_op(%s) RETURNS boolean LANGUAGE sql AS ''SELECT NULL::boolean''',
				   array_to_string(p.args, ', ')),
			format('CREATE OPERATOR planted.%s (%sRIGHTARG = %s, FUNCTION = planted.planted_op)', p.name,
				   CASE WHEN p.args[1] IS NULL THEN '' ELSE format('LEFTARG = %s, ', p.args[1]) END, p.args[2])]
		-- a cast between the planter's stand-ins of the extension's types
		WHEN 'c' THEN ARRAY[
			format('CREATE FUNCTION planted.%I(%s) RETURNS %s LANGUAGE sql AS ''SELECT NULL::%s''',
				   'cast ' || array_to_string(p.args, ' to '), p.own[1], p.own[2], p.own[2]),
			format('CREATE CAST (%s AS %s) WITH FUNCTION planted.%I(%s)', p.own[1], p.own[2],
				   'cast ' || array_to_string(p.args, ' to '), p.own[1])]
		END) AS s(stmt)
$$;

-- 3. from each released version: install it, let the planter plant, update
--    to the current version, install bloomfilter_citus, and look: every
--    member of a fresh install there and no other, no shell operator, no
--    object in the extension's schema that is not a member, every planted
--    object still the planter's, and the checks of an element answering
CREATE FUNCTION planted_round(start text, OUT from_version text, OUT to_version text,
							  OUT planted bigint, OUT on_its_types bigint, OUT missing text[], OUT extra text[], OUT shells text[],
							  OUT strays text[], OUT plants_kept boolean, OUT works text)
LANGUAGE plpgsql AS $$
DECLARE
	stmts text[] := ARRAY(SELECT public.plant_statements());
	stmt text;
	planted_after bigint;
BEGIN
	from_version := start;
	EXECUTE format('CREATE EXTENSION bloomfilter VERSION %L SCHEMA bf', start);

	SET ROLE regress_bf_planter;
	SET search_path = bf, planted;
	FOREACH stmt IN ARRAY stmts LOOP
		EXECUTE stmt;
	END LOOP;
	RESET ROLE;
	planted := (SELECT count(*) FROM pg_proc WHERE pronamespace = 'planted'::regnamespace)
		+ (SELECT count(*) FROM pg_operator WHERE oprnamespace = 'planted'::regnamespace)
		+ (SELECT count(*) FROM pg_cast c JOIN pg_proc f ON f.oid = c.castfunc
		   WHERE f.pronamespace = 'planted'::regnamespace);
	-- those that take one of the extension's types (not a stand-in)
	on_its_types := (SELECT count(*) FROM pg_proc p WHERE p.pronamespace = 'planted'::regnamespace
					 AND EXISTS (SELECT FROM unnest(p.proargtypes::oid[]) a(t) JOIN pg_type y ON y.oid = a.t
								 WHERE y.typnamespace = 'bf'::regnamespace))
		+ (SELECT count(*) FROM pg_operator o JOIN pg_type y ON y.oid IN (o.oprleft, o.oprright)
		   WHERE o.oprnamespace = 'planted'::regnamespace AND y.typnamespace = 'bf'::regnamespace);

	SET search_path = public;
	ALTER EXTENSION bloomfilter UPDATE;
	CREATE EXTENSION bloomfilter_citus SCHEMA bf;
	to_version := (SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter');

	SET search_path = bf;
	CREATE TEMP TABLE members AS
		SELECT e.extname, d.classid, d.objid, pg_describe_object(d.classid, d.objid, 0) AS object
		FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
		WHERE d.deptype = 'e' AND e.extname IN ('bloomfilter', 'bloomfilter_citus');
	missing := ARRAY(SELECT extname || ': ' || object FROM public.fresh_members
					 EXCEPT SELECT extname || ': ' || object FROM members ORDER BY 1);
	extra := ARRAY(SELECT extname || ': ' || object FROM members
				   EXCEPT SELECT extname || ': ' || object FROM public.fresh_members ORDER BY 1);
	shells := ARRAY(SELECT o.oid::regoperator::text FROM pg_operator o
					WHERE o.oprnamespace = 'bf'::regnamespace AND o.oprcode = 0 ORDER BY 1);
	strays := ARRAY(SELECT pg_describe_object(c.classid, c.objid, 0) FROM (
						SELECT 'pg_proc'::regclass AS classid, oid AS objid FROM pg_proc WHERE pronamespace = 'bf'::regnamespace
						UNION ALL
						SELECT 'pg_operator'::regclass, oid FROM pg_operator WHERE oprnamespace = 'bf'::regnamespace
						UNION ALL
						SELECT 'pg_type'::regclass, t.oid FROM pg_type t
						WHERE t.typnamespace = 'bf'::regnamespace
						  -- an array type is a member from PostgreSQL 17 on
						  AND NOT EXISTS (SELECT FROM pg_type e WHERE e.typarray = t.oid)) c
					WHERE NOT EXISTS (SELECT FROM members m WHERE m.classid = c.classid AND m.objid = c.objid)
					ORDER BY 1);
	planted_after := (SELECT count(*) FROM pg_proc WHERE pronamespace = 'planted'::regnamespace
						AND proowner = 'regress_bf_planter'::regrole)
		+ (SELECT count(*) FROM pg_operator WHERE oprnamespace = 'planted'::regnamespace
		   AND oprowner = 'regress_bf_planter'::regrole AND oprcode <> 0)
		+ (SELECT count(*) FROM pg_cast c JOIN pg_proc f ON f.oid = c.castfunc
		   WHERE f.pronamespace = 'planted'::regnamespace);
	plants_kept := planted_after = planted;
	BEGIN
		EXECUTE $q$
			SELECT bf_add(bf_create(100), 42::int8) @> 42::int8
			   AND 42::int8 <@ bf_add(bf_create(100), 42::int8)
			   AND NOT bf_create(100) @> 42::int8
			   AND cf_add(cf_create(100), 42::int8) @> 42::int8
			   AND 42::int8 <@ cf_add(cf_create(100), 42::int8)
			   AND bf_contains(bf_agg(g::int8, 100::int8), 42::int8)
			FROM generate_series(40, 45) g$q$ INTO works;
	EXCEPTION WHEN OTHERS THEN
		works := SQLERRM;
	END;
	DROP TABLE members;

	DROP SCHEMA planted CASCADE;
	CREATE SCHEMA planted AUTHORIZATION regress_bf_planter;
	DROP EXTENSION bloomfilter_citus, bloomfilter;
END
$$;

SELECT r.*
FROM pg_available_extension_versions v
JOIN pg_available_extensions a ON a.name = v.name AND v.version <> a.default_version,
LATERAL planted_round(v.version) r
WHERE v.name = 'bloomfilter'
ORDER BY string_to_array(v.version, '.')::int[];

\c :regress_db
DROP DATABASE regress_bf_planted;
DROP ROLE regress_bf_planter;
