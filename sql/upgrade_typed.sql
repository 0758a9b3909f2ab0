-- Upgrading 1.2 to 1.3 with objects that use the functions whose 1.2 forms
-- 1.3 replaces (bf_create, cf_create, bf_shard(text, integer)): the forms
-- they use are kept under a _1_2 name and keep working unchanged, the
-- others are dropped (cf_create with a seed, here), stored filters answer
-- as before, and new calls reach the 1.3 functions.
DROP EXTENSION bloomfilter;
CREATE EXTENSION bloomfilter VERSION '1.2';
CREATE TABLE keeps (id int, bf bloomfilter DEFAULT bf_create(100), cf cuckoofilter DEFAULT cf_create(100));
CREATE TABLE users (name text);
INSERT INTO users VALUES ('alice'), ('bob');
CREATE VIEW user_shards AS SELECT name, bf_shard(name, 8) AS shard FROM users;
-- (bytes made by 1.2: the bigints 1..5; the library is already 1.3's)
CREATE TABLE stored AS SELECT
	'QkxNRgEBAgIAAAAAAAAAAAACAAAAAAAACgAAAAAAAAB7FK5H4XqEPwoAAAAAAAAAAAAAAAAAAAAAhAgAAAAAAAIAAAgAAAAAAAAAAAAAAAAAAAAACCAAAAAAAAAAAAIAAAAIAAAAAAAAAAAAAIAAAA=='::bloomfilter AS bf;
SELECT * FROM user_shards ORDER BY name;
ALTER EXTENSION bloomfilter UPDATE TO '1.3';
INSERT INTO keeps (id) VALUES (1);
SELECT id, bf_key_type(bf), cf_key_type(cf), bf_key_type(bf_add(bf, 5::int8)) AS typed_on_first_add FROM keeps;
SELECT * FROM user_shards ORDER BY name;
SELECT name, bf_shard(name, 8) AS shard FROM users ORDER BY name;
SELECT bf_key_type(bf), bf @> 2::int8 AS found, bf @> '2'::text AS text_as_in_1_2,
       bf_set_key_type(bf, 'bigint') @> '2'::text AS after_set_key_type
FROM stored;
SELECT oid::regprocedure::text AS function FROM pg_proc
WHERE proname IN ('bf_create', 'bf_create_1_2', 'cf_create', 'cf_create_1_2', 'bf_shard', 'bf_shard_text_1_2')
ORDER BY 1;
DROP VIEW user_shards;
DROP TABLE keeps, users, stored;
DROP EXTENSION bloomfilter;
CREATE EXTENSION bloomfilter;
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';
