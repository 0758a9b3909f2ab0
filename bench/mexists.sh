#!/bin/bash
# Batch checks against RedisBloom: bf_contains_all of 100 keys in a stored
# filter, and bf_index_contains_all of a bloomfilter index of the same keys,
# against BF.MEXISTS of 100 keys (redis-benchmark, one connection, 16
# pipelined), each server on one core, in checks per second.  Both filters
# hold the same N keys (the even numbers 2 .. 2N) at 1%; the probes are
# random numbers in 1 .. 2N, so about half are present.  RedisBloom takes
# its keys as strings: the 12-digit zero-padded numbers redis-benchmark
# writes for __rand_int__.
#
# The headline rows send the keys as an application does: one int8[]
# parameter in binary, 16 statements pipelined, one connection
# (bench/mexists_client.c, libpq).  pgbench cannot bind an array: its rows
# bind 100 int8 parameters as text, and are kept as a second measure.  A
# floor row runs the same statement shape without the check
# (cardinality($1)), what PostgreSQL itself costs per statement.
#
# RedisBloom is not built here: REDISBLOOM_MODULE names the module (default:
# the path in /var/tmp/redisbloom/READY); without it, or without
# redis-server and redis-benchmark, the row says SKIPPED.  bench.sh runs
# this in its throwaway cluster; alone it uses the server of PGHOST/PGPORT.
# BENCH_MEXISTS_N keys (default 1,000,000), BENCH_RUNS rounds (default 3),
# BENCH_PGBENCH_SECONDS (default 5) per run; the sides alternate and the
# best round of each counts.
set -euo pipefail
# shellcheck source=figure.sh
. "$(dirname "$0")/figure.sh"
cd "$(dirname "$0")/.."

N=${BENCH_MEXISTS_N:-1000000}
RUNS=${BENCH_RUNS:-3}
SECONDS_EACH=${BENCH_PGBENCH_SECONDS:-5}
DB=bf_bench_mexists
OUT=bench/out
mkdir -p $OUT
make -s bench/mexists_client >&2

module=${REDISBLOOM_MODULE:-$(cat /var/tmp/redisbloom/READY 2> /dev/null || true)}
row_head="| bf_contains_all of 100 keys vs BF.MEXISTS of 100, one core each (checks/s)"
fig_head="\`bf_contains_all\`, 100 keys as one binary \`int8[]\`, $(count_name "$N") filter, 16 pipelined, one core"
skipped() {	# skipped WHY: the row says so, here and in the figures
	echo "$row_head | SKIPPED: $1 | | | >= 1.0x |"
	figure mexists_stored "$fig_head" "not measured: $1" checks/s 'RedisBloom `BF.MEXISTS`' '' '>= 1.0'
	exit 0
}
[ -n "$module" ] && [ -f "$module" ] || skipped "no RedisBloom module (set REDISBLOOM_MODULE)"
command -v redis-server > /dev/null && command -v redis-benchmark > /dev/null ||
	skipped "redis-server or redis-benchmark missing (apt-get install redis-server)"

# our own redis-server: loopback, a random free port, no persistence
port=$((20000 + RANDOM % 20000))
while redis-cli -p $port ping > /dev/null 2>&1; do port=$((20000 + RANDOM % 20000)); done
rdir=$(mktemp -d)
redis-server --port $port --bind 127.0.0.1 --save '' --appendonly no --dir "$rdir" \
	--loadmodule "$module" --daemonize no --logfile "$rdir/redis.log" &
rpid=$!
trap 'redis-cli -p $port shutdown nosave > /dev/null 2>&1 || kill $rpid; wait $rpid 2> /dev/null; rm -rf "$rdir"' EXIT
for _ in $(seq 50); do redis-cli -p $port ping > /dev/null 2>&1 && break; sleep 0.1; done
r() { redis-cli -p $port "$@"; }

echo "mexists bench: $N keys, best of $RUNS rounds" >&2
r BF.RESERVE f 0.01 "$N" > /dev/null
python3 - "$N" <<'PY' | redis-cli -p $port --pipe > /dev/null
import sys
n = int(sys.argv[1])
out = sys.stdout
for start in range(0, n, 1000):
    args = ['BF.MADD', 'f'] + ['%012d' % (2 * g) for g in range(start + 1, min(start + 1000, n) + 1)]
    out.write('*%d\r\n' % len(args) + ''.join('$%d\r\n%s\r\n' % (len(a), a) for a in args))
PY

psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
psql -X -q -v ON_ERROR_STOP=1 -d $DB \
	-c "CREATE EXTENSION bloomfilter" \
	-c "CREATE TABLE filters (name text PRIMARY KEY, bf bloomfilter)" \
	-c "INSERT INTO filters SELECT 'm', bf_agg(g * 2, $N, 0.01) FROM generate_series(1::bigint, $N) g" \
	-c "VACUUM ANALYZE filters" \
	-c "CREATE TABLE t (id int8)" \
	-c "INSERT INTO t SELECT g * 2 FROM generate_series(1::bigint, $N) g" \
	-c "CREATE INDEX t_id ON t USING bloomfilter (id) WITH (capacity = $N, error_rate = 0.01)" \
	-c "VACUUM ANALYZE t"

# the same answers on both sides for a sample of present keys
present_pg=$(psql -X -A -t -d $DB -c "SELECT count(*) FILTER (WHERE a) FROM filters, unnest(bf_contains_all(bf, ARRAY(SELECT g * 2 FROM generate_series(1::bigint, 100) g))) a WHERE name = 'm'")
present_rb=$(r BF.MEXISTS f $(for g in $(seq 100); do printf '%012d ' $((2 * g)); done) | grep -c '^1$' || true)

# 100 keys bound as 100 parameters (pgbench cannot bind an array); one
# client, one statement per round trip, and 16 statements pipelined
sets="" arr=""
for i in $(seq 100); do
	sets+="\\set k$i random(1, $((2 * N)))\n"
	arr+="${arr:+, }:k$i"
done
stmt="SELECT bf_contains_all(bf, ARRAY[$arr]::bigint[]) FROM filters WHERE name = 'm';"
istmt="SELECT bf_index_contains_all('t_id', ARRAY[$arr]::bigint[]);"
{ printf "$sets"; echo "$stmt"; } > $OUT/mexists.sql
{ printf "$sets"; echo '\startpipeline'; for _ in $(seq 16); do echo "$istmt"; done; echo '\endpipeline'; } > $OUT/mexists_index.sql
{ printf "$sets"; echo '\startpipeline'; for _ in $(seq 16); do echo "$stmt"; done; echo '\endpipeline'; } > $OUT/mexists_pipe.sql
pg_cps() {	# pg_cps SCRIPT STATEMENTS: checks per second
	pgbench -n -M prepared -c 1 -j 1 -T "$SECONDS_EACH" -f "$1" $DB 2> /dev/null |
		sed -n 's/^tps = \([0-9.]*\).*/\1/p' | awk -v s="$2" '{ printf "%.0f", $1 * s * 100 }'
}
client_cps() {	# client_cps SQL: checks per second, one int8[] of 100 keys a statement
	PGDATABASE=$DB ./bench/mexists_client "$1" 100 $((2 * N)) "$SECONDS_EACH" 16 |
		awk '{ printf "%.0f", $1 * 100 }'
}
keys=$(for _ in $(seq 100); do printf '__rand_int__ '; done)
rb_cps() {	# rb_cps: BF.MEXISTS checks per second, one connection, 16 pipelined
	local n=$((SECONDS_EACH * 20000))
	redis-benchmark -p $port -c 1 -P 16 -n $n -r $((2 * N)) -q BF.MEXISTS f $keys 2> /dev/null |
		tr '\r' '\n' | sed -n 's/.*: \([0-9.]*\) requests per second.*/\1/p' | tail -1 |
		awk '{ printf "%.0f", $1 * 100 }'
}
best() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b > a ? b : a) }'; }
c_stored="SELECT bf_contains_all(bf, \$1) FROM filters WHERE name = 'm'"
c_index="SELECT bf_index_contains_all('t_id', \$1)"
c_floor="SELECT cardinality(\$1) FROM filters WHERE name = 'm'"
pg1=0 pg16=0 idx16=0 rb=0 cs=0 ci=0 cf=0
for _ in $(seq "$RUNS"); do
	cs=$(best $cs "$(client_cps "$c_stored")")
	rb=$(best $rb "$(rb_cps)")
	ci=$(best $ci "$(client_cps "$c_index")")
	cf=$(best $cf "$(client_cps "$c_floor")")
	pg1=$(best $pg1 "$(pg_cps $OUT/mexists.sql 1)")
	pg16=$(best $pg16 "$(pg_cps $OUT/mexists_pipe.sql 16)")
	idx16=$(best $idx16 "$(pg_cps $OUT/mexists_index.sql 16)")
done
ratio() { echo "scale=2; $1 / $2" | bc | sed 's/^\./0./'; }

echo
echo "| measure ($N keys, 1%) | bloomfilter | RedisBloom | ratio | target |"
echo "|---|---|---|---|---|"
echo "$row_head, one int8[] parameter (binary), 16 pipelined | $cs | $rb | $(ratio $cs $rb)x | >= 1.0x |"
echo "| bf_index_contains_all of 100 keys (a bloomfilter index of the same keys), the same client | $ci | $rb | $(ratio $ci $rb)x | |"
echo "| floor: the statement without the check, cardinality(\$1) FROM filters (the same client) | $cf | $rb | $(ratio $cf $rb)x | |"
echo "| pgbench, 100 int8 parameters as text: bf_contains_all, 16 pipelined | $pg16 | $rb | $(ratio $pg16 $rb)x | |"
echo "| pgbench: the same without pipelining (one statement per round trip) | $pg1 | $rb | $(ratio $pg1 $rb)x | |"
echo "| pgbench: bf_index_contains_all, 16 pipelined | $idx16 | $rb | $(ratio $idx16 $rb)x | |"
echo "| present among keys 2 .. 200 (both must say 100) | $present_pg | $present_rb | | 100 |"
figure mexists_stored "$fig_head" "$cs" checks/s 'RedisBloom `BF.MEXISTS`' "$rb" '>= 1.0'
figure mexists_index "\`bf_index_contains_all\`, the same keys in a bloomfilter index" "$ci" checks/s 'RedisBloom `BF.MEXISTS`' "$rb"
psql -X -q -d postgres -c "DROP DATABASE $DB"
