-- Filters compare equal when their bytes are equal; btree and hash
-- operator classes make DISTINCT, GROUP BY, UNION, IN and joins work.
CREATE TABLE fs AS
	SELECT g % 3 AS k, bf_add(bf_create(100), g % 3) AS bf FROM generate_series(1, 30) g;
SELECT bf_create(100) = bf_create(100) AS same, bf_create(100) = bf_create(101) AS other_shape,
       bf_add(bf_create(100), 1) = bf_create(100) AS other_bits,
       bf_add(bf_create(100), 1) <> bf_create(100) AS differ,
       bf_create(100, 0.01, 1) = bf_create(100, 0.01, 2) AS other_seed;
SELECT count(DISTINCT bf) AS distinct_filters FROM fs;
SELECT count(*) AS groups FROM (SELECT bf FROM fs GROUP BY bf) s;
SELECT count(*) AS union_rows FROM (SELECT bf FROM fs UNION SELECT bf FROM fs) s;
SELECT count(*) AS in_list FROM fs WHERE bf IN (SELECT bf_add(bf_create(100), 1));

-- hash and sort strategies agree
SET enable_hashagg = off;
SELECT count(*) AS sorted_groups FROM (SELECT bf FROM fs GROUP BY bf) s;
RESET enable_hashagg;
SET enable_mergejoin = off; SET enable_nestloop = off;
SELECT count(*) AS hash_join FROM fs a JOIN fs b ON a.bf = b.bf;
RESET enable_mergejoin; RESET enable_nestloop;
SET enable_hashjoin = off; SET enable_nestloop = off;
SELECT count(*) AS merge_join FROM fs a JOIN fs b ON a.bf = b.bf;
RESET enable_hashjoin; RESET enable_nestloop;

-- a btree index over a filter column
CREATE INDEX ON fs (bf);
SET enable_seqscan = off;
SELECT count(*) AS via_index FROM fs WHERE bf = bf_add(bf_create(100), 2);
RESET enable_seqscan;

-- the order is the bytes', total and antisymmetric
SELECT bool_and((a.bf < b.bf) = (bloomfilter_cmp(a.bf, b.bf) < 0)
            AND (a.bf <= b.bf) = (bloomfilter_cmp(a.bf, b.bf) <= 0)
            AND (a.bf > b.bf) = (bloomfilter_cmp(b.bf, a.bf) < 0)
            AND (a.bf >= b.bf) = NOT (a.bf < b.bf)
            AND bloomfilter_cmp(a.bf, b.bf) = -bloomfilter_cmp(b.bf, a.bf)
            AND (bloomfilter_cmp(a.bf, b.bf) = 0) = (a.bf::bytea = b.bf::bytea)) AS consistent
FROM fs a, fs b;
-- equal filters hash equal, whatever their storage
CREATE TABLE stored (bf bloomfilter);
INSERT INTO stored SELECT bf_agg(g, 100000) FROM generate_series(1, 1000) g;
SELECT bloomfilter_hash(s.bf) = bloomfilter_hash(bf_agg(g, 100000)) AS same_hash,
       bloomfilter_hash_extended(s.bf, 7) = bloomfilter_hash_extended(bf_agg(g, 100000), 7) AS same_hash_ext,
       s.bf = bf_agg(g, 100000) AS equal_to_fresh
FROM stored s, generate_series(1, 1000) g GROUP BY s.bf;

DROP TABLE fs, stored;
