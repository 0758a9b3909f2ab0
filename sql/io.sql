-- text form: base64 of the binary form; round trips exactly
SELECT bf_create(10) AS empty_filter;
SELECT bf_create(10)::text::bloomfilter::text = bf_create(10)::text AS text_round_trip;
SELECT length(bf_create(10)::text) AS text_length,
       length(bf_create(10)::bytea) AS binary_length;

-- a filter with content survives text, bytea and binary send/recv unchanged
CREATE TABLE io_t (id int, bf bloomfilter);
INSERT INTO io_t SELECT 1, bf_add_all(bf_create(1000, 0.01), array_agg(g)) FROM generate_series(1, 500) g;
SELECT bf::text::bloomfilter::bytea = bf::bytea AS text_exact,
       bf::bytea::bloomfilter::bytea = bf::bytea AS bytea_exact,
       md5(bf::bytea) = md5(bf::text::bloomfilter::bytea) AS same_md5
FROM io_t;

-- the binary form starts with the documented header
SELECT substring(bf::bytea from 1 for 4) AS magic,
       get_byte(bf::bytea, 4) AS version,
       get_byte(bf::bytea, 5) AS layout,
       get_byte(bf::bytea, 6) AS hash_id,
       get_byte(bf::bytea, 7) AS nhashes
FROM io_t;

-- surrounding white space in a literal is ignored
SELECT ('  ' || bf_create(5)::text || E'\n')::bloomfilter::text = bf_create(5)::text AS trimmed;

-- membership answers survive every round trip
SELECT bool_and(bf::text::bloomfilter @> g) AS via_text,
       bool_and(bf::bytea::bloomfilter @> g) AS via_bytea
FROM io_t, generate_series(1, 500) g;

-- pg_dump-style: output then input gives the same stored bytes
CREATE TABLE io_copy (bf bloomfilter);
INSERT INTO io_copy SELECT bf::text::bloomfilter FROM io_t;
SELECT (SELECT bf::bytea FROM io_copy) = (SELECT bf::bytea FROM io_t) AS identical;
DROP TABLE io_t, io_copy;
