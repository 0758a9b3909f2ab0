-- Filters stored by release 1.1 (hash id 1) answer exactly as they did,
-- forever.  The literals below were made by 1.1's code; the answers pinned
-- here are the ones 1.1 gave for them, including its "absent" for values
-- equal to a member but of another form (1.00 for 1.0), which hash id 2
-- fixes for new filters only.
CREATE TYPE mood AS enum ('happy', 'café');
CREATE TABLE legacy (name text PRIMARY KEY, bf bloomfilter);
-- bf_create(100, 0.01, 7) with 42::int8, 'abc', 'abc  '::char(5), a uuid,
-- 1.0::numeric, 0.0::float8, 'NaN'::float8, a date, '1 day'::interval,
-- ARRAY[1, 2], ROW(1, 'x'), 'café'::mood, '{"a": 1.0}'::jsonb,
-- '10.0.0.0/8'::inet and 2.5::float4
INSERT INTO legacy VALUES ('mixed', 'QkxNRgEBAQUHAAAAAAAAAAAEAAAAAAAAZAAAAAAAAAB7FK5H4XqEP0MAAAAAAAAAABBAABCBAAGAAgAAEABAAAAEEAACiQAFMAECAAAAAAAAEYgAAiAAhCAAAGAAAABAAAAAgAAEAAAAgAIAAAAAAAAAAACAAAAAgAIBIAEAAAAAABAAAAAAAAAAAAAAgAAABgRAAUQBAAACkQAAQRCAAAAAAwBAAAAAggAAAAAAAAA=');
-- bf_add_all(bf_create(1000, 0.01), 1 .. 1000)
INSERT INTO legacy VALUES ('ints', 'QkxNRgEBAQYAAAAAAAAAAAAoAAAAAAAA6AMAAAAAAAB7FK5H4XqEP+URAAAAAAAAzGQfNJBlPmp+kDdzhFn7MN19uJKVSEbDSlCIGTPQYAf44PrgXpBZzj7lQELtRv+QyV/WpMwT8OzEQ9Ge0yYZ/YmCB2ZZIySaGIwcRABOoPRRKQA0AgJdMcSAhuGgLBTmIAU6PGkhDLzEF0FboIcqbCpJQmDwECLViK+GCHC8GIoY15f0IpgR1UjPnamWdNUN8AyCDapny1RgEjy8gh5ZUakBIoA1cWcNXCSD60wDEYFy0ygOY1GypQyK7OaG8FlpEzqD5CdxJhdqVFgMKDCxkuYP0g29B/MQYLk2kNTYKqvl60rKbfRwueZd/bgUeav2sY1JTK/3FREaJsckgECEwSGZCOZwWKT7FKAb+ZHOb2+jYk7mULDn6UWSjqDWxK8hUpROQDrhX1hFcK+faUOkgUnhP+9rvWYUdugsJehq+GvSrgoXaUmAnzLyTZtZJmgCxbYkgkVohNRuQzRBQ4hD2pJxSVtDqF7JCzOI/SeliM6X5/PiAcaZiBxGyFFPAmaj83WIWFIKQJsiUZYEgzYGPaPpVQofzpIEAgBkOVfvg+YA9GOxpAwVGdlRQKeBArlpWXKAxCKKFUAIEIlZJkguY2OAokodQF/YIjG3VGbwVbADGitxBUtgfKI/mY+HjMnG2RtOpmAWg6WuvlMKaHt6rkh5XvuBcyJYIAivcmz3B1Cp9GNAutFBgGrfUgsbpjGFD1OYMKIANsAOInrGp46QUMLKkyFDhn6CdiF4sp9VLS7izaUJsH5Kln+09mQ+Q71WoY47U4oBMqpaZr4gtJ51q3m5lE8EyHZDoRt1e0iPCYpo3C7A4lHF0yFFricOIaJLr6DYBksZYiHu5IMpzLHvEOZXqtI0Mf5/AFsVgkIlTy5KIBRI8vjsFhyLJTteTojmkTBII0NRL4kC08CEYZZU8KCOIVBvgyMCx95yUQJL6izISS/R7yYxygcTUUJgxTCy0eCtDeiYDf4cWgKBgycIYVQepUnzBJgJmE4/HrYqSth3isDDIQhZ78UdDCtNkpsnxCyaDoiXuXtgAI4tDUIRABqQtNjKWkeWS5R2+HloAPDERK3gFcBHwGQBDgTkljaPg8ydQCOoq8fFmKzZpqG42ogC8sx4tw7cQkASCUA4AJCqSiVbQzfUlSFcLEwGBQoLsjc0eosK6W6yKBgKgzxqXgKpChguEngwTCMEoYBbFpxMgQiZspsA3mRiSbQVZifwAIWcDiuAClmCAnY9/jhpA1pEqiFLuzCkA+iVCKPEIPjbHAgiBODDiJTGlECQNJAZnM2UKCBy2IS8YSKGeAG+Qm0kxapzKBIVllmjCIEovP4k+Z16l8zUwFC6YOSzg9Iq20BAa9BAtKX5QEV9BipzUwVl9LcYnGOgRwJMOcgN9mnomL3cZWaA5C+mjOgdSAIxtwISfTNfCvyPWRAp+xLL66AoBgDdtvC+kRF+am0Nzrl3lldLztda9NzFajbTw6/tFt73vCbJRJrzFEPgNTIlc4WjpY4jZZyvDMGPkuSX6shRqQZHoHYncL6Mlf6bhiSZ2AQPcpP27oNyhIKExl8qsKElo4h2vAY2xBe9wbeFYLuU2lYkZCWa6UYJDAnUBaoL+Qkgb0+FyC9f7MLMKO2aAXf8NSv+YvP2e/+jQw6vVfLAZ/meiNpVVjYuu5KrM/46Nl9riKLj9M36jIC0AfNg+sWQQv29bqP1j6EQ8iFL/YY=');

SELECT name, md5(bf::bytea), get_byte(bf::bytea, 6) AS hash_id, bf_info(bf)->>'hash' AS hash
FROM legacy ORDER BY name;

SELECT bf @> 42::int8 AS int8, bf @> 42 AS int4, bf @> 'abc'::text AS text,
       bf @> 'abc'::char(3) AS bpchar, bf @> 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS uuid,
       bf @> 1.0::numeric AS numeric, bf @> 1.00::numeric AS numeric_other_scale,
       bf @> 1::numeric AS numeric_integral, bf @> 0.0::float8 AS zero,
       bf @> '-0'::float8 AS minus_zero, bf @> 'NaN'::float8 AS nan,
       bf @> '2024-01-01'::date AS date, bf @> '1 day'::interval AS day,
       bf @> '24 hours'::interval AS hours
FROM legacy WHERE name = 'mixed';
SELECT bf @> ARRAY[1, 2] AS array, bf @> ROW(1, 'x') AS record, bf @> 'café'::mood AS enum,
       bf @> '{"a": 1.0}'::jsonb AS jsonb, bf @> '{"a": 1.00}'::jsonb AS jsonb_other_scale,
       bf @> '10.0.0.0/8'::inet AS inet, bf @> 2.5::float4 AS float4, bf @> 2.5::float8 AS float4_as_float8,
       bf @> 43 AS absent_int, bf @> 'abd'::text AS absent_text
FROM legacy WHERE name = 'mixed';

-- 1.1 counted 1035 hits among 1 .. 5000 (1000 members, 35 false positives)
SELECT count(*) AS hits FROM legacy l, generate_series(1, 5000) g WHERE l.name = 'ints' AND l.bf @> g;

-- adding to a legacy filter keeps its hash id and its rules
SELECT get_byte(bf_add(bf, 1.5::numeric)::bytea, 6) AS still_id_1,
       bf_add(bf, 1.5::numeric) @> 1.5::numeric AS added,
       bf_add(bf, 1.5::numeric) @> 1.50::numeric AS other_scale_still_differs
FROM legacy WHERE name = 'mixed';
-- the same bits as 1.1's bf_add_all, through the new code
SELECT bf_add_all(overlay(bf_create(1000, 0.01)::bytea placing '\x01' from 7 for 1)::bloomfilter,
                  ARRAY(SELECT generate_series(1, 1000)))::bytea
         = bf_set_key_type(bf, 'integer')::bytea AS same_bytes_as_1_1
FROM legacy WHERE name = 'ints';

-- legacy and new filters do not mix
SELECT bf_union(bf, bf_create(1000, 0.01)) FROM legacy WHERE name = 'ints';

-- text inside binary output would follow client_encoding: rather than hash
-- bytes that change with the session, hash id 1 refuses such types then;
-- enums are hashed by their label and are unaffected
SET client_encoding = 'LATIN1';
SELECT bf @> enum_last(NULL::mood) AS enum_under_latin1 FROM legacy WHERE name = 'mixed';
SELECT bf @> ROW(1, 'x') FROM legacy WHERE name = 'mixed';
RESET client_encoding;

DROP TABLE legacy;
DROP TYPE mood;
