#!/bin/bash
# Which source files a check passes through, measured: callgrind collects
# only inside the SQL entry point (bloomfilter_contains, cuckoofilter_contains,
# bloomfilter_contains_all) while a single-user server runs ROWS checks, each
# of its own stored (out-of-line) value, so that every check takes the
# stored path; the functions called at least ROWS times are the per-check
# path (once-per-call-site setup, such as the element type's cache, is
# called once and left out).  Likewise an index insert: inside the access
# method's aminsert while ROWS rows go into a table with a bloomfilter
# index.  Prints each file with those functions, and
# per case a verdict, "N files (<= 4)"; exits 1 if a case enters more.
#
#   bash bench/check_path.sh BINDIR
#
# BINDIR: the bin directory of a PostgreSQL with the extension installed
# (scripts/check-version.sh leaves one in $BF_PG_ROOT/mirror-15/...).
# Needs valgrind; takes a few minutes and about 3 GB in $CHECK_PATH_DIR
# (default: a new /tmp/bf-check-path.* directory, removed at the end).
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

# path TAG ENTRY CALLS SQL
path() {
	echo "$4" | as_pg valgrind --tool=callgrind --collect-atstart=no --toggle-collect="$2" \
		--callgrind-out-file="$D/cg.$1" "$B/postgres" --single -D "$D/data" postgres \
		>"$D/out.$1" 2>"$D/err.$1"
	echo "== $1"
	python3 "$HERE/check_path.py" "$D/cg.$1" "$3" || status=1
}
status=0
for k in plain counting scalable; do
	path "$k" bloomfilter_contains $ROWS \
		"SELECT count(*) FILTER (WHERE bf_contains(bf, 42::bigint)) FROM f WHERE name = '$k';"
done
path cuckoo cuckoofilter_contains $ROWS \
	"SELECT count(*) FILTER (WHERE cf_contains(cf, 42::bigint)) FROM c;"
path in-memory bloomfilter_contains $ROWS \
	"SELECT count(*) FILTER (WHERE bf_contains(bf, g::bigint)) FROM f, generate_series(1, $ROWS) g WHERE name = 'plain' AND i = 1;"
path contains_all bloomfilter_contains_all 20 \
	"SELECT bf_contains_all(bf, ARRAY(SELECT generate_series(1::bigint, 100))) FROM f WHERE name = 'plain' AND i <= 20;"
path index-insert bloom_am_insert $ROWS \
	"INSERT INTO ix SELECT generate_series(1, $ROWS);"
rm -rf "$D"
exit $status
