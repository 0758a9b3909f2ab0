/* bloomfilter--1.4--1.5.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.5'" to load this file. \quit

-- 1.5 adds objects only: nothing of 1.4 changes or goes.  As everywhere in
-- the install scripts, every function, operator and type named here is
-- schema-qualified (the script runs with search_path set to the target
-- schema, as the bootstrap superuser when the extension is trusted).

-- bf_create takes a layout by name (layout => 'redisbloom').  The 1.4 form
-- goes, or, if objects (views, defaults) depend on it, is kept under the
-- name bf_create_1_4 so those keep working, as 1.3 did with 1.2's form:
-- the one conditional step, calling only pg_catalog's functions and
-- operators (sql/install_hostile.sql).

DO $$
DECLARE
	f pg_catalog.regprocedure := 'bf_create(bigint, float8, bigint, boolean, integer, regtype)'::pg_catalog.regprocedure;
BEGIN
	IF EXISTS (SELECT 1 FROM pg_catalog.pg_depend
			   WHERE refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
				 AND refobjid OPERATOR(pg_catalog.=) f
				 AND deptype OPERATOR(pg_catalog.=) 'n') THEN
		EXECUTE pg_catalog.format('ALTER FUNCTION %s RENAME TO bf_create_1_4', f);
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', f,
			'the 1.4 form (no layout argument), kept for the objects that depend on it; new calls reach the 1.5 function');
	ELSE
		EXECUTE pg_catalog.format('DROP FUNCTION %s', f);
	END IF;
END $$;

CREATE FUNCTION bf_create(capacity bigint, error_rate float8 DEFAULT 0.01, seed bigint DEFAULT 0,
						  counting boolean DEFAULT false, expansion integer DEFAULT 0,
						  key_type regtype DEFAULT NULL, layout text DEFAULT NULL) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_create' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_create(bigint, float8, bigint, boolean, integer, regtype, text) IS 'empty filter for capacity distinct elements at the given false-positive rate; counting => true makes one that can forget, expansion => n one that grows past its capacity, key_type => t one whose keys are of type t (else the first element''s type), layout => ''redisbloom'' one that Redis reads (BF.RESERVE''s filter; expansion 0 is NONSCALING)';

-- RedisBloom's dump (BF.SCANDUMP / BF.LOADCHUNK)

CREATE FUNCTION bf_to_redisbloom(filter bloomfilter, OUT iter bigint, OUT chunk bytea) RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'bloomfilter_to_redisbloom' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 2;
COMMENT ON FUNCTION bf_to_redisbloom(bloomfilter) IS 'the (iter, chunk) rows that BF.LOADCHUNK takes, in order, to make this RedisBloom filter in Redis';

CREATE FUNCTION bf_from_redisbloom(iters bigint[], chunks bytea[], key_type regtype DEFAULT NULL) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_from_redisbloom' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_from_redisbloom(bigint[], bytea[], regtype) IS 'the RedisBloom filter whose BF.SCANDUMP gave these (iter, chunk) pairs, of keys of type key_type (else untyped)';
