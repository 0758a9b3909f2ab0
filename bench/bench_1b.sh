#!/bin/bash
# make bench-1b: a sharded filter at the headline scale, 1,000,000,000 keys
# at 1% (BENCH_1B_N, BENCH_1B_RATE), in a throwaway cluster.  Reports the
# build time and the building backend's peak memory, the total size against
# the optimum n * -ln p / (ln 2)^2 bits, point-check TPS against the same
# check of a 1M-key filter, the false-positive rate on non-members and false
# negatives on a sample of members.  Not part of make test: on the 2-vCPU VM
# it takes about a quarter of an hour and 1.3 GB of memory per build job.
#
#   bash bench/bench_1b.sh            # starts its own cluster (pg_virtualenv)
#   bash bench/bench_1b.sh --inside   # against the server of PGHOST/PGPORT
#
# BENCH_1B_JOBS (default 1) splits the build into that many concurrent
# sessions, each aggregating the shards s with s % JOBS = its number (every
# session still generates and hashes all N keys, so this pays on idle cores
# only).  BENCH_1B_SHARD_BYTES (default 256 MB) is bf_shards_for's limit;
# BENCH_1B_PGBENCH_SECONDS, BENCH_1B_RUNS, BENCH_1B_SAMPLE tune the rest.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != --inside ]; then
	EXTRA_PACKAGES="bc" bash scripts/deps.sh
	# huge pages for shared buffers, as bench.sh does (as root, given back
	# afterwards): a check reads a random block of 1.2 GB, and with 4 kB
	# pages the TLB misses alone cost about 2 us of its 8 to 10 us
	huge=()
	if [ "$(id -u)" -eq 0 ] && [ -w /proc/sys/vm/nr_hugepages ]; then
		old_hugepages=$(cat /proc/sys/vm/nr_hugepages)
		trap 'echo "$old_hugepages" > /proc/sys/vm/nr_hugepages' EXIT
		echo 1150 > /proc/sys/vm/nr_hugepages
		if [ "$(cat /proc/sys/vm/nr_hugepages)" -ge 1100 ]; then
			huge=(-o huge_pages=on)
		fi
	fi
	# shared_buffers that hold the 1.3 GB table, as bench.sh holds its
	# tables: the point checks measure the check, not the OS cache (with
	# 1 GB the sharded checks ran at 0.75 to 0.94 of the 1M filter's)
	pg_virtualenv -v 15 -o shared_buffers=2GB -o max_wal_size=8GB \
		-o checkpoint_timeout=30min "${huge[@]}" bash "$0" --inside
	exit
fi

N=${BENCH_1B_N:-1000000000}
P=${BENCH_1B_RATE:-0.01}
JOBS=${BENCH_1B_JOBS:-1}
PGBENCH_SECONDS=${BENCH_1B_PGBENCH_SECONDS:-10}
RUNS=${BENCH_1B_RUNS:-3}
SAMPLE=${BENCH_1B_SAMPLE:-1000000}
SHARD_BYTES=${BENCH_1B_SHARD_BYTES:-268435456}
DB=bf_bench_1b
OUT=bench/out
mkdir -p $OUT

q() { psql -X -q -A -t -v ON_ERROR_STOP=1 -d $DB "$@"; }
now() { date +%s.%N; }

psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
q -c "CREATE EXTENSION bloomfilter"
nshards=$(q -c "SELECT bf_shards_for($N, $P, $SHARD_BYTES)")
shard_cap=$(q -c "SELECT bf_shard_capacity($N, $nshards)")
echo "building: $N keys at $P into $nshards shards of capacity $shard_cap, $JOBS job(s)" >&2
q -c "CREATE TABLE big (shard int PRIMARY KEY, bf bloomfilter NOT NULL)"

# The keys come from generate_series in the select list (a ProjectSet that
# streams; in FROM it would first be written to a tuplestore, 8 GB of temp
# files at 1e9).  Hash aggregation keeps one bf_agg state per shard: about
# the size of the table, 1.2 GB, hence work_mem.  A sort would order 1e9
# rows first.  Each job's peak memory is read from its own /proc status.
build_job() {
	psql -X -q -A -t -v ON_ERROR_STOP=1 -d $DB <<SQL
SET work_mem = '4GB';
SET max_parallel_workers_per_gather = 0;
SET jit = off;
INSERT INTO big
	SELECT s, bf_agg(g, $shard_cap, $P)
	FROM (SELECT g, bf_shard(g, $nshards) AS s
	      FROM (SELECT generate_series(1::bigint, $N) AS g) k OFFSET 0) h
	WHERE s % $JOBS = $1
	GROUP BY s;
SELECT 'memory', substring(st FROM 'VmHWM:\s*(\d+) kB'), substring(st FROM 'RssShmem:\s*(\d+) kB')
FROM pg_read_file('/proc/self/status') st;
SQL
}
t0=$(now)
for j in $(seq 0 $((JOBS - 1))); do
	build_job "$j" > "$OUT/build_1b.$j" &
done
wait
t1=$(now)
build_s=$(echo "$t1 - $t0" | bc -l)
hwm_mb=$(awk -F'|' '/^memory/ { if ($2 > m) m = $2 } END { printf "%.0f", m / 1024 }' $OUT/build_1b.*)
shm_mb=$(awk -F'|' '/^memory/ { if ($3 > m) m = $3 } END { printf "%.0f", m / 1024 }' $OUT/build_1b.*)
q -c "VACUUM ANALYZE big"

echo "sizes" >&2
read -r shards total optimum largest < <(q -F ' ' -c "SELECT count(*), sum(pg_column_size(bf)),
	round($N * -ln($P) / ln(2) ^ 2 / 8), max(pg_column_size(bf)) FROM big")
table_bytes=$(q -c "SELECT pg_total_relation_size('big')")

echo "false positives and negatives on $SAMPLE keys each" >&2
# probes in shard order, so that each shard is read once and held
fpr=$(q -c "SELECT avg(bf_contains(b.bf, p.k)::int) FROM
	(SELECT k, bf_shard(k, $nshards) AS s FROM (SELECT generate_series($N + 1::bigint, $N + $SAMPLE) AS k) g ORDER BY 2) p
	JOIN big b ON b.shard = p.s")
fneg=$(q -c "SELECT count(*) FILTER (WHERE NOT bf_contains(b.bf, p.k)) FROM
	(SELECT k, bf_shard(k, $nshards) AS s FROM (SELECT generate_series(1::bigint, $SAMPLE) * ($N / $SAMPLE) AS k) g ORDER BY 2) p
	JOIN big b ON b.shard = p.s")
fpr_max=$(q -c "SELECT max(r) FROM (SELECT avg(bf_contains(b.bf, p.k)::int) AS r FROM
	(SELECT k, bf_shard(k, $nshards) AS s FROM (SELECT generate_series($N + 1::bigint, $N + $SAMPLE) AS k) g ORDER BY 2) p
	JOIN big b ON b.shard = p.s GROUP BY b.shard) x")

echo "point checks" >&2
q -c "CREATE TABLE filters (name text PRIMARY KEY, bf bloomfilter)" \
  -c "INSERT INTO filters SELECT 'p1m', bf_agg(g, 1000000, 0.01) FROM (SELECT generate_series(1::bigint, 1000000) AS g) k" \
  -c "VACUUM ANALYZE filters"
# pgbench: 4 clients on 2 cores, prepared statements; prints tps
tps() {
	printf '\\set id random(1, %s)\n%s\n' "$((2 * N))" "$1" > $OUT/pgbench_1b.sql
	pgbench -n -M prepared -c 4 -j 2 -T "$PGBENCH_SECONDS" -f $OUT/pgbench_1b.sql $DB 2>/dev/null |
		sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}
best() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b > a ? b : a) }'; }
tps_1m=0 tps_1b=0
for _ in $(seq "$RUNS"); do
	tps_1m=$(best "$tps_1m" "$(tps "SELECT bf_contains(bf, :id::bigint) FROM filters WHERE name = 'p1m';")")
	tps_1b=$(best "$tps_1b" "$(tps "SELECT bf_contains(bf, :id::bigint) FROM big WHERE shard = bf_shard(:id::bigint, $nshards);")")
done

ratio() { echo "scale=3; $1 / $2" | bc -l | sed 's/^\./0./'; }
met() { if [ "$(echo "$1" | bc -l)" = 1 ]; then echo yes; else echo NO; fi; }
mb() { echo "scale=1; $1 / 1048576" | bc -l; }

cat <<TABLE

bloomfilter sharded benchmark: $N keys at $P, $nshards shards (capacity $shard_cap each), $JOBS build job(s), $(nproc) cores, $(date -u +%Y-%m-%d)

| measure | value | against | ratio | target | met |
|---|---:|---|---:|---|---|
| build: INSERT ... SELECT bf_shard(g, $nshards), bf_agg(g, $shard_cap, $P) ... GROUP BY 1 (s) | $(printf '%.1f' "$build_s") | | | | |
| build: keys per second | $(printf '%.0f' "$(echo "$N / $build_s" | bc -l)") | | | | |
| build: peak memory of a building backend, VmHWM (MB) | $hwm_mb | of which shared buffers touched, at most | $shm_mb | | |
| shards | $shards | bf_shards_for($N, $P, $SHARD_BYTES) | | | |
| total stored size of the filters (MB) | $(mb "$total") | optimum $(mb "$optimum") MB | $(ratio "$total" "$optimum") | <= 1.1 | $(met "$total <= 1.1 * $optimum") |
| largest shard (MB) | $(mb "$largest") | value limit 767 MB | $(ratio "$largest" 804257792) | | |
| table with TOAST and index (MB) | $(mb "$table_bytes") | | | | |
| point check TPS, sharded $N | $tps_1b | 1M-key filter $tps_1m | $(ratio "$tps_1b" "$tps_1m") | >= 0.9 | $(met "$tps_1b >= 0.9 * $tps_1m") |
| false-positive rate, $SAMPLE non-members | $(printf '%.5f' "$fpr") | requested $P | $(ratio "$fpr" "$P") | <= 1 | $(met "$fpr <= $P") |
| worst shard's false-positive rate | $(printf '%.5f' "$fpr_max") | requested $P | $(ratio "$fpr_max" "$P") | | |
| false negatives, $SAMPLE members | $fneg | | | 0 | $(met "$fneg == 0") |
TABLE
# BENCH_1B_KEEP=1 keeps the database for further measurements
[ -n "${BENCH_1B_KEEP:-}" ] || psql -X -q -d postgres -c "DROP DATABASE $DB"
