#!/bin/bash
# A rolling time window rotated by pg_cron (the pattern of sql/window.sql on
# a real clock): a throwaway cluster with pg_cron preloaded schedules the
# rotation (make the current bucket, drop the buckets out of the window),
# and the script waits until a run has happened and shows its effect: the
# expired bucket gone, the current one made, events added to it by the
# trigger and found by the window check.
#
# pg_cron comes from Debian's postgresql-15-cron (installed here if
# missing).  Its 1.4 (Debian 12) schedules by the minute, so a run is up to
# a minute away; 1.5 and later take "N seconds" and the script uses that.
# Starts its own server; run as root: bash test/hardening/cron_window.sh
# (PG_BINDIR: the directory of pg_ctl/postgres to start, for a mirror
# installation; the default is the real one.)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=test/hardening/lib.sh
. "$repo/test/hardening/lib.sh"

if ! EXTRA_PACKAGES=postgresql-15-cron bash "$repo/scripts/deps.sh" ||
	[ ! -f "$(pg_config --pkglibdir)/pg_cron.so" ]; then
	echo "skipped: pg_cron (postgresql-15-cron) is not installed and could not be"
	exit 0
fi

bindir=${PG_BINDIR:-$(pg_config --bindir)}
port=${CRON_PORT:-5496}
private_cluster bf_cron	# sets work
# shellcheck disable=SC2154
cat >> "$work/data/postgresql.conf" <<EOF
shared_preload_libraries = 'pg_cron'
cron.database_name = 'bf_cron'
cron.use_background_workers = on
max_worker_processes = 16
timezone = 'UTC'
EOF
as_pg "$bindir/pg_ctl" -D "$work/data" -l "$work/server.log" \
	-o "-p $port -k $work -c listen_addresses=''" -w start > /dev/null
stop() { as_pg "$bindir/pg_ctl" -D "$work/data" -m fast stop > /dev/null 2>&1 || true; rm -rf "$work"; }
trap stop EXIT
export PGHOST=$work PGPORT=$port PGUSER=postgres
unset PGDATABASE

fresh_db bf_cron
psql_q -d bf_cron <<'SQL'
CREATE EXTENSION pg_cron;
CREATE TABLE events (at timestamptz NOT NULL, user_id bigint NOT NULL);
CREATE TABLE seen (bucket timestamptz PRIMARY KEY, bf bloomfilter NOT NULL);
CREATE FUNCTION seen_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO seen AS s (bucket, bf)
		SELECT date_bin('1 minute', at, timestamptz '2000-01-01 00:00:00+00'), bf_agg(user_id, 100000, 0.01)
		FROM new_rows GROUP BY 1
	ON CONFLICT (bucket) DO UPDATE SET bf = bf_union(s.bf, excluded.bf);
	RETURN NULL;
END $$;
CREATE TRIGGER events_seen AFTER INSERT ON events
	REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION seen_add();
-- history: a bucket ten minutes old (out of a 3-minute window) with user 1
INSERT INTO events VALUES (now() - interval '10 minutes', 1);
SQL
check "the old bucket is there before the rotation" \
	"$(psql_v -d bf_cron -c "SELECT count(*) FROM seen WHERE bucket < now() - interval '9 minutes'")" -eq 1

version=$(psql_v -d bf_cron -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_cron'")
if [ "$(psql_v -d bf_cron -c "SELECT string_to_array(split_part('$version', '-', 1), '.')::int[] >= '{1,5}'")" = t ]; then
	schedule='5 seconds' wait=30
else
	schedule='* * * * *' wait=90
fi
echo "pg_cron $version: rotation scheduled '$schedule', waiting up to $wait s for a run"

# the rotation, one statement: the current bucket made ahead of its first
# event (same shape as the trigger's), the buckets out of the window dropped
psql_q -d bf_cron -c "SELECT cron.schedule('seen-rotate', '$schedule', \$\$
	WITH created AS (
		INSERT INTO seen VALUES (date_bin('1 minute', now(), timestamptz '2000-01-01 00:00:00+00'), bf_create(100000, 0.01))
		ON CONFLICT (bucket) DO NOTHING RETURNING bucket)
	DELETE FROM seen WHERE bucket <= now() - 3 * interval '1 minute'\$\$)" > /dev/null

run=
for _ in $(seq "$wait"); do
	run=$(psql_v -d bf_cron -c "SELECT status, start_time FROM cron.job_run_details
		WHERE status IN ('succeeded', 'failed') ORDER BY start_time LIMIT 1")
	[ -n "$run" ] && break
	sleep 1
done
echo "first run: ${run:-none}"
check "a scheduled rotation ran and succeeded" "${run%% *}" = succeeded
started=${run#* }
check "the expired bucket was dropped" \
	"$(psql_v -d bf_cron -c "SELECT count(*) FROM seen WHERE bucket < now() - interval '9 minutes'")" -eq 0
check "the bucket of the run's minute was made" \
	"$(psql_v -d bf_cron -c "SELECT count(*) FROM seen WHERE bucket = date_bin('1 minute', '$started'::timestamptz, timestamptz '2000-01-01 00:00:00+00')")" -eq 1
psql_v -d bf_cron -c "SELECT bucket, bf_bits_set(bf) FROM seen ORDER BY bucket"

# the window pattern on the real clock: add through the trigger, check
psql_q -d bf_cron -c "INSERT INTO events SELECT now(), g FROM generate_series(100, 199) g"
window="SELECT EXISTS (SELECT FROM seen WHERE bucket > now() - 3 * interval '1 minute'
	AND bucket <= now() AND bf_contains(bf, \$1))"
check "a user added now is seen in the window" \
	"$(psql_v -d bf_cron -c "PREPARE w(bigint) AS $window" -c "EXECUTE w(150)")" = t
check "the user of the dropped bucket is not" \
	"$(psql_v -d bf_cron -c "PREPARE w(bigint) AS $window" -c "EXECUTE w(1)")" = f
check "every bucket has one shape (rotation's and trigger's filters union)" \
	"$(psql_v -d bf_cron -c "SELECT count(DISTINCT (bf_nbits(bf), bf_nhashes(bf))) FROM seen")" -eq 1

psql_q -d bf_cron -c "SELECT cron.unschedule('seen-rotate')" > /dev/null
check "no job failed" \
	"$(psql_v -d bf_cron -c "SELECT count(*) FROM cron.job_run_details WHERE status = 'failed'")" -eq 0
finish
