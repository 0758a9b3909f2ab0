#!/bin/bash
# Streaming replication: a hot standby made with pg_basebackup -R replays
# every change to stored filters and answers exactly as the primary does,
# also after the primary crashed in the middle of a bulk load, and after it
# was promoted.
#
# Why: a filter update is WAL of its own kind only in volume: megabytes of
# new TOAST chunks and a new value OID per version, heap updates of the
# row, full-page images after checkpoints.  The standby rebuilds every
# byte from that WAL alone, and reads it back through the same TOAST
# slices (point checks) and whole-value cache (probes in a join) as the
# primary.  A value the standby rebuilt differently, or read differently,
# would answer differently there: a false negative on a read replica.
#
# Six filters of different shapes (in line; 6 MB and 3.7 MB out of line,
# the second seeded 2^32-1; text keys, seed 12345; a bf_agg rebuild; a
# bf_union of two bf_agg results), each with the log of its keys:
#   1. single bf_add and batched bf_add_all transactions, bf_agg rebuilds
#      and a bf_union; once the standby replayed up to the primary's
#      current LSN, on both: md5 of every filter, bits set, size, the true
#      answers to every logged key and to 100,000 keys never added, and
#      100 single point checks.  Standby and primary must agree on all of
#      it; on the standby every filter also equals a rebuild from its log
#      and no logged key is missing (0 false negatives).
#   2. REPLICATION_CRASH_CYCLES times (default 2): writers add 1000-key batches (and
#      log them in the same transaction), another rebuilds a filter with
#      bf_agg, a reader on the standby checks every logged key against its
#      filter in whatever snapshot replay gives it (0 false negatives
#      mid-replay), and the primary is stopped without a checkpoint (pg_ctl -m
#      immediate, then SIGKILL of every process) after REPLICATION_LOAD_SECONDS (5); it is
#      restarted, recovers, the standby reconnects and catches up, and
#      every batch the clients saw committed is on both, whole, with the
#      same checks as in 1.
#   3. the primary stops, the standby is promoted: it leaves recovery,
#      answers as before and takes adds and new filters.
#
# Starts its own two servers; run as root: bash test/hardening/replication_streaming.sh
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

DB=bf_repl
CRASH_CYCLES=${REPLICATION_CRASH_CYCLES:-2}
LOAD_SECONDS=${REPLICATION_LOAD_SECONDS:-5}	# seconds of load before each crash (+0..1)
NONMEMBERS=100000
WRITERS=2
export PGOPTIONS="-c statement_timeout=600s"
t0=$(date +%s)

private_workdir bf_repl
loaders=()
cleanup() {
	local p
	for p in "${loaders[@]}"; do kill "$p" 2> /dev/null || true; done
	wait 2> /dev/null || true
	nodes_stop_all
}
aborted() {	# set -e stopped the script: say why the servers may have failed
	local status=$?
	cleanup
	echo "aborted (status $status); logs kept in $work"
	nodes_crashes
}
trap aborted EXIT

ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }

node_init primary 5432 "wal_level = replica" "max_wal_senders = 4" \
	"max_replication_slots = 4" "shared_buffers = 64MB" "max_wal_size = 2GB"
node_start primary
on primary fresh_db $DB
echo "bloomfilter $(on primary psql_v -d $DB -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'"), \
$(stat -c '%y' "$(pg_config --pkglibdir)/bloomfilter.so" | cut -c1-19)"
on primary psql_q -d $DB <<'SQL'
CREATE TABLE filters (name text PRIMARY KEY, bf bloomfilter NOT NULL, text_keys bool NOT NULL,
                      capacity bigint NOT NULL, error_rate float8 NOT NULL, seed bigint NOT NULL);
-- every key each filter was given; batch is set by the crash-phase writers
CREATE TABLE added (name text NOT NULL, key bigint NOT NULL, batch bigint);
CREATE INDEX ON added (name);
CREATE INDEX ON added (batch);
CREATE SEQUENCE key_seq;
CREATE SEQUENCE batch_seq START 1000000;	-- batch b holds keys b*1000+1 .. b*1000+1000

-- n transactions of one bf_add each, or of a bf_add_all of size keys each
CREATE PROCEDURE add_keys(f text, n int, size int) LANGUAGE plpgsql AS $$
DECLARE
	ks bigint[];
BEGIN
	FOR i IN 1 .. n LOOP
		ks := ARRAY(SELECT nextval('key_seq') FROM generate_series(1, size));
		IF size = 1 THEN
			UPDATE filters SET bf = CASE WHEN text_keys THEN bf_add(bf, 'key-' || ks[1])
			                        ELSE bf_add(bf, ks[1]) END WHERE name = f;
		ELSE
			UPDATE filters SET bf = CASE WHEN text_keys THEN bf_add_all(bf, ARRAY(SELECT 'key-' || k FROM unnest(ks) k))
			                        ELSE bf_add_all(bf, ks) END WHERE name = f;
		END IF;
		INSERT INTO added (name, key) SELECT f, k FROM unnest(ks) k;
		COMMIT;
	END LOOP;
END $$;
SQL

node_start_standby() {
	as_pg "$(pg_config --bindir)/pg_basebackup" -h "$work" -p "$(node_port primary)" -U postgres \
		-D "$work/standby" -R -C -S standby -X stream -c fast
	node_conf standby 5433 "hot_standby = on" "wal_retrieve_retry_interval = 500ms"
	node_start standby
}
start=$(date +%s%N)
node_start_standby
echo "standby: base backup and start took $(ms_since "$start") ms"
check "the standby is in recovery, streaming from the primary" \
	"$(on standby psql_v -d postgres -c "SELECT pg_is_in_recovery()")" = t

# until the standby replayed everything the primary wrote so far
wait_replay() { node_wait_replay primary standby; }

# what a node says about every filter: md5, bits set, bytes, true answers
# to every logged key and to NONMEMBERS keys never added (negative), both
# probed in a join (the value is read once and cached); then 100 point
# checks of every filter, one query each (header and one block by slices)
fingerprint() {	# fingerprint NODE
	on "$1" psql_v -d $DB -c "
		SELECT f.name, md5(f.bf::bytea), bf_bits_set(f.bf), octet_length(f.bf::bytea),
		       (SELECT count(*) FROM added a WHERE a.name = f.name),
		       (SELECT count(*) FILTER (WHERE CASE WHEN f.text_keys THEN bf_contains(f.bf, 'key-' || a.key)
		                                      ELSE bf_contains(f.bf, a.key) END)
		          FROM added a WHERE a.name = f.name),
		       (SELECT count(*) FILTER (WHERE CASE WHEN f.text_keys THEN bf_contains(f.bf, 'key-' || g)
		                                      ELSE bf_contains(f.bf, g) END)
		          FROM generate_series(-$NONMEMBERS::bigint, -1) g)
		  FROM filters f ORDER BY f.name"
	local i
	for i in $(seq 100); do
		echo "SELECT string_agg(CASE WHEN text_keys THEN bf_contains(bf, 'key-' || $((i * 7919)))
		                        ELSE bf_contains(bf, $((i * 7919))::bigint) END::int::text, '' ORDER BY name)
		        FROM filters;"
	done | on "$1" psql_v -d $DB | paste -sd ' ' - | sed 's/^/point checks: /'
}

# compare the two nodes; on the standby also: each filter equals a rebuild
# from its log, and no logged key is missing
compare_nodes() {	# compare_nodes LABEL
	local label=$1 nf fneg rebuilt_bad probes start
	start=$(date +%s%N)
	fingerprint primary > "$work/primary.fp"
	fingerprint standby > "$work/standby.fp"
	nf=$(grep -vc '^point checks' "$work/standby.fp" || true)
	probes=$(awk '!/^point/ { s += $6 + 0 } END { print s + 0 }' "$work/standby.fp")
	fneg=$(awk '!/^point/ && $5 != $6 { n++ } END { print n + 0 }' "$work/standby.fp")
	echo "$label: standby, per filter (name md5 bits_set bytes keys keys_found nonmember_hits):"
	grep -v '^point checks' "$work/standby.fp" | sed 's/^/    /'
	if ! diff "$work/primary.fp" "$work/standby.fp" > "$work/fp.diff"; then
		echo "$label: primary and standby differ:"
		cat "$work/fp.diff"
	fi
	check "$label: $nf filters byte-identical on the standby, same answers to $probes logged keys, \
$((nf * NONMEMBERS)) non-members and 100 point checks" \
		"$(wc -l < "$work/fp.diff")" -eq 0 -a "$nf" -eq 6
	check "$label: no false negatives on the standby ($fneg filters miss keys)" "$fneg" -eq 0
	rebuilt_bad=$(on standby psql_v -d $DB -c "
		SELECT count(*) FROM filters f
		 WHERE md5(f.bf::bytea) IS DISTINCT FROM md5((
		       SELECT CASE WHEN f.text_keys
		                   THEN bf_add_all(bf_create(f.capacity, f.error_rate, f.seed),
		                                   coalesce(array_agg('key-' || a.key), '{}'))
		                   ELSE bf_add_all(bf_create(f.capacity, f.error_rate, f.seed),
		                                   coalesce(array_agg(a.key), '{}')) END
		         FROM added a WHERE a.name = f.name)::bytea)")
	check "$label: on the standby every filter equals a rebuild from its log ($rebuilt_bad differ)" \
		"$rebuilt_bad" -eq 0
	echo "$label: comparison took $(ms_since "$start") ms"
}

# ---- 1. adds, rebuilds, a union ----
start=$(date +%s%N)
wal0=$(on primary psql_v -d postgres -c "SELECT pg_current_wal_lsn()")
on primary psql_q -d $DB <<'SQL'
INSERT INTO filters (name, capacity, error_rate, seed, text_keys, bf)
SELECT name, c, e, s, t, bf_create(c, e, s) FROM (VALUES
	('inline', 1000, 0.01, 0, false),		-- 1.3 kB, stored in line
	('large', 5000000, 0.01, 0, false),		-- 6 MB, out of line
	('seeded', 2000000, 0.001, 4294967295, false),	-- 3.7 MB, largest seed
	('text', 200000, 0.01, 12345, true),		-- 240 kB, text keys
	('rebuilt', 1000000, 0.01, 0, false),		-- replaced by bf_agg
	('union', 1000000, 0.01, 0, false)		-- replaced by bf_union
) v(name, c, e, s, t);
CALL add_keys('inline', 50, 1);
CALL add_keys('large', 10, 1);
CALL add_keys('seeded', 10, 1);
CALL add_keys('text', 50, 1);
CALL add_keys('inline', 5, 200);			-- overfilled: 1050 keys in 1000
CALL add_keys('large', 10, 20000);
CALL add_keys('seeded', 10, 10000);
CALL add_keys('text', 10, 10000);
-- rebuilds: bf_agg over the logged keys, twice, keys added in between
CALL add_keys('rebuilt', 5, 10000);
UPDATE filters SET bf = (SELECT bf_agg(key, 1000000, 0.01) FROM added WHERE name = 'rebuilt')
 WHERE name = 'rebuilt';
CALL add_keys('rebuilt', 3, 1);
UPDATE filters SET bf = (SELECT bf_agg(key, 1000000, 0.01) FROM added WHERE name = 'rebuilt')
 WHERE name = 'rebuilt';
-- union: of two bf_agg results over disjoint key sets, then one more add
INSERT INTO added (name, key) SELECT 'union', nextval('key_seq') FROM generate_series(1, 60000);
UPDATE filters SET bf = bf_union(
	(SELECT bf_agg(key, 1000000, 0.01) FROM added WHERE name = 'union' AND key % 2 = 0),
	(SELECT bf_agg(key, 1000000, 0.01) FROM added WHERE name = 'union' AND key % 2 = 1))
 WHERE name = 'union';
CALL add_keys('union', 1, 1);
SQL
read -r nkeys walmb < <(on primary psql_v -d $DB -c "
	SELECT (SELECT count(*) FROM added), pg_wal_lsn_diff(pg_current_wal_lsn(), '$wal0')::bigint / 1048576")
echo "phase 1: $nkeys keys added to 6 filters, 2 rebuilds, 1 union: $walmb MB of WAL in $(ms_since "$start") ms"
wait_replay
compare_nodes "adds and rebuilds"

# ---- 2. crash of the primary during a bulk load ----
writer() {	# writer ID: 1000-key batches, "acked B" once COMMIT returned
	local i block
	block=$(cat <<'EOF'
BEGIN;
SELECT nextval('batch_seq') AS b \gset
SELECT (ARRAY['large', 'seeded', 'text'])[:b % 3 + 1] AS f \gset
UPDATE filters SET bf = CASE WHEN text_keys
	THEN bf_add_all(bf, ARRAY(SELECT 'key-' || (:b * 1000 + g) FROM generate_series(1, 1000) g))
	ELSE bf_add_all(bf, ARRAY(SELECT :b * 1000 + g FROM generate_series(1, 1000) g)) END
 WHERE name = :'f';
INSERT INTO added SELECT :'f', :b * 1000 + g, :b FROM generate_series(1, 1000) g;
COMMIT;
\echo acked :b
EOF
)
	for ((i = 0; i < 1000000; i++)); do
		printf '%s\n' "$block" || break
	done | on primary psql -X -q -v ON_ERROR_STOP=1 -d $DB > "$work/acked.$1" 2> "$work/writer.$1.err" || true
}
rebuilder() {	# a 1000-key batch and a bf_agg rebuild of its filter, one transaction
	local i block
	block=$(cat <<'EOF'
BEGIN;
SELECT nextval('batch_seq') AS b \gset
INSERT INTO added SELECT 'rebuilt', :b * 1000 + g, :b FROM generate_series(1, 1000) g;
UPDATE filters SET bf = (SELECT bf_agg(key, 1000000, 0.01) FROM added WHERE name = 'rebuilt')
 WHERE name = 'rebuilt';
COMMIT;
\echo acked :b
EOF
)
	for ((i = 0; i < 1000000; i++)); do
		printf '%s\n' "$block" || break
	done | on primary psql -X -q -v ON_ERROR_STOP=1 -d $DB > "$work/acked.$1" 2> "$work/writer.$1.err" || true
}

# meanwhile on the standby: whatever snapshot a query gets during replay,
# every key logged in it is in the filter version of the same snapshot
standby_reader() {	# standby_reader ID: until $work/stop exists
	while [ ! -e "$work/stop" ]; do
		on standby psql_v -d $DB -c "
			SELECT count(*) FROM added a JOIN filters f USING (name)
			 WHERE NOT CASE WHEN f.text_keys THEN bf_contains(f.bf, 'key-' || a.key)
			                ELSE bf_contains(f.bf, a.key) END" \
			>> "$work/reader.$1" 2>> "$work/reader.$1.err" || true
	done
}

for cycle in $(seq "$CRASH_CYCLES"); do
	wal0=$(on primary psql_v -d postgres -c "SELECT pg_current_wal_lsn()")
	loaders=()
	rm -f "$work/stop"
	for w in $(seq $WRITERS); do writer "$cycle.$w" & loaders+=($!); done
	rebuilder "$cycle.r" & loaders+=($!)
	standby_reader "$cycle" & loaders+=($!)
	sleep "$LOAD_SECONDS.$((RANDOM % 10))"
	if [ $((cycle % 2)) -eq 1 ]; then mode=immediate; else mode=SIGKILL; fi
	if [ $mode = immediate ]; then node_stop primary immediate; else node_kill primary; fi
	touch "$work/stop"
	wait "${loaders[@]}" || true
	loaders=()
	nacked=$(cat "$work"/acked.* | grep -c acked || true)
	echo "cycle $cycle: primary crashed by $mode after ${LOAD_SECONDS}s of load ($nacked batches acknowledged so far)"
	read -r nreads rfneg < <(awk '{ n++; s += $1 } END { print n + 0, s + 0 }' "$work/reader.$cycle")
	rerr=$(grep -c ERROR "$work/reader.$cycle.err" || true)
	echo "cycle $cycle: $nreads queries on the standby during the load ($rerr cancelled by recovery conflicts)"
	check "cycle $cycle: no false negatives on the standby during replay ($rfneg in $nreads queries)" \
		"$rfneg" -eq 0 -a "$nreads" -ge 1

	start=$(date +%s%N)
	node_start primary
	echo "cycle $cycle: primary restarted (crash recovery) in $(ms_since "$start") ms"
	check "cycle $cycle: the primary ran crash recovery" \
		"$(grep -c 'automatic recovery in progress' "$work/primary.log")" -eq "$cycle"
	walmb=$(on primary psql_v -d postgres -c "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '$wal0')::bigint / 1048576")
	echo "cycle $cycle: $walmb MB of WAL since the load started"
	wait_replay
	check "cycle $cycle: the standby streams from the restarted primary" \
		"$(on primary psql_v -d postgres -c "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")" -eq 1

	acked=$(cat "$work"/acked.* | sed -n 's/^acked //p' | paste -sd, -)
	for node in primary standby; do
		read -r batches lost partial < <(on $node psql_v -d $DB -c "
			SELECT (SELECT count(DISTINCT batch) FROM added),
			       (SELECT count(*) FROM unnest('{$acked}'::bigint[]) b
			         WHERE NOT EXISTS (SELECT FROM added WHERE batch = b)),
			       (SELECT count(*) FROM (SELECT batch FROM added WHERE batch IS NOT NULL
			                               GROUP BY batch HAVING count(*) <> 1000) s)")
		echo "cycle $cycle: $node has $batches committed batches"
		check "cycle $cycle: every acknowledged batch is on the $node ($lost lost), none partial ($partial)" \
			"$lost" -eq 0 -a "$partial" -eq 0
	done
	compare_nodes "cycle $cycle"
done

# ---- 3. promotion ----
fingerprint standby > "$work/before_promote.fp"
node_stop primary fast
start=$(date +%s%N)
as_pg "$(pg_config --bindir)/pg_ctl" -D "$work/standby" -w -t 120 promote > /dev/null
echo "standby promoted in $(ms_since "$start") ms"
check "the promoted standby left recovery" \
	"$(on standby psql_v -d postgres -c "SELECT pg_is_in_recovery()")" = f
fingerprint standby > "$work/after_promote.fp"
check "the promoted standby answers as before" \
	"$(diff "$work/before_promote.fp" "$work/after_promote.fp" | wc -l)" -eq 0
read -r added_ok new_ok < <(on standby psql_v -d $DB -c "
	UPDATE filters SET bf = CASE WHEN text_keys THEN bf_add(bf, 'key--7') ELSE bf_add(bf, -7::bigint) END;
	INSERT INTO filters SELECT 'new', bf_agg(g, 100000, 0.01), false, 100000, 0.01, 0
	  FROM generate_series(1, 100000) g;
	SELECT (SELECT count(*) FROM filters WHERE name <> 'new'
	         AND CASE WHEN text_keys THEN bf_contains(bf, 'key--7') ELSE bf_contains(bf, -7::bigint) END),
	       (SELECT count(*) FROM filters, generate_series(1, 100000) g
	         WHERE name = 'new' AND bf_contains(bf, g))")
check "the promoted standby takes adds ($added_ok of 6 filters) and new filters ($new_ok of 100000 keys found)" \
	"$added_ok" -eq 6 -a "$new_ok" -eq 100000

read -r nkeys nbatches bytes < <(on standby psql_v -d $DB -c "
	SELECT count(*), count(DISTINCT batch), (SELECT sum(octet_length(bf::bytea)) FROM filters) FROM added")
echo "summary: $nkeys keys ($nbatches crash-phase batches) in filters of $bytes bytes, \
$CRASH_CYCLES crashes, $(($(date +%s) - t0)) s"
crashes=$(nodes_crashes)
[ -z "$crashes" ] || echo "$crashes"
check "no server process crashed ($(echo -n "$crashes" | grep -c 'terminated by signal' || true) crashes in the logs)" -z "$crashes"
if finish; then
	cleanup
	trap - EXIT
	rm -rf "$work"
else
	exit 1	# aborted() keeps the logs
fi
