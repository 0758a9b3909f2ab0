-- bf_index_* on a partitioned index: the answer of the whole partition tree
-- (sub-partitions and default partitions included), the parent's rights and
-- policies, answers that follow ATTACH, DETACH and DROP between executions
-- of one prepared statement, and refusals where the tree cannot be answered
-- for (docs/reference.md, "The bloomfilter index").
SET client_min_messages = warning;

CREATE TABLE pev (day int, k bigint, t text, n int) PARTITION BY RANGE (day);
CREATE TABLE pev_1 PARTITION OF pev FOR VALUES FROM (1) TO (2);
-- a sub-partitioned partition, with a default partition of its own
CREATE TABLE pev_2 PARTITION OF pev FOR VALUES FROM (2) TO (3) PARTITION BY LIST (k);
CREATE TABLE pev_2a PARTITION OF pev_2 FOR VALUES IN (2010, 2011);
CREATE TABLE pev_2d PARTITION OF pev_2 DEFAULT;
CREATE TABLE pev_def PARTITION OF pev DEFAULT;
CREATE INDEX pev_bf ON pev USING bloomfilter (k) WITH (capacity = 1000);
INSERT INTO pev SELECT 1, g, 'k' || g, g FROM generate_series(1, 100) g;
INSERT INTO pev VALUES (2, 2010, 'x', 0), (2, 500, 'y', 0), (9, 777, 'z', 0);

-- a key is present if any leaf's index says so: in pev_1, pev_2a, pev_2d, pev_def
SELECT k, bf_index_contains('pev_bf', k) FROM (VALUES (5), (2010), (500), (777)) v(k);
-- absent from every leaf (no false positive among these at this fill)
SELECT count(*) FILTER (WHERE bf_index_contains('pev_bf', k)) AS false_positives
FROM generate_series(100001, 101000) k;
-- text and untyped keys are read as the column's type, as for a plain index
SELECT bf_index_contains('pev_bf', '777'), bf_index_contains('pev_bf', 777::int2);
SELECT bf_index_contains_all('pev_bf', ARRAY[5, 2010, 500, 777, 100001, NULL]::bigint[]);
SELECT bf_index_contains_all('pev_bf', ARRAY[[5, 100002], [777, 2010]]);
SELECT bf_index_contains_all('pev_bf', '{}'::bigint[]);
-- the union of the leaves is the filter of every key, byte for byte
SELECT bf_index_filter('pev_bf') = bf_add_all(bf_create(1000, 0.01), (SELECT array_agg(k) FROM pev)) AS union_equal;
SELECT bf_index_filter('pev_bf') = bf_union(bf_union(bf_union(bf_index_filter('pev_1_k_idx'),
	bf_index_filter('pev_2a_k_idx')), bf_index_filter('pev_2d_k_idx')), bf_index_filter('pev_def_k_idx')) AS union_of_leaves;
-- bf_index_info: the leaves in bound order, and the totals
SELECT i->'partitions' AS partitions, i->'same_shape' AS same_shape, i->'options' AS options,
	   (i->>'bits_set')::int = (SELECT sum((l->>'bits_set')::int) FROM jsonb_array_elements(i->'leaves') l) AS bits_summed,
	   i->'size_bytes' AS size_bytes, i->'reindex_recommended' AS reindex,
	   (SELECT array_agg(l->>'index' || ' of ' || (l->>'table')) FROM jsonb_array_elements(i->'leaves') l) AS leaves
FROM bf_index_info('pev_bf') i;
-- a sub-tree's partitioned index answers for its own partitions only
SELECT bf_index_contains('pev_2_k_idx', 2010), bf_index_contains('pev_2_k_idx', 500),
	   bf_index_contains('pev_2_k_idx', 5);
-- and a leaf's own index for its own rows, as before
SELECT bf_index_contains('pev_1_k_idx', 5), bf_index_contains('pev_1_k_idx', 777);
-- only some partitions: their own indexes, found from the tree
SELECT bool_or(bf_index_contains(indexrelid, 777::bigint)) AS in_pev_1_or_def
FROM pg_index WHERE indexrelid IN (SELECT relid FROM pg_partition_tree('pev_bf') WHERE isleaf)
  AND indrelid IN ('pev_1'::regclass, 'pev_def'::regclass);

-- ---- a prepared statement follows ATTACH, DETACH and DROP ----
PREPARE pcheck(bigint) AS SELECT bf_index_contains('pev_bf', $1);
PREPARE pcheck_all(bigint[]) AS SELECT bf_index_contains_all('pev_bf', $1);
EXECUTE pcheck(3001);
CREATE TABLE pev_3 (day int, k bigint, t text, n int);
INSERT INTO pev_3 VALUES (3, 3001, 'a', 0);
ALTER TABLE pev DETACH PARTITION pev_def;
ALTER TABLE pev ATTACH PARTITION pev_3 FOR VALUES FROM (3) TO (4);
EXECUTE pcheck(3001);
EXECUTE pcheck_all('{3001, 777, 5}');
-- the detached default partition's key is gone from the tree
EXECUTE pcheck(777);
ALTER TABLE pev ATTACH PARTITION pev_def DEFAULT;
EXECUTE pcheck(777);
-- a partition created in place
CREATE TABLE pev_4 PARTITION OF pev FOR VALUES FROM (4) TO (5);
INSERT INTO pev VALUES (4, 4001, 'b', 0);
EXECUTE pcheck(4001);
DROP TABLE pev_3;
EXECUTE pcheck(3001);
EXECUTE pcheck_all('{3001, 777, 4001}');
-- a sub-partition detached from the middle of the tree
ALTER TABLE pev_2 DETACH PARTITION pev_2a;
EXECUTE pcheck(2010);
ALTER TABLE pev_2 ATTACH PARTITION pev_2a FOR VALUES IN (2010, 2011);
EXECUTE pcheck(2010);
-- within one transaction too, once the change is its own
BEGIN;
EXECUTE pcheck(4001);
ALTER TABLE pev DETACH PARTITION pev_4;
EXECUTE pcheck(4001);
ROLLBACK;
EXECUTE pcheck(4001);
-- REINDEX CONCURRENTLY attaches new indexes (other OIDs) to the tree
REINDEX INDEX CONCURRENTLY pev_def_k_idx;
EXECUTE pcheck(777);
REINDEX INDEX CONCURRENTLY pev_bf;
EXECUTE pcheck_all('{3001, 777, 4001}');
DEALLOCATE pcheck;
DEALLOCATE pcheck_all;

-- ---- rights: the parent's grants, column grants and policies ----
CREATE ROLE bf_part_reader;
CREATE ROLE bf_part_cols;
CREATE ROLE bf_part_leaf;
GRANT SELECT ON pev TO bf_part_reader;
GRANT SELECT (k) ON pev TO bf_part_cols;
-- SELECT on every partition but not on the parent does not read the parent's index
GRANT SELECT ON pev_1, pev_2, pev_2a, pev_2d, pev_def, pev_4 TO bf_part_leaf;
SET ROLE bf_part_reader;
SELECT bf_index_contains('pev_bf', 777);
SELECT (bf_index_info('pev_bf'))->'partitions' AS partitions;
-- a leaf's own index needs the leaf's grants, as a query on the leaf does
SELECT bf_index_contains('pev_1_k_idx', 5);
RESET ROLE;
SET ROLE bf_part_cols;
SELECT bf_index_contains('pev_bf', 777), bf_index_contains_all('pev_bf', '{5, 6}'::bigint[]);
RESET ROLE;
REVOKE SELECT (k) ON pev FROM bf_part_cols;
GRANT SELECT (t) ON pev TO bf_part_cols;
SET ROLE bf_part_cols;
SELECT bf_index_contains('pev_bf', 777);
RESET ROLE;
SET ROLE bf_part_leaf;
SELECT bf_index_contains('pev_bf', 777);
SELECT bf_index_contains('pev_1_k_idx', 5);
RESET ROLE;
-- row-level security on the parent refuses, as its policies would hide rows
ALTER TABLE pev ENABLE ROW LEVEL SECURITY;
CREATE POLICY pev_some ON pev FOR SELECT USING (day = 1);
SET ROLE bf_part_reader;
SELECT bf_index_contains('pev_bf', 777);
SELECT bf_index_filter('pev_bf') IS NULL;
RESET ROLE;
ALTER TABLE pev DISABLE ROW LEVEL SECURITY;
-- a partition's own policies do not apply through the parent (a query on
-- the parent does not apply them either), and do through the partition
ALTER TABLE pev_1 ENABLE ROW LEVEL SECURITY;
GRANT SELECT ON pev_1 TO bf_part_reader;
SET ROLE bf_part_reader;
SELECT bf_index_contains('pev_bf', 5);
SELECT bf_index_contains('pev_1_k_idx', 5);
RESET ROLE;
ALTER TABLE pev_1 DISABLE ROW LEVEL SECURITY;
-- the owner of the parent's index without SELECT on anything reads it
CREATE ROLE bf_part_owner;
ALTER TABLE pev OWNER TO bf_part_owner;
REVOKE ALL ON pev FROM bf_part_owner;
SET ROLE bf_part_owner;
SELECT bf_index_contains('pev_bf', 777);
RESET ROLE;
ALTER TABLE pev OWNER TO CURRENT_USER;

-- ---- shapes ----
-- a partition whose own index was built with another capacity, attached
-- with it: the checks answer, the union is refused naming both shapes
CREATE TABLE pev_5 (day int, k bigint, t text, n int);
INSERT INTO pev_5 VALUES (5, 5001, 'c', 0);
CREATE INDEX pev_5_bf ON pev_5 USING bloomfilter (k) WITH (capacity = 50000);
ALTER TABLE pev ATTACH PARTITION pev_5 FOR VALUES FROM (5) TO (6);
SELECT indexrelid::regclass FROM pg_index WHERE indrelid = 'pev_5'::regclass;
SELECT bf_index_contains('pev_bf', 5001), bf_index_contains('pev_bf', 777);
SELECT bf_index_contains_all('pev_bf', '{5001, 777, 100003}'::bigint[]);
SELECT bf_index_filter('pev_bf');
SELECT (bf_index_info('pev_bf'))->'same_shape' AS same_shape;
DROP TABLE pev_5;
SELECT bf_index_filter('pev_bf') = bf_add_all(bf_create(1000, 0.01), (SELECT array_agg(k) FROM pev)) AS union_equal;

-- ---- multi-column, expression and partial indexes ----
CREATE INDEX pev_kt_bf ON pev USING bloomfilter (k, t) WITH (capacity = 1000);
SELECT bf_index_contains('pev_kt_bf', ROW(777, 'z')), bf_index_contains('pev_kt_bf', ROW(777, 'zz')),
	   bf_index_contains('pev_kt_bf', ROW(2010::int8, 'x'::text));
SELECT bf_index_contains('pev_kt_bf', 777);
SELECT bf_index_contains_all('pev_kt_bf', ARRAY[ROW(5, 'k5'), ROW(5, 'k6')]);
CREATE INDEX pev_lower_bf ON pev USING bloomfilter (lower(t)) WITH (capacity = 1000);
SELECT bf_index_contains('pev_lower_bf', 'k5'), bf_index_contains('pev_lower_bf', 'K5');
CREATE INDEX pev_partial_bf ON pev USING bloomfilter (k) WITH (capacity = 1000) WHERE n > 50;
SELECT bf_index_contains('pev_partial_bf', 60), bf_index_contains('pev_partial_bf', 40);
-- rights to an expression's or a predicate's columns are the parent's too
GRANT SELECT (k) ON pev TO bf_part_cols;
SET ROLE bf_part_cols;
SELECT bf_index_contains('pev_bf', 5);
SELECT bf_index_contains('pev_partial_bf', 60);
RESET ROLE;

-- ---- what cannot be answered for ----
-- a partitioned index some partition has no index attached to is not valid
CREATE TABLE pinv (k int) PARTITION BY LIST (k);
CREATE TABLE pinv_1 PARTITION OF pinv FOR VALUES IN (1);
CREATE INDEX pinv_bf ON ONLY pinv USING bloomfilter (k);
SELECT bf_index_contains('pinv_bf', 1);
CREATE INDEX pinv_1_bf ON pinv_1 USING bloomfilter (k);
ALTER INDEX pinv_bf ATTACH PARTITION pinv_1_bf;
INSERT INTO pinv VALUES (1);
SELECT bf_index_contains('pinv_bf', 1), bf_index_contains('pinv_bf', 2);
-- a foreign table partition has no index: no filter holds its rows
CREATE FOREIGN DATA WRAPPER bf_part_fdw;
CREATE SERVER bf_part_server FOREIGN DATA WRAPPER bf_part_fdw;
CREATE FOREIGN TABLE pinv_2 PARTITION OF pinv FOR VALUES IN (2) SERVER bf_part_server;
SELECT bf_index_contains('pinv_bf', 1);
DROP FOREIGN TABLE pinv_2;
SELECT bf_index_contains('pinv_bf', 1);
-- a partitioned table without partitions holds no keys; its filter has no shape
CREATE TABLE pempty (k int) PARTITION BY LIST (k);
CREATE INDEX pempty_bf ON pempty USING bloomfilter (k);
SELECT bf_index_contains('pempty_bf', 1), bf_index_contains_all('pempty_bf', '{1,NULL}'::int[]);
SELECT (bf_index_info('pempty_bf'))->'partitions' AS partitions;
SELECT bf_index_filter('pempty_bf');
-- another access method's partitioned index
CREATE INDEX pempty_btree ON pempty (k);
SELECT bf_index_contains('pempty_btree', 1);

DROP TABLE pev, pinv, pempty;
DROP SERVER bf_part_server;
DROP FOREIGN DATA WRAPPER bf_part_fdw;
DROP ROLE bf_part_reader, bf_part_cols, bf_part_leaf, bf_part_owner;
