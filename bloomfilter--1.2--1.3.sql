/* bloomfilter--1.2--1.3.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.3'" to load this file. \quit

-- 1.3: the promise kept on every path (typed keys, cuckoo and scalable
-- filters that hold their rate, a safe install), the bloomfilter index
-- access method.  Every function and operator this script calls is
-- schema-qualified: it runs with search_path set to the target schema, as
-- the bootstrap superuser when a non-superuser installs (trusted).

-- ---- typed keys ----

-- ---- cuckoo filters ----

-- ---- scalable filters ----

-- ---- robustness ----

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
CREATE OPERATOR CLASS enum_ops DEFAULT FOR TYPE pg_catalog.anyenum USING bloomfilter AS STORAGE pg_catalog.anyenum;
COMMENT ON OPERATOR CLASS enum_ops USING bloomfilter IS 'bloomfilter index keys of every enum type';
COMMENT ON OPERATOR FAMILY enum_ops USING bloomfilter IS 'bloomfilter index keys of every enum type';
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
