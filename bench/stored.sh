#!/bin/bash
# Checks of stored filters: what a check of a value in a table costs when
# it reads only what it needs (type/probe.c), for every kind.
#
#   point checks, pgbench (4 clients, -j 2, prepared), transactions/s:
#     SELECT bf_contains(bf, :id) FROM ... of a plain filter of 1M, a
#     scalable filter of 5 sub-filters (1M elements) and a cuckoo filter
#     of 1M (cf_contains)
#   batch: bf_contains_all(bf, 100 keys) against a stored 10M filter at 1%
#     (12 MB) and count(*) WHERE id = ANY(the same 100 keys) on a btree of
#     10M keys, checks/s (transactions/s x 100)
#   join: 1M probe rows checked against the stored plain and cuckoo
#     filters of 1M (the in-memory path after the first read), ms
#
# Each server given (HOST:PORT, HOST a socket directory; default the PG*
# environment's) is set up once, then the rounds go over the servers in
# turn, so that an A/B of two builds on two servers sees the same drift;
# each figure is the best of STORED_ROUNDS (3).  STORED_SECONDS per pgbench
# run (5), STORED_N elements of the point-check filters (1M), STORED_BIG
# of the batch filter and btree (10M).  STORED_SETUP=0 reuses the database
# an earlier run set up.
#
#   bash bench/stored.sh                         (make bench-stored)
#   bash bench/stored.sh /tmp/a:5432 /tmp/b:5433  (an A/B)
set -euo pipefail
# shellcheck source=figure.sh
. "$(dirname "$0")/figure.sh"
N=${STORED_N:-1000000}
BIG=${STORED_BIG:-10000000}
ROUNDS=${STORED_ROUNDS:-3}
SECONDS_RUN=${STORED_SECONDS:-5}
DB=${STORED_DB:-bf_stored}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
servers=("$@")
[ ${#servers[@]} -gt 0 ] || servers=("${PGHOST:-/var/run/postgresql}:${PGPORT:-5432}")

on() {	# on SERVER CMD...: run with that server in the environment
	local s=$1
	shift
	PGHOST=${s%:*} PGPORT=${s##*:} "$@"
}
q() { psql -X -q -A -t -v ON_ERROR_STOP=1 -d $DB "$@"; }

setup() {
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
	q <<SQL
CREATE EXTENSION bloomfilter;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE sfilters (name text PRIMARY KEY, bf bloomfilter);
CREATE TABLE scfilters (name text PRIMARY KEY, cf cuckoofilter);
INSERT INTO sfilters SELECT 'plain', bf_agg(g::bigint, $N, 0.01) FROM generate_series(1, $N) g;
-- capacity c, expansion 2: c + 2c + 4c + 8c + 16c = 31c elements, five sub-filters
INSERT INTO sfilters SELECT 'scalable', bf_add_all(bf_create($N / 31, 0.01, expansion => 2),
	ARRAY(SELECT generate_series(1, $N)::bigint));
INSERT INTO scfilters SELECT 'cuckoo', cf_agg(g::bigint, $N, 0.01) FROM generate_series(1, $N) g;
INSERT INTO sfilters SELECT 'big', bf_agg(g * 2, $BIG, 0.01) FROM generate_series(1, $BIG) g;
CREATE TABLE bkeys AS SELECT (g * 2)::bigint AS id FROM generate_series(1, $BIG) g;
ALTER TABLE bkeys ADD PRIMARY KEY (id);
CREATE TABLE probe AS SELECT g::bigint AS id FROM generate_series(1, $N) g;
VACUUM ANALYZE sfilters;
VACUUM ANALYZE scfilters;
VACUUM ANALYZE bkeys;
VACUUM ANALYZE probe;
CREATE FUNCTION stored_ms(query text) RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE
	t0 timestamptz;
BEGIN
	t0 := clock_timestamp();
	EXECUTE query;
	RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END \$\$;
SQL
	q -c "SELECT name, jsonb_array_length(bf_info(bf)->'subfilters'), octet_length(bf::bytea) FROM sfilters ORDER BY name" >&2
}

tps() {	# tps FILE: transactions per second of the pgbench script
	pgbench -n -M prepared -c 4 -j 2 -T "$SECONDS_RUN" -f "$1" $DB 2>/dev/null |
		sed -n 's/^tps = \([0-9.]*\).*/\1/p' | cut -d. -f1
}

{
	echo '\set id random(1, '$((2 * N))')'
	echo "SELECT bf_contains(bf, :id::bigint) FROM sfilters WHERE name = 'plain';"
} > $OUT/plain.sql
{
	echo '\set id random(1, '$((2 * N))')'
	echo "SELECT bf_contains(bf, :id::bigint) FROM sfilters WHERE name = 'scalable';"
} > $OUT/scalable.sql
{
	echo '\set id random(1, '$((2 * N))')'
	echo "SELECT cf_contains(cf, :id::bigint) FROM scfilters WHERE name = 'cuckoo';"
} > $OUT/cuckoo.sql
arr=$(seq -s, -f ':k%g' 100)
for i in $(seq 100); do echo "\\set k$i random(1, $((2 * BIG)))"; done > $OUT/sets
{ cat $OUT/sets; echo "SELECT bf_contains_all(bf, ARRAY[$arr]::bigint[]) FROM sfilters WHERE name = 'big';"; } > $OUT/batch.sql
{ cat $OUT/sets; echo "SELECT count(*) FROM bkeys WHERE id = ANY(ARRAY[$arr]::bigint[]);"; } > $OUT/btree.sql

if [ "${STORED_SETUP:-1}" = 1 ]; then
	for s in "${servers[@]}"; do
		echo "setting up $s" >&2
		on "$s" setup
	done
fi

declare -A best
measures="plain scalable cuckoo batch btree join_plain join_cuckoo"
for r in $(seq "$ROUNDS"); do
	for s in "${servers[@]}"; do
		for m in plain scalable cuckoo; do
			v=$(on "$s" tps $OUT/$m.sql)
			[ "${best[$s $m]:-0}" -ge "$v" ] || best[$s $m]=$v
		done
		for m in batch btree; do
			v=$(( $(on "$s" tps $OUT/$m.sql) * 100 ))
			[ "${best[$s $m]:-0}" -ge "$v" ] || best[$s $m]=$v
		done
		v=$(on "$s" q -c "SELECT round(stored_ms('SELECT count(*) FROM probe p JOIN sfilters f ON f.name = ''plain'' WHERE bf_contains(f.bf, p.id)'))")
		[ -n "${best[$s join_plain]:-}" ] && [ "${best[$s join_plain]}" -le "$v" ] || best[$s join_plain]=$v
		v=$(on "$s" q -c "SELECT round(stored_ms('SELECT count(*) FROM probe p JOIN scfilters f ON f.name = ''cuckoo'' WHERE cf_contains(f.cf, p.id)'))")
		[ -n "${best[$s join_cuckoo]:-}" ] && [ "${best[$s join_cuckoo]}" -le "$v" ] || best[$s join_cuckoo]=$v
		echo "round $r $s done" >&2
	done
done

printf '| measure |'
for s in "${servers[@]}"; do printf ' %s |' "$s"; done
echo
printf '|---|'
for s in "${servers[@]}"; do printf -- '---:|'; done
echo
for m in $measures; do
	case $m in
		plain) label="point check, plain 1M (tps)" ;;
		scalable) label="point check, scalable 5 sub-filters (tps)" ;;
		cuckoo) label="point check, cuckoo 1M (tps)" ;;
		batch) label="bf_contains_all, 100 keys, 10M filter (checks/s)" ;;
		btree) label="btree = ANY(100 keys) (checks/s)" ;;
		join_plain) label="join, 1M probes x plain 1M (ms)" ;;
		join_cuckoo) label="join, 1M probes x cuckoo 1M (ms)" ;;
	esac
	printf '| %s |' "$label"
	for s in "${servers[@]}"; do printf ' %s |' "${best[$s $m]}"; done
	echo
done
# README's rows (bench/figure.sh), of the first server
s=${servers[0]} n=$(count_name "$N")
figure stored_scalable "stored point check TPS, scalable filter of 5 sub-filters, $n" "${best[$s scalable]}" tps "plain $n filter" "${best[$s plain]}"
figure stored_cuckoo "stored point check TPS, cuckoo filter of $n" "${best[$s cuckoo]}" tps "plain $n filter" "${best[$s plain]}"
