#!/bin/bash
# Install what building and testing bloomfilter needs on Debian 12, if it is
# missing: the PostgreSQL server and headers, libmurmurhash, and pg_virtualenv.
set -euo pipefail

PG_MAJOR=${PG_MAJOR:-15}
need=()
for pkg in "postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" libmurmurhash-dev postgresql-common make gcc; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
for pkg in ${EXTRA_PACKAGES:-}; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done

if [ ${#need[@]} -eq 0 ]; then
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "missing packages: ${need[*]}; install them as root (apt-get install ${need[*]})" >&2
	exit 1
fi
echo "installing: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
