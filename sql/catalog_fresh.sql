-- A fresh install of the default version (its base script) and an install
-- that walks the upgrade chain from 1.0 must leave the same catalog: the
-- same objects with the same signatures, properties and comments, and so
-- must the companion extension bloomfilter_citus installed on each.
SELECT current_database() AS regress_db \gset
CREATE DATABASE regress_bf_catalog;
\c regress_bf_catalog
SET client_min_messages = warning;

-- one row per member of the extension and property that matters, as text
-- that does not depend on OIDs
CREATE TABLE catalog_rows (install text, extension name, object text, props text);
CREATE FUNCTION snapshot(install text) RETURNS void LANGUAGE sql AS $$
	WITH members AS (
		SELECT d.classid, d.objid, e.extname, pg_describe_object(d.classid, d.objid, 0) AS object
		FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
		WHERE e.extname IN ('bloomfilter', 'bloomfilter_citus') AND d.deptype = 'e')
	INSERT INTO catalog_rows
	SELECT install, m.extname, m.object, concat_ws(' | ',
		obj_description(m.objid, (SELECT relname FROM pg_class WHERE oid = m.classid)),
		(SELECT concat_ws(' ', p.prorettype::regtype, p.proargnames::text, pg_get_expr(p.proargdefaults, 0),
						  p.prosrc, p.probin, p.provolatile, p.proparallel, p.proisstrict, p.prokind,
						  p.prosupport, p.proconfig::text, p.procost, p.prorows, p.prosecdef)
		 FROM pg_proc p WHERE m.classid = 'pg_proc'::regclass AND p.oid = m.objid),
		(SELECT concat_ws(' ', a.aggtransfn, a.aggfinalfn, a.aggcombinefn, a.aggserialfn,
						  a.aggdeserialfn, a.aggtranstype::regtype, a.agginitval, a.aggfinalmodify)
		 FROM pg_aggregate a WHERE m.classid = 'pg_proc'::regclass AND a.aggfnoid = m.objid),
		(SELECT concat_ws(' ', o.oprcode, o.oprrest, o.oprjoin, o.oprcom::regoperator,
						  o.oprnegate::regoperator, o.oprcanmerge, o.oprcanhash)
		 FROM pg_operator o WHERE m.classid = 'pg_operator'::regclass AND o.oid = m.objid),
		(SELECT concat_ws(' ', t.typinput, t.typoutput, t.typreceive, t.typsend, t.typlen,
						  t.typalign, t.typstorage, t.typcategory, t.typispreferred)
		 FROM pg_type t WHERE m.classid = 'pg_type'::regclass AND t.oid = m.objid),
		(SELECT concat_ws(' ', c.castfunc::regprocedure, c.castcontext, c.castmethod)
		 FROM pg_cast c WHERE m.classid = 'pg_cast'::regclass AND c.oid = m.objid),
		(SELECT string_agg(concat_ws(' ', ao.amopstrategy, ao.amopopr::regoperator, ao.amoppurpose),
						   ', ' ORDER BY ao.amopstrategy, ao.amopopr::regoperator::text)
		 FROM pg_amop ao WHERE m.classid = 'pg_opfamily'::regclass AND ao.amopfamily = m.objid),
		(SELECT string_agg(concat_ws(' ', ap.amprocnum, ap.amproc::regprocedure), ', '
						   ORDER BY ap.amprocnum, ap.amproc::regprocedure::text)
		 FROM pg_amproc ap WHERE m.classid = 'pg_opfamily'::regclass AND ap.amprocfamily = m.objid),
		(SELECT concat_ws(' ', oc.opcdefault, oc.opcintype::regtype, oc.opckeytype)
		 FROM pg_opclass oc WHERE m.classid = 'pg_opclass'::regclass AND oc.oid = m.objid),
		(SELECT concat_ws(' ', am.amhandler, am.amtype)
		 FROM pg_am am WHERE m.classid = 'pg_am'::regclass AND am.oid = m.objid))
	FROM members m;
$$;

CREATE EXTENSION bloomfilter;
SELECT extversion AS fresh_version FROM pg_extension WHERE extname = 'bloomfilter';

-- A catalog a user can read (issue 24): a plain install has at most 200
-- objects (every member pg_depend records, operator families included),
-- and \df bf_* lists at most 40 functions and aggregates.  The same count
-- on every version: 17 and later also record as members the array types
-- that CREATE TYPE makes for each type, which 15 does not, and which
-- issue 24 did not count (1.4 was 195 objects, 197 on 17).  What only
-- Citus needs is in bloomfilter_citus.
SELECT count(*) <= 200 AS members_within_200
FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomfilter'
WHERE d.deptype = 'e'
  AND NOT (d.classid = 'pg_type'::regclass
		   AND EXISTS (SELECT 1 FROM pg_type t WHERE t.oid = d.objid AND t.typelem <> 0 AND t.typlen = -1
						 AND EXISTS (SELECT 1 FROM pg_type e WHERE e.oid = t.typelem AND e.typarray = t.oid)));
SELECT count(*) <= 40 AS df_bf_within_40
FROM pg_proc p WHERE p.proname ~ '^bf_' AND pg_function_is_visible(p.oid);

CREATE EXTENSION bloomfilter_citus;
SELECT snapshot('fresh');
DROP EXTENSION bloomfilter_citus;
DROP EXTENSION bloomfilter;
CREATE EXTENSION bloomfilter VERSION '1.0';
ALTER EXTENSION bloomfilter UPDATE;
SELECT extversion AS upgraded_version FROM pg_extension WHERE extname = 'bloomfilter';
CREATE EXTENSION bloomfilter_citus;
SELECT snapshot('upgraded');
DROP EXTENSION bloomfilter_citus;
DROP EXTENSION bloomfilter;

SELECT extension, count(*) > 150 AS many_members, count(*) FILTER (WHERE props = '') AS bare
FROM catalog_rows WHERE install = 'fresh' GROUP BY extension ORDER BY extension;
-- what one has and the other lacks (nothing)
(SELECT 'only fresh' AS side, extension, object, props FROM catalog_rows WHERE install = 'fresh'
 EXCEPT SELECT 'only fresh', extension, object, props FROM catalog_rows WHERE install = 'upgraded')
UNION ALL
(SELECT 'only upgraded', extension, object, props FROM catalog_rows WHERE install = 'upgraded'
 EXCEPT SELECT 'only upgraded', extension, object, props FROM catalog_rows WHERE install = 'fresh')
ORDER BY 3, 1;

\c :regress_db
DROP DATABASE regress_bf_catalog;
