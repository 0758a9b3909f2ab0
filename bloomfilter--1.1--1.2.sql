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
