#!/bin/bash
# Put a PostgreSQL server of another major version into a scratch prefix,
# from Debian's packages of that version, for testing bloomfilter against it
# (make check-versions).  The system's PostgreSQL and apt configuration are
# left alone.
#
#   scripts/build-pg.sh MAJOR [PREFIX]     e.g. scripts/build-pg.sh 18
#
# MAJOR 17 comes from Debian's trixie suite, 18 from sid, 19 from
# experimental (its release candidates; sid once a release is there, as
# with 18).  PREFIX defaults to
# $BF_PG_ROOT/MAJOR (BF_PG_ROOT: /var/tmp/bloomfilter-pg).  Afterwards
# PREFIX/bin/pg_config is the PG_CONFIG to build against.  Work that is done
# is skipped: a PREFIX whose pg_config, postgres, pg_regress and isolation
# tester exist is taken as ready, a downloaded package is not fetched again.
#
# Two ways, the first that works (BF_PG_FROM=source or binary forces one):
#
# source: `apt-get source --download-only postgresql-MAJOR`, then configure,
#   make and make install of the pristine upstream tarball in it
#   (postgresql-MAJOR_X.Y.orig.tar.bz2; Debian's patches are about its
#   packaging layout).  With ICU, as Debian builds it (the suite creates a
#   nondeterministic ICU collation); no readline, SSL or LLVM, which no
#   suite needs.  A change of these options reconfigures.  PostgreSQL 17
#   and later release tarballs no longer ship bison and flex output, so
#   those are installed if missing.  `make install` leaves out pg_regress and the isolation tester
#   that PGXS's installcheck runs from lib/pgxs/src/test; their directories'
#   install targets put them there.  contrib is not built: no suite uses it.
#
# binary: Debian's own build of that version (postgresql-MAJOR,
#   postgresql-client-MAJOR, postgresql-server-dev-MAJOR) with the shared
#   libraries they need, unpacked into PREFIX/root.  They are built for that
#   suite's C library, newer than this system's, so every executable is
#   patched (patchelf) to start through the dynamic loader in PREFIX/root
#   and to find its libraries there (DT_RPATH, which also serves the
#   libraries they load, and modules dlopen'ed later, ours included).
#   PREFIX/bin is a symlink to the unpacked bindir; PostgreSQL resolves it
#   and finds its share and lib directories relative to the executable.
#   Used when the suite's source package cannot be fetched: the mirror
#   this was written on serves trixie's binary packages but not its source
#   package of postgresql-17.  Build the extension against it with
#   with_llvm=no (its PGXS asks for clang-19 bitcode).
#
# Both go through a private apt configuration under $BF_PG_ROOT/apt: its own
# sources.list, lists, cache and state (an empty dpkg status for the binary
# way, so apt resolves the whole dependency closure and only downloads), no
# sources.list.d; `apt-get update` there does not touch the system's lists.
set -euo pipefail

major=${1:?usage: build-pg.sh MAJOR [PREFIX]}
root=${BF_PG_ROOT:-/var/tmp/bloomfilter-pg}
prefix=${2:-$root/$major}
jobs=${JOBS:-2}
from=${BF_PG_FROM:-any}
mirror=http://deb.debian.org/debian
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

case "$major" in
	17) suite=trixie ;;
	18) suite=sid ;;
	19) suite=experimental ;;
	*) echo "build-pg.sh: no Debian suite known for PostgreSQL $major (17: trixie, 18: sid, 19: experimental)" >&2; exit 2 ;;
esac
# experimental holds only what differs from sid: its binary packages'
# libraries come from sid
bin_suites=("$suite")
[ "$suite" != experimental ] || bin_suites+=(sid)

ready() {
	local pgxs
	[ -x "$prefix/bin/pg_config" ] && [ -x "$prefix/bin/postgres" ] || return 1
	pgxs=$(dirname "$("$prefix/bin/pg_config" --pgxs)")/../..
	[ -x "$pgxs/src/test/regress/pg_regress" ] && [ -x "$pgxs/src/test/isolation/pg_isolation_regress" ] &&
		[ -f "$("$prefix/bin/pg_config" --sharedir)/extension/citext.control" ]
}
if ready; then
	echo "PostgreSQL $major is ready in $prefix ($("$prefix/bin/postgres" --version))"
	exit 0
fi

install_missing() {	# install_missing PKG...: from the system's apt, if missing
	local need=() pkg
	for pkg in "$@"; do
		dpkg-query -W -f='${Status}' "$pkg" 2> /dev/null | grep -q "install ok installed" || need+=("$pkg")
	done
	[ ${#need[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || { echo "build-pg.sh: install ${need[*]} (as root)" >&2; exit 1; }
	echo "installing: ${need[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
		--no-install-recommends "${need[@]}" > /dev/null
}

apt_private() {	# apt_private NAME SOURCES-LINE...: sets apt_opts for a private config
	local dir=$root/apt/$1
	shift
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/parts" "$dir/prefs" "$dir/state"
	[ -f "$dir/state/status" ] || : > "$dir/state/status"
	printf '%s\n' "$@" > "$dir/sources.list"
	apt_opts=(
		-o "Dir::Etc::sourcelist=$dir/sources.list"
		-o "Dir::Etc::sourceparts=$dir/parts"
		-o "Dir::Etc::preferencesparts=$dir/prefs"
		-o "Dir::State=$dir/state"
		-o "Dir::State::status=$dir/state/status"
		-o "Dir::State::Lists=$dir/lists"
		-o "Dir::Cache=$dir/cache"
		-o "Dir::Cache::pkgcache="
		-o "Dir::Cache::srcpkgcache="
		-o "Debug::NoLocking=1"
		-o "APT::Sandbox::User=root"
		-o "APT::Install-Recommends=false"
	)
	apt_archives=$dir/cache/archives
	# lists younger than a day are used as they are
	if [ -z "$(find "$dir/lists" -maxdepth 1 -name '*Release' -mtime -1 2> /dev/null)" ]; then
		apt-get "${apt_opts[@]}" -qq update
	fi
}

# ---- source: apt-get source, configure, make, make install ----
from_source() {
	local src=$root/src/$major orig version tree log
	mkdir -p "$src"
	orig=$(ls "$src"/postgresql-"$major"_*.orig.tar.* 2> /dev/null | head -1 || true)
	if [ -z "$orig" ]; then
		apt_private "$suite-src" "deb-src [signed-by=$keyring] $mirror $suite main"
		echo "fetching the source package postgresql-$major from $suite"
		(cd "$src" && apt-get "${apt_opts[@]}" -qq source --download-only "postgresql-$major") || return 1
		orig=$(ls "$src"/postgresql-"$major"_*.orig.tar.* | head -1)
	fi
	install_missing bison flex perl make gcc zlib1g-dev libicu-dev pkg-config
	version=$(basename "$orig" | sed -E 's/^postgresql-[0-9]+_(.*)\.orig\.tar\..*$/\1/')
	tree=$src/postgresql-$version
	[ -f "$tree/configure" ] || { echo "unpacking $orig"; tar -xf "$orig" -C "$src"; }
	log=$src/build.log
	echo "building PostgreSQL $version into $prefix with $jobs jobs (log: $log)"
	(
		# started from make check-versions, this inherits MAKELEVEL and
		# MAKEFLAGS: PostgreSQL's make then takes itself for a sub-make and
		# skips generating its headers (utils/errcodes.h: No such file)
		unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES
		cd "$tree"
		opts="--prefix=$prefix --with-icu --without-readline --without-llvm --enable-debug"
		if [ ! -f config.status ] || [ "$(cat .bf-configure 2> /dev/null)" != "$opts" ]; then
			# shellcheck disable=SC2086 # opts is several words
			./configure $opts CFLAGS="-O2"
			echo "$opts" > .bf-configure
		fi
		make -j"$jobs" -s
		make -s install
		make -s -C src/test/regress install
		make -s -C src/test/isolation install
		# the suite's typed-key tests use citext (Debian's servers ship it)
		make -s -C contrib/citext install
	) > "$log" 2>&1 || { tail -30 "$log"; echo "build-pg.sh: build failed (log: $log)" >&2; exit 1; }
}

# ---- binary: Debian's packages in a private root, patched to run here ----
from_binary() {
	local sysroot=$prefix/root deb loader rpath f n=0
	local lines=() s
	for s in "${bin_suites[@]}"; do lines+=("deb [signed-by=$keyring] $mirror $s main"); done
	apt_private "$suite-bin" "${lines[@]}"
	if [ "$suite" = experimental ]; then
		# only libpq comes from experimental as well (the client needs
		# this version's); the rest from sid (experimental's libc and perl
		# are not installable against sid)
		printf 'Package: libpq5 libpq-dev\nPin: release a=experimental\nPin-Priority: 990\n' \
			> "$root/apt/$suite-bin/prefs/libpq.pref"
	fi
	echo "fetching postgresql-$major and its libraries from $suite (binary packages)"
	apt-get "${apt_opts[@]}" -qq -y install --download-only \
		"postgresql-$major" "postgresql-client-$major" "postgresql-server-dev-$major" > /dev/null
	install_missing patchelf
	rm -rf "$sysroot"
	mkdir -p "$sysroot"
	for deb in "$apt_archives"/*.deb; do
		case $(basename "$deb") in
			lib*|postgresql-"$major"_*|postgresql-client-"$major"_*|postgresql-server-dev-"$major"_*)
				dpkg-deb -x "$deb" "$sysroot" ;;
		esac
	done
	loader=$(ls "$sysroot"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)
	rpath="$sysroot/usr/lib/x86_64-linux-gnu:$sysroot/usr/lib/postgresql/$major/lib"
	for f in "$sysroot/usr/lib/postgresql/$major"/bin/* \
		"$sysroot/usr/lib/postgresql/$major"/lib/pgxs/src/test/regress/pg_regress \
		"$sysroot/usr/lib/postgresql/$major"/lib/pgxs/src/test/isolation/*; do
		[ -L "$f" ] && continue
		patchelf --print-interpreter "$f" > /dev/null 2>&1 || continue	# scripts
		patchelf --set-interpreter "$loader" --force-rpath --set-rpath "$rpath" "$f"
		n=$((n + 1))
	done
	echo "patched $n executables to run with $loader"
	mkdir -p "$prefix"
	ln -sfn "root/usr/lib/postgresql/$major/bin" "$prefix/bin"
}

start=$(date +%s)
case "$from" in
	source) from_source ;;
	binary) from_binary ;;
	*) from_source || { echo "no source package of postgresql-$major from $suite; using its binary packages"; from_binary; } ;;
esac
ready || { echo "build-pg.sh: $prefix is incomplete" >&2; exit 1; }
echo "PostgreSQL $major ready in $prefix ($("$prefix/bin/postgres" --version)) in $(( $(date +%s) - start )) s"
