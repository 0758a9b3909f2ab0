#!/bin/bash
# Point checks against the protocol's floor (issue 26's rows), pgbench with
# 4 clients on the 2 cores, each statement and its baseline in alternating
# rounds, the best round of each:
#
#   stored: SELECT bf_contains(bf, :k) FROM pfilter WHERE id = 1 (a 1M-key
#     filter at 1%, 1.2 MB out of line) against SELECT :k FROM pfilter
#     WHERE id = 1, the same one-row read without the check
#   index: SELECT bf_index_contains('t_bf', :k) (a bloomfilter index of 1M
#     keys) against SELECT :k::int8, and a btree lookup of the same keys
#
# both prepared and through the simple protocol.  :k is random in
# 1 .. 2,000,000 against the even keys 2 .. 2,000,000, so half are present.
# Against the server of PGHOST/PGPORT; creates and drops database
# bf_bench_points.  POINT_ROUNDS (4), POINT_SECONDS (5) per pgbench run.
set -euo pipefail
# shellcheck source=pgbench_rounds.sh
. "$(dirname "$0")/pgbench_rounds.sh"
cd "$(dirname "$0")/.."
ROUNDS=${POINT_ROUNDS:-4}
SECONDS_EACH=${POINT_SECONDS:-5}
DB=bf_bench_points
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
psql -X -q -v ON_ERROR_STOP=1 -d $DB <<'SQL'
CREATE EXTENSION bloomfilter;
CREATE TABLE pfilter (id int PRIMARY KEY, bf bloomfilter);
INSERT INTO pfilter SELECT 1, bf_agg(g * 2, 1000000, 0.01) FROM generate_series(1::bigint, 1000000) g;
CREATE TABLE t (id int8);
INSERT INTO t SELECT g * 2 FROM generate_series(1::bigint, 1000000) g;
CREATE INDEX t_bf ON t USING bloomfilter (id) WITH (capacity = 1000000, error_rate = 0.01);
CREATE TABLE tb (id int8);
INSERT INTO tb SELECT g * 2 FROM generate_series(1::bigint, 1000000) g;
CREATE INDEX tb_id ON tb (id);
VACUUM ANALYZE pfilter;
VACUUM ANALYZE t;
VACUUM ANALYZE tb;
SQL

names=(row stored bare index btree)
declare -A SQL=(
	[row]="SELECT :k::int8 FROM pfilter WHERE id = 1;"
	[stored]="SELECT bf_contains(bf, :k::int8) FROM pfilter WHERE id = 1;"
	[bare]="SELECT :k::int8;"
	[index]="SELECT bf_index_contains('t_bf', :k::int8);"
	[btree]="SELECT 1 FROM tb WHERE id = :k::int8;"
)
for name in "${names[@]}"; do
	printf '\\set k random(1, 2000000)\n%s\n' "${SQL[$name]}" > "$OUT/$name.sql"
done
pgbench_rounds "$ROUNDS" "$SECONDS_EACH" $DB "$OUT" "prepared simple" "${names[@]}"

echo
echo "| protocol | statement | best TPS | baseline | best TPS | best / best | per round | target |"
echo "|---|---|---:|---|---:|---:|---|---|"
for mode in prepared simple; do
	echo "| $mode | \`${SQL[stored]}\` (stored 1M filter) | ${BEST[$mode.stored]} | \`${SQL[row]}\` | ${BEST[$mode.row]} | $(ratio "${BEST[$mode.stored]}" "${BEST[$mode.row]}") | $(per_round $mode.stored $mode.row) | $([ $mode = prepared ] && echo '>= 0.85') |"
	echo "| $mode | \`${SQL[index]}\` (index of 1M keys) | ${BEST[$mode.index]} | \`${SQL[bare]}\` | ${BEST[$mode.bare]} | $(ratio "${BEST[$mode.index]}" "${BEST[$mode.bare]}") | $(per_round $mode.index $mode.bare) | $([ $mode = prepared ] && echo '>= 0.9') |"
	echo "| $mode | the index check | ${BEST[$mode.index]} | btree \`${SQL[btree]}\` | ${BEST[$mode.btree]} | $(ratio "${BEST[$mode.index]}" "${BEST[$mode.btree]}") | $(per_round $mode.index $mode.btree) | |"
done
psql -X -q -d postgres -c "DROP DATABASE $DB"
