#!/bin/bash
# Running out of memory is a clean ERROR, not a crash: a server started with
# a 1.5 GB address-space limit is asked to union two 700 MB filters (three
# copies needed), and must answer with an ERROR and keep serving.
# Starts its own server; run as root: bash test/hardening/oom.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

bindir=$(pg_config --bindir)
port=${OOM_PORT:-5498}
private_cluster bf_oom
as_pg bash -c "ulimit -v 1500000; $bindir/pg_ctl -D $work/data -l $work/server.log \
	-o \"-p $port -k $work -c listen_addresses='' -c shared_buffers=32MB\" -w start" > /dev/null
stop() { as_pg "$bindir/pg_ctl" -D "$work/data" -m fast stop > /dev/null 2>&1 || true; rm -rf "$work"; }
trap stop EXIT
export PGHOST=$work PGPORT=$port PGUSER=postgres

fresh_db bf_oom
out=$(psql -X -q -d bf_oom -v VERBOSITY=verbose \
	-c "SELECT bf_nbits(bf_union(a, a)) FROM (SELECT bf_create((SELECT 580000000), 0.01) AS a OFFSET 0) s" 2>&1 || true)
echo "$out" | head -3
check "the union fails with out of memory (53200)" "$(echo "$out" | grep -c 53200)" -ge 1
check "the server is still up and answering" \
	"$(psql -X -A -t -d bf_oom -c "SELECT bf_add(bf_create(1000), 1) @> 1")" = t
check "no backend crashed" "$(grep -c 'terminated by signal' "$work/server.log" || true)" -eq 0
finish
