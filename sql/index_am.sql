-- The bloomfilter index access method: build, insert, options, keys,
-- snapshots, the planner and VACUUM.
SET extra_float_digits = 0;

CREATE TABLE bfi (id int4, name text, region text, email text);
INSERT INTO bfi SELECT g, 'name' || g, CASE WHEN g % 3 = 0 THEN 'eu' ELSE 'us' END,
	'User' || g || '@Example.com'
FROM generate_series(1, 5000) g;
CREATE INDEX bfi_id ON bfi USING bloomfilter (id) WITH (capacity = 10000, error_rate = 0.01);

-- every key present; absent keys mostly absent (1% at capacity, half full)
SELECT count(*) FILTER (WHERE bf_index_contains('bfi_id', id)) AS found, count(*) AS keys FROM bfi;
SELECT count(*) FILTER (WHERE bf_index_contains('bfi_id', g)) < 50 AS few_false_positives
FROM generate_series(100001, 105000) g;

-- a snapshot is byte for byte the value bf_add_all makes of the same keys
SELECT bf_index_filter('bfi_id')::bytea =
	bf_add_all(bf_create(10000, 0.01), (SELECT array_agg(id) FROM bfi))::bytea AS identical;
SELECT bf_contains(bf_index_filter('bfi_id'), 42) AS snapshot_answers;

-- inserts are added, in any width of integer
INSERT INTO bfi VALUES (7000001, 'new', 'eu', 'new@example.com');
SELECT bf_index_contains('bfi_id', 7000001) AS int4_key,
	bf_index_contains('bfi_id', 7000001::int8) AS int8_key,
	bf_index_contains('bfi_id', 42::int2) AS int2_key;
SELECT bf_index_filter('bfi_id')::bytea =
	bf_add_all(bf_create(10000, 0.01), (SELECT array_agg(id) FROM bfi))::bytea AS identical_after_insert;

-- untyped literals and text parameters read as the column's type
SELECT bf_index_contains('bfi_id', '42') AS untyped, bf_index_contains('bfi_id', '42'::text) AS text_key;
PREPARE probe(text) AS SELECT bf_index_contains('bfi_id', $1);
EXECUTE probe('7000001');
EXECUTE probe('-5');
SELECT bf_index_contains('bfi_id', 'x42');
SELECT bf_index_contains('bfi_id', 42.5::float8);
SELECT bf_index_contains('bfi_id', NULL::int4) AS null_key;

-- many keys at once: the array's shape, NULL for NULL
SELECT bf_index_contains_all('bfi_id', ARRAY[1, 2, NULL, 5000]);
SELECT bf_index_contains_all('bfi_id', '{1,2,x}'::text[]);
SELECT bf_index_contains_all('bfi_id', '{1,2}');
SELECT bf_index_contains_all('bfi_id', ARRAY[[1, 2], [3, 4]]);
SELECT bf_index_contains_all('bfi_id', '{}'::int4[]);

-- NULL keys are skipped, as the aggregates skip NULL elements
CREATE TABLE bfi_null (v text);
INSERT INTO bfi_null VALUES ('a'), (NULL), ('b');
CREATE INDEX bfi_null_v ON bfi_null USING bloomfilter (v) WITH (capacity = 100);
INSERT INTO bfi_null VALUES (NULL);
SELECT bf_index_contains('bfi_null_v', 'a') AS a, bf_index_contains('bfi_null_v', 'b') AS b;
SELECT bf_index_filter('bfi_null_v') = bf_add_all(bf_create(100, 0.01), ARRAY['a', 'b']) AS nulls_skipped;

-- a partial index: one filter per predicate
CREATE INDEX bfi_eu ON bfi USING bloomfilter (id) WITH (capacity = 5000) WHERE region = 'eu';
SELECT bf_index_contains('bfi_eu', 3) AS eu_row, bf_index_contains('bfi_eu', 1) AS us_row_mostly_false;
SELECT bf_index_filter('bfi_eu') =
	bf_add_all(bf_create(5000, 0.01), (SELECT array_agg(id) FROM bfi WHERE region = 'eu')) AS partial_identical;

-- an expression index: lower(email)
CREATE INDEX bfi_email ON bfi USING bloomfilter (lower(email)) WITH (capacity = 10000);
SELECT bf_index_contains('bfi_email', 'user17@example.com') AS lowered,
	bf_index_contains('bfi_email', 'User17@Example.com') AS as_stored_mostly_false;

-- a multi-column index filters the key tuple, hashed as ROW(a, b) is
CREATE TABLE push_log (user_id int8, message_id uuid);
INSERT INTO push_log SELECT g / 10, ('00000000-0000-0000-0000-' || lpad(g::text, 12, '0'))::uuid
FROM generate_series(1, 2000) g;
CREATE INDEX push_dedup ON push_log USING bloomfilter (user_id, message_id) WITH (capacity = 4000);
SELECT bf_index_contains('push_dedup', ROW(1::int8, '00000000-0000-0000-0000-000000000010'::uuid)) AS pair,
	bf_index_contains('push_dedup', ROW(1, '00000000-0000-0000-0000-000000000010')) AS untyped_pair,
	bf_index_contains('push_dedup', ROW(2, '00000000-0000-0000-0000-000000000010')) AS other_pair_mostly_false;
SELECT bf_contains(bf_index_filter('push_dedup'), ROW(1::int8, '00000000-0000-0000-0000-000000000010'::uuid)) AS snapshot_row;
SELECT bf_index_filter('push_dedup') =
	(SELECT bf_agg(ROW(user_id, message_id), bf_create(4000, 0.01)) FROM push_log) AS multicolumn_identical;
INSERT INTO push_log VALUES (NULL, NULL), (99999, NULL);
SELECT bf_index_contains('push_dedup', ROW(99999, NULL::uuid)) AS null_column,
	bf_index_contains('push_dedup', ROW(NULL::int8, NULL::uuid)) AS all_null;
SELECT bf_index_contains('push_dedup', 1);
SELECT bf_index_contains('push_dedup', ROW(1, 2, 3));

-- sized from the table without options: twice its rows, at least 100000
CREATE INDEX bfi_auto ON bfi USING bloomfilter (name);
SELECT j->'capacity' AS capacity, j->'error_rate' AS error_rate, j->>'sized_from' AS sized_from,
	j->'options' AS options, j->'keys_at_build' AS keys, j->'columns' AS columns
FROM bf_index_info('bfi_auto') j;
SELECT j->'capacity' AS capacity, j->'nbits' AS nbits, j->'nhashes' AS nhashes, j->'bits_set' AS bits_set,
	(j->>'cardinality')::float8 BETWEEN 4900 AND 5100 AS cardinality_near_5001,
	j->'over_capacity' AS over, j->'reindex_recommended' AS reindex, j->'data_pages' AS pages,
	j->'size_bytes' AS size
FROM bf_index_info('bfi_id') j;
SELECT (bf_info(bf_index_filter('bfi_id'))->'bits_set') = (bf_index_info('bfi_id')->'bits_set') AS same_bits_set;

-- options are checked
CREATE INDEX bfi_bad ON bfi USING bloomfilter (id) WITH (error_rate = 0);
CREATE INDEX bfi_bad ON bfi USING bloomfilter (id) WITH (error_rate = 1e-11);
CREATE INDEX bfi_bad ON bfi USING bloomfilter (id) WITH (error_rate = 0.6);
ALTER INDEX bfi_id SET (error_rate = 0.6);
CREATE INDEX bfi_bad ON bfi USING bloomfilter (id) WITH (capacity = -1);
CREATE INDEX bfi_bad ON bfi USING bloomfilter (id) WITH (capacity = 'many');
-- capacity 0 is refused, as bf_create refuses it (22023 both); leaving the
-- option out sizes the filter from the table
CREATE INDEX bfi_bad ON bfi USING bloomfilter (id) WITH (capacity = 0);
ALTER INDEX bfi_id SET (capacity = 0);
\set VERBOSITY sqlstate
CREATE INDEX bfi_bad ON bfi USING bloomfilter (id) WITH (capacity = 0);
SELECT bf_create(0);
\set VERBOSITY default
-- capacity is a bigint, as bf_create's is: a filter too large is refused
-- as bf_create refuses it, past bigint the option is out of bounds
CREATE INDEX bfi_bad ON bfi USING bloomfilter (id) WITH (capacity = 3000000000);
SELECT bf_create(3000000000);
CREATE INDEX bfi_bad ON bfi USING bloomfilter (id) WITH (capacity = 9223372036854775808);
-- the forms 1.3's integer option read, read alike
CREATE INDEX bfi_1e3 ON bfi USING bloomfilter (id) WITH (capacity = 1e3);
CREATE INDEX bfi_hex ON bfi USING bloomfilter (id) WITH (capacity = '0x3e8');
SELECT j->'capacity' AS capacity, j->'options' AS options FROM bf_index_info('bfi_1e3') j
UNION ALL
SELECT j->'capacity', j->'options' FROM bf_index_info('bfi_hex') j;
DROP INDEX bfi_1e3, bfi_hex;
CREATE INDEX bfi_bad ON bfi USING bloomfilter (id) WITH (fillfactor = 50);
CREATE INDEX bfi_bad ON bfi USING bloomfilter (id) INCLUDE (name);
CREATE UNIQUE INDEX bfi_bad ON bfi USING bloomfilter (id);

-- over capacity, and stale after deletes: bf_index_info says REINDEX
CREATE TABLE bfi_small (id int4);
CREATE INDEX bfi_small_id ON bfi_small USING bloomfilter (id) WITH (capacity = 100);
INSERT INTO bfi_small SELECT generate_series(1, 1000);
SELECT j->'over_capacity' AS over, j->'reindex_recommended' AS reindex FROM bf_index_info('bfi_small_id') j;
REINDEX INDEX bfi_small_id;
SELECT j->'over_capacity' AS over, j->'keys_at_build' AS keys FROM bf_index_info('bfi_small_id') j;
-- a new capacity takes effect at the next REINDEX
ALTER INDEX bfi_small_id SET (capacity = 5000);
SELECT j->'capacity' AS capacity_until_reindex FROM bf_index_info('bfi_small_id') j;
REINDEX INDEX bfi_small_id;
SELECT j->'capacity' AS capacity, j->'over_capacity' AS over, j->'options' AS options
FROM bf_index_info('bfi_small_id') j;
-- an index made by 1.3 WITH (capacity = 0), kept as text in pg_class,
-- still means sized from the table
UPDATE pg_class SET reloptions = '{capacity=0}' WHERE oid = 'bfi_small_id'::regclass;
REINDEX INDEX bfi_small_id;
SELECT j->'capacity' AS capacity, j->>'sized_from' AS sized_from, j->'options' AS options
FROM bf_index_info('bfi_small_id') j;

-- over capacity is the filter's rate over the one it was sized for, not
-- the estimated count over the capacity: that estimate is noisy (20035 for
-- these 20000 keys), so an index built with exactly its capacity is not
-- over it, one built with twice its capacity is; the cardinality is an
-- integer, as bf_info's
CREATE TABLE bfi_full (id int8);
INSERT INTO bfi_full SELECT generate_series(1, 20000);
CREATE INDEX bfi_full_id ON bfi_full USING bloomfilter (id) WITH (capacity = 20000);
SELECT j->'cardinality' AS cardinality, (j->>'fpp')::float8 < 0.01 AS under_rate,
	j->'over_capacity' AS over, j->'reindex_recommended' AS reindex
FROM bf_index_info('bfi_full_id') j;
SELECT bf_index_info('bfi_full_id')->'cardinality' = bf_info(bf_index_filter('bfi_full_id'))->'cardinality'
	AS same_cardinality;
INSERT INTO bfi_full SELECT generate_series(20001, 40000);
REINDEX INDEX bfi_full_id;
SELECT j->'cardinality' AS cardinality, (j->>'fpp')::float8 > 0.1 AS over_ten_times,
	j->'over_capacity' AS over, j->'reindex_recommended' AS reindex
FROM bf_index_info('bfi_full_id') j;

-- REINDEX forgets deleted keys; VACUUM reports and changes nothing
DELETE FROM bfi WHERE id <= 2500;
VACUUM bfi;
SELECT bf_index_filter('bfi_id')::bytea =
	bf_add_all(bf_create(10000, 0.01), (SELECT array_agg(id) FROM bfi) || ARRAY(SELECT generate_series(1, 2500)))::bytea
	AS vacuum_kept_every_key;
SELECT relpages > 0 AS vacuum_reported_pages FROM pg_class WHERE relname = 'bfi_id';
REINDEX INDEX bfi_id;
SELECT bf_index_filter('bfi_id')::bytea =
	bf_add_all(bf_create(10000, 0.01), (SELECT array_agg(id) FROM bfi))::bytea AS reindex_forgot;
REINDEX INDEX CONCURRENTLY bfi_id;
SELECT bf_index_filter('bfi_id')::bytea =
	bf_add_all(bf_create(10000, 0.01), (SELECT array_agg(id) FROM bfi))::bytea AS reindex_concurrently_same;
DROP INDEX bfi_id;
CREATE INDEX CONCURRENTLY bfi_id ON bfi USING bloomfilter (id) WITH (capacity = 10000);
SELECT bf_index_contains('bfi_id', 4000) AS concurrently_built;

-- the planner never uses it, not even when nothing else exists
-- (the JSON plan is read for any index node, so one expected file serves
-- every version: 18 prints "Disabled" lines in text plans)
CREATE FUNCTION bfi_plan_uses_index(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) ' || q INTO plan;
	RETURN plan::text LIKE '%"Index Name"%';
END $$;
SET enable_seqscan = off;
SELECT bfi_plan_uses_index('SELECT * FROM bfi WHERE id = 42') AS point,
       bfi_plan_uses_index('SELECT * FROM bfi WHERE region = ''eu'' AND id = 42') AS partial,
       bfi_plan_uses_index('SELECT id FROM bfi ORDER BY id') AS ordered;
RESET enable_seqscan;
DROP FUNCTION bfi_plan_uses_index(text);
SELECT amname, pg_indexam_has_property(oid, 'can_order') AS can_order,
	pg_indexam_has_property(oid, 'can_unique') AS can_unique,
	pg_indexam_has_property(oid, 'can_multi_col') AS can_multi_col
FROM pg_am WHERE amname = 'bloomfilter';
SELECT amvalidate(opc.oid) AS valid, count(*) FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
WHERE am.amname = 'bloomfilter' GROUP BY 1;

-- not an index, not ours
SELECT bf_index_contains('bfi', 1);
CREATE INDEX bfi_btree ON bfi (id);
SELECT bf_index_contains('bfi_btree', 1);
SELECT bf_index_filter(0::oid::regclass);

-- types no filter can hash are refused when the index is created
CREATE TABLE bfi_json (j jsonb, f float8[]);
CREATE INDEX bfi_json_j ON bfi_json USING bloomfilter (j);
CREATE INDEX bfi_json_j ON bfi_json USING bloomfilter ((j::text));
CREATE INDEX bfi_json_f ON bfi_json USING bloomfilter (f);
CREATE INDEX bfi_json_bad ON bfi_json USING bloomfilter ((ARRAY[j]));

-- unlogged and temporary tables
CREATE UNLOGGED TABLE bfi_unlogged (id int8);
CREATE INDEX bfi_unlogged_id ON bfi_unlogged USING bloomfilter (id) WITH (capacity = 1000);
INSERT INTO bfi_unlogged SELECT generate_series(1, 100);
SELECT bf_index_contains('bfi_unlogged_id', 50) AS unlogged;
TRUNCATE bfi_unlogged;
SELECT bf_index_contains('bfi_unlogged_id', 50) AS after_truncate;
CREATE TEMP TABLE bfi_temp (id int8);
CREATE INDEX bfi_temp_id ON bfi_temp USING bloomfilter (id) WITH (capacity = 1000);
INSERT INTO bfi_temp SELECT generate_series(1, 100);
SELECT bf_index_contains('bfi_temp_id', 50) AS temp;

-- the index's definition, as pg_dump writes it
SELECT pg_get_indexdef('bfi_eu'::regclass);

-- domains hash as their base type; a typmod does not limit a probe
CREATE DOMAIN bfi_posint AS int4 CHECK (VALUE > 0);
CREATE TABLE bfi_dom (d bfi_posint, v varchar(5));
INSERT INTO bfi_dom VALUES (5, 'abc');
CREATE INDEX bfi_dom_d ON bfi_dom USING bloomfilter (d) WITH (capacity = 100);
CREATE INDEX bfi_dom_v ON bfi_dom USING bloomfilter (v) WITH (capacity = 100);
SELECT bf_index_contains('bfi_dom_d', 5) AS base_key, bf_index_contains('bfi_dom_d', 5::bfi_posint) AS domain_key,
	bf_index_contains('bfi_dom_d', '5') AS untyped, bf_index_contains('bfi_dom_d', '-5') AS outside_domain;
SELECT bf_index_contains('bfi_dom_v', 'abc') AS text_key, bf_index_contains('bfi_dom_v', 'abcdefgh') AS too_long;

-- every operator class: one value a type, found, and the snapshot as bf_add_all makes it
CREATE TYPE bfi_mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE bfi_types (
	c_int2 int2, c_int4 int4, c_int8 int8, c_numeric numeric, c_float4 float4, c_float8 float8,
	c_text text, c_varchar varchar, c_bpchar char(4), c_name name, c_char "char", c_bytea bytea,
	c_uuid uuid, c_date date, c_time time, c_timetz timetz, c_timestamp timestamp,
	c_timestamptz timestamptz, c_interval interval, c_bool bool, c_oid oid, c_money money,
	c_inet inet, c_cidr cidr, c_macaddr macaddr, c_macaddr8 macaddr8, c_bit bit(3),
	c_varbit varbit, c_pg_lsn pg_lsn, c_enum bfi_mood, c_array int4[]);
INSERT INTO bfi_types VALUES (
	1, 2, 3, 4.50, 5.5, 6.25, 'seven', 'eight', 'nine', 'ten', 'x', '\x0b0c',
	'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '2024-01-13', '14:00', '15:00+02', '2024-01-16 17:00',
	'2024-01-17 18:00+00', '19 days', true, 20, 21.50, '192.168.0.22', '10.0.0.0/8',
	'08:00:2b:01:02:23', '08:00:2b:01:02:03:04:24', B'101', B'11001', '0/25', 'happy', '{26,27}');
CREATE FUNCTION bfi_check_type(col text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	found bool;
	same bool;
BEGIN
	EXECUTE format('CREATE INDEX %I ON bfi_types USING bloomfilter (%I) WITH (capacity = 100)', 'bfi_' || col, col);
	EXECUTE format('SELECT bf_index_contains(%L, %I) FROM bfi_types', 'bfi_' || col, col) INTO found;
	EXECUTE format('SELECT bf_index_filter(%L) = bf_agg(%I, bf_create(100, 0.01)) FROM bfi_types',
				   'bfi_' || col, col) INTO same;
	RETURN format('%s: found %s, snapshot identical %s', col, found, same);
END $$;
SELECT bfi_check_type(attname) FROM pg_attribute
WHERE attrelid = 'bfi_types'::regclass AND attnum > 0 AND attname <> 'c_enum' ORDER BY attnum;
-- enums hash by their label, which ALTER TYPE ... RENAME VALUE can change
-- (and PostgreSQL does not call enum::text immutable either): no operator
-- class, refused inside arrays too
CREATE INDEX bfi_c_enum ON bfi_types USING bloomfilter (c_enum);
-- (the build runs under a restricted search_path from PostgreSQL 17 on, so
-- the message names the type differently: the SQLSTATE says it)
DO $$
BEGIN
	CREATE INDEX bfi_c_enum_arr ON bfi_types USING bloomfilter ((ARRAY[c_enum]));
EXCEPTION WHEN feature_not_supported THEN
	RAISE NOTICE 'enum array refused: %', SQLSTATE;
END $$;
-- a typed probe: a float against an integer column is compared as SQL
-- compares them (whole: that integer; fractional: absent), a timestamp
-- against a date column at midnight is that date
SELECT bf_index_contains('bfi_c_int4', (SELECT c_int4 FROM bfi_types)::float8) AS whole_float_found,
       bf_index_contains('bfi_c_int4', (SELECT c_int4 FROM bfi_types) + 0.5::float8) AS fraction_absent,
       bf_index_contains('bfi_c_date', (SELECT c_date FROM bfi_types)::timestamp) AS midnight_found,
       bf_index_contains('bfi_c_int8', (SELECT c_int8 FROM bfi_types)::text) AS text_found;
SELECT opc.opcname, opc.opcintype::regtype, opc.opcdefault FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
WHERE am.amname = 'bloomfilter' ORDER BY 1;

-- a filter reveals membership: reading one needs SELECT on the table, or
-- on the indexed columns (index_rls has the rest)
CREATE ROLE regress_bfi_reader;
CREATE ROLE regress_bfi_owner;
CREATE TABLE bfi_secret (id int4);
ALTER TABLE bfi_secret OWNER TO regress_bfi_owner;
INSERT INTO bfi_secret VALUES (1);
CREATE INDEX bfi_secret_id ON bfi_secret USING bloomfilter (id) WITH (capacity = 100);
SET ROLE regress_bfi_reader;
SELECT bf_index_contains('bfi_secret_id', 1);
SELECT bf_index_contains_all('bfi_secret_id', ARRAY[1]);
SELECT bf_index_filter('bfi_secret_id');
SELECT bf_index_info('bfi_secret_id');
RESET ROLE;
GRANT SELECT (id) ON bfi_secret TO regress_bfi_reader;
SET ROLE regress_bfi_reader;
SELECT bf_index_contains('bfi_secret_id', 1) AS column_grant_is_enough;
RESET ROLE;
GRANT SELECT ON bfi_secret TO regress_bfi_reader;
SET ROLE regress_bfi_reader;
SELECT bf_index_contains('bfi_secret_id', 1) AS with_select;
RESET ROLE;
REVOKE SELECT ON bfi_secret FROM regress_bfi_owner;
SET ROLE regress_bfi_owner;
SELECT bf_index_contains('bfi_secret_id', 1) AS owner_without_select;
RESET ROLE;
DROP TABLE bfi_secret;
DROP ROLE regress_bfi_reader;
DROP ROLE regress_bfi_owner;

-- later suites drop the extension: nothing of ours may depend on it
DROP TABLE bfi, bfi_null, push_log, bfi_small, bfi_full, bfi_json, bfi_unlogged, bfi_temp, bfi_dom, bfi_types;
DROP FUNCTION bfi_check_type(text);
DROP DOMAIN bfi_posint;
DROP TYPE bfi_mood;
