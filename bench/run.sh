#!/bin/bash
# The benchmark proper; bench.sh runs it inside a throwaway cluster.
set -euo pipefail
# shellcheck source=figure.sh
. "$(dirname "$0")/figure.sh"
cd "$(dirname "$0")/.."

N=${BENCH_N:-10000000}
BIG=${BENCH_BIG:-100000000}
RUNS=${BENCH_RUNS:-3}
PGBENCH_SECONDS=${BENCH_PGBENCH_SECONDS:-5}
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
CREATE TABLE cfilters (name text PRIMARY KEY, cf cuckoofilter);
INSERT INTO cfilters SELECT 'k', cf_agg(id, $N, 0.01) FROM keys;
VACUUM ANALYZE cfilters;
VACUUM ANALYZE keys;
VACUUM ANALYZE probe;
VACUUM ANALYZE filters;

-- estimated and actual rows of a query's top plan node
CREATE FUNCTION plan_rows(query text, OUT est float8, OUT act float8) LANGUAGE plpgsql AS \$\$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || query INTO plan;
	est := (plan->0->'Plan'->>'Plan Rows')::float8;
	act := (plan->0->'Plan'->>'Actual Rows')::float8;
END \$\$;

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

# timings: best of RUNS, in seconds, as psql's \timing sees them
# (statements run from a plpgsql loop would not get parallel plans).
# The machine's speed drifts by tens of percent over a minute, so a query
# and its baseline are timed in rounds, one session per round running each
# statement once, rather than one after the other: a slow spell then hits
# both instead of only one.
declare -A T
time_rounds() {
	local workers=$1
	shift
	local names=() stmts=() times
	while [ $# -gt 0 ]; do names+=("$1"); stmts+=("$2"); shift 2; done
	for _ in $(seq "$RUNS"); do
		local args=(-c "SET max_parallel_workers_per_gather = $workers"
		            -c "SET parallel_setup_cost = 0" -c "SET parallel_tuple_cost = 0"
		            -c "\\timing on")
		for q in "${stmts[@]}"; do args+=(-c "$q"); done
		mapfile -t times < <(psql -X -q -A -t -v ON_ERROR_STOP=1 -d $DB "${args[@]}" |
			sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
		if [ "${#times[@]}" -ne "${#names[@]}" ]; then
			echo "bench: a timed statement failed (${names[*]})" >&2
			exit 1
		fi
		for i in "${!names[@]}"; do
			local t
			t=$(awk -v ms="${times[$i]}" 'BEGIN { printf "%.4f", ms / 1000 }')
			if [ -z "${T[${names[$i]}]:-}" ] || [ "$(echo "$t < ${T[${names[$i]}]}" | bc -l)" = 1 ]; then
				T[${names[$i]}]=$t
			fi
		done
	done
}

# time SQL [WORKERS]: best of RUNS of one statement
time_sql() {
	unset 'T[one]'
	time_rounds "${2:-0}" one "$1"
	echo "${T[one]}"
}

echo "probe timings" >&2
time_rounds 0 \
	floor "SELECT count(*) FROM probe WHERE id IS NOT NULL" \
	scan_base "SELECT count(*) FROM probe WHERE hashint8(id) <> 0" \
	sub_k "SELECT count(*) FROM probe p WHERE bf_contains((SELECT bf FROM filters WHERE name = 'k'), p.id)" \
	sub_small "SELECT count(*) FROM probe p WHERE bf_contains((SELECT bf FROM filters WHERE name = 'small'), p.id)" \
	join_base "SELECT count(*) FROM probe p JOIN filters f ON f.name = 'k' WHERE hashint8(p.id) <> length(f.name)" \
	join_k "SELECT count(*) FROM probe p JOIN filters f ON f.name = 'k' WHERE bf_contains(f.bf, p.id)" \
	join_small "SELECT count(*) FROM probe p JOIN filters f ON f.name = 'small' WHERE bf_contains(f.bf, p.id)" \
	sub_cf "SELECT count(*) FROM probe p WHERE cf_contains((SELECT cf FROM cfilters WHERE name = 'k'), p.id)" \
	join_cf "SELECT count(*) FROM probe p JOIN cfilters f ON f.name = 'k' WHERE cf_contains(f.cf, p.id)" \
	semi "SELECT count(*) FROM probe p WHERE EXISTS (SELECT 1 FROM keys k WHERE k.id = p.id)"
floor=${T[floor]} scan_base=${T[scan_base]} sub_k=${T[sub_k]} sub_small=${T[sub_small]}
join_base=${T[join_base]} join_k=${T[join_k]} join_small=${T[join_small]} semi=${T[semi]}
sub_cf=${T[sub_cf]} join_cf=${T[join_cf]}

echo "build timings" >&2
time_rounds 0 \
	build_count "SELECT count(*) FROM keys" \
	build_bf "SELECT bf_nbits(bf_agg(id, $N, 0.01)) FROM keys" \
	build_hll "SELECT hll_cardinality(hll_add_agg(hll_hash_bigint(id))) FROM keys" \
	build_counting "SELECT bf_nbits(bf_agg(id, bf_create($N, 0.01, counting => true))) FROM keys" \
	build_cf "SELECT cf_items(cf_agg(id, $N, 0.01)) FROM keys"
time_rounds 2 \
	build_bf_par "SELECT bf_nbits(bf_agg(id, $N, 0.01)) FROM keys" \
	build_hll_par "SELECT hll_cardinality(hll_add_agg(hll_hash_bigint(id))) FROM keys"
build_count=${T[build_count]} build_bf=${T[build_bf]} build_hll=${T[build_hll]}
build_bf_par=${T[build_bf_par]} build_hll_par=${T[build_hll_par]}
build_counting=${T[build_counting]} build_cf=${T[build_cf]}
add_all=$(time_sql "SELECT bf_nbits(bf_add_all(bf_create($N), array_agg(id))) FROM keys")

# The same builds with transparent huge pages for all memory, not only the
# filters this extension allocates: a parallel build copies each worker's
# 12 MB state several times through PostgreSQL's own allocations (the tuple
# for the queue, the leader's receive buffer, the combine step's copy), and
# on a VM where a fresh 4 kB page costs ~10 us those copies dominate.  Only
# as root, and the setting is given back at once.
thp=/sys/kernel/mm/transparent_hugepage/enabled
build_bf_thp=
if [ -w $thp ]; then
	old_thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $thp)
	trap 'echo "$old_thp" > $thp' EXIT
	echo always > $thp
	build_bf_thp=$(time_sql "SELECT bf_nbits(bf_agg(id, $N, 0.01)) FROM keys")
	build_bf_par_thp=$(time_sql "SELECT bf_nbits(bf_agg(id, $N, 0.01)) FROM keys" 2)
	echo "$old_thp" > $thp
	trap - EXIT
fi


echo "sizes and false-positive rate" >&2
read -r bf_size btree_size optimum < <(q -F ' ' -c "SELECT pg_column_size(bf), pg_relation_size('keys_pkey'), round(-$N * ln(0.01) / ln(2) ^ 2 / 8) FROM filters WHERE name = 'k'")
fpr=$(q -c "SELECT count(*) FILTER (WHERE bf_contains(f.bf, p.id))::float8 / count(*) FROM probe p, filters f WHERE f.name = 'k' AND p.id % 2 = 1")
fneg=$(q -c "SELECT count(*) FROM keys k, filters f WHERE f.name = 'k' AND NOT bf_contains(f.bf, k.id)")
# bits per element of each kind at capacity N, against the standard optimum
bits() { q -c "SELECT round(length(($1)::bytea) * 8.0 / $N, 2)"; }
opt1=$(q -c "SELECT round((-ln(0.01) / ln(2) ^ 2)::numeric, 2)") opt01=$(q -c "SELECT round((-ln(0.001) / ln(2) ^ 2)::numeric, 2)")
bits_plain1=$(bits "bf_create($N, 0.01)") bits_plain01=$(bits "bf_create($N, 0.001)")
bits_count1=$(bits "bf_create($N, 0.01, counting => true)") bits_count01=$(bits "bf_create($N, 0.001, counting => true)")
bits_cf1=$(bits "cf_create($N, 0.01)") bits_cf01=$(bits "cf_create($N, 0.001)")

# the planner's row estimate of the README's guard query (join form)
read -r est_rows act_rows < <(q -F ' ' -c "SELECT * FROM plan_rows(\$q\$SELECT p.id FROM probe p JOIN filters f ON f.name = 'k' WHERE bf_contains(f.bf, p.id)\$q\$)")

echo "maintenance: 10k keys into the stored $N filter" >&2
maint=$(q -c "SELECT best_of(\$q\$UPDATE filters SET bf = bf_add_all(bf, (SELECT array_agg(g) FROM generate_series(($N * 4)::bigint, ($N * 4 + 9999)::bigint) g)) WHERE name = 'k'\$q\$, $RUNS)" | tail -1)

echo "point checks: building filters of 1M and $BIG elements" >&2
q -c "SET max_parallel_workers_per_gather = 2" \
  -c "INSERT INTO filters SELECT 'p1m', bf_agg(g * 2, 1000000, 0.01) FROM generate_series(1::bigint, 1000000) g" \
  -c "INSERT INTO filters SELECT 'pbig', bf_agg(g * 2, $BIG, 0.01) FROM generate_series(1::bigint, $BIG) g" \
  -c "VACUUM ANALYZE filters" \
  -c "CREATE TABLE pfilter (id int PRIMARY KEY, bf bloomfilter)" \
  -c "INSERT INTO pfilter SELECT 1, bf FROM filters WHERE name = 'p1m'" \
  -c "VACUUM ANALYZE pfilter"
big_size=$(q -c "SELECT pg_size_pretty(pg_column_size(bf)::bigint) FROM filters WHERE name = 'pbig'")

# pgbench: 4 clients on 2 cores, prepared statements; prints tps
tps() {
	printf '\\set id random(1, %s)\n%s\n' "$((2 * N))" "$1" > $OUT/pgbench.sql
	pgbench -n -M prepared -c 4 -j 2 -T "$PGBENCH_SECONDS" -f $OUT/pgbench.sql $DB 2>/dev/null |
		sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}
echo "pgbench" >&2
# best of RUNS rounds, each round running the three one after the other
# (pgbench here swings by 30% from one run to the next)
best() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b > a ? b : a) }'; }
tps_btree=0 tps_1m=0 tps_big=0 tps_row=0 tps_row_bf=0
for _ in $(seq "$RUNS"); do
	# a stored filter's point check against the same one-row read without it
	tps_row=$(best "$tps_row" "$(tps "SELECT :id::int8 FROM pfilter WHERE id = 1;")")
	tps_row_bf=$(best "$tps_row_bf" "$(tps "SELECT bf_contains(bf, :id::bigint) FROM pfilter WHERE id = 1;")")
	tps_btree=$(best "$tps_btree" "$(tps "SELECT 1 FROM keys WHERE id = :id;")")
	tps_1m=$(best "$tps_1m" "$(tps "SELECT bf_contains(bf, :id::bigint) FROM filters WHERE name = 'p1m';")")
	tps_big=$(best "$tps_big" "$(tps "SELECT bf_contains(bf, :id::bigint) FROM filters WHERE name = 'pbig';")")
done

# Batch checks (BF.MEXISTS): 100 random keys per transaction, bound as 100
# parameters of one ARRAY[...] (pgbench cannot bind an array variable; an
# application would bind one bigint[] parameter), checked by one
# bf_contains_all, by 100 single-key bf_contains statements, and by the
# btree (= ANY of the same array).  Figures are checks per second (tps x 100).
batch_tps() {	# batch_tps STATEMENT-TEMPLATE: @KEYS@ is the array, @K@ each key
	local sets="" arr=""
	for i in $(seq 100); do
		sets+="\\set k$i random(1, $((2 * N)))\n"
		arr+="${arr:+, }:k$i"
	done
	if [[ $1 == *@K@* ]]; then
		printf "$sets" > $OUT/batch.sql
		for i in $(seq 100); do echo "${1//@K@/:k$i}" >> $OUT/batch.sql; done
	else
		{ printf "$sets"; echo "${1//@KEYS@/ARRAY[$arr]::bigint[]}"; } > $OUT/batch.sql
	fi
	pgbench -n -M prepared -c 4 -j 2 -T "$PGBENCH_SECONDS" -f $OUT/batch.sql $DB 2>/dev/null |
		sed -n 's/^tps = \([0-9.]*\).*/\1/p' | awk '{ printf "%.0f", $1 * 100 }'
}
echo "batch checks" >&2
cps_all_k=0 cps_all_1m=0 cps_one_k=0 cps_any=0
for _ in $(seq "$RUNS"); do
	cps_all_k=$(best "$cps_all_k" "$(batch_tps "SELECT bf_contains_all(bf, @KEYS@) FROM filters WHERE name = 'k';")")
	cps_all_1m=$(best "$cps_all_1m" "$(batch_tps "SELECT bf_contains_all(bf, @KEYS@) FROM filters WHERE name = 'p1m';")")
	cps_one_k=$(best "$cps_one_k" "$(batch_tps "SELECT bf_contains(bf, @K@::bigint) FROM filters WHERE name = 'k';")")
	cps_any=$(best "$cps_any" "$(batch_tps "SELECT count(*) FROM keys WHERE id = ANY(@KEYS@);")")
done

# rows for the THP runs, when they could be made
thp_rows() {
	[ -n "$build_bf_thp" ] || return 0
	echo "| 2 | build, THP always: bf_agg serial | $(fmt $build_bf_thp) | hll serial | $(ratio $build_bf_thp $build_hll) | | |"
	echo "| 2 | build, THP always, 2 workers: bf_agg | $(fmt $build_bf_par_thp) | bf_agg serial, THP always | $(ratio $build_bf_thp $build_bf_par_thp) (speed-up) | | |"
}
ratio() { echo "scale=2; $1 / $2" | bc -l | sed 's/^\./0./'; }
met() { if [ "$(echo "$1" | bc -l)" = 1 ]; then echo yes; else echo NO; fi; }
fmt() { printf '%.3f' "$1"; }

cat <<TABLE

bloomfilter benchmark: N = $N keys and probes, $(nproc) cores, best of $RUNS, $(date -u +%Y-%m-%d)

| # | measure | seconds / value | against | ratio | target | met |
|---|---|---:|---|---:|---|---|
| 1 | scan floor: count(*) WHERE id IS NOT NULL | $(fmt $floor) | | | | |
| 1 | scan baseline: hashint8(id) <> 0 | $(fmt $scan_base) | floor | $(ratio $scan_base $floor) | | |
| 1 | subquery form, 100k filter | $(fmt $sub_small) | scan baseline | $(ratio $sub_small $scan_base) | <= 1.1 | $(met "$sub_small <= 1.1 * $scan_base") |
| 1 | subquery form, N filter | $(fmt $sub_k) | scan baseline | $(ratio $sub_k $scan_base) | <= 2.0 | $(met "$sub_k <= 2.0 * $scan_base") |
| 1 | subquery form, cuckoo filter of N | $(fmt $sub_cf) | bloom filter of N | $(ratio $sub_cf $sub_k) | <= 1.2 | $(met "$sub_cf <= 1.2 * $sub_k") |
| 1 | join baseline: hashint8(p.id) <> length(f.name) | $(fmt $join_base) | floor | $(ratio $join_base $floor) | | |
| 1 | join form, 100k filter | $(fmt $join_small) | join baseline | $(ratio $join_small $join_base) | <= 1.1 | $(met "$join_small <= 1.1 * $join_base") |
| 1 | join form, N filter | $(fmt $join_k) | join baseline | $(ratio $join_k $join_base) | <= 2.0 | $(met "$join_k <= 2.0 * $join_base") |
| 1 | join form, cuckoo filter of N | $(fmt $join_cf) | bloom filter of N | $(ratio $join_cf $join_k) | <= 1.2 | $(met "$join_cf <= 1.2 * $join_k") |
| 1 | exact semi-join (btree), reported | $(fmt $semi) | join form, N filter | $(ratio $semi $join_k) | | |
| 1 | planner: rows estimated for the join form / actual, reported (half the probes are members here; a guard rules out most: sql/planner.sql) | $est_rows / $act_rows | | $(ratio $est_rows $act_rows) | | |
| 2 | build: count(*) | $(fmt $build_count) | | | | |
| 2 | build: hll_add_agg(hll_hash_bigint(id)) | $(fmt $build_hll) | count(*) | $(ratio $build_hll $build_count) | | |
| 2 | build: bf_agg(id, N, 0.01) | $(fmt $build_bf) | hll_add_agg | $(ratio $build_bf $build_hll) | <= 1.1 | $(met "$build_bf <= 1.1 * $build_hll") |
| 2 | build: counting bf_agg(id, bf_create(N, 0.01, counting => true)) | $(fmt $build_counting) | plain bf_agg | $(ratio $build_counting $build_bf) | <= 1.4 | $(met "$build_counting <= 1.4 * $build_bf") |
| 2 | build: cf_agg(id, N, 0.01) | $(fmt $build_cf) | plain bf_agg | $(ratio $build_cf $build_bf) | <= 1.6 | $(met "$build_cf <= 1.6 * $build_bf") |
| 2 | build, 2 workers: hll_add_agg | $(fmt $build_hll_par) | hll serial | $(ratio $build_hll $build_hll_par) (speed-up) | | |
| 2 | build, 2 workers: bf_agg, reported | $(fmt $build_bf_par) | bf_agg serial | $(ratio $build_bf $build_bf_par) (speed-up) | | |
$(thp_rows)
| 2 | bf_add_all(bf_create(N), array_agg(id)) | $(fmt $add_all) | bf_agg | $(ratio $add_all $build_bf) | | |
| 3 | one-row read: SELECT :id::int8 FROM pfilter WHERE id = 1 (tps) | $tps_row | | | | |
| 3 | stored point check: SELECT bf_contains(bf, :id) FROM pfilter WHERE id = 1, 1M filter (tps) | $tps_row_bf | one-row read | $(ratio $tps_row_bf $tps_row) | >= 0.85 | $(met "$tps_row_bf >= 0.85 * $tps_row") |
| 3 | point check, btree: SELECT 1 FROM keys WHERE id = :id (tps) | $tps_btree | | | | |
| 3 | point check, 1M filter (tps) | $tps_1m | btree | $(ratio $tps_1m $tps_btree) | >= 1.0 | $(met "$tps_1m >= $tps_btree") |
| 3 | point check, $BIG filter, $big_size (tps) | $tps_big | btree | $(ratio $tps_big $tps_btree) | >= 1.0 | $(met "$tps_big >= $tps_btree") |
| 3 | batch, btree: count(*) WHERE id = ANY(100 keys) (checks/s) | $cps_any | | | | |
| 3 | batch, N filter: 100 single-key bf_contains (checks/s) | $cps_one_k | | | | |
| 3 | batch, N filter: bf_contains_all(bf, 100 keys) (checks/s) | $cps_all_k | single-key | $(ratio $cps_all_k $cps_one_k) | >= 20 | $(met "$cps_all_k >= 20 * $cps_one_k") |
| 3 | batch, N filter: bf_contains_all (checks/s) | $cps_all_k | btree = ANY | $(ratio $cps_all_k $cps_any) | >= 2 | $(met "$cps_all_k >= 2 * $cps_any") |
| 3 | batch, 1M filter: bf_contains_all (checks/s) | $cps_all_1m | btree = ANY | $(ratio $cps_all_1m $cps_any) | >= 2 | $(met "$cps_all_1m >= 2 * $cps_any") |
| 4 | stored size of the N filter (bytes) | $bf_size | optimum -n ln p / (ln 2)^2 | $(ratio $bf_size $optimum) | <= 1.1 | $(met "$bf_size <= 1.1 * $optimum") |
| 4 | bits per element at 1%: plain / counting / cuckoo | $bits_plain1 / $bits_count1 / $bits_cf1 | optimum $opt1 | $(ratio $bits_plain1 $opt1) / $(ratio $bits_count1 $opt1) / $(ratio $bits_cf1 $opt1) | | |
| 4 | bits per element at 0.1%: plain / counting / cuckoo | $bits_plain01 / $bits_count01 / $bits_cf01 | optimum $opt01 | $(ratio $bits_plain01 $opt01) / $(ratio $bits_count01 $opt01) / $(ratio $bits_cf01 $opt01) | | |
| 4 | btree index on the keys (bytes) | $btree_size | filter | $(ratio $btree_size $bf_size) | >= 15 | $(met "$btree_size >= 15 * $bf_size") |
| 5 | maintenance: bf_add_all of 10k keys into the stored N filter | $(fmt $maint) | | | | |
| 6 | false-positive rate at capacity (N/2 absent probes) | $(printf '%.5f' $fpr) | requested 0.01 | $(ratio $fpr 0.01) | <= 1 | $(met "$fpr <= 0.01") |
| 6 | false negatives (N keys) | $fneg | | | 0 | $(met "$fneg == 0") |
TABLE

# the same figures for README's table (bench/figure.sh)
n=$(count_name "$N")
k_size=$(q -c "SELECT pg_size_pretty(pg_column_size(bf)::bigint) FROM filters WHERE name = 'k'")
figure probe_join_small "probe $n rows, join form, 100k filter" "$join_small" s '`hashint8` join baseline' "$join_base" '<= 1.1'
figure probe_join_k "probe $n rows, join form, $n filter ($k_size)" "$join_k" s '`hashint8` join baseline' "$join_base" '<= 2.0'
figure probe_sub_small "probe, scalar-subquery form, 100k filter" "$sub_small" s '`hashint8` scan' "$scan_base" '<= 1.1'
figure probe_sub_k "probe, scalar-subquery form, $n filter" "$sub_k" s '`hashint8` scan' "$scan_base" '<= 2.0'
figure probe_join_cf "probe, join form, cuckoo filter of $n" "$join_cf" s "bloom filter of $n" "$join_k" '<= 1.2'
figure probe_sub_cf "probe, scalar-subquery form, cuckoo filter of $n" "$sub_cf" s "bloom filter of $n" "$sub_k" '<= 1.2'
figure probe_semi "probe, join form, $n filter" "$join_k" s 'exact semi-join (btree)' "$semi"
figure build_bf "build \`bf_agg(id, $n, 0.01)\`" "$build_bf" s '`hll_add_agg`' "$build_hll" '<= 1.1'
figure build_counting "build, counting \`bf_agg\`" "$build_counting" s 'plain `bf_agg`' "$build_bf" '<= 1.4'
figure build_cf "build \`cf_agg(id, $n, 0.01)\`" "$build_cf" s 'plain `bf_agg`' "$build_bf" '<= 1.6'
figure build_parallel "build \`bf_agg\` with 2 workers" "$build_bf_par" s 'serial `bf_agg`' "$build_bf"
figure point_stored "stored point check TPS, 1M filter, one-row table" "$tps_row_bf" tps 'the one-row read without the check' "$tps_row" '>= 0.85'
figure point_1m "point check TPS, 1M filter" "$tps_1m" tps 'btree lookup' "$tps_btree" '>= 1.0'
figure point_big "point check TPS, $(count_name "$BIG") filter ($big_size)" "$tps_big" tps 'btree lookup' "$tps_btree" '>= 1.0'
figure batch_single "\`bf_contains_all\`, 100 keys, $n filter" "$cps_all_k" checks/s '100 single-key checks' "$cps_one_k" '>= 20'
figure batch_btree "\`bf_contains_all\`, 100 keys, $n filter" "$cps_all_k" checks/s 'btree `= ANY`' "$cps_any" '>= 2'
figure batch_1m "\`bf_contains_all\`, 100 keys, 1M filter" "$cps_all_1m" checks/s 'btree `= ANY`' "$cps_any" '>= 2'
figure size_optimum "stored size, $n at 1%" "$bf_size" bytes 'optimum' "$optimum" '<= 1.1'
figure size_btree "stored size, $n at 1%" "$bf_size" bytes 'btree index on the keys' "$btree_size" '<= 1/15'
figure fpr "false-positive rate at capacity" "$fpr" fraction 'requested' 0.01 '<= 1'
figure false_negatives "false negatives ($n keys)" "$fneg" count '' '' '0'
psql -X -q -d postgres -c "DROP DATABASE $DB"
