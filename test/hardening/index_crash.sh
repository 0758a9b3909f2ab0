#!/bin/bash
# Crash recovery of the bloomfilter index: the server is killed (SIGKILL of
# the postmaster and every backend, no shutdown checkpoint) during a burst
# of inserts, INDEX_CRASH_CYCLES times (default 3), and restarted.
#
# Why: an insert sets bits in one data page, logged with generic WAL; after
# a checkpoint the first change of a page is a full image.  Recovery must
# rebuild every page from that WAL so that every committed row's key is in
# the filter: a bit lost in replay is a false negative for that key.
#
# Writers: single-row INSERTs each in a transaction of its own (the
# commonest write), 1000-row INSERT ... SELECT batches, and a COPY; a
# CHECKPOINT runs every second so that pages are logged both as images and
# as deltas.  After each restart: every row of the table (all committed)
# has its key in the index (0 false negatives), for a one-column index and
# a two-column one; the index still matches a rebuild where it must hold
# exactly the table's keys plus those of rolled-back rows (a superset), and
# the first page after the metapage passes the page checks (bf_index_filter
# reads every page).
#
# Starts its own server; run as root with pg_config in PATH:
#   bash test/hardening/index_crash.sh
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

DB=bf_index_crash
CYCLES=${INDEX_CRASH_CYCLES:-3}
LOAD_SECONDS=${INDEX_CRASH_SECONDS:-4}
export PGOPTIONS="-c statement_timeout=600s"

private_workdir bf_index_crash
cleanup() {
	loaders_stop
	nodes_stop_all
}
trap cleanup EXIT

node_init main 5432 "shared_buffers = 64MB" "max_wal_size = 1GB" "wal_consistency_checking = generic"
node_start main
on main fresh_db $DB
on main psql_q -d $DB <<'SQL'
CREATE TABLE t (id int8, tag int4);
CREATE INDEX t_id ON t USING bloomfilter (id) WITH (capacity = 2000000);
CREATE INDEX t_pair ON t USING bloomfilter (id, tag) WITH (capacity = 2000000);
CREATE SEQUENCE key_seq;
-- n rows, one transaction each
CREATE PROCEDURE single_rows(n int) LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1 .. n LOOP
		INSERT INTO t SELECT k, k % 7 FROM nextval('key_seq') k;
		COMMIT;
	END LOOP;
END $$;
SQL

start_load() {
	(while :; do on main psql_q -d $DB -c "CALL single_rows(200)" 2> /dev/null || exit 0; done) &
	loaders+=($!)
	(while :; do on main psql_q -d $DB -c "INSERT INTO t SELECT k, k % 7 FROM
		(SELECT nextval('key_seq') k FROM generate_series(1, 1000)) s" 2> /dev/null || exit 0; done) &
	loaders+=($!)
	(while :; do on main psql_q -d $DB -c "COPY t (id) FROM PROGRAM
		'seq 1 5000' WITH (FORMAT csv)" 2> /dev/null || exit 0; sleep 0.2; done) &
	loaders+=($!)
	(while :; do on main psql_q -d $DB -c "CHECKPOINT" 2> /dev/null || exit 0; sleep 1; done) &
	loaders+=($!)
}

for cycle in $(seq "$CYCLES"); do
	start_load
	sleep "$LOAD_SECONDS"
	node_kill main
	loaders_stop
	node_start main
	read -r rows missing_id missing_pair <<< "$(on main psql_v -d $DB -c "
		SELECT count(*),
		       count(*) FILTER (WHERE NOT bf_index_contains('t_id', id)),
		       count(*) FILTER (WHERE NOT bf_index_contains('t_pair', ROW(id, tag)))
		  FROM t")"
	check "cycle $cycle: $rows committed rows after recovery, none missing from t_id ($missing_id)" \
		"$missing_id" -eq 0 -a "$rows" -gt 0
	check "cycle $cycle: none missing from the two-column t_pair ($missing_pair)" "$missing_pair" -eq 0
	# every bit the table's keys set is set in the index: the snapshot
	# unioned with a rebuild from the table is the snapshot itself
	superset=$(on main psql_v -d $DB -c "
		SELECT bf_union(s, r) = s FROM (SELECT bf_index_filter('t_id') s,
			bf_add_all(bf_create(2000000, 0.01), array_agg(id)) r FROM t) x")
	check "cycle $cycle: t_id holds every bit a rebuild from the table sets" "$superset" = t
done

# a REINDEX after all that forgets the rolled-back keys: exactly the table
on main psql_q -d $DB -c "REINDEX INDEX t_id"
exact=$(on main psql_v -d $DB -c "
	SELECT bf_index_filter('t_id') = bf_add_all(bf_create(2000000, 0.01), array_agg(id)) FROM t")
check "after REINDEX t_id is exactly a rebuild from the table" "$exact" = t
crashes=$(nodes_crashes)
check "no backend died of a signal" -z "$crashes"
finish
