-- Rolling time windows: "was this key seen in the last N buckets?" over a
-- table of one filter per time bucket.  The clock is simulated: every
-- timestamp is explicit (no now()), so the answers are fixed.
SET timezone = 'UTC';

CREATE TABLE events (at timestamptz NOT NULL, user_id bigint NOT NULL);
CREATE TABLE seen (bucket timestamptz PRIMARY KEY, bf bloomfilter NOT NULL);

-- add: a statement's rows go to their buckets (date_bin from an origin
-- that names its offset: the same instant in every session time zone),
-- creating a bucket on its first row and otherwise adding to it; every
-- bucket has the same shape
CREATE FUNCTION seen_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO seen AS s (bucket, bf)
		SELECT date_bin('1 hour', at, timestamptz '2000-01-01 00:00:00+00'), bf_agg(user_id, 200000, 0.01)
		FROM new_rows GROUP BY 1
	ON CONFLICT (bucket) DO UPDATE SET bf = bf_union(s.bf, excluded.bf);
	RETURN NULL;
END $$;
CREATE TRIGGER events_seen AFTER INSERT ON events
	REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION seen_add();

-- five hours of traffic, 10:00 to 14:59: user u is active in hour u % 5,
-- plus user 7 at 12:59:59 and user 8 at 13:00:00 (either side of a boundary)
INSERT INTO events
	SELECT '2026-01-01 10:00+00'::timestamptz + (u % 5) * interval '1 hour'
	       + (u % 3600) * interval '1 second', u
	FROM generate_series(1000::bigint, 200999) u;
INSERT INTO events VALUES ('2026-01-01 12:59:59+00', 7), ('2026-01-01 13:00:00+00', 8);
SELECT bucket, bf_cardinality(bf) BETWEEN 39000 AND 41000 AS about_40k FROM seen ORDER BY bucket;

-- check: seen in the last 3 buckets at :now, counting the current one.
-- "bucket > now - 3 h AND bucket <= now" is exactly the current bucket and
-- the two before it, wherever :now falls inside its hour; one index range
-- scan, one filter block per bucket, stopping at the first hit
PREPARE seen_recently(timestamptz, bigint) AS
	SELECT EXISTS (SELECT FROM seen WHERE bucket > $1 - 3 * interval '1 hour' AND bucket <= $1
	                                   AND bf_contains(bf, $2)) AS seen;
EXECUTE seen_recently('2026-01-01 14:30+00', 7);	-- 12:59:59: bucket 12:00, in 12..14
EXECUTE seen_recently('2026-01-01 15:30+00', 7);	-- window 13..15: no
EXECUTE seen_recently('2026-01-01 15:30+00', 8);	-- 13:00:00 is in bucket 13:00
EXECUTE seen_recently('2026-01-01 15:00+00', 1000);	-- hour 10 (1000 % 5 = 0): window 13..15: no
EXECUTE seen_recently('2026-01-01 12:59:59.999+00', 1000);	-- window 10..12: yes
EXECUTE seen_recently('2026-01-01 15:00+00', 1004);	-- hour 14: yes
-- every active user is found in the window that covers its hour; absent
-- users show the rate of a union of three checks (about 3 x 0.9%)
SELECT count(*) FILTER (WHERE NOT hit) AS false_negatives FROM (
	SELECT EXISTS (SELECT FROM seen WHERE bucket > '2026-01-01 14:30+00'::timestamptz - 3 * interval '1 hour'
	                                   AND bucket <= '2026-01-01 14:30+00' AND bf_contains(bf, u)) AS hit
	FROM generate_series(1000::bigint, 200999) u WHERE u % 5 IN (2, 3, 4)) c;
SELECT avg(hit::int) < 0.03 AS absent_rate_under_3pct FROM (
	SELECT EXISTS (SELECT FROM seen WHERE bucket > '2026-01-01 14:30+00'::timestamptz - 3 * interval '1 hour'
	                                   AND bucket <= '2026-01-01 14:30+00' AND bf_contains(bf, u)) AS hit
	FROM generate_series(1000000::bigint, 1099999) u) c;

-- the check reads a block per bucket, not the buckets
CREATE FUNCTION blocks(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || query INTO plan;
	RETURN (plan->0->'Plan'->>'Shared Hit Blocks')::bigint
	     + (plan->0->'Plan'->>'Shared Read Blocks')::bigint;
END $$;
VACUUM ANALYZE seen;
SELECT blocks($q$SELECT md5(bf::bytea) FROM seen WHERE bucket > '2026-01-01 14:30+00'::timestamptz - 3 * interval '1 hour' AND bucket <= '2026-01-01 14:30+00'$q$) AS full_reads \gset
SELECT blocks($q$SELECT EXISTS (SELECT FROM seen WHERE bucket > '2026-01-01 14:30+00'::timestamptz - 3 * interval '1 hour' AND bucket <= '2026-01-01 14:30+00' AND bf_contains(bf, 5::bigint))$q$)
	< :full_reads / 3 AS check_reads_little;

-- a late event lands in its own (older) bucket; one statement spanning a
-- boundary adds to both buckets
INSERT INTO events VALUES ('2026-01-01 11:15+00', 9);
INSERT INTO events VALUES ('2026-01-01 14:59:59+00', 10), ('2026-01-01 15:00:01+00', 11);
SELECT bucket, bf_contains(bf, 9) AS has_9, bf_contains(bf, 10) AS has_10, bf_contains(bf, 11) AS has_11
FROM seen ORDER BY bucket;

-- rotation (what pg_cron runs: test/hardening/cron_window.sh): make the
-- current bucket ahead of its first event, drop those out of the window
PREPARE rotate(timestamptz) AS
	WITH created AS (
		INSERT INTO seen VALUES (date_bin('1 hour', $1, timestamptz '2000-01-01 00:00:00+00'), bf_create(200000, 0.01))
		ON CONFLICT (bucket) DO NOTHING RETURNING bucket)
	DELETE FROM seen WHERE bucket <= $1 - 3 * interval '1 hour';
EXECUTE rotate('2026-01-01 16:10+00');
SELECT bucket FROM seen ORDER BY bucket;
-- the bucket made ahead has the shape the trigger's filters have
INSERT INTO events VALUES ('2026-01-01 16:20+00', 12);
SELECT bucket, bf_contains(bf, 12) AS has_12 FROM seen ORDER BY bucket;
EXECUTE seen_recently('2026-01-01 16:30+00', 12);
EXECUTE seen_recently('2026-01-01 16:30+00', 8);	-- its bucket was dropped

-- the bucket is the same instant under every TimeZone, for hourly and daily
-- buckets, in and out of daylight saving time; an origin without an offset
-- (what the documents up to 1.4 showed) is read in the session's zone:
-- half past the UTC hour in Asia/Kolkata, 05:00 UTC in America/New_York
CREATE TABLE zone_buckets (zone text, at timestamptz, stride interval, fixed timestamptz, bare timestamptz);
SET timezone = 'Asia/Kolkata';
INSERT INTO zone_buckets SELECT current_setting('timezone'), at, stride,
	date_bin(stride, at, timestamptz '2000-01-01 00:00:00+00'), date_bin(stride, at, '2000-01-01')
FROM (VALUES ('2026-01-01 10:10+00'::timestamptz), ('2026-07-01 10:10+00')) a(at),
     (VALUES (interval '1 hour'), (interval '1 day')) s(stride);
SET timezone = 'America/New_York';
INSERT INTO zone_buckets SELECT current_setting('timezone'), at, stride,
	date_bin(stride, at, timestamptz '2000-01-01 00:00:00+00'), date_bin(stride, at, '2000-01-01')
FROM (VALUES ('2026-01-01 10:10+00'::timestamptz), ('2026-07-01 10:10+00')) a(at),
     (VALUES (interval '1 hour'), (interval '1 day')) s(stride);
SET timezone = 'Australia/Lord_Howe';
INSERT INTO zone_buckets SELECT current_setting('timezone'), at, stride,
	date_bin(stride, at, timestamptz '2000-01-01 00:00:00+00'), date_bin(stride, at, '2000-01-01')
FROM (VALUES ('2026-01-01 10:10+00'::timestamptz), ('2026-07-01 10:10+00')) a(at),
     (VALUES (interval '1 hour'), (interval '1 day')) s(stride);
SET timezone = 'UTC';
SELECT zone, at, stride, fixed, bare FROM zone_buckets ORDER BY zone, at, stride;
SELECT count(DISTINCT fixed) = 4 AS fixed_same_everywhere,
       bool_and(fixed = date_trunc(CASE WHEN stride = '1 hour' THEN 'hour' ELSE 'day' END,
                                at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS fixed_is_utc,
       count(DISTINCT bare) AS bare_buckets
FROM zone_buckets;
-- events added from a session in Asia/Kolkata land in the UTC hour's bucket
SET timezone = 'Asia/Kolkata';
INSERT INTO events VALUES ('2026-01-01 16:40+00', 13);
SET timezone = 'UTC';
SELECT bucket, bf_contains(bf, 13) AS has_13 FROM seen WHERE bf_contains(bf, 13) ORDER BY bucket;
DROP TABLE zone_buckets;

DEALLOCATE seen_recently;
DEALLOCATE rotate;
DROP TABLE events, seen;
DROP FUNCTION seen_add(), blocks(text);
RESET timezone;
