#!/bin/bash
# Interop with Guava, measured (make bench-interop-guava; bench/RESULTS.md,
# "Interop (1.5)"), on a private server with default settings (initdb in a
# temporary directory, a Unix socket there and TCP on 127.0.0.1 only, for
# JDBC; programs from BLOOMFILTER_PG_BINDIR, else pg_config --bindir,
# extension installed), driven by one JVM that stays up for all rounds
# (bench/interop/GuavaJdbcExport.java), as a Java service would be:
#
#   build:   bf_agg of BENCH_INTEROP_N keys (default 10,000,000) into
#            bf_create(N, 0.01, layout => 'guava', key_type => 'bigint'),
#            timed in the server
#   export:  SELECT bf_to_guava(f) FROM fg WHERE id = 1 over JDBC (Debian's
#            pgjdbc), fetched with rs.getBytes, BloomFilter.readFrom, 1,000
#            mightContain checks of members, timed in the JVM; once with the
#            driver's text transfer (hex), once with its binary transfer
#            (binaryTransfer=true, a prepared statement warmed past
#            prepareThreshold); also bf_to_guava alone in the server and
#            readFrom alone (plain and through a BufferedInputStream)
#   extra:   the old export, COPY (SELECT bf_to_guava(f)) TO STDOUT (FORMAT
#            binary) through psql piped into a fresh `java GuavaReadFrom`,
#            JVM start included, timed from the JVM that runs the rounds
#   probe:   N rows (half members) checked in SQL against the stored Guava
#            filter and against a blocked512 filter of the same request
#            (bf_agg(id, N, 0.01)), join form
#
# Rounds are interleaved (BENCH_RUNS, default 5) after BENCH_WARM (default
# 8) untimed exports of each kind; each figure is the best.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
N=${BENCH_INTEROP_N:-10000000}
ROUNDS=${BENCH_RUNS:-5}
WARM=${BENCH_WARM:-8}
GUAVA_JAR=${GUAVA_JAR:-/usr/share/java/guava.jar}
PGJDBC_JAR=${PGJDBC_JAR:-/usr/share/java/postgresql.jar}
# shellcheck source=../scripts/private-pg.sh
. "$HERE/../scripts/private-pg.sh"
private_pg_start bf-bench-guava 127.0.0.1
mkdir -p "$WORK/classes"
q() { "$BINDIR/psql" -X -A -t -q -v ON_ERROR_STOP=1 -h "$WORK/sock" -p "$PORT" -U postgres -d postgres "$@"; }

javac --release 17 -Xlint:all,-classfile -Werror -cp "$GUAVA_JAR:$PGJDBC_JAR" -d "$WORK/classes" \
	"$HERE/interop/GuavaReadFrom.java" "$HERE/interop/GuavaJdbcExport.java"

q <<SQL
SET client_min_messages = warning;
CREATE EXTENSION bloomfilter;
CREATE TABLE keys AS SELECT g::bigint AS id FROM generate_series(1, $N) g;
CREATE TABLE probe AS SELECT (g * 2 - 1)::bigint AS id FROM generate_series(1, $N) g;
CREATE TABLE fg AS SELECT 1 AS id, bf_agg(id, bf_create($N, 0.01, layout => 'guava', key_type => 'bigint')) AS f FROM keys;
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

CP="$WORK/classes:$GUAVA_JAR:$PGJDBC_JAR"
pipeline="'$BINDIR/psql' -X -A -t -q -h '$WORK/sock' -p $PORT -U postgres -d postgres \
-c 'COPY (SELECT bf_to_guava(f) FROM fg) TO STDOUT (FORMAT binary)' | java -cp '$CP' GuavaReadFrom"
out=$WORK/times
java -cp "$CP" GuavaJdbcExport "jdbc:postgresql://127.0.0.1:$PORT/postgres?user=postgres" \
	"$N" "$ROUNDS" "$WARM" "$pipeline" >"$out"
awk -v n="$N" -v rounds="$ROUNDS" '
function median_ratio(a, b,    i, j, m, r, t) {
	for (i = 1; i <= rounds; i++) {
		t = v[a, i] / v[b, i]
		for (j = i - 1; j >= 1 && r[j] > t; j--)
			r[j + 1] = r[j]
		r[j + 1] = t
	}
	m = int((rounds + 1) / 2)
	return rounds % 2 ? r[m] : (r[m] + r[m + 1]) / 2
}
{
	v[$1, ++cnt[$1]] = $2 + 0
	if (!($1 in best) || $2 + 0 < best[$1]) best[$1] = $2 + 0
} END {
	printf "== ms, best of %d interleaved rounds (one JVM, warmed)\n", rounds
	m = split("build_guava to_guava_server fetch_text export_text fetch_binary readfrom readfrom_buffered export_binary export_pipeline probe_guava probe_blocked", order, " ")
	for (i = 1; i <= m; i++) printf "%-18s %10.1f\n", order[i], best[order[i]]
	printf "export over JDBC, binary (bf_to_guava + fetch + readFrom + checks) / build: %.3f (target <= 0.25)\n", best["export_binary"] / best["build_guava"]
	printf "export over JDBC, text/hex / build: %.3f\n", best["export_text"] / best["build_guava"]
	printf "the same, median of the rounds\x27 own ratios: binary %.3f, text %.3f\n", median_ratio("export_binary", "build_guava"), median_ratio("export_text", "build_guava")
	printf "extra: psql COPY | java GuavaReadFrom (JVM start included) / build: %.3f\n", best["export_pipeline"] / best["build_guava"]
	printf "bf_to_guava in the server / build: %.3f\n", best["to_guava_server"] / best["build_guava"]
	printf "probe guava / blocked512 (%d rows, half members): %.2f\n", n, best["probe_guava"] / best["probe_blocked"]
}' "$out"
echo "== all rounds"
awk '{ all[$1] = all[$1] " " $2 } END { for (k in all) printf "%-18s%s\n", k, all[k] }' "$out" | sort
