-- Upgrading 1.2 to 1.3 with views that use cf_agg and cf_count.  cf_agg
-- gains its final function in place (CREATE OR REPLACE AGGREGATE: the
-- same aggregate, its comment kept), so a view calling it keeps working
-- and now gets the flat result.  cf_count returns integer from 1.3 on; a
-- 1.2 form a view uses is kept as cf_count_1_2 (bigint) and the view
-- answers as before, the other form is dropped, and new calls reach the
-- integer function.  Planner support reaches the 1.2 checks too.
DROP EXTENSION bloomfilter;
CREATE EXTENSION bloomfilter VERSION '1.2';
CREATE TABLE uc_items AS SELECT g AS id FROM generate_series(1, 100) g;
CREATE VIEW uc_filter AS SELECT cf_agg(id, 1000) AS cf FROM uc_items;
CREATE VIEW uc_counts AS
	SELECT i.id, cf_count(f.cf, i.id) AS n FROM uc_items i, uc_filter f WHERE i.id <= 3;
SELECT 'cf_agg(anyelement, bigint)'::regprocedure::oid AS agg_oid \gset
-- (the library is already 1.3's: 1.2's cf_count still gets its bigint)
SELECT id, n, pg_typeof(n) FROM uc_counts ORDER BY id;
SELECT aggfinalfn FROM pg_aggregate WHERE aggfnoid = :agg_oid;

ALTER EXTENSION bloomfilter UPDATE TO '1.3';

-- the same aggregate, now with the final function and its comment
SELECT aggfnoid = :agg_oid AS same_aggregate, aggfinalfn,
       obj_description(aggfnoid, 'pg_proc') AS comment
FROM pg_aggregate WHERE aggfnoid = 'cf_agg(anyelement, bigint)'::regprocedure;
SELECT cf_items(cf) AS items, cf @> 100 AS found FROM uc_filter;
-- the view keeps its bigint function, under the kept name; the text form,
-- which nothing used, is gone
SELECT id, n, pg_typeof(n) FROM uc_counts ORDER BY id;
SELECT pg_get_viewdef('uc_counts') LIKE '%cf_count_1_2(%' AS view_calls_kept_form;
SELECT p.oid::regprocedure AS function, p.prorettype::regtype AS returns, p.prosrc,
       obj_description(p.oid, 'pg_proc') AS comment
FROM pg_proc p WHERE p.proname IN ('cf_count', 'cf_count_1_2') ORDER BY p.oid::regprocedure::text COLLATE "C";
-- new calls: integer, for every element form
SELECT pg_typeof(cf_count(cf, 1)) AS any_form, cf_count(cf, 1) AS n,
       pg_typeof(cf_count(cf_add(cf_create(10), 'a'::text), 'a')) AS text_form,
       pg_typeof(cf_count(cf_add(cf_create(10), 'a'::"char"), 'a'::"char")) AS char_form
FROM uc_filter;
-- a view made now returns integer
CREATE VIEW uc_counts_now AS SELECT cf_count(cf, 2) AS n FROM uc_filter;
SELECT n, pg_typeof(n) FROM uc_counts_now;
-- the checks of 1.2 have planner support and estimators now
SELECT p.oid::regprocedure AS check, p.prosupport FROM pg_proc p
WHERE p.proname IN ('cf_contains', 'cf_contained') ORDER BY p.oid::regprocedure::text COLLATE "C";
SELECT o.oid::regoperator AS operator, o.oprrest, o.oprjoin FROM pg_operator o
WHERE 'cuckoofilter'::regtype IN (o.oprleft, o.oprright) AND o.oprname IN ('@>', '<@') ORDER BY o.oid::regoperator::text COLLATE "C";
DROP VIEW uc_counts, uc_counts_now, uc_filter;
DROP TABLE uc_items;

-- with nothing depending on them, 1.2's cf_count forms are gone after
-- the upgrade
DROP EXTENSION bloomfilter;
CREATE EXTENSION bloomfilter VERSION '1.2';
ALTER EXTENSION bloomfilter UPDATE TO '1.3';
SELECT p.oid::regprocedure AS function, p.prorettype::regtype AS returns
FROM pg_proc p WHERE p.proname IN ('cf_count', 'cf_count_1_2') ORDER BY p.oid::regprocedure::text COLLATE "C";
DROP EXTENSION bloomfilter;
CREATE EXTENSION bloomfilter;
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';
