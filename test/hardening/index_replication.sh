#!/bin/bash
# Streaming replication of the bloomfilter index: a hot standby made with
# pg_basebackup -R replays the index's generic WAL and answers exactly as
# the primary does, also after the primary was killed in the middle of an
# insert burst, and after the standby was promoted.
#
# Why: the standby builds every data page from the primary's WAL alone
# (full images after checkpoints, byte deltas otherwise).  A page replayed
# differently answers differently: a false negative on a read replica.
#
#   1. a build from existing rows and inserts of every kind (single rows,
#      batches, COPY) into a one-column, a partial and a two-column index;
#      once the standby replayed up to the primary's LSN, on both: md5 of
#      every snapshot, and the answers to every key of the table and to
#      100,000 keys never inserted.  Identical, and no key missing.
#   2. the primary is killed during an insert burst, restarted; the standby
#      reconnects, catches up, and the comparison of 1 holds again.
#   3. the primary stops and the standby is promoted: it answers as before
#      and takes inserts.
#
# Starts its own two servers; run as root with pg_config in PATH:
#   bash test/hardening/index_replication.sh
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

DB=bf_index_repl
NONMEMBERS=100000
export PGOPTIONS="-c statement_timeout=600s"

private_workdir bf_index_repl
cleanup() {
	loaders_stop
	nodes_stop_all
}
trap cleanup EXIT

# wal_consistency_checking: replay compares every page it rebuilt from the
# index's generic WAL with an image the primary logged beside it
node_init primary 5432 "wal_level = replica" "max_wal_senders = 4" "wal_consistency_checking = generic" \
	"max_replication_slots = 4" "shared_buffers = 64MB"
node_start primary
on primary fresh_db $DB
on primary psql_q -d $DB <<'SQL'
CREATE TABLE t (id int8, region text, tag int4);
INSERT INTO t SELECT g, CASE WHEN g % 4 = 0 THEN 'eu' ELSE 'us' END, g % 7
FROM generate_series(1, 50000) g;
CREATE INDEX t_id ON t USING bloomfilter (id) WITH (capacity = 1000000);
CREATE INDEX t_eu ON t USING bloomfilter (id) WITH (capacity = 300000) WHERE region = 'eu';
CREATE INDEX t_pair ON t USING bloomfilter (id, tag) WITH (capacity = 1000000);
CREATE SEQUENCE key_seq START 100000;
CREATE PROCEDURE single_rows(n int) LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1 .. n LOOP
		INSERT INTO t SELECT k, CASE WHEN k % 4 = 0 THEN 'eu' ELSE 'us' END, k % 7
		FROM nextval('key_seq') k;
		COMMIT;
	END LOOP;
END $$;
SQL

as_pg "$(pg_config --bindir)/pg_basebackup" -h "$work" -p "$(node_port primary)" -U postgres \
	-D "$work/standby" -R -C -S standby -X stream -c fast
node_conf standby 5433 "hot_standby = on" "wal_retrieve_retry_interval = 500ms"
node_start standby
check "the standby is in recovery" "$(on standby psql_v -d postgres -c "SELECT pg_is_in_recovery()")" = t


# what a node says: per index the snapshot's md5, keys of the table it
# misses, and how many of NONMEMBERS keys it (falsely) holds
fingerprint() {	# fingerprint NODE
	on "$1" psql_v -d $DB -c "
		SELECT 't_id', md5(bf_index_filter('t_id')::bytea),
		       (SELECT count(*) FILTER (WHERE NOT bf_index_contains('t_id', id)) FROM t),
		       (SELECT count(*) FILTER (WHERE x) FROM unnest(bf_index_contains_all('t_id',
		            ARRAY(SELECT -g FROM generate_series(1, $NONMEMBERS) g))) x)
		UNION ALL
		SELECT 't_eu', md5(bf_index_filter('t_eu')::bytea),
		       (SELECT count(*) FILTER (WHERE NOT bf_index_contains('t_eu', id)) FROM t WHERE region = 'eu'),
		       (SELECT count(*) FILTER (WHERE bf_index_contains('t_eu', -g)) FROM generate_series(1, $NONMEMBERS) g)
		UNION ALL
		SELECT 't_pair', md5(bf_index_filter('t_pair')::bytea),
		       (SELECT count(*) FILTER (WHERE NOT bf_index_contains('t_pair', ROW(id, tag))) FROM t),
		       (SELECT count(*) FILTER (WHERE bf_index_contains('t_pair', ROW(-g, 1))) FROM generate_series(1, $NONMEMBERS) g)"
}

compare_nodes() {	# compare_nodes LABEL
	local label=$1 missing
	node_wait_replay primary standby
	fingerprint primary > "$work/primary.fp"
	fingerprint standby > "$work/standby.fp"
	echo "$label: standby (index md5 missing nonmember_hits):"
	sed 's/^/    /' "$work/standby.fp"
	check "$label: primary and standby answer identically" \
		"$(diff "$work/primary.fp" "$work/standby.fp" | wc -l)" -eq 0
	missing=$(awk '{ s += $3 } END { print s + 0 }' "$work/standby.fp")
	check "$label: no key of the table missing on the standby ($missing)" "$missing" -eq 0
}

load() {	# load: single rows, batches and COPY, in the background
	(while :; do on primary psql_q -d $DB -c "CALL single_rows(100)" 2> /dev/null || exit 0; done) &
	loaders+=($!)
	(while :; do on primary psql_q -d $DB -c "INSERT INTO t SELECT k, 'eu', 3 FROM
		(SELECT nextval('key_seq') k FROM generate_series(1, 2000)) s" 2> /dev/null || exit 0; done) &
	loaders+=($!)
	(while :; do on primary psql_q -d $DB -c "CHECKPOINT" 2> /dev/null || exit 0; sleep 1; done) &
	loaders+=($!)
}

# ---- 1. build and inserts ----
load
sleep 3
loaders_stop
on primary psql_q -d $DB -c "COPY t (id, region) FROM PROGRAM 'seq 200000 210000 | sed s/\$/,eu/' WITH (FORMAT csv)"
compare_nodes "after inserts"

# ---- 2. the primary killed mid-burst ----
load
sleep 3
node_kill primary
loaders_stop
node_start primary
compare_nodes "after the primary's crash"

# ---- 3. promotion ----
node_stop primary
on standby psql_v -d postgres -c "SELECT pg_promote()" > /dev/null
sleep 1
check "the promoted standby left recovery" \
	"$(on standby psql_v -d postgres -c "SELECT pg_is_in_recovery()")" = f
on standby psql_q -d $DB -c "INSERT INTO t VALUES (-424242, 'eu', 1)"
check "the promoted standby takes inserts into the index" \
	"$(on standby psql_v -d $DB -c "SELECT bf_index_contains('t_eu', -424242::int8) AND bf_index_contains('t_pair', ROW(-424242::int8, 1))")" = t
missing=$(on standby psql_v -d $DB -c "SELECT count(*) FILTER (WHERE NOT bf_index_contains('t_id', id)) FROM t")
check "the promoted standby misses no key ($missing)" "$missing" -eq 0
crashes=$(nodes_crashes)
check "no backend died of a signal" -z "$crashes"
finish
