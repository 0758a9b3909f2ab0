#!/bin/bash
# scripts/deps.sh waits for another apt or dpkg that holds the package
# system's locks (issue 32, item 12), instead of failing at once with
# "Could not get lock".  As root, this holds each lock for HOLD seconds (20)
# the way apt does (a POSIX lock, fcntl: an flock(1) lock would not stop
# apt) and runs deps.sh with DEPS_ALWAYS=1, so that it calls apt-get update
# and install although nothing is missing (installing what is installed
# changes nothing): deps.sh must succeed, after the lock is released.  A
# control without the waits shows the lock is really held: plain apt-get
# fails at once.  apt-get update needs the network.
#   bash test/hardening/deps_lock.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
repo=$(cd "$(dirname "$0")/../.." && pwd)
HOLD=${HOLD:-20}

if [ "$(id -u)" -ne 0 ]; then
	echo "deps_lock.sh: needs root (it holds apt's locks); skipped"
	exit 0
fi

hold() {	# hold SECONDS FILE...: lock the files as apt does, in the background
	/usr/bin/python3 - "$@" <<'PY' &
import fcntl, os, sys, time
fds = [os.open(p, os.O_RDWR | os.O_CREAT, 0o640) for p in sys.argv[2:]]
for fd in fds:
    fcntl.lockf(fd, fcntl.LOCK_EX)
open("/tmp/deps_lock.held", "w").close()
time.sleep(float(sys.argv[1]))
PY
	holder=$!
	while [ ! -e /tmp/deps_lock.held ]; do sleep 0.1; done
	rm -f /tmp/deps_lock.held
}

for what in dpkg lists; do
	case $what in
		dpkg) locks=(/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock)
		      control=(apt-get install -y -qq --no-install-recommends make) ;;
		lists) locks=(/var/lib/apt/lists/lock)
		       control=(apt-get update -qq) ;;
	esac
	hold "$HOLD" "${locks[@]}"
	start=$SECONDS
	if "${control[@]}" > /dev/null 2> /tmp/deps_lock.err; then rc=0; else rc=$?; fi
	check "$what lock held: plain ${control[*]} fails at once (rc $rc, $((SECONDS - start)) s)" \
		"$rc" -ne 0 -a "$((SECONDS - start))" -lt 5
	grep -q "Could not get lock" /tmp/deps_lock.err || cat /tmp/deps_lock.err
	start=$SECONDS
	if DEPS_ALWAYS=1 bash "$repo/scripts/deps.sh"; then rc=0; else rc=$?; fi
	took=$((SECONDS - start))
	check "$what lock held ${HOLD} s: deps.sh waits and succeeds (rc $rc, $took s)" \
		"$rc" -eq 0 -a "$took" -ge $((HOLD - 3))
	wait "$holder"
done
rm -f /tmp/deps_lock.err
finish
