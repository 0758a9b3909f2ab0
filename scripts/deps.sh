#!/bin/bash
# Install what building and testing bloomfilter needs on Debian 12, if it is
# missing: the PostgreSQL server and headers, libmurmurhash, and pg_virtualenv.
#
# Another apt or dpkg may hold the package system's locks for minutes (a
# machine's unattended upgrades, another job installing): wait for them, up
# to DEPS_LOCK_TIMEOUT seconds (300), rather than fail with apt's "Could not
# get lock".  apt-get waits for dpkg's locks itself when given
# DPkg::Lock::Timeout, but Debian 12's apt (2.6) does not apply it to the
# lock of the package lists that `apt-get update` takes, so update is tried
# again while its error is a held lock.  DEPS_ALWAYS=1 runs apt-get even
# when nothing is missing (installing what is installed changes nothing):
# test/hardening/deps_lock.sh uses it to show the wait.
set -euo pipefail

PG_MAJOR=${PG_MAJOR:-15}
LOCK_TIMEOUT=${DEPS_LOCK_TIMEOUT:-300}
base=("postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" libmurmurhash-dev postgresql-common make gcc)
need=()
for pkg in "${base[@]}" ${EXTRA_PACKAGES:-}; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done

if [ ${#need[@]} -eq 0 ]; then
	[ "${DEPS_ALWAYS:-}" = 1 ] || exit 0
	need=("${base[@]}" ${EXTRA_PACKAGES:-})
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "missing packages: ${need[*]}; install them as root (apt-get install ${need[*]})" >&2
	exit 1
fi

# apt-get update, again every 5 seconds while another apt holds the lists'
# lock, until LOCK_TIMEOUT
apt_update() {
	local deadline=$((SECONDS + LOCK_TIMEOUT)) out said=
	while :; do
		if out=$(apt-get -o DPkg::Lock::Timeout="$LOCK_TIMEOUT" update -qq 2>&1); then
			[ -z "$out" ] || printf '%s\n' "$out" >&2
			return 0
		fi
		if ! grep -q "Could not get lock" <<< "$out" || [ $SECONDS -ge $deadline ]; then
			printf '%s\n' "$out" >&2
			return 1
		fi
		if [ -z "$said" ]; then
			echo "waiting up to ${LOCK_TIMEOUT}s for another apt to release its lock: $(grep -m1 'Could not get lock' <<< "$out")" >&2
			said=1
		fi
		sleep 5
	done
}

echo "installing: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt_update
apt-get -o DPkg::Lock::Timeout="$LOCK_TIMEOUT" install -y -qq --no-install-recommends "${need[@]}" >/dev/null
