#!/bin/bash
# Corrupt stored filter values in their TOAST relations: with the server
# stopped, bytes of a value's chunks are overwritten, the server is started
# again, and every check that reads the value by chunks (bf_contains,
# bf_contains_all, cf_contains, cf_contains_all: type/probe.c and
# type/toast.c) must answer with an error of SQLSTATE XX001
# (data_corrupted), never a crash, a read past the value or a wrong answer.
# The cluster has no data checksums (initdb's default before 18), so the
# extension's own checks are all that stand between a bad chunk and a read
# past a buffer.
#
# One table per kind of damage, each holding one value: a plain filter's
# header claiming a larger payload than the value has, the head of a
# scalable filter's second sub-filter (zero bits), the count in a grown
# cuckoo filter's third descriptor (more than its slots), a chunk whose
# size is not the chunk size, and a chunk whose number is not the one the
# index says.  The index_corrupt.sh script does the same for the index.
#
# Starts its own server; run as root with pg_config in PATH:
#   bash test/hardening/toast_corrupt.sh
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

DB=bf_toast_corrupt
private_workdir bf_toast_corrupt
trap nodes_stop_all EXIT
node_init main 5432
node_start main
on main fresh_db $DB

sql() { on main psql_v -d $DB -c "$1"; }
sql "CREATE TABLE t_header AS SELECT bf_agg(g::bigint, 100000, 0.01) AS bf FROM generate_series(1, 100000) g"
sql "CREATE TABLE t_scalable AS SELECT bf_add_all(bf_create(5000, 0.01, expansion => 2),
	ARRAY(SELECT generate_series(1, 35000)::bigint)) AS bf"
sql "CREATE TABLE t_cuckoo AS SELECT cf_agg(g::bigint, 5000, 0.01) AS cf FROM generate_series(1, 35000) g"
sql "CREATE TABLE t_size AS SELECT bf_agg(g::bigint, 100000, 0.01) AS bf FROM generate_series(1, 100000) g"
sql "CREATE TABLE t_seq AS SELECT bf_agg(g::bigint, 100000, 0.01) AS bf FROM generate_series(1, 100000) g"
on main psql_q -d postgres -c "CHECKPOINT"

damages="header scalable cuckoo size seq"
declare -A file
declare -A chunk_size
for d in $damages; do
	toast=$(sql "SELECT reltoastrelid::regclass FROM pg_class WHERE oid = 't_$d'::regclass")
	file[$d]=$work/main/$(sql "SELECT pg_relation_filepath('$toast')")
	chunk_size[$d]=$(sql "SELECT octet_length(chunk_data) FROM $toast WHERE chunk_seq = 0")
	# where chunk k of the value is: block and line pointer of its tuple
	sql "SELECT chunk_seq, (ctid::text::point)[0]::int, (ctid::text::point)[1]::int FROM $toast" > "$work/$d.ctids"
done
# the cuckoo filter's descriptors: 24 bytes, then the slots, sub-filter after sub-filter
cuckoo_desc3=$(sql "SELECT 48 + sum(24 + (((s->>'buckets')::bigint * 4 * (s->>'fingerprint_bits')::int + 7) / 8))
	FROM t_cuckoo, jsonb_array_elements(cf_info(cf)->'subfilters') WITH ORDINALITY a(s, i) WHERE i <= 2")
node_stop main

page=8192
tuple_at() {	# tuple_at DAMAGE K: file offset of chunk K's heap tuple
	local block lp word
	read -r _ block lp < <(awk -v k="$2" '$1 == k' "$work/$1.ctids")
	word=$(od -An -t u4 -j $((block * page + 24 + 4 * (lp - 1))) -N 4 "${file[$1]}" | tr -d ' ')
	echo $((block * page + (word & 0x7fff)))
}
# a chunk's tuple: 24-byte header, chunk_id, chunk_seq, then chunk_data's
# 4-byte varlena header and the data
value_at() {	# value_at DAMAGE OFFSET: file offset of that byte of the value
	echo $(($(tuple_at "$1" $(($2 / chunk_size[$1]))) + 36 + $2 % chunk_size[$1]))
}
poke "${file[header]}" "$(value_at header 16)" 0000000000001000
# the value's third "BLMF": the top header, the first sub-filter's, the second's
second=$(grep -obUa BLMF "${file[scalable]}" | sed -n 3p | cut -d: -f1)
poke "${file[scalable]}" $((second + 16)) 0000000000000000
poke "${file[cuckoo]}" "$(value_at cuckoo $((cuckoo_desc3 + 8)))" ffffffffffffff00
poke "${file[size]}" $(($(tuple_at size 0) + 32)) b00f0000
poke "${file[seq]}" $(($(tuple_at seq 0) + 28)) e8030000
node_start main

for d in header scalable size seq; do
	expect_corrupt "$d: bf_contains" "SELECT bf_contains(bf, 7::bigint) FROM t_$d"
	expect_corrupt "$d: bf_count" "SELECT bf_count(bf, 7::bigint) FROM t_$d"
	expect_corrupt "$d: bf_contains_all" "SELECT bf_contains_all(bf, ARRAY[1, 2, 3]::bigint[]) FROM t_$d"
	expect_corrupt "$d: a join" \
		"SELECT count(*) FROM generate_series(1, 1000) g, t_$d WHERE bf_contains(bf, g::bigint)"
done
expect_corrupt "cuckoo: cf_contains" "SELECT cf_contains(cf, 7::bigint) FROM t_cuckoo"
expect_corrupt "cuckoo: cf_count" "SELECT cf_count(cf, 7::bigint) FROM t_cuckoo"
expect_corrupt "cuckoo: cf_contains_all" "SELECT cf_contains_all(cf, ARRAY[1, 2, 3]::bigint[]) FROM t_cuckoo"
expect_corrupt "cuckoo: a join" \
	"SELECT count(*) FROM generate_series(1, 1000) g, t_cuckoo WHERE cf_contains(cf, g::bigint)"
check "the server is still up, no backend died of a signal" \
	"$(on main psql_v -d postgres -c "SELECT 1")" = 1 -a -z "$(nodes_crashes)"
finish
