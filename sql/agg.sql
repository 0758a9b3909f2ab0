CREATE TABLE users AS
	SELECT g AS user_id, (g % 3) AS region, CASE WHEN g % 100 = 0 THEN NULL ELSE g END AS maybe_null
	FROM generate_series(1, 30000) g;

-- GROUP BY: every group's filter holds its own ids and (almost) nothing else
CREATE TABLE region_filters AS
	SELECT region, bf_agg(user_id, 10000, 0.01) AS bf FROM users GROUP BY region;
SELECT r.region,
       bf_capacity(r.bf), bf_nhashes(r.bf),
       (SELECT bool_and(r.bf @> u.user_id) FROM users u WHERE u.region = r.region) AS no_false_negatives,
       (SELECT count(*) FILTER (WHERE r.bf @> u.user_id) FROM users u WHERE u.region <> r.region) < 400 AS few_false_positives,
       bf_cardinality(r.bf) BETWEEN 9700 AND 10300 AS cardinality_close
FROM region_filters r ORDER BY r.region;

-- the two-argument form defaults to 1%, and equals bf_add_all over the same rows
SELECT bf_agg(user_id, 10000)::bytea = bf_agg(user_id, 10000, 0.01)::bytea AS default_rate,
       bf_agg(user_id, 10000)::bytea = bf_add_all(bf_create(10000), array_agg(user_id))::bytea AS same_as_add_all
FROM users WHERE region = 1;

-- hash aggregation and sorted aggregation agree
SET enable_hashagg = off;
CREATE TABLE region_filters_sorted AS
	SELECT region, bf_agg(user_id, 10000, 0.01) AS bf FROM users GROUP BY region;
RESET enable_hashagg;
SELECT bool_and(a.bf::bytea = b.bf::bytea) AS hash_equals_sort
FROM region_filters a JOIN region_filters_sorted b USING (region);

-- NULL elements are skipped; no rows gives NULL; all-NULL rows give an empty filter
SELECT bf_bits_set(bf_agg(maybe_null, 30000))
     = bf_bits_set(bf_agg(user_id, 30000) FILTER (WHERE user_id % 100 <> 0)) AS nulls_skipped
FROM users;
SELECT bf_agg(user_id, 10) IS NULL AS no_rows FROM users WHERE false;
SELECT bf_bits_set(bf_agg(NULL::int, 10)) AS all_null_rows FROM generate_series(1, 5);
SELECT bf_agg(user_id, NULL) FROM users;
SELECT bf_agg(user_id, 0) FROM users;
SELECT bf_agg(user_id, 100, 2) FROM users;

-- elements of other types
SELECT bf_agg(t, 100) @> 'b' AS text_agg, bf_agg(t, 100) @> 'z' AS text_absent
FROM unnest(ARRAY['a', 'b', 'c']) t;

-- as a window function: running filters
SELECT g, bf_agg(g, 100) OVER (ORDER BY g) @> 3 AS has_3,
       bf_bits_set(bf_agg(g, 100) OVER (ORDER BY g)) AS bits
FROM generate_series(1, 5) g ORDER BY g;
SELECT g, bf_agg(g, 100) OVER (ORDER BY g ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) @> (g - 1) AS has_prev,
       bf_agg(g, 100) OVER (ORDER BY g ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) @> (g - 2) AS has_prev2
FROM generate_series(1, 5) g ORDER BY g;

-- the aggregate result can be used directly by other functions
SELECT bf_contains(bf_agg(user_id, 30000), 123) AS direct_contains,
       bf_agg(user_id, 30000) @> 30001 AS direct_absent
FROM users;
SELECT count(*) - 10000 BETWEEN 0 AND 300 AS region_2_plus_few_false_positives
FROM users u
WHERE bf_contains((SELECT bf_agg(user_id, 30000) FROM users WHERE region = 2), u.user_id);

-- bf_union_agg: union of stored filters, skipping NULLs, refusing mixed shapes
SELECT bf_union_agg(bf)::bytea = (SELECT bf_agg(user_id, 10000, 0.01)::bytea FROM users) AS union_is_agg_of_all
FROM region_filters;
SELECT bool_and(u @> g) AS union_has_all
FROM (SELECT bf_union_agg(bf) u FROM (SELECT bf FROM region_filters UNION ALL SELECT NULL) s) x,
     generate_series(1, 30000) g;
SELECT bf_union_agg(bf) IS NULL AS empty_union FROM region_filters WHERE false;
SELECT bf_union_agg(f) FROM (VALUES (bf_create(10)), (bf_create(100000))) v(f);
SELECT region, bf_bits_set(bf_union_agg(bf) OVER (ORDER BY region)) > 0 AS running_union
FROM region_filters ORDER BY region;

-- the transition function refuses to run outside an aggregate
SELECT bloomfilter_agg_trans(NULL, 1, 10);

DROP TABLE users, region_filters, region_filters_sorted;
