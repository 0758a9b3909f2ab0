-- Upgrading 1.3 to 1.4 with objects that use what 1.4 moves or renames.
-- The per-type overloads of bf_agg and cf_agg move to the companion
-- extension bloomfilter_citus: those that objects use are kept as
-- bf_agg_1_3 and cf_agg_1_3 (their transition functions as
-- bloomfilter_agg_trans_1_3 and cuckoofilter_agg_trans_1_3), the others
-- go.  cf_delete, cf_delete_all, cf_merge and cf_items become deprecated
-- aliases of cf_remove, cf_remove_all, cf_union and cf_cardinality.
-- Every object keeps its answers, byte for byte; new calls reach the
-- polymorphic aggregates, or bloomfilter_citus's overloads once installed.
DROP EXTENSION bloomfilter;
CREATE EXTENSION bloomfilter VERSION '1.3';
CREATE TABLE uk_rows AS
	SELECT g::int8 AS k8, g::int4 AS k4, 'key-' || g AS t, md5(g::text)::uuid AS u,
		   g / 7.0 AS n, date '2024-01-01' + g AS d
	FROM generate_series(1, 1000) g;

-- on 1.3 these calls reach the per-type overloads: every form of bf_agg,
-- both of cf_agg
CREATE VIEW uk_bf AS
	SELECT bf_agg(k8, 1000, 0.01) AS sized, bf_agg(t, 1000) AS at_1pct,
		   bf_agg(u, bf_create(1000, 0.001)) AS template, bf_agg(k4) AS scalable
	FROM uk_rows;
CREATE VIEW uk_cf AS SELECT cf_agg(k8, 1000, 0.01) AS sized, cf_agg(t, 1000) AS at_1pct FROM uk_rows;
-- a function body (BEGIN ATOMIC records what it calls)
CREATE FUNCTION uk_numeric_filter() RETURNS bloomfilter LANGUAGE sql
BEGIN ATOMIC
	SELECT bf_agg(n, 1000, 0.01) FROM uk_rows;
END;
-- an aggregate of the user's own over a per-type transition function
CREATE AGGREGATE uk_date_agg(date, bigint, float8) (
	SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter, FINALFUNC = bloomfilter_agg_final,
	COMBINEFUNC = bf_union, PARALLEL = SAFE);
CREATE VIEW uk_date AS SELECT uk_date_agg(d, 1000, 0.01) AS f FROM uk_rows;
-- the cuckoofilter names that 1.4 deprecates, beside those it keeps
CREATE VIEW uk_names AS
	SELECT cf_merge(a, b) AS merged, cf_union(a, b) AS unioned, a | b AS piped,
		   cf_delete(a, 5::int8) AS deleted, cf_remove(a, 5::int8) AS removed,
		   cf_delete_all(a, ARRAY[6, 7]::int8[]) AS deleted_all, cf_items(a) AS items
	FROM (SELECT cf_agg(k8, 1000, 0.01) AS a, cf_agg(k8 + 1000, 1000, 0.01) AS b FROM uk_rows) s;

SELECT 'bf_agg(bigint,bigint,double precision)'::regprocedure::oid AS sized_oid \gset
CREATE TABLE uk_before AS
	SELECT (SELECT md5(row(sized, at_1pct, template, scalable)::text) FROM uk_bf) AS bf,
		   (SELECT md5(row(sized, at_1pct)::text) FROM uk_cf) AS cf,
		   md5(uk_numeric_filter()::text) AS fn,
		   (SELECT md5(f::text) FROM uk_date) AS own_agg,
		   (SELECT md5(row(merged, unioned, piped, deleted, removed, deleted_all, items)::text) FROM uk_names) AS names;

ALTER EXTENSION bloomfilter UPDATE TO '1.4';

-- every object answers as before
SELECT (SELECT md5(row(sized, at_1pct, template, scalable)::text) FROM uk_bf) = bf AS views_bf,
	   (SELECT md5(row(sized, at_1pct)::text) FROM uk_cf) = cf AS views_cf,
	   md5(uk_numeric_filter()::text) = fn AS function_body,
	   (SELECT md5(f::text) FROM uk_date) = own_agg AS own_aggregate,
	   (SELECT md5(row(merged, unioned, piped, deleted, removed, deleted_all, items)::text) FROM uk_names) = names AS cuckoo_names
FROM uk_before;
-- the kept forms: the same aggregate, renamed; only those in use
SELECT 'bf_agg_1_3(bigint,bigint,double precision)'::regprocedure::oid = :sized_oid AS same_aggregate;
SELECT p.oid::regprocedure AS kept, obj_description(p.oid, 'pg_proc') AS comment
FROM pg_proc p
WHERE p.proname IN ('bf_agg_1_3', 'cf_agg_1_3', 'bloomfilter_agg_trans_1_3', 'cuckoofilter_agg_trans_1_3')
ORDER BY p.oid::regprocedure::text COLLATE "C";
SELECT string_agg(m[1], ', ' ORDER BY n) AS view_calls
FROM regexp_matches(pg_get_viewdef('uk_bf'), '(bf_[a-z0-9_]+)\(', 'g') WITH ORDINALITY AS x(m, n);
-- no per-type overload is left under the names bf_agg and cf_agg
SELECT p.oid::regprocedure AS aggregate FROM pg_proc p
WHERE p.proname IN ('bf_agg', 'cf_agg') ORDER BY p.oid::regprocedure::text COLLATE "C";

-- new calls reach the polymorphic aggregates, with the same bytes
CREATE VIEW uk_new AS SELECT bf_agg(k8, 1000, 0.01) AS f FROM uk_rows;
SELECT d.refobjid::regprocedure AS new_view_calls
FROM pg_depend d JOIN pg_rewrite w ON w.oid = d.objid
WHERE w.ev_class = 'uk_new'::regclass AND d.refclassid = 'pg_proc'::regclass;
SELECT (SELECT f FROM uk_new) = (SELECT sized FROM uk_bf) AS same_bytes;
DROP VIEW uk_new;

-- bloomfilter_citus installs beside the kept forms; new calls reach its
-- overloads, with the same bytes
CREATE EXTENSION bloomfilter_citus;
CREATE VIEW uk_new AS SELECT bf_agg(k8, 1000, 0.01) AS f, cf_agg(t, 1000) AS c FROM uk_rows;
SELECT d.refobjid::regprocedure AS new_view_calls, e.extname AS member_of
FROM pg_depend d JOIN pg_rewrite w ON w.oid = d.objid
JOIN pg_depend m ON m.objid = d.refobjid AND m.classid = 'pg_proc'::regclass AND m.deptype = 'e'
JOIN pg_extension e ON e.oid = m.refobjid
WHERE w.ev_class = 'uk_new'::regclass AND d.refclassid = 'pg_proc'::regclass
ORDER BY d.refobjid::regprocedure::text COLLATE "C";
SELECT (SELECT f FROM uk_new) = (SELECT sized FROM uk_bf) AS same_bloom_bytes,
	   (SELECT c FROM uk_new)::bytea = (SELECT at_1pct FROM uk_cf)::bytea AS same_cuckoo_bytes;
DROP VIEW uk_new;

-- cuckoofilter names: cf_agg combines with cf_union and | calls it, as in
-- a fresh install; the view that called cf_union now shows cf_merge, the
-- same function under the name the two swapped
SELECT DISTINCT a.aggcombinefn FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
WHERE p.proname IN ('cf_agg', 'cf_agg_1_3');
SELECT o.oprcode FROM pg_operator o WHERE o.oprname = '|' AND o.oprleft = 'cuckoofilter'::regtype;
SELECT p.oid::regprocedure AS function, p.prosrc, obj_description(p.oid, 'pg_proc') AS comment
FROM pg_proc p
WHERE p.proname IN ('cf_union', 'cf_merge', 'cf_remove', 'cf_remove_1_3', 'cf_delete', 'cf_delete_1_3', 'cf_remove_all',
					'cf_delete_all', 'cf_cardinality', 'cf_items')
ORDER BY p.oid::regprocedure::text COLLATE "C";
SELECT string_agg(m[1], ', ' ORDER BY n) AS view_calls
FROM regexp_matches(pg_get_viewdef('uk_names'), '(cf_[a-z0-9_]+)\(', 'g') WITH ORDINALITY AS x(m, n);

-- with the objects gone, DROP EXTENSION takes the kept forms with it
DROP VIEW uk_bf, uk_cf, uk_date, uk_names;
DROP AGGREGATE uk_date_agg(date, bigint, float8);
DROP FUNCTION uk_numeric_filter();
DROP TABLE uk_rows, uk_before;
DROP EXTENSION bloomfilter_citus;
DROP EXTENSION bloomfilter;
SELECT count(*) AS left_behind FROM pg_proc WHERE proname LIKE '%\_1\_3';

-- with nothing depending on them, the per-type overloads are gone after
-- the upgrade
CREATE EXTENSION bloomfilter VERSION '1.3';
ALTER EXTENSION bloomfilter UPDATE TO '1.4';
SELECT p.proname, count(*) AS forms FROM pg_proc p
WHERE p.proname IN ('bf_agg', 'cf_agg', 'bloomfilter_agg_trans', 'cuckoofilter_agg_trans')
   OR p.proname LIKE '%\_1\_3'
GROUP BY 1 ORDER BY 1;
DROP EXTENSION bloomfilter;

-- 1.4 to 1.5: bf_create gains a layout argument.  Objects that call the
-- 1.4 form (a view, a column default) keep it as bf_create_1_4, answering
-- as before; new calls reach the new form, with the same bytes.
CREATE EXTENSION bloomfilter VERSION '1.4';
CREATE VIEW uk_create AS SELECT bf_create(1000, 0.001, key_type => 'bigint') AS f;
CREATE TABLE uk_default (id int, f bloomfilter DEFAULT bf_create(100));
INSERT INTO uk_default (id) VALUES (1);
CREATE TABLE uk_before AS SELECT (SELECT md5(f::text) FROM uk_create) AS v;
ALTER EXTENSION bloomfilter UPDATE TO '1.5';
INSERT INTO uk_default (id) VALUES (2);
SELECT (SELECT md5(f::text) FROM uk_create) = v AS view_same,
       (SELECT count(DISTINCT f) FROM uk_default) AS one_default_value
FROM uk_before;
SELECT p.oid::regprocedure AS function FROM pg_proc p WHERE p.proname LIKE 'bf\_create%' ORDER BY p.oid::regprocedure::text COLLATE "C";
SELECT pg_get_viewdef('uk_create') LIKE '%bf_create_1_4(%' AS view_keeps_1_4;
SELECT bf_create(1000, 0.001, key_type => 'bigint') = (SELECT f FROM uk_create) AS new_form_same_bytes;
-- the kept form is no longer a member of the extension, so that pg_dump
-- writes it for the objects that use it (test/hardening/upgrade_dump_restore.sh)
SELECT p.oid::regprocedure AS kept, p.probin, p.prosrc,
	   EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e') AS member
FROM pg_proc p WHERE p.proname = 'bf_create_1_4';
DROP VIEW uk_create;
DROP TABLE uk_default, uk_before;
-- so it outlives the extension unless dropped first (or with CASCADE)
DROP EXTENSION bloomfilter;
DROP FUNCTION bf_create_1_4(bigint, float8, bigint, boolean, integer, regtype);
DROP EXTENSION bloomfilter;
SELECT count(*) AS left_behind FROM pg_proc WHERE proname = 'bf_create_1_4';
-- with nothing depending on it, the 1.4 form is gone after the upgrade
CREATE EXTENSION bloomfilter VERSION '1.4';
ALTER EXTENSION bloomfilter UPDATE TO '1.5';
SELECT p.oid::regprocedure AS function FROM pg_proc p WHERE p.proname LIKE 'bf\_create%' ORDER BY p.oid::regprocedure::text COLLATE "C";
DROP EXTENSION bloomfilter;

-- 1.4 to 1.5: cuckoofilter's planner support and estimators, the same C
-- functions as bloomfilter's under other names, go; the checks and
-- operators name bloomfilter's, and a user's objects that name one keep it
CREATE EXTENSION bloomfilter VERSION '1.4';
CREATE FUNCTION uk_cf_has(cuckoofilter, int8) RETURNS boolean
	LANGUAGE sql IMMUTABLE STRICT AS 'SELECT cf_contains($1, $2)'
	SUPPORT cuckoofilter_support;
CREATE FUNCTION uk_cf_in(int8, cuckoofilter) RETURNS boolean
	LANGUAGE sql IMMUTABLE STRICT AS 'SELECT cf_contains($2, $1)';
CREATE OPERATOR &? (LEFTARG = int8, RIGHTARG = cuckoofilter, FUNCTION = uk_cf_in,
	RESTRICT = cuckoofilter_contsel, JOIN = cuckoofilter_contjoinsel);
ALTER EXTENSION bloomfilter UPDATE TO '1.5';
SELECT p.oid::regprocedure AS kept FROM pg_proc p WHERE p.proname LIKE 'cuckoofilter\_cont%' OR p.proname = 'cuckoofilter_support'
ORDER BY p.oid::regprocedure::text COLLATE "C";
SELECT o.oid::regoperator AS operator, o.oprrest, o.oprjoin FROM pg_operator o
WHERE 'cuckoofilter'::regtype IN (o.oprleft, o.oprright) AND o.oprrest <> 0
ORDER BY o.oid::regoperator::text COLLATE "C";
SELECT p.oid::regprocedure AS function, p.prosupport FROM pg_proc p
WHERE p.prosupport <> 0 AND p.proname LIKE '%cf%' ORDER BY p.oid::regprocedure::text COLLATE "C";
SELECT uk_cf_has(cf_add(cf_create(100), 7::int8), 7) AS has, 7::int8 &? cf_add(cf_create(100), 7::int8) AS op;
SELECT p.oid::regprocedure AS kept,
	   EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e') AS member
FROM pg_proc p WHERE p.proname LIKE 'cuckoofilter\_cont%' OR p.proname = 'cuckoofilter_support'
ORDER BY p.oid::regprocedure::text COLLATE "C";
DROP OPERATOR &? (int8, cuckoofilter);
DROP FUNCTION uk_cf_has(cuckoofilter, int8), uk_cf_in(int8, cuckoofilter);
DROP FUNCTION cuckoofilter_support(internal), cuckoofilter_contsel(internal, oid, internal, int4),
	cuckoofilter_contjoinsel(internal, oid, internal, int2, internal);
DROP EXTENSION bloomfilter;
-- with nothing naming them, they are gone
CREATE EXTENSION bloomfilter VERSION '1.4';
ALTER EXTENSION bloomfilter UPDATE TO '1.5';
SELECT count(*) AS cuckoofilter_estimators FROM pg_proc WHERE proname IN ('cuckoofilter_support', 'cuckoofilter_contsel', 'cuckoofilter_contjoinsel');
DROP EXTENSION bloomfilter;
CREATE EXTENSION bloomfilter;
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';
