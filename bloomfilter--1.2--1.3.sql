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
-- operators (sql/install_hostile.sql).  cf_count's forms go the same way:
-- it returns integer from 1.3 on, as bf_count does (below).

DO $$
DECLARE
	f pg_catalog.regprocedure;
	fname pg_catalog.text;
BEGIN
	FOREACH f IN ARRAY ARRAY['bf_create(bigint, float8, bigint, boolean, integer)'::pg_catalog.regprocedure,
							 'cf_create(bigint, float8)'::pg_catalog.regprocedure,
							 'cf_create(bigint, float8, bigint)'::pg_catalog.regprocedure,
							 'bf_shard(text, integer)'::pg_catalog.regprocedure,
							 'cf_count(cuckoofilter, anyelement)'::pg_catalog.regprocedure,
							 'cf_count(cuckoofilter, text)'::pg_catalog.regprocedure]
	LOOP
		fname := pg_catalog.split_part(f::pg_catalog.text, '(', 1);
		IF EXISTS (SELECT 1 FROM pg_catalog.pg_depend
				   WHERE refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
					 AND refobjid OPERATOR(pg_catalog.=) f
					 AND deptype OPERATOR(pg_catalog.=) 'n') THEN
			EXECUTE pg_catalog.format('ALTER FUNCTION %s RENAME TO %I', f,
				CASE WHEN fname OPERATOR(pg_catalog.=) 'bf_shard' THEN 'bf_shard_text_1_2'
					 ELSE fname OPERATOR(pg_catalog.||) '_1_2' END);
			EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', f,
				CASE WHEN fname OPERATOR(pg_catalog.=) 'cf_count'
					 THEN 'the 1.2 form (bigint), kept for the objects that depend on it; new calls reach the 1.3 function (integer)'
					 ELSE 'the 1.2 form (untyped filters), kept for the objects that depend on it; new calls reach the 1.3 function' END);
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

-- ---- cuckoofilter: planner support ----

-- cf_contains, cf_contained and the cuckoofilter operators get what
-- bloomfilter's have: selectivity from the filter when the planner can see
-- it (its rate and the column's statistics), the documented default when
-- it cannot, and the cost of a check.  The same C functions as
-- bloomfilter's, which tell the types apart by the arguments' types.

CREATE FUNCTION cuckoofilter_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloomfilter_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_support(internal) IS 'planner support for cf_contains and cf_contained: selectivity and cost of a check';

CREATE FUNCTION cuckoofilter_contsel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME', 'bloomfilter_contsel' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_contsel(internal, oid, internal, integer) IS 'restriction selectivity of @> and <@ on cuckoo filters: the filter checked against the column''s most common values and histogram';

CREATE FUNCTION cuckoofilter_contjoinsel(internal, oid, internal, smallint, internal) RETURNS double precision
	AS 'MODULE_PATHNAME', 'bloomfilter_contjoinsel' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_contjoinsel(internal, oid, internal, smallint, internal) IS 'join selectivity of @> and <@ on cuckoo filters (the filter is unknown at plan time: 0.1)';

ALTER FUNCTION cf_contains(cuckoofilter, anyelement) SUPPORT cuckoofilter_support;
ALTER FUNCTION cf_contains(cuckoofilter, text) SUPPORT cuckoofilter_support;
ALTER FUNCTION cf_contained(anyelement, cuckoofilter) SUPPORT cuckoofilter_support;
ALTER FUNCTION cf_contained(text, cuckoofilter) SUPPORT cuckoofilter_support;
ALTER OPERATOR @> (cuckoofilter, anyelement) SET (RESTRICT = cuckoofilter_contsel, JOIN = cuckoofilter_contjoinsel);
ALTER OPERATOR <@ (anyelement, cuckoofilter) SET (RESTRICT = cuckoofilter_contsel, JOIN = cuckoofilter_contjoinsel);
ALTER OPERATOR @> (cuckoofilter, text) SET (RESTRICT = cuckoofilter_contsel, JOIN = cuckoofilter_contjoinsel);
ALTER OPERATOR <@ (text, cuckoofilter) SET (RESTRICT = cuckoofilter_contsel, JOIN = cuckoofilter_contjoinsel);

-- ---- cf_count: integer ----

-- as bf_count; an element matches in at most two buckets per sub-filter
-- (1024 entries at most).  The 1.2 forms went in the DO block above.
CREATE FUNCTION cf_count(cuckoofilter, anyelement) RETURNS integer
	AS 'MODULE_PATHNAME', 'cuckoofilter_count_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_count(cuckoofilter, anyelement) IS 'entries matching the element: at least the copies added and not deleted';

CREATE FUNCTION cf_count(cuckoofilter, text) RETURNS integer
	AS 'MODULE_PATHNAME', 'cuckoofilter_count_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_count(cuckoofilter, text) IS 'entries matching the text: at least the copies added and not deleted';

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
	AS 'MODULE_PATHNAME', 'cuckoofilter_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT cuckoofilter_support;
COMMENT ON FUNCTION cf_contains(cuckoofilter, "char") IS 'false if the "char" is certainly not in the filter, true if it possibly is';

CREATE FUNCTION cf_contained("char", cuckoofilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'cuckoofilter_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT cuckoofilter_support;
COMMENT ON FUNCTION cf_contained("char", cuckoofilter) IS 'cf_contains with the arguments swapped, for the <@ operator';

CREATE OPERATOR @> (
	LEFTARG = cuckoofilter, RIGHTARG = "char", FUNCTION = cf_contains,
	COMMUTATOR = <@,
	RESTRICT = cuckoofilter_contsel, JOIN = cuckoofilter_contjoinsel
);
COMMENT ON OPERATOR @> (cuckoofilter, "char") IS 'cuckoo filter possibly contains "char"';

CREATE OPERATOR <@ (
	LEFTARG = "char", RIGHTARG = cuckoofilter, FUNCTION = cf_contained,
	COMMUTATOR = @>,
	RESTRICT = cuckoofilter_contsel, JOIN = cuckoofilter_contjoinsel
);
COMMENT ON OPERATOR <@ ("char", cuckoofilter) IS '"char" possibly contained in cuckoo filter';

CREATE FUNCTION cf_count(cuckoofilter, "char") RETURNS integer
	AS 'MODULE_PATHNAME', 'cuckoofilter_count_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
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

-- ---- cf_agg hands its result over flat ----

-- A final function, as bf_agg's: a grown state is an expanded object, which
-- every consumer of the result would otherwise flatten for itself.  ALTER
-- AGGREGATE cannot add one; CREATE OR REPLACE AGGREGATE can, keeping each
-- aggregate's OID, comment and privileges, so the views and functions of
-- users that call cf_agg keep working unchanged and need no conditional
-- step.  It replaces only members of this extension (PostgreSQL refuses
-- any other object under the name).

CREATE FUNCTION cuckoofilter_agg_final(cuckoofilter) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_final(cuckoofilter) IS 'cf_agg final function: the state, flat';

CREATE OR REPLACE AGGREGATE cf_agg(anyelement, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(anyelement, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(int2, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(int2, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(int4, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(int4, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(int8, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(int8, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(text, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(text, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(varchar, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(varchar, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(bytea, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(bytea, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(uuid, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(uuid, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(numeric, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(numeric, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(date, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(date, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(timestamp, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(timestamp, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(timestamptz, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(timestamptz, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(bpchar, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(bpchar, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(name, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg(name, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg("char", bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE cf_agg("char", bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_merge, PARALLEL = SAFE);

-- ---- cuckoofilter: what bloomfilter has ----

-- comparison, as bloomfilter's: by the binary form, the same C functions
-- (they compare the bytes of any varlena), so that DISTINCT, GROUP BY,
-- UNION, IN, hash and merge joins, btree indexes and REPLICA IDENTITY FULL
-- work on cuckoofilter columns
CREATE FUNCTION cuckoofilter_eq(cuckoofilter, cuckoofilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_eq(cuckoofilter, cuckoofilter) IS 'true if both filters have the same bytes';

CREATE FUNCTION cuckoofilter_ne(cuckoofilter, cuckoofilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_ne(cuckoofilter, cuckoofilter) IS 'true if the filters differ in any byte';

CREATE FUNCTION cuckoofilter_lt(cuckoofilter, cuckoofilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_lt(cuckoofilter, cuckoofilter) IS 'byte order of filters (for sorting and btree indexes only)';

CREATE FUNCTION cuckoofilter_le(cuckoofilter, cuckoofilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_le(cuckoofilter, cuckoofilter) IS 'byte order of filters (for sorting and btree indexes only)';

CREATE FUNCTION cuckoofilter_gt(cuckoofilter, cuckoofilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_gt(cuckoofilter, cuckoofilter) IS 'byte order of filters (for sorting and btree indexes only)';

CREATE FUNCTION cuckoofilter_ge(cuckoofilter, cuckoofilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_ge(cuckoofilter, cuckoofilter) IS 'byte order of filters (for sorting and btree indexes only)';

CREATE FUNCTION cuckoofilter_cmp(cuckoofilter, cuckoofilter) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_cmp(cuckoofilter, cuckoofilter) IS 'btree comparison of filters by their bytes';

CREATE FUNCTION cuckoofilter_hash(cuckoofilter) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_hash(cuckoofilter) IS 'hash of a filter''s bytes, for hash joins and hash aggregation';

CREATE FUNCTION cuckoofilter_hash_extended(cuckoofilter, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME', 'bloomfilter_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_hash_extended(cuckoofilter, bigint) IS 'seeded 64-bit hash of a filter''s bytes';

CREATE OPERATOR = (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = cuckoofilter_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel,
	HASHES, MERGES
);
COMMENT ON OPERATOR = (cuckoofilter, cuckoofilter) IS 'filters are byte for byte the same';

CREATE OPERATOR <> (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = cuckoofilter_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <> (cuckoofilter, cuckoofilter) IS 'filters differ';

CREATE OPERATOR < (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = cuckoofilter_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR < (cuckoofilter, cuckoofilter) IS 'byte order of filters';

CREATE OPERATOR <= (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = cuckoofilter_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <= (cuckoofilter, cuckoofilter) IS 'byte order of filters';

CREATE OPERATOR > (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = cuckoofilter_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR > (cuckoofilter, cuckoofilter) IS 'byte order of filters';

CREATE OPERATOR >= (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = cuckoofilter_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >= (cuckoofilter, cuckoofilter) IS 'byte order of filters';

CREATE OPERATOR CLASS cuckoofilter_ops DEFAULT FOR TYPE cuckoofilter USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 cuckoofilter_cmp(cuckoofilter, cuckoofilter);
COMMENT ON OPERATOR CLASS cuckoofilter_ops USING btree IS 'filters ordered by their bytes';

CREATE OPERATOR CLASS cuckoofilter_ops DEFAULT FOR TYPE cuckoofilter USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 cuckoofilter_hash(cuckoofilter),
	FUNCTION 2 cuckoofilter_hash_extended(cuckoofilter, bigint);
COMMENT ON OPERATOR CLASS cuckoofilter_ops USING hash IS 'filters hashed by their bytes';
COMMENT ON OPERATOR FAMILY cuckoofilter_ops USING btree IS 'filters ordered by their bytes';
COMMENT ON OPERATOR FAMILY cuckoofilter_ops USING hash IS 'filters hashed by their bytes';

-- batch checks, as bf_contains_all (bloom_contains_all for both types)
CREATE FUNCTION cf_contains_all(cuckoofilter, anyarray) RETURNS boolean[]
	AS 'MODULE_PATHNAME', 'cuckoofilter_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_contains_all(cuckoofilter, anyarray) IS 'cf_contains for every element of the array: answers in the same order and shape, NULL for NULL elements';

-- names that line up with bloomfilter's verbs (bf_remove, bf_remove_all,
-- bf_union, |): aliases of the cuckoofilter functions, the same C
-- functions, so both names give the same bytes; the old names stay
CREATE FUNCTION cf_remove(cuckoofilter, anyelement) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_remove(cuckoofilter, anyelement) IS 'alias of cf_delete: copy of the filter with one copy of the element removed; delete only what was added';

CREATE FUNCTION cf_remove(cuckoofilter, text) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_remove(cuckoofilter, text) IS 'alias of cf_delete: copy of the filter with one copy of the text removed; delete only what was added';

CREATE FUNCTION cf_remove(cuckoofilter, "char") RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_remove(cuckoofilter, "char") IS 'alias of cf_delete: copy of the filter with one copy of the "char" removed; delete only what was added';

CREATE FUNCTION cf_remove_all(cuckoofilter, anyarray) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_remove_all(cuckoofilter, anyarray) IS 'alias of cf_delete_all: one copy of every non-NULL array element removed; delete only what was added';

CREATE FUNCTION cf_union(cuckoofilter, cuckoofilter) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_merge' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_union(cuckoofilter, cuckoofilter) IS 'alias of cf_merge: filter holding the entries of both (same capacity, error rate and seed required); a NULL operand is ignored';

-- no COMMUTATOR: a | b and b | a answer alike but need not have the same
-- bytes (b's entries are re-inserted into a)
CREATE OPERATOR | (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = cf_merge
);
COMMENT ON OPERATOR | (cuckoofilter, cuckoofilter) IS 'cf_merge of two cuckoo filters';

-- ---- index access method ----

-- CREATE INDEX ... USING bloomfilter (key) WITH (capacity = n, error_rate = p):
-- one filter over the key of every row, kept current by the server
-- (src/bloomfilter_am.c).  The planner never scans it; the bf_index_*
-- functions below read it.

CREATE FUNCTION bloomfilter_am_handler(internal) RETURNS pg_catalog.index_am_handler
	AS 'MODULE_PATHNAME' LANGUAGE C PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_am_handler(internal) IS 'handler of the bloomfilter index access method';

CREATE ACCESS METHOD bloomfilter TYPE INDEX HANDLER bloomfilter_am_handler;
COMMENT ON ACCESS METHOD bloomfilter IS 'one Bloom filter over the indexed key of every row, for bf_index_contains; never used by the planner';

-- An operator class per type the filter hashes (hash id 2), default for its
-- type.  The access method has no strategies and no support functions (keys
-- are hashed by their type, as the bloomfilter type hashes elements), so a
-- class names its type and nothing else; STORAGE of the type itself is the
-- one clause that says so.

CREATE OPERATOR CLASS int2_ops DEFAULT FOR TYPE pg_catalog.int2 USING bloomfilter AS STORAGE pg_catalog.int2;
COMMENT ON OPERATOR CLASS int2_ops USING bloomfilter IS 'bloomfilter index keys of int2';
COMMENT ON OPERATOR FAMILY int2_ops USING bloomfilter IS 'bloomfilter index keys of int2';
CREATE OPERATOR CLASS int4_ops DEFAULT FOR TYPE pg_catalog.int4 USING bloomfilter AS STORAGE pg_catalog.int4;
COMMENT ON OPERATOR CLASS int4_ops USING bloomfilter IS 'bloomfilter index keys of int4';
COMMENT ON OPERATOR FAMILY int4_ops USING bloomfilter IS 'bloomfilter index keys of int4';
CREATE OPERATOR CLASS int8_ops DEFAULT FOR TYPE pg_catalog.int8 USING bloomfilter AS STORAGE pg_catalog.int8;
COMMENT ON OPERATOR CLASS int8_ops USING bloomfilter IS 'bloomfilter index keys of int8';
COMMENT ON OPERATOR FAMILY int8_ops USING bloomfilter IS 'bloomfilter index keys of int8';
CREATE OPERATOR CLASS numeric_ops DEFAULT FOR TYPE pg_catalog.numeric USING bloomfilter AS STORAGE pg_catalog.numeric;
COMMENT ON OPERATOR CLASS numeric_ops USING bloomfilter IS 'bloomfilter index keys of numeric';
COMMENT ON OPERATOR FAMILY numeric_ops USING bloomfilter IS 'bloomfilter index keys of numeric';
CREATE OPERATOR CLASS float4_ops DEFAULT FOR TYPE pg_catalog.float4 USING bloomfilter AS STORAGE pg_catalog.float4;
COMMENT ON OPERATOR CLASS float4_ops USING bloomfilter IS 'bloomfilter index keys of float4';
COMMENT ON OPERATOR FAMILY float4_ops USING bloomfilter IS 'bloomfilter index keys of float4';
CREATE OPERATOR CLASS float8_ops DEFAULT FOR TYPE pg_catalog.float8 USING bloomfilter AS STORAGE pg_catalog.float8;
COMMENT ON OPERATOR CLASS float8_ops USING bloomfilter IS 'bloomfilter index keys of float8';
COMMENT ON OPERATOR FAMILY float8_ops USING bloomfilter IS 'bloomfilter index keys of float8';
CREATE OPERATOR CLASS text_ops DEFAULT FOR TYPE pg_catalog.text USING bloomfilter AS STORAGE pg_catalog.text;
COMMENT ON OPERATOR CLASS text_ops USING bloomfilter IS 'bloomfilter index keys of text';
COMMENT ON OPERATOR FAMILY text_ops USING bloomfilter IS 'bloomfilter index keys of text';
CREATE OPERATOR CLASS varchar_ops DEFAULT FOR TYPE pg_catalog.varchar USING bloomfilter AS STORAGE pg_catalog.varchar;
COMMENT ON OPERATOR CLASS varchar_ops USING bloomfilter IS 'bloomfilter index keys of varchar';
COMMENT ON OPERATOR FAMILY varchar_ops USING bloomfilter IS 'bloomfilter index keys of varchar';
CREATE OPERATOR CLASS bpchar_ops DEFAULT FOR TYPE pg_catalog.bpchar USING bloomfilter AS STORAGE pg_catalog.bpchar;
COMMENT ON OPERATOR CLASS bpchar_ops USING bloomfilter IS 'bloomfilter index keys of bpchar';
COMMENT ON OPERATOR FAMILY bpchar_ops USING bloomfilter IS 'bloomfilter index keys of bpchar';
CREATE OPERATOR CLASS name_ops DEFAULT FOR TYPE pg_catalog.name USING bloomfilter AS STORAGE pg_catalog.name;
COMMENT ON OPERATOR CLASS name_ops USING bloomfilter IS 'bloomfilter index keys of name';
COMMENT ON OPERATOR FAMILY name_ops USING bloomfilter IS 'bloomfilter index keys of name';
CREATE OPERATOR CLASS char_ops DEFAULT FOR TYPE pg_catalog."char" USING bloomfilter AS STORAGE pg_catalog."char";
COMMENT ON OPERATOR CLASS char_ops USING bloomfilter IS 'bloomfilter index keys of "char"';
COMMENT ON OPERATOR FAMILY char_ops USING bloomfilter IS 'bloomfilter index keys of "char"';
CREATE OPERATOR CLASS bytea_ops DEFAULT FOR TYPE pg_catalog.bytea USING bloomfilter AS STORAGE pg_catalog.bytea;
COMMENT ON OPERATOR CLASS bytea_ops USING bloomfilter IS 'bloomfilter index keys of bytea';
COMMENT ON OPERATOR FAMILY bytea_ops USING bloomfilter IS 'bloomfilter index keys of bytea';
CREATE OPERATOR CLASS uuid_ops DEFAULT FOR TYPE pg_catalog.uuid USING bloomfilter AS STORAGE pg_catalog.uuid;
COMMENT ON OPERATOR CLASS uuid_ops USING bloomfilter IS 'bloomfilter index keys of uuid';
COMMENT ON OPERATOR FAMILY uuid_ops USING bloomfilter IS 'bloomfilter index keys of uuid';
CREATE OPERATOR CLASS date_ops DEFAULT FOR TYPE pg_catalog.date USING bloomfilter AS STORAGE pg_catalog.date;
COMMENT ON OPERATOR CLASS date_ops USING bloomfilter IS 'bloomfilter index keys of date';
COMMENT ON OPERATOR FAMILY date_ops USING bloomfilter IS 'bloomfilter index keys of date';
CREATE OPERATOR CLASS time_ops DEFAULT FOR TYPE pg_catalog.time USING bloomfilter AS STORAGE pg_catalog.time;
COMMENT ON OPERATOR CLASS time_ops USING bloomfilter IS 'bloomfilter index keys of time';
COMMENT ON OPERATOR FAMILY time_ops USING bloomfilter IS 'bloomfilter index keys of time';
CREATE OPERATOR CLASS timetz_ops DEFAULT FOR TYPE pg_catalog.timetz USING bloomfilter AS STORAGE pg_catalog.timetz;
COMMENT ON OPERATOR CLASS timetz_ops USING bloomfilter IS 'bloomfilter index keys of timetz';
COMMENT ON OPERATOR FAMILY timetz_ops USING bloomfilter IS 'bloomfilter index keys of timetz';
CREATE OPERATOR CLASS timestamp_ops DEFAULT FOR TYPE pg_catalog.timestamp USING bloomfilter AS STORAGE pg_catalog.timestamp;
COMMENT ON OPERATOR CLASS timestamp_ops USING bloomfilter IS 'bloomfilter index keys of timestamp';
COMMENT ON OPERATOR FAMILY timestamp_ops USING bloomfilter IS 'bloomfilter index keys of timestamp';
CREATE OPERATOR CLASS timestamptz_ops DEFAULT FOR TYPE pg_catalog.timestamptz USING bloomfilter AS STORAGE pg_catalog.timestamptz;
COMMENT ON OPERATOR CLASS timestamptz_ops USING bloomfilter IS 'bloomfilter index keys of timestamptz';
COMMENT ON OPERATOR FAMILY timestamptz_ops USING bloomfilter IS 'bloomfilter index keys of timestamptz';
CREATE OPERATOR CLASS interval_ops DEFAULT FOR TYPE pg_catalog.interval USING bloomfilter AS STORAGE pg_catalog.interval;
COMMENT ON OPERATOR CLASS interval_ops USING bloomfilter IS 'bloomfilter index keys of interval';
COMMENT ON OPERATOR FAMILY interval_ops USING bloomfilter IS 'bloomfilter index keys of interval';
CREATE OPERATOR CLASS bool_ops DEFAULT FOR TYPE pg_catalog.bool USING bloomfilter AS STORAGE pg_catalog.bool;
COMMENT ON OPERATOR CLASS bool_ops USING bloomfilter IS 'bloomfilter index keys of bool';
COMMENT ON OPERATOR FAMILY bool_ops USING bloomfilter IS 'bloomfilter index keys of bool';
CREATE OPERATOR CLASS oid_ops DEFAULT FOR TYPE pg_catalog.oid USING bloomfilter AS STORAGE pg_catalog.oid;
COMMENT ON OPERATOR CLASS oid_ops USING bloomfilter IS 'bloomfilter index keys of oid';
COMMENT ON OPERATOR FAMILY oid_ops USING bloomfilter IS 'bloomfilter index keys of oid';
CREATE OPERATOR CLASS money_ops DEFAULT FOR TYPE pg_catalog.money USING bloomfilter AS STORAGE pg_catalog.money;
COMMENT ON OPERATOR CLASS money_ops USING bloomfilter IS 'bloomfilter index keys of money';
COMMENT ON OPERATOR FAMILY money_ops USING bloomfilter IS 'bloomfilter index keys of money';
CREATE OPERATOR CLASS inet_ops DEFAULT FOR TYPE pg_catalog.inet USING bloomfilter AS STORAGE pg_catalog.inet;
COMMENT ON OPERATOR CLASS inet_ops USING bloomfilter IS 'bloomfilter index keys of inet';
COMMENT ON OPERATOR FAMILY inet_ops USING bloomfilter IS 'bloomfilter index keys of inet';
CREATE OPERATOR CLASS cidr_ops DEFAULT FOR TYPE pg_catalog.cidr USING bloomfilter AS STORAGE pg_catalog.cidr;
COMMENT ON OPERATOR CLASS cidr_ops USING bloomfilter IS 'bloomfilter index keys of cidr';
COMMENT ON OPERATOR FAMILY cidr_ops USING bloomfilter IS 'bloomfilter index keys of cidr';
CREATE OPERATOR CLASS macaddr_ops DEFAULT FOR TYPE pg_catalog.macaddr USING bloomfilter AS STORAGE pg_catalog.macaddr;
COMMENT ON OPERATOR CLASS macaddr_ops USING bloomfilter IS 'bloomfilter index keys of macaddr';
COMMENT ON OPERATOR FAMILY macaddr_ops USING bloomfilter IS 'bloomfilter index keys of macaddr';
CREATE OPERATOR CLASS macaddr8_ops DEFAULT FOR TYPE pg_catalog.macaddr8 USING bloomfilter AS STORAGE pg_catalog.macaddr8;
COMMENT ON OPERATOR CLASS macaddr8_ops USING bloomfilter IS 'bloomfilter index keys of macaddr8';
COMMENT ON OPERATOR FAMILY macaddr8_ops USING bloomfilter IS 'bloomfilter index keys of macaddr8';
CREATE OPERATOR CLASS bit_ops DEFAULT FOR TYPE pg_catalog.bit USING bloomfilter AS STORAGE pg_catalog.bit;
COMMENT ON OPERATOR CLASS bit_ops USING bloomfilter IS 'bloomfilter index keys of bit';
COMMENT ON OPERATOR FAMILY bit_ops USING bloomfilter IS 'bloomfilter index keys of bit';
CREATE OPERATOR CLASS varbit_ops DEFAULT FOR TYPE pg_catalog.varbit USING bloomfilter AS STORAGE pg_catalog.varbit;
COMMENT ON OPERATOR CLASS varbit_ops USING bloomfilter IS 'bloomfilter index keys of varbit';
COMMENT ON OPERATOR FAMILY varbit_ops USING bloomfilter IS 'bloomfilter index keys of varbit';
CREATE OPERATOR CLASS pg_lsn_ops DEFAULT FOR TYPE pg_catalog.pg_lsn USING bloomfilter AS STORAGE pg_catalog.pg_lsn;
COMMENT ON OPERATOR CLASS pg_lsn_ops USING bloomfilter IS 'bloomfilter index keys of pg_lsn';
COMMENT ON OPERATOR FAMILY pg_lsn_ops USING bloomfilter IS 'bloomfilter index keys of pg_lsn';
CREATE OPERATOR CLASS array_ops DEFAULT FOR TYPE pg_catalog.anyarray USING bloomfilter AS STORAGE pg_catalog.anyarray;
COMMENT ON OPERATOR CLASS array_ops USING bloomfilter IS 'bloomfilter index keys of arrays of the types above';
COMMENT ON OPERATOR FAMILY array_ops USING bloomfilter IS 'bloomfilter index keys of arrays of the types above';

-- Reading an index.  VOLATILE: concurrent inserts change the answers within
-- a statement.  Keys given as text (an untyped literal, which the text form
-- of bf_index_contains takes, a text parameter, a text[] array) are read as
-- the indexed column's type; an untyped array literal needs a cast, as for
-- bf_contains_all.
CREATE FUNCTION bf_index_contains(index regclass, key anyelement) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_index_contains' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_index_contains(regclass, anyelement) IS 'false if no row of the bloomfilter index''s table has this key; true if one may (a row for a multi-column index)';

CREATE FUNCTION bf_index_contains(index regclass, key text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_index_contains' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_index_contains(regclass, text) IS 'bf_index_contains for a key given as text or an untyped literal, read as the indexed column''s type';

-- "char" casts to text implicitly without being a string type: without a
-- form of its own, a "char" key would match both of the above
CREATE FUNCTION bf_index_contains(index regclass, key "char") RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_index_contains' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_index_contains(regclass, "char") IS 'bf_index_contains for a "char" key';

CREATE FUNCTION bf_index_contains_all(index regclass, keys anyarray) RETURNS boolean[]
	AS 'MODULE_PATHNAME', 'bloomfilter_index_contains_all' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_index_contains_all(regclass, anyarray) IS 'bf_index_contains for every element of the array: answers in the same order and shape, NULL for NULL elements';

CREATE FUNCTION bf_index_filter(index regclass) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_index_filter' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_index_filter(regclass) IS 'snapshot of a bloomfilter index as a bloomfilter value, identical to bf_add_all of the same keys into bf_create(capacity, error_rate)';

CREATE FUNCTION bf_index_info(index regclass) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'bloomfilter_index_info' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_index_info(regclass) IS 'shape, options, fill and estimates of a bloomfilter index, and whether a REINDEX would pay';
