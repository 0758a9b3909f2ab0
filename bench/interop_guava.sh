#!/bin/bash
# Interop with Guava, measured (make bench-interop-guava; bench/RESULTS.md,
# "Interop (1.5)"), on a private server with default settings (initdb in a
# temporary directory, a Unix socket there only; programs from
# BLOOMFILTER_PG_BINDIR, else pg_config --bindir, extension installed):
#
#   build:   bf_agg of BENCH_INTEROP_N keys (default 10,000,000) into
#            bf_create(N, 0.01, layout => 'guava', key_type => 'bigint')
#   export:  the stored filter to a Java program: COPY (SELECT bf_to_guava(f))
#            TO STDOUT (FORMAT binary) | java GuavaReadFrom (parse the stream,
#            BloomFilter.readFrom), wall time of the pipeline, JVM start
#            included; also bf_to_guava alone in the server, the COPY out
#            alone (psql to /dev/null) and readFrom alone
#   probe:   N rows (half members) checked in SQL against the stored Guava
#            filter and against a blocked512 filter of the same request
#            (bf_agg(id, N, 0.01)), join form
#
# Rounds are interleaved (BENCH_RUNS, default 3); each figure is the best.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
N=${BENCH_INTEROP_N:-10000000}
ROUNDS=${BENCH_RUNS:-3}
BINDIR=${BLOOMFILTER_PG_BINDIR:-$(pg_config --bindir)}
GUAVA_JAR=${GUAVA_JAR:-/usr/share/java/guava.jar}
for v in $(env | sed -n 's/^\(PG[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

WORK=$(mktemp -d /tmp/bf-bench-guava.XXXXXX)
chmod 755 "$WORK"
PORT=$((20000 + RANDOM % 20000))
as_pg() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
cleanup() {
	as_pg "$BINDIR/pg_ctl" -D "$WORK/data" -m fast stop >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/data" "$WORK/sock" "$WORK/classes"
[ "$(id -u)" -eq 0 ] && chown postgres "$WORK/data" "$WORK/sock"
as_pg "$BINDIR/initdb" -D "$WORK/data" -E UTF8 --locale=C.UTF-8 -A trust -U postgres >/dev/null
as_pg "$BINDIR/pg_ctl" -D "$WORK/data" -w -l "$WORK/data/log" \
	-o "-c listen_addresses='' -k $WORK/sock -p $PORT" start >/dev/null
q() { "$BINDIR/psql" -X -A -t -q -v ON_ERROR_STOP=1 -h "$WORK/sock" -p "$PORT" -U postgres -d postgres "$@"; }

javac --release 17 -Xlint:all,-classfile -Werror -cp "$GUAVA_JAR" -d "$WORK/classes" "$HERE/interop/GuavaReadFrom.java"

q <<SQL
SET client_min_messages = warning;
CREATE EXTENSION bloomfilter;
CREATE TABLE keys AS SELECT g::bigint AS id FROM generate_series(1, $N) g;
CREATE TABLE probe AS SELECT (g * 2 - 1)::bigint AS id FROM generate_series(1, $N) g;
CREATE TABLE fg AS SELECT bf_agg(id, bf_create($N, 0.01, layout => 'guava', key_type => 'bigint')) AS f FROM keys;
CREATE TABLE fb AS SELECT bf_agg(id, $N, 0.01) AS f FROM keys;
VACUUM ANALYZE keys, probe, fg, fb;
CREATE FUNCTION ms(query text) RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE
	t0 timestamptz;
BEGIN
	t0 := clock_timestamp();
	EXECUTE query;
	RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END \$\$;
SQL
echo "== $N keys at 0.01: guava $(q -c "SELECT pg_size_pretty(pg_column_size(f)::bigint) || ', k ' || (bf_info(f)->>'nhashes') FROM fg"), blocked512 $(q -c "SELECT pg_size_pretty(pg_column_size(f)::bigint) || ', k ' || (bf_info(f)->>'nhashes') FROM fb")"

out=$WORK/times
for r in $(seq "$ROUNDS"); do
	q -F ' ' <<SQL >>"$out"
SET max_parallel_workers_per_gather = 0;
SELECT 'build_guava', ms('SELECT bf_agg(id, bf_create($N, 0.01, layout => ''guava'', key_type => ''bigint'')) FROM keys');
SELECT 'to_guava_server', ms('SELECT length(bf_to_guava(f)) FROM fg');
SELECT 'probe_guava', ms('SELECT count(*) FROM probe p, fg WHERE fg.f @> p.id');
SELECT 'probe_blocked', ms('SELECT count(*) FROM probe p, fb WHERE fb.f @> p.id');
SQL
	t0=$(date +%s%N)
	q -c "COPY (SELECT bf_to_guava(f) FROM fg) TO STDOUT (FORMAT binary)" >/dev/null
	t1=$(date +%s%N)
	echo "copy_out $(( (t1 - t0) / 1000000 ))" >>"$out"
	t0=$(date +%s%N)
	res=$(q -c "COPY (SELECT bf_to_guava(f) FROM fg) TO STDOUT (FORMAT binary)" |
		java -cp "$WORK/classes:$GUAVA_JAR" GuavaReadFrom)
	t1=$(date +%s%N)
	read -r readfrom bytes hits <<<"$res"
	[ "$hits" = 1000 ] || { echo "readFrom's filter misses members ($hits of 1000)"; exit 1; }
	echo "export_pipeline $(( (t1 - t0) / 1000000 ))" >>"$out"
	echo "readfrom_java $readfrom" >>"$out"
done
awk -v n="$N" '{ if (!($1 in best) || $2 + 0 < best[$1]) best[$1] = $2 + 0 } END {
	printf "== ms, best of %d interleaved rounds\n", NR / 7
	split("build_guava to_guava_server copy_out readfrom_java export_pipeline probe_guava probe_blocked", order, " ")
	for (i = 1; i <= 7; i++) printf "%-16s %10.1f\n", order[i], best[order[i]]
	printf "export, whole pipeline (bf_to_guava + COPY + JVM start + readFrom) / build: %.3f (target <= 0.25)\n", best["export_pipeline"] / best["build_guava"]
	printf "export without the JVM start (COPY out of bf_to_guava + readFrom) / build: %.3f\n", (best["copy_out"] + best["readfrom_java"]) / best["build_guava"]
	printf "probe guava / blocked512 (%d rows, half members): %.2f\n", n, best["probe_guava"] / best["probe_blocked"]
}' "$out"
