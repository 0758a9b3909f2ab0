/* bloomfilter_citus--1.4.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION bloomfilter_citus" to load this file. \quit

-- bf_agg and cf_agg for concrete element types, beside bloomfilter's
-- polymorphic forms, for Citus.
--
-- Citus computes an aggregate partially on the workers and combines the
-- states on the coordinator only if the aggregate's declared argument types
-- equal those of the call, which an anyelement aggregate never does; and it
-- calls the transition function without a call expression, so the element
-- type must come from the transition function's declared arguments.  These
-- overloads give both, for every form of bf_agg and cf_agg.  They share
-- bloomfilter's C transition functions (module_pathname is bloomfilter's
-- library) and hash exactly as the polymorphic aggregates do; a type
-- without an overload still reaches the polymorphic one.  bpchar, name and
-- "char" are here so that they resolve to their own overload rather than by
-- a cast to another's.
--
-- Nothing here is needed off Citus, which is why it is a separate
-- extension (bloomfilter 1.3 and earlier held these 168 objects).

-- The overloads must sit in bloomfilter's schema: overload resolution sees
-- them beside the polymorphic forms only if both schemas are on the
-- caller's search_path, and Citus names the aggregate by its schema.
-- Everything below refers to bloomfilter's objects through the script's
-- search_path (this schema, then those of the required extension), as
-- bloomfilter's own script does.
DO $bf$
DECLARE
	target pg_catalog.name := pg_catalog.current_schema();
	home pg_catalog.name := (SELECT n.nspname FROM pg_catalog.pg_extension e
							 JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
							 WHERE e.extname OPERATOR(pg_catalog.=) 'bloomfilter');
BEGIN
	IF NOT coalesce(target OPERATOR(pg_catalog.=) home, false) THEN
		RAISE EXCEPTION 'extension "bloomfilter_citus" must be installed in schema "%"', home
			USING ERRCODE = 'invalid_schema_name',
				  DETAIL = pg_catalog.format('Extension "bloomfilter" is in schema "%s", and the target schema is "%s".', home, target),
				  HINT = pg_catalog.format('Use CREATE EXTENSION bloomfilter_citus SCHEMA %s.', pg_catalog.quote_ident(home));
	END IF;
END
$bf$;

-- bf_agg
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, int2, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, int2, bigint, float8) IS 'bf_agg transition function for int2';
CREATE AGGREGATE bf_agg(int2, bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(int2, bigint, float8) IS 'filter of the non-NULL int2 elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, int2, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, int2, bigint) IS 'bf_agg transition function for int2';
CREATE AGGREGATE bf_agg(int2, bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(int2, bigint) IS 'filter of the non-NULL int2 elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, int2, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, int2, bloomfilter) IS 'bf_agg transition function for int2';
CREATE AGGREGATE bf_agg(int2, bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(int2, bloomfilter) IS 'filter of the non-NULL int2 elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, int2) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, int2) IS 'bf_agg transition function for int2';
CREATE AGGREGATE bf_agg(int2) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(int2) IS 'filter of the non-NULL int2 elements, in a scalable filter at 1% (no sizing needed)';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, int4, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, int4, bigint, float8) IS 'bf_agg transition function for int4';
CREATE AGGREGATE bf_agg(int4, bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(int4, bigint, float8) IS 'filter of the non-NULL int4 elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, int4, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, int4, bigint) IS 'bf_agg transition function for int4';
CREATE AGGREGATE bf_agg(int4, bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(int4, bigint) IS 'filter of the non-NULL int4 elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, int4, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, int4, bloomfilter) IS 'bf_agg transition function for int4';
CREATE AGGREGATE bf_agg(int4, bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(int4, bloomfilter) IS 'filter of the non-NULL int4 elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, int4) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, int4) IS 'bf_agg transition function for int4';
CREATE AGGREGATE bf_agg(int4) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(int4) IS 'filter of the non-NULL int4 elements, in a scalable filter at 1% (no sizing needed)';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, int8, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, int8, bigint, float8) IS 'bf_agg transition function for int8';
CREATE AGGREGATE bf_agg(int8, bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(int8, bigint, float8) IS 'filter of the non-NULL int8 elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, int8, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, int8, bigint) IS 'bf_agg transition function for int8';
CREATE AGGREGATE bf_agg(int8, bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(int8, bigint) IS 'filter of the non-NULL int8 elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, int8, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, int8, bloomfilter) IS 'bf_agg transition function for int8';
CREATE AGGREGATE bf_agg(int8, bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(int8, bloomfilter) IS 'filter of the non-NULL int8 elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, int8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, int8) IS 'bf_agg transition function for int8';
CREATE AGGREGATE bf_agg(int8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(int8) IS 'filter of the non-NULL int8 elements, in a scalable filter at 1% (no sizing needed)';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, text, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, text, bigint, float8) IS 'bf_agg transition function for text';
CREATE AGGREGATE bf_agg(text, bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(text, bigint, float8) IS 'filter of the non-NULL text elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, text, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, text, bigint) IS 'bf_agg transition function for text';
CREATE AGGREGATE bf_agg(text, bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(text, bigint) IS 'filter of the non-NULL text elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, text, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, text, bloomfilter) IS 'bf_agg transition function for text';
CREATE AGGREGATE bf_agg(text, bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(text, bloomfilter) IS 'filter of the non-NULL text elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, text) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, text) IS 'bf_agg transition function for text';
CREATE AGGREGATE bf_agg(text) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(text) IS 'filter of the non-NULL text elements, in a scalable filter at 1% (no sizing needed)';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, varchar, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, varchar, bigint, float8) IS 'bf_agg transition function for varchar';
CREATE AGGREGATE bf_agg(varchar, bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(varchar, bigint, float8) IS 'filter of the non-NULL varchar elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, varchar, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, varchar, bigint) IS 'bf_agg transition function for varchar';
CREATE AGGREGATE bf_agg(varchar, bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(varchar, bigint) IS 'filter of the non-NULL varchar elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, varchar, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, varchar, bloomfilter) IS 'bf_agg transition function for varchar';
CREATE AGGREGATE bf_agg(varchar, bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(varchar, bloomfilter) IS 'filter of the non-NULL varchar elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, varchar) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, varchar) IS 'bf_agg transition function for varchar';
CREATE AGGREGATE bf_agg(varchar) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(varchar) IS 'filter of the non-NULL varchar elements, in a scalable filter at 1% (no sizing needed)';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, bytea, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, bytea, bigint, float8) IS 'bf_agg transition function for bytea';
CREATE AGGREGATE bf_agg(bytea, bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(bytea, bigint, float8) IS 'filter of the non-NULL bytea elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, bytea, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, bytea, bigint) IS 'bf_agg transition function for bytea';
CREATE AGGREGATE bf_agg(bytea, bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(bytea, bigint) IS 'filter of the non-NULL bytea elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, bytea, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, bytea, bloomfilter) IS 'bf_agg transition function for bytea';
CREATE AGGREGATE bf_agg(bytea, bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(bytea, bloomfilter) IS 'filter of the non-NULL bytea elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, bytea) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, bytea) IS 'bf_agg transition function for bytea';
CREATE AGGREGATE bf_agg(bytea) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(bytea) IS 'filter of the non-NULL bytea elements, in a scalable filter at 1% (no sizing needed)';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, uuid, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, uuid, bigint, float8) IS 'bf_agg transition function for uuid';
CREATE AGGREGATE bf_agg(uuid, bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(uuid, bigint, float8) IS 'filter of the non-NULL uuid elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, uuid, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, uuid, bigint) IS 'bf_agg transition function for uuid';
CREATE AGGREGATE bf_agg(uuid, bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(uuid, bigint) IS 'filter of the non-NULL uuid elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, uuid, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, uuid, bloomfilter) IS 'bf_agg transition function for uuid';
CREATE AGGREGATE bf_agg(uuid, bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(uuid, bloomfilter) IS 'filter of the non-NULL uuid elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, uuid) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, uuid) IS 'bf_agg transition function for uuid';
CREATE AGGREGATE bf_agg(uuid) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(uuid) IS 'filter of the non-NULL uuid elements, in a scalable filter at 1% (no sizing needed)';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, numeric, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, numeric, bigint, float8) IS 'bf_agg transition function for numeric';
CREATE AGGREGATE bf_agg(numeric, bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(numeric, bigint, float8) IS 'filter of the non-NULL numeric elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, numeric, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, numeric, bigint) IS 'bf_agg transition function for numeric';
CREATE AGGREGATE bf_agg(numeric, bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(numeric, bigint) IS 'filter of the non-NULL numeric elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, numeric, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, numeric, bloomfilter) IS 'bf_agg transition function for numeric';
CREATE AGGREGATE bf_agg(numeric, bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(numeric, bloomfilter) IS 'filter of the non-NULL numeric elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, numeric) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, numeric) IS 'bf_agg transition function for numeric';
CREATE AGGREGATE bf_agg(numeric) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(numeric) IS 'filter of the non-NULL numeric elements, in a scalable filter at 1% (no sizing needed)';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, date, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, date, bigint, float8) IS 'bf_agg transition function for date';
CREATE AGGREGATE bf_agg(date, bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(date, bigint, float8) IS 'filter of the non-NULL date elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, date, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, date, bigint) IS 'bf_agg transition function for date';
CREATE AGGREGATE bf_agg(date, bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(date, bigint) IS 'filter of the non-NULL date elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, date, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, date, bloomfilter) IS 'bf_agg transition function for date';
CREATE AGGREGATE bf_agg(date, bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(date, bloomfilter) IS 'filter of the non-NULL date elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, date) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, date) IS 'bf_agg transition function for date';
CREATE AGGREGATE bf_agg(date) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(date) IS 'filter of the non-NULL date elements, in a scalable filter at 1% (no sizing needed)';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, timestamp, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, timestamp, bigint, float8) IS 'bf_agg transition function for timestamp';
CREATE AGGREGATE bf_agg(timestamp, bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(timestamp, bigint, float8) IS 'filter of the non-NULL timestamp elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, timestamp, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, timestamp, bigint) IS 'bf_agg transition function for timestamp';
CREATE AGGREGATE bf_agg(timestamp, bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(timestamp, bigint) IS 'filter of the non-NULL timestamp elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, timestamp, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, timestamp, bloomfilter) IS 'bf_agg transition function for timestamp';
CREATE AGGREGATE bf_agg(timestamp, bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(timestamp, bloomfilter) IS 'filter of the non-NULL timestamp elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, timestamp) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, timestamp) IS 'bf_agg transition function for timestamp';
CREATE AGGREGATE bf_agg(timestamp) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(timestamp) IS 'filter of the non-NULL timestamp elements, in a scalable filter at 1% (no sizing needed)';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, timestamptz, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, timestamptz, bigint, float8) IS 'bf_agg transition function for timestamptz';
CREATE AGGREGATE bf_agg(timestamptz, bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(timestamptz, bigint, float8) IS 'filter of the non-NULL timestamptz elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, timestamptz, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, timestamptz, bigint) IS 'bf_agg transition function for timestamptz';
CREATE AGGREGATE bf_agg(timestamptz, bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(timestamptz, bigint) IS 'filter of the non-NULL timestamptz elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, timestamptz, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, timestamptz, bloomfilter) IS 'bf_agg transition function for timestamptz';
CREATE AGGREGATE bf_agg(timestamptz, bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(timestamptz, bloomfilter) IS 'filter of the non-NULL timestamptz elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, timestamptz) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, timestamptz) IS 'bf_agg transition function for timestamptz';
CREATE AGGREGATE bf_agg(timestamptz) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(timestamptz) IS 'filter of the non-NULL timestamptz elements, in a scalable filter at 1% (no sizing needed)';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, bpchar, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, bpchar, bigint, float8) IS 'bf_agg transition function for bpchar';
CREATE AGGREGATE bf_agg(bpchar, bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(bpchar, bigint, float8) IS 'filter of the non-NULL bpchar elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, bpchar, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, bpchar, bigint) IS 'bf_agg transition function for bpchar';
CREATE AGGREGATE bf_agg(bpchar, bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(bpchar, bigint) IS 'filter of the non-NULL bpchar elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, bpchar, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, bpchar, bloomfilter) IS 'bf_agg transition function for bpchar';
CREATE AGGREGATE bf_agg(bpchar, bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(bpchar, bloomfilter) IS 'filter of the non-NULL bpchar elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, bpchar) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, bpchar) IS 'bf_agg transition function for bpchar';
CREATE AGGREGATE bf_agg(bpchar) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(bpchar) IS 'filter of the non-NULL bpchar elements, in a scalable filter at 1% (no sizing needed)';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, name, bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, name, bigint, float8) IS 'bf_agg transition function for name';
CREATE AGGREGATE bf_agg(name, bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(name, bigint, float8) IS 'filter of the non-NULL name elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, name, bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, name, bigint) IS 'bf_agg transition function for name';
CREATE AGGREGATE bf_agg(name, bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(name, bigint) IS 'filter of the non-NULL name elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, name, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, name, bloomfilter) IS 'bf_agg transition function for name';
CREATE AGGREGATE bf_agg(name, bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(name, bloomfilter) IS 'filter of the non-NULL name elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, name) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, name) IS 'bf_agg transition function for name';
CREATE AGGREGATE bf_agg(name) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg(name) IS 'filter of the non-NULL name elements, in a scalable filter at 1% (no sizing needed)';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, "char", bigint, float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, "char", bigint, float8) IS 'bf_agg transition function for "char"';
CREATE AGGREGATE bf_agg("char", bigint, float8) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg("char", bigint, float8) IS 'filter of the non-NULL "char" elements, sized for capacity at error_rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, "char", bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, "char", bigint) IS 'bf_agg transition function for "char"';
CREATE AGGREGATE bf_agg("char", bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg("char", bigint) IS 'filter of the non-NULL "char" elements, sized for capacity at a 1% error rate';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, "char", bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_template' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, "char", bloomfilter) IS 'bf_agg transition function for "char"';
CREATE AGGREGATE bf_agg("char", bloomfilter) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg("char", bloomfilter) IS 'filter of the non-NULL "char" elements, added to the template filter';
CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, "char") RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, "char") IS 'bf_agg transition function for "char"';
CREATE AGGREGATE bf_agg("char") (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final, COMBINEFUNC = bf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE bf_agg("char") IS 'filter of the non-NULL "char" elements, in a scalable filter at 1% (no sizing needed)';

-- cf_agg, for the same types
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, int2, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, int2, bigint, float8) IS 'cf_agg transition function for int2';
CREATE AGGREGATE cf_agg(int2, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(int2, bigint, float8) IS 'cuckoo filter of the non-NULL int2 elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, int2, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, int2, bigint) IS 'cf_agg transition function for int2';
CREATE AGGREGATE cf_agg(int2, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(int2, bigint) IS 'cuckoo filter of the non-NULL int2 elements';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, int4, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, int4, bigint, float8) IS 'cf_agg transition function for int4';
CREATE AGGREGATE cf_agg(int4, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(int4, bigint, float8) IS 'cuckoo filter of the non-NULL int4 elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, int4, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, int4, bigint) IS 'cf_agg transition function for int4';
CREATE AGGREGATE cf_agg(int4, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(int4, bigint) IS 'cuckoo filter of the non-NULL int4 elements';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, int8, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, int8, bigint, float8) IS 'cf_agg transition function for int8';
CREATE AGGREGATE cf_agg(int8, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(int8, bigint, float8) IS 'cuckoo filter of the non-NULL int8 elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, int8, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, int8, bigint) IS 'cf_agg transition function for int8';
CREATE AGGREGATE cf_agg(int8, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(int8, bigint) IS 'cuckoo filter of the non-NULL int8 elements';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, text, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, text, bigint, float8) IS 'cf_agg transition function for text';
CREATE AGGREGATE cf_agg(text, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(text, bigint, float8) IS 'cuckoo filter of the non-NULL text elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, text, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, text, bigint) IS 'cf_agg transition function for text';
CREATE AGGREGATE cf_agg(text, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(text, bigint) IS 'cuckoo filter of the non-NULL text elements';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, varchar, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, varchar, bigint, float8) IS 'cf_agg transition function for varchar';
CREATE AGGREGATE cf_agg(varchar, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(varchar, bigint, float8) IS 'cuckoo filter of the non-NULL varchar elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, varchar, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, varchar, bigint) IS 'cf_agg transition function for varchar';
CREATE AGGREGATE cf_agg(varchar, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(varchar, bigint) IS 'cuckoo filter of the non-NULL varchar elements';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, bytea, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, bytea, bigint, float8) IS 'cf_agg transition function for bytea';
CREATE AGGREGATE cf_agg(bytea, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(bytea, bigint, float8) IS 'cuckoo filter of the non-NULL bytea elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, bytea, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, bytea, bigint) IS 'cf_agg transition function for bytea';
CREATE AGGREGATE cf_agg(bytea, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(bytea, bigint) IS 'cuckoo filter of the non-NULL bytea elements';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, uuid, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, uuid, bigint, float8) IS 'cf_agg transition function for uuid';
CREATE AGGREGATE cf_agg(uuid, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(uuid, bigint, float8) IS 'cuckoo filter of the non-NULL uuid elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, uuid, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, uuid, bigint) IS 'cf_agg transition function for uuid';
CREATE AGGREGATE cf_agg(uuid, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(uuid, bigint) IS 'cuckoo filter of the non-NULL uuid elements';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, numeric, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, numeric, bigint, float8) IS 'cf_agg transition function for numeric';
CREATE AGGREGATE cf_agg(numeric, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(numeric, bigint, float8) IS 'cuckoo filter of the non-NULL numeric elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, numeric, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, numeric, bigint) IS 'cf_agg transition function for numeric';
CREATE AGGREGATE cf_agg(numeric, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(numeric, bigint) IS 'cuckoo filter of the non-NULL numeric elements';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, date, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, date, bigint, float8) IS 'cf_agg transition function for date';
CREATE AGGREGATE cf_agg(date, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(date, bigint, float8) IS 'cuckoo filter of the non-NULL date elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, date, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, date, bigint) IS 'cf_agg transition function for date';
CREATE AGGREGATE cf_agg(date, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(date, bigint) IS 'cuckoo filter of the non-NULL date elements';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, timestamp, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, timestamp, bigint, float8) IS 'cf_agg transition function for timestamp';
CREATE AGGREGATE cf_agg(timestamp, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(timestamp, bigint, float8) IS 'cuckoo filter of the non-NULL timestamp elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, timestamp, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, timestamp, bigint) IS 'cf_agg transition function for timestamp';
CREATE AGGREGATE cf_agg(timestamp, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(timestamp, bigint) IS 'cuckoo filter of the non-NULL timestamp elements';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, timestamptz, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, timestamptz, bigint, float8) IS 'cf_agg transition function for timestamptz';
CREATE AGGREGATE cf_agg(timestamptz, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(timestamptz, bigint, float8) IS 'cuckoo filter of the non-NULL timestamptz elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, timestamptz, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, timestamptz, bigint) IS 'cf_agg transition function for timestamptz';
CREATE AGGREGATE cf_agg(timestamptz, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(timestamptz, bigint) IS 'cuckoo filter of the non-NULL timestamptz elements';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, bpchar, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, bpchar, bigint, float8) IS 'cf_agg transition function for bpchar';
CREATE AGGREGATE cf_agg(bpchar, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(bpchar, bigint, float8) IS 'cuckoo filter of the non-NULL bpchar elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, bpchar, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, bpchar, bigint) IS 'cf_agg transition function for bpchar';
CREATE AGGREGATE cf_agg(bpchar, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(bpchar, bigint) IS 'cuckoo filter of the non-NULL bpchar elements';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, name, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, name, bigint, float8) IS 'cf_agg transition function for name';
CREATE AGGREGATE cf_agg(name, bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(name, bigint, float8) IS 'cuckoo filter of the non-NULL name elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, name, bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, name, bigint) IS 'cf_agg transition function for name';
CREATE AGGREGATE cf_agg(name, bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg(name, bigint) IS 'cuckoo filter of the non-NULL name elements';

CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, "char", bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, "char", bigint, float8) IS 'cf_agg transition function for "char"';
CREATE AGGREGATE cf_agg("char", bigint, float8) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg("char", bigint, float8) IS 'cuckoo filter of the non-NULL "char" elements';
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, "char", bigint) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoofilter_agg_trans(cuckoofilter, "char", bigint) IS 'cf_agg transition function for "char"';
CREATE AGGREGATE cf_agg("char", bigint) (SFUNC = cuckoofilter_agg_trans, STYPE = cuckoofilter,
	FINALFUNC = cuckoofilter_agg_final, COMBINEFUNC = cf_union, PARALLEL = SAFE);
COMMENT ON AGGREGATE cf_agg("char", bigint) IS 'cuckoo filter of the non-NULL "char" elements';
