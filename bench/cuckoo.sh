#!/bin/bash
# Cuckoo filter against the plain (blocked Bloom) filter, in one run, on the
# server of the PG* environment (any database it names; the extension is
# created if missing).  Rounds are interleaved; each figure is the best of
# CK_ROUNDS.  CK_N keys (default 1,000,000).
#
#   size per element at 1%, 0.1%, 0.01%: cuckoo and plain vs the optimum
#   probe: CK_N rows checked against a stored filter of capacity CK_N,
#          half members (scalar-subquery form and join form)
#   build: cf_agg vs bf_agg over CK_N rows, serial
#   false-positive rate at capacity, CK_N non-members
#   adds and deletes: CK_N/2 deleted through cf_delete_all, 0 false
#          negatives on the rest, the same answers as a rebuild
#
#   PGHOST=... PGPORT=... bash bench/cuckoo.sh
set -euo pipefail
N=${CK_N:-1000000}
ROUNDS=${CK_ROUNDS:-3}
q() { psql -X -A -t -q -v ON_ERROR_STOP=1 "$@"; }

q -c "CREATE EXTENSION IF NOT EXISTS bloomfilter"
q <<SQL
SET client_min_messages = warning;
SET max_parallel_workers_per_gather = 0;
DROP TABLE IF EXISTS ck_keys, ck_probe, ck_cf, ck_bf;
CREATE TABLE ck_keys AS SELECT g::bigint AS id FROM generate_series(1, $N) g;
CREATE TABLE ck_probe AS SELECT (g * 2 - 1)::bigint AS id FROM generate_series(1, $N) g;  -- half members
CREATE TABLE ck_cf AS SELECT cf_agg(id, $N, 0.01) AS f FROM ck_keys;
CREATE TABLE ck_bf AS SELECT bf_agg(id, $N, 0.01) AS f FROM ck_keys;
VACUUM ANALYZE ck_keys, ck_probe, ck_cf, ck_bf;
CREATE OR REPLACE FUNCTION ck_ms(query text) RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE
	t0 timestamptz;
BEGIN
	t0 := clock_timestamp();
	EXECUTE query;
	RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END \$\$;
SQL

echo "== size per element (capacity $N)"
q -F ' | ' <<SQL
SELECT 'rate', 'cuckoo b', 'f', 'cuckoo bits/elem', 'plain bits/elem', 'optimum', 'cuckoo/opt', 'plain/opt'
UNION ALL
SELECT p::text, (c->>'bucket_size'), (c->>'fingerprint_bits'),
       round(((c->>'size_bytes')::numeric * 8 / $N), 2)::text,
       round(((b->>'size_bytes')::numeric * 8 / $N), 2)::text,
       round((-ln(p) / ln(2)^2)::numeric, 2)::text,
       round(((c->>'size_bytes')::numeric * 8 / $N / (-ln(p) / ln(2)^2))::numeric, 3)::text,
       round(((b->>'size_bytes')::numeric * 8 / $N / (-ln(p) / ln(2)^2))::numeric, 3)::text
FROM unnest(ARRAY[0.01, 0.001, 0.0001]::float8[]) p,
     LATERAL (SELECT cf_info(cf_create($N, p)) AS c, bf_info(bf_create($N, p)) AS b) s;
SQL

echo "== false-positive rate at capacity ($N non-members), and false negatives"
q -F ' | ' <<SQL
SET max_parallel_workers_per_gather = 0;
SELECT 'cuckoo', (SELECT count(*) FROM generate_series(1, $N) g WHERE f @> (g + $N * 10)::bigint)::float8 / $N,
       (SELECT count(*) FROM ck_keys k WHERE NOT f @> k.id) FROM ck_cf
UNION ALL
SELECT 'plain', (SELECT count(*) FROM generate_series(1, $N) g WHERE f @> (g + $N * 10)::bigint)::float8 / $N,
       (SELECT count(*) FROM ck_keys k WHERE NOT f @> k.id) FROM ck_bf;
SQL

echo "== timings, ms, best of $ROUNDS interleaved rounds"
for r in $(seq "$ROUNDS"); do
	q -F ' ' <<SQL
SET max_parallel_workers_per_gather = 0;
SELECT 'probe_sub_cf', ck_ms('SELECT count(*) FROM ck_probe p WHERE cf_contains((SELECT f FROM ck_cf), p.id)');
SELECT 'probe_sub_bf', ck_ms('SELECT count(*) FROM ck_probe p WHERE bf_contains((SELECT f FROM ck_bf), p.id)');
SELECT 'probe_join_cf', ck_ms('SELECT count(*) FROM ck_probe p, ck_cf c WHERE c.f @> p.id');
SELECT 'probe_join_bf', ck_ms('SELECT count(*) FROM ck_probe p, ck_bf c WHERE c.f @> p.id');
SELECT 'build_cf', ck_ms('SELECT cf_agg(id, $N, 0.01) FROM ck_keys');
SELECT 'build_bf', ck_ms('SELECT bf_agg(id, $N, 0.01) FROM ck_keys');
SELECT 'scan', ck_ms('SELECT count(*) FROM ck_probe p WHERE p.id > 0');
SQL
done > /tmp/ck_bench.$$
awk '{ if (!($1 in best) || $2 < best[$1]) best[$1] = $2 } END {
	for (k in best) printf "%-14s %10.1f\n", k, best[k]
	printf "ratio probe (subquery) cf/bf: %.2f\n", best["probe_sub_cf"] / best["probe_sub_bf"]
	printf "ratio probe (join)     cf/bf: %.2f\n", best["probe_join_cf"] / best["probe_join_bf"]
	printf "ratio probe minus scan cf/bf: %.2f\n", (best["probe_sub_cf"] - best["scan"]) / (best["probe_sub_bf"] - best["scan"])
	printf "ratio build cf_agg/bf_agg:    %.2f\n", best["build_cf"] / best["build_bf"]
}' /tmp/ck_bench.$$ | sort
rm -f /tmp/ck_bench.$$

echo "== deletes: half the keys through cf_delete_all"
q -F ' | ' <<SQL
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE ck_del AS
SELECT cf_delete_all(f, (SELECT array_agg(id) FROM ck_keys WHERE id % 2 = 0)) AS f FROM ck_cf;
SELECT 'false negatives (odd keys kept)', count(*) FILTER (WHERE NOT d.f @> k.id) FROM ck_del d, ck_keys k WHERE k.id % 2 = 1
UNION ALL
SELECT 'deleted keys still reported', count(*) FILTER (WHERE d.f @> k.id) FROM ck_del d, ck_keys k WHERE k.id % 2 = 0
UNION ALL
SELECT 'answers differing from a rebuild (2N keys)',
       count(*) FILTER (WHERE (d.f @> g::bigint) <> (r.f @> g::bigint))
FROM ck_del d, (SELECT cf_agg(id, $N, 0.01) AS f FROM ck_keys WHERE id % 2 = 1) r, generate_series(1, 2 * $N) g;
SQL
q -c "DROP TABLE ck_keys, ck_probe, ck_cf, ck_bf; DROP FUNCTION ck_ms(text)"
