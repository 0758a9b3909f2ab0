#!/bin/bash
# Long operations on large filters must answer statement_timeout (and so
# cancel) promptly, and sizes past the limit must be a clean ERROR.
# Run inside a cluster: pg_virtualenv -v 15 bash test/hardening/limits.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DB=bf_limits
fresh_db $DB

# time how long a statement runs before statement_timeout stops it
cancel_after() {	# cancel_after TIMEOUT_MS SQL -> prints "seconds sqlstate"
	local start end out
	start=$(date +%s.%N)
	out=$(psql -X -q -d $DB -v VERBOSITY=sqlstate \
		-c "SET statement_timeout = $1" -c "$2" 2>&1 || true)
	end=$(date +%s.%N)
	echo "$(echo "$end - $start" | bc) $(echo "$out" | grep -o '57014' | head -1)"
}

# creating and unioning 700 MB filters: zeroing, copying and OR-ing go a
# megabyte at a time with interrupt checks.  The capacity comes from a
# subquery so the planner cannot fold the call into a constant at plan time.
read -r secs code < <(cancel_after 300 \
	"SELECT bf_nbits(bf_union(a, a)) FROM (SELECT bf_create((SELECT 580000000), 0.01) AS a OFFSET 0) s")
echo "union near the size limit cancelled after ${secs}s (sqlstate $code)"
check "union near the limit answers statement_timeout" \
	"$([ "$code" = 57014 ] && echo "$secs < 2" | bc | grep -q 1 && echo true)" = true

# a 20-million element bf_add_all: hashes are applied in chunks of 4096
psql -X -q -d $DB -c "CREATE TABLE arr AS SELECT array_agg(g) AS a FROM generate_series(1, 20000000) g"
read -r secs code < <(cancel_after 300 \
	"SELECT bf_nbits(bf_add_all(bf_create(20000000), a)) FROM arr")
echo "bf_add_all of 20M elements cancelled after ${secs}s (sqlstate $code)"
check "huge bf_add_all answers statement_timeout" \
	"$([ "$code" = 57014 ] && echo "$secs < 2" | bc | grep -q 1 && echo true)" = true

# bf_contains_all of 2^26 + 2 elements: 1.2 hashed them all at once (1 GB,
# XX000 invalid memory alloc request); batches of 65,536 answer it, NULL
# for the NULL, false for the absent last one
out=$(psql -X -A -t -d $DB -v VERBOSITY=sqlstate -c "
	SELECT cardinality(a), a[67108865] IS NULL, array_position(a, false), a[1]
	FROM (SELECT bf_contains_all(bf_add(bf_create(1000), 1),
	                             array_fill(1, ARRAY[67108864]) || NULL::int || 3) AS a OFFSET 0) s" 2>&1 || true)
echo "bf_contains_all of 2^26 + 2 elements: $out"
check "bf_contains_all of 67M elements answers in batches" "$out" = "67108866|t|67108866|t"
# the array functions that change a filter take the same arrays (hashes in
# batches of 4096; a cuckoo add allocates nothing per element)
out=$(psql -X -A -t -d $DB -v VERBOSITY=sqlstate -c "
	SELECT bf_add_all(bf_create(1000), a) @> 1,
	       bf_count(bf_remove_all(bf_add_all(bf_create(1000, 0.01, 0, true, 0), a[1:10]), a), 1),
	       cf_count(cf_delete_all(cf_add(cf_create(1000), 1), a), 1)
	FROM (SELECT array_fill(1, ARRAY[67108864]) AS a OFFSET 0) s" 2>&1 || true)
echo "bf_add_all, bf_remove_all, cf_delete_all of 2^26 elements: $out"
check "the changing array functions take 67M elements" "$out" = "t|0|0"

# repeated adds of one element grow a cuckoo filter by a sub-filter every
# 2b copies until 54000.  The backend's peak memory (VmHWM) stays within
# the value limit (785,408 kB): the size is checked before allocating, a
# value of our own grows in place, and cf_agg's grown state is adopted by
# the executor without a copy (1.2 peaked at 2.4 times the largest value)
cuckoo_peak_kb() {	# cuckoo_peak_kb SQL: "sqlstate peak_kB" of a fresh backend
	psql -X -q -A -t -d $DB -v VERBOSITY=sqlstate 2>&1 <<SQL | tr '\n' ' '
SELECT pg_backend_pid() AS pid \gset
\setenv BF_PID :pid
$1;
\! awk '/VmHWM/ { print \$2 }' /proc/\$BF_PID/status
SQL
	echo
}
for stmt in "SELECT cf_items(cf_agg(1, 1000)) FROM generate_series(1, 1000)" \
	"SELECT cf_items(cf_add_all(cf_create(1000), array_fill(1, ARRAY[1000])))"; do
	read -r code peak < <(cuckoo_peak_kb "$stmt" | sed 's/ERROR: *//')
	echo "${stmt%% FROM*}...: $code, peak ${peak} kB"
	check "repeated cuckoo adds end in 54000 within the value limit's memory" \
		"$([ "$code" = 54000 ] && [ "$peak" -lt 785408 ] && echo true)" = true
done

# past the size limit: a clean program_limit_exceeded, no allocation attempted
out=$(psql -X -q -d $DB -v VERBOSITY=sqlstate -c "SELECT bf_create(2000000000, 0.001)" 2>&1 || true)
check "over-limit size is ERROR 54000" "$(echo "$out" | grep -c 54000)" -ge 1

# the largest filter that fits can be created, written as text and read back
out=$(psql -X -A -t -d $DB -c "
	CREATE TABLE big AS SELECT bf_add(bf_create(600000000, 0.01), 42) AS bf;
	SELECT length(bf::text) < 1073741824, bf::text::bloomfilter @> 42 FROM big;" 2>&1 || true)
echo "largest filter text round trip: $out"
check "a filter near the limit round-trips through text" "$(echo "$out" | tail -1)" = "t|t"

psql -X -q -d postgres -c "DROP DATABASE $DB"
finish
