-- What the planner estimates for checks of both types
-- (bloomfilter_support.c).  A check whose filter the planner can see (a
-- literal, a bound parameter of a custom plan, a stable expression) is
-- estimated from the column's statistics; one whose filter it cannot see
-- (a join column, a subquery's result) gets the documented default of 0.1.
-- Estimates are compared with the actual rows through EXPLAIN's JSON, as
-- booleans.

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

-- ---- cuckoo filters ----
-- The support function and estimators are bloomfilter's, which find the
-- filter by the arguments' types.  Before 1.3, a cuckoo check was
-- estimated at a function's 1/3 or an operator's 1/2 whatever the filter
-- held.

-- 20,000 requests, of which 10% name one of 5,000 members
CREATE TABLE cp_requests AS
	SELECT g AS id, CASE WHEN g % 10 = 0 THEN abs(hashint4(g)) % 5000 + 1
	                     ELSE 100000 + abs(hashint4(g)) % 1000000 END AS user_id
	FROM generate_series(1, 20000) g;
CREATE TABLE cp_members AS SELECT cf_agg(g, 5000) AS cf FROM generate_series(1, 5000) g;
ANALYZE cp_requests;
ANALYZE cp_members;
-- filters the planner sees through a stable function: the members (10%
-- of the requests), one passing 40%, one grown past its capacity (four
-- sub-filters) that does the same, one holding every request, one holding
-- nothing of the column
CREATE TABLE cp_filters (name text, cf cuckoofilter);
INSERT INTO cp_filters
	SELECT 'members', cf FROM cp_members
	UNION ALL SELECT 'some', cf_agg(user_id, 20000) FROM cp_requests WHERE id % 5 < 2
	UNION ALL SELECT 'grown', cf_agg(user_id, 1000) FROM cp_requests WHERE id % 5 < 2
	UNION ALL SELECT 'full', cf_agg(user_id, 20000) FROM cp_requests
	UNION ALL SELECT 'absent', cf_agg(-g, 20000) FROM generate_series(1, 20000) g;
SELECT name, jsonb_array_length(cf_info(cf)->'subfilters') AS subfilters, round(cf_fpp(cf)::numeric, 3) AS fpp
FROM cp_filters ORDER BY name;
CREATE FUNCTION cp_filter(text) RETURNS cuckoofilter LANGUAGE sql STABLE
	AS 'SELECT cf FROM cp_filters WHERE name = $1';

-- the plain default: the same C function without planner support (1/3),
-- against the estimate from the filter
CREATE FUNCTION cp_plain_contains(cuckoofilter, anyelement) RETURNS boolean
	AS '$libdir/bloomfilter', 'cuckoofilter_contains' LANGUAGE C IMMUTABLE STRICT;
SELECT estimated AS plain_estimate, within_2x AS plain_within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cp_plain_contains(cp_filter(''members''), r.user_id)');
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cf_contains(cp_filter(''members''), r.user_id)');
SELECT estimated AS plain_estimate, within_2x AS plain_within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cp_plain_contains(cp_filter(''absent''), r.user_id)');
-- a filter known at plan time (a stable function the planner evaluates):
-- 40% estimated at 40%, as function and operators
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cf_contains(cp_filter(''some''), r.user_id)');
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cp_filter(''some'') @> r.user_id');
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE r.user_id <@ cp_filter(''some'')');
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cf_contained(r.user_id, cp_filter(''some''))');
-- a literal, a parameter of a custom plan, and a grown filter
SELECT cf AS some_cf FROM cp_filters WHERE name = 'some' \gset
SELECT within_2x, actual FROM estimate(
	format('SELECT * FROM cp_requests r WHERE cf_contains(%L::cuckoofilter, r.user_id)', :'some_cf'));
PREPARE cp_guard(cuckoofilter) AS SELECT * FROM cp_requests r WHERE $1 @> r.user_id;
SET plan_cache_mode = force_custom_plan;
SELECT within_2x, actual FROM estimate(format('EXECUTE cp_guard(%L)', :'some_cf'));
RESET plan_cache_mode;
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cp_filter(''grown'') @> r.user_id');
-- empty, full, and with nothing of the column: at most a row, all rows,
-- and near the filter's rate (a floor under the histogram's zero)
SELECT estimated <= 1 AS empty_none, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cf_create(1000) @> r.user_id');
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cp_filter(''full'') @> r.user_id');
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cf_add_all(cf_create(100), ARRAY[-1, -2]) @> r.user_id');
SELECT estimated BETWEEN 20 AND 400 AS near_rate, actual <= 400 AS few FROM estimate(
	'SELECT * FROM cp_requests r WHERE cp_filter(''absent'') @> r.user_id');
-- a NULL filter passes nothing
SELECT estimated <= 1 AS none FROM estimate(
	'SELECT * FROM cp_requests r WHERE cf_contains(NULL::cuckoofilter, r.user_id)');
-- not known at plan time: a join column and an initplan's result get the
-- default, 0.1, here right (10% of requests are members)
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r, cp_members m WHERE m.cf @> r.user_id');
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r, cp_members m WHERE r.user_id <@ m.cf');
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cf_contains((SELECT cf FROM cp_members), r.user_id)');

-- aliases the support function has no list of: the argument types say
-- which is the filter, whatever the name or the side
CREATE FUNCTION cp_has(cuckoofilter, anyelement) RETURNS boolean
	AS '$libdir/bloomfilter', 'cuckoofilter_contains' LANGUAGE C IMMUTABLE STRICT
	SUPPORT bloomfilter_support;
CREATE FUNCTION cp_in(int, cuckoofilter) RETURNS boolean
	LANGUAGE sql IMMUTABLE STRICT AS 'SELECT cf_contains($2, $1)'
	SUPPORT bloomfilter_support;
CREATE OPERATOR &? (LEFTARG = int, RIGHTARG = cuckoofilter, FUNCTION = cp_in,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cp_has(cp_filter(''some''), r.user_id)');
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cp_in(r.user_id, cp_filter(''some''))');
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE r.user_id &? cp_filter(''some'')');
-- bloomfilter's, the filter second in a function of the user's
CREATE FUNCTION cp_bf_in(int, bloomfilter) RETURNS boolean
	LANGUAGE sql IMMUTABLE STRICT AS 'SELECT bf_contains($2, $1)'
	SUPPORT bloomfilter_support;
-- (read from a table: an aggregate in its body would be run again per row)
CREATE TABLE cp_some_bf_value AS
	SELECT bf_agg(user_id, 20000) AS bf FROM cp_requests WHERE id % 5 < 2;
CREATE FUNCTION cp_some_bf() RETURNS bloomfilter LANGUAGE sql STABLE
	AS 'SELECT bf FROM cp_some_bf_value';
SELECT within_2x, actual FROM estimate(
	'SELECT * FROM cp_requests r WHERE cp_bf_in(r.user_id, cp_some_bf())');

-- the cost of a check: a hash and two buckets, 3 operator costs (1 for
-- a comparison): 20,000 rows cost 20,000 * 2 * 0.0025 more
SELECT round((total_cost('SELECT * FROM cp_requests r WHERE cf_create(10) @> r.user_id')
            - total_cost('SELECT * FROM cp_requests r WHERE r.user_id <> 0'))::numeric, 2) AS extra_cost;

-- the estimators given what is not a check (no SQL call can give them
-- arguments; an operator can): the default (0.1), no crash, and a value
-- read only as its own type.  Over int and text, restriction and join
-- clauses; two filters; a cuckoo filter's estimator on a bloom filter
-- check, which is estimated as one (1 of 1000 rows; 10 is the histogram's
-- step).
\set VERBOSITY terse
CREATE TABLE cp_rb AS SELECT g AS i, g::text AS t FROM generate_series(1, 1000) g;
ANALYZE cp_rb;
CREATE OPERATOR ### (LEFTARG = int, RIGHTARG = int, FUNCTION = int4eq,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
CREATE OPERATOR ### (LEFTARG = text, RIGHTARG = text, FUNCTION = texteq,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
CREATE FUNCTION cp_same(cuckoofilter, bloomfilter) RETURNS boolean
	LANGUAGE plpgsql IMMUTABLE AS 'BEGIN RETURN true; END';
CREATE OPERATOR ### (LEFTARG = cuckoofilter, RIGHTARG = bloomfilter, FUNCTION = cp_same,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
CREATE OPERATOR #~> (LEFTARG = bloomfilter, RIGHTARG = anycompatible, FUNCTION = bf_contains,
	RESTRICT = bloomfilter_contsel, JOIN = bloomfilter_contjoinsel);
CREATE TABLE cp_pairs AS SELECT cf_add(cf_create(100), g) AS cf, bf_add(bf_create(100), g) AS bf
	FROM generate_series(1, 1000) g;
ANALYZE cp_pairs;
SELECT (SELECT estimated FROM estimate('SELECT * FROM cp_rb WHERE i ### 5')) AS int_restrict,
       (SELECT estimated FROM estimate('SELECT * FROM cp_rb WHERE t ### ''5''')) AS text_restrict,
       (SELECT estimated FROM estimate('SELECT * FROM cp_rb a JOIN cp_rb b ON a.i ### b.i')) AS int_join,
       (SELECT estimated FROM estimate('SELECT * FROM cp_pairs WHERE cf ### bf')) AS two_filters,
       (SELECT estimated FROM estimate('SELECT * FROM cp_rb WHERE bf_add(bf_create(100), 1) #~> i')) AS bloom_by_cuckoo_estimator;
\set VERBOSITY default

DROP OPERATOR ### (int, int);
DROP OPERATOR ### (text, text);
DROP OPERATOR ### (cuckoofilter, bloomfilter);
DROP OPERATOR #~> (bloomfilter, anycompatible);
DROP OPERATOR &? (int, cuckoofilter);
DROP TABLE cp_requests, cp_members, cp_filters, cp_rb, cp_pairs;
DROP FUNCTION cp_filter(text),
	cp_plain_contains(cuckoofilter, anyelement), cp_has(cuckoofilter, anyelement),
	cp_in(int, cuckoofilter), cp_bf_in(int, bloomfilter), cp_some_bf(), cp_same(cuckoofilter, bloomfilter);
DROP TABLE cp_some_bf_value;
DEALLOCATE cp_guard;

DROP TABLE users, requests, user_filters, some_requests, skewed;
DROP FUNCTION estimate(text), total_cost(text), some_filter();
