-- Sharded filters: bf_shard, bf_shard_capacity, bf_shards_for.

-- The shard of a value is a contract like the filter's hash: these values
-- follow docs/format.md's recipe (MurmurHash3 x64_128 of the canonical bytes,
-- seed 0x44524853, high 64 bits of h2 * nshards) and must never change.
SELECT x, bf_shard(x, 2) AS "2", bf_shard(x, 3) AS "3", bf_shard(x, 7) AS "7",
       bf_shard(x, 8) AS "8", bf_shard(x, 1000) AS "1000", bf_shard(x, 65536) AS "65536"
FROM unnest(ARRAY[0, 1, -1, 42, 4611686018427387904]::bigint[]) x;
SELECT x, bf_shard(x, 2) AS "2", bf_shard(x, 3) AS "3", bf_shard(x, 7) AS "7",
       bf_shard(x, 8) AS "8", bf_shard(x, 1000) AS "1000", bf_shard(x, 65536) AS "65536"
FROM unnest(ARRAY['', 'a', 'hello']) x;
SELECT bf_shard('00000000-0000-0000-0000-000000000001'::uuid, 65536) AS uuid,
       bf_shard(1.5, 65536) AS numeric, bf_shard(ROW(1, 'a'), 65536) AS record,
       bf_shard(ARRAY[1, 2], 65536) AS array;

-- one shard: always 0; a literal read as text
-- (1.3: an untyped literal names its type, as a cast or with key_type)
SELECT bf_shard(12345, 1) AS one_shard, bf_shard('hello', 65536, 'text') AS literal_keyed,
       (SELECT bf_shard(s, 65536) FROM (SELECT 'hello'::text AS s OFFSET 0) v) AS text_column;
-- (1.4: a string constant or parameter without key_type is refused: its
-- type may have come from another use of a parameter; see below)
SELECT bf_shard('hello'::text, 65536);

-- values SQL calls equal share a shard, as they share a filter's bits
SELECT count(DISTINCT s) AS shards FROM (VALUES
	(bf_shard(7::int2, 65536)), (bf_shard(7::int4, 65536)), (bf_shard(7::int8, 65536)),
	(bf_shard(7.0::numeric, 65536)), (bf_shard(7.00::numeric, 65536)),
	(bf_shard(7::float8, 65536)), (bf_shard(7::float4, 65536))) v(s);
CREATE TABLE shard_strings (t text, v varchar, c char(5), n name);
INSERT INTO shard_strings VALUES ('abc', 'abc', 'abc  ', 'abc');
SELECT count(DISTINCT s) AS shards FROM shard_strings, LATERAL (VALUES
	(bf_shard(t, 65536)), (bf_shard(v, 65536)), (bf_shard(c, 65536)), (bf_shard(n, 65536)),
	(bf_shard('abc', 65536, 'text')), (bf_shard('abc  ', 65536, 'bpchar'))) v(s);
DROP TABLE shard_strings;
SELECT bf_shard('1 day'::interval, 65536) = bf_shard('24 hours'::interval, 65536) AS interval_eq,
       bf_shard(0.0::float8, 65536) = bf_shard('-0'::float8, 65536) AS zero_eq;

-- multiply-shift nests: shard s of n is shards 2s and 2s+1 of 2n
SELECT count(*) FILTER (WHERE bf_shard(g, 16) <> bf_shard(g, 32) / 2) AS not_nested_16_32,
       count(*) FILTER (WHERE bf_shard(g, 1024) <> bf_shard(g, 65536) / 64) AS not_nested_1024_65536
FROM generate_series(1, 100000) g;

-- NULL in, NULL out
SELECT bf_shard(NULL::int, 8) IS NULL AS null_elem, bf_shard(1, NULL) IS NULL AS null_n,
       bf_shard_capacity(NULL, 8) IS NULL AS null_cap, bf_shards_for(NULL) IS NULL AS null_for;

-- bad arguments
\set VERBOSITY sqlstate
SELECT bf_shard(1, 0);
SELECT bf_shard(1, -1);
SELECT bf_shard(1, 65537);
SELECT bf_shard('{}'::jsonb, 8);
SELECT bf_shard_capacity(0, 8);
SELECT bf_shard_capacity(100, 0);
SELECT bf_shards_for(0);
SELECT bf_shards_for(1000, 0);
SELECT bf_shards_for(1000, 1e-11);
SELECT bf_shards_for(1000, 0.01, 0);
SELECT bf_shards_for(9223372036854775807);
\set VERBOSITY default
SELECT bf_shard(1, 0);

-- how many shards, and what each is built for
SELECT n, bf_shards_for(n) AS shards, bf_shard_capacity(n, bf_shards_for(n)) AS shard_capacity,
       pg_size_pretty(pg_column_size(bf_create(bf_shard_capacity(n, bf_shards_for(n))))::bigint) AS shard_size
FROM unnest(ARRAY[1, 1000000, 200000000, 1000000000, 10000000000, 1000000000000]::bigint[]) n;
SELECT bf_shards_for(1000000000, 0.001) AS "1e9 at 0.1%",
       bf_shards_for(1000000000, 0.01, 64 * 1024 * 1024) AS "1e9 in 64 MB shards",
       bf_shards_for(1000000, 0.01, 1000) AS "1e6 in 1000-byte shards";
-- the chosen n is the smallest power of two that fits
SELECT n, bool_and(pg_column_size(bf_create(bf_shard_capacity(n, s), 0.01)) <= 1048576) AS fits,
       bool_and(s = 1 OR pg_column_size(bf_create(bf_shard_capacity(n, s / 2), 0.01)) > 1048576) AS half_does_not
FROM unnest(ARRAY[1000, 500000, 5000000, 77777777]::bigint[]) n,
     LATERAL (SELECT bf_shards_for(n, 0.01, 1048576) AS s) c
GROUP BY n ORDER BY n;
-- the margin: a shard's share plus six standard deviations, never over the total
SELECT bf_shard_capacity(1000000000, 1) AS one, bf_shard_capacity(1000000000, 8) AS eight,
       bf_shard_capacity(10, 4) AS tiny, bf_shard_capacity(1, 65536) AS single;

-- balance: 10M keys, each shard within a few percent of its share
CREATE TEMP TABLE balance AS
	SELECT bf_shard(g, 64) AS s, count(*) AS n FROM generate_series(1::bigint, 10000000) g GROUP BY 1;
SELECT count(*) AS shards, sum(n) AS keys,
       max(abs(n - 10000000 / 64.0)) / (10000000 / 64.0) < 0.02 AS within_2pct_of_64
FROM balance;
SELECT count(*) AS shards, max(abs(n - 10000000 / 8.0)) / (10000000 / 8.0) < 0.005 AS within_half_pct_of_8
FROM (SELECT s / 8 AS s8, sum(n) AS n FROM balance GROUP BY 1) b;
-- text keys too
SELECT count(*) AS shards, max(abs(n - 62500)) / 62500.0 < 0.03 AS within_3pct
FROM (SELECT bf_shard('user-' || g, 16) AS s, count(*) AS n
      FROM generate_series(1, 1000000) g GROUP BY 1) t;

-- a sharded table, built in one pass; every shard keeps the promised rate
CREATE TABLE shard_bf (shard int PRIMARY KEY, bf bloomfilter NOT NULL);
INSERT INTO shard_bf
	SELECT bf_shard(g * 2, 16), bf_agg(g * 2, bf_shard_capacity(1000000, 16), 0.01)
	FROM generate_series(1::bigint, 1000000) g GROUP BY 1;
VACUUM ANALYZE shard_bf;
SELECT count(*) AS shards, count(DISTINCT bf_nbits(bf)) AS one_shape,
       min(bf_capacity(bf)) AS capacity FROM shard_bf;
-- many keys at once: join on the shard, the probes in shard order, so that
-- each shard's filter is read once and then held (stored.sql)
CREATE TEMP TABLE probes AS
	SELECT g * 2 AS k, bf_shard(g * 2, 16) AS s, true AS member FROM generate_series(1::bigint, 1000000) g
	UNION ALL
	SELECT g * 2 + 1, bf_shard(g * 2 + 1, 16), false FROM generate_series(1::bigint, 1000000) g;
SELECT count(*) FILTER (WHERE p.member AND NOT bf_contains(b.bf, p.k)) AS false_negatives
FROM (SELECT * FROM probes ORDER BY s) p JOIN shard_bf b ON b.shard = p.s;
-- false positives per shard, from 1M absent keys
SELECT count(*) AS shards, sum(probes) AS probes, bool_and(rate <= 0.01) AS every_shard_within_1pct,
       max(rate) < 0.0095 AS max_rate_under_0_95pct
FROM (SELECT b.shard, count(*) AS probes, avg(bf_contains(b.bf, p.k)::int) AS rate
      FROM (SELECT * FROM probes WHERE NOT member ORDER BY s) p
      JOIN shard_bf b ON b.shard = p.s
      GROUP BY b.shard) r;
-- an int4 probe finds the int8 key's shard and bit
SELECT bf_contains(bf, 42) AS found FROM shard_bf WHERE shard = bf_shard(42, 16);
SELECT bf_contains(bf, 43) AS absent FROM shard_bf WHERE shard = bf_shard(43, 16);

-- a point check reads one shard's header and block by slices (index, row,
-- TOAST index and chunk for each), not the shard; stored.sql has the detail
CREATE FUNCTION blocks(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || query INTO plan;
	RETURN (plan->0->'Plan'->>'Shared Hit Blocks')::bigint
	     + (plan->0->'Plan'->>'Shared Read Blocks')::bigint;
END $$;
SELECT blocks('SELECT md5(bf::bytea) FROM shard_bf WHERE shard = 3') AS one_read \gset
SELECT blocks('SELECT bf_contains(bf, 12345::bigint) FROM shard_bf WHERE shard = bf_shard(12345::bigint, 16)')
	< :one_read AS point_check_reads_less_than_a_shard;

-- keeping current: a statement's rows go to their shards (a shard no key
-- had reached yet is made), and only those shards are rewritten
CREATE TABLE users (id bigint PRIMARY KEY);
CREATE TABLE user_filter (shard int PRIMARY KEY, bf bloomfilter NOT NULL);
CREATE FUNCTION user_filter_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO user_filter AS f (shard, bf)
		SELECT bf_shard(id, 4), bf_agg(id, bf_shard_capacity(100000, 4), 0.01)
		FROM new_rows GROUP BY 1
	ON CONFLICT (shard) DO UPDATE SET bf = bf_union(f.bf, excluded.bf);
	RETURN NULL;
END $$;
CREATE TRIGGER user_filter_add AFTER INSERT ON users
	REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION user_filter_add();
INSERT INTO users VALUES (42);
SELECT shard, bf_bits_set(bf) > 0 AS has_bits FROM user_filter ORDER BY shard;
INSERT INTO users SELECT g FROM generate_series(1000, 50999) g;
INSERT INTO users SELECT g FROM generate_series(60000, 60999) g;
SELECT count(*) AS shards, sum(bf_cardinality(bf)) BETWEEN 51000 * 0.97 AND 51000 * 1.03 AS about_51001
FROM user_filter;
SELECT count(*) FILTER (WHERE NOT bf_contains(f.bf, u.id)) AS false_negatives
FROM users u JOIN user_filter f ON f.shard = bf_shard(u.id, 4);
DROP TABLE users, user_filter;
DROP FUNCTION user_filter_add();

-- growing: rebuild into a new table with twice the shards, then swap
CREATE TABLE shard_bf_new (shard int PRIMARY KEY, bf bloomfilter NOT NULL);
INSERT INTO shard_bf_new
	SELECT bf_shard(g * 2, 32), bf_agg(g * 2, bf_shard_capacity(2000000, 32), 0.01)
	FROM generate_series(1::bigint, 1000000) g GROUP BY 1;
BEGIN;
DROP TABLE shard_bf;
ALTER TABLE shard_bf_new RENAME TO shard_bf;
COMMIT;
SELECT count(*) AS shards FROM shard_bf;
SELECT count(*) FILTER (WHERE NOT bf_contains(b.bf, p.k)) AS false_negatives
FROM (SELECT k, bf_shard(k, 32) AS s FROM probes WHERE member ORDER BY 2) p
JOIN shard_bf b ON b.shard = p.s;

DROP TABLE shard_bf, probes;
DROP FUNCTION blocks(text);
