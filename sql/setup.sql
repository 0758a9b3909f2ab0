-- Install the first release; later releases walk the upgrade chain here.
CREATE EXTENSION bloomfilter VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';
ALTER EXTENSION bloomfilter UPDATE TO '1.1';
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';
ALTER EXTENSION bloomfilter UPDATE TO '1.2';
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';
ALTER EXTENSION bloomfilter UPDATE TO '1.3';
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';
ALTER EXTENSION bloomfilter UPDATE TO '1.4';
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';
ALTER EXTENSION bloomfilter UPDATE TO '1.5';
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';

-- every object of the extension has a comment (but the implicit array type
-- bloomfilter[], which newer servers, 17 and 18 here, record as a member too)
SELECT pg_describe_object(d.classid, d.objid, d.objsubid) AS undocumented
FROM pg_depend d
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomfilter'
WHERE d.deptype = 'e'
  AND obj_description(d.objid, (SELECT relname FROM pg_class WHERE oid = d.classid)) IS NULL
  AND NOT (d.classid = 'pg_type'::regclass AND d.objid IN (SELECT typarray FROM pg_type))
ORDER BY 1;

-- every function is parallel safe and immutable; strict unless NULL must be handled
SELECT p.oid::regprocedure AS function, p.provolatile, p.proparallel, p.proisstrict
FROM pg_proc p
JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomfilter'
ORDER BY p.proname, p.oid::regprocedure::text;

-- the aggregates: the filter type is the state (not internal); bf_union and cf_union combine
SELECT a.aggfnoid::regprocedure AS aggregate, a.aggtranstype::regtype AS state,
       a.aggcombinefn, a.aggfinalfn, p.proparallel
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
WHERE p.proname LIKE 'bf\_%' OR p.proname LIKE 'cf\_%'
ORDER BY 1::text;

-- the type stores out of line uncompressed, so point checks can read slices
SELECT typname, typstorage, typalign, typlen FROM pg_type WHERE typname IN ('bloomfilter', 'cuckoofilter') ORDER BY 1;

-- \df bf_* and \df cf_* list what users call: the aggregates' own
-- transition and final functions are named after the types instead (the
-- union functions, which users call too, also combine and fold)
SELECT p.oid::regprocedure AS internal_named_like_user_function
FROM pg_proc p
WHERE (p.proname LIKE 'bf\_%' OR p.proname LIKE 'cf\_%')
  AND p.proname NOT IN ('bf_union', 'cf_union')
  AND p.oid IN (SELECT aggtransfn FROM pg_aggregate UNION SELECT aggfinalfn FROM pg_aggregate);
