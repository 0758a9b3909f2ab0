#!/bin/bash
# bloomfilter on a Citus cluster: a coordinator and two workers on loopback,
# every aggregate computed partially on the workers and combined on the
# coordinator, filters stored in distributed and reference tables, a probe
# join; every filter byte-identical (md5 of bf::bytea) and every answer
# equal to the same query on a plain table of the coordinator.  Then
# bloomfilter indexes: every bf_index_* function called with the index of a
# distributed (partitioned too), reference or Citus local table, on the
# coordinator or a worker, asks the shards' indexes on their nodes (a key
# of the distribution column only its shard), also when a prepared
# statement's table is distributed by another session; a query over the
# table that calls them per row refuses (0A000); a plain table's index and
# each shard's own index, on its node, answer for every row.
#
#   make check-citus CITUS_SRC=/path/to/citus     (builds and installs Citus)
#   bash test/citus/check_citus.sh                (Citus already installed)
#
# Needs Citus (13.2.x) installed into the PostgreSQL of pg_config
# (scripts/build-citus.sh).  Not part of make test.  Installs bloomfilter
# and its companion bloomfilter_citus (the per-type aggregates Citus needs
# to split bf_agg and cf_agg), as the README's Citus step says.
#
# How:
#   - This tree's bloomfilter is built in a private copy and is not
#     installed: the three servers run from a private copy of the postgres
#     executable in a mirror of the installation (every file a symlink to
#     the real one, except ours), as test/hardening/asan.sh does, because
#     PostgreSQL finds $libdir and the share directory relative to its
#     executable.  Citus comes from the real installation through the
#     mirror's symlinks.
#   - The servers run as the postgres user when started by root (pg_ctl
#     refuses root), from a fresh /tmp/bf_citus.* directory, on free
#     loopback ports from CITUS_PORT (default 57636) up.  KEEP=1 leaves
#     them running and prints how to reach them.
#   - Plans: EXPLAIN (VERBOSE) of the split cases must show
#     worker_partial_agg on the workers and coord_combine_agg on the
#     coordinator; of GROUP BY the distribution column, bf_agg itself on
#     the workers.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=test/hardening/lib.sh
. "$repo/test/hardening/lib.sh"

PG_CONFIG=${PG_CONFIG:-pg_config}
pg_bindir=$("$PG_CONFIG" --bindir)
pg_libdir=$("$PG_CONFIG" --pkglibdir)
pg_sharedir=$("$PG_CONFIG" --sharedir)
if [ ! -f "$pg_libdir/citus.so" ] || [ ! -f "$pg_sharedir/extension/citus.control" ]; then
	echo "Citus is not installed in $pg_libdir: make check-citus CITUS_SRC=..." >&2
	exit 2
fi

work=$(mktemp -d /tmp/bf_citus.XXXXXX)
chmod 755 "$work"
me=$(id -un)
if [ "$me" = root ]; then
	pguser=postgres
	as_srv() { runuser -u postgres -- "$@"; }
	chown postgres "$work"
else
	pguser=$me
	as_srv() { "$@"; }
fi
echo "work directory: $work"

# ---- this tree's bloomfilter, built privately ----
build=$work/build
mkdir "$build"
(cd "$repo" && cp -r Makefile mk bloomfilter.control bloomfilter--*.sql bloomfilter_citus.control \
	bloomfilter_citus--*.sql src "$build/")
rm -f "$build"/src/*/*.o "$build"/src/*/*.bc "$build"/*.so
make -C "$build" with_llvm=no > "$work/build.log" 2>&1 || { tail -20 "$work/build.log"; exit 1; }

# ---- the mirror installation ----
mirror=$work/root
mkdir -p "$mirror$pg_bindir" "$mirror$pg_libdir" "$mirror$pg_sharedir/extension"
cp "$pg_bindir/postgres" "$mirror$pg_bindir/postgres"	# a copy: symlinks are resolved
for f in "$pg_libdir"/*; do ln -s "$f" "$mirror$pg_libdir/"; done
for f in "$pg_sharedir"/*; do [ "$(basename "$f")" = extension ] || ln -s "$f" "$mirror$pg_sharedir/"; done
for f in "$pg_sharedir"/extension/*; do ln -s "$f" "$mirror$pg_sharedir/extension/"; done
rm -f "$mirror$pg_libdir/bloomfilter.so" "$mirror$pg_sharedir"/extension/bloomfilter[._-]*
cp "$build/bloomfilter.so" "$mirror$pg_libdir/"
cp "$build"/bloomfilter.control "$build"/bloomfilter--*.sql "$build"/bloomfilter_citus.control \
	"$build"/bloomfilter_citus--*.sql "$mirror$pg_sharedir/extension/"
chmod -R a+rX "$work"

# ---- three servers ----
port_free() { ! (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }
next_port=${CITUS_PORT:-57636}
free_port() {	# sets port: the next free one from next_port
	while ! port_free "$next_port"; do next_port=$((next_port + 1)); done
	port=$next_port
	next_port=$((next_port + 1))
}
nodes=(coord worker1 worker2)
declare -A ports
started=()
stop_all() {
	local status=$?
	set +e
	if [ "${KEEP:-0}" = 1 ]; then
		echo "KEEP=1: servers left running; stop with:"
		for n in "${started[@]}"; do
			echo "  runuser -u $pguser -- $pg_bindir/pg_ctl -D $work/$n -m fast stop"
		done
		echo "  e.g. psql -h localhost -p ${ports[coord]} -U $pguser -d postgres"
		exit $status
	fi
	for n in "${started[@]}"; do
		as_srv "$pg_bindir/pg_ctl" -D "$work/$n" -m fast -w stop > /dev/null 2>&1 ||
			as_srv "$pg_bindir/pg_ctl" -D "$work/$n" -m immediate -w stop > /dev/null 2>&1
	done
	# keep the server logs of a failed run only
	if [ "$status" = 0 ]; then
		rm -rf "$work"
	else
		rm -rf "$mirror" "$build" "${started[@]/#/$work/}"
		echo "server logs: $work"
	fi
	exit $status
}
trap stop_all EXIT

for n in "${nodes[@]}"; do
	free_port
	ports[$n]=$port
	as_srv "$pg_bindir/initdb" -D "$work/$n" -A trust --no-locale -E UTF8 > /dev/null
	cat >> "$work/$n/postgresql.conf" <<EOF
port = $port
listen_addresses = 'localhost'
unix_socket_directories = '$work'
shared_preload_libraries = 'citus'
max_prepared_transactions = 20
max_connections = 60
shared_buffers = 32MB
fsync = off
jit = off
citus.log_remote_commands = off
EOF
	# pg_ctl -p: the mirror's executable (a symlinked pg_ctl would start the real one)
	as_srv "$pg_bindir/pg_ctl" -D "$work/$n" -p "$mirror$pg_bindir/postgres" -l "$work/$n.log" \
		-w -t 120 start > /dev/null
	started+=("$n")
done
echo "coordinator on port ${ports[coord]}, workers on ${ports[worker1]} and ${ports[worker2]}"

on() {	# on NODE psql-args...: one value or rows, unaligned
	local n=$1
	shift
	psql_v -h localhost -p "${ports[$n]}" -U "$pguser" -d postgres "$@"
}
coord() { on coord "$@"; }
setup_sql() {	# setup_sql DESCRIPTION < SQL: run on the coordinator, count as a check
	local out
	if out=$(coord 2>&1); then
		check "$1" 1 = 1
	else
		check "$1" 1 = 0
		echo "$out" | head -5
	fi
}

lib=$(coord -c "SELECT setting FROM pg_config WHERE name = 'PKGLIBDIR'")
check "the servers' \$libdir is the mirror ($lib)" "$lib" = "$mirror$pg_libdir"

for n in "${nodes[@]}"; do on "$n" -c "CREATE EXTENSION citus" > /dev/null; done
coord -c "SELECT citus_set_coordinator_host('localhost', ${ports[coord]})" > /dev/null
coord -c "SELECT citus_add_node('localhost', ${ports[worker1]})" > /dev/null
coord -c "SELECT citus_add_node('localhost', ${ports[worker2]})" > /dev/null
citus_version=$(coord -c "SELECT extversion FROM pg_extension WHERE extname = 'citus'")
echo "citus $citus_version: $(coord -c "SELECT citus_version()")"
check "two active workers" "$(coord -c "SELECT count(*) FROM citus_get_active_worker_nodes()")" = 2

# Citus propagates CREATE EXTENSION to the workers: bloomfilter, then the
# per-type aggregates of bloomfilter_citus in its schema (the one step the
# README gives Citus users)
coord -c "CREATE EXTENSION bloomfilter" > /dev/null
coord -c "CREATE EXTENSION bloomfilter_citus" > /dev/null
bfv=$(coord -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'")
bcv=$(coord -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter_citus'")
check "bloomfilter_citus $bcv on the coordinator" -n "$bcv"
for n in worker1 worker2; do
	v=$(on "$n" -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'")
	check "bloomfilter $bfv on $n too" "$v" = "$bfv"
	v=$(on "$n" -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter_citus'")
	check "bloomfilter_citus $bcv on $n too" "$v" = "$bcv"
	v=$(on "$n" -c "SELECT count(*) FROM pg_proc WHERE proname IN ('bf_agg', 'cf_agg') AND proargtypes[0] <> 'anyelement'::regtype")
	check "the 84 per-type overloads of bf_agg and cf_agg on $n" "$v" = 84
done

# ---- overload resolution: every built-in type reaches its own overload or
# the polymorphic one, never another type's (which could hash differently)
# and never an ambiguity ----
read -r total own poly other < <(coord <<'SQL'
SET citus.enable_ddl_propagation = off;	-- the temporary views stay local
CREATE TEMP TABLE res (typ regtype, agg regprocedure, err text);
DO $$
DECLARE
	r record;
	a regprocedure;
	f text;
BEGIN
	FOR r IN SELECT oid::regtype AS t FROM pg_type
			  WHERE typtype IN ('b', 'e', 'r', 'm', 'd', 'c') AND typisdefined
				AND typnamespace = 'pg_catalog'::regnamespace AND typname NOT LIKE 'pg\_%'
				AND oid NOT IN ('unknown'::regtype, 'cstring'::regtype)
	LOOP
		FOREACH f IN ARRAY ARRAY['', ', 0.01'] LOOP
			BEGIN
				EXECUTE format('CREATE TEMP VIEW v AS SELECT bf_agg(NULL::%s, 10%s)', r.t, f);
				SELECT d.refobjid INTO a FROM pg_depend d JOIN pg_rewrite w ON d.objid = w.oid
				 WHERE d.classid = 'pg_rewrite'::regclass AND w.ev_class = 'v'::regclass
				   AND d.refclassid = 'pg_proc'::regclass
				   AND d.refobjid IN (SELECT oid FROM pg_proc WHERE proname = 'bf_agg');
				INSERT INTO res VALUES (r.t, a, NULL);
				DROP VIEW v;
			EXCEPTION WHEN OTHERS THEN
				INSERT INTO res VALUES (r.t, NULL, SQLERRM);
			END;
		END LOOP;
	END LOOP;
END $$;
SELECT count(*),
	   count(*) FILTER (WHERE p.proargtypes[0] = res.typ),
	   count(*) FILTER (WHERE p.proargtypes[0] = 'anyelement'::regtype),
	   count(*) FILTER (WHERE p.oid IS NULL OR p.proargtypes[0] NOT IN (res.typ, 'anyelement'::regtype))
  FROM res LEFT JOIN pg_proc p ON p.oid = res.agg;
SQL
)
echo "bf_agg over $total (type, form) pairs: $own to the type's own overload, $poly to the polymorphic one, $other otherwise"
check "bf_agg resolves to the element type's own overload or the polymorphic one" "$other" = 0
check "at least 22 (type, form) pairs have their own overload" "$own" -ge 22

# ---- data: the same rows in a distributed table and a plain one ----
# id: distribution column (500 values); grp: another column (7 values)
setup_sql "set up: the distributed table ev and the plain ev_plain" <<'SQL'
SET citus.shard_count = 8;
CREATE TABLE ev (
	id int8, grp int4, k8 int8, k4 int4, k2 int2, t text, vc varchar, b bytea,
	u uuid, n numeric, d date, ts timestamp, tz timestamptz, f8 float8, c char(6),
	nm name, ch "char");
CREATE DOMAIN dint AS int4;
CREATE DOMAIN dtext AS text;
CREATE TABLE ev_plain (LIKE ev);
INSERT INTO ev_plain
	SELECT g % 500, g % 7, g * 7919, g, (g % 30000)::int2, 'key-' || g, 'v' || g,
		   int8send(g), md5(g::text)::uuid, g / 7.0, date '2020-01-01' + g % 4000,
		   timestamp '2020-01-01' + g * interval '1 minute',
		   timestamptz '2020-01-01 00:00+00' + g * interval '1 second',
		   g / 3.0, (g % 1000)::text, 'n' || g, chr(g % 127 + 1)
	  FROM generate_series(1, 60000) g;
UPDATE ev_plain SET k8 = NULL, t = NULL, u = NULL WHERE id % 97 = 0;
SELECT create_distributed_table('ev', 'id');
INSERT INTO ev SELECT * FROM ev_plain;
SQL
check "60000 rows in the distributed table" "$(coord -c "SELECT count(*) FROM ev")" = 60000
check "its shards are on both workers" \
	"$(coord -c "SELECT count(DISTINCT nodeport) FROM citus_shards WHERE table_name = 'ev'::regclass")" = 2

# same query on both tables: $1 names the table as TBL
same() {	# same DESCRIPTION SQL-WITH-TBL
	local what=$1 sql=$2 a b ok=1
	a=$(coord -c "${sql//TBL/ev}" 2>&1) || ok=0
	b=$(coord -c "${sql//TBL/ev_plain}" 2>&1) || ok=0
	if [ "$ok" = 1 ] && [ -n "$a" ] && [ "$a" = "$b" ]; then
		check "$what" 1 = 1
	else
		check "$what" 1 = 0
		echo "  distributed: $(echo "$a" | head -3)"
		echo "  plain:       $(echo "$b" | head -3)"
	fi
}
# two queries on the coordinator: both succeed with the same, non-empty answer
equal() {	# equal DESCRIPTION SQL-A SQL-B
	local what=$1 a b ok=1
	a=$(coord -c "$2" 2>&1) || ok=0
	b=$(coord -c "$3" 2>&1) || ok=0
	if [ "$ok" = 1 ] && [ -n "$a" ] && [ "$a" = "$b" ]; then
		check "$what" 1 = 1
	else
		check "$what" 1 = 0
		echo "  first:  $(echo "$a" | head -3)"
		echo "  second: $(echo "$b" | head -3)"
	fi
}
# the plan of a query on the distributed table
plan() { coord -c "EXPLAIN (VERBOSE, COSTS OFF) $1"; }

cols=(k8 k4 k2 t vc b u n d ts tz c nm ch)

# ---- no GROUP BY: partial on the workers, combined on the coordinator ----
for c in "${cols[@]}"; do
	same "bf_agg($c, cap, rate), no GROUP BY" \
		"SELECT md5(bf_agg($c, 60000, 0.01)::bytea) FROM TBL"
done
same "bf_agg(k8, cap) and bf_agg(t, cap), no GROUP BY" \
	"SELECT md5(bf_agg(k8, 60000)::bytea), md5(bf_agg(t, 60000)::bytea) FROM TBL"
same "bf_agg of an expression and of a constant sizing, no GROUP BY" \
	"SELECT md5(bf_agg(k4 + 1, 60000::bigint, 0.001::float8)::bytea), md5(bf_agg(k2, 100)::bytea) FROM TBL"
same "bf_agg over rows whose elements are all NULL gives an empty filter" \
	"SELECT md5(bf_agg(k8, 1000, 0.01)::bytea), bf_bits_set(bf_agg(k8, 1000, 0.01)) FROM TBL WHERE k8 IS NULL"
same "bf_agg with a WHERE that leaves no row gives NULL" \
	"SELECT coalesce(md5(bf_agg(k8, 1000, 0.01)::bytea), 'null') FROM TBL WHERE id < 0"
same "bf_agg(domain over int4 and over text), no GROUP BY" \
	"SELECT md5(bf_agg(k4::dint, 60000, 0.01)::bytea), md5(bf_agg(t::dtext, 60000)::bytea) FROM TBL"
same "bf_agg FILTER (WHERE ...), no GROUP BY" \
	"SELECT md5((bf_agg(k8, 60000, 0.01) FILTER (WHERE grp = 3))::bytea) FROM TBL"

p=$(plan "SELECT bf_agg(k8, 60000, 0.01) FROM ev" 2>&1) || true
echo "---- plan: bf_agg, no GROUP BY"
echo "$p"
check "no GROUP BY: worker_partial_agg on the workers" "$(echo "$p" | grep -c "worker_partial_agg('public.bf_agg(bigint,bigint,double precision)'")" -ge 1
check "no GROUP BY: coord_combine_agg on the coordinator" "$(echo "$p" | grep -c "coord_combine_agg(")" -ge 1

# cf_agg: merged states answer every probe as a serial build does (the
# bytes may differ: where a kick put an entry depends on the order of adds).
# The probes, about half of them members, go in as array literals.
declare -A probes
probes[k8]=$(coord -c "SELECT array_agg(g * 7919 + g % 2)::text FROM generate_series(1, 2000) g")"::int8[]"
probes[t]=$(coord -c "SELECT array_agg('key-' || g * 31)::text FROM generate_series(1, 2000) g")"::text[]"
probes[u]=$(coord -c "SELECT array_agg(md5((g * 31)::text)::uuid)::text FROM generate_series(1, 2000) g")"::uuid[]"
for c in k8 t u; do
	same "cf_agg($c, cap, rate), no GROUP BY: the same cardinality and answers" \
		"SELECT cf_cardinality(f), md5(cf_contains_all(f, '${probes[$c]%::*}'::${probes[$c]##*::})::text)
		   FROM (SELECT cf_agg($c, 60000, 0.01) AS f FROM TBL) s"
done
p=$(plan "SELECT cf_agg(k8, 60000, 0.01) FROM ev" 2>&1) || true
echo "---- plan: cf_agg, no GROUP BY"
echo "$p"
check "cf_agg, no GROUP BY: worker_partial_agg on the workers" "$(echo "$p" | grep -c "worker_partial_agg('public.cf_agg(bigint,bigint,double precision)'")" -ge 1

# ---- GROUP BY a column that is not the distribution column ----
for c in "${cols[@]}"; do
	same "bf_agg($c, cap, rate) GROUP BY grp" \
		"SELECT string_agg(grp || ':' || md5(bf::bytea), ' ' ORDER BY grp)
		   FROM (SELECT grp, bf_agg($c, 10000, 0.01) AS bf FROM TBL GROUP BY grp) s"
done
same "bf_agg(k4, cap) GROUP BY grp, and HAVING on the filter" \
	"SELECT string_agg(grp || ':' || md5(bf::bytea), ' ' ORDER BY grp)
	   FROM (SELECT grp, bf_agg(k4, 10000) AS bf FROM TBL GROUP BY grp
			 HAVING bf_contains(bf_agg(k4, 10000), 3)) s"
same "several aggregates in one query GROUP BY grp" \
	"SELECT string_agg(grp || ':' || a || ':' || b || ':' || n, ' ' ORDER BY grp)
	   FROM (SELECT grp, md5(bf_agg(t, 10000, 0.01)::bytea) a, md5(bf_agg(u, 10000)::bytea) b,
					count(*) n FROM TBL GROUP BY grp) s"

p=$(plan "SELECT grp, bf_agg(k8, 10000, 0.01) FROM ev GROUP BY grp" 2>&1) || true
echo "---- plan: bf_agg GROUP BY a non-distribution column"
echo "$p"
check "GROUP BY grp: worker_partial_agg on the workers" "$(echo "$p" | grep -c "worker_partial_agg(")" -ge 1
check "GROUP BY grp: coord_combine_agg on the coordinator" "$(echo "$p" | grep -c "coord_combine_agg(")" -ge 1

# ---- GROUP BY the distribution column: the whole aggregate on the workers ----
same "bf_agg(k8, cap, rate) GROUP BY id (distribution column)" \
	"SELECT md5(string_agg(id || ':' || md5(bf::bytea), ' ' ORDER BY id))
	   FROM (SELECT id, bf_agg(k8, 1000, 0.01) AS bf FROM TBL GROUP BY id) s"
same "bf_agg(t, cap) GROUP BY id (distribution column)" \
	"SELECT md5(string_agg(id || ':' || md5(bf::bytea), ' ' ORDER BY id))
	   FROM (SELECT id, bf_agg(t, 1000) AS bf FROM TBL GROUP BY id) s"
p=$(plan "SELECT id, bf_agg(k8, 1000, 0.01) FROM ev GROUP BY id" 2>&1) || true
echo "---- plan: bf_agg GROUP BY the distribution column"
echo "$p"
check "GROUP BY id: bf_agg itself on the workers" "$(echo "$p" | grep -c "bf_agg(k8, '1000'::bigint, '0.01'::double precision)")" -ge 1
check "GROUP BY id: no worker_partial_agg" "$(echo "$p" | grep -c "worker_partial_agg")" = 0

same "bf_agg as a window function PARTITION BY id (distribution column)" \
	"SELECT md5(string_agg(md5(w::bytea), ' ' ORDER BY id, k4)) FROM (
		SELECT id, k4, bf_agg(k8, 1000, 0.01) OVER (PARTITION BY id ORDER BY k4) AS w FROM TBL) s"
p=$(plan "SELECT id, bf_agg(k8, 1000, 0.01) OVER (PARTITION BY id ORDER BY k4) FROM ev" 2>&1) || true
echo "---- plan: bf_agg as a window function PARTITION BY the distribution column"
echo "$p"
check "window PARTITION BY id: bf_agg itself on the workers" \
	"$(echo "$p" | grep -c "Query: SELECT .*public.bf_agg(worker_column_2, (1000)::bigint, (0.01)::double precision) OVER (PARTITION BY worker_column_1")" -ge 1

# ---- a type without an overload: the polymorphic aggregate ----
same "bf_agg(float8 column) GROUP BY id (polymorphic, pushed down whole)" \
	"SELECT md5(string_agg(id || ':' || md5(bf::bytea), ' ' ORDER BY id))
	   FROM (SELECT id, bf_agg(f8, 1000, 0.01) AS bf FROM TBL GROUP BY id) s"
err=$(coord -c "SELECT bf_agg(f8, 60000, 0.01) FROM ev" 2>&1 || true)
check "bf_agg(float8 column), no GROUP BY: Citus still refuses the polymorphic aggregate" \
	"$(echo "$err" | grep -c "could not confirm type correctness")" = 1

# a user's own overload for another type (Citus propagates it to the workers)
setup_sql "set up: a user-defined bf_agg(float8, bigint, float8) overload" <<'SQL'
CREATE FUNCTION my_bf_agg_trans(bloomfilter, float8, bigint, float8) RETURNS bloomfilter
	AS 'bloomfilter', 'bloomfilter_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bf_agg(float8, bigint, float8) (
	SFUNC = my_bf_agg_trans, STYPE = bloomfilter, FINALFUNC = bloomfilter_agg_final,
	COMBINEFUNC = bf_union, PARALLEL = SAFE);
SQL
same "bf_agg(float8 column), no GROUP BY, with the user's overload" \
	"SELECT md5(bf_agg(f8, 60000, 0.01)::bytea) FROM TBL"
same "bf_agg(float8 column) GROUP BY grp, with the user's overload" \
	"SELECT string_agg(grp || ':' || md5(bf::bytea), ' ' ORDER BY grp)
	   FROM (SELECT grp, bf_agg(f8, 10000, 0.01) AS bf FROM TBL GROUP BY grp) s"
equal "the user's overload hashes as the polymorphic aggregate did" \
	"SELECT md5(bf_agg(f8, 60000, 0.01)::bytea) FROM ev_plain" \
	"SELECT md5(bf_union_agg(bf_add(bf_create(60000, 0.01), f8))::bytea) FROM ev_plain"

# ---- filters stored in distributed and reference tables ----
setup_sql "set up: filters stored in a distributed (grp_filters) and a reference table (all_filter)" <<'SQL'
CREATE TABLE grp_filters (grp int4, bf bloomfilter);
SELECT create_distributed_table('grp_filters', 'grp');
INSERT INTO grp_filters SELECT grp, bf_agg(k8, 10000, 0.01) FROM ev GROUP BY grp;
CREATE TABLE grp_filters_plain AS SELECT grp, bf_agg(k8, 10000, 0.01) AS bf FROM ev_plain GROUP BY grp;

CREATE TABLE all_filter (name text PRIMARY KEY, bf bloomfilter);
SELECT create_reference_table('all_filter');
INSERT INTO all_filter SELECT 'k8', bf_agg(k8, 60000, 0.01) FROM ev;
INSERT INTO all_filter SELECT 't', bf_agg(t, 60000, 0.01) FROM ev;
CREATE TABLE all_filter_plain AS
	SELECT 'k8' AS name, bf_agg(k8, 60000, 0.01) AS bf FROM ev_plain
	UNION ALL SELECT 't', bf_agg(t, 60000, 0.01) FROM ev_plain;
SQL
equal "filters in a distributed table (INSERT ... SELECT ... GROUP BY grp) are byte-identical" \
	"SELECT string_agg(grp || md5(bf::bytea), ' ' ORDER BY grp) FROM grp_filters" \
	"SELECT string_agg(grp || md5(bf::bytea), ' ' ORDER BY grp) FROM grp_filters_plain"
equal "filters in a reference table are byte-identical" \
	"SELECT string_agg(name || md5(bf::bytea), ' ' ORDER BY name) FROM all_filter" \
	"SELECT string_agg(name || md5(bf::bytea), ' ' ORDER BY name) FROM all_filter_plain"
for n in worker1 worker2; do
	shard=$(coord -c "SELECT shard_name FROM citus_shards WHERE table_name = 'all_filter'::regclass AND nodeport = ${ports[$n]}") || true
	a=$(on "$n" -c "SELECT string_agg(name || md5(bf::bytea), ' ' ORDER BY name) FROM $shard" 2>&1) || a=
	b=$(coord -c "SELECT string_agg(name || md5(bf::bytea), ' ' ORDER BY name) FROM all_filter_plain" 2>&1) || b=
	check "the reference table's copy on $n is byte-identical" -n "$a" -a "$a" = "$b"
done
check "text round trip through the distributed table" \
	"$(coord -c "SELECT count(*) FROM grp_filters g JOIN grp_filters_plain p USING (grp) WHERE g.bf::text = p.bf::text")" = 7

# bf_union_agg over stored filters: no GROUP BY, GROUP BY another column
equal "bf_union_agg over a distributed table, no GROUP BY" \
	"SELECT md5(bf_union_agg(bf)::bytea) FROM grp_filters" \
	"SELECT md5(bf_union_agg(bf)::bytea) FROM grp_filters_plain"
equal "bf_union_agg of the per-group filters = bf_agg of everything" \
	"SELECT md5(bf_union_agg(bf)::bytea) FROM grp_filters" \
	"SELECT md5(bf_agg(k8, 10000, 0.01)::bytea) FROM ev_plain"
equal "bf_union_agg GROUP BY a non-distribution column" \
	"SELECT string_agg(p || md5(u::bytea), ' ' ORDER BY p) FROM (SELECT grp % 2 AS p, bf_union_agg(bf) AS u FROM grp_filters GROUP BY grp % 2) s" \
	"SELECT string_agg(p || md5(u::bytea), ' ' ORDER BY p) FROM (SELECT grp % 2 AS p, bf_union_agg(bf) AS u FROM grp_filters_plain GROUP BY grp % 2) s"
p=$(plan "SELECT bf_union_agg(bf) FROM grp_filters" 2>&1) || true
echo "---- plan: bf_union_agg, no GROUP BY"
echo "$p"
check "bf_union_agg: worker_partial_agg on the workers" "$(echo "$p" | grep -c "worker_partial_agg(")" -ge 1

# ---- probe joins ----
setup_sql "set up: probe keys in a distributed table" <<'SQL'
CREATE TABLE probes (id int8, key int8);
CREATE TABLE probes_plain AS SELECT g % 500 AS id, g * 13 AS key FROM generate_series(1, 20000) g;
SELECT create_distributed_table('probes', 'id');
INSERT INTO probes SELECT * FROM probes_plain;
SQL
equal "probe join of a distributed table with a reference-table filter" \
	"SELECT count(*), sum(p.key) FROM probes p JOIN all_filter f ON f.name = 'k8' WHERE bf_contains(f.bf, p.key)" \
	"SELECT count(*), sum(p.key) FROM probes_plain p JOIN all_filter_plain f ON f.name = 'k8' WHERE bf_contains(f.bf, p.key)"
check "probe join: every stored key is found in the reference-table filter (no false negatives)" \
	"$(coord -c "SELECT count(*) FROM ev e JOIN all_filter f ON f.name = 'k8' WHERE e.k8 IS NOT NULL AND NOT e.k8 <@ f.bf")" = 0
# filters per value of the distribution column, co-located with the data
setup_sql "set up: filters per id in a co-located distributed table" <<'SQL'
CREATE TABLE id_filters (id int8, bf bloomfilter);
SELECT create_distributed_table('id_filters', 'id', colocate_with => 'ev');
INSERT INTO id_filters SELECT id, bf_agg(k8, 1000, 0.01) FROM ev GROUP BY id;
CREATE TABLE id_filters_plain AS SELECT id, bf_agg(k8, 1000, 0.01) AS bf FROM ev_plain GROUP BY id;
SQL
equal "filters in a co-located distributed table (INSERT ... SELECT ... GROUP BY id) are byte-identical" \
	"SELECT md5(string_agg(id || md5(bf::bytea), ' ' ORDER BY id)) FROM id_filters" \
	"SELECT md5(string_agg(id || md5(bf::bytea), ' ' ORDER BY id)) FROM id_filters_plain"
for probe in "(e.k4 * 7919)::int8" "(e.k4 * 7919 + 1)::int8"; do
	equal "co-located probe join: count of $probe <@ filter" \
		"SELECT count(*) FROM ev e JOIN id_filters f USING (id) WHERE $probe <@ f.bf" \
		"SELECT count(*) FROM ev_plain e JOIN id_filters_plain f USING (id) WHERE $probe <@ f.bf"
done
equal "repartition probe join with a filter table distributed by another column" \
	"SET citus.enable_repartition_joins = on; SELECT count(*) FROM ev e JOIN grp_filters g ON g.grp = e.grp WHERE bf_contains(g.bf, (e.k4 * 7919)::int8 + e.id % 2)" \
	"SELECT count(*) FROM ev_plain e JOIN grp_filters_plain g ON g.grp = e.grp WHERE bf_contains(g.bf, (e.k4 * 7919)::int8 + e.id % 2)"
same "bf_contains on a filter built in the same query, GROUP BY grp" \
	"SELECT string_agg(grp || ':' || c, ' ' ORDER BY grp) FROM (
		SELECT grp, bf_contains(bf_agg(t, 10000, 0.01), 'key-21') AS c FROM TBL GROUP BY grp) s"

# ---- bloomfilter indexes: asked where the rows live ----
# A Citus table's shell (the relation pg_dist_partition lists: distributed,
# reference, Citus local) holds none of its rows.  Called on the
# coordinator (or on a worker, which has Citus's metadata), every
# bf_index_* function asks the shards' own indexes on their nodes: a key
# of the distribution column's type only its shard, any other key every
# shard; bf_index_filter is the union of the shards' filters and
# bf_index_info lists them.  A query over the table that calls the function
# for each row still refuses (0A000): Citus runs it on the workers, against
# the shell's index.
setup_sql "set up: bloomfilter indexes on a distributed, a reference, a Citus local and a plain table" <<'SQL'
SET citus.shard_count = 4;
CREATE TABLE users (id int8, name text);
SELECT create_distributed_table('users', 'id');
INSERT INTO users SELECT g, 'u' || g FROM generate_series(1, 1000) g;
CREATE INDEX users_bf ON users USING bloomfilter (id);
CREATE TABLE countries (code text PRIMARY KEY, id int8);
SELECT create_reference_table('countries');
INSERT INTO countries SELECT 'c' || g, g FROM generate_series(1, 300) g;
CREATE INDEX countries_bf ON countries USING bloomfilter (id);
CREATE TABLE cl (id int8);
SELECT citus_add_local_table_to_metadata('cl');
INSERT INTO cl SELECT g FROM generate_series(1, 500) g;
CREATE INDEX cl_bf ON cl USING bloomfilter (id);
-- a distributed partitioned table: its shards are partitioned too
CREATE TABLE dev (day int, id int8) PARTITION BY RANGE (day);
CREATE TABLE dev_1 PARTITION OF dev FOR VALUES FROM (1) TO (2);
CREATE TABLE dev_2 PARTITION OF dev FOR VALUES FROM (2) TO (3);
SELECT create_distributed_table('dev', 'id');
CREATE INDEX dev_bf ON dev USING bloomfilter (id) WITH (capacity = 10000);
INSERT INTO dev SELECT 1 + g % 2, g FROM generate_series(1, 1000) g;
-- an index not on the distribution column
CREATE INDEX users_name_bf ON users USING bloomfilter (name);
SET citus.enable_ddl_propagation = off;		-- a table of the coordinator alone
CREATE TABLE locals (id int8);
INSERT INTO locals SELECT g FROM generate_series(1, 1000) g;
CREATE INDEX locals_bf ON locals USING bloomfilter (id);
SQL
# pg_dist_partition: hash-distributed (h), reference (n, replicated: t),
# Citus local (n, one placement: s), not listed
check "users is distributed, countries a reference table, cl a Citus local table, locals none" \
	"$(coord -c "SELECT string_agg(coalesce(p.partmethod::text || p.repmodel::text, '-'), ',' ORDER BY i)
				   FROM unnest(ARRAY['users', 'countries', 'cl', 'locals']) WITH ORDINALITY AS t(name, i)
				   LEFT JOIN pg_dist_partition p ON p.logicalrelid = t.name::regclass")" = "hs,nt,ns,-"

# every form of the four functions, with the index as IDX
index_calls=(
	"SELECT bf_index_contains('IDX', 1::int8)"
	"SELECT bf_index_contains('IDX', '1'::text)"
	"SELECT bf_index_contains_all('IDX', ARRAY[1, 2, 3]::int8[])"
	"SELECT md5(bf_index_filter('IDX')::bytea)"
	"SELECT bf_index_info('IDX')->>'bits_set'"
)
answers() {	# answers NODE INDEX TABLE [KEYS]: every call on NODE succeeds; every key of TABLE (KEYS: a query of them) is found
	local n=$1 idx=$2 tbl=$3 keys=${4:-"SELECT id FROM $3"} sql out rows found all
	for sql in "${index_calls[@]}"; do
		sql=${sql//IDX/$idx}
		out=$(on "$n" -c "$sql" 2>&1) || out="ERROR $out"
		check "$n: $sql answers" "$(echo "$out" | grep -c ERROR)" = 0
	done
	# the keys are read first (a query over a Citus table calling the
	# function would run it on the workers), then checked on NODE
	read -r rows found all < <(on "$n" -c "WITH k AS MATERIALIZED ($keys)
		SELECT count(*), count(*) FILTER (WHERE bf_index_contains('$idx', id)),
		(SELECT bool_and(a) FROM unnest(bf_index_contains_all('$idx', (SELECT array_agg(id) FROM k))) a)
		FROM k" 2>&1 || echo "error")
	check "$n: $idx finds each of the $rows keys of $tbl (bf_index_contains: $found; bf_index_contains_all: $all)" \
		"$rows" -gt 0 -a "$found" = "$rows" -a "$all" = t
}
# (Citus tables' keys through a plain list, so the calls run on NODE)
answers coord users_bf users "SELECT g::int8 AS id FROM generate_series(1, 1000) g"
answers coord countries_bf countries "SELECT g::int8 AS id FROM generate_series(1, 300) g"
answers coord cl_bf cl "SELECT g::int8 AS id FROM generate_series(1, 500) g"
answers coord dev_bf dev "SELECT g::int8 AS id FROM generate_series(1, 1000) g"
answers coord locals_bf locals
answers worker1 users_bf users "SELECT g::int8 AS id FROM generate_series(1, 1000) g"
answers worker2 countries_bf countries "SELECT g::int8 AS id FROM generate_series(1, 300) g"

# absent keys: only the filters' false positives say present (1% each)
for idx in users_bf countries_bf cl_bf dev_bf; do
	fp=$(coord -c "SELECT count(*) FILTER (WHERE a) FROM unnest(bf_index_contains_all('$idx',
		ARRAY(SELECT g::int8 FROM generate_series(100001, 102000) g))) a")
	check "coord: $idx: $fp of 2000 absent keys reported present (at most 2% allowed)" "$fp" -le 40
done
# the union of the shards' filters is the filter bf_agg makes of the table
for pair in "users_bf:SELECT bf_agg(id, 100000, 0.01) FROM users" \
	"countries_bf:SELECT bf_agg(id, 100000, 0.01) FROM countries" \
	"dev_bf:SELECT bf_agg(id, 10000, 0.01) FROM dev"; do
	check "coord: bf_index_filter('${pair%%:*}') = ${pair#*:}" \
		"$(coord -c "SELECT bf_index_filter('${pair%%:*}') = (${pair#*:})")" = t
done
check "coord: bf_index_info('users_bf') lists 4 shards, same shape, 1000 keys at build" \
	"$(coord -c "SELECT i->>'shards' || ',' || jsonb_array_length(i->'leaves') || ',' || (i->>'same_shape') || ',' || (i->>'keys_at_build')
				   FROM bf_index_info('users_bf') i")" = "4,4,true,1000"
check "coord: bf_index_info('dev_bf'): 4 shards, each a partitioned index of 2 partitions" \
	"$(coord -c "SELECT string_agg(l->>'partitions', ',') FROM jsonb_array_elements(bf_index_info('dev_bf')->'leaves') l")" = "2,2,2,2"
check "coord: an index not on the distribution column asks every shard: every name found" \
	"$(coord -c "SELECT bool_and(a) FROM unnest(bf_index_contains_all('users_name_bf', ARRAY(SELECT 'u' || g FROM generate_series(1, 1000) g))) a")" = t

# routing: with one shard's index gone from its node, a key of the
# distribution column's type in another shard still answers (only its shard
# is asked), a key in that shard fails naming it, and a key of another
# type (asked of every shard) fails too
read -r gone_shard gone_port < <(coord -c "SELECT s.shardid, s.nodeport FROM citus_shards s
	WHERE s.table_name = 'users'::regclass AND s.shardid = get_shard_id_for_distribution_column('users', 2)" | tr '|' ' ')
other=$(coord -c "SELECT g FROM generate_series(1, 1000) g WHERE get_shard_id_for_distribution_column('users', g) <> $gone_shard LIMIT 1")
gone_node=
for m in "${nodes[@]}"; do [ "${ports[$m]}" = "$gone_port" ] && gone_node=$m; done
on "$gone_node" -c "DROP INDEX users_bf_$gone_shard" > /dev/null
check "routed: key $other (another shard) answers with shard $gone_shard's index dropped" \
	"$(coord -c "SELECT bf_index_contains('users_bf', $other::int8)")" = t
check "routed: key '$other' as text answers too" "$(coord -c "SELECT bf_index_contains('users_bf', '$other')")" = t
check "routed: bf_index_contains_all of keys of other shards answers" \
	"$(coord -c "SELECT bool_and(a) FROM unnest(bf_index_contains_all('users_bf', ARRAY(SELECT g::int8 FROM generate_series(1, 1000) g
				   WHERE get_shard_id_for_distribution_column('users', g) <> $gone_shard))) a")" = t
out=$(coord -v VERBOSITY=verbose -c "SELECT bf_index_contains('users_bf', 2::int8)" 2>&1 || true)
check "routed: key 2 (in shard $gone_shard) fails with 38000 naming the shard" \
	"$(echo "$out" | grep -c "ERROR:  38000: shard $gone_shard of bloomfilter index \"users_bf\" could not be asked")" = 1
echo "$out" | grep -E "^(ERROR|DETAIL)" | sed 's/^/    /' || true
out=$(coord -v VERBOSITY=verbose -c "SELECT bf_index_contains('users_bf', $other::int4)" 2>&1 || true)
check "not routed: an int4 key is asked of every shard, and fails on shard $gone_shard" \
	"$(echo "$out" | grep -c "ERROR:  38000: shard $gone_shard of bloomfilter index")" = 1
on "$gone_node" -c "CREATE INDEX users_bf_$gone_shard ON users_$gone_shard USING bloomfilter (id)" > /dev/null
check "routed: key 2 answers once its shard's index is back" "$(coord -c "SELECT bf_index_contains('users_bf', 2::int8)")" = t

# a multi-column index: an anonymous row has no text form a node could
# read back, and is refused; a row of a composite type is asked of every shard
coord -c "CREATE INDEX users_multi_bf ON users USING bloomfilter (id, name)" -c "CREATE TYPE users_pair AS (id int8, name text)" > /dev/null
out=$(coord -v VERBOSITY=verbose -c "SELECT bf_index_contains('users_multi_bf', ROW(1, 'u1'))" 2>&1 || true)
check "a ROW key of a Citus table's index refuses with 0A000" \
	"$(echo "$out" | grep -c 'ERROR:  0A000: a key of type record cannot be sent to the shards of Citus table "users"')" = 1
check "a key of a composite type answers: every (id, name) of users found, (1, 'u2') not" \
	"$(coord -c "SELECT bool_and(a) FROM unnest(bf_index_contains_all('users_multi_bf',
				   ARRAY(SELECT ROW(g, 'u' || g)::users_pair FROM generate_series(1, 1000) g))) a")$(coord -c "SELECT bf_index_contains('users_multi_bf', ROW(1, 'u2')::users_pair)")" = tf

# a query over users with bf_index_contains('users_bf', id): Citus sends it
# to the workers, where the index named is the shell's: refused, saying why
out=$(coord -v VERBOSITY=verbose -c "SELECT count(*) FROM users WHERE NOT bf_index_contains('users_bf', id)" 2>&1 || true)
check "a query over users with bf_index_contains('users_bf', id) refuses with 0A000" \
	"$(echo "$out" | grep -c 'ERROR:  0A000: bloomfilter index "users_bf" cannot answer for Citus table "users"')" = 1
echo "$out" | grep -E "^(ERROR|DETAIL|HINT)" | sed 's/^/    /' || true

# each shard's own index, on the node of each placement, answers for its rows
total=0
while read -r tbl shard shardid port; do
	n=
	for m in "${nodes[@]}"; do [ "${ports[$m]}" = "$port" ] && n=$m; done
	answers "$n" "${tbl}_bf_$shardid" "$shard"
	if [ "$tbl" = users ]; then
		total=$((total + $(on "$n" -c "SELECT count(*) FROM $shard")))
	fi
done < <(coord -c "SELECT table_name, shard_name, shardid, nodeport FROM citus_shards
				   WHERE table_name IN ('users'::regclass, 'countries'::regclass, 'cl'::regclass)
				   ORDER BY table_name::text, shardid, nodeport")
check "the shards' indexes of users answered for all 1000 rows" "$total" = 1000

# a table made distributed by another session after a prepared statement
# ran once: the next execution asks the shards (the cached answer for the
# table is invalidated; the shards hold the rows Citus copied, and the
# shell's own rows and filter are truncated away)
out=$(coord -v VERBOSITY=verbose 2>&1 <<SQL || true
SET citus.enable_ddl_propagation = off;
CREATE TABLE later (id int8);
INSERT INTO later SELECT g FROM generate_series(1, 1000) g;
CREATE INDEX later_bf ON later USING bloomfilter (id);
PREPARE p AS SELECT count(*) FILTER (WHERE a) FROM unnest(bf_index_contains_all('later_bf', ARRAY(SELECT g::int8 FROM generate_series(1, 1000) g))) a;
EXECUTE p;
\\! psql -X -q -h localhost -p ${ports[coord]} -U $pguser -d postgres -c "SELECT create_distributed_table('later', 'id')" -c "SELECT truncate_local_data_after_distributing_table('later')" > /dev/null 2>&1
SELECT 'distributed: ' || count(*) FROM pg_dist_partition WHERE logicalrelid = 'later'::regclass;
EXECUTE p;
SQL
)
echo "$out" | sed 's/^/    /'
check "prepared bf_index_contains_all on a plain table: every key found" "$(echo "$out" | sed -n 1p)" = 1000
check "another session distributes the table" "$(echo "$out" | grep -c '^distributed: 1$')" = 1
check "the same prepared statement then answers from the shards: every key found" \
	"$(echo "$out" | grep -A1 '^distributed: 1$' | tail -1)" = 1000

# ---- filters are the same as today's polymorphic aggregate makes ----
# bf_add (polymorphic) folded with bf_union_agg makes the same filter
equal "bf_agg(int8) = fold of polymorphic bf_add, on the plain table" \
	"SELECT md5(bf_agg(k8, 60000, 0.01)::bytea) FROM ev_plain" \
	"SELECT md5(bf_union_agg(bf_add(bf_create(60000, 0.01), k8))::bytea) FROM ev_plain WHERE k8 IS NOT NULL"
equal "bf_agg(timestamptz) = fold of polymorphic bf_add" \
	"SELECT md5(bf_agg(tz, 60000, 0.01)::bytea) FROM ev" \
	"SELECT md5(bf_union_agg(bf_add(bf_create(60000, 0.01), tz))::bytea) FROM ev_plain"

finish
