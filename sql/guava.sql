-- Layout 5 (guava), hash id 3: Guava's BloomFilter, bit for bit.  The
-- pinned bytes are what Guava 31.1 (Debian's libguava-java) writes for the
-- same requests and members (java GuavaInterop pins, test/interop/);
-- make check-interop-guava compares much more against Guava itself.
-- Its tables live in a schema of their own, dropped at the end.
CREATE SCHEMA guava_test;
SET search_path = guava_test, public;

-- ---- creating: Guava's sizing, the header ----
SELECT bf_info(bf_create(1000, 0.01, layout => 'guava', key_type => 'bigint'));
SELECT n, p, (i->>'guava_longs')::int AS longs, (i->>'nbits')::int AS nbits, (i->>'nhashes')::int AS k
FROM (VALUES (1::bigint, 0.5::float8), (1, 0.3), (2, 0.5), (10, 0.1), (20, 0.01), (1000, 0.03),
             (1000, 0.01), (12345, 1e-6), (1000000, 0.03), (5, 1e-60)) v(n, p),
     LATERAL (SELECT bf_info(bf_create(n, p, layout => 'guava', key_type => 'int8')) AS i) s
ORDER BY n, p;
-- the header: layout 5, hash id 3, seed 0, the key type's OID
SELECT encode(substring(bf_create(10, 0.1, layout => 'guava', key_type => 'text')::bytea from 1 for 48), 'hex') AS header;
SELECT bf_key_type(bf_create(10, 0.1, layout => 'guava', key_type => t)) AS key_type
FROM unnest(ARRAY['bigint', 'int4', 'text', 'bytea']::regtype[]) t;
-- layout => 'blocked512' is the default's layout
SELECT bf_create(100, layout => 'blocked512') = bf_create(100) AS same_as_default;

-- ---- the bytes of Guava's writeTo, pinned against Guava ----
SELECT bf_to_guava(bf_add_all(bf_create(10, 0.1, layout => 'guava', key_type => 'bigint'),
                              ARRAY[1, 2, 3, -1, -9223372036854775808]::int8[]))
       = '\x010300000001400c01a4204b3400' AS bigint_pinned;
SELECT bf_to_guava(bf_add_all(bf_create(20, 0.01, layout => 'guava', key_type => 'integer'),
                              ARRAY[-1, 0, 7, 2147483647, -2147483648]))
       = '\x010700000003183000254020002000022400420080230022202062008220' AS integer_pinned;
SELECT bf_to_guava(bf_add_all(bf_create(5, 0.05, layout => 'guava', key_type => 'text'),
                              ARRAY['', 'héllo', '日本', '🙂', 'abc']))
       = '\x010400000001220008c232108c49' AS text_pinned;
SELECT bf_to_guava(bf_add_all(bf_create(5, 0.05, layout => 'guava', key_type => 'bytea'),
                              ARRAY['\x', '\x00', '\x010203', '\xff']::bytea[]))
       = '\x0104000000014968120005004101' AS bytea_pinned;
-- 1,000 multiples of 7 by bf_agg: Guava's bytes, 1,185 of 0..6999 positive,
-- expectedFpp 0.028983510267826144, approximateElementCount 998
CREATE TABLE g7 AS
	SELECT bf_agg(g * 7, bf_create(1000, 0.03, layout => 'guava', key_type => 'bigint')) AS f
	FROM generate_series(0::int8, 999) g;
SELECT md5(bf_to_guava(f)) = 'c1cbab32ddd49dcff879b8978b2d06f1' AS agg_pinned,
       length(bf_to_guava(f)) AS bytes,
       (SELECT count(*) FROM generate_series(0::int8, 6999) k WHERE bf_contains(f, k)) AS positive,
       bf_fpp(f) = 0.028983510267826144 AS expected_fpp, bf_cardinality(f) AS approximate_count
FROM g7;
-- the stored value's own bytes: the header, then the longs little-endian
SELECT encode(f::bytea, 'hex') AS stored
FROM (SELECT bf_add_all(bf_create(10, 0.1, layout => 'guava', key_type => 'bigint'),
                        ARRAY[1, 2, 3, -1, -9223372036854775808]::int8[]) AS f) s;

-- ---- reading Guava's bytes ----
CREATE TABLE pins (t regtype, bytes bytea);
INSERT INTO pins VALUES
	('bigint', '\x010300000001400c01a4204b3400'),
	('integer', '\x010700000003183000254020002000022400420080230022202062008220'),
	('text', '\x010400000001220008c232108c49'),
	('bytea', '\x0104000000014968120005004101');
SELECT t, bf_to_guava(bf_from_guava(bytes, t)) = bytes AS round_trip,
       bf_info(bf_from_guava(bytes, t)) - 'size_bytes' AS info
FROM pins;
-- the members are present, in every form SQL calls equal
SELECT bf_contains(f, 1::int8) AS i8, bf_contains(f, 2) AS i4, bf_contains(f, 3::int2) AS i2,
       bf_contains(f, -1.0) AS whole_numeric, bf_contains(f, 3::float8) AS whole_float,
       bf_contains(f, '-9223372036854775808') AS literal,
       f @> 2::int8 AS op, bf_contains_all(f, ARRAY[1, 2, 3]) AS all_members
FROM (SELECT bf_from_guava(bytes, t) AS f FROM pins WHERE t = 'bigint'::regtype) s;
SELECT bf_contains(f, -1) AS i4, bf_contains(f, 0::int8) AS i8_in_range, bf_contains(f, 7::int2) AS i2,
       bf_contains(f, 2147483647::numeric) AS numeric, bf_contains(f, '-2147483648') AS literal
FROM (SELECT bf_from_guava(bytes, t) AS f FROM pins WHERE t = 'integer'::regtype) s;
SELECT bf_contains(f, 'héllo'::text) AS text, bf_contains(f, 'abc'::varchar) AS varchar,
       bf_contains(f, 'abc  '::char(5)) AS bpchar, bf_contains(f, '日本'::name) AS name,
       bf_contains(f, '🙂') AS literal, bf_contains(f, ''::text) AS empty
FROM (SELECT bf_from_guava(bytes, t) AS f FROM pins WHERE t = 'text'::regtype) s;
SELECT bf_contains(f, '\x010203'::bytea) AS bytea, bf_contains(f, '\x') AS literal,
       bf_contains_all(f, ARRAY['\x00', '\xff']::bytea[]) AS all_members
FROM (SELECT bf_from_guava(bytes, t) AS f FROM pins WHERE t = 'bytea'::regtype) s;

-- ---- typed probes, generated: no member is ever absent ----
-- integers of every width against bigint and integer keys; values beyond
-- integer's range are never in an integer-key filter (no int4 equals them)
CREATE TABLE ints AS SELECT (g * 104729 - 300000)::int8 AS k FROM generate_series(1, 5000) g;
CREATE TABLE typed AS
	SELECT bf_agg(k, bf_create(5000, 0.01, layout => 'guava', key_type => 'bigint')) AS f8,
	       bf_agg(k::int4, bf_create(5000, 0.01, layout => 'guava', key_type => 'integer')) AS f4,
	       bf_agg(k::text, bf_create(5000, 0.01, layout => 'guava', key_type => 'text')) AS ft,
	       bf_agg(int8send(k), bf_create(5000, 0.01, layout => 'guava', key_type => 'bytea')) AS fb
	FROM ints;
SELECT count(*) AS members,
       count(*) FILTER (WHERE NOT bf_contains(f8, k)) AS i8_absent,
       count(*) FILTER (WHERE NOT bf_contains(f8, k::numeric)) AS numeric_absent,
       count(*) FILTER (WHERE NOT bf_contains(f8, k::float8)) AS float_absent,
       count(*) FILTER (WHERE NOT bf_contains(f4, k::int4)) AS i4_absent,
       count(*) FILTER (WHERE NOT bf_contains(f4, k)) AS i8_in_int4_absent,
       count(*) FILTER (WHERE NOT bf_contains(f4, k::numeric(20, 2))) AS numeric_in_int4_absent,
       count(*) FILTER (WHERE k BETWEEN -32768 AND 32767 AND NOT bf_contains(f4, k::int2)) AS i2_absent,
       count(*) FILTER (WHERE NOT bf_contains(ft, k::text)) AS text_absent,
       count(*) FILTER (WHERE NOT bf_contains(ft, k::text::varchar(30))) AS varchar_absent,
       count(*) FILTER (WHERE NOT bf_contains(ft, k::text::char(30))) AS bpchar_absent,
       count(*) FILTER (WHERE NOT bf_contains(fb, int8send(k))) AS bytea_absent
FROM ints, typed;
-- an integer filter hashes 4 bytes, a bigint one 8: the same members set
-- other bits, and the integer filter is not the bigint one
SELECT bf_to_guava(f4) <> bf_to_guava(f8) AS widths_differ FROM typed;
-- bigint probes beyond int4 whose low 32 bits are members: absent, and
-- non-integer numerics are absent from both
SELECT count(*) FILTER (WHERE bf_contains(f4, k + 4294967296)) AS beyond_int4,
       count(*) FILTER (WHERE bf_contains(f8, k + 0.5)) AS half
FROM ints, typed;
-- non-members: about the rate asked for
SELECT count(*) FILTER (WHERE bf_contains(f8, k)) BETWEEN 1 AND 150 AS i8_rate,
       count(*) FILTER (WHERE bf_contains(f4, k::int4)) BETWEEN 1 AND 150 AS i4_rate,
       count(*) FILTER (WHERE bf_contains(ft, k::text)) BETWEEN 1 AND 150 AS text_rate
FROM (SELECT g::int8 * 104729 - 300001 AS k FROM generate_series(1, 5000) g) s, typed;
-- adds convert as probes do; a value no key equals cannot be added
SELECT bf_to_guava(bf_add(bf_create(10, 0.1, layout => 'guava', key_type => 'int4'), 5::int8))
     = bf_to_guava(bf_add(bf_create(10, 0.1, layout => 'guava', key_type => 'int4'), 5::int2)) AS widened;
\set VERBOSITY sqlstate
SELECT bf_add(bf_create(10, 0.1, layout => 'guava', key_type => 'int4'), 4294967296::int8);
SELECT bf_add(bf_create(10, 0.1, layout => 'guava', key_type => 'int8'), 1.5);
SELECT bf_contains(bf_create(10, 0.1, layout => 'guava', key_type => 'int8'), 'x'::text);
SELECT bf_contains(bf_create(10, 0.1, layout => 'guava', key_type => 'text'), 5);
\set VERBOSITY default

-- ---- what every filter does ----
SELECT bf_union(a, b) = bf_agg_ab AS union_is_agg, a | b = bf_agg_ab AS pipe,
       bf_intersect(a, b) @> 5::int8 AS intersect_keeps_common,
       bf_to_guava(bf_union_agg(x)) = bf_to_guava(bf_agg_ab) AS union_agg
FROM (SELECT bf_add_all(bf_create(100, 0.01, layout => 'guava', key_type => 'int8'), ARRAY[1, 2, 5]::int8[]) AS a,
             bf_add_all(bf_create(100, 0.01, layout => 'guava', key_type => 'int8'), ARRAY[3, 4, 5]::int8[]) AS b,
             bf_add_all(bf_create(100, 0.01, layout => 'guava', key_type => 'int8'), ARRAY[1, 2, 3, 4, 5]::int8[]) AS bf_agg_ab) s,
     LATERAL (VALUES (a), (b)) v(x)
GROUP BY a, b, bf_agg_ab;
-- a Guava filter read back combines with one made here of the same shape
SELECT bf_union(bf_from_guava(bytes, 'bigint'), bf_create(10, 0.1, layout => 'guava', key_type => 'bigint')) IS NOT NULL AS combines
FROM pins WHERE t = 'bigint'::regtype;
-- text form and binary form round trip
SELECT f::text::bloomfilter = f AS text_form, f::bytea::bloomfilter = f AS bytea_form
FROM typed, LATERAL (VALUES (f8), (f4), (ft), (fb)) v(f);
\copy (SELECT f8, f4, ft, fb FROM typed) TO 'results/guava.bin' WITH (FORMAT binary)
CREATE TABLE typed_copy (f8 bloomfilter, f4 bloomfilter, ft bloomfilter, fb bloomfilter);
\copy typed_copy FROM 'results/guava.bin' WITH (FORMAT binary)
SELECT c.f8 = t.f8 AND c.f4 = t.f4 AND c.ft = t.ft AND c.fb = t.fb AS binary_copy FROM typed t, typed_copy c;

-- ---- a stored value: out of line, checked by its spans, then cached ----
CREATE TABLE stored (id int, f bloomfilter);
ALTER TABLE stored ALTER COLUMN f SET STORAGE EXTERNAL;
INSERT INTO stored
	SELECT 1, bf_agg(g, bf_create(200000, 0.01, layout => 'guava', key_type => 'bigint'))
	FROM generate_series(1::int8, 200000) g;
SELECT bf_contains(f, 777::int8) AS member, bf_contains(f, 300000::int8) AS probably_not FROM stored;
SELECT count(*) FILTER (WHERE bf_contains(s.f, g)) AS present
FROM stored s, generate_series(1::int8, 200000) g;

-- ---- errors ----
\set VERBOSITY sqlstate
SELECT bf_create(100, 0.01, layout => 'guava');                                -- no key type
SELECT bf_create(100, 0.01, layout => 'guava', key_type => 'uuid');            -- no funnel
SELECT bf_create(100, 0.01, layout => 'guava', key_type => 'numeric');
SELECT bf_create(100, 0.01, layout => 'guava', key_type => 'bigint', seed => 1);
SELECT bf_create(100, 0.01, layout => 'guava', key_type => 'bigint', counting => true);
SELECT bf_create(100, 0.01, layout => 'guava', key_type => 'bigint', expansion => 2);
SELECT bf_create(100, 0.01, layout => 'cuckoo');
SELECT bf_create(0, 0.01, layout => 'guava', key_type => 'bigint');
SELECT bf_create(10, 1.0, layout => 'guava', key_type => 'bigint');
SELECT bf_create(1, 0.9, layout => 'guava', key_type => 'bigint');             -- 0 bits
SELECT bf_create(10, 1e-80, layout => 'guava', key_type => 'bigint');          -- 266 hashes
SELECT bf_create(9000000000, 1e-9, layout => 'guava', key_type => 'bigint');   -- too large
SELECT bf_to_guava(bf_create(10));
SELECT bf_remove(bf_add(bf_create(10, 0.1, layout => 'guava', key_type => 'int8'), 1::int8), 1::int8);
SELECT bf_union(bf_create(10, 0.1, layout => 'guava', key_type => 'int8'), bf_create(100, 0.1, layout => 'guava', key_type => 'int8'));
SELECT bf_union(bf_create(10, 0.1, layout => 'guava', key_type => 'int8'), bf_create(10, 0.1, layout => 'guava', key_type => 'int4'));
SELECT bf_union(bf_create(10, 0.1, layout => 'guava', key_type => 'int8'), bf_create(10, 0.1));
SELECT bf_from_guava('\x0103000000', 'bigint');                            -- truncated prefix
SELECT bf_from_guava('\x010300000001400c01a4204b34', 'bigint');            -- truncated longs
SELECT bf_from_guava('\x010300000001400c01a4204b340000', 'bigint');        -- trailing byte
SELECT bf_from_guava('\x000300000001400c01a4204b3400', 'bigint');          -- MURMUR128_MITZ_32
SELECT bf_from_guava('\x020300000001400c01a4204b3400', 'bigint');          -- no strategy 2
SELECT bf_from_guava('\xff0300000001400c01a4204b3400', 'bigint');          -- ordinal -1
SELECT bf_from_guava('\x010000000001400c01a4204b3400', 'bigint');          -- 0 hash functions
SELECT bf_from_guava('\x010300000000', 'bigint');                          -- 0 longs
SELECT bf_from_guava('\x0103ffffffff', 'bigint');                          -- -1 longs
SELECT bf_from_guava('\x01037fffffff', 'bigint');                          -- over the size limit
SELECT bf_from_guava('\x010300000001400c01a4204b3400', 'uuid');            -- no funnel
-- the integer widths hash alike under hash id 2, not in a Guava filter
SELECT bf_set_key_type(bf_create(10, 0.1, layout => 'guava', key_type => 'int8'), 'integer');
SELECT bf_set_key_type(bf_create(10, 0.1, layout => 'guava', key_type => 'text'), 'varchar');
\set VERBOSITY default
SELECT bf_set_key_type(bf_create(10, 0.1, layout => 'guava', key_type => 'int4'), 'bigint');
SELECT bf_set_key_type(f, 'bigint') = f AS same_type_kept
FROM (SELECT bf_add(bf_create(10, 0.1, layout => 'guava', key_type => 'int8'), 1::int8) AS f) s;
SELECT bf_from_guava('\x000300000001400c01a4204b3400', 'bigint');
SELECT bf_create(100, 0.01, layout => 'guava', key_type => 'uuid');

-- ---- input validation of the layout's header ----
CREATE TABLE good AS
	SELECT bf_add(bf_create(10, 0.1, layout => 'guava', key_type => 'bigint'), 1::int8)::bytea AS b;
SELECT b::bloomfilter IS NOT NULL AS valid FROM good;
\set VERBOSITY sqlstate
SELECT overlay(b placing '\x02' from 7 for 1)::bloomfilter FROM good;                -- hash id 2
SELECT overlay(b placing '\x01' from 7 for 1)::bloomfilter FROM good;                -- hash id 1
SELECT overlay(b placing '\x01' from 9 for 1)::bloomfilter FROM good;                -- seed 1
SELECT overlay(b placing '\x00000000' from 13 for 4)::bloomfilter FROM good;         -- untyped
SELECT overlay(b placing '\xa406' from 13 for 2)::bloomfilter FROM good;             -- numeric keys
SELECT overlay(b placing '\x00' from 8 for 1)::bloomfilter FROM good;                -- k = 0
SELECT overlay(b placing '\x0000000000000000' from 17 for 8)::bloomfilter FROM good; -- nbits 0
SELECT overlay(b placing '\x41' from 17 for 1)::bloomfilter FROM good;               -- nbits 65
SELECT overlay(b placing '\x80' from 17 for 1)::bloomfilter FROM good;               -- 2 longs, 1 stored
SELECT overlay(b placing '\x09' from 41 for 1)::bloomfilter FROM good;               -- bits set wrong
SELECT (b || '\x0000000000000000'::bytea)::bloomfilter FROM good;                    -- trailing long
-- a blocked filter cannot take hash id 3
SELECT overlay(bf_add(bf_create(10), 1::int8)::bytea placing '\x03' from 7 for 1)::bloomfilter;
\set VERBOSITY default
-- k up to 255 is Guava's, and valid here
SELECT bf_info(overlay(b placing '\xff' from 8 for 1)::bloomfilter)->'nhashes' AS k255 FROM good;
SELECT bf_contains(bf_from_guava('\x01ff00000001ffffffffffffffff', 'bigint'), 5::int8) AS full_k255;

RESET search_path;
DROP SCHEMA guava_test CASCADE;

-- ---- a database whose encoding is not UTF8: ASCII text only ----
SELECT bf_to_guava(bf_add(bf_create(5, 0.05, layout => 'guava', key_type => 'text'), 'abc'::text))
     = '\x0104000000010200008020000800' AS utf8_bytes;
SELECT current_database() AS regress_db \gset
CREATE DATABASE guava_latin1 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c guava_latin1
SET client_min_messages = warning;
CREATE EXTENSION bloomfilter;
-- ASCII: the same bytes as in a UTF8 database, which are Guava's (pinned above)
SELECT bf_to_guava(bf_add(bf_create(5, 0.05, layout => 'guava', key_type => 'text'), 'abc'::text))
     = '\x0104000000010200008020000800' AS ascii_same,
       bf_contains(bf_add(bf_create(10, 0.1, layout => 'guava', key_type => 'text'), 'abc'::text), 'abc  '::char(5)) AS bpchar;
-- anything else is refused, in adds and probes alike; bytea keys take any bytes
\set VERBOSITY sqlstate
SELECT bf_add(bf_create(10, 0.1, layout => 'guava', key_type => 'text'), convert_from('\xe9', 'LATIN1'));
SELECT bf_contains(bf_create(10, 0.1, layout => 'guava', key_type => 'text'), convert_from('\x41e9', 'LATIN1'));
\set VERBOSITY default
SELECT bf_contains(bf_add(bf_create(10, 0.1, layout => 'guava', key_type => 'bytea'), '\xe9'::bytea), '\xe9'::bytea) AS bytea_any;
\c :regress_db
DROP DATABASE guava_latin1;
