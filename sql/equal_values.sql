-- New filters (hash id 2): values SQL calls equal hash equal.
SELECT get_byte(bf_create(10)::bytea, 6) AS new_hash_id, bf_info(bf_create(10))->>'hash' AS hash;

-- numeric: the scale does not matter; whole numbers match the integers
SELECT bf_add(bf_create(100), 1.0::numeric) @> 1.00::numeric AS scale,
       bf_add(bf_create(100), 1.50::numeric) @> 1.5::numeric AS trailing_zero,
       bf_add(bf_create(100), 2::numeric) @> 2 AS numeric_as_int4,
       bf_add(bf_create(100), 2) @> 2.000::numeric AS int4_as_numeric,
       bf_add(bf_create(100), -0.0::numeric) @> 0 AS numeric_zero,
       bf_add(bf_create(100), 'NaN'::numeric) @> 'NaN'::numeric AS numeric_nan,
       bf_add(bf_create(100), 'Infinity'::numeric) @> 'Infinity'::numeric AS numeric_inf,
       bf_add(bf_create(100), 123456789012345678901234567890.10::numeric)
         @> 123456789012345678901234567890.1::numeric AS beyond_int8,
       bf_add(bf_create(100), 1.5::numeric) @> 1.6::numeric AS other_value;

-- floats: signed zeros, every NaN, float4 widened to float8
SELECT bf_add(bf_create(100), 0.0::float8) @> '-0'::float8 AS signed_zero,
       bf_add(bf_create(100), '-0'::float4) @> 0 AS float4_zero_as_int,
       bf_add(bf_create(100), 'NaN'::float8) @> ('Infinity'::float8 - 'Infinity'::float8) AS computed_nan,
       bf_add(bf_create(100), 'NaN'::float4) @> 'NaN'::float8 AS float4_nan,
       bf_add(bf_create(100), 2.5::float4) @> 2.5::float8 AS float4_as_float8,
       bf_add(bf_create(100), 3.0::float8) @> 3 AS whole_float_as_int,
       bf_add(bf_create(100), '-Infinity'::float8) @> '-Infinity'::float4 AS minus_inf,
       bf_add(bf_create(100), 0.1::float8) @> 0.1::float4 AS different_values;
SELECT 0.1::float8 = 0.1::float4 AS sql_agrees_they_differ;

-- intervals compare by their total length (a month is 30 days)
SELECT bf_add(bf_create(100), '1 day'::interval) @> '24 hours'::interval AS day_hours,
       bf_add(bf_create(100), '1 month'::interval) @> '30 days'::interval AS month_days,
       bf_add(bf_create(100), '1 day'::interval) @> '25 hours'::interval AS different;

-- inet and cidr: a cidr cast to inet equals the same inet
SELECT bf_add(bf_create(100), '10.0.0.0/8'::cidr::inet) @> '10.0.0.0/8'::inet AS cidr_as_inet,
       bf_add(bf_create(100), '192.168.1.5'::inet) @> '192.168.1.5/32'::inet AS host;

-- inside arrays and records the same rules hold
SELECT bf_add(bf_create(100), ARRAY[1.0, 2.50]) @> ARRAY[1.00, 2.5] AS numeric_array,
       bf_add(bf_create(100), ARRAY[1, 2]) @> ARRAY[1::int8, 2::int8] AS int_array_widths,
       bf_add(bf_create(100), ARRAY[1, NULL]) @> ARRAY[1, NULL] AS array_null,
       bf_add(bf_create(100), ARRAY[1, 2]) @> ARRAY[2, 1] AS order_matters,
       bf_add(bf_create(100), '[0:1]={1,2}'::int[]) @> ARRAY[1, 2] AS bounds_matter,
       bf_add(bf_create(100), ROW(1.0, 'x'::text)) @> ROW(1.00, 'x'::text) AS record,
       bf_add(bf_create(100), ROW(1, NULL::text)) @> ROW(1, NULL::text) AS record_null;
SELECT '[0:1]={1,2}'::int[] = ARRAY[1, 2] AS sql_agrees_bounds_matter;

-- every other common type, and enums by label (in filters made by 1.2:
-- new filters refuse enum keys, sql/typed.sql)
CREATE TYPE mood AS enum ('happy', 'café');
SELECT bf_add(overlay(bf_add(bf_create(100), 0)::bytea placing '\x00' from 13)::bloomfilter,
              'café'::mood) @> 'café'::mood AS enum,
       bf_add(bf_create(100), true) @> true AS bool,
       bf_add(bf_create(100), '2024-02-29'::date) @> '2024-02-29'::date AS date,
       bf_add(bf_create(100), '2024-02-29 12:00+00'::timestamptz) @> '2024-02-29 13:00+01'::timestamptz AS timestamptz,
       bf_add(bf_create(100), '12:00'::time) @> '12:00:00'::time AS time,
       bf_add(bf_create(100), 12.5::money) @> 12.50::money AS money,
       bf_add(bf_create(100), '08:00:2b:01:02:03'::macaddr) @> '08-00-2b-01-02-03'::macaddr AS macaddr,
       bf_add(bf_create(100), B'101') @> B'101' AS bit;

-- a numeric column built with bf_agg finds every member at any scale
CREATE TABLE prices AS SELECT (g / 4.0)::numeric(12, 2) AS price FROM generate_series(1, 4000) g;
CREATE TABLE price_filter AS SELECT bf_agg(price, 4000) AS bf FROM prices;
SELECT count(*) AS members, count(*) FILTER (WHERE f.bf @> trim_scale(p.price)) AS found_trimmed,
       count(*) FILTER (WHERE f.bf @> p.price::numeric(20, 6)) AS found_rescaled
FROM prices p, price_filter f;
-- a float is not looked up among numeric keys (SQL compares them as float8,
-- which maps many numerics to one float: no one form fits): 42804
SELECT count(*) FILTER (WHERE f.bf @> p.price::float8) AS found_as_float
FROM prices p, price_filter f;
-- whole prices match integers, the others (fractions of quarters) floats
SELECT count(*) FILTER (WHERE f.bf @> g) AS whole_prices_as_int
FROM generate_series(1, 1000) g, price_filter f;

-- pinned: the canonical bytes of hash id 2 are a contract too
SELECT md5(bf_add_all(bf_create(100, 0.01), ARRAY[1.5, 2, 2.25]::numeric[])::bytea) AS numeric_pinned,
       md5(bf_add_all(bf_create(100, 0.01), ARRAY[0.5, -1e300, 'NaN'])::bytea) AS float_pinned,
       md5(bf_add(bf_create(100, 0.01), ROW(1, 'x'::text, ARRAY[2.0]))::bytea) AS record_pinned,
       md5(bf_add(bf_create(100, 0.01), '1 mon 2 days 3 hours'::interval)::bytea) AS interval_pinned;

-- types whose equal values have more than one form are refused, not hashed wrongly
SELECT bf_add(bf_create(100), '{"a": 1.0}'::jsonb);
SELECT bf_add(bf_create(100), int4range(1, 3));
SELECT bf_contains(bf_create(100), '{"a": 1}'::json);
SELECT bf_agg(x, 10) FROM (VALUES ('{}'::jsonb)) v(x);
\set VERBOSITY sqlstate
SELECT bf_add(bf_create(100), '{"a": 1.0}'::jsonb);
\set VERBOSITY default

-- and so is text under a nondeterministic collation
CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT bf_add(bf_create(100), 'ABC' COLLATE ci);
SELECT bf_add(bf_create(100), ARRAY['ABC' COLLATE ci]);
SELECT bf_add(bf_create(100), 'ABC' COLLATE "C") @> 'ABC' AS deterministic_is_fine;

DROP TABLE prices, price_filter;
DROP TYPE mood;
DROP COLLATION ci;
