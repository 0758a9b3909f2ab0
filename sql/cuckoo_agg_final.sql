-- cf_agg's final function (cuckoofilter_agg_final): the result is handed
-- over flat, in the executor's memory, whatever form the state took (a
-- grown state is an expanded object), and the state is left as it was.
-- Every form of cf_agg has it; the result is the bytes of the same adds
-- one by one wherever it goes: a table, two uses in one query, a window,
-- a parallel plan's combined states.

SELECT count(*) AS forms, count(*) FILTER (WHERE a.aggfinalfn = 'cuckoofilter_agg_final'::regproc) AS with_final,
       bool_and(a.aggfinalmodify = 'r') AS read_only
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid WHERE p.proname = 'cf_agg';

-- 3,000 rows into filters sized for 50: every group's state grows
CREATE TABLE af_rows AS SELECT g % 3 AS grp, g AS x FROM generate_series(1, 3000) g;
ANALYZE af_rows;
CREATE TABLE af_built AS
	SELECT grp, cf_add_all(cf_create(50, 0.01, 0), array_agg(x ORDER BY x)) AS cf FROM af_rows GROUP BY grp;

-- stored into a table, by CREATE TABLE AS and INSERT ... SELECT
CREATE TABLE af_stored AS SELECT grp, cf_agg(x, 50, 0.01 ORDER BY x) AS cf FROM af_rows GROUP BY grp;
INSERT INTO af_stored SELECT grp + 10, cf_agg(x, 50 ORDER BY x) FROM af_rows GROUP BY grp;
SELECT s.grp, s.cf::bytea = b.cf::bytea AS same_bytes, jsonb_array_length(cf_info(s.cf)->'subfilters') > 1 AS grew
FROM af_stored s JOIN af_built b ON b.grp = s.grp % 10 ORDER BY s.grp;

-- one result used twice in a query: read, copied and changed by cf_add,
-- which leaves the result itself as it was
SELECT cf_items(f) AS items, cf_items(cf_add(f, -1)) AS items_after_add, cf_items(f) AS items_again,
       f::bytea = (SELECT cf::bytea FROM af_built WHERE grp = 1) AS same_bytes,
       f @> 1 AND NOT f @> -1 AS answers
FROM (SELECT cf_agg(x, 50, 0.01 ORDER BY x) AS f FROM af_rows WHERE grp = 1) s;
SELECT count(*) FILTER (WHERE NOT f @> r.x) AS members_missed
FROM (SELECT cf_agg(x, 50, 0.01) AS f FROM af_rows WHERE grp = 2) s, af_rows r WHERE r.grp = 2;

-- a running window: the final function is called after every row while
-- the state goes on growing; each row keeps its own value, through a sort
-- that holds them all
SELECT bool_and(cf_items(cf) = n) AS each_row_its_own, count(*) AS rows
FROM (SELECT row_number() OVER w AS n, cf_agg(x, 50, 0.01) OVER w AS cf
      FROM af_rows WHERE grp = 0 WINDOW w AS (ORDER BY x)) s;
SELECT bool_and(w.cf::bytea = cf_add_all(cf_create(50, 0.01, 0), ARRAY(SELECT g FROM generate_series(3, w.x, 3) g))::bytea)
	AS window_agrees
FROM (SELECT x, cf_agg(x, 50, 0.01) OVER (ORDER BY x) AS cf FROM af_rows WHERE grp = 0 ORDER BY x DESC) w
WHERE w.x % 300 = 0;

-- a parallel plan: partial states that grew, combined, then finished
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CREATE FUNCTION af_parallel(query text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
	RETURN jsonb_path_exists(plan, 'strict $.**."Partial Mode" ? (@ == "Partial")');
END $$;
SELECT af_parallel('SELECT cf_agg(x, 50, 0.01) FROM af_rows') AS parallel;
CREATE TABLE af_parallel_result AS SELECT cf_agg(x, 50, 0.01) AS cf FROM af_rows;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
SELECT cf_items(cf) AS items, (SELECT count(*) FROM af_rows WHERE NOT cf @> x) AS members_missed
FROM af_parallel_result;

-- called on its own: a copy of any value, NULL for NULL
SELECT cuckoofilter_agg_final(cf)::bytea = cf::bytea AS same_bytes FROM af_built WHERE grp = 0;
SELECT cuckoofilter_agg_final(NULL) IS NULL AS null_in_null_out;
-- and an empty group still gives NULL
SELECT cf_agg(x, 50) IS NULL AS no_rows FROM af_rows WHERE false;

DROP FUNCTION af_parallel(text);
DROP TABLE af_rows, af_built, af_stored, af_parallel_result;
