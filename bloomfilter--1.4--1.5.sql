/* bloomfilter--1.4--1.5.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.5'" to load this file. \quit

-- 1.5 adds objects only: nothing of 1.4 changes or goes.  As everywhere in
-- the install scripts, every function, operator and type named here is
-- schema-qualified (the script runs with search_path set to the target
-- schema, as the bootstrap superuser when the extension is trusted).

-- bf_create gains a layout argument, after key_type (layout => 'guava',
-- 'redisbloom').  The 1.4 form goes;
-- if objects of the database use it (a view, a column default, a function
-- body), it stays for them under the name bf_create_1_4, answering as
-- before.  A DO block, because what to keep depends on the database.
DO $bf$
DECLARE
	old pg_catalog.regprocedure := 'bf_create(pg_catalog.int8, pg_catalog.float8, pg_catalog.int8, pg_catalog.bool, pg_catalog.int4, pg_catalog.regtype)'::pg_catalog.regprocedure;
	sig pg_catalog.text := old::pg_catalog.text;
BEGIN
	IF EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
			   WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
				 AND d.refobjid OPERATOR(pg_catalog.=) old
				 AND d.deptype OPERATOR(pg_catalog.<>) 'e') THEN
		EXECUTE pg_catalog.format('ALTER FUNCTION %s RENAME TO bf_create_1_4', old);
		RAISE WARNING 'function % is kept as bf_create_1_4 for the objects that use it', sig
			USING HINT = 'Recreate those objects, then drop bf_create_1_4.';
	ELSE
		EXECUTE pg_catalog.format('DROP FUNCTION %s', old);
	END IF;
END
$bf$;

CREATE FUNCTION bf_create(capacity bigint, error_rate float8 DEFAULT 0.01, seed bigint DEFAULT 0,
						  counting boolean DEFAULT false, expansion integer DEFAULT 0,
						  key_type regtype DEFAULT NULL, layout text DEFAULT NULL) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_create' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_create(bigint, float8, bigint, boolean, integer, regtype, text) IS 'empty filter for capacity distinct elements at the given false-positive rate; counting => true makes one that can forget, expansion => n one that grows past its capacity, key_type => t one whose keys are of type t (else the first element''s type), layout => ''guava'' one with the bits and sizing of Guava''s BloomFilter.create (key_type bigint, integer, text or bytea), layout => ''redisbloom'' one that Redis reads (BF.RESERVE''s filter; expansion 0 is NONSCALING)';

-- ---- Guava's BloomFilter (layout 5) ----

CREATE FUNCTION bf_to_guava(bloomfilter) RETURNS bytea
	AS 'MODULE_PATHNAME', 'bloomfilter_to_guava' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_to_guava(bloomfilter) IS 'a filter of layout guava as the bytes Guava''s BloomFilter.writeTo writes';

CREATE FUNCTION bf_from_guava(bytea, key_type regtype) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_from_guava' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_from_guava(bytea, regtype) IS 'a filter of layout guava from the bytes of Guava''s BloomFilter.writeTo, its funnel named by key_type (bigint, integer, text or bytea)';

-- ---- RedisBloom's dump (layout 6): BF.SCANDUMP / BF.LOADCHUNK ----

CREATE FUNCTION bf_to_redisbloom(filter bloomfilter, OUT iter bigint, OUT chunk bytea) RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'bloomfilter_to_redisbloom' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 2;
COMMENT ON FUNCTION bf_to_redisbloom(bloomfilter) IS 'the (iter, chunk) rows that BF.LOADCHUNK takes, in order, to make this RedisBloom filter in Redis';

CREATE FUNCTION bf_from_redisbloom(iters bigint[], chunks bytea[], key_type regtype DEFAULT NULL) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_from_redisbloom' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bf_from_redisbloom(bigint[], bytea[], regtype) IS 'the RedisBloom filter whose BF.SCANDUMP gave these (iter, chunk) pairs, of keys of type key_type (else untyped)';

-- ---- cuckoofilter's planner support and estimators ----

-- cuckoofilter_support, cuckoofilter_contsel and cuckoofilter_contjoinsel
-- were bloomfilter_support, bloomfilter_contsel and bloomfilter_contjoinsel
-- under other names (the same C functions, which tell the two types apart
-- by their arguments).  The extension's checks and operators now name
-- bloomfilter's, and the three go; if objects of the database name one (a
-- function of the user's with SUPPORT, an operator with RESTRICT or
-- JOIN), it stays for them, answering as before.
DO $bf$
DECLARE
	ext pg_catalog.oid := (SELECT e.oid FROM pg_catalog.pg_extension e
						   WHERE e.extname OPERATOR(pg_catalog.=) 'bloomfilter');
	r record;
BEGIN
	FOR r IN
		SELECT p.oid::pg_catalog.regprocedure AS f
		FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_depend d
		  ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
		 AND d.objid OPERATOR(pg_catalog.=) p.oid AND d.refobjid OPERATOR(pg_catalog.=) ext
		 AND d.deptype OPERATOR(pg_catalog.=) 'e'
		WHERE p.prosupport OPERATOR(pg_catalog.=) 'cuckoofilter_support(pg_catalog.internal)'::pg_catalog.regprocedure
	LOOP
		EXECUTE pg_catalog.format('ALTER FUNCTION %s SUPPORT bloomfilter_support', r.f);
	END LOOP;
	FOR r IN
		SELECT o.oid::pg_catalog.regoperator AS op
		FROM pg_catalog.pg_operator o JOIN pg_catalog.pg_depend d
		  ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
		 AND d.objid OPERATOR(pg_catalog.=) o.oid AND d.refobjid OPERATOR(pg_catalog.=) ext
		 AND d.deptype OPERATOR(pg_catalog.=) 'e'
		WHERE o.oprrest OPERATOR(pg_catalog.=) 'cuckoofilter_contsel(pg_catalog.internal, pg_catalog.oid, pg_catalog.internal, pg_catalog.int4)'::pg_catalog.regprocedure
	LOOP
		EXECUTE pg_catalog.format('ALTER OPERATOR %s SET (RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel)', r.op);
	END LOOP;
	FOR r IN
		SELECT f FROM pg_catalog.unnest(ARRAY[
			'cuckoofilter_support(pg_catalog.internal)',
			'cuckoofilter_contsel(pg_catalog.internal, pg_catalog.oid, pg_catalog.internal, pg_catalog.int4)',
			'cuckoofilter_contjoinsel(pg_catalog.internal, pg_catalog.oid, pg_catalog.internal, pg_catalog.int2, pg_catalog.internal)'
		]::pg_catalog.regprocedure[]) AS f
	LOOP
		IF EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
				   WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
					 AND d.refobjid OPERATOR(pg_catalog.=) r.f
					 AND d.deptype OPERATOR(pg_catalog.<>) 'e') THEN
			RAISE WARNING 'function % is kept for the objects that name it', r.f::pg_catalog.text
				USING HINT = 'It is the same C function as the bloomfilter_ one of the same suffix: name that instead, then drop this one.';
		ELSE
			EXECUTE pg_catalog.format('DROP FUNCTION %s', r.f);
		END IF;
	END LOOP;
END
$bf$;

-- ---- kept forms that objects of the database use leave the extension ----
--
-- Every update since 1.2 keeps a form it replaces where objects of the
-- database use it (a view, a column default, a check constraint, an index
-- expression, a function body, an aggregate or operator of the user's):
-- bf_create_1_0, bf_create_1_2, bf_shard_text_1_2, bf_contains_1_3,
-- bf_agg_1_3, bloomfilter_agg_trans_1_3, bf_create_1_4, cuckoofilter_support
-- and the like.  As members of the extension they were left out of every
-- pg_dump, and a fresh install does not make them, so a restore of the
-- database failed on the first object that named one (issue 34, item 7).
-- Here each kept form that an object outside the extension depends on
-- stops being a member: pg_dump then writes its definition (a C function
-- of $libdir/bloomfilter, whose symbol the library exports for as long as
-- a released script names it: scripts/check-script-symbols.py), and a
-- restore makes it beside the fresh install.  A kept form that only
-- members use (a kept operator's function) stays a member; so do the
-- kept operators of 1.3, which a dump names by operator name, reaching
-- the current operator in a fresh install.  Repeated until nothing
-- changes: a kept aggregate that leaves takes its kept transition
-- function with it.  Only the extension's own members count, found by
-- pg_depend, never by name alone in some schema.
DO $bf$
DECLARE
	ext pg_catalog.oid := (SELECT e.oid FROM pg_catalog.pg_extension e
						   WHERE e.extname OPERATOR(pg_catalog.=) 'bloomfilter');
	r record;
	moved pg_catalog.int4;
BEGIN
	LOOP
		moved := 0;
		FOR r IN
			SELECT p.oid, p.prokind,
				   pg_catalog.format('%I.%I(%s)', n.nspname, p.proname,
									 pg_catalog.pg_get_function_identity_arguments(p.oid)) AS ident
			FROM pg_catalog.pg_proc p
			JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
			JOIN pg_catalog.pg_depend m ON m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
				AND m.objid OPERATOR(pg_catalog.=) p.oid AND m.refobjid OPERATOR(pg_catalog.=) ext
				AND m.deptype OPERATOR(pg_catalog.=) 'e'
			WHERE (p.proname OPERATOR(pg_catalog.~) '_1_[0-9]+$'
				   OR p.proname OPERATOR(pg_catalog.=) ANY (ARRAY['cuckoofilter_support', 'cuckoofilter_contsel',
																  'cuckoofilter_contjoinsel']::pg_catalog.name[]))
			  AND EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
						  WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
							AND d.refobjid OPERATOR(pg_catalog.=) p.oid
							AND d.deptype OPERATOR(pg_catalog.<>) 'e'
							AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend dm
											WHERE dm.classid OPERATOR(pg_catalog.=) d.classid
											  AND dm.objid OPERATOR(pg_catalog.=) d.objid
											  AND dm.refobjid OPERATOR(pg_catalog.=) ext
											  AND dm.deptype OPERATOR(pg_catalog.=) 'e'))
			ORDER BY p.proname COLLATE "C", pg_catalog.pg_get_function_identity_arguments(p.oid) COLLATE "C"
		LOOP
			EXECUTE pg_catalog.format('ALTER EXTENSION bloomfilter DROP %s %s',
									  CASE WHEN r.prokind OPERATOR(pg_catalog.=) 'a' THEN 'AGGREGATE' ELSE 'FUNCTION' END,
									  r.ident);
			RAISE WARNING '% % is no longer a member of the extension, so that pg_dump keeps it for the objects that use it',
				CASE WHEN r.prokind OPERATOR(pg_catalog.=) 'a' THEN 'aggregate' ELSE 'function' END, r.ident
				USING HINT = 'Recreate those objects over the current names, then drop it; until then DROP EXTENSION bloomfilter needs CASCADE.';
			moved := moved OPERATOR(pg_catalog.+) 1;
		END LOOP;
		EXIT WHEN moved OPERATOR(pg_catalog.=) 0;
	END LOOP;
END
$bf$;

-- ---- bf_shape: an empty template without its payload ----
--
-- PostgreSQL sorts every argument of an aggregate with ORDER BY, so
-- bf_agg(k, template ORDER BY i) copied the template into each sorted row
-- (a 2.4 MB RedisBloom template: 68 s for 20,000 rows; issue 34, item 5).
-- bf_agg(k, bf_shape(template) ORDER BY i) sorts the shape instead: the
-- header and the few bytes of the payload that are not zero.  A bytea, not
-- a type of its own, which would cost five members (the type and its I/O
-- functions) of the 200 a plain install keeps within (issue 24): the
-- aggregate checks the shape when it reads it, on a group's first row.
-- Both casts between bytea and bloomfilter are explicit, so no call that
-- resolved before resolves to the bytea form now.

CREATE FUNCTION bf_shape(template bloomfilter) RETURNS bytea
	AS 'MODULE_PATHNAME', 'bloomfilter_shape' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bf_shape(bloomfilter) IS 'the shape of an empty filter (any layout), for bf_agg(element, bf_shape(template) ORDER BY ...): the template''s result without sorting its payload with every row';

CREATE FUNCTION bloomfilter_agg_trans(bloomfilter, anyelement, bytea) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_agg_trans_shape' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloomfilter_agg_trans(bloomfilter, anyelement, bytea) IS 'bf_agg transition function (shape form)';

CREATE AGGREGATE bf_agg(element anyelement, shape bytea) (
	SFUNC = bloomfilter_agg_trans,
	STYPE = bloomfilter,
	FINALFUNC = bloomfilter_agg_final,
	COMBINEFUNC = bf_union,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bf_agg(anyelement, bytea) IS 'the empty template whose shape (bf_shape) this is with the non-NULL elements added, the same bytes as bf_agg(element, template) in the same order';
