-- COPY in binary format round-trips filters byte for byte (send/recv)
CREATE TABLE cb (id int, bf bloomfilter);
INSERT INTO cb SELECT n, bf_add_all(bf_create(n * 1000, 0.01), ARRAY(SELECT generate_series(1, n * 100)))
FROM generate_series(1, 3) n;
INSERT INTO cb VALUES (4, NULL);
\copy cb TO 'results/cb.bin' WITH (FORMAT binary)
CREATE TABLE cb2 (LIKE cb);
\copy cb2 FROM 'results/cb.bin' WITH (FORMAT binary)
SELECT id, a.bf::bytea = b.bf::bytea AS identical, b.bf IS NULL AS is_null
FROM cb a JOIN cb2 b USING (id) ORDER BY id;

-- and in text format
\copy cb TO 'results/cb.txt'
CREATE TABLE cb3 (LIKE cb);
\copy cb3 FROM 'results/cb.txt'
SELECT id, a.bf::bytea = b.bf::bytea AS identical FROM cb a JOIN cb3 b USING (id) ORDER BY id;

-- binary receive validates: a corrupt payload is refused
CREATE TABLE raw (b bytea);
INSERT INTO raw SELECT overlay(bf::bytea placing '\x02' from 5 for 1) FROM cb WHERE id = 1;
\copy raw TO 'results/raw.bin' WITH (FORMAT binary)
CREATE TABLE cb4 (bf bloomfilter);
\copy cb4 FROM 'results/raw.bin' WITH (FORMAT binary)
TRUNCATE raw;
INSERT INTO raw SELECT substring(bf::bytea from 1 for 100) FROM cb WHERE id = 1;
\copy raw TO 'results/raw.bin' WITH (FORMAT binary)
\copy cb4 FROM 'results/raw.bin' WITH (FORMAT binary)
SELECT count(*) AS loaded FROM cb4;

DROP TABLE cb, cb2, cb3, cb4, raw;
