-- Key paths that lost SQL's equality on 1.3 (issue 23): each query below
-- answered "absent" for a key SQL calls equal to a member, and now answers
-- "present" or refuses.  The generated cases live in test/oracle.

-- 1. A parameter shared by a check and bf_shard: the check made it text,
-- and the shard hashed the text.  Now the two-argument bf_shard refuses a
-- string constant or parameter, and the key_type form converts it.
CREATE TABLE kp_shards AS
	SELECT bf_shard(k::bigint, 8) AS shard, bf_agg(k::bigint) AS bf
	FROM generate_series(1, 2000) k GROUP BY 1;
PREPARE kp_shared AS SELECT bf_contains(bf, $1) FROM kp_shards WHERE shard = bf_shard($1, 8);
EXECUTE kp_shared(5);
PREPARE kp_keyed AS SELECT bool_or(bf_contains(bf, $1)) FROM kp_shards WHERE shard = bf_shard($1, 8, 'bigint');
EXECUTE kp_keyed(5);
SELECT count(*) AS members_found FROM generate_series(1, 2000) k
WHERE (SELECT bf_contains(bf, k::text) FROM kp_shards WHERE shard = bf_shard(k::text, 8, 'bigint'));
-- the other order: bf_shard first makes $1 text too
PREPARE kp_shard_first AS SELECT bf_contains(bf, $1) FROM kp_shards WHERE shard = bf_shard($1, 8, 'bigint');
EXECUTE kp_shard_first('1999');
DROP TABLE kp_shards;

-- 2. char(n) keys and their padding: SQL ignores trailing blanks when it
-- compares char(n) with an untyped literal or a varchar
CREATE TABLE kp_codes (code char(6));
INSERT INTO kp_codes VALUES ('AB1'), ('XY');
SELECT count(*) AS sql_finds FROM kp_codes WHERE code = 'AB1   ';
SELECT bf_contains(f, 'AB1   ') AS literal, f @> 'AB1   ' AS op, 'AB1   ' <@ f AS op_commuted,
       bf_contains(f, 'AB1 '::varchar) AS varchar_padded,
       bf_contains_all(f, ARRAY['AB1   ', 'XY']) AS batch,
       bf_count(f, 'XY  ') AS count_padded
FROM (SELECT bf_agg(code) AS f FROM kp_codes) s;
SELECT cf_contains(c, 'AB1   ') AS cuckoo, cf_count(c, 'AB1 ') AS cuckoo_count,
       cf_contains(cf_delete(c, 'AB1  '), 'AB1') AS deleted_by_padded,
       cf_contains(cf_delete(c, 'AB1  '), 'XY') AS other_kept
FROM (SELECT cf_agg(code, 100) AS c FROM kp_codes) s;
CREATE INDEX kp_codes_bf ON kp_codes USING bloomfilter (code);
SELECT bf_index_contains('kp_codes_bf', 'AB1   ') AS index_literal,
       bf_index_contains('kp_codes_bf', 'AB1 '::varchar) AS index_varchar;
-- a text value compares as text: 'AB1 '::text is not 'AB1', but finding
-- it is only a false positive
SELECT count(*) AS sql_finds_text FROM kp_codes WHERE code = 'AB1 '::text;

-- 3. varchar against char(n): equal as char(n), so one char(n) value equals
-- varchar keys with any number of trailing blanks, which no one hash finds:
-- refused.  char(n) keys probed with a varchar strip its blanks.
SELECT 'abc '::varchar = 'abc'::char(5) AS sql_equal;
SELECT bf_contains(bf_add(bf_create(10), 'abc '::varchar), 'abc'::char(5));
SELECT cf_contains(cf_add(cf_create(10), 'abc '::varchar), 'abc'::char(5));
SELECT bf_contains(bf_add(bf_create(10), 'abc'::char(5)), 'abc '::varchar) AS bpchar_keys;
CREATE TABLE kp_v (v varchar);
INSERT INTO kp_v VALUES ('abc ');
CREATE INDEX kp_v_bf ON kp_v USING bloomfilter (v);
SELECT count(*) AS sql_finds FROM kp_v WHERE v = 'abc'::char(5);
SELECT bf_index_contains('kp_v_bf', 'abc'::char(5));
SELECT bf_index_contains('kp_v_bf', 'abc '::varchar) AS exact;
DROP TABLE kp_v;

-- 4. Rows: a filter records its rows' column types (a row signature), and
-- converts a probe row column by column, as SQL does
CREATE TABLE kp_visits (user_id int, day date);
INSERT INTO kp_visits VALUES (5, '2024-01-06'), (6, '2024-02-29');
SELECT count(*) AS sql_finds FROM kp_visits WHERE ROW(user_id, day) = ROW(5, '2024-01-06');
SELECT bf_key_type(f) AS key_type, bf_info(f)->>'key_type' AS columns,
       bf_contains(f, ROW(5, '2024-01-06')) AS untyped_column,
       bf_contains(f, ROW(5, '2024-01-06'::timestamp)) AS timestamp_column,
       bf_contains(f, ROW(5::bigint, '2024-01-06'::date)) AS bigint_column,
       bf_contains(f, ROW(5.0, '2024-01-06'::date)) AS numeric_column,
       bf_contains(f, ROW(5, '2024-01-06 00:00:01'::timestamp)) AS not_midnight
FROM (SELECT bf_agg(ROW(user_id, day)) AS f FROM kp_visits) s;
SELECT cf_contains(c, ROW(6, '2024-02-29')) AS cuckoo_untyped
FROM (SELECT cf_agg(ROW(user_id, day), 100) AS c FROM kp_visits) s;
-- the index over the same columns agrees, and so does its snapshot
CREATE INDEX kp_visits_bf ON kp_visits USING bloomfilter (user_id, day);
SELECT bf_index_contains('kp_visits_bf', ROW(5, '2024-01-06')) AS index_untyped,
       bf_index_contains('kp_visits_bf', ROW(5, '2024-01-06'::timestamp)) AS index_timestamp,
       bf_contains(bf_index_filter('kp_visits_bf'), ROW(6, '2024-02-29'::timestamp)) AS snapshot;
-- rows of another width are refused, not absent
SELECT bf_contains(bf_agg(ROW(user_id, day)), ROW(5)) FROM kp_visits;
-- a row's untyped column is read as its column's type, under the rules of 6
SELECT bf_contains(bf_agg(ROW(user_id, day)), ROW(5, '01/06/2024')) FROM kp_visits;
-- a filter that records no column types (key type record: made by 1.3, or
-- rows of more than six columns or of nested columns) refuses untyped columns
SELECT bf_contains(bf_set_key_type(bf_agg(ROW(user_id, day)), 'record'), ROW(5, '2024-01-06'))
FROM kp_visits;
SELECT bf_contains(bf_set_key_type(bf_agg(ROW(user_id, day)), 'record'), ROW(5, '2024-01-06'::date))
	AS typed_columns
FROM kp_visits;
-- a composite type names its columns' types
CREATE TYPE kp_pair AS (a int, b text);
SELECT bf_info(bf_create(100, key_type => 'kp_pair'))->>'key_type' AS composite;
DROP TYPE kp_pair;
-- a text column is read as its column's type, as an untyped one is (SQL
-- would refuse to compare integer with text: finding it is no false negative)
SELECT bf_contains(bf_agg(ROW(user_id, day)), ROW('5'::text, '2024-01-06'::date)) FROM kp_visits;

-- 5. citext keeps its type: refused, not hashed as text
CREATE EXTENSION IF NOT EXISTS citext;
SELECT bf_contains(bf_add(bf_create(100), 'Abc'::text), 'abc'::citext);
SELECT bf_add(bf_create(100), 'Abc'::citext);
SELECT cf_add(cf_create(100), 'Abc'::citext);
SELECT bf_shard('abc'::citext, 8);
DROP EXTENSION citext;

-- 6. Text read as a date or time must name one value in every session
SET DateStyle = 'ISO, MDY';
SELECT bf_contains(bf_add(bf_create(100), '2024-01-02'::date), '01/02/2024');
SET DateStyle = 'ISO, DMY';
SELECT bf_contains(bf_add(bf_create(100), '2024-01-02'::date), '01/02/2024');
RESET DateStyle;
SELECT bf_contains(bf_add(bf_create(100), '2024-01-02'::date), '2024-01-02') AS iso_date,
       bf_contains(bf_add(bf_create(100), '2024-01-02'::date), 'January 2, 2024') AS spelled,
       bf_contains(bf_add(bf_create(100), '2024-01-01 00:00+00'::timestamptz), '2024-01-01 01:00:00+01') AS offset_given,
       bf_contains(bf_add(bf_create(100), '1 day'::interval), '24 hours') AS interval_text;
SET TimeZone = 'UTC';
SELECT bf_contains(bf_add(bf_create(100), '2024-01-01 00:00:00+00'::timestamptz), '2024-01-01 00:00:00');
SET TimeZone = 'America/New_York';
SELECT bf_contains(bf_add(bf_create(100), '2024-01-01 00:00:00+00'::timestamptz), '2024-01-01 00:00:00');
RESET TimeZone;
SELECT bf_contains(bf_add(bf_create(100), current_date), 'today');
SET IntervalStyle = 'sql_standard';
SELECT bf_contains(bf_add(bf_create(100), '-1 2:00:00'::interval), '-1 2:00:00');
RESET IntervalStyle;
SELECT bf_contains(bf_add(bf_create(100), '-1 days +02:00:00'::interval), '-1 days +02:00:00') AS unambiguous_interval;
-- money follows lc_monetary: refused
SELECT bf_contains(bf_add(bf_create(100), 12.5::money), '12.50');
-- arrays of dates read their elements the same way
SELECT bf_contains(bf_add(bf_create(100), ARRAY['2024-01-02'::date]), '{2024-01-02}') AS iso_array;
SELECT bf_contains(bf_add(bf_create(100), ARRAY['2024-01-02'::date]), '{01/02/2024}');
-- a generated column stores the same answer in every session
CREATE TABLE kp_gen (f bloomfilter, hit boolean GENERATED ALWAYS AS (bf_contains(f, '2024-01-02')) STORED);
INSERT INTO kp_gen (f) VALUES (bf_add(bf_create(10), '2024-01-02'::date));
SELECT hit FROM kp_gen;
-- zone abbreviations mean what timezone_abbreviations says (IST is +02 in
-- Default, +05:30 in India; Australia's SAT makes "Sat" a zone): generated
-- over every abbreviation of the three shipped sets, a member added in a
-- session of one set and its text probed in a session of each: found, or
-- refused, never a silent "absent"
CREATE TEMP TABLE kp_abbrev (abbrev text);
SET timezone_abbreviations = 'Australia';
INSERT INTO kp_abbrev SELECT abbrev FROM pg_timezone_abbrevs;
SET timezone_abbreviations = 'India';
INSERT INTO kp_abbrev SELECT abbrev FROM pg_timezone_abbrevs;
RESET timezone_abbreviations;
INSERT INTO kp_abbrev SELECT abbrev FROM pg_timezone_abbrevs
UNION ALL SELECT unnest(ARRAY['Sat', 'Z', 'America/New_York', 'Etc/GMT+5']);
CREATE TEMP TABLE kp_abbrev_seen (abbrev text, added_in text, probed_in text, outcome text);
DO $$
DECLARE
	a text;
	sets text[] := ARRAY['Default', 'Australia', 'India'];
	added text;
	probed text;
	t text;
	v timestamptz;
	f bloomfilter;
	outcome text;
BEGIN
	FOR a IN SELECT DISTINCT abbrev FROM kp_abbrev ORDER BY 1 LOOP
		t := '2024-01-15 12:00:00 ' || a;
		FOREACH added IN ARRAY sets LOOP
			PERFORM set_config('timezone_abbreviations', added, true);
			BEGIN
				v := t::timestamptz;
			EXCEPTION WHEN OTHERS THEN
				CONTINUE;		-- not a time in this set: nothing to add
			END;
			f := bf_add(bf_create(10), v);
			FOREACH probed IN ARRAY sets LOOP
				PERFORM set_config('timezone_abbreviations', probed, true);
				BEGIN
					outcome := CASE WHEN bf_contains(f, t) THEN 'found' ELSE 'absent' END;
				EXCEPTION WHEN invalid_text_representation THEN
					outcome := 'refused';
				WHEN invalid_datetime_format OR datetime_field_overflow THEN
					outcome := 'not a time';
				END;
				INSERT INTO kp_abbrev_seen VALUES (a, added, probed, outcome);
			END LOOP;
		END LOOP;
	END LOOP;
	PERFORM set_config('timezone_abbreviations', 'Default', true);
END $$;
SELECT count(DISTINCT abbrev) > 150 AS many_abbreviations,
       count(*) FILTER (WHERE outcome = 'absent') AS silent_absences,
       count(*) FILTER (WHERE outcome = 'not a time') AS unreadable_probes
FROM kp_abbrev_seen;
-- the same in every set (UTC, Z, PST, a zone name): read; IST, EST, Sat: refused
SELECT abbrev, string_agg(DISTINCT outcome, ', ') AS outcomes
FROM kp_abbrev_seen
WHERE abbrev IN ('UTC', 'Z', 'PST', 'America/New_York', 'Etc/GMT+5', 'IST', 'EST', 'Sat')
GROUP BY abbrev ORDER BY abbrev;
SELECT bf_contains(bf_add(bf_create(100), '2024-01-15 12:00:00+00'::timestamptz),
                   '2024-01-15 17:30:00 IST');
DROP TABLE kp_gen, kp_codes, kp_visits;

-- Found by the oracle (test/oracle): a name key probed with a longer
-- string (an untyped literal compared with a name is clipped to 63 bytes,
-- as the key was); a "char" key probed with a char(n) (its padding goes, as
-- its cast to text drops it); bf_shard with key type record (no columns to
-- convert a row's to); date text readable under some DateStyle only
SELECT bf_contains(bf_add(bf_create(10), repeat('y', 70)::name), repeat('y', 70)) AS long_name;
SELECT bf_contains(bf_add(bf_create(10), '\377'::"char"), '\377'::char(6)) AS char_from_bpchar;
SELECT bf_shard(ROW(1, 2), 8, 'record');
SET DateStyle = 'ISO, MDY';
SELECT bf_contains(bf_add(bf_create(10), '2998-11-27'::date), '27/11/2998');
RESET DateStyle;
