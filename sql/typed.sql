-- Typed keys: a filter records the type of its keys, and a value of another
-- type is converted as SQL compares the two, or refused (42804): the answer
-- never depends on which overload the parser picked.
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- ---- the header: key type from the first add, or given at creation ----
SELECT bf_key_type(bf_create(10)) AS empty, bf_key_type(bf_add(bf_create(10), 1::int8)) AS first_add,
       bf_key_type(bf_create(10, key_type => 'bigint')) AS given,
       bf_key_type(bf_create(10, 0.01, counting => true, key_type => 'int4')) AS counting,
       bf_key_type(bf_create(10, 0.01, expansion => 2, key_type => 'uuid')) AS scalable,
       bf_key_type(bf_add_all(bf_create(10), ARRAY['a', 'b'])) AS add_all,
       cf_key_type(cf_add(cf_create(10), 1.5)) AS cuckoo,
       cf_key_type(cf_create(10, key_type => 'date')) AS cuckoo_given;
-- domains by their base type, arrays by their element's, rows as record
CREATE DOMAIN posint AS int CHECK (VALUE > 0);
CREATE TYPE pair AS (a int, b text);
SELECT bf_key_type(bf_add(bf_create(10), 5::posint)) AS domain,
       bf_key_type(bf_add(bf_create(10), ARRAY[5::posint])) AS array_of_domain,
       bf_key_type(bf_add(bf_create(10), ROW(1, 'x')::pair)) AS composite,
       bf_key_type(bf_add(bf_create(10), ROW(1, 'x'))) AS record,
       bf_key_type(bf_add(bf_create(10), 'x')) AS literal;
-- bf_info and cf_info show it; NULL while untyped
SELECT bf_info(bf_add(bf_create(10), 1::int8))->'key_type' AS typed,
       bf_info(bf_create(10))->'key_type' AS untyped,
       cf_info(cf_add(cf_create(10), 'x'::text))->'key_type' AS cuckoo;
-- the bytes: header bytes 12..15 (cuckoo 40..43) hold the type's OID, little-endian
SELECT encode(substring(bf_add(bf_create(10), 1::int8)::bytea from 1 for 48), 'hex') AS header,
       md5(bf_add(bf_create(10), 1::int8)::bytea) AS pinned,
       encode(substring(cf_add(cf_create(10), 1::int8)::bytea from 41 for 8), 'hex') AS cuckoo_40_47;
-- the first key's type stays: later adds of other integer widths convert
SELECT bf_key_type(bf_add(bf_add(bf_create(10), 1), 2::int8)) AS stays_integer;
-- a value whose key type is not one filters hash is refused on input (1.3
-- took any OID below 10000, and bf_info of one that is no type failed with
-- XX000; io_errors.sql has the rule)
SELECT overlay(bf_add(bf_create(10), 1)::bytea placing '\x0f27' from 13 for 2)::bloomfilter AS f;
-- a filter of hash id 1 (made by 1.1) hashes elements of other types by
-- their send output, untyped: the first one records only a key type input
-- accepts (1.3 recorded jsonb here, making a value no dump could restore)
SELECT bf_key_type(f) AS jsonb_key, f::text::bloomfilter = f AS restorable,
       f @> '{"a": 1}'::jsonb AS found
FROM (SELECT bf_add(overlay(bf_create(10)::bytea placing '\x01' from 7 for 1)::bloomfilter,
                    '{"a": 1}'::jsonb) AS f) s;
SELECT bf_key_type(bf_add(overlay(bf_create(10)::bytea placing '\x01' from 7 for 1)::bloomfilter,
                          1::int8)) AS int8_key;
-- binary COPY keeps the key type
CREATE TABLE typed_copy AS SELECT bf_add(bf_create(10), 1::int8) AS f, cf_add(cf_create(10), 'x'::text) AS c;
\copy typed_copy TO 'results/typed.bin' WITH (FORMAT binary)
CREATE TABLE typed_copy2 (f bloomfilter, c cuckoofilter);
\copy typed_copy2 FROM 'results/typed.bin' WITH (FORMAT binary)
SELECT a.f = b.f AS same_filter, bf_key_type(b.f), cf_key_type(b.c)
FROM typed_copy a, typed_copy2 b;

-- ---- item 2: untyped parameters and literals read as the key type ----
CREATE TABLE user_filters AS
	SELECT 'us'::text AS region, bf_agg(g::int8, 100000, 0.01) AS bf,
	       cf_agg(g::int8, 1000) FILTER (WHERE g <= 1000) AS cf
	FROM generate_series(1, 100000) g;
PREPARE q AS SELECT bf_contains(bf, $1) FROM user_filters WHERE region = $2;
SELECT parameter_types FROM pg_prepared_statements WHERE name = 'q';
EXECUTE q(5, 'us');
EXECUTE q('5', 'us');
-- every member found through the text overload
PREPARE q_all AS SELECT count(*) FILTER (WHERE bf_contains(f.bf, g::text)) AS found,
                        count(*) FILTER (WHERE f.bf @> g::text) AS found_op,
                        count(*) FILTER (WHERE g::text <@ f.bf) AS found_contained
	FROM user_filters f, generate_series(1, 100000) g WHERE f.region = $1;
EXECUTE q_all('us');
PREPARE q_op AS SELECT bf @> $1 AS contains, $1 <@ bf AS contained, bf_count(bf, $1) AS count,
                       cf @> $1 AS cf_contains, cf_contains(cf, $1) AS cf_fn, cf_count(cf, $1) AS cf_count
	FROM user_filters;
EXECUTE q_op(5);
EXECUTE q_op(100001);
-- invalid text raises what the key type's input raises, as col = 'abc' does
EXECUTE q_op('abc');
-- adds, removals and deletes convert too
PREPARE q_add AS SELECT bf_add(bf_create(100, key_type => 'int8'), $1) @> 5::int8 AS added,
                        bf_remove(bf_add(bf_create(100, 0.01, counting => true, key_type => 'int8'), 5), $1) @> 5 AS removed,
                        bf_add_all(bf_create(100, key_type => 'int8'), ARRAY[$1]) @> 5 AS added_all;
EXECUTE q_add('5');
-- cf_delete of '5' deletes 5's entry, not another element's
PREPARE q_del AS SELECT cf_count(cf_delete(cf, $1), 5) AS five_left,
                        (SELECT count(*) FROM generate_series(1, 1000) g
                         WHERE cf_delete(u.cf, $1) @> g::int8) AS members_left
	FROM user_filters u;
EXECUTE q_del('5');
-- the array forms convert each element
SELECT cf_count(cf_delete_all(cf_add_all(cf_create(10, key_type => 'int8'), ARRAY[1, 2]), ARRAY['1', '7']), 1) AS cf_deleted,
       cf_count(cf_add_all(cf_create(10, key_type => 'int8'), ARRAY['1', '1']), 1::int2) AS cf_added,
       bf_remove_all(bf_add_all(bf_create(10, 0.01, counting => true), ARRAY[1, 2]), ARRAY['1', '3']::text[]) @> 1 AS removed;
-- bf_contains_all with text of numbers
SELECT bf_contains_all(bf, ARRAY['5', '99999', NULL, '100001']) FROM user_filters;
SELECT bf_contains_all(bf, ARRAY['5', 'x']) FROM user_filters;
-- uuid and numeric keys arriving as text
SELECT bf_add(bf_create(10), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid)
         @> 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::text AS uuid_text,
       bf_add(bf_create(10), 1.50::numeric) @> '1.5'::text AS numeric_text,
       bf_add(bf_create(10), 2.0::numeric) @> '2'::text AS numeric_whole_text,
       cf_add(cf_create(10), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid)
         @> '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}' AS cuckoo_uuid_braces;
-- bf_shard: an untyped key needs its type, as a cast or as key_type
PREPARE q_shard AS SELECT bf_shard($1, 8, 'bigint') = bf_shard(5::int8, 8) AS same_shard;
EXECUTE q_shard('5');
PREPARE q_shard_untyped AS SELECT bf_shard($1, 8);
EXECUTE q_shard_untyped('5');
SELECT bf_shard(5::int4, 8, 'bigint') = bf_shard(5::int8, 8) AS int_family,
       bf_shard(5.0, 8, 'bigint') = bf_shard(5::int8, 8) AS whole_numeric,
       bf_shard(5.5, 8, 'bigint') AS no_key_shard_0;
-- aggregates: a template gives the type, rows of another type convert
SELECT bf_agg(g::text, bf_create(100, key_type => 'int8')) @> 7 AS text_rows_into_int8,
       bf_key_type(bf_agg(g)) AS agg_type, bf_key_type(bf_agg(g::int2, 100)) AS concrete_overload,
       cf_key_type(cf_agg(g::numeric, 100)) AS cf_agg_type
FROM generate_series(1, 10) g;

-- ---- cross-type conversions (sql/equality_matrix.sql has the whole matrix) ----
-- an add that converts to no key is an error; a probe is simply absent
SELECT bf_add(bf_create(10, key_type => 'date'), '2024-01-01 10:00'::timestamp);
SELECT bf_add(bf_create(10, key_type => 'int8'), 2.5);
SELECT bf_add(bf_create(10, key_type => 'date'), '2024-01-01 00:00'::timestamp) @> '2024-01-01'::date AS midnight,
       bf_add(bf_create(10, key_type => 'int8'), 2.0) @> 2 AS whole_numeric,
       bf_add(bf_create(10), 2::int8) @> 2.5 AS fraction_absent,
       bf_add(bf_create(10), 2::int4) @> 9223372036854775807 AS beyond_int4_absent;
-- no conversion: 42804, never a silent absent
SELECT bf_add(bf_create(10), 1::int8) @> 'a'::bytea;
SELECT bf_add(bf_create(10), 'x'::text) @> 5;
SELECT bf_add(bf_create(10), ROW(1, 'x')) @> '(1,x)'::text;
SELECT cf_add(cf_create(10), '2024-01-01'::date) @> '2024-01-01'::timestamptz;

-- ---- values made by 1.2: untyped, answering as before ----
-- a 1.2 filter of the bigints 1..5 (key type bytes zero)
CREATE TABLE legacy AS SELECT
	'QkxNRgEBAgIAAAAAAAAAAAACAAAAAAAACgAAAAAAAAB7FK5H4XqEPwoAAAAAAAAAAAAAAAAAAAAAhAgAAAAAAAIAAAgAAAAAAAAAAAAAAAAAAAAACCAAAAAAAAAAAAIAAAAIAAAAAAAAAAAAAIAAAA=='::bloomfilter AS bf;
SELECT bf_key_type(bf) AS key_type, bf @> 5 AS int_found, bf @> '5'::text AS text_as_in_1_2,
       bf_add(bf, 6::int8) @> '6' AS still_legacy_after_add
FROM legacy;
SELECT bf_set_key_type(bf, 'bigint') @> '5'::text AS text_now_found,
       bf_key_type(bf_set_key_type(bf, 'bigint')) AS key_type
FROM legacy;
-- a typed filter changes only among the integer types
SELECT bf_key_type(bf_set_key_type(bf_set_key_type(bf, 'bigint'), 'int4')) AS int_family FROM legacy;
SELECT bf_set_key_type(bf_set_key_type(bf, 'bigint'), 'text') FROM legacy;
SELECT bf_set_key_type(bf, 'jsonb') FROM legacy;
SELECT c @> '5'::text AS cuckoo_as_in_1_2, cf_set_key_type(c, 'bigint') @> '5'::text AS cuckoo_now_found,
       cf_key_type(c) AS untyped
FROM (SELECT overlay(cf_add(cf_create(10), 5::int8)::bytea placing '\x00' from 41 for 1)::cuckoofilter AS c) s;
SELECT cf_set_key_type(cf_add(cf_create(10), 1), 'date');
-- a filter of hash id 1 (made by 1.0 or 1.1) with a key type converts text
-- and integers only: it hashes other types by their binary output
CREATE TABLE id1 AS SELECT bf_add_all(overlay(bf_create(100)::bytea placing '\x01' from 7 for 1)::bloomfilter,
									  ARRAY[1, 2, 3]) AS f;
SELECT bf_info(f)->'hash_id' AS hash_id, bf_key_type(f), f @> '2'::text AS text_read, f @> 2::int8 AS int8
FROM id1;
SELECT f @> 2.0 FROM id1;
DROP TABLE id1;
-- combining: typed with empty takes the type, typed with 1.2 gives 1.2's
SELECT bf_key_type(bf_add(bf_create(100), 1::int8) | bf_create(100)) AS with_empty,
       bf_key_type(bf_create(100) | bf_add(bf_create(100), 1::int8)) AS empty_first,
       bf_key_type(bf_add(bf_create(10), 1::int8) | bf) AS with_legacy,
       (bf_add(bf_create(10), 1::int8) | bf) @> '5'::text AS legacy_answers,
       bf_key_type(bf_add(bf_create(1000), 1::int8) & bf_add(bf_create(1000), 2::int8)) AS intersect
FROM legacy;
SELECT bf_add(bf_create(100), 1::int8) | bf_add(bf_create(100), 'x'::text);
SELECT cf_key_type(cf_merge(cf_add(cf_create(10), 1), cf_create(10))) AS merged;
SELECT cf_merge(cf_add(cf_create(10), 1), cf_add(cf_create(10), 'x'::text));
SELECT bf_key_type(bf_union_agg(f)) AS union_agg
FROM (VALUES (bf_add(bf_create(100), 1)), (bf_create(100)), (bf_add(bf_create(100), 2))) v(f);

-- ---- citext and other types reaching text by an implicit cast: refused ----
CREATE EXTENSION citext;
CREATE TABLE ci (c citext);
INSERT INTO ci VALUES ('Abc');
\set VERBOSITY sqlstate
SELECT bf_add(bf_create(10), c) FROM ci;
SELECT bf_contains(bf_add(bf_create(10), 'abc'::text), c) FROM ci;
SELECT bf_add(bf_create(10), 'abc'::text) @> c FROM ci;
SELECT c <@ bf_add(bf_create(10), 'abc'::text) FROM ci;
SELECT bf_count(bf_add(bf_create(10), 'abc'::text), c) FROM ci;
SELECT bf_agg(c) FROM ci;
SELECT bf_agg(c, 100) FROM ci;
SELECT bf_agg(c, bf_create(100)) FROM ci;
SELECT cf_agg(c, 100) FROM ci;
SELECT cf_contains(cf_add(cf_create(10), 'abc'::text), c) FROM ci;
SELECT cf_add(cf_create(10), c) FROM ci;
SELECT cf_delete(cf_add(cf_create(10), 'abc'::text), c) FROM ci;
SELECT bf_shard(c, 8) FROM ci;
SELECT bf_shard(c, 8, 'text') FROM ci;
\set VERBOSITY default
SELECT bf_add(bf_create(10), c) FROM ci;
SELECT bf_agg(c) FROM ci;
-- an explicit cast says the text is what to hash
SELECT bf_add(bf_create(10), lower('Abc'::citext)::text) @> 'abc' AS explicit_cast;
-- a citext parameter of a generic plan is seen through the call expression
-- too (one of a custom plan is folded into a text constant first: the
-- reference's limits)
SET plan_cache_mode = force_generic_plan;
PREPARE ci_probe(citext) AS SELECT bf_contains(bf_add(bf_create(10), 'abc'::text), $1);
EXECUTE ci_probe('ABC');
DEALLOCATE ci_probe;
RESET plan_cache_mode;

-- ---- enums: refused by new filters; 1.2 values keep hashing labels ----
CREATE TYPE mood AS ENUM ('sad', 'ok');
SELECT bf_add(bf_create(10), 'sad'::mood);
SELECT bf_agg(m) FROM (VALUES ('sad'::mood)) v(m);
SELECT cf_add(cf_create(10), 'sad'::mood);
SELECT bf_create(10, key_type => 'mood');
SELECT bf_add(bf_create(10), ARRAY['sad'::mood]);
SELECT bf_add(bf_create(10), ROW(1, 'sad'::mood));
SELECT bf_add(bf_create(10), ROW(1, 'x')) @> ROW(1, 'sad'::mood) AS probe_of_record_with_enum;
SELECT bf_add(bf_create(10), 'sad'::mood::text) @> 'sad'::mood::text AS by_label;
-- a 1.2 value of enum keys: a rename makes its members absent (docs/reference.md)
CREATE TABLE legacy_mood AS
	SELECT bf_add(overlay(bf_add(bf_create(10), 0)::bytea placing '\x00' from 13)::bloomfilter, 'sad'::mood) AS f;
SELECT f @> 'sad'::mood AS before_rename FROM legacy_mood;
ALTER TYPE mood RENAME VALUE 'sad' TO 'unhappy';
SELECT f @> 'unhappy'::mood AS after_rename FROM legacy_mood;

-- ---- "char": every single-element function and operator ----
SELECT bf_add(bf_create(10), 'a'::"char") @> 'a'::"char" AS contains,
       'a'::"char" <@ bf_add(bf_create(10), 'a'::"char") AS contained,
       bf_contains(bf_add(bf_create(10), 'a'::"char"), 'b'::"char") AS other,
       bf_count(bf_add(bf_create(10), 'a'::"char"), 'a'::"char") AS count,
       bf_remove(bf_add(bf_create(10, 0.01, counting => true), 'a'::"char"), 'a'::"char") @> 'a'::"char" AS removed,
       bf_key_type(bf_add(bf_create(10), 'a'::"char")) AS key_type,
       bf_shard('a'::"char", 8) = bf_shard('a'::"char", 8, '"char"') AS shard;
SELECT cf_add(cf_create(10), 'a'::"char") @> 'a'::"char" AS cf_contains_op,
       'a'::"char" <@ cf_add(cf_create(10), 'a'::"char") AS cf_contained,
       cf_contains(cf_add_nx(cf_add_nx(cf_create(10), 'a'::"char"), 'a'::"char"), 'a'::"char") AS add_nx,
       cf_count(cf_add_nx(cf_add_nx(cf_create(10), 'a'::"char"), 'a'::"char"), 'a'::"char") AS count_nx,
       cf_count(cf_delete(cf_add(cf_add(cf_create(10), 'a'::"char"), 'a'::"char"), 'a'::"char"), 'a'::"char") AS after_delete,
       bf_agg(c) @> 'a'::"char" AS bf_agg, cf_agg(c, 10) @> 'a'::"char" AS cf_agg
FROM (VALUES ('a'::"char")) v(c);
-- text into a "char" filter is read by "char"'s input
SELECT bf_add(bf_create(10), 'a'::"char") @> 'a'::text AS text_probe;

DROP TABLE typed_copy, typed_copy2, user_filters, legacy, ci, legacy_mood;
DROP EXTENSION citext;
DROP TYPE mood;
DROP TYPE pair;
DROP DOMAIN posint;

-- The planner's estimate checks the column's common values against a
-- filter known at plan time; for a typed filter it does so only where they
-- hash as the keys do, so a conversion that would raise (text read as
-- bigint) never raises while planning a query that keeps such values away
CREATE TABLE typed_stats (x text);
INSERT INTO typed_stats SELECT CASE WHEN g % 2 = 0 THEN 'not a number' ELSE (g % 50)::text END
FROM generate_series(1, 2000) g;
ANALYZE typed_stats;
CREATE TABLE typed_stats_filter AS SELECT bf_add_all(bf_create(100), ARRAY[1, 3, 5]::bigint[]) AS bf;
SELECT bf AS stats_bf FROM typed_stats_filter \gset
SELECT count(*) AS numeric_members
FROM typed_stats WHERE x ~ '^[0-9]+$' AND bf_contains(:'stats_bf'::bloomfilter, x);
EXPLAIN (COSTS OFF) SELECT * FROM typed_stats WHERE x ~ '^[0-9]+$' AND bf_contains(:'stats_bf'::bloomfilter, x);
DROP TABLE typed_stats, typed_stats_filter;
