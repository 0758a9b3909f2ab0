#!/bin/bash
# A report of the path a check takes through the source, and what it
# costs: for each case, the instructions per call of the SQL entry point
# and the source files whose functions run on every call, measured with
# callgrind in a single-user server.  Collection is only inside the entry
# point (bloomfilter_contains, cuckoofilter_contains,
# bloomfilter_contains_all, the access method's aminsert, the aggregates'
# transition functions) while it runs ROWS times: each check of its own
# stored (out-of-line) value, so that every check takes the stored path;
# each insert a row of its own; each aggregate row an element.  A file is
# listed when a function of it runs at least once a call (once a batch of
# adds for the aggregates, whose adds are batched); setup done once per
# call site, such as the element type's cache, is left out.
#
#   bash bench/check_path.sh BINDIR         (as root)
#
# BINDIR: the bin directory of a PostgreSQL with the extension installed
# (scripts/check-version.sh leaves one in $BF_PG_ROOT/mirror-15/...).
# Prints a Markdown section (make bench-path puts it at the top of
# bench/RESULTS.md).  A report, not a gate: speed is the benchmarks'
# business (bench/compare.sh), and where code lives is the layers'
# (scripts/check-layers.py).  Needs valgrind; takes a few minutes and about
# 3 GB in $CHECK_PATH_DIR (default: a new /tmp/bf-check-path.* directory,
# removed at the end).
set -euo pipefail

B=${1:?usage: check_path.sh BINDIR}
# a directory of its own (two runs at once must not share one: each
# empties it), the server on a socket there only
D=${CHECK_PATH_DIR:-$(mktemp -d /tmp/bf-check-path.XXXXXX)}
ROWS=200
PORT=$((20000 + RANDOM % 20000))
HERE=$(cd "$(dirname "$0")" && pwd)
# psql -h/-p name that socket, but PGHOSTADDR or a PGSERVICE's hostaddr
# would still send it elsewhere: none of the caller's libpq settings
unset $(compgen -e | grep -E '^PG[A-Z]' || true)

rm -rf "$D"
mkdir -p "$D"
chown postgres "$D"
as_pg() { runuser -u postgres -- "$@"; }
as_pg "$B/initdb" -D "$D/data" -A trust >/dev/null
as_pg "$B/pg_ctl" -D "$D/data" -o "-c listen_addresses='' -k $D -p $PORT" -w start >/dev/null
as_pg "$B/psql" -h "$D" -p "$PORT" -U postgres -qX -d postgres -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION bloomfilter;
CREATE TEMP TABLE one (name text, bf bloomfilter);
INSERT INTO one SELECT 'plain', bf_agg(g, 1000000, 0.01) FROM generate_series(1::bigint, 1000000) g;
INSERT INTO one SELECT 'counting', bf_add_all(bf_create(1000000, 0.01, counting => true),
	ARRAY(SELECT generate_series(1::bigint, 100000)));
INSERT INTO one SELECT 'scalable', bf_add_all(bf_create(32258, 0.01, expansion => 2),
	ARRAY(SELECT generate_series(1::bigint, 1000000)));
-- ROWS copies of each: every row's value is a TOAST value of its own
CREATE TABLE f (i int, name text, bf bloomfilter);
INSERT INTO f SELECT i, name, bf FROM one, generate_series(1, $ROWS) i;
CREATE TABLE ix (id bigint);
CREATE INDEX ix_id ON ix USING bloomfilter (id) WITH (capacity = 100000);
CREATE TABLE c (i int, cf cuckoofilter);
INSERT INTO c SELECT i, (SELECT cf_agg(g, 1000000, 0.01) FROM generate_series(1::bigint, 1000000) g)
	FROM generate_series(1, $ROWS) i;
SQL
as_pg "$B/pg_ctl" -D "$D/data" -w stop >/dev/null

# path LABEL ENTRY CALLS LEAST SQL: one row of the report
path() {
	local tag
	tag=$(echo "$1" | tr -c 'a-z0-9' '_')
	echo "$5" | as_pg valgrind --tool=callgrind --collect-atstart=no --toggle-collect="$2" \
		--callgrind-out-file="$D/cg.$tag" "$B/postgres" --single -D "$D/data" postgres \
		>"$D/out.$tag" 2>"$D/err.$tag"
	python3 "$HERE/check_path.py" "$D/cg.$tag" "$3" "$4" "$1"
}
AGG_ROWS=$((ROWS * 1000))
# CHECK_PATH_LABEL: what the build measured is (default: this tree's commit)
LABEL=${CHECK_PATH_LABEL:-$(git -C "$HERE/.." log -1 --format='%h, %cs' 2>/dev/null || echo 'no commit')}
echo "## A check's path and cost: \`bash bench/check_path.sh\` ($LABEL)"
echo
echo "Instructions per call of the entry point (callgrind, single-user server,"
echo "$ROWS calls; $AGG_ROWS rows for the aggregates), and the files whose functions"
echo "run on every call (every batch of adds, for the aggregates)."
echo
echo "| case | files | instructions per call | files entered, with their functions |"
echo "|---|---:|---:|---|"
for k in plain counting scalable; do
	path "stored $k filter" bloomfilter_contains $ROWS $ROWS \
		"SELECT count(*) FILTER (WHERE bf_contains(bf, 42::bigint)) FROM f WHERE name = '$k';"
done
path "stored cuckoo filter" cuckoofilter_contains $ROWS $ROWS \
	"SELECT count(*) FILTER (WHERE cf_contains(cf, 42::bigint)) FROM c;"
path "plain filter held in the call site's cache" bloomfilter_contains $ROWS $ROWS \
	"SELECT count(*) FILTER (WHERE bf_contains(bf, g::bigint)) FROM f, generate_series(1, $ROWS) g WHERE name = 'plain' AND i = 1;"
path "\`bf_contains_all\`, 100 keys, stored" bloomfilter_contains_all 20 20 \
	"SELECT bf_contains_all(bf, ARRAY(SELECT generate_series(1::bigint, 100))) FROM f WHERE name = 'plain' AND i <= 20;"
path "index insert, one bigint column" bloom_am_insert $ROWS $ROWS \
	"INSERT INTO ix SELECT generate_series(1, $ROWS);"
path "\`bf_agg(g, 1000000, 0.01)\` row" bloomfilter_agg_trans $AGG_ROWS $((AGG_ROWS / 512)) \
	"SELECT bf_cardinality(bf_agg(g, 1000000, 0.01)) FROM generate_series(1::bigint, $AGG_ROWS) g;"
path "\`bf_agg(g)\` row (unsized)" bloomfilter_agg_trans $AGG_ROWS $((AGG_ROWS / 512)) \
	"SELECT bf_cardinality(bf_agg(g)) FROM generate_series(1::bigint, $AGG_ROWS) g;"
path "\`cf_agg(g, 1000000, 0.01)\` row" cuckoofilter_agg_trans $AGG_ROWS $((AGG_ROWS / 512)) \
	"SELECT cf_items(cf_agg(g, 1000000, 0.01)) FROM generate_series(1::bigint, $AGG_ROWS) g;"
rm -rf "$D"
