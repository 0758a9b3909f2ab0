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
