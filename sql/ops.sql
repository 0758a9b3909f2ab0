-- sizing: what bf_create(capacity, error_rate) builds
SELECT c AS capacity, p AS error_rate, bf_nbits(f) AS nbits, bf_nhashes(f) AS k,
       bf_capacity(f) = c AS cap_ok, bf_error_rate(f) = p AS rate_ok, bf_bits_set(f) AS bits_set,
       round((bf_nbits(f) / (-c * ln(p) / ln(2) ^ 2))::numeric, 3) AS vs_optimum
FROM (VALUES (1, 0.01), (1000, 0.01), (1000000, 0.01), (1000000, 0.001), (1000000, 0.1)) v(c, p),
     LATERAL bf_create(c, p) f;
SELECT bf_nbits(bf_create(1000)) = bf_nbits(bf_create(1000, 0.01)) AS default_rate_is_1pct;

-- add and contains, for the types with defined canonical bytes
SELECT bf_add(bf_create(100), 42) @> 42 AS int4,
       bf_add(bf_create(100), 42) @> 42::int8 AS int4_as_int8,
       bf_add(bf_create(100), 42::int2) @> 42::int8 AS int2_as_int8,
       bf_add(bf_create(100), 42::int8) @> 42::int2 AS int8_as_int2,
       bf_add(bf_create(100), -1::int8) @> -1 AS negative,
       bf_add(bf_create(100), 42) @> 43 AS other;
SELECT bf_add(bf_create(100), 'abc') @> 'abc' AS text_literal,
       bf_add(bf_create(100), 'abc'::varchar) @> 'abc'::text AS varchar_as_text,
       bf_add(bf_create(100), 'abc  '::char(5)) @> 'abc'::text AS bpchar_trailing_blanks,
       bf_add(bf_create(100), 'abc'::name) @> 'abc'::text AS name_as_text,
       bf_add(bf_create(100), '\x616263'::bytea) @> 'abc'::text AS bytea_as_text,
       bf_add(bf_create(100), 'abc') @> 'ABC' AS case_sensitive;
SELECT bf_add(bf_create(100), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid)
         @> 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS uuid,
       bf_add(bf_create(100), 1.5::numeric) @> 1.5::numeric AS numeric,
       bf_add(bf_create(100), 1.0::numeric) @> 1.00::numeric AS numeric_other_scale,
       bf_add(bf_create(100), '2024-01-01'::date) @> '2024-01-01'::date AS date,
       bf_add(bf_create(100), ARRAY[1, 2]) @> ARRAY[1, 2] AS array_value,
       bf_add(bf_create(100), ROW(1, 'x')) @> ROW(1, 'x') AS record;

-- domains hash as their base type
CREATE DOMAIN posint AS int4 CHECK (VALUE > 0);
SELECT bf_add(bf_create(100), 7::posint) @> 7::int8 AS domain_over_int4;

-- the hash is a contract: pinned bytes of a filter holding 1 .. 3
SELECT md5(bf_add_all(bf_create(100, 0.01), ARRAY[1, 2, 3])::bytea) AS pinned;
SELECT md5(bf_add_all(bf_create(100, 0.01), ARRAY['a', 'b'])::bytea) AS pinned_text;
-- integers and text hash alike under hash ids 1 and 2: with its hash id byte
-- set back to 1, each is byte for byte what release 1.1 made
SELECT md5(overlay(bf_add_all(bf_create(100, 0.01), ARRAY[1, 2, 3])::bytea placing '\x01' from 7 for 1)) AS as_made_by_1_1;
SELECT md5(overlay(bf_add_all(bf_create(100, 0.01), ARRAY['a', 'b'])::bytea placing '\x01' from 7 for 1)) AS text_as_made_by_1_1;

-- text hashing does not depend on the session's client_encoding
-- (enum labels, in a filter made by 1.2: header bytes 12..15 zero, not empty)
CREATE TYPE mood AS enum ('café', 'thé');
CREATE TABLE legacy_ops AS
	SELECT overlay(bf_add(bf_create(100), 0)::bytea placing '\x00' from 13)::bloomfilter AS f;
SELECT bf_add(f, enum_first(NULL::mood))::bytea AS utf8_filter FROM legacy_ops \gset
SET client_encoding = 'LATIN1';
SELECT bf_add(f, enum_first(NULL::mood))::bytea = :'utf8_filter'::bytea AS same_under_latin1 FROM legacy_ops;
RESET client_encoding;

-- operators, both ways round
SELECT bf_add(bf_create(100), 5) @> 5 AS contains, 5 <@ bf_add(bf_create(100), 5) AS contained,
       'x' <@ bf_add(bf_create(100), 'x') AS text_contained, 'y' <@ bf_add(bf_create(100), 'x') AS not_contained;

-- NULLs: adding NULL changes nothing, checking NULL gives NULL
SELECT bf_add(bf_add(bf_create(100), 1), NULL::int)::bytea = bf_add(bf_create(100), 1)::bytea AS add_null_is_noop,
       bf_add(NULL::bloomfilter, 1) IS NULL AS null_filter,
       bf_contains(bf_create(100), NULL::int) IS NULL AS contains_null,
       bf_contains(NULL, 1) IS NULL AS null_contains,
       bf_add_all(bf_create(100), NULL::int[])::bytea = bf_create(100)::bytea AS add_all_null_array;
CREATE TABLE keep (bf bloomfilter);
INSERT INTO keep VALUES (bf_add(bf_create(100), 'kept'));
UPDATE keep SET bf = bf_add(bf, NULL);
UPDATE keep SET bf = bf_add(bf, NULL::text);
SELECT bf @> 'kept' AS still_there, bf_bits_set(bf) > 0 AS not_wiped FROM keep;

-- arguments are never modified
CREATE TABLE orig (bf bloomfilter);
INSERT INTO orig VALUES (bf_create(100));
SELECT bf_bits_set(bf_add(bf, 1)) > 0 AS copy_changed, bf_bits_set(bf) AS orig_unchanged,
       bf_bits_set(bf_add_all(bf, ARRAY[1, 2])) > 0 AS copy2_changed, bf_bits_set(bf) AS orig_unchanged2,
       bf_bits_set(bf_union(bf, bf_add(bf_create(100), 9))) > 0 AS union_changed, bf_bits_set(bf) AS orig_unchanged3
FROM orig;

-- bf_add_all: every element, NULL elements skipped, any dimensionality
WITH s AS (
	SELECT bf_add_all(bf_create(1000), ARRAY(SELECT CASE WHEN g % 10 = 0 THEN NULL ELSE g END FROM generate_series(1, 500) g)
	                                  || ARRAY(SELECT g FROM generate_series(1, 500) g WHERE g % 10 = 0)) AS f)
SELECT (SELECT bool_and(f @> g) FROM generate_series(1, 500) g) AS all_present,
       f::bytea = bf_add_all(bf_create(1000), ARRAY(SELECT generate_series(1, 500)))::bytea AS same_as_plain
FROM s;
SELECT bf_add_all(bf_create(100), ARRAY[[1, 2], [3, 4]]) @> 4 AS two_dim,
       bf_add_all(bf_create(100), ARRAY[1, 2])::bytea = bf_add(bf_add(bf_create(100), 1), 2)::bytea AS same_as_bf_add,
       bf_add_all(bf_create(100), '{}'::int[])::bytea = bf_create(100)::bytea AS empty_array;

-- union and intersect
WITH a AS (SELECT bf_add_all(bf_create(1000), ARRAY(SELECT generate_series(1, 300))) f),
     b AS (SELECT bf_add_all(bf_create(1000), ARRAY(SELECT generate_series(201, 500))) f)
SELECT (SELECT bool_and((a.f | b.f) @> g) FROM generate_series(1, 500) g) AS union_has_all,
       (SELECT bool_and((a.f & b.f) @> g) FROM generate_series(201, 300) g) AS intersect_has_common,
       (SELECT count(*) FILTER (WHERE (a.f & b.f) @> g) FROM generate_series(1, 200) g) < 20 AS intersect_drops_most_others,
       bf_bits_set(a.f | b.f) >= bf_bits_set(a.f) AS union_grows,
       bf_bits_set(a.f & b.f) <= bf_bits_set(a.f) AS intersect_shrinks,
       (a.f | b.f)::bytea = bf_union(a.f, b.f)::bytea AS operator_is_function,
       (a.f | b.f)::bytea = (b.f | a.f)::bytea AS union_commutes
FROM a, b;

-- different shapes are refused, naming the operation and both shapes
SELECT bf_union(bf_create(100), bf_create(1000));
SELECT bf_create(100) & bf_create(100, 0.001);
SELECT bf_create(100, 0.01, 1) | bf_create(100, 0.01, 2);

-- introspection
SELECT bf_capacity(f), bf_error_rate(f), bf_nbits(f), bf_nhashes(f), bf_bits_set(f),
       bf_cardinality(f) BETWEEN 950 AND 1050 AS cardinality_close,
       bf_fpp(f) BETWEEN 0.001 AND 0.01 AS fpp_close
FROM (SELECT bf_add_all(bf_create(1000, 0.01), ARRAY(SELECT generate_series(1, 1000))) f) s;
SELECT bf_cardinality(bf_create(1000)) AS empty_cardinality, bf_fpp(bf_create(1000)) AS empty_fpp;
SELECT jsonb_pretty(bf_info(bf_add(bf_create(1000, 0.05), 1)) - 'fpp');
SELECT (bf_info(f)->>'size_bytes')::int = length(f::bytea) + 4 AS size_is_varlena,
       (bf_info(f)->>'bits_set')::bigint = bf_bits_set(f) AS info_matches
FROM (SELECT bf_add(bf_create(1000), 1) f) s;

DROP TABLE keep, orig;
DROP DOMAIN posint;
DROP TABLE legacy_ops;
DROP TYPE mood;
