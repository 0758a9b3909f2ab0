#!/bin/bash
# The whole regression suite against a server running under valgrind
# memcheck.  (AddressSanitizer was tried first: preloading either gcc's or
# clang's runtime into Debian's postgres deadlocks in glibc's bindtextdomain
# before main gets going.)  Debian's server is not built for valgrind, so it
# produces reports of its own (uninitialised padding written to disk and the
# like); only reports with a frame in bloomfilter.so count here.
# Starts its own server; run as root: bash test/hardening/memcheck.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/hardening/lib.sh

EXTRA_PACKAGES=valgrind bash scripts/deps.sh
bindir=$(pg_config --bindir)
port=${MEMCHECK_PORT:-5499}
private_cluster bf_memcheck -E UTF8
# background workers off, so that nearly every process is a regress backend
as_pg bash -c "valgrind --quiet --trace-children=yes --track-origins=no \
	--num-callers=30 --error-limit=no --log-file=$work/vg.%p \
	$bindir/postgres -D $work/data -p $port -k $work -c listen_addresses='' \
	-c autovacuum=off -c max_parallel_workers_per_gather=0 -c jit=off \
	> $work/server.log 2>&1 &"
stop() { as_pg "$bindir/pg_ctl" -D "$work/data" -m fast stop > /dev/null 2>&1 || true; }
trap stop EXIT
for _ in $(seq 120); do as_pg "$bindir/pg_isready" -q -h "$work" -p "$port" && break; sleep 1; done

status=0
PGHOST=$work PGPORT=$port PGUSER=postgres make installcheck || status=$?
stop
trap - EXIT

# an error report is a block of lines starting with ==pid==; keep the ones
# with a frame in our library
ours=$(awk '/^==[0-9]+== [A-Z]/ { if (blk ~ /bloomfilter\.so|src\/bloom/) n++; blk = "" }
	{ blk = blk "\n" $0 }
	END { if (blk ~ /bloomfilter\.so|src\/bloom/) n++; print n + 0 }' "$work"/vg.* )
total=$(grep -h -c "^==[0-9]*== [A-Z]" "$work"/vg.* | awk '{ s += $1 } END { print s + 0 }')
echo "valgrind: $ours reports with a bloomfilter frame, $total reports in all (logs in $work)"
if [ "$ours" -gt 0 ]; then
	grep -l "bloomfilter.so" "$work"/vg.* | head -3 | xargs -r head -80
fi
check "the suite passes under valgrind" "$status" -eq 0
check "no valgrind report has a bloomfilter.so frame" "$ours" -eq 0
finish
