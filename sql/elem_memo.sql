-- The backend's memo of element types and check plans (type/keys.c): a
-- call site starts from the plan another execution or statement made for
-- the same type and collation.  Every answer here must be what a fresh
-- backend gives, however the memo was filled before.

-- filters of six key types, each holding the integers 1..200 as its type
CREATE TABLE memo_f (id int, f bloomfilter);
INSERT INTO memo_f
SELECT 1, bf_agg(g::bigint, 1000, 0.001) FROM generate_series(1, 200) g
UNION ALL SELECT 2, bf_agg(g::numeric, 1000, 0.001) FROM generate_series(1, 200) g
UNION ALL SELECT 3, bf_agg(g::float8, 1000, 0.001) FROM generate_series(1, 200) g
UNION ALL SELECT 4, bf_agg(g::int4, 1000, 0.001) FROM generate_series(1, 200) g
UNION ALL SELECT 5, bf_agg(g::oid, 1000, 0.001) FROM generate_series(1, 200) g;
CREATE TABLE memo_t (id int, f bloomfilter);
INSERT INTO memo_t
SELECT 1, bf_agg(g::text, 1000, 0.001) FROM generate_series(1, 200) g
UNION ALL SELECT 2, bf_agg(DATE '2026-01-01' + g, 1000, 0.001) FROM generate_series(1, 200) g
UNION ALL SELECT 3, bf_agg(g::bigint, 1000, 0.001) FROM generate_series(1, 200) g;

-- every member of every filter, by probes of several types, the plan
-- changing from row to row, three times over: the same all-true answers
-- each time (members missed: 0)
SELECT r, t, count(*) FILTER (WHERE NOT hit) AS missed, count(*) AS checks
FROM generate_series(1, 3) r,
	LATERAL (SELECT 'bigint' AS t, bf_contains(f, g::bigint) AS hit FROM memo_f, generate_series(1, 200) g
			 UNION ALL SELECT 'numeric', bf_contains(f, g::numeric) FROM memo_f, generate_series(1, 200) g WHERE id <> 5
			 UNION ALL SELECT 'smallint', bf_contains(f, g::int2) FROM memo_f, generate_series(1, 200) g
			 UNION ALL SELECT 'integer', bf_contains(f, g::int4) FROM memo_f, generate_series(1, 200) g
			 UNION ALL SELECT 'text', bf_contains(f, CASE WHEN id = 2 THEN to_char(DATE '2026-01-01' + g, 'YYYY-MM-DD') ELSE g::text END) FROM memo_t, generate_series(1, 200) g) x
GROUP BY r, t ORDER BY r, t;

-- prepared: each execution starts from the memo's plan of the last
PREPARE c_int8(bigint) AS SELECT count(*) FILTER (WHERE bf_contains(f, $1)) FROM memo_f;
PREPARE c_text(text) AS SELECT count(*) FILTER (WHERE bf_contains(f, $1)) FROM memo_t WHERE id <> 2;
SELECT string_agg(format('EXECUTE c_int8(%s); EXECUTE c_text(%L)', g, g), '; ')
FROM generate_series(1, 200, 40) g \gexec
-- absent keys stay a matter of the filters (these are not members)
EXECUTE c_int8(-5);
EXECUTE c_text('-5');

-- a check's plan in the memo, then adds of the same type: the add's own
-- rules (text into a date filter is read by date's input)
SELECT bf_contains(f, '2026-01-05') FROM memo_t WHERE id = 2;
SELECT bf_contains(bf_add(f, '2027-01-01'::text), '2027-01-01'::date) FROM memo_t WHERE id = 2;
SELECT bf_add(f, 'not a date'::text) FROM memo_t WHERE id = 2;
SELECT bf_contains(f, 'not a date'::text) FROM memo_t WHERE id = 2;

-- refusals are made on every execution, never remembered as a plan
\set VERBOSITY terse
CREATE TYPE memo_mood AS ENUM ('sad', 'happy');
PREPARE c_enum(memo_mood) AS SELECT bf_contains(f, $1) FROM memo_t WHERE id = 1;
EXECUTE c_enum('sad');
EXECUTE c_enum('sad');
PREPARE c_ts(timestamptz) AS SELECT bf_contains(f, $1) FROM memo_t WHERE id = 2;
EXECUTE c_ts('2026-01-05');
EXECUTE c_ts('2026-01-05');
CREATE COLLATION memo_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT bf_contains(f, '5' COLLATE "C") FROM memo_t WHERE id = 1;
SELECT bf_contains(f, '5' COLLATE memo_ci) FROM memo_t WHERE id = 1;
SELECT bf_contains(f, '5' COLLATE memo_ci) FROM memo_t WHERE id = 1;
SELECT bf_contains(f, '5' COLLATE "C") FROM memo_t WHERE id = 1;
\set VERBOSITY default

-- a domain dropped and made again over another type, under the same name
CREATE DOMAIN memo_d AS bigint;
SELECT bf_contains(f, 7::memo_d) FROM memo_f WHERE id = 1;
DROP DOMAIN memo_d;
CREATE DOMAIN memo_d AS text;
SELECT bf_contains(f, '7'::memo_d) FROM memo_t WHERE id = 1;
SELECT bf_contains(f, '7'::memo_d) FROM memo_f WHERE id = 1;

DROP DOMAIN memo_d;
DROP COLLATION memo_ci;
DROP TYPE memo_mood;
DROP TABLE memo_f, memo_t;
