/* bloomfilter--1.3--1.4.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.4'" to load this file. \quit

-- One anycompatible form replaces the anyelement, text and "char" forms of
-- every function and operator that takes one element (bloomfilter--1.4.sql:
-- checking).  A form that objects of the database use (a view, a default, a
-- function body) keeps working under the name <name>_1_3 (an operator keeps
-- its name, and its function answers as 1.3 did); every other form goes.
-- A DO block, because what to keep depends on the database; everything in
-- it is schema-qualified, as the rest of the script is.
DO $bf$
DECLARE
	elem_types pg_catalog.oid[] := ARRAY['pg_catalog.anyelement'::pg_catalog.regtype,
		'pg_catalog.text'::pg_catalog.regtype, 'pg_catalog."char"'::pg_catalog.regtype]::pg_catalog.oid[];
	ext pg_catalog.oid := (SELECT e.oid FROM pg_catalog.pg_extension e
						   WHERE e.extname OPERATOR(pg_catalog.=) 'bloomfilter');
	r record;
BEGIN
	-- the operators @> and <@ of either filter type and one element, kept
	-- together (each names the other as its commutator) if any is in use
	FOR r IN
		SELECT o.oid::pg_catalog.regoperator::pg_catalog.text AS sig,
			   pg_catalog.bool_or(EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
							   WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
								 AND d.refobjid OPERATOR(pg_catalog.=) o.oid
								 AND d.deptype OPERATOR(pg_catalog.<>) 'e'))
				   OVER (PARTITION BY o.oprleft OPERATOR(pg_catalog.=) 'bloomfilter'::pg_catalog.regtype
								   OR o.oprright OPERATOR(pg_catalog.=) 'bloomfilter'::pg_catalog.regtype) AS used
		FROM pg_catalog.pg_operator o
		JOIN pg_catalog.pg_depend m ON m.objid OPERATOR(pg_catalog.=) o.oid
			AND m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
			AND m.refobjid OPERATOR(pg_catalog.=) ext AND m.deptype OPERATOR(pg_catalog.=) 'e'
		WHERE o.oprname OPERATOR(pg_catalog.=) ANY (ARRAY['@>', '<@']::pg_catalog.name[])
		  AND (o.oprleft OPERATOR(pg_catalog.=) ANY (elem_types)
			   OR o.oprright OPERATOR(pg_catalog.=) ANY (elem_types))
		ORDER BY o.oid::pg_catalog.regoperator::pg_catalog.text COLLATE "C"
	LOOP
		IF r.used THEN
			RAISE WARNING 'operator % is kept for the objects that use it', r.sig
				USING HINT = 'Recreate those objects, then drop the operators of one element of 1.3, so that they use the element''s own type.';
		ELSE
			EXECUTE pg_catalog.format('DROP OPERATOR %s', r.sig);
		END IF;
	END LOOP;

	-- the functions
	FOR r IN
		SELECT p.oid, p.oid::pg_catalog.regprocedure::pg_catalog.text AS sig, p.proname,
			   EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
					   WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
						 AND d.refobjid OPERATOR(pg_catalog.=) p.oid
						 AND d.deptype OPERATOR(pg_catalog.<>) 'e') AS used
		FROM pg_catalog.pg_proc p
		JOIN pg_catalog.pg_depend m ON m.objid OPERATOR(pg_catalog.=) p.oid
			AND m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
			AND m.refobjid OPERATOR(pg_catalog.=) ext AND m.deptype OPERATOR(pg_catalog.=) 'e'
		WHERE p.proname OPERATOR(pg_catalog.=) ANY (ARRAY['bf_add', 'bf_contains', 'bf_contained',
				'bf_remove', 'bf_count', 'cf_add', 'cf_add_nx', 'cf_delete', 'cf_remove',
				'cf_contains', 'cf_contained', 'cf_count', 'bf_index_contains',
				'bf_shard']::pg_catalog.name[])
		  AND p.proargtypes::pg_catalog.oid[] OPERATOR(pg_catalog.&&) elem_types
		ORDER BY p.oid::pg_catalog.regprocedure::pg_catalog.text COLLATE "C"
	LOOP
		IF r.used THEN
			EXECUTE pg_catalog.format('ALTER FUNCTION %s RENAME TO %I', r.sig,
									  r.proname OPERATOR(pg_catalog.||) '_1_3');
			RAISE WARNING 'function % is kept as %_1_3 for the objects that use it', r.sig, r.proname;
		ELSE
			EXECUTE pg_catalog.format('DROP FUNCTION %s', r.sig);
		END IF;
	END LOOP;
END
$bf$;

CREATE FUNCTION bf_add(bloomfilter, anycompatible) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION bf_add(bloomfilter, anycompatible) IS 'copy of the filter with the element added; NULL adds nothing';

CREATE FUNCTION bf_contains(bloomfilter, anycompatible) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT bloomfilter_support;

COMMENT ON FUNCTION bf_contains(bloomfilter, anycompatible) IS 'false if the element was certainly never added, true if it possibly was';

CREATE FUNCTION bf_contained(anycompatible, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT bloomfilter_support;

COMMENT ON FUNCTION bf_contained(anycompatible, bloomfilter) IS 'bf_contains with the arguments swapped, for the <@ operator';

CREATE FUNCTION bf_remove(bloomfilter, anycompatible) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION bf_remove(bloomfilter, anycompatible) IS 'copy of a counting filter with the element taken out if it tests present; NULL removes nothing';

CREATE FUNCTION bf_count(bloomfilter, anycompatible) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION bf_count(bloomfilter, anycompatible) IS 'how often the element was added, at most (the smallest of its counters; 0 or 1 for a plain filter)';

CREATE FUNCTION cf_add(cuckoofilter, anycompatible) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION cf_add(cuckoofilter, anycompatible) IS 'copy of the filter with one more copy of the element; NULL adds nothing';

CREATE FUNCTION cf_add_nx(cuckoofilter, anycompatible) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add_nx' LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION cf_add_nx(cuckoofilter, anycompatible) IS 'the element added unless the filter possibly contains it already';

CREATE FUNCTION cf_delete(cuckoofilter, anycompatible) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION cf_delete(cuckoofilter, anycompatible) IS 'deprecated (removed in 2.0): use cf_remove, the same function';

CREATE FUNCTION cf_contains(cuckoofilter, anycompatible) RETURNS boolean
	AS 'MODULE_PATHNAME', 'cuckoofilter_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT cuckoofilter_support;

COMMENT ON FUNCTION cf_contains(cuckoofilter, anycompatible) IS 'false if the element is certainly not in the filter, true if it possibly is';

CREATE FUNCTION cf_contained(anycompatible, cuckoofilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'cuckoofilter_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT cuckoofilter_support;

COMMENT ON FUNCTION cf_contained(anycompatible, cuckoofilter) IS 'cf_contains with the arguments swapped, for the <@ operator';

CREATE FUNCTION cf_count(cuckoofilter, anycompatible) RETURNS integer
	AS 'MODULE_PATHNAME', 'cuckoofilter_count_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION cf_count(cuckoofilter, anycompatible) IS 'entries matching the element: at least the copies added and not deleted';

CREATE FUNCTION bf_shard(element anycompatible, nshards integer) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_shard' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION bf_shard(anycompatible, integer) IS 'shard (0 to nshards - 1) of an element, from a hash independent of the one inside each shard''s filter';

CREATE FUNCTION bf_shard(element anycompatible, nshards integer, key_type regtype) RETURNS integer
	AS 'MODULE_PATHNAME', 'bloomfilter_shard' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION bf_shard(anycompatible, integer, regtype) IS 'shard (0 to nshards - 1) of an element converted to key_type first, as a filter of that key type converts it';

CREATE FUNCTION bf_index_contains(index regclass, key anycompatible) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloomfilter_index_contains' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION bf_index_contains(regclass, anycompatible) IS 'false if no row of the bloomfilter index''s table has this key; true if one may (a row for a multi-column index)';

CREATE FUNCTION cf_remove(cuckoofilter, anycompatible) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION cf_remove(cuckoofilter, anycompatible) IS 'copy of the filter with one copy of the element removed (unchanged if absent, or if it matches in sub-filters of two shapes of a grown filter); remove only what was added';


-- The operators of one element, where no form of 1.3 was kept above (a
-- kept one beside these would make every call ambiguous).  Creating @>
-- makes <@ a shell, which creating <@ then fills.  Only the extension's
-- own operators in its schema count as kept: any role with CREATE on some
-- schema can make an @> of a filter and one element there, and if that
-- skipped the extension's @>, creating <@ (COMMUTATOR = @>) would leave @>
-- a shell, failing every call (issue 32, item 9).
DO $bf$
DECLARE
	ext pg_catalog.oid := (SELECT e.oid FROM pg_catalog.pg_extension e
						   WHERE e.extname OPERATOR(pg_catalog.=) 'bloomfilter');
	home pg_catalog.oid := (SELECT e.extnamespace FROM pg_catalog.pg_extension e
							WHERE e.extname OPERATOR(pg_catalog.=) 'bloomfilter');
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_operator o
				   JOIN pg_catalog.pg_depend m ON m.objid OPERATOR(pg_catalog.=) o.oid
					 AND m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
					 AND m.refobjid OPERATOR(pg_catalog.=) ext AND m.deptype OPERATOR(pg_catalog.=) 'e'
				   WHERE o.oprnamespace OPERATOR(pg_catalog.=) home
					 AND o.oprname OPERATOR(pg_catalog.=) '@>'
					 AND o.oprleft OPERATOR(pg_catalog.=) 'bloomfilter'::pg_catalog.regtype
					 AND o.oprright OPERATOR(pg_catalog.<>) 'pg_catalog.anycompatible'::pg_catalog.regtype) THEN
		EXECUTE $ddl$CREATE OPERATOR @> (
	LEFTARG = bloomfilter, RIGHTARG = anycompatible, FUNCTION = bf_contains,
	COMMUTATOR = <@,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel
)$ddl$;
		EXECUTE $ddl$COMMENT ON OPERATOR @> (bloomfilter, anycompatible) IS 'filter possibly contains element'$ddl$;
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_operator o
				   JOIN pg_catalog.pg_depend m ON m.objid OPERATOR(pg_catalog.=) o.oid
					 AND m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
					 AND m.refobjid OPERATOR(pg_catalog.=) ext AND m.deptype OPERATOR(pg_catalog.=) 'e'
				   WHERE o.oprnamespace OPERATOR(pg_catalog.=) home
					 AND o.oprname OPERATOR(pg_catalog.=) '<@'
					 AND o.oprright OPERATOR(pg_catalog.=) 'bloomfilter'::pg_catalog.regtype
					 AND o.oprleft OPERATOR(pg_catalog.<>) 'pg_catalog.anycompatible'::pg_catalog.regtype) THEN
		EXECUTE $ddl$CREATE OPERATOR <@ (
	LEFTARG = anycompatible, RIGHTARG = bloomfilter, FUNCTION = bf_contained,
	COMMUTATOR = @>,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel
)$ddl$;
		EXECUTE $ddl$COMMENT ON OPERATOR <@ (anycompatible, bloomfilter) IS 'element possibly contained in filter'$ddl$;
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_operator o
				   JOIN pg_catalog.pg_depend m ON m.objid OPERATOR(pg_catalog.=) o.oid
					 AND m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
					 AND m.refobjid OPERATOR(pg_catalog.=) ext AND m.deptype OPERATOR(pg_catalog.=) 'e'
				   WHERE o.oprnamespace OPERATOR(pg_catalog.=) home
					 AND o.oprname OPERATOR(pg_catalog.=) '@>'
					 AND o.oprleft OPERATOR(pg_catalog.=) 'cuckoofilter'::pg_catalog.regtype
					 AND o.oprright OPERATOR(pg_catalog.<>) 'pg_catalog.anycompatible'::pg_catalog.regtype) THEN
		EXECUTE $ddl$CREATE OPERATOR @> (
	LEFTARG = cuckoofilter, RIGHTARG = anycompatible, FUNCTION = cf_contains,
	COMMUTATOR = <@,
	RESTRICT = cuckoofilter_contsel, JOIN = cuckoofilter_contjoinsel
)$ddl$;
		EXECUTE $ddl$COMMENT ON OPERATOR @> (cuckoofilter, anycompatible) IS 'cuckoo filter possibly contains element'$ddl$;
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_operator o
				   JOIN pg_catalog.pg_depend m ON m.objid OPERATOR(pg_catalog.=) o.oid
					 AND m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
					 AND m.refobjid OPERATOR(pg_catalog.=) ext AND m.deptype OPERATOR(pg_catalog.=) 'e'
				   WHERE o.oprnamespace OPERATOR(pg_catalog.=) home
					 AND o.oprname OPERATOR(pg_catalog.=) '<@'
					 AND o.oprright OPERATOR(pg_catalog.=) 'cuckoofilter'::pg_catalog.regtype
					 AND o.oprleft OPERATOR(pg_catalog.<>) 'pg_catalog.anycompatible'::pg_catalog.regtype) THEN
		EXECUTE $ddl$CREATE OPERATOR <@ (
	LEFTARG = anycompatible, RIGHTARG = cuckoofilter, FUNCTION = cf_contained,
	COMMUTATOR = @>,
	RESTRICT = cuckoofilter_contsel, JOIN = cuckoofilter_contjoinsel
)$ddl$;
		EXECUTE $ddl$COMMENT ON OPERATOR <@ (anycompatible, cuckoofilter) IS 'element possibly contained in cuckoo filter'$ddl$;
	END IF;
END
$bf$;

-- The per-type overloads of bf_agg and cf_agg, and their transition
-- functions, move to the companion extension bloomfilter_citus (its script
-- says why Citus needs them): 168 of 1.3's objects.  An overload that
-- objects of the database use (a view, a function body) is kept under the
-- name bf_agg_1_3 or cf_agg_1_3, its transition function as
-- bloomfilter_agg_trans_1_3 or cuckoofilter_agg_trans_1_3, so that those
-- objects answer as before and bloomfilter_citus can be installed beside
-- them; a transition function that objects use directly is kept likewise;
-- everything else goes.  New calls reach the polymorphic aggregates (the
-- same bytes), or bloomfilter_citus's overloads once it is installed.
DO $bf$
DECLARE
	ext pg_catalog.oid := (SELECT e.oid FROM pg_catalog.pg_extension e
						   WHERE e.extname OPERATOR(pg_catalog.=) 'bloomfilter');
	poly pg_catalog.oid[] := ARRAY['pg_catalog.anyelement'::pg_catalog.regtype]::pg_catalog.oid[];
	r record;
BEGIN
	FOR r IN
		SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text AS agg, p.proname, a.aggtransfn AS trans,
			   EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
					   WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
						 AND d.refobjid OPERATOR(pg_catalog.=) p.oid
						 AND d.deptype OPERATOR(pg_catalog.<>) 'e') AS used
		FROM pg_catalog.pg_proc p
		JOIN pg_catalog.pg_aggregate a ON a.aggfnoid OPERATOR(pg_catalog.=) p.oid
		JOIN pg_catalog.pg_depend m ON m.objid OPERATOR(pg_catalog.=) p.oid
			AND m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
			AND m.refobjid OPERATOR(pg_catalog.=) ext AND m.deptype OPERATOR(pg_catalog.=) 'e'
		WHERE p.proname OPERATOR(pg_catalog.=) ANY (ARRAY['bf_agg', 'cf_agg']::pg_catalog.name[])
		  AND NOT (p.proargtypes::pg_catalog.oid[] OPERATOR(pg_catalog.&&) poly)
		ORDER BY p.oid::pg_catalog.regprocedure::pg_catalog.text COLLATE "C"
	LOOP
		IF r.used THEN
			EXECUTE pg_catalog.format('ALTER AGGREGATE %s RENAME TO %I', r.agg,
									  r.proname OPERATOR(pg_catalog.||) '_1_3');
			RAISE WARNING 'aggregate % is kept as %_1_3 for the objects that use it', r.agg, r.proname
				USING HINT = 'On Citus, CREATE EXTENSION bloomfilter_citus brings back the overloads of bf_agg and cf_agg for new queries.';
		ELSE
			EXECUTE pg_catalog.format('DROP AGGREGATE %s', r.agg);
		END IF;
		-- the transition function: still used if the aggregate was kept, or
		-- if objects of the database call it (an aggregate of their own)
		IF EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
				   WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
					 AND d.refobjid OPERATOR(pg_catalog.=) r.trans
					 AND d.deptype OPERATOR(pg_catalog.<>) 'e') THEN
			EXECUTE pg_catalog.format('ALTER FUNCTION %s RENAME TO %I', r.trans::pg_catalog.regprocedure,
									  (SELECT t.proname FROM pg_catalog.pg_proc t
									   WHERE t.oid OPERATOR(pg_catalog.=) r.trans) OPERATOR(pg_catalog.||) '_1_3');
		ELSE
			EXECUTE pg_catalog.format('DROP FUNCTION %s', r.trans::pg_catalog.regprocedure);
		END IF;
	END LOOP;
END
$bf$;

-- One name per verb for both filter types: cf_remove, cf_union and
-- cf_cardinality, as bf_remove, bf_union and bf_cardinality; cf_delete,
-- cf_delete_all, cf_merge and cf_items stay as deprecated aliases until
-- 2.0.  In 1.3 cf_merge was the function that cf_agg combines with and |
-- calls, and cf_union its alias (the same C function): the two swap names,
-- so that cf_agg and | call cf_union, as in a fresh install, and objects
-- of the database call the same function as before under either name.
ALTER FUNCTION cf_union(cuckoofilter, cuckoofilter) RENAME TO cf_merge_swap_1_4;
ALTER FUNCTION cf_merge(cuckoofilter, cuckoofilter) RENAME TO cf_union;
ALTER FUNCTION cf_merge_swap_1_4(cuckoofilter, cuckoofilter) RENAME TO cf_merge;
COMMENT ON FUNCTION cf_union(cuckoofilter, cuckoofilter) IS 'filter holding the entries of both (same capacity, error rate and seed required); a NULL operand is ignored';
COMMENT ON FUNCTION cf_merge(cuckoofilter, cuckoofilter) IS 'deprecated (removed in 2.0): use cf_union, the same function';
COMMENT ON OPERATOR | (cuckoofilter, cuckoofilter) IS 'union of two cuckoo filters (cf_union)';

COMMENT ON FUNCTION cf_remove_all(cuckoofilter, anyarray) IS 'copy of the filter with one copy of every non-NULL array element removed, as cf_remove; remove only what was added';
COMMENT ON FUNCTION cf_delete_all(cuckoofilter, anyarray) IS 'deprecated (removed in 2.0): use cf_remove_all, the same function';

-- cardinality of the multiset: a cuckoo filter counts copies
CREATE FUNCTION cf_cardinality(cuckoofilter) RETURNS bigint
	AS 'MODULE_PATHNAME', 'cuckoofilter_items' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cf_cardinality(cuckoofilter) IS 'entries held: copies added and not removed, and those removals kept in a grown filter';
COMMENT ON FUNCTION cf_items(cuckoofilter) IS 'deprecated (removed in 2.0): use cf_cardinality, the same function';
