-- Layout 4, "hashes": an unsized bf_agg's partial state, as it leaves a
-- worker (its transition function alone, as Citus's worker_partial_agg runs
-- it), with as many cells as hashes.  Every function answers on it.
CREATE AGGREGATE bf_agg_state(int) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter);
CREATE TABLE lists AS
SELECT (SELECT bf_agg_state(g) FROM generate_series(1, 100) g) AS a,
       (SELECT bf_agg_state(g) FROM generate_series(51, 120) g) AS b;
SELECT get_byte(a::bytea, 5) AS layout_id, bf_info(a)->>'layout' AS layout,
       bf_capacity(a) AS cells, bf_bits_set(a) AS hashes, bf_nbits(a) AS nbits, bf_nhashes(a) AS k,
       bf_error_rate(a) AS rate, bf_cardinality(a) AS cardinality, bf_fpp(a) < 1e-30 AS fpp_nil,
       bf_info(a)->'expansion' AS expansion, bf_info(a)->'hashes' AS info_hashes,
       length(a::bytea) AS bytes
FROM lists;
-- exact answers: members, and no others
SELECT (SELECT bool_and(a @> g) FROM generate_series(1, 100) g) AS members,
       (SELECT bool_or(a @> g) FROM generate_series(101, 10000) g) AS any_other,
       bf_contains(a, 7), bf_contains(a, 700), bf_count(a, 7), bf_count(a, 700),
       bf_contains_all(a, ARRAY[1, 100, 101, NULL]) AS contains_all
FROM lists;
-- adds append (and grow); a union of two lists is a list of both
SELECT bf_contains(bf_add(a, 5000), 5000) AS added, bf_info(bf_add(a, 5000))->>'layout' AS layout,
       bf_bits_set(bf_add_all(a, ARRAY(SELECT generate_series(1001, 2000)))) AS after_add_all,
       bf_info(a | b)->>'layout' AS union_layout, bf_bits_set(a | b) AS union_hashes,
       (SELECT bool_and((a | b) @> g) FROM generate_series(1, 120) g) AS union_members
FROM lists;
-- a list and a filter: the hashes added to the filter, whichever side
SELECT bf_info(a | f)->>'layout' AS layout, (a | f)::bytea = (f | a)::bytea AS commutes,
       (a | f)::bytea = bf_add_all(f, ARRAY(SELECT generate_series(1, 100)))::bytea AS as_bf_add_all,
       bf_info(a | s)->>'layout' AS with_scalable
FROM lists, (SELECT bf_create(1000, 0.01) AS f, bf_create(1000, 0.01, expansion => 2) AS s) c;
SELECT bf_create(1000, 0.01, seed => 5) | a FROM lists;
SELECT bf_intersect(a, b) FROM lists;
SELECT bf_remove(a, 1) FROM lists;
-- finished: a scalable filter sized for the distinct count (1,000 at least)
SELECT bf_info(f)->>'layout' AS layout, bf_capacity(f) AS capacity, bf_info(f)->>'items' AS items,
       (SELECT bool_and(f @> g) FROM generate_series(1, 120) g) AS members
FROM (SELECT bf_union_agg(x) AS f FROM (SELECT a FROM lists UNION ALL SELECT b FROM lists) s(x)) s;
SELECT bf_info(bloomfilter_agg_final(a))->>'layout' AS final_layout, bf_info(bf_agg(g, a))->>'layout' AS as_template
FROM lists, generate_series(1, 3) g GROUP BY a;
-- forms: text and binary round trips, equality
SELECT a::text::bloomfilter = a AS text_round_trip, a::bytea::bloomfilter = a AS bytea_round_trip,
       a = b AS a_eq_b, a = a AS a_eq_a
FROM lists;
-- every field checked on input
CREATE TABLE good AS SELECT a::bytea AS v, bf_add(a, 5000)::bytea AS spare FROM lists;
SELECT overlay(v placing '\x01' from 8 for 1)::bloomfilter FROM good;       -- k must be 0
SELECT overlay(v placing '\x00' from 49 for 1)::bloomfilter FROM good;      -- expansion 0
SELECT overlay(v placing '\x01' from 53 for 1)::bloomfilter FROM good;      -- reserved
SELECT bf_capacity(spare::bloomfilter) AS cells, bf_bits_set(spare::bloomfilter) AS hashes FROM good;
SELECT overlay(spare placing '\x01' from length(spare) for 1)::bloomfilter FROM good;   -- a free cell not zero
SELECT overlay(v placing '\x01' from 25 for 1)::bloomfilter FROM good;      -- capacity is the cells
SELECT overlay(v placing '\xff' from 41 for 1)::bloomfilter FROM good;      -- more hashes than cells
SELECT substr(v, 1, length(v) - 16)::bloomfilter FROM good;                -- length
DROP TABLE lists, good;
DROP AGGREGATE bf_agg_state(int);
