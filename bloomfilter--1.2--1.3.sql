/* bloomfilter--1.2--1.3.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.3'" to load this file. \quit

-- 1.3: the promise kept on every path (typed keys, cuckoo and scalable
-- filters that hold their rate, a safe install), the bloomfilter index
-- access method.  Every function and operator this script calls is
-- schema-qualified: it runs with search_path set to the target schema, as
-- the bootstrap superuser when a non-superuser installs (trusted).

-- ---- typed keys ----
--
-- A filter records the type of its keys (header bytes 12..15, cuckoo bytes
-- 40..43), taken from the first element added or given at creation, and a
-- value of another type is converted as SQL compares the two (README:
-- Typed keys).  The creating functions gain a key_type argument, and
-- bf_shard's text form goes (an untyped key would hash as text; see below).
-- The 1.2 forms are dropped, or, where user objects (views, column
-- defaults) depend on them, kept under a _1_2 name so those keep working:
-- the one conditional step, calling only pg_catalog's functions and
-- operators (sql/install_hostile.sql).

DO $$
DECLARE
	f pg_catalog.regprocedure;
BEGIN
	FOREACH f IN ARRAY ARRAY['bf_create(bigint, float8, bigint, boolean, integer)'::pg_catalog.regprocedure,
							 'cf_create(bigint, float8)'::pg_catalog.regprocedure,
							 'cf_create(bigint, float8, bigint)'::pg_catalog.regprocedure,
							 'bf_shard(text, integer)'::pg_catalog.regprocedure]
	LOOP
		IF EXISTS (SELECT 1 FROM pg_catalog.pg_depend
				   WHERE refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
					 AND refobjid OPERATOR(pg_catalog.=) f
					 AND deptype OPERATOR(pg_catalog.=) 'n') THEN
			EXECUTE pg_catalog.format('ALTER FUNCTION %s RENAME TO %I', f,
				CASE WHEN f OPERATOR(pg_catalog.=) 'bf_shard(text, integer)'::pg_catalog.regprocedure
					 THEN 'bf_shard_text_1_2'
					 ELSE pg_catalog.split_part(f::pg_catalog.text, '(', 1) OPERATOR(pg_catalog.||) '_1_2' END);
			EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', f,
				'the 1.2 form (untyped filters), kept for the objects that depend on it; new calls reach the 1.3 function');
		ELSE
			EXECUTE pg_catalog.format('DROP FUNCTION %s', f);
		END IF;
	END LOOP;
END $$;

CREATE FUNCTION bf_create(capacity bigint, error_rate float8 DEFAULT 0.01, seed bigint DEFAULT 0,
						  counting boolean DEFAULT false, expansion integer DEFAULT 0,
						  key_type regtype DEFAULT NULL) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_create' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_create(bigint, float8, bigint, boolean, integer, regtype) IS 'empty filter for capacity distinct elements at the given false-positive rate; counting => true makes one that can forget, expansion => n one that grows past its capacity, key_type => t one whose keys are of type t (else the first element''s type)';

CREATE FUNCTION cf_create(capacity bigint, error_rate float8 DEFAULT 0.01, seed bigint DEFAULT 0,
						  key_type regtype DEFAULT NULL) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_create' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_create(bigint, float8, bigint, regtype) IS 'empty cuckoo filter for capacity items at the given false-positive rate; key_type => t makes one whose keys are of type t (else the first element''s type)';

CREATE FUNCTION bf_key_type(bloomfilter) RETURNS regtype
	AS 'MODULE_PATHNAME', 'bloomfilter_key_type' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_key_type(bloomfilter) IS 'the type of the filter''s keys; NULL for a filter made by 1.2 or earlier, or one still empty';

CREATE FUNCTION bf_set_key_type(bloomfilter, regtype) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_set_key_type' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_set_key_type(bloomfilter, regtype) IS 'copy of the filter holding keys of the type: any type for a filter made by 1.2 or earlier (you assert what its keys were), another integer type for one of integer keys';

CREATE FUNCTION cf_key_type(cuckoofilter) RETURNS regtype
	AS 'MODULE_PATHNAME', 'cuckoofilter_key_type' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_key_type(cuckoofilter) IS 'the type of the filter''s keys; NULL for a filter made by 1.2 or earlier, or one still empty';

CREATE FUNCTION cf_set_key_type(cuckoofilter, regtype) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_set_key_type' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_set_key_type(cuckoofilter, regtype) IS 'copy of the filter holding keys of the type: any type for a filter made by 1.2 or earlier (you assert what its keys were), another integer type for one of integer keys';

-- bf_shard: without the text form (dropped above), an untyped key no
-- longer silently hashes as text: bf_shard($1, n) asks for a cast, and
-- bf_shard($1, n, key_type) converts the key as a probe of a filter of
-- that key type does.

CREATE FUNCTION bf_shard(element anyelement, nshards integer, key_type regtype) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_shard' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_shard(anyelement, integer, regtype) IS 'shard (0 to nshards - 1) of an element converted to key_type first, as a filter of that key type converts it';

CREATE FUNCTION bf_shard(element text, nshards integer, key_type regtype) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_shard' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_shard(text, integer, regtype) IS 'shard (0 to nshards - 1) of a text (an untyped literal or parameter) read as a value of key_type';

CREATE FUNCTION bf_shard(element "char", nshards integer, key_type regtype) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_shard' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_shard("char", integer, regtype) IS 'shard (0 to nshards - 1) of a "char" converted to key_type first';

-- "char" matches both anyelement and text (its category is Z), so a call
-- with a "char" was ambiguous (42725): an overload of its own, sharing the
-- C functions, for every function and operator of one element.

CREATE FUNCTION bf_add(bloomfilter, "char") RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_add(bloomfilter, "char") IS 'copy of the filter with the "char" added; NULL adds nothing';

CREATE FUNCTION bf_remove(bloomfilter, "char") RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_remove(bloomfilter, "char") IS 'copy of a counting filter with the "char" taken out if it tests present; NULL removes nothing';

CREATE FUNCTION bf_count(bloomfilter, "char") RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_count(bloomfilter, "char") IS 'how often the "char" was added, at most';

CREATE FUNCTION bf_contains(bloomfilter, "char") RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT bloomfilter_support;
COMMENT ON FUNCTION bf_contains(bloomfilter, "char") IS 'false if the "char" was certainly never added, true if it possibly was';

CREATE FUNCTION bf_contained("char", bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT bloomfilter_support;
COMMENT ON FUNCTION bf_contained("char", bloomfilter) IS 'bf_contains with the arguments swapped, for the <@ operator';

CREATE OPERATOR @> (
	LEFTARG = bloomfilter, RIGHTARG = "char", FUNCTION = bf_contains,
	COMMUTATOR = <@, RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel
);
COMMENT ON OPERATOR @> (bloomfilter, "char") IS 'filter possibly contains "char"';

CREATE OPERATOR <@ (
	LEFTARG = "char", RIGHTARG = bloomfilter, FUNCTION = bf_contained,
	COMMUTATOR = @>, RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel
);
COMMENT ON OPERATOR <@ ("char", bloomfilter) IS '"char" possibly contained in filter';

CREATE FUNCTION cf_add(cuckoofilter, "char") RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_add(cuckoofilter, "char") IS 'copy of the filter with one more copy of the "char"; NULL adds nothing';

CREATE FUNCTION cf_add_nx(cuckoofilter, "char") RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add_nx' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_add_nx(cuckoofilter, "char") IS 'the "char" added unless the filter possibly contains it already';

CREATE FUNCTION cf_delete(cuckoofilter, "char") RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_delete(cuckoofilter, "char") IS 'copy of the filter with one copy of the "char" removed (unchanged if absent)';

CREATE FUNCTION cf_contains(cuckoofilter, "char") RETURNS boolean
	AS 'MODULE_PATHNAME', 'cuckoofilter_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_contains(cuckoofilter, "char") IS 'false if the "char" is certainly not in the filter, true if it possibly is';

CREATE FUNCTION cf_contained("char", cuckoofilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'cuckoofilter_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_contained("char", cuckoofilter) IS 'cf_contains with the arguments swapped, for the <@ operator';

CREATE OPERATOR @> (
	LEFTARG = cuckoofilter, RIGHTARG = "char", FUNCTION = cf_contains,
	COMMUTATOR = <@
);
COMMENT ON OPERATOR @> (cuckoofilter, "char") IS 'cuckoo filter possibly contains "char"';

CREATE OPERATOR <@ (
	LEFTARG = "char", RIGHTARG = cuckoofilter, FUNCTION = cf_contained,
	COMMUTATOR = @>
);
COMMENT ON OPERATOR <@ ("char", cuckoofilter) IS '"char" possibly contained in cuckoo filter';

CREATE FUNCTION cf_count(cuckoofilter, "char") RETURNS bigint
	AS 'MODULE_PATHNAME', 'cuckoofilter_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_count(cuckoofilter, "char") IS 'entries matching the "char": at least the copies added and not deleted';

-- ---- cuckoo filters ----

-- 1.3 sizes cuckoo filters so that capacity never grows them, keeps each
-- sub-filter within its share of the rate, and keeps the entry when a
-- delete in a grown filter cannot tell which is the element's (README,
-- "Cuckoo filters"); the comments say what changed for users.
COMMENT ON FUNCTION cf_delete(cuckoofilter, anyelement) IS 'copy of the filter with one copy of the element removed (unchanged if absent, or if it matches in sub-filters of two shapes of a grown filter); delete only what was added';
COMMENT ON FUNCTION cf_delete(cuckoofilter, text) IS 'copy of the filter with one copy of the text removed (unchanged if absent, or if it matches in sub-filters of two shapes of a grown filter); delete only what was added';
COMMENT ON FUNCTION cf_delete_all(cuckoofilter, anyarray) IS 'copy of the filter with one copy of every non-NULL array element removed, as cf_delete; delete only what was added';
COMMENT ON FUNCTION cf_items(cuckoofilter) IS 'entries held: copies added and not deleted, and those deletes kept in a grown filter';
COMMENT ON FUNCTION cf_fpp(cuckoofilter) IS 'expected number of entries a non-member matches, over all sub-filters: an upper bound of the false-positive rate';

-- ---- scalable filters ----

-- bf_agg(element) keeps its elements' hashes and sizes the filter at the
-- end (bloomfilter_hashes.c); its description says so
COMMENT ON AGGREGATE bf_agg(anyelement) IS 'scalable filter of the non-NULL elements at a 1% error rate, with no sizing needed: its first sub-filter is sized for the distinct elements (at least 1000), and it doubles if it grows later';

-- ---- robustness ----

-- ---- internal functions out of the user's way ----

-- The aggregates' transition and final functions are named after the types
-- (bloomfilter_agg_trans, cuckoofilter_agg_trans, bloomfilter_agg_final),
-- so that \df bf_* and \df cf_* list what users call.  Aggregates refer to
-- them by OID: nothing else changes.
ALTER FUNCTION bf_agg_final(bloomfilter) RENAME TO bloomfilter_agg_final;
ALTER FUNCTION bf_agg_trans(bloomfilter, "char") RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, "char", bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, "char", bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, "char", bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, anyelement) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, anyelement, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, anyelement, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, anyelement, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, bigint, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, bigint, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, bigint, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, bytea) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, bytea, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, bytea, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, bytea, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, character varying) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, character varying, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, character varying, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, character varying, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, character) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, character, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, character, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, character, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, date) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, date, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, date, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, date, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, integer) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, integer, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, integer, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, integer, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, name) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, name, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, name, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, name, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, numeric) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, numeric, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, numeric, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, numeric, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, smallint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, smallint, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, smallint, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, smallint, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, text) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, text, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, text, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, text, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, timestamp with time zone) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, timestamp with time zone, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, timestamp with time zone, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, timestamp with time zone, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, timestamp without time zone) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, timestamp without time zone, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, timestamp without time zone, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, timestamp without time zone, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, uuid) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, uuid, bigint) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, uuid, bigint, double precision) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION bf_agg_trans(bloomfilter, uuid, bloomfilter) RENAME TO bloomfilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, "char", bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, "char", bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, anyelement, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, anyelement, bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, bigint, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, bigint, bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, bytea, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, bytea, bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, character varying, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, character varying, bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, character, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, character, bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, date, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, date, bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, integer, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, integer, bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, name, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, name, bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, numeric, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, numeric, bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, smallint, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, smallint, bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, text, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, text, bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, timestamp with time zone, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, timestamp with time zone, bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, timestamp without time zone, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, timestamp without time zone, bigint, double precision) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, uuid, bigint) RENAME TO cuckoofilter_agg_trans;
ALTER FUNCTION cf_agg_trans(cuckoofilter, uuid, bigint, double precision) RENAME TO cuckoofilter_agg_trans;

-- ---- index access method ----
