#!/bin/bash
# Instructions per execution of a prepared stored-filter point check and of
# the same one-row read without it, counted by callgrind in a single-user
# server: a measure that other jobs on the host do not move, beside make
# bench's pgbench rows (which they do).
#
#   bash bench/point_check_ir.sh BINDIR    (as root; BINDIR: a server with
#                                           this tree's build installed)
#
# The table is pfilter (id int PRIMARY KEY, bf bloomfilter) with one row,
# bf_agg of 1,000,000 keys at 1%, as in make bench.  Each statement is
# prepared, executed IR_N (1000) and 3 x IR_N times under callgrind
# (collecting inside ExecuteQuery), and the difference divided by 2 x IR_N:
# the steady state, without the first executions' catalog and library
# loading.
set -euo pipefail
B=${1:?usage: point_check_ir.sh BINDIR}
N=${IR_N:-1000}
D=$(mktemp -d /tmp/bf-point-ir.XXXXXX)
trap 'rm -rf "$D"' EXIT
chown postgres "$D"
unset $(compgen -e | grep -E '^PG[A-Z]' || true)
as_pg() { runuser -u postgres -- "$@"; }

as_pg "$B/initdb" -D "$D/data" -A trust > /dev/null
printf '%s\n' "CREATE EXTENSION bloomfilter" \
	"CREATE TABLE pfilter (id int PRIMARY KEY, bf bloomfilter)" \
	"INSERT INTO pfilter SELECT 1, bf_agg(g * 2, 1000000, 0.01) FROM generate_series(1::bigint, 1000000) g" \
	"VACUUM ANALYZE pfilter" |
	as_pg "$B/postgres" --single -D "$D/data" postgres > /dev/null 2>&1

ir() {	# ir STATEMENT COUNT: instructions of COUNT executions
	{
		echo "PREPARE p(bigint) AS $1"
		for i in $(seq "$2"); do echo "EXECUTE p($((i * 7919 % 2000000)))"; done
	} > "$D/in.sql"
	as_pg valgrind --tool=callgrind --collect-atstart=no --toggle-collect=ExecuteQuery \
		--callgrind-out-file="$D/cg.out" "$B/postgres" --single -D "$D/data" postgres \
		< "$D/in.sql" > /dev/null 2> "$D/vg.log"
	callgrind_annotate "$D/cg.out" 2> /dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,
}
per() {	# per STATEMENT: steady-state instructions per execution
	local a b
	a=$(ir "$1" "$N")
	b=$(ir "$1" $((3 * N)))
	echo $(((b - a) / (2 * N)))
}
row=$(per 'SELECT $1::int8 FROM pfilter WHERE id = 1')
check=$(per 'SELECT bf_contains(bf, $1) FROM pfilter WHERE id = 1')
echo "| statement | instructions per execution |"
echo "|---|---:|"
echo "| SELECT \$1::int8 FROM pfilter WHERE id = 1 | $row |"
echo "| SELECT bf_contains(bf, \$1) FROM pfilter WHERE id = 1 | $check |"
echo "| the check's own | $((check - row)) |"
