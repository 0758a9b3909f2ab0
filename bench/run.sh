#!/bin/bash
# The benchmark proper; bench.sh runs it inside a throwaway cluster.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${BENCH_N:-10000000}
BIG=${BENCH_BIG:-100000000}
RUNS=${BENCH_RUNS:-3}
PGBENCH_SECONDS=${BENCH_PGBENCH_SECONDS:-10}
DB=bf_bench
OUT=bench/out
mkdir -p $OUT

q() { psql -X -q -A -t -v ON_ERROR_STOP=1 -d $DB "$@"; }

psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
echo "setting up: $N keys, $N probes (half present), filters of $N and 100000 elements" >&2
q <<SQL
CREATE EXTENSION bloomfilter;
CREATE EXTENSION hll;
SET max_parallel_workers_per_gather = 2;
-- keys are the even numbers; probes are 1..N, so half are present
CREATE TABLE keys AS SELECT (g * 2)::bigint AS id FROM generate_series(1, $N) g;
ALTER TABLE keys ADD PRIMARY KEY (id);
CREATE TABLE probe AS SELECT g::bigint AS id FROM generate_series(1, $N) g;
CREATE TABLE filters (name text PRIMARY KEY, bf bloomfilter);
INSERT INTO filters SELECT 'k', bf_agg(id, $N, 0.01) FROM keys;
INSERT INTO filters SELECT 'small', bf_agg(id, 100000, 0.01) FROM keys WHERE id <= 200000;
VACUUM ANALYZE keys;
VACUUM ANALYZE probe;
VACUUM ANALYZE filters;

-- best of n runs of a statement, in seconds, measured in the server
CREATE FUNCTION best_of(stmt text, n int) RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE
	t0 timestamptz;
	best float8 := 'Infinity';
BEGIN
	FOR i IN 1 .. n LOOP
		t0 := clock_timestamp();
		EXECUTE stmt;
		best := least(best, extract(epoch FROM clock_timestamp() - t0));
	END LOOP;
	RETURN best;
END \$\$;
SQL

# time SQL [WORKERS] -> best of RUNS, seconds, as psql's \timing sees it
# (statements run from a plpgsql loop would not get parallel plans)
time_sql() {
	local args=(-c "SET max_parallel_workers_per_gather = ${2:-0}"
	            -c "SET parallel_setup_cost = 0" -c "SET parallel_tuple_cost = 0"
	            -c "\\timing on")
	for _ in $(seq "$RUNS"); do args+=(-c "$1"); done
	psql -X -q -A -t -d $DB "${args[@]}" |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | sort -n | head -1 |
		awk '{ printf "%.4f", $1 / 1000 }'
}

echo "probe timings" >&2
floor=$(time_sql "SELECT count(*) FROM probe WHERE id IS NOT NULL")
scan_base=$(time_sql "SELECT count(*) FROM probe WHERE hashint8(id) <> 0")
sub_k=$(time_sql "SELECT count(*) FROM probe p WHERE bf_contains((SELECT bf FROM filters WHERE name = 'k'), p.id)")
sub_small=$(time_sql "SELECT count(*) FROM probe p WHERE bf_contains((SELECT bf FROM filters WHERE name = 'small'), p.id)")
join_base=$(time_sql "SELECT count(*) FROM probe p JOIN filters f ON f.name = 'k' WHERE hashint8(p.id) <> length(f.name)")
join_k=$(time_sql "SELECT count(*) FROM probe p JOIN filters f ON f.name = 'k' WHERE bf_contains(f.bf, p.id)")
join_small=$(time_sql "SELECT count(*) FROM probe p JOIN filters f ON f.name = 'small' WHERE bf_contains(f.bf, p.id)")
semi=$(time_sql "SELECT count(*) FROM probe p WHERE EXISTS (SELECT 1 FROM keys k WHERE k.id = p.id)")

echo "build timings" >&2
build_count=$(time_sql "SELECT count(*) FROM keys")
build_bf=$(time_sql "SELECT bf_nbits(bf_agg(id, $N, 0.01)) FROM keys")
build_hll=$(time_sql "SELECT hll_cardinality(hll_add_agg(hll_hash_bigint(id))) FROM keys")
build_bf_par=$(time_sql "SELECT bf_nbits(bf_agg(id, $N, 0.01)) FROM keys" 2)
build_hll_par=$(time_sql "SELECT hll_cardinality(hll_add_agg(hll_hash_bigint(id))) FROM keys" 2)
add_all=$(time_sql "SELECT bf_nbits(bf_add_all(bf_create($N), array_agg(id))) FROM keys")

echo "maintenance: 10k keys into the stored $N filter" >&2
maint=$(q -c "SELECT best_of(\$q\$UPDATE filters SET bf = bf_add_all(bf, (SELECT array_agg(g) FROM generate_series(($N * 4)::bigint, ($N * 4 + 9999)::bigint) g)) WHERE name = 'k'\$q\$, $RUNS)" | tail -1)

echo "sizes and false-positive rate" >&2
read -r bf_size btree_size optimum < <(q -F ' ' -c "SELECT pg_column_size(bf), pg_relation_size('keys_pkey'), round(-$N * ln(0.01) / ln(2) ^ 2 / 8) FROM filters WHERE name = 'k'")
fpr=$(q -c "SELECT count(*) FILTER (WHERE bf_contains(f.bf, p.id))::float8 / count(*) FROM probe p, filters f WHERE f.name = 'k' AND p.id % 2 = 1")
fneg=$(q -c "SELECT count(*) FROM keys k, filters f WHERE f.name = 'k' AND NOT bf_contains(f.bf, k.id)")

echo "point checks: building filters of 1M and $BIG elements" >&2
q -c "SET max_parallel_workers_per_gather = 2" \
  -c "INSERT INTO filters SELECT 'p1m', bf_agg(g * 2, 1000000, 0.01) FROM generate_series(1::bigint, 1000000) g" \
  -c "INSERT INTO filters SELECT 'pbig', bf_agg(g * 2, $BIG, 0.01) FROM generate_series(1::bigint, $BIG) g" \
  -c "VACUUM ANALYZE filters"
big_size=$(q -c "SELECT pg_size_pretty(pg_column_size(bf)::bigint) FROM filters WHERE name = 'pbig'")

# pgbench: 4 clients on 2 cores, prepared statements; prints tps
tps() {
	printf '\\set id random(1, %s)\n%s\n' "$((2 * N))" "$1" > $OUT/pgbench.sql
	pgbench -n -M prepared -c 4 -j 2 -T "$PGBENCH_SECONDS" -f $OUT/pgbench.sql $DB 2>/dev/null |
		sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}
echo "pgbench" >&2
tps_btree=$(tps "SELECT 1 FROM keys WHERE id = :id;")
tps_1m=$(tps "SELECT bf_contains(bf, :id::bigint) FROM filters WHERE name = 'p1m';")
tps_big=$(tps "SELECT bf_contains(bf, :id::bigint) FROM filters WHERE name = 'pbig';")

ratio() { echo "scale=2; $1 / $2" | bc -l | sed 's/^\./0./'; }
met() { if [ "$(echo "$1" | bc -l)" = 1 ]; then echo yes; else echo NO; fi; }
fmt() { printf '%.3f' "$1"; }

cat <<TABLE

bloomfilter benchmark: N = $N keys and probes, $(nproc) cores, best of $RUNS, $(date -u +%Y-%m-%d)

| # | measure | seconds / value | against | ratio | target | met |
|---|---|---:|---|---:|---|---|
| 1 | scan floor: count(*) WHERE id IS NOT NULL | $(fmt $floor) | | | | |
| 1 | scan baseline: hashint8(id) <> 0 | $(fmt $scan_base) | floor | $(ratio $scan_base $floor) | | |
| 1 | subquery form, 100k filter | $(fmt $sub_small) | scan baseline | $(ratio $sub_small $scan_base) | <= 1.3 | $(met "$sub_small <= 1.3 * $scan_base") |
| 1 | subquery form, N filter | $(fmt $sub_k) | scan baseline | $(ratio $sub_k $scan_base) | <= 2.2 | $(met "$sub_k <= 2.2 * $scan_base") |
| 1 | join baseline: hashint8(p.id) <> length(f.name) | $(fmt $join_base) | floor | $(ratio $join_base $floor) | | |
| 1 | join form, 100k filter | $(fmt $join_small) | join baseline | $(ratio $join_small $join_base) | <= 1.3 | $(met "$join_small <= 1.3 * $join_base") |
| 1 | join form, N filter | $(fmt $join_k) | join baseline | $(ratio $join_k $join_base) | <= 2.2 | $(met "$join_k <= 2.2 * $join_base") |
| 1 | exact semi-join (btree) | $(fmt $semi) | join form, N filter | $(ratio $semi $join_k) | >= 8 | $(met "$semi >= 8 * $join_k") |
| 2 | build: count(*) | $(fmt $build_count) | | | | |
| 2 | build: hll_add_agg(hll_hash_bigint(id)) | $(fmt $build_hll) | count(*) | $(ratio $build_hll $build_count) | | |
| 2 | build: bf_agg(id, N, 0.01) | $(fmt $build_bf) | hll_add_agg | $(ratio $build_bf $build_hll) | <= 1.2 | $(met "$build_bf <= 1.2 * $build_hll") |
| 2 | build, 2 workers: hll_add_agg | $(fmt $build_hll_par) | hll serial | $(ratio $build_hll $build_hll_par) (speed-up) | | |
| 2 | build, 2 workers: bf_agg | $(fmt $build_bf_par) | bf_agg serial | $(ratio $build_bf $build_bf_par) (speed-up) | >= 1.5 | $(met "$build_bf >= 1.5 * $build_bf_par") |
| 2 | bf_add_all(bf_create(N), array_agg(id)) | $(fmt $add_all) | bf_agg | $(ratio $add_all $build_bf) | | |
| 3 | point check, btree: SELECT 1 FROM keys WHERE id = :id (tps) | $tps_btree | | | | |
| 3 | point check, 1M filter (tps) | $tps_1m | btree | $(ratio $tps_1m $tps_btree) | >= 0.9 | $(met "$tps_1m >= 0.9 * $tps_btree") |
| 3 | point check, $BIG filter, $big_size (tps) | $tps_big | 1M filter | $(ratio $tps_big $tps_1m) | >= 0.83 | $(met "$tps_big * 1.2 >= $tps_1m") |
| 4 | stored size of the N filter (bytes) | $bf_size | optimum -n ln p / (ln 2)^2 | $(ratio $bf_size $optimum) | <= 1.1 | $(met "$bf_size <= 1.1 * $optimum") |
| 4 | btree index on the keys (bytes) | $btree_size | filter | $(ratio $btree_size $bf_size) | >= 15 | $(met "$btree_size >= 15 * $bf_size") |
| 5 | maintenance: bf_add_all of 10k keys into the stored N filter | $(fmt $maint) | | | | |
| 6 | false-positive rate at capacity (N/2 absent probes) | $(printf '%.5f' $fpr) | requested 0.01 | $(ratio $fpr 0.01) | <= 1 | $(met "$fpr <= 0.01") |
| 6 | false negatives (N keys) | $fneg | | | 0 | $(met "$fneg == 0") |
TABLE
psql -X -q -d postgres -c "DROP DATABASE $DB"
