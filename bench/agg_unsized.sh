#!/bin/bash
# bf_agg(id) with no sizing against bf_agg(id, N, 0.01) sized for the final
# count, and against 1.2's unsized form (a scalable filter from 1,000 up,
# which bf_agg(id, bf_create(1000, 0.01, expansion => 2)) still builds):
# size and build time, serial plans, interleaved, best of BENCH_ROUNDS.
#
# Runs against the server psql reaches (PGHOST, PGPORT, PGDATABASE) with the
# extension available; creates and drops table bench_unsized.
#   BENCH_SIZES   key counts (default "1000000 10000000")
#   BENCH_ROUNDS  rounds per size (default 3)
set -euo pipefail

SIZES=${BENCH_SIZES:-1000000 10000000}
ROUNDS=${BENCH_ROUNDS:-3}
# serial plans throughout, also for the sizes (a parallel template aggregate
# fills its sub-filters by shares)
export PGOPTIONS="${PGOPTIONS:-} -c max_parallel_workers_per_gather=0"
PSQL=(psql -X -q -v ON_ERROR_STOP=1)

# milliseconds of one statement, as psql's \timing reports it
time_ms() {
	"${PSQL[@]}" -c '\timing on' -c "$1" |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1
}

"${PSQL[@]}" -c "CREATE EXTENSION IF NOT EXISTS bloomfilter"
printf '| keys | sized bytes | unsized bytes | ratio | 1.2 form bytes | ratio | sized s | unsized s | ratio | 1.2 form s | ratio |\n'
printf '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for n in $SIZES; do
	"${PSQL[@]}" -c "DROP TABLE IF EXISTS bench_unsized" \
		-c "CREATE TABLE bench_unsized AS SELECT g::bigint AS id FROM generate_series(1, $n) g" \
		-c "VACUUM ANALYZE bench_unsized"
	sized_q="SELECT length(bf_agg(id, $n, 0.01)::bytea) FROM bench_unsized"
	unsized_q="SELECT length(bf_agg(id)::bytea) FROM bench_unsized"
	old_q="SELECT length(bf_agg(id, bf_create(1000, 0.01, expansion => 2))::bytea) FROM bench_unsized"
	sb=$("${PSQL[@]}" -At -c "$sized_q")
	ub=$("${PSQL[@]}" -At -c "$unsized_q")
	ob=$("${PSQL[@]}" -At -c "$old_q")
	best_s=; best_u=; best_o=
	for _ in $(seq "$ROUNDS"); do
		s=$(time_ms "$sized_q"); u=$(time_ms "$unsized_q"); o=$(time_ms "$old_q")
		best_s=$(echo "${best_s:-$s} $s" | awk '{print ($1 < $2 ? $1 : $2)}')
		best_u=$(echo "${best_u:-$u} $u" | awk '{print ($1 < $2 ? $1 : $2)}')
		best_o=$(echo "${best_o:-$o} $o" | awk '{print ($1 < $2 ? $1 : $2)}')
	done
	awk -v n="$n" -v sb="$sb" -v ub="$ub" -v ob="$ob" -v s="$best_s" -v u="$best_u" -v o="$best_o" 'BEGIN {
		printf "| %d | %d | %d | %.2f | %d | %.2f | %.3f | %.3f | %.2f | %.3f | %.2f |\n",
			n, sb, ub, ub / sb, ob, ob / sb, s / 1000, u / 1000, u / s, o / 1000, o / s }'
done
"${PSQL[@]}" -c "DROP TABLE bench_unsized"
