/* bloomfilter--1.0.sql */

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

CREATE FUNCTION bf_create(capacity bigint, error_rate float8 DEFAULT 0.01) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_create' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_create(bigint, float8) IS 'empty filter for capacity distinct elements at the given false-positive rate';

CREATE FUNCTION bf_create(capacity bigint, error_rate float8, seed bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_create' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_create(bigint, float8, bigint) IS 'empty filter with an explicit hash seed (0 to 4294967295)';

-- adding: not strict, because adding NULL returns the filter unchanged

CREATE FUNCTION bf_add(bloomfilter, anyelement) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_add(bloomfilter, anyelement) IS 'copy of the filter with the element added; NULL adds nothing';

CREATE FUNCTION bf_add(bloomfilter, text) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_add(bloomfilter, text) IS 'copy of the filter with the text added; NULL adds nothing';

CREATE FUNCTION bf_add_all(bloomfilter, anyarray) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_add_all(bloomfilter, anyarray) IS 'copy of the filter with every non-NULL array element added';

-- checking

CREATE FUNCTION bf_contains(bloomfilter, anyelement) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_contains(bloomfilter, anyelement) IS 'false if the element was certainly never added, true if it possibly was';

CREATE FUNCTION bf_contains(bloomfilter, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_contains(bloomfilter, text) IS 'false if the text was certainly never added, true if it possibly was';

CREATE FUNCTION bf_contained(anyelement, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_contained(anyelement, bloomfilter) IS 'bf_contains with the arguments swapped, for the <@ operator';

CREATE FUNCTION bf_contained(text, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_contained(text, bloomfilter) IS 'bf_contains with the arguments swapped, for the <@ operator';

CREATE OPERATOR @> (
	LEFTARG = bloomfilter, RIGHTARG = anyelement, FUNCTION = bf_contains,
	COMMUTATOR = <@
);
COMMENT ON OPERATOR @> (bloomfilter, anyelement) IS 'filter possibly contains element';

CREATE OPERATOR <@ (
	LEFTARG = anyelement, RIGHTARG = bloomfilter, FUNCTION = bf_contained,
	COMMUTATOR = @>
);
COMMENT ON OPERATOR <@ (anyelement, bloomfilter) IS 'element possibly contained in filter';

CREATE OPERATOR @> (
	LEFTARG = bloomfilter, RIGHTARG = text, FUNCTION = bf_contains,
	COMMUTATOR = <@
);
COMMENT ON OPERATOR @> (bloomfilter, text) IS 'filter possibly contains text';

CREATE OPERATOR <@ (
	LEFTARG = text, RIGHTARG = bloomfilter, FUNCTION = bf_contained,
	COMMUTATOR = @>
);
COMMENT ON OPERATOR <@ (text, bloomfilter) IS 'text possibly contained in filter';

-- combining

CREATE FUNCTION bf_union(bloomfilter, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_union' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_union(bloomfilter, bloomfilter) IS 'filter of every element of either filter (same shape required)';

CREATE FUNCTION bf_intersect(bloomfilter, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_intersect' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_intersect(bloomfilter, bloomfilter) IS 'approximate intersection: bitwise AND, may hold false positives of either side (same shape required)';

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

CREATE FUNCTION bf_agg_trans(bloomfilter, anyelement, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, anyelement, bigint, float8) IS 'bf_agg transition function';

CREATE FUNCTION bf_agg_trans(bloomfilter, anyelement, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, anyelement, bigint) IS 'bf_agg transition function';

CREATE AGGREGATE bf_agg(element anyelement, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(anyelement, bigint, float8) IS 'filter of the non-NULL elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element anyelement, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(anyelement, bigint) IS 'filter of the non-NULL elements, sized for capacity at a 1% error rate';

CREATE AGGREGATE bf_union_agg(bloomfilter) (
	SFUNC = bf_union,
	STYPE = bloomfilter,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_union_agg(bloomfilter) IS 'union of the non-NULL filters (same shape required)';
