#!/bin/bash
# The CPU time one statement costs its backend, in ms: best of ROUNDS
# (default 3) runs, each in a new session (serial plan, JIT off) whose
# backend perf counts (task-clock, which needs no hardware counter, so it
# works on VMs without one).  On a host shared with other jobs, a
# statement's wall time moves with their load; its own CPU time much less.
# Against the server of PGHOST/PGPORT (as root or a user perf may attach
# to the backend as).  Used for the 1.5 rows of bench/RESULTS.md:
#
#   bash bench/cpu_time.sh "SELECT bf_nbits(bf_agg(id, 10000000, 0.01)) FROM keys"
set -euo pipefail
stmt=${1:?usage: cpu_time.sh STATEMENT [ROUNDS]}
rounds=${2:-3}
best=
for _ in $(seq "$rounds"); do
	out=$(mktemp)
	psql -X -q -A -t -d "${PGDATABASE:-postgres}" -c "SET application_name = 'bf_cpu_time'" \
		-c "SET max_parallel_workers_per_gather = 0" -c "SET jit = off" \
		-c "SELECT pg_sleep(0.6)" -c "$stmt" -c "SELECT pg_sleep(0.3)" > /dev/null &
	session=$!
	sleep 0.3
	pid=$(psql -X -A -t -d "${PGDATABASE:-postgres}" -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'bf_cpu_time'")
	perf stat -x, -e task-clock -p "$pid" -o "$out" &
	counter=$!
	wait $session
	kill -INT $counter
	wait $counter 2> /dev/null || true
	ms=$(awk -F, '/task-clock/ { printf "%.0f", $1 }' "$out")
	rm -f "$out"
	if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
done
echo "$best"
