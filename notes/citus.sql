/* bloomfilter--1.1--1.2.sql (the Citus part; see notes/citus.md) */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.2'" to load this file. \quit

-- 1.2: bf_agg for concrete element types, beside the polymorphic one.
--
-- Citus computes an aggregate partially on the workers and combines the
-- states on the coordinator (worker_partial_agg / coord_combine_agg) only if
-- the aggregate's declared argument types equal the types of the call's
-- arguments, which an anyelement aggregate never does; and it calls the
-- transition function without a call expression, so the element type must
-- come from the transition function's declared arguments.  These overloads
-- give both.  They share the one C transition function and hash exactly as
-- the polymorphic aggregate does, so stored filters and answers are
-- unchanged; a call like bf_agg(int8col, 1000, 0.01) resolves to the int8
-- overload (one exact match on the element), and a type without an overload
-- still reaches the polymorphic one.  The transition functions are not
-- strict: the first call sizes the state, NULL elements are skipped.

-- int2

CREATE FUNCTION bf_agg_trans(bloomfilter, int2, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, int2, bigint, float8) IS 'bf_agg transition function for int2';

CREATE FUNCTION bf_agg_trans(bloomfilter, int2, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, int2, bigint) IS 'bf_agg transition function for int2';

CREATE AGGREGATE bf_agg(element int2, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(int2, bigint, float8) IS 'filter of the non-NULL int2 elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element int2, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(int2, bigint) IS 'filter of the non-NULL int2 elements, sized for capacity at a 1% error rate';

-- int4

CREATE FUNCTION bf_agg_trans(bloomfilter, int4, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, int4, bigint, float8) IS 'bf_agg transition function for int4';

CREATE FUNCTION bf_agg_trans(bloomfilter, int4, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, int4, bigint) IS 'bf_agg transition function for int4';

CREATE AGGREGATE bf_agg(element int4, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(int4, bigint, float8) IS 'filter of the non-NULL int4 elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element int4, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(int4, bigint) IS 'filter of the non-NULL int4 elements, sized for capacity at a 1% error rate';

-- int8

CREATE FUNCTION bf_agg_trans(bloomfilter, int8, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, int8, bigint, float8) IS 'bf_agg transition function for int8';

CREATE FUNCTION bf_agg_trans(bloomfilter, int8, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, int8, bigint) IS 'bf_agg transition function for int8';

CREATE AGGREGATE bf_agg(element int8, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(int8, bigint, float8) IS 'filter of the non-NULL int8 elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element int8, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(int8, bigint) IS 'filter of the non-NULL int8 elements, sized for capacity at a 1% error rate';

-- text

CREATE FUNCTION bf_agg_trans(bloomfilter, text, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, text, bigint, float8) IS 'bf_agg transition function for text';

CREATE FUNCTION bf_agg_trans(bloomfilter, text, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, text, bigint) IS 'bf_agg transition function for text';

CREATE AGGREGATE bf_agg(element text, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(text, bigint, float8) IS 'filter of the non-NULL text elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element text, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(text, bigint) IS 'filter of the non-NULL text elements, sized for capacity at a 1% error rate';

-- varchar

CREATE FUNCTION bf_agg_trans(bloomfilter, varchar, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, varchar, bigint, float8) IS 'bf_agg transition function for varchar';

CREATE FUNCTION bf_agg_trans(bloomfilter, varchar, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, varchar, bigint) IS 'bf_agg transition function for varchar';

CREATE AGGREGATE bf_agg(element varchar, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(varchar, bigint, float8) IS 'filter of the non-NULL varchar elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element varchar, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(varchar, bigint) IS 'filter of the non-NULL varchar elements, sized for capacity at a 1% error rate';

-- bytea

CREATE FUNCTION bf_agg_trans(bloomfilter, bytea, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, bytea, bigint, float8) IS 'bf_agg transition function for bytea';

CREATE FUNCTION bf_agg_trans(bloomfilter, bytea, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, bytea, bigint) IS 'bf_agg transition function for bytea';

CREATE AGGREGATE bf_agg(element bytea, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(bytea, bigint, float8) IS 'filter of the non-NULL bytea elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element bytea, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(bytea, bigint) IS 'filter of the non-NULL bytea elements, sized for capacity at a 1% error rate';

-- uuid

CREATE FUNCTION bf_agg_trans(bloomfilter, uuid, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, uuid, bigint, float8) IS 'bf_agg transition function for uuid';

CREATE FUNCTION bf_agg_trans(bloomfilter, uuid, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, uuid, bigint) IS 'bf_agg transition function for uuid';

CREATE AGGREGATE bf_agg(element uuid, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(uuid, bigint, float8) IS 'filter of the non-NULL uuid elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element uuid, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(uuid, bigint) IS 'filter of the non-NULL uuid elements, sized for capacity at a 1% error rate';

-- numeric

CREATE FUNCTION bf_agg_trans(bloomfilter, numeric, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, numeric, bigint, float8) IS 'bf_agg transition function for numeric';

CREATE FUNCTION bf_agg_trans(bloomfilter, numeric, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, numeric, bigint) IS 'bf_agg transition function for numeric';

CREATE AGGREGATE bf_agg(element numeric, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(numeric, bigint, float8) IS 'filter of the non-NULL numeric elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element numeric, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(numeric, bigint) IS 'filter of the non-NULL numeric elements, sized for capacity at a 1% error rate';

-- date

CREATE FUNCTION bf_agg_trans(bloomfilter, date, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, date, bigint, float8) IS 'bf_agg transition function for date';

CREATE FUNCTION bf_agg_trans(bloomfilter, date, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, date, bigint) IS 'bf_agg transition function for date';

CREATE AGGREGATE bf_agg(element date, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(date, bigint, float8) IS 'filter of the non-NULL date elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element date, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(date, bigint) IS 'filter of the non-NULL date elements, sized for capacity at a 1% error rate';

-- timestamp

CREATE FUNCTION bf_agg_trans(bloomfilter, timestamp, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, timestamp, bigint, float8) IS 'bf_agg transition function for timestamp';

CREATE FUNCTION bf_agg_trans(bloomfilter, timestamp, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, timestamp, bigint) IS 'bf_agg transition function for timestamp';

CREATE AGGREGATE bf_agg(element timestamp, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(timestamp, bigint, float8) IS 'filter of the non-NULL timestamp elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element timestamp, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(timestamp, bigint) IS 'filter of the non-NULL timestamp elements, sized for capacity at a 1% error rate';

-- timestamptz

CREATE FUNCTION bf_agg_trans(bloomfilter, timestamptz, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, timestamptz, bigint, float8) IS 'bf_agg transition function for timestamptz';

CREATE FUNCTION bf_agg_trans(bloomfilter, timestamptz, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, timestamptz, bigint) IS 'bf_agg transition function for timestamptz';

CREATE AGGREGATE bf_agg(element timestamptz, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(timestamptz, bigint, float8) IS 'filter of the non-NULL timestamptz elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element timestamptz, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(timestamptz, bigint) IS 'filter of the non-NULL timestamptz elements, sized for capacity at a 1% error rate';

-- Three more, so that no type changes how it hashes or stops resolving:
-- without them bpchar and name would reach the text overload through
-- their implicit casts (which happen to give the same bytes), and "char",
-- with implicit casts to text, varchar and bpchar, would be ambiguous.

-- bpchar

CREATE FUNCTION bf_agg_trans(bloomfilter, bpchar, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, bpchar, bigint, float8) IS 'bf_agg transition function for bpchar';

CREATE FUNCTION bf_agg_trans(bloomfilter, bpchar, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, bpchar, bigint) IS 'bf_agg transition function for bpchar';

CREATE AGGREGATE bf_agg(element bpchar, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(bpchar, bigint, float8) IS 'filter of the non-NULL bpchar elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element bpchar, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(bpchar, bigint) IS 'filter of the non-NULL bpchar elements, sized for capacity at a 1% error rate';

-- name

CREATE FUNCTION bf_agg_trans(bloomfilter, name, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, name, bigint, float8) IS 'bf_agg transition function for name';

CREATE FUNCTION bf_agg_trans(bloomfilter, name, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, name, bigint) IS 'bf_agg transition function for name';

CREATE AGGREGATE bf_agg(element name, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(name, bigint, float8) IS 'filter of the non-NULL name elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element name, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(name, bigint) IS 'filter of the non-NULL name elements, sized for capacity at a 1% error rate';

-- "char"

CREATE FUNCTION bf_agg_trans(bloomfilter, "char", bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, "char", bigint, float8) IS 'bf_agg transition function for "char"';

CREATE FUNCTION bf_agg_trans(bloomfilter, "char", bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_trans(bloomfilter, "char", bigint) IS 'bf_agg transition function for "char"';

CREATE AGGREGATE bf_agg(element "char", capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg("char", bigint, float8) IS 'filter of the non-NULL "char" elements, sized for capacity at error_rate';

CREATE AGGREGATE bf_agg(element "char", capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg("char", bigint) IS 'filter of the non-NULL "char" elements, sized for capacity at a 1% error rate';
