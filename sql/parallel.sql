-- bf_agg and bf_union_agg in forced parallel plans: partial states are
-- flattened bloomfilters, combined with bf_union
CREATE TABLE par AS SELECT g AS id, g % 4 AS grp FROM generate_series(1, 200000) g;
ANALYZE par;
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

SELECT plan_is_parallel('SELECT bf_agg(id, 200000, 0.01) FROM par') AS agg_parallel;
SELECT plan_is_parallel('SELECT grp, bf_agg(id, 50000) FROM par GROUP BY grp') AS grouped_parallel;

CREATE TABLE par_result AS SELECT bf_agg(id, 200000, 0.01) AS bf FROM par;
ANALYZE par_result;
CREATE TABLE par_grouped AS SELECT grp, bf_agg(id, 50000) AS bf FROM par GROUP BY grp;

RESET max_parallel_workers_per_gather;
SET max_parallel_workers_per_gather = 0;
SELECT plan_is_parallel('SELECT bf_agg(id, 200000, 0.01) FROM par') AS serial_now;
CREATE TABLE serial_result AS SELECT bf_agg(id, 200000, 0.01) AS bf FROM par;
CREATE TABLE serial_grouped AS SELECT grp, bf_agg(id, 50000) AS bf FROM par GROUP BY grp;

-- parallel and serial builds are byte-identical: the combine step loses nothing
SELECT (SELECT bf::bytea FROM par_result) = (SELECT bf::bytea FROM serial_result) AS same_filter;
SELECT bool_and(p.bf::bytea = s.bf::bytea) AS same_groups
FROM par_grouped p JOIN serial_grouped s USING (grp);
SELECT bool_and(r.bf @> p.id) AS no_false_negatives FROM par_result r, par p;

-- bf_union_agg in parallel
SET max_parallel_workers_per_gather = 2;
CREATE TABLE many AS SELECT g AS n, bf_add(bf_create(1000), g) AS bf FROM generate_series(1, 2000) g;
ANALYZE many;
SELECT plan_is_parallel('SELECT bf_union_agg(bf) FROM many') AS union_parallel;
SELECT bool_and(u @> g) AS union_has_all
FROM (SELECT bf_union_agg(bf) AS u FROM many) s, generate_series(1, 2000) g;

-- probing in parallel: each worker answers from its own copy
SELECT plan_is_parallel('SELECT count(*) FROM par p WHERE bf_contains((SELECT bf FROM par_result), p.id)') AS probe_parallel;
SELECT count(*) AS found FROM par p WHERE bf_contains((SELECT bf FROM par_result), p.id);
SELECT count(*) AS found_by_join FROM par p, par_result r WHERE r.bf @> p.id;

-- bf_agg(id, bf_shape(template)) (sql/ordered_template.sql): unordered, it
-- runs partial as the template form does, and gives its bytes; ordered
-- (what the shape is for), never partial
SET max_parallel_workers_per_gather = 2;
SELECT plan_is_parallel('SELECT bf_agg(id, bf_shape(bf_create(200000, 0.01))) FROM par') AS shape_parallel;
SELECT (SELECT bf_agg(id, bf_shape(bf_create(200000, 0.01))) FROM par)::bytea
	   = (SELECT bf FROM serial_result)::bytea AS shape_same;
SELECT plan_is_parallel('SELECT bf_agg(id, bf_shape(bf_create(200000, 0.01)) ORDER BY id) FROM par') AS shape_ordered_parallel;

RESET ALL;
DROP TABLE par, par_result, par_grouped, serial_result, serial_grouped, many;
DROP FUNCTION plan_is_parallel(text);
