#!/bin/bash
# Checks through a partitioned bloomfilter index (issue 34), pgbench with 4
# clients on the 2 cores, each statement in interleaved rounds, the best
# round of each:
#
#   point: SELECT bf_index_contains('ev_bf', :k) through the parent of 30
#     daily partitions (50,000 keys each, capacity 100,000) against the
#     same check of one partition's own index, 'ev_d01_k_idx'
#   batch: bf_index_contains_all of 100 keys through the parent against
#     one partition's own index
#   some partitions: the last 7 of 365 daily partitions (2,000 keys each),
#     asked through their own indexes (seven calls joined by OR, and
#     bool_or over an array of the seven indexes), against the parent of
#     all 365
#
# :k is random in 1 .. 2 * keys against the even keys, so half are present;
# key k lives in day k % ndays + 1, so a present key is found after half
# the leaves on average and an absent one asks all of them.  Against the
# server of PGHOST/PGPORT; creates and drops database bf_bench_partitions.
# PART_ROUNDS (3), PART_SECONDS (5) per pgbench run, PART_MODES (prepared).
set -euo pipefail
# shellcheck source=pgbench_rounds.sh
. "$(dirname "$0")/pgbench_rounds.sh"
# shellcheck source=figure.sh
. "$(dirname "$0")/figure.sh"
cd "$(dirname "$0")/.."
ROUNDS=${PART_ROUNDS:-3}
SECONDS_EACH=${PART_SECONDS:-5}
MODES=${PART_MODES:-prepared}
DB=bf_bench_partitions
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
psql -X -q -v ON_ERROR_STOP=1 -d $DB <<'SQL'
CREATE EXTENSION bloomfilter;
-- 30 daily partitions of 50,000 keys: 1.5M even keys 2 .. 3,000,000
CREATE TABLE ev (day int, k int8) PARTITION BY RANGE (day);
SELECT format('CREATE TABLE ev_d%s PARTITION OF ev FOR VALUES FROM (%s) TO (%s)',
			  lpad(d::text, 2, '0'), d, d + 1)
FROM generate_series(1, 30) d \gexec
CREATE INDEX ev_bf ON ev USING bloomfilter (k) WITH (capacity = 100000);
INSERT INTO ev SELECT g * 2 % 30 + 1, g * 2 FROM generate_series(1::int8, 1500000) g;
-- 365 daily partitions of 2,000 keys: 730,000 even keys 2 .. 1,460,000
CREATE TABLE ey (day int, k int8) PARTITION BY RANGE (day);
SELECT format('CREATE TABLE ey_d%s PARTITION OF ey FOR VALUES FROM (%s) TO (%s)',
			  lpad(d::text, 3, '0'), d, d + 1)
FROM generate_series(1, 365) d \gexec
CREATE INDEX ey_bf ON ey USING bloomfilter (k) WITH (capacity = 4000);
INSERT INTO ey SELECT g * 2 % 365 + 1, g * 2 FROM generate_series(1::int8, 730000) g;
VACUUM ANALYZE ev;
VACUUM ANALYZE ey;
SQL
last7=$(psql -X -At -d $DB -c "SELECT string_agg(i.indexrelid::regclass::text, ',' ORDER BY c.relname)
	FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
	WHERE c.relname BETWEEN 'ey_d359' AND 'ey_d365' AND i.indexrelid IN
		(SELECT relid FROM pg_partition_tree('ey_bf') WHERE isleaf)")
or7=$(tr ',' '\n' <<< "$last7" | sed "s/.*/bf_index_contains('&', :k::int8)/" | paste -sd'|' | sed 's/|/ OR /g')
keys100="ARRAY(SELECT (random() * 3000000)::int8 FROM generate_series(1, 100))"

names=(one parent30 batch1 batch30 parent365 or7 array7)
declare -A SQL=(
	[one]="SELECT bf_index_contains('ev_d01_k_idx', :k::int8);"
	[parent30]="SELECT bf_index_contains('ev_bf', :k::int8);"
	[batch1]="SELECT bf_index_contains_all('ev_d01_k_idx', $keys100);"
	[batch30]="SELECT bf_index_contains_all('ev_bf', $keys100);"
	[parent365]="SELECT bf_index_contains('ey_bf', :k::int8);"
	[or7]="SELECT $or7;"
	[array7]="SELECT bool_or(bf_index_contains(i, :k::int8)) FROM unnest('{$last7}'::regclass[]) i;"
)
declare -A RANGE=([one]=3000000 [parent30]=3000000 [batch1]=3000000 [batch30]=3000000
	[parent365]=1460000 [or7]=1460000 [array7]=1460000)
for name in "${names[@]}"; do
	printf '\\set k random(1, %s)\n%s\n' "${RANGE[$name]}" "${SQL[$name]}" > "$OUT/$name.sql"
done
pgbench_rounds "$ROUNDS" "$SECONDS_EACH" $DB "$OUT" "$MODES" "${names[@]}"
row() {	# row MODE NAME BASELINE LABEL BASELABEL TARGET
	echo "| $1 | $4 | ${BEST[$1.$2]} | $5 | ${BEST[$1.$3]} | $(ratio "${BEST[$1.$2]}" "${BEST[$1.$3]}") | $(per_round "$1.$2" "$1.$3") | $6 |"
}

echo
echo "| protocol | statement | best TPS | baseline | best TPS | best / best | per round | target |"
echo "|---|---|---:|---|---:|---:|---|---|"
for mode in $MODES; do
	row "$mode" parent30 one "\`${SQL[parent30]}\` (30 partitions)" "\`${SQL[one]}\` (one partition's index)" '>= 0.25'
	row "$mode" batch30 batch1 "\`bf_index_contains_all('ev_bf', <100 keys>)\` (30 partitions)" "the same of \`ev_d01_k_idx\`" ''
	row "$mode" or7 parent365 "the last 7 of 365, seven calls joined by \`OR\`" "\`${SQL[parent365]}\` (365 partitions)" ''
	row "$mode" array7 parent365 "the last 7 of 365, \`bool_or\` over an array of their indexes" "the parent of 365" ''
	row "$mode" or7 one "the last 7 of 365, seven calls joined by \`OR\`" "one partition's index" ''
done
m=${MODES%% *}
figure partition_point "point check TPS through a partitioned index of 30 partitions" "${BEST[$m.parent30]}" tps "one partition's index" "${BEST[$m.one]}" '>= 0.25'
figure partition_batch "\`bf_index_contains_all\`, 100 keys, through 30 partitions" "${BEST[$m.batch30]}" tps "one partition's index" "${BEST[$m.batch1]}"
figure partition_last7 "the last 7 of 365 partitions, seven calls joined by \`OR\`" "${BEST[$m.or7]}" tps 'the parent of 365' "${BEST[$m.parent365]}"
psql -X -q -d postgres -c "DROP DATABASE $DB"
