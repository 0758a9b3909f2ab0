-- Upgrading an installation whose objects use 1.0's bf_create: they keep
-- working (the old function is kept as bf_create_1_0 for them), and new
-- calls reach the 1.2 function with its named arguments.
DROP EXTENSION bloomfilter;
CREATE EXTENSION bloomfilter VERSION '1.1';
CREATE TABLE keeps (id int, bf bloomfilter DEFAULT bf_create(100, 0.01, 7));
CREATE VIEW small_filter AS SELECT bf_create(1000) AS bf;
INSERT INTO keeps (id) VALUES (1);
ALTER EXTENSION bloomfilter UPDATE TO '1.2';
SELECT oid::regprocedure AS function FROM pg_proc WHERE proname LIKE 'bf\_create%' ORDER BY 1::text;
INSERT INTO keeps (id) VALUES (2);
SELECT id, get_byte(bf::bytea, 6) AS hash_id, bf_capacity(bf) FROM keeps ORDER BY id;
SELECT bf_capacity(bf) FROM small_filter;
SELECT bf_info(bf_create(1000, 0.01, counting => true))->>'layout' AS named_arguments;
DROP VIEW small_filter;
DROP TABLE keeps;
-- with nothing depending on them, 1.0's functions are gone after the upgrade
DROP EXTENSION bloomfilter;
CREATE EXTENSION bloomfilter VERSION '1.0';
ALTER EXTENSION bloomfilter UPDATE;
SELECT oid::regprocedure AS function FROM pg_proc WHERE proname LIKE 'bf\_create%' ORDER BY 1::text;
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';
