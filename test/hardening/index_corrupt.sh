#!/bin/bash
# Corrupt pages of a bloomfilter index: with the server stopped, bytes of
# an index's files are overwritten (or the file cut short), the server is
# started again, and every reader and writer of the index must answer with
# an error of SQLSTATE XX001 (data_corrupted), never a crash or a wrong
# answer.  The cluster has no data checksums (initdb's default), so the
# access method's own checks are all that stand between a bad page and a
# read past a buffer.
#
# One index per kind of damage, each with a single data page (so every key
# lands on it): a data page's special space, a data page's pd_lower, a
# data page zeroed, the metapage's magic number, the filter header's bit
# count in the metapage (a filter far larger than the file), and the file
# cut after the metapage.  For each: bf_index_contains, bf_index_filter,
# bf_index_info and an INSERT into the table.
#
# Starts its own server; run as root with pg_config in PATH:
#   bash test/hardening/index_corrupt.sh
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

DB=bf_index_corrupt
private_workdir bf_index_corrupt
trap nodes_stop_all EXIT
node_init main 5432
node_start main
on main fresh_db $DB

damages="special lower zeroed magic nbits truncated"
for d in $damages; do
	on main psql_q -d $DB -c "CREATE TABLE t_$d (id int4)" \
		-c "INSERT INTO t_$d SELECT generate_series(1, 50)" \
		-c "CREATE INDEX i_$d ON t_$d USING bloomfilter (id) WITH (capacity = 100)"
done
on main psql_q -d postgres -c "CHECKPOINT"
declare -A path
for d in $damages; do
	path[$d]=$work/main/$(on main psql_v -d $DB -c "SELECT pg_relation_filepath('i_$d')")
done
node_stop main

page=8192
poke "${path[special]}" $((page + page - 8)) ffffffffffffffff
poke "${path[lower]}" $((page + 12)) 1000
dd if=/dev/zero of="${path[zeroed]}" bs=$page seek=1 count=1 conv=notrunc status=none
poke "${path[magic]}" 24 00000000
# a valid header for 1000 blocks, eight data pages the file does not have
poke "${path[nbits]}" $((24 + 8 + 16)) 00d0070000000000
truncate -s $page "${path[truncated]}"
node_start main

for d in $damages; do
	expect_corrupt "$d: bf_index_contains" "SELECT bf_index_contains('i_$d', 7)"
	expect_corrupt "$d: bf_index_filter" "SELECT bf_index_filter('i_$d')"
	expect_corrupt "$d: bf_index_info" "SELECT bf_index_info('i_$d')"
	expect_corrupt "$d: INSERT" "INSERT INTO t_$d VALUES (7)"
	on main psql_q -d $DB -c "REINDEX INDEX i_$d"
	check "$d: REINDEX repairs it" "$(on main psql_v -d $DB -c "SELECT bf_index_contains('i_$d', 7)")" = t
done
check "the server is still up, no backend died of a signal" \
	"$(on main psql_v -d postgres -c "SELECT 1")" = 1 -a -z "$(nodes_crashes)"
finish
