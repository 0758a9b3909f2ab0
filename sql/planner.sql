-- What the planner estimates for checks (bloomfilter_support.c).  A check
-- whose filter the planner can see (a literal, a bound parameter of a
-- custom plan, a stable expression) is estimated from the column's
-- statistics; one whose filter it cannot see (a join column, a subquery's
-- result) gets the documented default of 0.1.  Estimates are compared with
-- the actual rows through EXPLAIN's JSON, as booleans.

-- the README's guard: 20,000 users in 4 regions, one filter per region,
-- 20,000 requests of which 10% name an existing user of their region
CREATE TABLE users AS
	SELECT g AS user_id, g % 4 AS region FROM generate_series(1, 20000) g;
CREATE TABLE requests AS
	SELECT g AS id, g % 4 AS region,
	       CASE WHEN g % 10 = 0
	            THEN (abs(hashint4(g)) % 5000) * 4 + g % 4	-- an existing user of the region
	            ELSE 100000 + abs(hashint4(g)) % 1000000 END AS user_id
	FROM generate_series(1, 20000) g;
UPDATE requests SET user_id = user_id + 4 WHERE user_id = 0;
CREATE TABLE user_filters AS
	SELECT region, bf_agg(user_id, 20000, 0.01) AS bf FROM users GROUP BY region;
ANALYZE users;
ANALYZE requests;
ANALYZE user_filters;

-- estimated and actual rows of the top plan node, and whether they are within 2x
CREATE FUNCTION estimate(query text, OUT estimated bigint, OUT actual bigint, OUT within_2x boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS, TIMING OFF, FORMAT JSON) ' || query INTO plan;
	estimated := (plan->0->'Plan'->>'Plan Rows')::bigint;
	-- numeric first: 18 reports actual rows with two decimals (per loop)
	actual := round((plan->0->'Plan'->>'Actual Rows')::numeric);
	within_2x := estimated <= 2 * greatest(actual, 1) AND actual <= 2 * greatest(estimated, 1);
END $$;

-- the guard query, join form: the filter is unknown at plan time (0.1)
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM requests r JOIN user_filters f ON f.region = r.region WHERE bf_contains(f.bf, r.user_id)');
-- the same with the operators
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM requests r JOIN user_filters f ON f.region = r.region WHERE f.bf @> r.user_id');
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM requests r JOIN user_filters f ON f.region = r.region WHERE r.user_id <@ f.bf');
-- the scalar subquery form: an initplan's result, unknown too
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM requests r WHERE bf_contains((SELECT bf_union_agg(bf) FROM user_filters), r.user_id)');

-- a filter known at plan time (here a stable function the planner
-- evaluates) is asked about the column's statistics: a filter that passes
-- 40% of the requests is estimated at 40%, which the default could not do
CREATE TABLE some_requests AS
	SELECT bf_agg(user_id, 20000, 0.01) AS bf FROM requests WHERE id % 5 < 2;
CREATE FUNCTION some_filter() RETURNS bloomfilter LANGUAGE sql STABLE
	AS 'SELECT bf FROM some_requests';
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM requests r WHERE bf_contains(some_filter(), r.user_id)');
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM requests r WHERE some_filter() @> r.user_id');
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM requests r WHERE r.user_id <@ some_filter()');
-- a constant (a literal, or a parameter of a custom plan)
SELECT bf AS some_bf FROM some_requests \gset
SELECT within_2x, actual FROM estimate(
	format('SELECT * FROM requests r WHERE bf_contains(%L::bloomfilter, r.user_id)', :'some_bf'));
PREPARE guard(bloomfilter) AS SELECT * FROM requests r WHERE bf_contains($1, r.user_id);
SET plan_cache_mode = force_custom_plan;
SELECT within_2x, actual FROM estimate(format('EXECUTE guard(%L)', :'some_bf'));
RESET plan_cache_mode;
-- a filter that passes almost nothing: estimated near its false-positive
-- rate, not at the default
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM requests r WHERE bf_contains(bf_add_all(bf_create(20000), ARRAY[-1, -2]), r.user_id)');
-- the most common values are checked one by one
CREATE TABLE skewed AS
	SELECT CASE WHEN g % 2 = 0 THEN 7 ELSE g END AS v FROM generate_series(1, 20000) g;
ANALYZE skewed;
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM skewed WHERE bf_contains(bf_add_all(bf_create(1000), ARRAY[7]), v)');
-- a NULL filter passes nothing
SELECT estimated <= 1 AS none FROM estimate(
	'SELECT * FROM requests r WHERE bf_contains(NULL::bloomfilter, r.user_id)');

-- the cost of a check: a hash and one cache line, 2 operator costs (the
-- 1 of a plain C function before): 20,000 rows cost 20,000 * 0.0025 more
-- than with a comparison
CREATE FUNCTION total_cost(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
	RETURN (plan->0->'Plan'->>'Total Cost')::float8;
END $$;
SELECT round((total_cost('SELECT * FROM requests r WHERE bf_create(10) @> r.user_id')
            - total_cost('SELECT * FROM requests r WHERE r.user_id <> 0'))::numeric, 2) AS extra_cost;

DROP TABLE users, requests, user_filters, some_requests, skewed;
DROP FUNCTION estimate(text), total_cost(text), some_filter();
