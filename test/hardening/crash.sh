#!/bin/bash
# Crash recovery: the server is stopped without a shutdown checkpoint
# (pg_ctl -m immediate, or SIGKILL of the postmaster and every backend)
# while bulk adds, bf_agg rebuilds and checkpoints are running, then
# restarted; recovery replays the WAL.  CRASH_CYCLES (default 3) times.
#
# Why: every add rewrites a filter of megabytes out of line (TOAST chunks,
# full-page images, a new value OID per version), the largest WAL traffic
# this extension makes.  After recovery a committed add must still be in
# its filter and no stored value may be torn or inconsistent: a filter
# whose bits and bits-set header disagree, or whose TOAST chunks are
# missing, fails validation or reads wrong.
#
# Each writer transaction adds 1000 new keys (batch b: keys b*1000+1 ..
# b*1000+1000) to one filter and logs them, with the batch number, in the
# same transaction; the client records the batch once COMMIT returned.
# After each restart:
#   - every batch the client saw committed is in the log (durability), and
#     every logged batch is whole (atomicity);
#   - every logged key is in its filter (0 false negatives), and each filter
#     is byte-identical to a rebuild from its log;
#   - every filter and every bf_agg rebuild passes the text and bytea round
#     trips, and each rebuild equals bf_agg over the batches it recorded;
#   - amcheck's heap/TOAST and btree checks pass, when amcheck is there.
#
# Run inside a cluster: pg_virtualenv -v 15 bash test/hardening/crash.sh
# (it stops and starts that cluster's server with pg_ctl, as its owner).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

DB=bf_crash
CRASH_CYCLES=${CRASH_CYCLES:-3}
CRASH_AFTER=${CRASH_AFTER:-5}	# seconds of load before each crash (+0..2)
WRITERS=2
# a stuck statement must not hang the run
export PGOPTIONS="-c statement_timeout=600s"

server_locate
work=$(mktemp -d "${TMPDIR:-/tmp}/bf_crash.XXXXXX")
owner_dir "$work"
loaders=()
cleanup() {
	local p
	for p in "${loaders[@]}"; do kill "$p" 2> /dev/null || true; done
	wait 2> /dev/null || true
}
trap cleanup EXIT

fresh_db $DB
psql_q -d $DB <<'SQL'
CREATE TABLE filters (name text PRIMARY KEY, bf bloomfilter NOT NULL,
                      capacity bigint NOT NULL, error_rate float8 NOT NULL, seed bigint NOT NULL);
INSERT INTO filters (name, capacity, error_rate, seed, bf)
SELECT name, c, e, s, bf_create(c, e, s) FROM (VALUES
	('f0', 2000000, 0.01, 0),		-- 2.4 MB
	('f1', 2000000, 0.001, 7),		-- 3.7 MB, seeded
	('f2', 50000, 0.01, 0),			-- 60 kB
	('f3', 1000, 0.01, 99)			-- 1.3 kB, in line, overfilled
) v(name, c, e, s);
CREATE TABLE added (batch bigint NOT NULL, name text NOT NULL, key bigint NOT NULL);
CREATE INDEX ON added (batch);
CREATE SEQUENCE batch_seq;
CREATE TABLE rebuilt (id serial PRIMARY KEY, batches bigint[] NOT NULL, nkeys bigint NOT NULL,
                      bf bloomfilter NOT NULL);
SQL
have_amcheck=$(psql_v -d $DB -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'amcheck'")
if [ "$have_amcheck" -eq 1 ]; then psql_q -d $DB -c "CREATE EXTENSION amcheck"; fi

# one writer session: batch after batch, each its own transaction; the
# "acked" line is printed only after COMMIT returned
writer() {	# writer N
	local i block
	block=$(cat <<'EOF'
BEGIN;
SELECT nextval('batch_seq') AS b \gset
UPDATE filters SET bf = bf_add_all(bf, ARRAY(SELECT :b * 1000 + g FROM generate_series(1, 1000) g))
 WHERE name = 'f' || :b % 4;
INSERT INTO added SELECT :b, 'f' || :b % 4, :b * 1000 + g FROM generate_series(1, 1000) g;
COMMIT;
\echo acked :b
EOF
)
	# printf is a builtin: once psql is gone the write fails and the loop ends
	for ((i = 0; i < 1000000; i++)); do
		printf '%s\n' "$block" || break
	done | psql -X -q -v ON_ERROR_STOP=1 -d $DB > "$work/acked.$1" 2> "$work/writer.$1.err" || true
}

# rebuilds: bf_agg of everything logged so far, stored with the batches
# it saw; and checkpoints, so that some crashes hit one in progress
rebuilder() {
	local i
	for ((i = 0; i < 1000000; i++)); do
		printf '%s\n' "INSERT INTO rebuilt (batches, nkeys, bf)" \
			"SELECT array_agg(DISTINCT batch), count(*), bf_agg(key, 4000000, 0.01)" \
			"  FROM added HAVING count(*) > 0;" \
			"SELECT pg_sleep(0.3);" || break
	done | psql -X -q -v ON_ERROR_STOP=1 -d $DB > /dev/null 2> "$work/rebuilder.err" || true
}
checkpointer() {
	local i
	for ((i = 0; i < 1000000; i++)); do
		printf 'SELECT pg_sleep(3);\nCHECKPOINT;\n' || break
	done | psql -X -q -v ON_ERROR_STOP=1 -d $DB > /dev/null 2> "$work/checkpointer.err" || true
}

verified_rebuilds=0
total_crashes=0
for cycle in $(seq "$CRASH_CYCLES"); do
	loaders=()
	for w in $(seq $WRITERS); do writer "$cycle.$w" & loaders+=($!); done
	rebuilder & loaders+=($!)
	checkpointer & loaders+=($!)

	sleep $((CRASH_AFTER + RANDOM % 3))
	# odd cycles: immediate shutdown (SIGQUIT to every backend); even
	# cycles: SIGKILL, no process gets to do anything more
	if [ $((cycle % 2)) -eq 1 ]; then mode=immediate; else mode=SIGKILL; fi
	echo "cycle $cycle: crash by $mode"
	if [ $mode = immediate ]; then server_stop immediate; else server_kill; fi
	total_crashes=$((total_crashes + 1))
	wait "${loaders[@]}" || true
	loaders=()
	start=$(date +%s%N)
	rm -f "$work/server.log"	# one log per restart, written by the server
	server_start "$work/server.log"
	echo "cycle $cycle: restarted, recovery and start took $((($(date +%s%N) - start) / 1000000)) ms"
	# the restart must have replayed WAL, or nothing was tested
	redo_from=$(sed -n 's/.*redo starts at \([0-9A-F]*\/[0-9A-F]*\).*/\1/p' "$work/server.log" | tail -1)
	redo_to=$(sed -n 's/.*redo done at \([0-9A-F]*\/[0-9A-F]*\).*/\1/p' "$work/server.log" | tail -1)
	replayed=0
	if [ -n "$redo_from" ] && [ -n "$redo_to" ]; then
		replayed=$(psql_v -d postgres -c "SELECT pg_wal_lsn_diff('$redo_to', '$redo_from')::bigint")
	fi
	echo "cycle $cycle: recovery replayed $((replayed / 1048576)) MB of WAL ($redo_from .. $redo_to)"
	check "cycle $cycle: the server ran crash recovery" \
		"$(grep -c 'automatic recovery in progress' "$work/server.log")" -ge 1 -a "$replayed" -gt 0

	# batches the clients saw committed, as a SQL array
	acked=$(cat "$work"/acked.* | sed -n 's/^acked //p' | paste -sd, -)
	nacked=$(cat "$work"/acked.* | grep -c acked || true)

	read -r batches keys lost partial fneg < <(psql_v -d $DB -c "
		SELECT (SELECT count(DISTINCT batch) FROM added),
		       (SELECT count(*) FROM added),
		       (SELECT count(*) FROM unnest('{$acked}'::bigint[]) b
		         WHERE NOT EXISTS (SELECT FROM added WHERE batch = b)),
		       (SELECT count(*) FROM (SELECT batch FROM added GROUP BY batch HAVING count(*) <> 1000) s),
		       (SELECT count(*) FROM added a JOIN filters f USING (name)
		         WHERE NOT bf_contains(f.bf, a.key))")
	echo "cycle $cycle: $batches committed batches ($keys keys), $nacked acknowledged"
	check "cycle $cycle: every acknowledged batch survived ($lost lost)" "$lost" -eq 0
	check "cycle $cycle: every logged batch is whole ($partial partial)" "$partial" -eq 0
	check "cycle $cycle: no false negatives after recovery ($fneg)" "$fneg" -eq 0

	# filters: round trips, bits set, identical to a rebuild from the log
	psql_v -d $DB > "$work/filters.txt" -c "
		SELECT f.name, bf_bits_set(f.bf),
		       f.bf::text::bloomfilter::bytea = f.bf::bytea,
		       f.bf::bytea::bloomfilter::bytea = f.bf::bytea,
		       md5(f.bf::bytea) = md5(bf_add_all(bf_create(f.capacity, f.error_rate, f.seed),
		           (SELECT coalesce(array_agg(a.key), '{}') FROM added a WHERE a.name = f.name))::bytea)
		  FROM filters f ORDER BY f.name"
	bad=$(awk '$2 <= 0 || $3 != "t" || $4 != "t" || $5 != "t"' "$work/filters.txt" | wc -l)
	[ "$bad" -eq 0 ] || { echo "filters failing (name bits_set text bytea same):"; cat "$work/filters.txt"; }
	check "cycle $cycle: 4 filters round-trip, have bits set, equal a rebuild from the log ($bad bad)" \
		"$bad" -eq 0 -a "$(wc -l < "$work/filters.txt")" -eq 4

	# rebuilds made since the last check: valid, and equal to bf_agg over
	# the batches they recorded
	read -r nrebuilt rbad < <(psql_v -d $DB -c "
		SELECT count(*),
		       count(*) FILTER (WHERE NOT (
		           r.bf::text::bloomfilter::bytea = r.bf::bytea
		           AND r.bf::bytea::bloomfilter::bytea = r.bf::bytea
		           AND r.nkeys = (SELECT count(*) FROM added a WHERE a.batch = ANY (r.batches))
		           AND md5(r.bf::bytea) = md5((SELECT bf_agg(a.key, 4000000, 0.01) FROM added a
		                                        WHERE a.batch = ANY (r.batches))::bytea)))
		  FROM rebuilt r WHERE r.id > $verified_rebuilds")
	verified_rebuilds=$(psql_v -d $DB -c "SELECT coalesce(max(id), 0) FROM rebuilt")
	echo "cycle $cycle: $nrebuilt new rebuilds"
	check "cycle $cycle: every new rebuild is valid and equals bf_agg of its batches ($rbad bad)" "$rbad" -eq 0

	if [ "$have_amcheck" -eq 1 ]; then
		corrupt=$(psql_v -d $DB -c "
			SELECT (SELECT count(*) FROM verify_heapam('filters', check_toast => true))
			     + (SELECT count(*) FROM verify_heapam('rebuilt', check_toast => true))
			     + (SELECT count(*) FROM verify_heapam('added'))" 2>&1) || true
		psql_q -d $DB -c "SELECT bt_index_check(c.oid, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		                  WHERE i.indrelid IN ('filters'::regclass, 'added'::regclass, 'rebuilt'::regclass)" \
			> /dev/null 2>&1 && btree=ok || btree=bad
		check "cycle $cycle: amcheck: heap and TOAST clean ($corrupt problems), btree indexes $btree" \
			"$corrupt" = 0 -a "$btree" = ok
	fi
done

# the recovered filters still take adds and answer for them
after=$(psql_v -d $DB -c "
	UPDATE filters SET bf = bf_add(bf, -1::bigint);
	SELECT count(*) FROM filters WHERE bf_contains(bf, -1::bigint)")
check "after $total_crashes crashes the filters still take adds ($after of 4)" "$after" -eq 4

read -r batches keys nrebuilt < <(psql_v -d $DB -c "
	SELECT count(DISTINCT batch), count(*), (SELECT count(*) FROM rebuilt) FROM added")
echo "summary: $total_crashes crashes, $batches committed batches, $keys committed keys, $nrebuilt rebuilds, server log of the last restart $work/server.log"
psql_q -d postgres -c "DROP DATABASE $DB"
if finish; then
	echo "(logs of a passing run are not kept)"
	rm -rf "$work"
else
	echo "logs kept in $work"
	exit 1
fi
