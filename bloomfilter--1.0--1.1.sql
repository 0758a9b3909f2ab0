/* bloomfilter--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.1'" to load this file. \quit

-- 1.1: the aggregates hand over their result through a final function, so
-- that the executor has no copy of its own to make (see bloomfilter_agg.c).
-- Answers and stored values are unchanged.

CREATE FUNCTION bf_agg_final(bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_agg_final(bloomfilter) IS 'bf_agg and bf_union_agg final function: the state, flat';

CREATE OR REPLACE AGGREGATE bf_agg(element anyelement, capacity bigint, error_rate float8) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);

CREATE OR REPLACE AGGREGATE bf_agg(element anyelement, capacity bigint) (
	SFUNC = bf_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);

CREATE OR REPLACE AGGREGATE bf_union_agg(bloomfilter) (
	SFUNC = bf_union,
	STYPE = bloomfilter,
	FINALFUNC = bf_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
