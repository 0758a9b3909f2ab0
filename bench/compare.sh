#!/bin/bash
# Compare this tree's installed build with an older one, side by side in one
# run: two private servers on the same data, one loading the installed
# bloomfilter, the other an older commit built here and loaded from a
# private mirror of the installation (asan.sh explains the mirror), each
# statement timed on both in interleaved rounds, best of COMPARE_RUNS.
#
#   bash bench/compare.sh [OLD_REF]     (as root; `make install` first)
#
# COMPARE_N keys (default 10,000,000), COMPARE_RUNS (5), COMPARE_SECONDS
# for each pgbench run (5).  Prints a table of seconds (tps for point
# checks) and new / old.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../test/hardening/lib.sh
. "$repo/test/hardening/lib.sh"

OLD_REF=${1:-15191b5}
N=${COMPARE_N:-10000000}
RUNS=${COMPARE_RUNS:-5}
SECONDS_EACH=${COMPARE_SECONDS:-5}

private_workdir bf_compare
trap 'nodes_stop_all; rm -rf "$work"' EXIT
echo "work directory: $work; old build: $OLD_REF" >&2

# ---- the old build, in a mirror of the installation ----
git -C "$repo" archive --prefix=oldsrc/ "$OLD_REF" | tar -x -C "$work"
make -s -C "$work/oldsrc" > "$work/old-build.log" 2>&1
bindir=$(pg_config --bindir) libdir=$(pg_config --pkglibdir) sharedir=$(pg_config --sharedir)
mirror=$work/mirror
mkdir -p "$mirror$bindir" "$mirror$libdir" "$mirror$sharedir/extension"
cp "$bindir/postgres" "$mirror$bindir/postgres"
for f in "$libdir"/*; do ln -s "$f" "$mirror$libdir/"; done
for f in "$sharedir"/*; do [ "$(basename "$f")" = extension ] || ln -s "$f" "$mirror$sharedir/"; done
for f in "$sharedir"/extension/*; do ln -s "$f" "$mirror$sharedir/extension/"; done
rm -f "$mirror$libdir/bloomfilter.so" "$mirror$sharedir"/extension/bloomfilter[.-]*
cp "$work/oldsrc/bloomfilter.so" "$mirror$libdir/"
cp "$work/oldsrc"/bloomfilter.control "$work/oldsrc"/bloomfilter--*.sql "$mirror$sharedir/extension/"
chmod -R a+rX "$work"

# ---- two servers, the same settings and data ----
settings=("shared_buffers = 1GB" "max_parallel_workers_per_gather = 0")
node_init new 55501 "${settings[@]}"
node_init old 55502 "${settings[@]}"
node_start new
as_pg "$bindir/pg_ctl" -D "$work/old" -l "$work/old.log" -p "$mirror$bindir/postgres" -w start > /dev/null
for node in new old; do
	on $node psql -X -q -d postgres -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION bloomfilter;
CREATE TABLE keys AS SELECT (g * 2)::bigint AS id FROM generate_series(1, $N) g;
CREATE TABLE probe AS SELECT g::bigint AS id FROM generate_series(1, $N) g;
CREATE TABLE filters (name text PRIMARY KEY, bf bloomfilter);
INSERT INTO filters SELECT 'k', bf_agg(id, $N, 0.01) FROM keys;
INSERT INTO filters SELECT 'small', bf_agg(id, 100000, 0.01) FROM keys WHERE id <= 200000;
INSERT INTO filters SELECT 'p1m', bf_agg(id, 1000000, 0.01) FROM keys WHERE id <= 2000000;
VACUUM ANALYZE keys; VACUUM ANALYZE probe; VACUUM ANALYZE filters;
SQL
done

declare -A T
time_on() {	# time_on NODE NAME SQL: seconds, kept if the best so far
	local t
	t=$(on "$1" psql -X -q -A -t -d postgres -c "\\timing on" -c "$3" |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | awk '{ printf "%.4f", $1 / 1000 }')
	if [ -z "${T[$1.$2]:-}" ] || awk -v a="$t" -v b="${T[$1.$2]}" 'BEGIN { exit !(a < b) }'; then
		T[$1.$2]=$t
	fi
}
tps_on() {	# tps_on NODE NAME SQL: pgbench tps, kept if the best so far
	local t
	printf '\\set id random(1, %s)\n%s\n' "$((2 * N))" "$3" > "$work/pgbench.sql"
	t=$(on "$1" pgbench -n -M prepared -c 4 -j 2 -T "$SECONDS_EACH" -f "$work/pgbench.sql" postgres 2>/dev/null |
		sed -n 's/^tps = \([0-9.]*\).*/\1/p')
	if [ -z "${T[$1.$2]:-}" ] || awk -v a="$t" -v b="${T[$1.$2]}" 'BEGIN { exit !(a > b) }'; then
		T[$1.$2]=$t
	fi
}

names=(join_small join_k sub_small sub_k build_bf add_all)
declare -A Q=(
	[join_small]="SELECT count(*) FROM probe p JOIN filters f ON f.name = 'small' WHERE bf_contains(f.bf, p.id)"
	[join_k]="SELECT count(*) FROM probe p JOIN filters f ON f.name = 'k' WHERE bf_contains(f.bf, p.id)"
	[sub_small]="SELECT count(*) FROM probe p WHERE bf_contains((SELECT bf FROM filters WHERE name = 'small'), p.id)"
	[sub_k]="SELECT count(*) FROM probe p WHERE bf_contains((SELECT bf FROM filters WHERE name = 'k'), p.id)"
	[build_bf]="SELECT bf_nbits(bf_agg(id, $N, 0.01)) FROM keys"
	[add_all]="SELECT bf_nbits(bf_add_all(bf_create($N), array_agg(id))) FROM keys"
)
for r in $(seq "$RUNS"); do
	echo "round $r" >&2
	for name in "${names[@]}"; do
		for node in old new; do time_on $node "$name" "${Q[$name]}"; done
	done
	for node in old new; do
		tps_on $node point_1m "SELECT bf_contains(bf, :id::bigint) FROM filters WHERE name = 'p1m';"
	done
done

echo
echo "bloomfilter: this build against $OLD_REF, N = $N, best of $RUNS interleaved rounds, $(date -u +%Y-%m-%d)"
echo
echo "| measure | old | new | new / old |"
echo "|---|---:|---:|---:|"
for name in "${names[@]}" point_1m; do
	unit=s
	[ "$name" = point_1m ] && unit=tps
	printf '| %s (%s) | %s | %s | %s |\n' "$name" "$unit" "${T[old.$name]}" "${T[new.$name]}" \
		"$(awk -v n="${T[new.$name]}" -v o="${T[old.$name]}" 'BEGIN { printf "%.2f", n / o }')"
done
