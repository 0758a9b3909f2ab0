-- Checks of stored (out-of-line, uncompressed) values read only what they
-- need: the header, the directory of sub-filters and the spans an element
-- maps to, by TOAST chunks.  Every layout and the cuckoo filter, by point
-- checks (bf_contains, bf_count, cf_contains, cf_count) and batches
-- (bf_contains_all, cf_contains_all), answer as the same value does in
-- memory; and the reads stay small where a whole read takes hundreds of
-- buffers.
SET max_parallel_workers_per_gather = 0;
-- A row is toasted when it is over 2 kB; then toast_tuple_target 128 sends
-- every value of the default (EXTERNAL) storage out of line, even small
-- ones, so the rows carry a padding column that makes them large.
CREATE TABLE sf (name text PRIMARY KEY, bf bloomfilter, pad text DEFAULT repeat('x', 3000))
	WITH (toast_tuple_target = 128);
CREATE TABLE sc (name text PRIMARY KEY, cf cuckoofilter, pad text DEFAULT repeat('x', 3000))
	WITH (toast_tuple_target = 128);
ALTER TABLE sf ALTER COLUMN pad SET STORAGE external;
ALTER TABLE sc ALTER COLUMN pad SET STORAGE external;
INSERT INTO sf SELECT 'blocked', bf_agg(g::bigint, 200000, 0.001) FROM generate_series(1, 200000) g;
INSERT INTO sf SELECT 'counting', bf_add_all(bf_create(20000, 0.01, counting => true),
	ARRAY(SELECT g % 15000 FROM generate_series(1, 20000) g));
-- five sub-filters (40,000 elements, then 80,000, ... 640,000)
INSERT INTO sf SELECT 'scalable', bf_add_all(bf_create(40000, 0.01, expansion => 2),
	ARRAY(SELECT generate_series(1, 1240000)::bigint));
-- an unsized aggregate's list of hashes (layout 4), as a worker leaves it
CREATE AGGREGATE bf_agg_state(bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter);
INSERT INTO sf SELECT 'hashes', bf_agg_state(g) FROM generate_series(1, 500) g;
INSERT INTO sc SELECT 'one', cf_agg(g::bigint, 200000, 0.01) FROM generate_series(1, 200000) g;
INSERT INTO sc SELECT 'grown', cf_agg(g::bigint, 20000, 0.01) FROM generate_series(1, 1200000) g;
-- b = 8 (a small capacity) with copies of each element
INSERT INTO sc SELECT 'copies', cf_add_all(cf_create(50, 0.2), ARRAY(SELECT g % 40 FROM generate_series(1, 300) g));
-- merged: sub-filters of a shape growth alone does not make
INSERT INTO sc SELECT 'merged', cf_merge(a, b)
FROM (SELECT cf_agg(g::bigint, 20000, 0.01) FILTER (WHERE g % 2 = 0) AS a,
             cf_agg(g::bigint, 20000, 0.01) FILTER (WHERE g % 2 = 1) AS b
      FROM generate_series(1, 100000) g) s;
-- a value 1.2 built (sql/cuckoo.sql: cf_create(100, 0.01, 5), keys 0..299, two sub-filters)
INSERT INTO sc SELECT 'legacy', 'Q0tPRgECBAoFAAAAAgD0AWQAAAAAAAAAexSuR+F6hD8sAQAAAAAAAAAAAAAAAAAAGwAAAAAAAABoAAAAAAAAAAoAAAAAAAAAVrGr5KdT5I5Ft6t/zwMA/CZT++3wb4ulV7qM0amEM4ibkMeLaSvrN+0+IVWGMYurP0zhA4X1/CwmWIeS1ylW7xOH7/UzALKiPOLvQzNcYoTFdhiUuYU2jkYosqWFOWaBS7gkU0dOgyn99RViJn1wFAoAAKf5n6CpM9lI/kzoA7e1DVzjyG6ZNgAAAAAAAADEAAAAAAAAAAsAAAAAAAAADioQAACQGT71Fo4S4FUM2datJ1wmbaeBj/hOzrOkNxoAkc7Q8TQiPvDqEOeYCAEAABA3qwhYoQpdQzaSShm8eDbU+F5Wg4Rt4KbHPs48bWtOd3V3cAF/qduiqekAwMq2wBD51cIHvAGA3GlIyj0X9nRQSEK4wCfrPedFDjGiC2IFMkJz3QWjxPGUOwAAAABLrTn5AUA1s7ZmqUVVqx4H5XfAWPENyTQezZGzOEMdaVGe5TgAADDCkFODCCKCNQAAYMum0Cb/1mgz0/KrxCAxSf8OarXYAfDIsqiHpzsSFulLVCifzR4AHI8tHAGgRUhkJin6zxFBVYFE7QoRAJpuaOQoVe1Hfqo8Zht2rAFgCfsXFr5X/xsXxXoZRQ/1o2TGhLlRKddUEzmn'::cuckoofilter;
VACUUM ANALYZE sf;
VACUUM ANALYZE sc;

-- every value out of line and uncompressed: its stored size is the value's
-- (in line it would have a varlena header more)
SELECT name, bf_info(bf)->>'layout' AS layout, jsonb_array_length(bf_info(bf)->'subfilters') AS subfilters,
       pg_column_size(bf) = octet_length(bf::bytea) AS out_of_line
FROM sf ORDER BY name;
SELECT name, jsonb_array_length(cf_info(cf)->'subfilters') AS subfilters,
       cf_info(cf)->'bucket_size' AS bucket_size, pg_column_size(cf) = octet_length(cf::bytea) AS out_of_line
FROM sc ORDER BY name;

-- One check per statement (EXECUTE plans anew, so every check is the
-- call site's first: the path that reads by chunks), against the same
-- check of the value in memory (the bytea cast makes an in-line copy).
-- Returns the keys whose answer or count differs.
CREATE FUNCTION point_mismatches(tab text, col text, typ text, fn text, filter text,
                                 keys bigint[]) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	k bigint;
	stored text;
	whole text;
	bad bigint := 0;
BEGIN
	FOREACH k IN ARRAY keys LOOP
		EXECUTE format('SELECT %s(%I, $1)::text FROM %I WHERE name = $2', fn, col, tab)
			INTO stored USING k, filter;
		EXECUTE format('SELECT %s(%I::bytea::%s, $1)::text FROM %I WHERE name = $2', fn, col, typ, tab)
			INTO whole USING k, filter;
		IF stored IS DISTINCT FROM whole THEN
			bad := bad + 1;
		END IF;
	END LOOP;
	RETURN bad;
END $$;

-- members and non-members of every layout: contains and count
SELECT name,
       point_mismatches('sf', 'bf', 'bloomfilter', 'bf_contains', name,
                        ARRAY(SELECT (g * 7919) % 400000 FROM generate_series(1, 60) g)) AS contains,
       point_mismatches('sf', 'bf', 'bloomfilter', 'bf_count', name,
                        ARRAY(SELECT (g * 104729) % 400000 FROM generate_series(1, 30) g)) AS count
FROM sf ORDER BY name;
SELECT name,
       point_mismatches('sc', 'cf', 'cuckoofilter', 'cf_contains', name,
                        ARRAY(SELECT (g * 7919) % 400000 FROM generate_series(1, 60) g)) AS contains,
       point_mismatches('sc', 'cf', 'cuckoofilter', 'cf_count', name,
                        ARRAY(SELECT g FROM generate_series(0, 49) g)) AS count
FROM sc ORDER BY name;
-- and what they answer: every member found
SELECT (SELECT bf_contains(bf, 123457::bigint) FROM sf WHERE name = 'blocked') AS blocked,
       (SELECT bf_count(bf, 4999::bigint) FROM sf WHERE name = 'counting') AS counting_twice,
       (SELECT bf_contains(bf, 309999::bigint) FROM sf WHERE name = 'scalable') AS scalable_last,
       (SELECT bf_contains(bf, 3::bigint) FROM sf WHERE name = 'scalable') AS scalable_first,
       (SELECT bf_contains(bf, 499::bigint) FROM sf WHERE name = 'hashes') AS hashes;
SELECT (SELECT cf_contains(cf, 299999::bigint) FROM sc WHERE name = 'grown') AS grown_last,
       (SELECT cf_count(cf, 7::bigint) FROM sc WHERE name = 'copies') AS copies,
       (SELECT cf_contains(cf, 299) FROM sc WHERE name = 'legacy') AS legacy_member,
       (SELECT cf_contains(cf, 99999::bigint) FROM sc WHERE name = 'merged') AS merged;

-- batches: four keys (read by the chunks they need) and many (read whole)
-- answer as in memory
SELECT name,
       bf_contains_all(bf, ARRAY(SELECT (g * 7919) % 400000 FROM generate_series(1, 4) g)) =
       bf_contains_all(bf::bytea::bloomfilter, ARRAY(SELECT (g * 7919) % 400000 FROM generate_series(1, 4) g)) AS few,
       bf_contains_all(bf, ARRAY(SELECT generate_series(1, 5000)::bigint)) =
       bf_contains_all(bf::bytea::bloomfilter, ARRAY(SELECT generate_series(1, 5000)::bigint)) AS many
FROM sf ORDER BY name;
SELECT name,
       cf_contains_all(cf, ARRAY(SELECT (g * 7919) % 400000 FROM generate_series(1, 4) g)) =
       cf_contains_all(cf::bytea::cuckoofilter, ARRAY(SELECT (g * 7919) % 400000 FROM generate_series(1, 4) g)) AS few,
       cf_contains_all(cf, ARRAY(SELECT generate_series(1, 5000)::bigint)) =
       cf_contains_all(cf::bytea::cuckoofilter, ARRAY(SELECT generate_series(1, 5000)::bigint)) AS many
FROM sc ORDER BY name;
SELECT bf_contains_all(bf, ARRAY[1, 2, 200000, 200001, NULL]::bigint[]) AS blocked_batch
FROM sf WHERE name = 'blocked';
SELECT cf_contains_all(cf, ARRAY[1, 299999, NULL, 5000000]::bigint[]) AS grown_batch
FROM sc WHERE name = 'grown';

-- buffers (shared hits and reads) a statement touched
CREATE FUNCTION blocks(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || query INTO plan;
	RETURN (plan->0->'Plan'->>'Shared Hit Blocks')::bigint
	     + (plan->0->'Plan'->>'Shared Read Blocks')::bigint;
END $$;

-- a whole read of the big values touches hundreds of buffers; a check, a
-- few per sub-filter it looks into (PostgreSQL 15's btree descends once
-- per chunk asked for; later releases step along the leaf)
SELECT blocks('SELECT md5(cf::bytea) FROM sc WHERE name = ''grown''') > 300 AS cuckoo_whole_reads_many,
       blocks('SELECT cf_contains(cf, 77::bigint) FROM sc WHERE name = ''grown''') < 80 AS cuckoo_6_reads_few,
       blocks('SELECT cf_count(cf, 77::bigint) FROM sc WHERE name = ''one''') < 20 AS cuckoo_1_reads_few;
SELECT blocks('SELECT md5(bf::bytea) FROM sf WHERE name = ''scalable''') > 300 AS scalable_whole_reads_many,
       blocks('SELECT bf_contains(bf, 77::bigint) FROM sf WHERE name = ''scalable''') < 50 AS scalable_5_reads_few,
       blocks('SELECT bf_contains(bf, 77::bigint) FROM sf WHERE name = ''blocked''') < 20 AS blocked_reads_few;
-- a batch of 20 keys reads their chunks, not the value: the first chunk by
-- the index, then each at its place (a buffer each) where the value's
-- chunks lie in order, as they do here (by the index, PostgreSQL 15 would
-- touch about 4 buffers a chunk)
SELECT blocks('SELECT bf_contains_all(bf, ARRAY(SELECT generate_series(1, 20)::bigint)) FROM sf WHERE name = ''blocked''') < 40
	AS batch_reads_its_chunks,
       blocks('SELECT cf_contains_all(cf, ARRAY(SELECT generate_series(1, 20)::bigint)) FROM sc WHERE name = ''one''') < 150
	AS cuckoo_batch_reads_its_chunks;

-- Values stored into the free space of many pages: after the first chunk,
-- found by the index, a check looks for each chunk where the value's chunks
-- would lie if stored in order, and asks the index for those not there.
-- Filler values of 1 to 6 chunks, every third one deleted, leave holes that
-- the filters' chunks fill first.
CREATE TABLE fr (name text, bf bloomfilter, pad text) WITH (toast_tuple_target = 128);
ALTER TABLE fr ALTER COLUMN pad SET STORAGE external;
ALTER TABLE fr ALTER COLUMN bf SET STORAGE external;
INSERT INTO fr (name, pad) SELECT 'p' || g, repeat(md5(g::text), 60 * (1 + g % 6)) FROM generate_series(1, 300) g;
DELETE FROM fr WHERE substr(name, 2)::int % 3 = 0;
VACUUM fr;
INSERT INTO fr (name, bf) SELECT 'f' || n, bf_agg(g::bigint, n * 1000, 0.01)
FROM generate_series(1, 40) n, generate_series(1, n * 1000) g GROUP BY n;
DELETE FROM fr WHERE bf IS NULL;
VACUUM fr;
-- where the filters' chunks are against where they would be in order from
-- their first chunk: many elsewhere, some past the relation's end
SELECT c.reltoastrelid::regclass AS frt, pg_relation_size(c.reltoastrelid) / 8192 AS frblocks
FROM pg_class c WHERE relname = 'fr' \gset
WITH ch AS (SELECT chunk_id, chunk_seq,
                   (ctid::text::point)[0]::bigint * 4 + (ctid::text::point)[1]::int - 1 AS place
            FROM :frt),
     pr AS (SELECT ch.place, f.place + ch.chunk_seq AS predicted
            FROM ch JOIN ch f ON f.chunk_id = ch.chunk_id AND f.chunk_seq = 0)
SELECT count(*) FILTER (WHERE predicted <> place) > 50 AS many_elsewhere,
       count(*) FILTER (WHERE predicted / 4 >= :frblocks) > 0 AS some_past_the_end
FROM pr;
-- every member found, point checks and batches (of 4 keys, which read
-- their chunks rather than the value) answer as in memory
SELECT count(*) AS filters,
       count(*) FILTER (WHERE bf_contains_all(bf, ARRAY(SELECT (g * 997) % (substr(name, 2)::int * 1000) + 1
                                                       FROM generate_series(1, 4) g)) @> ARRAY[false]) AS member_missed,
       count(*) FILTER (WHERE bf_contains_all(bf, ARRAY(SELECT g * 7919 FROM generate_series(1, 4) g)) <>
                              bf_contains_all(bf::bytea::bloomfilter, ARRAY(SELECT g * 7919 FROM generate_series(1, 4) g))) AS batch_mismatches,
       sum(point_mismatches('fr', 'bf', 'bloomfilter', 'bf_contains', name,
                            ARRAY[1, substr(name, 2)::int * 1000, substr(name, 2)::int * 1000 + 1, 77777])) AS point_mismatches
FROM fr;
SELECT bool_and(bf_contains(bf, substr(name, 2)::bigint * 1000)) AS last_member_found FROM fr;

DROP TABLE sf, sc, fr;
DROP FUNCTION point_mismatches(text, text, text, text, text, bigint[]);
DROP FUNCTION blocks(text);
DROP AGGREGATE bf_agg_state(bigint);
RESET max_parallel_workers_per_gather;
