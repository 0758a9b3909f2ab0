#!/bin/bash
# bf_agg with a template and ORDER BY (issue 34, item 5): the shape form
# bf_agg(k, bf_shape(T) ORDER BY ...) against the unordered template form
# bf_agg(k, T), T the 2.4 MB RedisBloom template bf_create(1740000, 0.01,
# expansion => 2, layout => 'redisbloom'), over BENCH_ROWS rows; and the
# old ordered form bf_agg(k, T ORDER BY k), which sorts T with every row,
# over BENCH_OLD_ROWS rows only (it takes seconds per thousand), where the
# script also checks that it and the shape form give the same bytes.
# Wall time (psql's \timing), best of BENCH_ROUNDS interleaved rounds;
# serial plans, JIT off, default work_mem (the sort spills to disk).
#
# Runs against the server psql reaches (PGHOST, PGPORT, PGDATABASE) with the
# extension available; creates and drops table bench_ordered.
#   BENCH_ROWS      rows (default 200000)
#   BENCH_OLD_ROWS  rows of the old ordered form (default 500; 0 skips it)
#   BENCH_ROUNDS    rounds (default 5)
set -euo pipefail
# shellcheck source=figure.sh
. "$(dirname "$0")/figure.sh"

ROWS=${BENCH_ROWS:-200000}
OLD_ROWS=${BENCH_OLD_ROWS:-500}
ROUNDS=${BENCH_ROUNDS:-5}
export PGOPTIONS="${PGOPTIONS:-} -c max_parallel_workers_per_gather=0 -c jit=off"
PSQL=(psql -X -q -v ON_ERROR_STOP=1)
T="bf_create(1740000, 0.01, expansion => 2, layout => 'redisbloom')"

# milliseconds of one statement, as psql's \timing reports it
time_ms() {
	"${PSQL[@]}" -c '\timing on' -c "$1" |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1
}

min() { echo "${1:-$2} $2" | awk '{ print ($1 < $2 ? $1 : $2) }'; }

"${PSQL[@]}" -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS bloomfilter" \
	-c "DROP TABLE IF EXISTS bench_ordered" \
	-c "CREATE TABLE bench_ordered AS SELECT g AS i, (g::bigint * 7919) % 1000003 AS k FROM generate_series(1, $ROWS) g" \
	-c "VACUUM ANALYZE bench_ordered"
echo "template: $("${PSQL[@]}" -At -c "SELECT pg_column_size($T)") bytes, shape: $("${PSQL[@]}" -At -c "SELECT pg_column_size(bf_shape($T))") bytes, $ROWS rows"

names=(unordered "shape ORDER BY k" "shape ORDER BY i")
queries=("SELECT bf_cardinality(bf_agg(k, $T)) FROM bench_ordered"
	"SELECT bf_cardinality(bf_agg(k, bf_shape($T) ORDER BY k)) FROM bench_ordered"
	"SELECT bf_cardinality(bf_agg(k, bf_shape($T) ORDER BY i)) FROM bench_ordered")
declare -a wall
for _ in $(seq "$ROUNDS"); do
	for n in "${!queries[@]}"; do
		wall[n]=$(min "${wall[n]:-}" "$(time_ms "${queries[n]}")")
	done
done
printf '| form | best ms | x unordered |\n|---|---:|---:|\n'
for n in "${!queries[@]}"; do
	awk -v f="${names[n]}" -v w="${wall[n]}" -v w0="${wall[0]}" 'BEGIN {
		printf "| %s | %.1f | %.2f |\n", f, w, w / w0 }'
done

figure template_ordered "\`bf_agg(k, bf_shape(T) ORDER BY k)\`, 2.4 MB RedisBloom template T, $(count_name "$ROWS") rows" \
	"${wall[1]}" ms "unordered \`bf_agg(k, T)\`" "${wall[0]}" '<= 3'

if [ "$OLD_ROWS" -gt 0 ]; then
	old_q="SELECT bf_agg(k, $T ORDER BY k) FROM bench_ordered WHERE i <= $OLD_ROWS"
	new_q="SELECT bf_agg(k, bf_shape($T) ORDER BY k) FROM bench_ordered WHERE i <= $OLD_ROWS"
	same=$("${PSQL[@]}" -At -c "SELECT ($old_q)::bytea = ($new_q)::bytea")
	old=$(time_ms "SELECT bf_cardinality(($old_q))")
	new=$(time_ms "SELECT bf_cardinality(($new_q))")
	awk -v n="$OLD_ROWS" -v o="$old" -v s="$new" -v same="$same" 'BEGIN {
		printf "old form bf_agg(k, T ORDER BY k) over %d rows: %.0f ms; shape form %.1f ms (%.0fx); same bytes: %s\n",
			n, o, s, o / s, same }'
fi
"${PSQL[@]}" -c "DROP TABLE bench_ordered"
