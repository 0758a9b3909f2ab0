#!/bin/bash
# Build Citus from its source for the PostgreSQL of pg_config and install it
# there (for make check-citus; see test/citus/check_citus.sh).
#
#   bash scripts/build-citus.sh CITUS_SRC
#
# CITUS_SRC is a checkout of citusdata/citus 13.2.x.  Its
# src/include/pg_version_compat.h defines have_createdb_privilege() inline
# for PostgreSQL before 16, but PostgreSQL 15 now exports it too (15.x minor
# releases, commands/dbcommands.h), and the two definitions clash: the
# inline one is removed here, once (the edit is idempotent).
#
# Needs the headers of libcurl, liblz4, libzstd and gssapi (libkrb5-dev:
# the server's libpq-be.h includes it); as root, apt-get installs the
# missing ones.  MAKE_JOBS (default 2) sets make -j.
set -euo pipefail
src=${1:?usage: build-citus.sh CITUS_SRC}
src=$(cd "$src" && pwd)
PG_CONFIG=${PG_CONFIG:-pg_config}
jobs=${MAKE_JOBS:-2}

[ -f "$src/src/include/pg_version_compat.h" ] || { echo "$src is not a Citus source tree" >&2; exit 2; }

# ---- build dependencies ----
missing=()
for pkg in libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev; do
	dpkg -s "$pkg" > /dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "missing build dependencies (install them): ${missing[*]}" >&2
		exit 2
	fi
	# another apt-get may hold the lock for a while: wait for it
	apt-get -o DPkg::Lock::Timeout=900 update -qq
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq "${missing[@]}"
fi

# ---- the have_createdb_privilege clash ----
compat=$src/src/include/pg_version_compat.h
server_inc=$("$PG_CONFIG" --includedir-server)
if grep -q "extern bool have_createdb_privilege" "$server_inc/commands/dbcommands.h" &&
	grep -q "^have_createdb_privilege(void)" "$compat"; then
	# the definition: "static inline bool" / "have_createdb_privilege(void)"
	# through the closing brace in column 0
	perl -0pi -e 's/static inline bool\nhave_createdb_privilege\(void\)\n\{.*?\n\}\n/\/* have_createdb_privilege: exported by the server (removed by build-citus.sh) *\/\n#include "commands\/dbcommands.h"\n/s' "$compat"
	echo "removed the inline have_createdb_privilege from $compat"
fi
grep -q "^have_createdb_privilege(void)" "$compat" && { echo "could not patch $compat" >&2; exit 1; }

# ---- configure, build, install ----
# a build started from make must not take itself for a sub-make of ours
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES
cd "$src"
start=$(date +%s)
if [ ! -f Makefile.global ] || [ "$(sed -n 's/^PG_CONFIG *:\?= *//p' Makefile.global | head -1)" != "$(command -v "$PG_CONFIG")" ]; then
	./configure PG_CONFIG="$(command -v "$PG_CONFIG")" > configure.log 2>&1 \
		|| { tail -30 configure.log; exit 1; }
fi
make -j"$jobs" > build.log 2>&1 || { grep -E "error:|\*\*\*" build.log | head -30; exit 1; }
make install > install.log 2>&1 || { tail -30 install.log; exit 1; }
echo "citus $(git -C "$src" describe --tags 2> /dev/null || sed -n 's/^PACKAGE_VERSION=//p' configure | tr -d "'" | head -1) built and installed into $("$PG_CONFIG" --pkglibdir) in $(($(date +%s) - start)) s"
