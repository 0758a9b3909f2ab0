/* bloomfilter--1.4.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION bloomfilter" to load this file. \quit

-- the type

CREATE TYPE bloomfilter;

CREATE FUNCTION bloomfilter_in(cstring) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION bloomfilter_out(bloomfilter) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION bloomfilter_recv(internal) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION bloomfilter_send(bloomfilter) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- EXTERNAL storage: filters are incompressible once filled, and uncompressed
-- out-of-line values can be read by slices (one block per point check)
CREATE TYPE bloomfilter (
	INPUT = bloomfilter_in,
	OUTPUT = bloomfilter_out,
	RECEIVE = bloomfilter_recv,
	SEND = bloomfilter_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = int4,
	STORAGE = external
);

COMMENT ON TYPE bloomfilter IS 'Bloom filter: a set that answers "possibly present" or "certainly absent"';
COMMENT ON FUNCTION bloomfilter_in(cstring) IS 'bloomfilter text input (base64 of the binary form)';
COMMENT ON FUNCTION bloomfilter_out(bloomfilter) IS 'bloomfilter text output (base64 of the binary form)';
COMMENT ON FUNCTION bloomfilter_recv(internal) IS 'bloomfilter binary input';
COMMENT ON FUNCTION bloomfilter_send(bloomfilter) IS 'bloomfilter binary output';

-- casts to and from bytea: the binary form, header and bits

CREATE FUNCTION bloomfilter(bytea) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter(bytea) IS 'validate a binary bloomfilter held in bytea';

CREATE CAST (bytea AS bloomfilter) WITH FUNCTION bloomfilter(bytea);
CREATE CAST (bloomfilter AS bytea) WITHOUT FUNCTION;
COMMENT ON CAST (bytea AS bloomfilter) IS 'validate a binary bloomfilter held in bytea';
COMMENT ON CAST (bloomfilter AS bytea) IS 'the binary form of a bloomfilter';

-- creating

CREATE FUNCTION bf_create(capacity bigint, error_rate float8 DEFAULT 0.01, seed bigint DEFAULT 0,
						  counting boolean DEFAULT false, expansion integer DEFAULT 0,
						  key_type regtype DEFAULT NULL) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_create' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_create(bigint, float8, bigint, boolean, integer, regtype) IS 'empty filter for capacity distinct elements at the given false-positive rate; counting => true makes one that can forget, expansion => n one that grows past its capacity, key_type => t one whose keys are of type t (else the first element''s type)';

-- adding: not strict, because adding NULL returns the filter unchanged

CREATE FUNCTION bf_add(bloomfilter, anycompatible) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_add(bloomfilter, anycompatible) IS 'copy of the filter with the element added; NULL adds nothing';

CREATE FUNCTION bf_add_all(bloomfilter, anyarray) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_add_all(bloomfilter, anyarray) IS 'copy of the filter with every non-NULL array element added';

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

-- checking, adding and removing take the element as anycompatible, one
-- form for every type: an untyped literal or parameter resolves to text,
-- and every other value keeps its own type.  1.3's text overloads turned a
-- citext or char(n) value into text on the way in, and the C code could no
-- longer tell it had been one (a constant's cast is folded away).
-- checking

CREATE FUNCTION bf_contains(bloomfilter, anycompatible) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT bloomfilter_support;
COMMENT ON FUNCTION bf_contains(bloomfilter, anycompatible) IS 'false if the element was certainly never added, true if it possibly was';

CREATE FUNCTION bf_contained(anycompatible, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT bloomfilter_support;
COMMENT ON FUNCTION bf_contained(anycompatible, bloomfilter) IS 'bf_contains with the arguments swapped, for the <@ operator';

CREATE OPERATOR @> (
	LEFTARG = bloomfilter, RIGHTARG = anycompatible, FUNCTION = bf_contains,
	COMMUTATOR = <@,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel
);
COMMENT ON OPERATOR @> (bloomfilter, anycompatible) IS 'filter possibly contains element';

CREATE OPERATOR <@ (
	LEFTARG = anycompatible, RIGHTARG = bloomfilter, FUNCTION = bf_contained,
	COMMUTATOR = @>,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel
);
COMMENT ON OPERATOR <@ (anycompatible, bloomfilter) IS 'element possibly contained in filter';

-- combining: a NULL operand is ignored

CREATE FUNCTION bf_union(bloomfilter, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_union' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_union(bloomfilter, bloomfilter) IS 'filter of every element of either filter (same shape required); a NULL operand is ignored';

CREATE FUNCTION bf_intersect(bloomfilter, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_intersect' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_intersect(bloomfilter, bloomfilter) IS 'approximate intersection: bitwise AND, may hold false positives of either side (same shape required); a NULL operand is ignored';

CREATE OPERATOR | (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bf_union,
	COMMUTATOR = |
);
COMMENT ON OPERATOR | (bloomfilter, bloomfilter) IS 'union of two filters';

CREATE OPERATOR & (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bf_intersect,
	COMMUTATOR = &
);
COMMENT ON OPERATOR & (bloomfilter, bloomfilter) IS 'approximate intersection of two filters';

-- introspection

CREATE FUNCTION bf_capacity(bloomfilter) RETURNS bigint
	AS 'MODULE_PATHNAME', 'bloomfilter_capacity' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_capacity(bloomfilter) IS 'number of elements the filter was sized for';

CREATE FUNCTION bf_error_rate(bloomfilter) RETURNS float8
	AS 'MODULE_PATHNAME', 'bloomfilter_error_rate' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_error_rate(bloomfilter) IS 'false-positive rate the filter was sized for, at capacity';

CREATE FUNCTION bf_nbits(bloomfilter) RETURNS bigint
	AS 'MODULE_PATHNAME', 'bloomfilter_nbits' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_nbits(bloomfilter) IS 'number of bits in the filter';

CREATE FUNCTION bf_nhashes(bloomfilter) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_nhashes' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_nhashes(bloomfilter) IS 'number of bits set per element (k)';

CREATE FUNCTION bf_bits_set(bloomfilter) RETURNS bigint
	AS 'MODULE_PATHNAME', 'bloomfilter_bits_set' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_bits_set(bloomfilter) IS 'number of bits currently set';

CREATE FUNCTION bf_cardinality(bloomfilter) RETURNS bigint
	AS 'MODULE_PATHNAME', 'bloomfilter_cardinality' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_cardinality(bloomfilter) IS 'estimated number of distinct elements added, from the fill of each block';

CREATE FUNCTION bf_fpp(bloomfilter) RETURNS float8
	AS 'MODULE_PATHNAME', 'bloomfilter_fpp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_fpp(bloomfilter) IS 'estimated false-positive rate at the current fill';

CREATE FUNCTION bf_info(bloomfilter) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'bloomfilter_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_info(bloomfilter) IS 'every parameter and estimate of the filter, and its size in bytes';

-- aggregates: the state is a bloomfilter (not internal), bf_union combines

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, anyelement, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, anyelement, bigint, float8) IS 'bf_agg transition function';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, anyelement, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, anyelement, bigint) IS 'bf_agg transition function';

CREATE FUNCTION bloomfilter_agg_final(bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_final(bloomfilter) IS 'bf_agg and bf_union_agg final function: the state, flat';

CREATE AGGREGATE bf_agg(element anyelement, capacity bigint, error_rate float8) (
	SFUNC = bloomfilter_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(anyelement, bigint, float8) IS 'filter of the non-NULL elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element anyelement, capacity bigint) (
	SFUNC = bloomfilter_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(anyelement, bigint) IS 'filter of the non-NULL elements, sized for capacity at a 1% error rate';

CREATE AGGREGATE bf_union_agg(bloomfilter) (
	SFUNC = bf_union,
	STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_union_agg(bloomfilter) IS 'union of the non-NULL filters (same shape required)';

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

-- counting filters

CREATE FUNCTION bf_remove(bloomfilter, anycompatible) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_remove(bloomfilter, anycompatible) IS 'copy of a counting filter with the element taken out if it tests present; NULL removes nothing';

CREATE FUNCTION bf_count(bloomfilter, anycompatible) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_count(bloomfilter, anycompatible) IS 'how often the element was added, at most (the smallest of its counters; 0 or 1 for a plain filter)';

-- aggregates that build any layout: from a template, or scalable at 1%

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, anyelement, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, anyelement, bloomfilter) IS 'bf_agg transition function (template form)';

CREATE AGGREGATE bf_agg(element anyelement, template bloomfilter) (
	SFUNC = bloomfilter_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(anyelement, bloomfilter) IS 'the template filter (any layout: plain, counting, scalable) with the non-NULL elements added';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, anyelement) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, anyelement) IS 'bf_agg transition function (scalable form)';

CREATE AGGREGATE bf_agg(element anyelement) (
	SFUNC = bloomfilter_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(anyelement) IS 'scalable filter of the non-NULL elements at a 1% error rate, with no sizing needed: its first sub-filter is sized for the distinct elements (at least 1000), and it doubles if it grows later';

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

-- Per-type overloads of bf_agg (int8, text, ...), which Citus needs to
-- split an aggregate between workers and coordinator, are in the
-- companion extension bloomfilter_citus (bloomfilter_citus--1.4.sql):
-- CREATE EXTENSION bloomfilter_citus, in this schema, where Citus runs.

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

CREATE FUNCTION cf_create(capacity bigint, error_rate float8 DEFAULT 0.01, seed bigint DEFAULT 0,
						  key_type regtype DEFAULT NULL) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_create' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_create(bigint, float8, bigint, regtype) IS 'empty cuckoo filter for capacity items at the given false-positive rate; key_type => t makes one whose keys are of type t (else the first element''s type)';

-- changing: not strict, a NULL element returns the filter unchanged

CREATE FUNCTION cf_add(cuckoofilter, anycompatible) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_add(cuckoofilter, anycompatible) IS 'copy of the filter with one more copy of the element; NULL adds nothing';

CREATE FUNCTION cf_add_nx(cuckoofilter, anycompatible) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add_nx' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_add_nx(cuckoofilter, anycompatible) IS 'the element added unless the filter possibly contains it already';

CREATE FUNCTION cf_add_all(cuckoofilter, anyarray) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_add_all(cuckoofilter, anyarray) IS 'copy of the filter with every non-NULL array element added';

CREATE FUNCTION cf_remove(cuckoofilter, anycompatible) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_remove(cuckoofilter, anycompatible) IS 'copy of the filter with one copy of the element removed (unchanged if absent, or if it matches in sub-filters of two shapes of a grown filter); remove only what was added';

CREATE FUNCTION cf_remove_all(cuckoofilter, anyarray) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_remove_all(cuckoofilter, anyarray) IS 'copy of the filter with one copy of every non-NULL array element removed, as cf_remove; remove only what was added';

-- checking

-- planner support, as for bloomfilter's checks: the same C functions,
-- which tell the types apart by the arguments' types

CREATE FUNCTION cuckoofilter_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloomfilter_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_support(internal) IS 'planner support for cf_contains and cf_contained: selectivity and cost of a check';

CREATE FUNCTION cuckoofilter_contsel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME', 'bloomfilter_contsel' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_contsel(internal, oid, internal, integer) IS 'restriction selectivity of @> and <@ on cuckoo filters: the filter checked against the column''s most common values and histogram';

CREATE FUNCTION cuckoofilter_contjoinsel(internal, oid, internal, smallint, internal) RETURNS double precision
	AS 'MODULE_PATHNAME', 'bloomfilter_contjoinsel' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_contjoinsel(internal, oid, internal, smallint, internal) IS 'join selectivity of @> and <@ on cuckoo filters (the filter is unknown at plan time: 0.1)';

CREATE FUNCTION cf_contains(cuckoofilter, anycompatible) RETURNS boolean
	AS 'MODULE_PATHNAME', 'cuckoofilter_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT cuckoofilter_support;
COMMENT ON FUNCTION cf_contains(cuckoofilter, anycompatible) IS 'false if the element is certainly not in the filter, true if it possibly is';

CREATE FUNCTION cf_contained(anycompatible, cuckoofilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'cuckoofilter_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT cuckoofilter_support;
COMMENT ON FUNCTION cf_contained(anycompatible, cuckoofilter) IS 'cf_contains with the arguments swapped, for the <@ operator';

CREATE OPERATOR @> (
	LEFTARG = cuckoofilter, RIGHTARG = anycompatible, FUNCTION = cf_contains,
	COMMUTATOR = <@,
	RESTRICT = cuckoofilter_contsel, JOIN = cuckoofilter_contjoinsel
);
COMMENT ON OPERATOR @> (cuckoofilter, anycompatible) IS 'cuckoo filter possibly contains element';

CREATE OPERATOR <@ (
	LEFTARG = anycompatible, RIGHTARG = cuckoofilter, FUNCTION = cf_contained,
	COMMUTATOR = @>,
	RESTRICT = cuckoofilter_contsel, JOIN = cuckoofilter_contjoinsel
);
COMMENT ON OPERATOR <@ (anycompatible, cuckoofilter) IS 'element possibly contained in cuckoo filter';

CREATE FUNCTION cf_count(cuckoofilter, anycompatible) RETURNS integer
	AS 'MODULE_PATHNAME', 'cuckoofilter_count_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_count(cuckoofilter, anycompatible) IS 'entries matching the element: at least the copies added and not deleted';

-- union: not strict, a NULL operand is ignored

CREATE FUNCTION cf_union(cuckoofilter, cuckoofilter) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_merge' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_union(cuckoofilter, cuckoofilter) IS 'filter holding the entries of both (same capacity, error rate and seed required); a NULL operand is ignored';

-- no COMMUTATOR: a | b and b | a answer alike but need not have the same
-- bytes (b's entries are re-inserted into a)
CREATE OPERATOR | (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = cf_union
);
COMMENT ON OPERATOR | (cuckoofilter, cuckoofilter) IS 'union of two cuckoo filters (cf_union)';

-- introspection

CREATE FUNCTION cf_capacity(cuckoofilter) RETURNS bigint
	AS 'MODULE_PATHNAME', 'cuckoofilter_capacity' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_capacity(cuckoofilter) IS 'elements the cuckoo filter was sized for';

CREATE FUNCTION cf_error_rate(cuckoofilter) RETURNS float8
	AS 'MODULE_PATHNAME', 'cuckoofilter_error_rate' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_error_rate(cuckoofilter) IS 'false-positive rate the cuckoo filter was sized for';

-- cardinality of the multiset: a cuckoo filter counts copies
CREATE FUNCTION cf_cardinality(cuckoofilter) RETURNS bigint
	AS 'MODULE_PATHNAME', 'cuckoofilter_items' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_cardinality(cuckoofilter) IS 'entries held: copies added and not removed, and those removals kept in a grown filter';

CREATE FUNCTION cf_fpp(cuckoofilter) RETURNS float8
	AS 'MODULE_PATHNAME', 'cuckoofilter_fpp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_fpp(cuckoofilter) IS 'expected number of entries a non-member matches, over all sub-filters: an upper bound of the false-positive rate';

CREATE FUNCTION cf_info(cuckoofilter) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'cuckoofilter_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_info(cuckoofilter) IS 'parameters, sub-filters, fill and size of a cuckoo filter';

-- the aggregate: state cuckoofilter (not internal), cf_union combines, the
-- final function hands the result over flat (a grown state is an expanded
-- object)

CREATE FUNCTION cuckoofilter_agg_final(cuckoofilter) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_final(cuckoofilter) IS 'cf_agg final function: the state, flat';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, anyelement, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, anyelement, bigint, float8) IS 'cf_agg transition function';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, anyelement, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, anyelement, bigint) IS 'cf_agg transition function';

CREATE AGGREGATE cf_agg(anyelement, bigint, float8) (
	SFUNC = cuckoofilter_agg_trans,
	STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final,
	COMBINEFUNC = cf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cf_agg(anyelement, bigint, float8) IS 'cuckoo filter of the non-NULL elements, sized for capacity at error_rate';

CREATE AGGREGATE cf_agg(anyelement, bigint) (
	SFUNC = cuckoofilter_agg_trans,
	STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final,
	COMBINEFUNC = cf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cf_agg(anyelement, bigint) IS 'cuckoo filter of the non-NULL elements, sized for capacity at 1%';

-- Per-type overloads of cf_agg, for Citus, are in the companion extension
-- bloomfilter_citus (bloomfilter_citus--1.4.sql), as bf_agg's are.

-- sharded filters (issue 10): a table (shard int PRIMARY KEY, bf bloomfilter)
-- holds any number of keys; bf_shard sends a key to its row with hash bits
-- independent of those that place it inside the shard's filter.

CREATE FUNCTION bf_shard(element anycompatible, nshards integer) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_shard' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_shard(anycompatible, integer) IS 'shard (0 to nshards - 1) of an element, from a hash independent of the one inside each shard''s filter';

CREATE FUNCTION bf_shard_capacity(capacity bigint, nshards integer) RETURNS bigint
	AS 'MODULE_PATHNAME', 'bloomfilter_shard_capacity' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_shard_capacity(bigint, integer) IS 'capacity to build each of nshards shards with: its share of capacity plus six standard deviations';

CREATE FUNCTION bf_shards_for(capacity bigint, error_rate float8 DEFAULT 0.01,
							  shard_bytes bigint DEFAULT 268435456) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_shards_for' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_shards_for(bigint, float8, bigint) IS 'smallest power of two of shards for which each shard (built with bf_shard_capacity) is at most shard_bytes (default 256 MB)';

-- typed keys (README: Typed keys): the key type of a filter, and forms
-- that name it

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

-- bf_shard(x, n) refuses a string constant or parameter, whose type may
-- come from another use of the parameter (bf_contains(bf, $1) makes it
-- text); bf_shard($1, n, key_type) converts the key as a probe of a filter
-- of that key type does.

CREATE FUNCTION bf_shard(element anycompatible, nshards integer, key_type regtype) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_shard' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_shard(anycompatible, integer, regtype) IS 'shard (0 to nshards - 1) of an element converted to key_type first, as a filter of that key type converts it';

-- the bloomfilter index access method

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
CREATE FUNCTION bf_index_contains(index regclass, key anycompatible) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_index_contains' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_index_contains(regclass, anycompatible) IS 'false if no row of the bloomfilter index''s table has this key; true if one may (a row for a multi-column index)';

-- "char" casts to text implicitly without being a string type: without a
-- form of its own, a "char" key would match both of the above

CREATE FUNCTION bf_index_contains_all(index regclass, keys anyarray) RETURNS boolean[]
	AS 'MODULE_PATHNAME', 'bloomfilter_index_contains_all' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_index_contains_all(regclass, anyarray) IS 'bf_index_contains for every element of the array: answers in the same order and shape, NULL for NULL elements';

CREATE FUNCTION bf_index_filter(index regclass) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_index_filter' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_index_filter(regclass) IS 'snapshot of a bloomfilter index as a bloomfilter value, identical to bf_add_all of the same keys into bf_create(capacity, error_rate)';

CREATE FUNCTION bf_index_info(index regclass) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'bloomfilter_index_info' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_index_info(regclass) IS 'shape, options, fill and estimates of a bloomfilter index, and whether a REINDEX would pay';

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

-- Deprecated names, until 2.0: one name per verb for both filter types
-- (bf_remove and cf_remove, bf_union and cf_union, bf_cardinality and
-- cf_cardinality).  The same C functions, so either name gives the same
-- bytes; each comment names the one to use.
CREATE FUNCTION cf_delete(cuckoofilter, anycompatible) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_delete(cuckoofilter, anycompatible) IS 'deprecated (removed in 2.0): use cf_remove, the same function';

CREATE FUNCTION cf_delete_all(cuckoofilter, anyarray) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_delete_all(cuckoofilter, anyarray) IS 'deprecated (removed in 2.0): use cf_remove_all, the same function';

CREATE FUNCTION cf_merge(cuckoofilter, cuckoofilter) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_merge' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cf_merge(cuckoofilter, cuckoofilter) IS 'deprecated (removed in 2.0): use cf_union, the same function';

CREATE FUNCTION cf_items(cuckoofilter) RETURNS bigint
	AS 'MODULE_PATHNAME', 'cuckoofilter_items' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_items(cuckoofilter) IS 'deprecated (removed in 2.0): use cf_cardinality, the same function';
