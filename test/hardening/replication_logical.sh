#!/bin/bash
# Logical replication: a published table with bloomfilter columns arrives
# byte-identical on subscribers in text mode, in binary mode, and in binary
# mode with large transactions streamed while in progress; through the
# initial copy, inserts, updates of every kind and deletes.
#
# Why: logical replication does not ship the stored bytes; it ships each
# value through the type's output function (text mode: base64 in, text
# input out on the subscriber) or its send function (binary mode: binary
# receive on the subscriber), both of which validate everything.  A value
# either path alters or refuses breaks the subscription or, worse, makes a
# different filter there.  A column whose TOASTed value an UPDATE left
# alone is not shipped at all (it is marked "unchanged" and the subscriber
# keeps its own copy), so an update of another column, or of the primary
# key, must leave a multi-megabyte filter intact.
#
# The publisher decodes with logical_decoding_work_mem at its 64 kB
# minimum, so every transaction with a filter of any size spills to disk
# (or, for the streaming subscription, is streamed before it commits) and
# its TOAST chunks are reassembled from there.
#
# Table t (id primary key, label, bf bloomfilter, bfs bloomfilter[]):
#   - rows present before the subscriptions exist: the initial copy;
#   - inserts: in line, 6 MB out of line, text keys with a seed, NULL,
#     arrays of filters; a row inserted and updated in one transaction;
#   - updates: bf_add and bf_add_all in place (in line and TOASTed),
#     replacement by a filter of another shape, to NULL, from NULL, of the
#     label only and of the primary key only (the TOASTed filter unchanged),
#     of one array element;
#   - deletes, and a transaction that touches many rows at once.
# After each step, once each subscription confirmed the publisher's LSN:
# per row, id, label, md5 of bf::bytea and of each array element, bits set,
# and the true answers to 20,000 probes (10,000 of them keys never added)
# must be the same on every subscriber as on the publisher.
#
# A table with REPLICA IDENTITY FULL and no key needs an equality operator
# for every column: the subscriber finds the row an UPDATE or DELETE meant
# by comparing the whole old row, TOASTed filters included.  Version 1.2
# has one (=, byte for byte): updates of the filter and of the other
# column only, and a delete, must arrive.  1.1 has none: the subscription
# must stop with "could not identify an equality operator" (checked, so
# the limit stays documented).
#
# Starts its own two servers; run as root: bash test/hardening/replication_logical.sh
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

PUB=bf_pub
MODES="text binary stream"
export PGOPTIONS="-c statement_timeout=600s"
t0=$(date +%s)

private_workdir bf_logical
cleanup() { nodes_stop_all; }
aborted() {	# set -e stopped the script: say why the servers may have failed
	local status=$?
	cleanup
	echo "aborted (status $status); logs kept in $work"
	nodes_crashes
}
trap aborted EXIT
ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }

node_init pub 5432 "wal_level = logical" "max_wal_senders = 10" "max_replication_slots = 10" \
	"logical_decoding_work_mem = 64kB" "max_wal_size = 2GB"
node_init sub 5433 "max_worker_processes = 16" "max_logical_replication_workers = 10" \
	"wal_retrieve_retry_interval = 500ms"
node_start pub
node_start sub

schema="CREATE TABLE t (id int PRIMARY KEY, label text NOT NULL, bf bloomfilter, bfs bloomfilter[]);
        CREATE TABLE tfull (id int, bf bloomfilter);
        ALTER TABLE tfull REPLICA IDENTITY FULL;"
on pub fresh_db $PUB
echo "bloomfilter $(on pub psql_v -d $PUB -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'"), \
$(stat -c '%y' "$(pg_config --pkglibdir)/bloomfilter.so" | cut -c1-19)"
on pub psql_q -d $PUB -c "$schema" -c "
	CREATE PUBLICATION bf_pub FOR TABLE t;
	CREATE PUBLICATION bf_pub_full FOR TABLE tfull;"
for mode in $MODES full; do
	on sub fresh_db "bf_sub_$mode"
	on sub psql_q -d "bf_sub_$mode" -c "$schema"
done

# rows for the initial copy
on pub psql_q -d $PUB <<'SQL'
INSERT INTO t VALUES
	(1, 'inline', bf_add_all(bf_create(1000), ARRAY(SELECT g FROM generate_series(1, 500) g)), NULL),
	(2, 'toasted 6 MB', (SELECT bf_agg(g, 5000000, 0.01) FROM generate_series(1, 300000) g), NULL),
	(3, 'text keys, seed 12345', bf_add_all(bf_create(100000, 0.01, 12345),
	                                        ARRAY(SELECT 'key-' || g FROM generate_series(1, 20000) g)), NULL),
	(4, 'null', NULL, NULL),
	(5, 'array of three', NULL, ARRAY[bf_create(100), NULL, bf_add(bf_create(200000, 0.001, 4294967295), 7)]),
	(6, 'empty', bf_create(10), '{}');
SQL

wait_sync() {	# wait_sync LABEL: every subscription has confirmed the publisher's current LSN
	local target n start
	start=$(date +%s%N)
	target=$(on pub psql_v -d postgres -c "SELECT pg_current_wal_lsn()")
	for _ in $(seq 1200); do
		n=$(on pub psql_v -d postgres -c "
			SELECT count(*) FROM pg_stat_replication
			 WHERE application_name IN ('s_text', 's_binary', 's_stream') AND replay_lsn >= '$target'")
		if [ "$n" -eq 3 ]; then
			echo "$1: the 3 subscriptions confirmed $target in $(ms_since "$start") ms"
			return 0
		fi
		sleep 0.1
	done
	echo "wait_sync: the subscriptions did not reach $target in 120 s" >&2
	return 1
}

# per row: id, label, md5 and bits set of bf, md5 of every element of bfs,
# true answers to 10,000 keys that may have been added and 10,000 never
# added, for integer and for text keys
fingerprint() {	# fingerprint NODE DB
	on "$1" psql_v -d "$2" -c "
		SELECT id, label, md5(bf::bytea), bf_bits_set(bf), octet_length(bf::bytea),
		       (SELECT string_agg(coalesce(md5(x::bytea), 'null'), ',') FROM unnest(bfs) x),
		       (SELECT count(*) FILTER (WHERE bf_contains(bf, g) OR bf_contains(bf, 'key-' || g))
		          FROM generate_series(-10000, 10000) g WHERE g <> 0)
		  FROM t ORDER BY id"
}

step=0
compare() {	# compare LABEL: every subscriber against the publisher
	local label=$1 mode rows bytes
	step=$((step + 1))
	wait_sync "$label"
	fingerprint pub $PUB > "$work/pub.$step"
	read -r rows bytes < <(on pub psql_v -d $PUB -c "
		SELECT count(*), coalesce(sum(octet_length(bf::bytea)), 0)
		     + coalesce(sum((SELECT sum(octet_length(x::bytea)) FROM unnest(bfs) x)), 0) FROM t")
	for mode in $MODES; do
		fingerprint sub "bf_sub_$mode" > "$work/$mode.$step"
		if ! diff "$work/pub.$step" "$work/$mode.$step" > "$work/$mode.$step.diff"; then
			echo "$label: $mode subscriber differs from the publisher (< publisher, > subscriber):"
			cat "$work/$mode.$step.diff"
		fi
		check "$label: $mode mode: $rows rows, $bytes bytes of filters, byte-identical, identical answers to $((rows * 40000)) probes" \
			"$(wc -l < "$work/$mode.$step.diff")" -eq 0 -a "$(wc -l < "$work/pub.$step")" -eq "$rows"
	done
}

start=$(date +%s%N)
for mode in $MODES; do
	case $mode in
	text) opts="binary = false" ;;
	binary) opts="binary = true" ;;
	stream) opts="binary = true, streaming = on" ;;
	esac
	on sub psql_q -d "bf_sub_$mode" -c "CREATE SUBSCRIPTION s_$mode
		CONNECTION 'host=$work port=$(node_port pub) dbname=$PUB user=postgres'
		PUBLICATION bf_pub WITH ($opts)" 2> /dev/null
done
for _ in $(seq 1200); do
	pending=0
	for mode in $MODES; do
		n=$(on sub psql_v -d "bf_sub_$mode" -c "SELECT count(*) FROM pg_subscription_rel WHERE srsubstate <> 'r'")
		pending=$((pending + n))
	done
	[ "$pending" -eq 0 ] && break
	sleep 0.1
done
echo "initial copy: done in $(ms_since "$start") ms"
compare "initial copy"

on pub psql_q -d $PUB <<'SQL'
-- inserts of every shape, one transaction each
INSERT INTO t VALUES (10, 'inline', bf_add(bf_create(1000), 42), NULL);
INSERT INTO t VALUES (11, 'toasted 6 MB', (SELECT bf_agg(g, 5000000, 0.01) FROM generate_series(-5000, 5000) g), NULL);
INSERT INTO t VALUES (12, 'text keys, seed 1', bf_add_all(bf_create(50000, 0.001, 1),
                                                 ARRAY(SELECT 'key-' || g FROM generate_series(1, 9000, 3) g)), NULL);
INSERT INTO t VALUES (13, 'null', NULL, ARRAY[NULL::bloomfilter]);
INSERT INTO t VALUES (14, 'array, one toasted', NULL,
                      ARRAY[bf_create(10), (SELECT bf_agg(g, 2000000, 0.01) FROM generate_series(1, 7000) g)]);
-- inserted and updated in one transaction
BEGIN;
INSERT INTO t VALUES (15, 'inserted', bf_create(5000000, 0.01), NULL);
UPDATE t SET bf = bf_add_all(bf, ARRAY[1, 2, 3]), label = 'inserted, then updated' WHERE id = 15;
COMMIT;
SQL
compare "inserts"

on pub psql_q -d $PUB <<'SQL'
UPDATE t SET bf = bf_add(bf, 9999) WHERE id = 1;				-- in line, in place
UPDATE t SET bf = bf_add(bf, -9999) WHERE id = 2;				-- TOASTed, in place
UPDATE t SET bf = bf_add_all(bf, ARRAY(SELECT g FROM generate_series(300001, 310000) g)) WHERE id = 2;
UPDATE t SET bf = bf_add_all(bf, ARRAY(SELECT 'key-' || g FROM generate_series(-3000, -1) g)) WHERE id = 3;
UPDATE t SET bf = bf_agg_replaced FROM (SELECT bf_agg(g, 100, 0.2) AS bf_agg_replaced
                                          FROM generate_series(1, 50) g) s WHERE id = 10;	-- another shape
UPDATE t SET bf = NULL WHERE id = 12;						-- to NULL
UPDATE t SET bf = (SELECT bf_agg(g, 3000000, 0.01) FROM generate_series(1, 2000) g) WHERE id = 4;	-- from NULL
UPDATE t SET bfs[1] = bf_add(bfs[1], 5) WHERE id = 5;				-- one array element
SQL
compare "updates of the filters"

# test_decoding shows what these updates ship: the out-of-line values
# (rows 2, 3, 14 and 111) as unchanged-toast-datum
on pub psql_q -d $PUB -c "SELECT pg_create_logical_replication_slot('peek', 'test_decoding')" > /dev/null
on pub psql_q -d $PUB <<'SQL'
UPDATE t SET label = 'toasted 6 MB, relabelled' WHERE id = 2;			-- TOASTed bf unchanged
UPDATE t SET label = 'array, relabelled' WHERE id = 14;			-- TOASTed array unchanged
UPDATE t SET id = 111 WHERE id = 11;						-- the key, bf unchanged
UPDATE t SET label = label || '.' WHERE id IN (1, 3, 6);
SQL
unchanged=$(on pub psql_v -d $PUB -c "
	SELECT count(*) FROM pg_logical_slot_get_changes('peek', NULL, NULL)
	 WHERE data LIKE 'table public.t: UPDATE:%unchanged-toast-datum%'")
on pub psql_q -d $PUB -c "SELECT pg_drop_replication_slot('peek')" > /dev/null
check "updates of other columns: the 4 out-of-line values are shipped as unchanged ($unchanged)" "$unchanged" -eq 4
compare "updates of other columns"

on pub psql_q -d $PUB <<'SQL'
DELETE FROM t WHERE id IN (6, 13);
-- a transaction over many rows: every filter grows, then a rebuild
BEGIN;
UPDATE t SET bf = bf_add(bf, 77777);
UPDATE t SET bf = (SELECT bf_agg(g, 5000000, 0.01) FROM generate_series(1, 400000) g) WHERE id = 111;
DELETE FROM t WHERE id = 10;
INSERT INTO t VALUES (16, 'toasted, after delete', (SELECT bf_agg(g, 4000000, 0.001) FROM generate_series(1, 1000) g), NULL);
COMMIT;
SQL
compare "deletes and a large transaction"

# REPLICA IDENTITY FULL: the subscriber must find the old row by comparing
# every column
start=$(date +%s%N)
have_eq=$(on pub psql_v -d $PUB -c "
	SELECT count(*) FROM pg_operator WHERE oprname = '=' AND oprleft = 'bloomfilter'::regtype
	   AND oprright = 'bloomfilter'::regtype")
on pub psql_q -d $PUB -c "INSERT INTO tfull VALUES (1, bf_create(100)), (2, bf_add(bf_create(1000000), 1)),
	(3, (SELECT bf_agg(g, 2000000, 0.01) FROM generate_series(1, 1000) g))"
on sub psql_q -d bf_sub_full -c "CREATE SUBSCRIPTION s_full
	CONNECTION 'host=$work port=$(node_port pub) dbname=$PUB user=postgres'
	PUBLICATION bf_pub_full" 2> /dev/null
on pub psql_q -d $PUB -c "UPDATE tfull SET bf = bf_add(bf, 2) WHERE id = 2" \
	-c "UPDATE tfull SET id = 4 WHERE id = 3" -c "DELETE FROM tfull WHERE id = 1"
want=$(on pub psql_v -d $PUB -c "SELECT string_agg(id || ':' || md5(bf::bytea), ' ' ORDER BY id) FROM tfull")
got="" noeq=0
for _ in $(seq 300); do
	got=$(on sub psql_v -d bf_sub_full -c "SELECT string_agg(id || ':' || md5(bf::bytea), ' ' ORDER BY id) FROM tfull")
	noeq=$(grep -c 'could not identify an equality operator for type .*bloomfilter' "$work/sub.log" || true)
	[ "$got" = "$want" ] && break
	[ "$have_eq" -eq 0 ] && [ "$noeq" -gt 0 ] && break
	sleep 0.1
done
on sub psql_q -d bf_sub_full -c "DROP SUBSCRIPTION s_full"
if [ "$have_eq" -eq 0 ]; then
	echo "REPLICA IDENTITY FULL: bloomfilter has no = operator; the subscriber says: \
$(grep -m1 -o 'could not identify an equality operator for type [^ ]*' "$work/sub.log" || echo nothing)"
	check "REPLICA IDENTITY FULL, no = operator: the update stops the subscription with \"could not identify an equality operator\"" \
		"$noeq" -gt 0
else
	check "REPLICA IDENTITY FULL: updates of a TOASTed filter and of the other column, and a delete, arrive ($got)" \
		"$got" = "$want"
fi
echo "REPLICA IDENTITY FULL: $(ms_since "$start") ms"

published=$(on pub psql_v -d postgres -c "
	SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint / 1048576")
spilled=$(on pub psql_v -d postgres -c "
	SELECT (coalesce(sum(spill_bytes), 0) / 1048576)::bigint || ' MB spilled, '
	    || (coalesce(sum(stream_bytes), 0) / 1048576)::bigint || ' MB streamed'
	  FROM pg_stat_replication_slots")
echo "summary: $published MB of WAL on the publisher, decoding $spilled, $(($(date +%s) - t0)) s"
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
