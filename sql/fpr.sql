-- The promise at capacity: no false negatives, and a measured false-positive
-- rate no higher than requested (100k added, 100k non-members probed).
CREATE TABLE fpr_filters AS
	SELECT p AS rate, bf_agg(g::bigint, 100000, p) AS bf
	FROM (VALUES (0.01::float8), (0.001)) r(p), generate_series(1, 100000) g
	GROUP BY p;

SELECT rate,
       (SELECT count(*) FROM generate_series(1, 100000) g WHERE NOT f.bf @> g::bigint) AS false_negatives,
       (SELECT count(*) FROM generate_series(100001, 200000) g WHERE f.bf @> g::bigint) / 100000.0 <= rate AS within_rate,
       abs(bf_cardinality(f.bf) - 100000) < 2000 AS cardinality_close,
       bf_fpp(f.bf) <= rate AS estimated_within_rate
FROM fpr_filters f ORDER BY rate;

-- text keys, probed with keys that were never added
SELECT (SELECT count(*) FROM generate_series(1, 100000) g WHERE NOT bf @> ('user-' || g)) AS false_negatives,
       (SELECT count(*) FROM generate_series(1, 100000) g WHERE bf @> ('visitor-' || g)) <= 1000 AS within_rate
FROM (SELECT bf_agg('user-' || g, 100000, 0.01) AS bf FROM generate_series(1, 100000) g) s;

DROP TABLE fpr_filters;
