#!/bin/bash
# The bloomfilter index against a btree on the same column, every ratio
# measured in one run (issue 17's "Measure" table).  bench.sh runs it in
# its throwaway cluster after run.sh; alone it runs against the server of
# PGHOST/PGPORT (a superuser: COPY reads a server-side file).
#
# BENCH_INDEX_N keys (default 10,000,000), BENCH_RUNS rounds (default 3)
# of every timed pair, BENCH_PGBENCH_SECONDS (default 5) per pgbench run.
# A measure and its baseline are timed in alternating rounds and the best
# round of each is kept, so that a slow spell of the (shared) machine hits
# both.  Keys are pseudo-random 63-bit integers (a btree's random-insert
# case, as keys such as user ids or hashes are); the index is sized for N
# keys at 1%.  The one-row INSERT rows run with synchronous_commit = off:
# with it on, each is one WAL flush of this VM's shared disk, whose latency
# varies tenfold from one round to the next and hides what the index costs.
set -euo pipefail
# shellcheck source=figure.sh
. "$(dirname "$0")/figure.sh"
cd "$(dirname "$0")/.."

N=${BENCH_INDEX_N:-10000000}
RUNS=${BENCH_RUNS:-3}
SECONDS_EACH=${BENCH_PGBENCH_SECONDS:-5}
DB=bf_bench_index
OUT=bench/out
mkdir -p $OUT
OUT=$(cd $OUT && pwd)

# pg_waldump is no command of Debian's /usr/bin: the server's own bindir
PATH=$PATH:$(pg_config --bindir)
q() { psql -X -q -A -t -v ON_ERROR_STOP=1 -d $DB "$@"; }
ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }
ratio() { echo "scale=3; $1 / $2" | bc; }
best_min() { printf '%s\n' "$@" | sort -g | head -1; }
best_max() { printf '%s\n' "$@" | sort -g | tail -1; }

psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
echo "index bench: $N keys, best of $RUNS rounds" >&2
keyfile=$(q -c "SHOW data_directory")/bf_bench_keys.csv
q <<SQL
CREATE EXTENSION bloomfilter;
-- pseudo-random non-negative keys: 60 bits of md5 (distinct but for a
-- chance of 1 in 10^4 at 10^7 keys)
CREATE FUNCTION k(g int8) RETURNS int8 IMMUTABLE PARALLEL SAFE LANGUAGE sql AS
	\$\$SELECT ('x' || substr(md5(g::text), 1, 15))::bit(60)::int8\$\$;
COPY (SELECT k(g) FROM generate_series(1, $N) g) TO '$keyfile';
CREATE TABLE t_bf (id int8);
CREATE TABLE t_bt (id int8);
COPY t_bf FROM '$keyfile';
COPY t_bt FROM '$keyfile';
CREATE INDEX t_bf_id ON t_bf USING bloomfilter (id) WITH (capacity = $N, error_rate = 0.01);
CREATE INDEX t_bt_id ON t_bt (id);
VACUUM ANALYZE t_bf;
VACUUM ANALYZE t_bt;
CREATE TABLE c_bf (id int8);
CREATE INDEX c_bf_id ON c_bf USING bloomfilter (id) WITH (capacity = $N, error_rate = 0.01);
CREATE TABLE c_bt (id int8);
CREATE INDEX c_bt_id ON c_bt (id);
CREATE TABLE c_none (id int8);
-- the trigger pattern on a filter of the same size, for comparison
CREATE TABLE t_tr (id int8);
CREATE TABLE t_tr_filter (name text PRIMARY KEY, bf bloomfilter);
INSERT INTO t_tr_filter SELECT 't', bf_agg(id, $N, 0.01) FROM t_bf;
CREATE FUNCTION t_tr_add() RETURNS trigger LANGUAGE plpgsql AS \$\$
BEGIN
	UPDATE t_tr_filter SET bf = bf_add_all(bf, (SELECT array_agg(id) FROM new_rows)) WHERE name = 't';
	RETURN NULL;
END \$\$;
CREATE TRIGGER t_tr_add AFTER INSERT ON t_tr REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION t_tr_add();
SQL

# ---- one-row INSERT: latency and WAL ----
cat > "$OUT/ins_bf.sql" <<'EOF'
\set k random(0, 1152921504606846975)
INSERT INTO t_bf VALUES (:k);
EOF
sed 's/t_bf/t_bt/' "$OUT/ins_bf.sql" > "$OUT/ins_bt.sql"
tps() {	# tps SCRIPT CLIENTS: pgbench TPS
	PGOPTIONS="-c synchronous_commit=off" pgbench -n -M prepared -f "$1" -c "$2" -j "$(( $2 < 2 ? 1 : 2 ))" -T "$SECONDS_EACH" $DB 2> /dev/null |
		sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
}
datadir=$(q -c "SHOW data_directory")
wal_per_row() {	# wal_per_row SCRIPT: WAL bytes per one-row INSERT transaction,
	# "records images": the records themselves, and the full-page images
	# that the first change of a page after a checkpoint adds (pg_waldump)
	local before after n=2000
	q -c "CHECKPOINT"
	pgbench -n -M prepared -f "$1" -c 1 -t $n $DB > /dev/null 2>&1
	before=$(q -c "SELECT pg_current_wal_lsn()")
	pgbench -n -M prepared -f "$1" -c 1 -t $n $DB > /dev/null 2>&1
	after=$(q -c "SELECT pg_current_wal_lsn()")
	pg_waldump -p "$datadir/pg_wal" -s "$before" -e "$after" --stats 2> /dev/null |
		awk -v n=$n '$1 == "Total" { printf "%d %d\n", $3 / n, $5 / n }'
}
ins_bf=() ins_bt=() par_bf=() par_bt=() wal_bf=() wal_bt=()
for _ in $(seq "$RUNS"); do
	ins_bf+=("$(tps "$OUT/ins_bf.sql" 1)"); ins_bt+=("$(tps "$OUT/ins_bt.sql" 1)")
	par_bf+=("$(tps "$OUT/ins_bf.sql" 8)"); par_bt+=("$(tps "$OUT/ins_bt.sql" 8)")
	wal_bf+=("$(wal_per_row "$OUT/ins_bf.sql")"); wal_bt+=("$(wal_per_row "$OUT/ins_bt.sql")")
done

# the trigger pattern: a few statements are enough to time
sed 's/t_bf/t_tr/' "$OUT/ins_bf.sql" > "$OUT/ins_tr.sql"
tr_tps=$(tps "$OUT/ins_tr.sql" 1)
q -c "CHECKPOINT"
before=$(q -c "SELECT pg_current_wal_lsn()")
pgbench -n -M prepared -f "$OUT/ins_tr.sql" -c 1 -t 20 $DB > /dev/null 2>&1
after=$(q -c "SELECT pg_current_wal_lsn()")
tr_wal=$(q -c "SELECT round(pg_wal_lsn_diff('$after', '$before') / 20)")

# ---- point checks ----
cat > "$OUT/chk_bf.sql" <<EOF
\\set k random(1, $N)
SELECT bf_index_contains('t_bf_id', k(:k));
EOF
cat > "$OUT/chk_bt.sql" <<EOF
\\set k random(1, $N)
SELECT 1 FROM t_bt WHERE id = k(:k);
EOF
chk_bf=() chk_bt=()
for _ in $(seq "$RUNS"); do
	chk_bf+=("$(tps "$OUT/chk_bf.sql" 1)"); chk_bt+=("$(tps "$OUT/chk_bt.sql" 1)")
done

# ---- point checks against the protocol's floor (1.5) ----
# 4 clients on the 2 cores, prepared and simple protocol: the index check,
# the btree lookup, and the bare statement with the same key expression
# (what any one-row statement costs), plus SELECT $1::int8 itself.  A
# round runs the four one after the other; the best round of each counts.
printf '\\set k random(1, %s)\nSELECT k(:k);\n' "$N" > "$OUT/floor_key.sql"
printf '\\set k random(1, %s)\nSELECT :k::int8;\n' "$N" > "$OUT/floor_int8.sql"
tps4() {	# tps4 SCRIPT PROTOCOL: pgbench TPS, 4 clients
	pgbench -n -M "$2" -f "$1" -c 4 -j 2 -T "$SECONDS_EACH" $DB 2> /dev/null |
		sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
}
declare -A fl
for proto in prepared simple; do
	for _ in $(seq "$RUNS"); do
		for w in floor_int8 floor_key chk_bf chk_bt; do
			fl[$proto,$w]="${fl[$proto,$w]:-} $(tps4 "$OUT/$w.sql" $proto)"
		done
	done
done

# ---- COPY of N rows into an empty table with the index ----
copy_ms() {	# copy_ms TABLE: ms to COPY the keys into it, emptied first
	local t0
	q -c "TRUNCATE $1" -c "CHECKPOINT"
	t0=$(date +%s%N)
	q -c "COPY $1 FROM '$keyfile'"
	ms_since "$t0"
}
copy_bf=() copy_bt=() copy_none=()
for _ in $(seq "$RUNS"); do
	copy_bf+=("$(copy_ms c_bf)"); copy_bt+=("$(copy_ms c_bt)"); copy_none+=("$(copy_ms c_none)")
done

# ---- snapshot, size, false-positive rate at capacity ----
filter_ms=()
for _ in $(seq "$RUNS"); do
	filter_ms+=("$(psql -X -q -A -t -d $DB -c '\timing on' \
		-c "SELECT bf_index_filter('c_bf_id') IS NOT NULL" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')")
done
size_bf=$(q -c "SELECT pg_relation_size('c_bf_id')")
size_bt=$(q -c "SELECT pg_relation_size('c_bt_id')")
fpr=$(q -c "SELECT count(*) FILTER (WHERE bf_index_contains('c_bf_id', -g))::float8 / 1000000
	FROM generate_series(1, 1000000) g")
keys_at=$(q -c "SELECT count(*) FROM c_bf")
rm -f "$keyfile"

b_ins_bf=$(best_max "${ins_bf[@]}"); b_ins_bt=$(best_max "${ins_bt[@]}")
b_par_bf=$(best_max "${par_bf[@]}"); b_par_bt=$(best_max "${par_bt[@]}")
b_wal_bf=$(best_min "${wal_bf[@]%% *}"); b_wal_bt=$(best_min "${wal_bt[@]%% *}")
b_fpi_bf=$(best_min "${wal_bf[@]##* }"); b_fpi_bt=$(best_min "${wal_bt[@]##* }")
b_chk_bf=$(best_max "${chk_bf[@]}"); b_chk_bt=$(best_max "${chk_bt[@]}")
b_copy_bf=$(best_min "${copy_bf[@]}"); b_copy_bt=$(best_min "${copy_bt[@]}"); b_copy_none=$(best_min "${copy_none[@]}")

echo
echo "| measure ($N keys) | bloomfilter index | btree | ratio | target |"
echo "|---|---|---|---|---|"
echo "| one-row INSERT, 1 client (synchronous_commit off): ms per statement | $(echo "scale=3; 1000 / $b_ins_bf" | bc) | $(echo "scale=3; 1000 / $b_ins_bt" | bc) | $(ratio "$b_ins_bt" "$b_ins_bf")x | <= 1.5x |"
echo "| one-row INSERT: WAL bytes per row, records (heap, index, commit) | $b_wal_bf | $b_wal_bt | $(ratio "$b_wal_bf" "$b_wal_bt")x | <= 2x |"
echo "| same: full-page images per row, rows 2001-4000 after a checkpoint | $b_fpi_bf | $b_fpi_bt | $(ratio "$b_fpi_bf" "$b_fpi_bt")x | |"
echo "| the trigger pattern instead, one-row INSERT: ms / WAL bytes | $(echo "scale=3; 1000 / $tr_tps" | bc) / $tr_wal | | | |"
echo "| COPY of $N rows into an empty table: ms (no index: $b_copy_none) | $b_copy_bf | $b_copy_bt | $(ratio "$b_copy_bf" "$b_copy_bt")x | <= 1.0x |"
echo "| 8 concurrent one-row inserters (synchronous_commit off): TPS | $b_par_bf | $b_par_bt | $(ratio "$b_par_bf" "$b_par_bt")x | >= 0.9x |"
echo "| point check TPS (bf_index_contains vs SELECT 1 ... WHERE id = \$1) | $b_chk_bf | $b_chk_bt | $(ratio "$b_chk_bf" "$b_chk_bt")x | >= 1.2x |"
for proto in prepared simple; do
	f_int8=$(best_max ${fl[$proto,floor_int8]}); f_key=$(best_max ${fl[$proto,floor_key]})
	f_bf=$(best_max ${fl[$proto,chk_bf]}); f_bt=$(best_max ${fl[$proto,chk_bt]})
	target=; [ $proto = prepared ] && target='>= 0.9x'
	echo "| point check TPS, $proto protocol, 4 clients: bf_index_contains vs the bare SELECT k(\$1) (SELECT \$1::int8 alone: $f_int8) | $f_bf | $f_key | $(ratio "$f_bf" "$f_key")x | $target |"
	echo "| point check TPS, $proto protocol, 4 clients: bf_index_contains vs btree | $f_bf | $f_bt | $(ratio "$f_bf" "$f_bt")x | |"
done
echo "| index size, bytes | $size_bf | $size_bt | 1/$(echo "scale=1; $size_bt / $size_bf" | bc) | <= 1/15 |"
echo "| false-positive rate at capacity ($keys_at keys, 1,000,000 absent probes) | $fpr | | | <= 0.01 |"
echo "| bf_index_filter of the $N-key index: ms | $(best_min "${filter_ms[@]}") | | | <= 100 |"
n=$(count_name "$N")
figure index_insert "one-row INSERT, bloomfilter index of $n keys, 1 client (synchronous_commit off)" \
	"$(echo "scale=4; 1000 / $b_ins_bf" | bc)" ms 'btree' "$(echo "scale=4; 1000 / $b_ins_bt" | bc)" '<= 1.5'
figure index_copy "COPY of $n rows into an empty table with the bloomfilter index" "$b_copy_bf" ms 'with a btree' "$b_copy_bt" '<= 1.0'
figure index_check "point check TPS, \`bf_index_contains\`, index of $n keys, prepared, 4 clients" \
	"$(best_max ${fl[prepared,chk_bf]})" tps 'btree lookup' "$(best_max ${fl[prepared,chk_bt]})"
figure index_check_floor "point check TPS, \`bf_index_contains\`, prepared, 4 clients" \
	"$(best_max ${fl[prepared,chk_bf]})" tps 'the bare statement' "$(best_max ${fl[prepared,floor_key]})" '>= 0.9'
figure index_size "bloomfilter index of $n keys at 1%" "$size_bf" bytes 'btree' "$size_bt" '<= 1/15'
echo
echo "rounds: insert TPS bf ${ins_bf[*]} / bt ${ins_bt[*]}; 8 clients bf ${par_bf[*]} / bt ${par_bt[*]};" \
	"WAL records+images bf ${wal_bf[*]} / bt ${wal_bt[*]}; checks bf ${chk_bf[*]} / bt ${chk_bt[*]};" \
	"COPY ms bf ${copy_bf[*]} / bt ${copy_bt[*]} / none ${copy_none[*]}; filter ms ${filter_ms[*]}"
