#!/bin/bash
# Checks against many stored filters in one query (type/probe.c's query
# cache): the README's rolling window and a table of shards, on a server
# with default settings.
#
#   window N: 2000 absent keys, each checked against the last N hourly
#     buckets (N = 8, 24, 168) with the README's EXISTS query, every
#     bucket bf_agg(.., 1000000, 0.01) (1.2 MB) holding WINDOW_FILL keys
#     (416,667: 10M keys in 24 buckets); an absent key is checked against
#     every bucket, so a check is one (key, bucket) pair; ms, ns per
#     (key, bucket), and the shared buffers the query touched (hit + read)
#   window 24, present keys: 2000 keys each in one of the 24 buckets
#     (EXISTS stops at the bucket that has it)
#   shards S: WINDOW_PROBES (100,000) keys of the 24 buckets joined to
#     their shard of a table of S shards (S = 64, 256) of those 10M keys,
#     in the order the keys come (no sort by shard); ms, ns per key
#   seen 24h: "seen in the last 24 hours" for WINDOW_USERS (340,000)
#     users, half of them in the window, as one query; s.  Once per
#     server, not per round: 1.3 took 410 s (WINDOW_USERS_TIMEOUT, 900 s,
#     ends it; the cell then says so).
#
# Each server given (HOST:PORT, HOST a socket directory; default the PG*
# environment's) is set up once (WINDOW_SETUP=0 reuses the database), then
# the rounds go over the servers in turn so that an A/B of two builds sees
# the same drift; each time is the best of WINDOW_ROUNDS (3), each buffer
# count that of the last round.
#
#   bash bench/window.sh                          (make bench-window)
#   bash bench/window.sh /tmp/a:5432 /tmp/b:5433  (an A/B)
set -euo pipefail
# shellcheck source=figure.sh
. "$(dirname "$0")/figure.sh"
FILL=${WINDOW_FILL:-416667}
PROBES=${WINDOW_PROBES:-100000}
USERS=${WINDOW_USERS:-340000}
ROUNDS=${WINDOW_ROUNDS:-3}
TIMEOUT=${WINDOW_USERS_TIMEOUT:-900}
DB=${WINDOW_DB:-bf_window}
servers=("$@")
[ ${#servers[@]} -gt 0 ] || servers=("${PGHOST:-/var/run/postgresql}:${PGPORT:-5432}")

on() {	# on SERVER CMD...: run with that server in the environment
	local s=$1
	shift
	PGHOST=${s%:*} PGPORT=${s##*:} "$@"
}
q() { psql -X -q -A -t -v ON_ERROR_STOP=1 -d $DB "$@"; }

# the window's end: bucket h (0 .. 167) starts h hours before it
T="timestamptz '2026-01-08 00:00+00'"

setup() {
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
	q <<SQL
CREATE EXTENSION bloomfilter;
-- bucket h holds the keys (h << 32) + 1 .. (h << 32) + FILL
CREATE TABLE seen (bucket timestamptz PRIMARY KEY, bf bloomfilter NOT NULL);
INSERT INTO seen
	SELECT $T - h * interval '1 hour',
		(SELECT bf_agg((h::bigint << 32) + g, 1000000, 0.01) FROM generate_series(1, $FILL) g)
	FROM generate_series(0, 167) h;
-- the shards' states at once (hash aggregation), as docs/patterns.md says
SET work_mem = '256MB';
CREATE TABLE shards64 (shard int PRIMARY KEY, bf bloomfilter NOT NULL);
INSERT INTO shards64
	SELECT bf_shard(k, 64), bf_agg(k, bf_shard_capacity(24 * $FILL, 64), 0.01)
	FROM (SELECT (h::bigint << 32) + g AS k FROM generate_series(0, 23) h,
		generate_series(1, $FILL) g) keys GROUP BY 1;
CREATE TABLE shards256 (shard int PRIMARY KEY, bf bloomfilter NOT NULL);
INSERT INTO shards256
	SELECT bf_shard(k, 256), bf_agg(k, bf_shard_capacity(24 * $FILL, 256), 0.01)
	FROM (SELECT (h::bigint << 32) + g AS k FROM generate_series(0, 23) h,
		generate_series(1, $FILL) g) keys GROUP BY 1;
SELECT setseed(0.5);
CREATE TABLE absent AS SELECT -g::bigint AS id FROM generate_series(1, 2000) g;
CREATE TABLE present AS
	SELECT ((floor(random() * 24)::bigint << 32) + 1 + floor(random() * $FILL)::bigint) AS id
	FROM generate_series(1, 2000);
CREATE TABLE probes AS
	SELECT ((floor(random() * 24)::bigint << 32) + 1 + floor(random() * $FILL)::bigint) AS id
	FROM generate_series(1, $PROBES);
CREATE TABLE users AS
	SELECT CASE WHEN g % 2 = 0
		THEN (floor(random() * 24)::bigint << 32) + 1 + floor(random() * $FILL)::bigint
		ELSE -g::bigint END AS id
	FROM generate_series(1, $USERS) g;
VACUUM ANALYZE seen;
VACUUM ANALYZE shards64;
VACUUM ANALYZE shards256;
VACUUM ANALYZE absent;
VACUUM ANALYZE present;
VACUUM ANALYZE probes;
VACUUM ANALYZE users;
-- a statement's execution time (ms) and the shared buffers it touched
CREATE FUNCTION run(query text, OUT ms float8, OUT buffers bigint) LANGUAGE plpgsql AS \$\$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ' || query INTO plan;
	ms := (plan->0->>'Execution Time')::float8;
	buffers := (plan->0->'Plan'->>'Shared Hit Blocks')::bigint +
		(plan->0->'Plan'->>'Shared Read Blocks')::bigint;
END \$\$;
SQL
	q -c "SELECT count(*), pg_size_pretty(sum(pg_column_size(bf))) FROM seen" >&2
}

window() {	# window N TABLE: the README's check of each key of TABLE over N buckets
	echo "SELECT count(*) FROM $2 p WHERE EXISTS (SELECT FROM seen
		WHERE bucket > $T - $1 * interval '1 hour' AND bucket <= $T
		AND bf_contains(bf, p.id))"
}
shards() {	# shards S: each probe against its shard
	echo "SELECT count(*) FROM probes p JOIN shards$1 f ON f.shard = bf_shard(p.id, $1)
		WHERE bf_contains(f.bf, p.id)"
}

if [ "${WINDOW_SETUP:-1}" = 1 ]; then
	for s in "${servers[@]}"; do
		echo "setting up $s" >&2
		on "$s" setup
	done
fi

declare -A best bufs
measures="w8 w24 w168 p24 s64 s256"
query() {
	case $1 in
		w8) window 8 absent ;;
		w24) window 24 absent ;;
		w168) window 168 absent ;;
		p24) window 24 present ;;
		s64) shards 64 ;;
		s256) shards 256 ;;
	esac
}
for r in $(seq "$ROUNDS"); do
	for s in "${servers[@]}"; do
		for m in $measures; do
			read -r ms b < <(on "$s" q -F ' ' -c "SELECT round(ms::numeric, 1), buffers FROM run(\$q\$$(query $m)\$q\$)")
			if [ -z "${best[$s $m]:-}" ] || [ "$(echo "$ms < ${best[$s $m]}" | bc)" = 1 ]; then
				best[$s $m]=$ms
			fi
			bufs[$s $m]=$b
		done
		echo "round $r $s done" >&2
	done
done
for s in "${servers[@]}"; do
	echo "seen 24h for $USERS users on $s" >&2
	v=$(on "$s" q -c "SET statement_timeout = '${TIMEOUT}s'" \
		-c "SELECT round((ms / 1000)::numeric, 2) FROM run(\$q\$$(window 24 users)\$q\$)" 2>/dev/null) ||
		v="> $TIMEOUT"
	best[$s users]=$v
done

per() {	# per MS N: ns per unit
	echo "scale=0; $1 * 1000000 / $2" | bc
}
printf '| measure |'
for s in "${servers[@]}"; do printf ' %s |' "$s"; done
echo
printf '|---|'
for s in "${servers[@]}"; do printf -- '---:|'; done
echo
for m in $measures users; do
	case $m in
		w8) label="window 8 buckets, 2000 absent keys: ms (ns per key and bucket; buffers)"; n=16000 ;;
		w24) label="window 24 buckets, 2000 absent keys: ms (ns per key and bucket; buffers)"; n=48000 ;;
		w168) label="window 168 buckets, 2000 absent keys: ms (ns per key and bucket; buffers)"; n=336000 ;;
		p24) label="window 24 buckets, 2000 present keys: ms (buffers)"; n= ;;
		s64) label="$PROBES keys against 64 shards: ms (ns per key; buffers)"; n=$PROBES ;;
		s256) label="$PROBES keys against 256 shards: ms (ns per key; buffers)"; n=$PROBES ;;
		users) label="seen in the last 24 h, $USERS users, one query: s"; n= ;;
	esac
	printf '| %s |' "$label"
	for s in "${servers[@]}"; do
		if [ $m = users ]; then
			printf ' %s |' "${best[$s $m]}"
		elif [ -n "$n" ]; then
			printf ' %s (%s; %s) |' "${best[$s $m]}" "$(per "${best[$s $m]}" $n)" "${bufs[$s $m]}"
		else
			printf ' %s (%s) |' "${best[$s $m]}" "${bufs[$s $m]}"
		fi
	done
	echo
done
# README's rows (bench/figure.sh), of the first server: ns per (key, bucket)
s=${servers[0]}
for w in 24 168; do
	figure window_$w "window of $w hourly buckets, 2,000 absent keys, per (key, bucket)" \
		"$(per "${best[$s w$w]}" $((2000 * w)))" ns '8 buckets' "$(per "${best[$s w8]}" 16000)"
done
figure window_users "\"seen in the last 24 hours\", $(count_name "$USERS") users x 24 buckets, one query" "${best[$s users]}" s
