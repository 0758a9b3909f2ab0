/* bloomfilter--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.2'" to load this file. \quit

-- 1.2: new filters record hash id 2, under which SQL-equal values hash
-- equal (numeric scales, signed zeros and NaNs, intervals); filters stored
-- with hash id 1 keep their rules and answers.  A NULL operand of bf_union
-- or bf_intersect is ignored instead of making the result NULL.  Filters
-- get equality and btree/hash operator classes (same bytes = equal).

ALTER FUNCTION bf_union(bloomfilter, bloomfilter) CALLED ON NULL INPUT;
COMMENT ON FUNCTION bf_union(bloomfilter, bloomfilter) IS 'filter of every element of either filter (same shape required); a NULL operand is ignored';

ALTER FUNCTION bf_intersect(bloomfilter, bloomfilter) CALLED ON NULL INPUT;
COMMENT ON FUNCTION bf_intersect(bloomfilter, bloomfilter) IS 'approximate intersection: bitwise AND, may hold false positives of either side (same shape required); a NULL operand is ignored';

-- comparison: by the binary form

CREATE FUNCTION bloomfilter_eq(bloomfilter, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_eq(bloomfilter, bloomfilter) IS 'true if both filters have the same bytes';

CREATE FUNCTION bloomfilter_ne(bloomfilter, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_ne(bloomfilter, bloomfilter) IS 'true if the filters differ in any byte';

CREATE FUNCTION bloomfilter_lt(bloomfilter, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_lt(bloomfilter, bloomfilter) IS 'byte order of filters (for sorting and btree indexes only)';

CREATE FUNCTION bloomfilter_le(bloomfilter, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_le(bloomfilter, bloomfilter) IS 'byte order of filters (for sorting and btree indexes only)';

CREATE FUNCTION bloomfilter_gt(bloomfilter, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_gt(bloomfilter, bloomfilter) IS 'byte order of filters (for sorting and btree indexes only)';

CREATE FUNCTION bloomfilter_ge(bloomfilter, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_ge(bloomfilter, bloomfilter) IS 'byte order of filters (for sorting and btree indexes only)';

CREATE FUNCTION bloomfilter_cmp(bloomfilter, bloomfilter) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_cmp(bloomfilter, bloomfilter) IS 'btree comparison of filters by their bytes';

CREATE FUNCTION bloomfilter_hash(bloomfilter) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_hash(bloomfilter) IS 'hash of a filter''s bytes, for hash joins and hash aggregation';

CREATE FUNCTION bloomfilter_hash_extended(bloomfilter, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_hash_extended(bloomfilter, bigint) IS 'seeded 64-bit hash of a filter''s bytes';

CREATE OPERATOR = (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bloomfilter_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel,
	HASHES, MERGES
);
COMMENT ON OPERATOR = (bloomfilter, bloomfilter) IS 'filters are byte for byte the same';

CREATE OPERATOR <> (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bloomfilter_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <> (bloomfilter, bloomfilter) IS 'filters differ';

CREATE OPERATOR < (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bloomfilter_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR < (bloomfilter, bloomfilter) IS 'byte order of filters';

CREATE OPERATOR <= (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bloomfilter_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <= (bloomfilter, bloomfilter) IS 'byte order of filters';

CREATE OPERATOR > (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bloomfilter_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR > (bloomfilter, bloomfilter) IS 'byte order of filters';

CREATE OPERATOR >= (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bloomfilter_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >= (bloomfilter, bloomfilter) IS 'byte order of filters';

CREATE OPERATOR CLASS bloomfilter_ops DEFAULT FOR TYPE bloomfilter USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 bloomfilter_cmp(bloomfilter, bloomfilter);
COMMENT ON OPERATOR CLASS bloomfilter_ops USING btree IS 'filters ordered by their bytes';

CREATE OPERATOR CLASS bloomfilter_ops DEFAULT FOR TYPE bloomfilter USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 bloomfilter_hash(bloomfilter),
	FUNCTION 2 bloomfilter_hash_extended(bloomfilter, bigint);
COMMENT ON OPERATOR CLASS bloomfilter_ops USING hash IS 'filters hashed by their bytes';
COMMENT ON OPERATOR FAMILY bloomfilter_ops USING btree IS 'filters ordered by their bytes';
COMMENT ON OPERATOR FAMILY bloomfilter_ops USING hash IS 'filters hashed by their bytes';

-- bf_create: one function with named optional arguments.  The two of 1.0
-- are dropped, or, where user objects (views, defaults, functions) depend
-- on them, kept under the name bf_create_1_0 so that those objects keep
-- working unchanged.
DO $$
DECLARE
	f regprocedure;
BEGIN
	FOREACH f IN ARRAY ARRAY['bf_create(bigint, float8)'::regprocedure,
							 'bf_create(bigint, float8, bigint)'::regprocedure]
	LOOP
		IF EXISTS (SELECT 1 FROM pg_depend
				   WHERE refclassid = 'pg_proc'::regclass AND refobjid = f AND deptype = 'n') THEN
			EXECUTE format('ALTER FUNCTION %s RENAME TO bf_create_1_0', f);
		ELSE
			EXECUTE format('DROP FUNCTION %s', f);
		END IF;
	END LOOP;
END $$;

CREATE FUNCTION bf_create(capacity bigint, error_rate float8 DEFAULT 0.01, seed bigint DEFAULT 0,
						  counting boolean DEFAULT false, expansion integer DEFAULT 0) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_create' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_create(bigint, float8, bigint, boolean, integer) IS 'empty filter for capacity distinct elements at the given false-positive rate; counting => true makes one that can forget, expansion => n one that grows past its capacity';

-- counting filters

CREATE FUNCTION bf_remove(bloomfilter, anyelement) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_remove(bloomfilter, anyelement) IS 'copy of a counting filter with the element taken out if it tests present; NULL removes nothing';

CREATE FUNCTION bf_remove(bloomfilter, text) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_remove(bloomfilter, text) IS 'copy of a counting filter with the text taken out if it tests present; NULL removes nothing';

CREATE FUNCTION bf_count(bloomfilter, anyelement) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_count(bloomfilter, anyelement) IS 'how often the element was added, at most (the smallest of its counters; 0 or 1 for a plain filter)';

CREATE FUNCTION bf_count(bloomfilter, text) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_count(bloomfilter, text) IS 'how often the text was added, at most (the smallest of its counters; 0 or 1 for a plain filter)';

-- aggregates that build any layout: from a template, or scalable at 1%

CREATE FUNCTION bf_agg_trans(bloomfilter, anyelement, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, anyelement, bloomfilter) IS 'bf_agg transition function (template form)';

CREATE AGGREGATE bf_agg(element anyelement, template bloomfilter) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(anyelement, bloomfilter) IS 'the template filter (any layout: plain, counting, scalable) with the non-NULL elements added';

CREATE FUNCTION bf_agg_trans(bloomfilter, anyelement) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, anyelement) IS 'bf_agg transition function (scalable form)';

CREATE AGGREGATE bf_agg(element anyelement) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(anyelement) IS 'scalable filter of the non-NULL elements at a 1% error rate, with no sizing needed (starts at 1000 elements, doubles)';

CREATE FUNCTION bf_remove_all(bloomfilter, anyarray) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_remove_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_remove_all(bloomfilter, anyarray) IS 'copy of a counting filter with every non-NULL array element taken out (each only if it tests present)';

-- batch checks (RedisBloom's BF.MEXISTS): one answer per array element.
-- anyarray, as bf_add_all: an untyped literal ('{a,b}') needs a cast
-- ('{a,b}'::text[]), since a text[] overload beside anyarray would make
-- every literal ambiguous.

CREATE FUNCTION bf_contains_all(bloomfilter, anyarray) RETURNS boolean[]
	AS 'MODULE_PATHNAME', 'bloomfilter_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_contains_all(bloomfilter, anyarray) IS 'bf_contains for every element of the array: answers in the same order and shape, NULL for NULL elements';

-- planner support: selectivity of checks from the column's statistics when
-- the filter is known at plan time (a documented default when it is not),
-- and the cost of a check (a hash and one cache line)

CREATE FUNCTION bloomfilter_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_support(internal) IS 'planner support for bf_contains and bf_contained: selectivity and cost of a check';

CREATE FUNCTION bloomfilter_contsel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_contsel(internal, oid, internal, integer) IS 'restriction selectivity of @> and <@: the filter checked against the column''s most common values and histogram';

CREATE FUNCTION bloomfilter_contjoinsel(internal, oid, internal, smallint, internal) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_contjoinsel(internal, oid, internal, smallint, internal) IS 'join selectivity of @> and <@ (the filter is unknown at plan time: 0.1)';

ALTER FUNCTION bf_contains(bloomfilter, anyelement) SUPPORT bloomfilter_support;
ALTER FUNCTION bf_contains(bloomfilter, text) SUPPORT bloomfilter_support;
ALTER FUNCTION bf_contained(anyelement, bloomfilter) SUPPORT bloomfilter_support;
ALTER FUNCTION bf_contained(text, bloomfilter) SUPPORT bloomfilter_support;

ALTER OPERATOR @> (bloomfilter, anyelement) SET (RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
ALTER OPERATOR <@ (anyelement, bloomfilter) SET (RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
ALTER OPERATOR @> (bloomfilter, text) SET (RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
ALTER OPERATOR <@ (text, bloomfilter) SET (RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);

-- bf_agg for concrete element types, beside the polymorphic forms.
--
-- Citus computes an aggregate partially on the workers and combines the
-- states on the coordinator only if the aggregate's declared argument types
-- equal those of the call, which an anyelement aggregate never does; and it
-- calls the transition function without a call expression, so the element
-- type must come from the transition function's declared arguments.  These
-- overloads give both, for every form of bf_agg.  They share the C
-- transition functions and hash exactly as the polymorphic aggregates do;
-- a type without an overload still reaches the polymorphic one.  bpchar,
-- name and "char" are here so that they resolve to their own overload rather
-- than by a cast to another's.
DO $$
DECLARE
	t text;
	agg text;
BEGIN
	FOREACH t IN ARRAY ARRAY['int2', 'int4', 'int8', 'text', 'varchar', 'bytea', 'uuid', 'numeric',
							 'date', 'timestamp', 'timestamptz', 'bpchar', 'name', '"char"']
	LOOP
		FOREACH agg IN ARRAY ARRAY[
			'bigint, float8|bloomfilter_agg_trans|sized for capacity at error_rate',
			'bigint|bloomfilter_agg_trans|sized for capacity at a 1% error rate',
			'bloomfilter|bloomfilter_agg_trans_template|added to the template filter',
			'|bloomfilter_agg_trans|in a scalable filter at 1% (no sizing needed)']
		LOOP
			EXECUTE format('CREATE FUNCTION bf_agg_trans(bloomfilter, %s%s) RETURNS bloomfilter '
						   'AS ''MODULE_PATHNAME'', %L LANGUAGE C IMMUTABLE PARALLEL SAFE',
						   t, coalesce(', ' || nullif(split_part(agg, '|', 1), ''), ''),
						   split_part(agg, '|', 2));
			EXECUTE format('COMMENT ON FUNCTION bf_agg_trans(bloomfilter, %s%s) IS %L',
						   t, coalesce(', ' || nullif(split_part(agg, '|', 1), ''), ''),
						   'bf_agg transition function for ' || t);
			EXECUTE format('CREATE AGGREGATE bf_agg(%s%s) (SFUNC = bf_agg_trans, STYPE = bloomfilter, '
						   'FINALFUNC = bf_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE)',
						   t, coalesce(', ' || nullif(split_part(agg, '|', 1), ''), ''));
			EXECUTE format('COMMENT ON AGGREGATE bf_agg(%s%s) IS %L',
						   t, coalesce(', ' || nullif(split_part(agg, '|', 1), ''), ''),
						   'filter of the non-NULL ' || t || ' elements, ' || split_part(agg, '|', 3));
		END LOOP;
	END LOOP;
END $$;

-- ---- cuckoofilter: a filter that can delete, count and grow ----
-- (src/bloom_cuckoo.c: format, sizing, growth; notes/cuckoo.md)

CREATE TYPE cuckoofilter;

CREATE FUNCTION cuckoofilter_in(cstring) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_in(cstring) IS 'cuckoofilter text input (base64 of the binary form)';

CREATE FUNCTION cuckoofilter_out(cuckoofilter) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_out(cuckoofilter) IS 'cuckoofilter text output (base64 of the binary form)';

CREATE FUNCTION cuckoofilter_recv(internal) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_recv(internal) IS 'cuckoofilter binary input';

CREATE FUNCTION cuckoofilter_send(cuckoofilter) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_send(cuckoofilter) IS 'cuckoofilter binary output';

-- EXTERNAL: fingerprints do not compress
CREATE TYPE cuckoofilter (
	INPUT = cuckoofilter_in,
	OUTPUT = cuckoofilter_out,
	RECEIVE = cuckoofilter_recv,
	SEND = cuckoofilter_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = int4,
	STORAGE = external
);
COMMENT ON TYPE cuckoofilter IS 'cuckoo filter: a set that answers "possibly present" or "certainly absent" and supports deletion';

CREATE FUNCTION cuckoofilter(bytea) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter(bytea) IS 'validate a binary cuckoofilter held in bytea';

CREATE CAST (bytea AS cuckoofilter) WITH FUNCTION cuckoofilter(bytea);
CREATE CAST (cuckoofilter AS bytea) WITHOUT FUNCTION;
COMMENT ON CAST (bytea AS cuckoofilter) IS 'validate a binary cuckoofilter held in bytea';
COMMENT ON CAST (cuckoofilter AS bytea) IS 'the binary form of a cuckoofilter';

CREATE FUNCTION cf_create(capacity bigint, error_rate float8 DEFAULT 0.01) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_create' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_create(bigint, float8) IS 'empty cuckoo filter for capacity distinct elements at the given false-positive rate';

CREATE FUNCTION cf_create(capacity bigint, error_rate float8, seed bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_create' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_create(bigint, float8, bigint) IS 'empty cuckoo filter with an explicit hash seed (0 to 4294967295)';

-- changing: not strict, a NULL element returns the filter unchanged

CREATE FUNCTION cf_add(cuckoofilter, anyelement) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_add(cuckoofilter, anyelement) IS 'copy of the filter with one more copy of the element; NULL adds nothing';

CREATE FUNCTION cf_add(cuckoofilter, text) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_add(cuckoofilter, text) IS 'copy of the filter with one more copy of the text; NULL adds nothing';

CREATE FUNCTION cf_add_nx(cuckoofilter, anyelement) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add_nx' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_add_nx(cuckoofilter, anyelement) IS 'the element added unless the filter possibly contains it already';

CREATE FUNCTION cf_add_nx(cuckoofilter, text) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add_nx' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_add_nx(cuckoofilter, text) IS 'the text added unless the filter possibly contains it already';

CREATE FUNCTION cf_add_all(cuckoofilter, anyarray) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_add_all(cuckoofilter, anyarray) IS 'copy of the filter with every non-NULL array element added';

CREATE FUNCTION cf_delete(cuckoofilter, anyelement) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_delete(cuckoofilter, anyelement) IS 'copy of the filter with one copy of the element removed (unchanged if absent); delete only what was added';

CREATE FUNCTION cf_delete(cuckoofilter, text) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_delete(cuckoofilter, text) IS 'copy of the filter with one copy of the text removed (unchanged if absent); delete only what was added';

CREATE FUNCTION cf_delete_all(cuckoofilter, anyarray) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_delete_all(cuckoofilter, anyarray) IS 'copy of the filter with one copy of every non-NULL array element removed; delete only what was added';

-- checking

CREATE FUNCTION cf_contains(cuckoofilter, anyelement) RETURNS boolean
	AS 'MODULE_PATHNAME', 'cuckoofilter_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_contains(cuckoofilter, anyelement) IS 'false if the element is certainly not in the filter, true if it possibly is';

CREATE FUNCTION cf_contains(cuckoofilter, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'cuckoofilter_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_contains(cuckoofilter, text) IS 'false if the text is certainly not in the filter, true if it possibly is';

CREATE FUNCTION cf_contained(anyelement, cuckoofilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'cuckoofilter_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_contained(anyelement, cuckoofilter) IS 'cf_contains with the arguments swapped, for the <@ operator';

CREATE FUNCTION cf_contained(text, cuckoofilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'cuckoofilter_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_contained(text, cuckoofilter) IS 'cf_contains with the arguments swapped, for the <@ operator';

CREATE OPERATOR @> (
	LEFTARG = cuckoofilter, RIGHTARG = anyelement, FUNCTION = cf_contains,
	COMMUTATOR = <@
);
COMMENT ON OPERATOR @> (cuckoofilter, anyelement) IS 'cuckoo filter possibly contains element';

CREATE OPERATOR <@ (
	LEFTARG = anyelement, RIGHTARG = cuckoofilter, FUNCTION = cf_contained,
	COMMUTATOR = @>
);
COMMENT ON OPERATOR <@ (anyelement, cuckoofilter) IS 'element possibly contained in cuckoo filter';

CREATE OPERATOR @> (
	LEFTARG = cuckoofilter, RIGHTARG = text, FUNCTION = cf_contains,
	COMMUTATOR = <@
);
COMMENT ON OPERATOR @> (cuckoofilter, text) IS 'cuckoo filter possibly contains text';

CREATE OPERATOR <@ (
	LEFTARG = text, RIGHTARG = cuckoofilter, FUNCTION = cf_contained,
	COMMUTATOR = @>
);
COMMENT ON OPERATOR <@ (text, cuckoofilter) IS 'text possibly contained in cuckoo filter';

CREATE FUNCTION cf_count(cuckoofilter, anyelement) RETURNS bigint
	AS 'MODULE_PATHNAME', 'cuckoofilter_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_count(cuckoofilter, anyelement) IS 'entries matching the element: at least the copies added and not deleted';

CREATE FUNCTION cf_count(cuckoofilter, text) RETURNS bigint
	AS 'MODULE_PATHNAME', 'cuckoofilter_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_count(cuckoofilter, text) IS 'entries matching the text: at least the copies added and not deleted';

-- merging: not strict, a NULL operand is ignored

CREATE FUNCTION cf_merge(cuckoofilter, cuckoofilter) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_merge' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_merge(cuckoofilter, cuckoofilter) IS 'filter holding the entries of both (same capacity, error rate and seed required); a NULL operand is ignored';

-- introspection

CREATE FUNCTION cf_capacity(cuckoofilter) RETURNS bigint
	AS 'MODULE_PATHNAME', 'cuckoofilter_capacity' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_capacity(cuckoofilter) IS 'elements the cuckoo filter was sized for';

CREATE FUNCTION cf_error_rate(cuckoofilter) RETURNS float8
	AS 'MODULE_PATHNAME', 'cuckoofilter_error_rate' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_error_rate(cuckoofilter) IS 'false-positive rate the cuckoo filter was sized for';

CREATE FUNCTION cf_items(cuckoofilter) RETURNS bigint
	AS 'MODULE_PATHNAME', 'cuckoofilter_items' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_items(cuckoofilter) IS 'entries held: copies added and not deleted';

CREATE FUNCTION cf_fpp(cuckoofilter) RETURNS float8
	AS 'MODULE_PATHNAME', 'cuckoofilter_fpp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_fpp(cuckoofilter) IS 'estimated false-positive rate at the current fill';

CREATE FUNCTION cf_info(cuckoofilter) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'cuckoofilter_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_info(cuckoofilter) IS 'parameters, sub-filters, fill and size of a cuckoo filter';

-- the aggregate: state cuckoofilter (not internal), cf_merge combines

CREATE FUNCTION cf_agg_trans(cuckoofilter, anyelement, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_agg_trans(cuckoofilter, anyelement, bigint, float8) IS 'cf_agg transition function';

CREATE FUNCTION cf_agg_trans(cuckoofilter, anyelement, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_agg_trans(cuckoofilter, anyelement, bigint) IS 'cf_agg transition function';

CREATE AGGREGATE cf_agg(anyelement, bigint, float8) (
	SFUNC = cf_agg_trans,
	STYPE = cuckoofilter,
	COMBINEFUNC = cf_merge,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cf_agg(anyelement, bigint, float8) IS 'cuckoo filter of the non-NULL elements, sized for capacity at error_rate';

CREATE AGGREGATE cf_agg(anyelement, bigint) (
	SFUNC = cf_agg_trans,
	STYPE = cuckoofilter,
	COMBINEFUNC = cf_merge,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cf_agg(anyelement, bigint) IS 'cuckoo filter of the non-NULL elements, sized for capacity at 1%';

-- cf_agg for the same concrete element types, for Citus (as bf_agg above)
DO $$
DECLARE
	t text;
	args text;
BEGIN
	FOREACH t IN ARRAY ARRAY['int2', 'int4', 'int8', 'text', 'varchar', 'bytea', 'uuid', 'numeric',
							 'date', 'timestamp', 'timestamptz', 'bpchar', 'name', '"char"']
	LOOP
		FOREACH args IN ARRAY ARRAY['bigint, float8', 'bigint']
		LOOP
			EXECUTE format('CREATE FUNCTION cf_agg_trans(cuckoofilter, %s, %s) RETURNS cuckoofilter '
						   'AS ''MODULE_PATHNAME'', ''cuckoofilter_agg_trans'' LANGUAGE C IMMUTABLE PARALLEL SAFE',
						   t, args);
			EXECUTE format('COMMENT ON FUNCTION cf_agg_trans(cuckoofilter, %s, %s) IS %L',
						   t, args, 'cf_agg transition function for ' || t);
			EXECUTE format('CREATE AGGREGATE cf_agg(%s, %s) (SFUNC = cf_agg_trans, STYPE = cuckoofilter, '
						   'COMBINEFUNC = cf_merge, PARALLEL = SAFE)', t, args);
			EXECUTE format('COMMENT ON AGGREGATE cf_agg(%s, %s) IS %L', t, args,
						   'cuckoo filter of the non-NULL ' || t || ' elements');
		END LOOP;
	END LOOP;
END $$;

-- sharded filters (issue 10): a table (shard int PRIMARY KEY, bf bloomfilter)
-- holds any number of keys; bf_shard sends a key to its row with hash bits
-- independent of those that place it inside the shard's filter.

CREATE FUNCTION bf_shard(element anyelement, nshards integer) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_shard' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_shard(anyelement, integer) IS 'shard (0 to nshards - 1) of an element, from a hash independent of the one inside each shard''s filter';

CREATE FUNCTION bf_shard(element text, nshards integer) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_shard' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_shard(text, integer) IS 'shard (0 to nshards - 1) of a text, from a hash independent of the one inside each shard''s filter';

CREATE FUNCTION bf_shard_capacity(capacity bigint, nshards integer) RETURNS bigint
	AS 'MODULE_PATHNAME', 'bloomfilter_shard_capacity' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_shard_capacity(bigint, integer) IS 'capacity to build each of nshards shards with: its share of capacity plus six standard deviations';

CREATE FUNCTION bf_shards_for(capacity bigint, error_rate float8 DEFAULT 0.01,
							  shard_bytes bigint DEFAULT 268435456) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_shards_for' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_shards_for(bigint, float8, bigint) IS 'smallest power of two of shards for which each shard (built with bf_shard_capacity) is at most shard_bytes (default 256 MB)';
