-- cf_agg in forced parallel plans: partial states are flat cuckoofilters,
-- combined with cf_merge (re-inserting each entry at its own buckets)
CREATE TABLE cpar AS SELECT g AS id, g % 4 AS grp FROM generate_series(1, 200000) g;
ANALYZE cpar;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;

CREATE FUNCTION plan_is_parallel(query text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
	RETURN jsonb_path_exists(plan, 'strict $.**."Node Type" ? (@ == "Gather" || @ == "Gather Merge")')
	   AND jsonb_path_exists(plan, 'strict $.**."Partial Mode" ? (@ == "Partial")');
END $$;

SELECT plan_is_parallel('SELECT cf_agg(id, 200000, 0.01) FROM cpar') AS agg_parallel;
SELECT plan_is_parallel('SELECT grp, cf_agg(id, 50000) FROM cpar GROUP BY grp') AS grouped_parallel;
CREATE TABLE cpar_result AS SELECT cf_agg(id, 200000, 0.01) AS f FROM cpar;
CREATE TABLE cpar_grouped AS SELECT grp, cf_agg(id, 50000) AS f FROM cpar GROUP BY grp;

SET max_parallel_workers_per_gather = 0;
SELECT plan_is_parallel('SELECT cf_agg(id, 200000, 0.01) FROM cpar') AS serial_now;
CREATE TABLE cserial_result AS SELECT cf_agg(id, 200000, 0.01) AS f FROM cpar;
CREATE TABLE cserial_grouped AS SELECT grp, cf_agg(id, 50000) AS f FROM cpar GROUP BY grp;

-- parallel and serial builds hold the same entries: the same answers for
-- members and non-members alike (bytes differ: kicks depend on order)
SELECT cf_items(p.f) AS items, cf_items(p.f) = cf_items(s.f) AS same_items,
       (SELECT count(*) FROM generate_series(1, 400000) g WHERE (p.f @> g) <> (s.f @> g)) AS answers_differing
FROM cpar_result p, cserial_result s;
SELECT bool_and(cf_items(p.f) = cf_items(s.f)) AS same_group_items,
       sum((SELECT count(*) FROM generate_series(1, 400000) g WHERE (p.f @> g) <> (s.f @> g))) AS group_answers_differing
FROM cpar_grouped p JOIN cserial_grouped s USING (grp);
SELECT count(*) FILTER (WHERE NOT r.f @> p.id) AS false_negatives FROM cpar_result r, cpar p;

-- probing in parallel
SET max_parallel_workers_per_gather = 2;
SELECT plan_is_parallel('SELECT count(*) FROM cpar p WHERE cf_contains((SELECT f FROM cpar_result), p.id)') AS probe_parallel;
SELECT count(*) AS found FROM cpar p WHERE cf_contains((SELECT f FROM cpar_result), p.id);
SELECT count(*) AS found_by_join FROM cpar p, cpar_result r WHERE r.f @> p.id;

RESET ALL;
DROP TABLE cpar, cpar_result, cpar_grouped, cserial_result, cserial_grouped;
DROP FUNCTION plan_is_parallel(text);
