-- Installing and upgrading under a hostile search_path.  Extension scripts
-- run with search_path set to the target schema, and a trusted extension's
-- script runs as the bootstrap superuser.  A role that can create objects
-- in that schema plants functions and operators that match the scripts'
-- calls better than pg_catalog's own (a more exact argument type wins over
-- path order): if any script called one unqualified, the role would be
-- superuser afterwards.  Every call in the scripts is schema-qualified, so
-- none of these may ever run.
SELECT current_database() AS regress_db \gset
CREATE ROLE regress_bf_eve;
CREATE DATABASE regress_bf_hostile OWNER regress_bf_eve;
\c regress_bf_hostile
SET client_min_messages = warning;

-- the planted objects, owned by eve, in the schema eve controls (public
-- is owned by the database owner from PostgreSQL 15 on)
SET ROLE regress_bf_eve;
CREATE TABLE public.hostile_calls (called text, as_user name);
GRANT INSERT ON public.hostile_calls TO PUBLIC;

-- a planted function logs the call, makes eve superuser when it can, and
-- answers as pg_catalog's would, so that nothing looks wrong
CREATE FUNCTION public.hostile_hit(what text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO public.hostile_calls VALUES (what, current_user);
	IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) current_user) THEN
		EXECUTE 'ALTER ROLE regress_bf_eve SUPERUSER';
	END IF;
END $$;

CREATE FUNCTION public.format(text, regprocedure) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('format(text,regprocedure)'); RETURN pg_catalog.format($1, $2); END $$;
CREATE FUNCTION public.format(text, text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('format(text,text)'); RETURN pg_catalog.format($1, $2); END $$;
CREATE FUNCTION public.format(text, text, text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('format(text,text,text)'); RETURN pg_catalog.format($1, $2, $3); END $$;
CREATE FUNCTION public.format(text, text, text, text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('format(text,text,text,text)'); RETURN pg_catalog.format($1, $2, $3, $4); END $$;
CREATE FUNCTION public.split_part(text, text, bigint) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('split_part'); RETURN pg_catalog.split_part($1, $2, $3::int); END $$;
CREATE FUNCTION public.nullif(text, text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('nullif'); RETURN NULLIF($1, $2); END $$;
CREATE FUNCTION public.concat(text, text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('concat'); RETURN pg_catalog.concat($1, $2); END $$;
CREATE FUNCTION public.quote_literal(text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('quote_literal'); RETURN pg_catalog.quote_literal($1); END $$;
CREATE FUNCTION public.quote_ident(text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('quote_ident'); RETURN pg_catalog.quote_ident($1); END $$;
CREATE FUNCTION public.current_database() RETURNS name LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('current_database'); RETURN pg_catalog.current_database(); END $$;

-- operators: each more exact for its operands than pg_catalog's
CREATE FUNCTION public.hostile_eq_oid_regclass(oid, regclass) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('=(oid,regclass)'); RETURN $1 OPERATOR(pg_catalog.=) $2::oid; END $$;
CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = regclass, FUNCTION = public.hostile_eq_oid_regclass);
CREATE FUNCTION public.hostile_eq_oid_regproc(oid, regprocedure) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('=(oid,regprocedure)'); RETURN $1 OPERATOR(pg_catalog.=) $2::oid; END $$;
CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = regprocedure, FUNCTION = public.hostile_eq_oid_regproc);
CREATE FUNCTION public.hostile_eq_oid_regtype(oid, regtype) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('=(oid,regtype)'); RETURN $1 OPERATOR(pg_catalog.=) $2::oid; END $$;
CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = regtype, FUNCTION = public.hostile_eq_oid_regtype);
CREATE FUNCTION public.hostile_eq_char_text("char", text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('=("char",text)'); RETURN $1::text OPERATOR(pg_catalog.=) $2; END $$;
CREATE OPERATOR public.= (LEFTARG = "char", RIGHTARG = text, FUNCTION = public.hostile_eq_char_text);
CREATE FUNCTION public.hostile_eq_name_text(name, text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('=(name,text)'); RETURN $1::text OPERATOR(pg_catalog.=) $2; END $$;
CREATE OPERATOR public.= (LEFTARG = name, RIGHTARG = text, FUNCTION = public.hostile_eq_name_text);
CREATE FUNCTION public.hostile_cat_tn(text, name) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('||(text,name)'); RETURN $1 OPERATOR(pg_catalog.||) $2::text; END $$;
CREATE OPERATOR public.|| (LEFTARG = text, RIGHTARG = name, FUNCTION = public.hostile_cat_tn);
CREATE FUNCTION public.hostile_overlap_oids(oid[], oid[]) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM public.hostile_hit('&&(oid[],oid[])'); RETURN $1 OPERATOR(pg_catalog.&&) $2; END $$;
CREATE OPERATOR public.&& (LEFTARG = oid[], RIGHTARG = oid[], FUNCTION = public.hostile_overlap_oids);
RESET ROLE;
SELECT count(*) AS planted FROM pg_proc WHERE pronamespace = 'public'::regnamespace;

-- 1. a superuser installs the first release into the schema eve controls
--    and walks the whole upgrade chain
CREATE EXTENSION bloomfilter VERSION '1.0' SCHEMA public;
ALTER EXTENSION bloomfilter UPDATE TO '1.1';
ALTER EXTENSION bloomfilter UPDATE TO '1.2';
ALTER EXTENSION bloomfilter UPDATE TO '1.3';
ALTER EXTENSION bloomfilter UPDATE TO '1.4';
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';
-- and the companion extension, in the same schema
CREATE EXTENSION bloomfilter_citus SCHEMA public;
SELECT count(*) AS hostile_calls FROM public.hostile_calls;
SELECT rolsuper AS eve_is_superuser FROM pg_roles WHERE rolname = 'regress_bf_eve';

-- 2. the same with user objects that keep 1.0's bf_create (the upgrade to
--    1.2 renames it instead of dropping it: the one conditional step)
DROP EXTENSION bloomfilter_citus, bloomfilter;
CREATE EXTENSION bloomfilter VERSION '1.1' SCHEMA public;
CREATE VIEW public.keeps_old_create AS SELECT public.bf_create(100, 0.01::float8) AS bf;
ALTER EXTENSION bloomfilter UPDATE;
SELECT public.bf_capacity(bf) AS old_create_still_works FROM public.keeps_old_create;
DROP VIEW public.keeps_old_create;
-- the kept form left the extension (for pg_dump): dropped by its own name
DROP FUNCTION public.bf_create_1_0(bigint, float8);
SELECT count(*) AS hostile_calls FROM public.hostile_calls;

-- 3. eve installs it herself: trusted, so the script runs as the bootstrap
--    superuser, with her objects on its search_path
DROP EXTENSION bloomfilter;
SET ROLE regress_bf_eve;
CREATE EXTENSION bloomfilter SCHEMA public;
SELECT extversion, extowner::regrole AS owner FROM pg_extension WHERE extname = 'bloomfilter';
SELECT public.bf_contains(public.bf_add(public.bf_create(100), 42::int8), 42::int8) AS works;
CREATE EXTENSION bloomfilter_citus SCHEMA public;
SELECT extversion, extowner::regrole AS owner FROM pg_extension WHERE extname = 'bloomfilter_citus';
SELECT public.bf_contains(public.bf_agg(g::int8, 100::int8, 0.01::float8), 42::int8) AS citus_form_works
FROM pg_catalog.generate_series(1, 100) g;
DROP EXTENSION bloomfilter_citus, bloomfilter;
CREATE EXTENSION bloomfilter VERSION '1.0' SCHEMA public;
ALTER EXTENSION bloomfilter UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';
CREATE EXTENSION bloomfilter_citus SCHEMA public;
RESET ROLE;
SELECT count(*) AS hostile_calls FROM public.hostile_calls;
SELECT rolsuper AS eve_is_superuser FROM pg_roles WHERE rolname = 'regress_bf_eve';

-- the planted objects do run when called, so a zero above means something
SELECT public.format('%s', 'bf_create(bigint)'::text) IS NOT NULL AS canary;
SELECT DISTINCT called FROM public.hostile_calls ORDER BY 1;

-- no function of the extension is written in SQL or PL/pgSQL without a
-- fixed search_path (such a body would resolve names at call time)
SELECT p.oid::regprocedure AS unsafe_body
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname IN ('bloomfilter', 'bloomfilter_citus')
JOIN pg_language l ON l.oid = p.prolang
WHERE l.lanname NOT IN ('c', 'internal')
  AND NOT coalesce(p.proconfig::text[] && ARRAY['search_path=pg_catalog', 'search_path=pg_catalog, pg_temp'], false);

DROP EXTENSION bloomfilter_citus, bloomfilter;
\c :regress_db
DROP DATABASE regress_bf_hostile;
DROP ROLE regress_bf_eve;
