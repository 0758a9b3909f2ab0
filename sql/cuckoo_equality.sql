-- cuckoofilter compares as bloomfilter does: equal when the bytes are;
-- btree and hash operator classes make DISTINCT, GROUP BY, UNION, IN,
-- joins, btree indexes and REPLICA IDENTITY FULL work.
CREATE TABLE cfs AS
	SELECT g AS id, g % 3 AS k, cf_add(cf_create(100), g % 3) AS cf FROM generate_series(1, 30) g;
SELECT cf_create(100) = cf_create(100) AS same, cf_create(100) = cf_create(101) AS other_shape,
       cf_add(cf_create(100), 1) = cf_create(100) AS other_entries,
       cf_add(cf_create(100), 1) <> cf_create(100) AS differ,
       cf_create(100, 0.01, 11) = cf_create(100, 0.01, 12) AS other_seed,
       cf_delete(cf_add(cf_create(100), 1), 1) = cf_create(100) AS untyped_vs_typed,
       cf_delete(cf_add(cf_create(100), 1), 1) = cf_create(100, key_type => 'integer') AS added_and_deleted;
SELECT count(DISTINCT cf) AS distinct_filters FROM cfs;
SELECT count(*) AS groups FROM (SELECT cf FROM cfs GROUP BY cf) s;
SELECT count(*) AS union_rows FROM (SELECT cf FROM cfs UNION SELECT cf FROM cfs) s;
SELECT count(*) AS in_list FROM cfs WHERE cf IN (SELECT cf_add(cf_create(100), 1));

-- hash and sort strategies agree
SET enable_hashagg = off;
SELECT count(*) AS sorted_groups FROM (SELECT cf FROM cfs GROUP BY cf) s;
SELECT cf_items(cf) AS sorted_distinct FROM (SELECT DISTINCT cf FROM cfs) s;
RESET enable_hashagg;
SET enable_mergejoin = off; SET enable_nestloop = off;
SELECT count(*) AS hash_join FROM cfs a JOIN cfs b ON a.cf = b.cf;
RESET enable_mergejoin; RESET enable_nestloop;
SET enable_hashjoin = off; SET enable_nestloop = off;
SELECT count(*) AS merge_join FROM cfs a JOIN cfs b ON a.cf = b.cf;
RESET enable_hashjoin; RESET enable_nestloop;

-- a btree index over a filter column
CREATE INDEX ON cfs (cf);
SET enable_seqscan = off;
SELECT count(*) AS via_index FROM cfs WHERE cf = cf_add(cf_create(100), 2);
RESET enable_seqscan;

-- the order is the bytes', total and antisymmetric
SELECT bool_and((a.cf < b.cf) = (cuckoofilter_cmp(a.cf, b.cf) < 0)
            AND (a.cf <= b.cf) = (cuckoofilter_cmp(a.cf, b.cf) <= 0)
            AND (a.cf > b.cf) = (cuckoofilter_cmp(b.cf, a.cf) < 0)
            AND (a.cf >= b.cf) = NOT (a.cf < b.cf)
            AND cuckoofilter_cmp(a.cf, b.cf) = -cuckoofilter_cmp(b.cf, a.cf)
            AND (cuckoofilter_cmp(a.cf, b.cf) = 0) = (a.cf::bytea = b.cf::bytea)) AS consistent
FROM cfs a, cfs b;

-- equal filters hash equal, whatever their storage (out of line here)
CREATE TABLE cf_stored (cf cuckoofilter);
INSERT INTO cf_stored SELECT cf_agg(g, 100000) FROM generate_series(1, 1000) g;
SELECT octet_length(cf::bytea) > 8192 AS out_of_line FROM cf_stored;
SELECT cuckoofilter_hash(s.cf) = cuckoofilter_hash(cf_add_all(cf_create(100000), array_agg(g))) AS same_hash,
       cuckoofilter_hash_extended(s.cf, 7) = cuckoofilter_hash_extended(cf_add_all(cf_create(100000), array_agg(g)), 7) AS same_hash_ext,
       s.cf = cf_add_all(cf_create(100000), array_agg(g)) AS equal_to_fresh
FROM cf_stored s, generate_series(1, 1000) g GROUP BY s.cf;

-- whole rows compare through the type's default equality, as the apply
-- side of logical replication finds a row of a REPLICA IDENTITY FULL table
SELECT count(*) AS equal_rows FROM cfs a, cfs b WHERE a = b;
SELECT count(*) AS equal_records FROM cfs a, cfs b WHERE (a.k, a.cf) = (b.k, b.cf);
SELECT o.oprname, o.oprcanhash, o.oprcanmerge
FROM pg_operator o
WHERE o.oprleft = 'cuckoofilter'::regtype AND o.oprright = 'cuckoofilter'::regtype
  AND o.oprresult = 'boolean'::regtype
ORDER BY 1;
SELECT am.amname, oc.opcname, oc.opcdefault
FROM pg_opclass oc JOIN pg_am am ON am.oid = oc.opcmethod
WHERE oc.opcintype = 'cuckoofilter'::regtype ORDER BY 1;

DROP TABLE cfs, cf_stored;
