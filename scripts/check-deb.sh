#!/bin/bash
# make check-deb: the package that make deb left in dist/, checked as a
# user would get it.
#
#   1. Its contents: the library, the control files and every
#      bloomfilter--*.sql and bloomfilter_citus--*.sql of HEAD (no more, no
#      fewer); its dependencies on
#      the server and on libmurmurhash; the library's links resolve.
#   2. lintian, if installed: errors fail the check, warnings are listed.
#   3. The whole suite (make installcheck: pg_regress and isolation) against
#      the package's files in a clean installation.  The package is not
#      installed: it is unpacked (dpkg-deb -x) into a private directory, and
#      a throwaway server runs from a private copy of the postgres executable
#      in a mirror of the PostgreSQL installation (symlinks to the real
#      files, minus any bloomfilter installed there, plus the package's).
#      PostgreSQL finds $libdir and the share directory relative to its
#      executable, so that server sees the package's build and nothing from
#      a make install; the check asks it where its $libdir is and which
#      bloomfilter.so its backend has mapped.
#
# Environment: PG_MAJOR (default 15), DEB_OUTDIR (default dist/),
# KEEP_WORK=1 to keep the scratch directory (it is kept anyway on failure).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=test/hardening/lib.sh
. "$repo/test/hardening/lib.sh"
PG_MAJOR=${PG_MAJOR:-15}
out=${DEB_OUTDIR:-$repo/dist}
cd "$repo"

pg_config=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config
[ -x "$pg_config" ] || { echo "check-deb: no $pg_config (postgresql-server-dev-$PG_MAJOR)"; exit 2; }
pg_bindir=$("$pg_config" --bindir)
pg_libdir=$("$pg_config" --pkglibdir)
pg_sharedir=$("$pg_config" --sharedir)

# the package make deb built from HEAD
version=$(git show HEAD:debian/changelog | dpkg-parsechangelog -l - -S Version)
package=postgresql-$PG_MAJOR-bloomfilter
deb=$out/${package}_${version#*:}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || { echo "check-deb: no $deb; run make deb first"; exit 2; }
ext_version=$(git show HEAD:bloomfilter.control | sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p")
echo "check-deb: $deb ($(stat -c %s "$deb") bytes), extension version $ext_version"

work=$(mktemp -d "${TMPDIR:-/tmp}/bloomfilter-check-deb.XXXXXX")
chmod 755 "$work"
mirror=$work/root
stop_server() {
	local status=$?
	set +e
	if [ -f "$work/data/postmaster.pid" ]; then
		as_pg "$pg_bindir/pg_ctl" -D "$work/data" -m fast -w -t 60 stop > /dev/null \
			|| as_pg "$pg_bindir/pg_ctl" -D "$work/data" -m immediate -w stop > /dev/null
	fi
	if [ "$status" -eq 0 ] && [ -z "${KEEP_WORK:-}" ]; then
		rm -rf "$work"
	else
		rm -rf "$mirror" "$work/data"	# keep the logs, not the server copy
		echo "check-deb: logs kept in $work"
	fi
	exit "$status"
}
trap stop_server EXIT

# ---- 1. contents ----
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' > "$work/contents"
has() { grep -qxF "$1" "$work/contents"; }
check "package contains $pg_libdir/bloomfilter.so" "$(has "$pg_libdir/bloomfilter.so" && echo y)" = y
for f in bloomfilter.control bloomfilter_citus.control; do
	check "package contains $pg_sharedir/extension/$f" "$(has "$pg_sharedir/extension/$f" && echo y)" = y
done
scripts=$(git ls-tree --name-only HEAD | grep -E '^bloomfilter(_citus)?--.*\.sql$' || true)
check "HEAD has install scripts" -n "$scripts"
for f in $scripts; do
	check "package contains $f" "$(has "$pg_sharedir/extension/$f" && echo y)" = y
done
packaged=$(grep -c -E "^$pg_sharedir/extension/bloomfilter(_citus)?--.*\.sql$" "$work/contents" || true)
check "package has no install script HEAD lacks ($packaged packaged)" "$packaged" -eq "$(echo "$scripts" | wc -w)"
check "package name is $package" "$(dpkg-deb -f "$deb" Package)" = "$package"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
check "package depends on postgresql-$PG_MAJOR" "$(echo "$depends" | grep -c "postgresql-$PG_MAJOR\b")" -ge 1
check "package depends on libmurmurhash's runtime library" "$(echo "$depends" | grep -c "libmurmurhash[0-9]")" -ge 1

mkdir "$work/pkg"
dpkg-deb -x "$deb" "$work/pkg"
check "packaged control file installs $ext_version by default" \
	"$(sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" "$work/pkg$pg_sharedir/extension/bloomfilter.control")" = "$ext_version"
check "the library's shared objects all resolve" "$(ldd "$work/pkg$pg_libdir/bloomfilter.so" | grep -c 'not found')" -eq 0
check "the library links libmurmurhash" "$(ldd "$work/pkg$pg_libdir/bloomfilter.so" | grep -c libmurmurhash)" -ge 1

# ---- 2. lintian ----
if command -v lintian > /dev/null; then
	changes=$out/postgresql-bloomfilter_${version#*:}_$(dpkg --print-architecture).changes
	target=$deb
	[ -f "$changes" ] && target=$changes
	# lintian advises against running as root
	lint=(lintian --display-info --tag-display-limit 0)
	[ "$(id -u)" -ne 0 ] || lint=(runuser -u nobody -- "${lint[@]}")
	"${lint[@]}" "$target" > "$work/lintian.log" 2>&1 || true
	sed 's/^/lintian: /' "$work/lintian.log"
	errors=$(grep -c '^E: ' "$work/lintian.log" || true)
	echo "lintian: $errors errors, $(grep -c '^W: ' "$work/lintian.log" || true) warnings," \
		"$(grep -c '^I: ' "$work/lintian.log" || true) informational, $(grep -c '^P: ' "$work/lintian.log" || true) pedantic"
	check "lintian reports no errors" "$errors" -eq 0
else
	echo "lintian: not installed, skipped (apt-get install lintian)"
fi

# ---- 3. the suite against the unpacked package ----
mkdir -p "$mirror$pg_bindir" "$mirror$pg_libdir" "$mirror$pg_sharedir/extension"
cp "$pg_bindir/postgres" "$mirror$pg_bindir/postgres"	# a copy: symlinks are resolved
for f in "$pg_libdir"/*; do
	[ "$(basename "$f")" = bitcode ] || ln -s "$f" "$mirror$pg_libdir/"
done
mkdir "$mirror$pg_libdir/bitcode"
for f in "$pg_libdir"/bitcode/*; do ln -s "$f" "$mirror$pg_libdir/bitcode/"; done
for f in "$pg_sharedir"/*; do [ "$(basename "$f")" = extension ] || ln -s "$f" "$mirror$pg_sharedir/"; done
for f in "$pg_sharedir"/extension/*; do ln -s "$f" "$mirror$pg_sharedir/extension/"; done
# whatever a make install left there is not part of the package
rm -rf "$mirror$pg_libdir/bloomfilter.so" "$mirror$pg_libdir/bitcode/bloomfilter" \
	"$mirror$pg_libdir/bitcode/bloomfilter.index.bc" "$mirror$pg_sharedir"/extension/bloomfilter[._-]*
# the package's files, by symlink: a backend's maps then name the unpacked file
(cd "$work/pkg" && find . -type f -path "./usr/*" ! -path "./usr/share/doc/*") | while read -r f; do
	f=${f#.}
	mkdir -p "$(dirname "$mirror$f")"
	ln -s "$work/pkg$f" "$mirror$f"
done
chmod -R a+rX "$work"

# a fresh cluster of its own, reachable only through a socket in $work
chown postgres "$work"
as_pg "$pg_bindir/initdb" -D "$work/data" -A trust --no-locale -E UTF8 > "$work/initdb.log"
mkdir "$work/sock"
chown postgres "$work/sock"
# only this cluster: none of the caller's libpq settings (PGHOSTADDR or a
# PGSERVICE would reach another server whatever PGHOST says)
unset $(compgen -e | grep -E '^PG[A-Z]' || true)
export PGHOST=$work/sock PGPORT=5432 PGUSER=postgres PGDATABASE=postgres
unset PGSERVICE PGPASSWORD PGOPTIONS
as_pg "$pg_bindir/pg_ctl" -D "$work/data" -p "$mirror$pg_bindir/postgres" \
	-o "-c listen_addresses='' -k $work/sock -p $PGPORT -c fsync=off" \
	-l "$work/server.log" -w -t 120 start > /dev/null

lib=$(psql_v -c "SELECT setting FROM pg_config WHERE name = 'PKGLIBDIR'")
check "the server's \$libdir is the mirror ($lib)" "$lib" = "$mirror$pg_libdir"
avail=$(psql_v -c "SELECT string_agg(version, ' ' ORDER BY version) FROM pg_available_extension_versions WHERE name = 'bloomfilter'")
echo "available versions of bloomfilter: $avail"
check "the server offers bloomfilter $ext_version by default" \
	"$(psql_v -c "SELECT default_version FROM pg_available_extensions WHERE name = 'bloomfilter'")" = "$ext_version"
psql_q -c "CREATE DATABASE bf_check_deb"
# the backend reads its own memory map: which bloomfilter.so did it load?
loaded=$(psql_v -d bf_check_deb -c "CREATE EXTENSION bloomfilter" \
	-c "SELECT bf_contains(bf_add(bf_create(10), 42), 42)" \
	-c "SELECT DISTINCT substring(l FROM '/\\S*bloomfilter\\.so$')
	      FROM regexp_split_to_table(pg_read_file('/proc/self/maps'), E'\\n') l
	     WHERE l LIKE '%bloomfilter.so'" | tail -n +2)
check "the backend runs the package's library ($loaded)" "$loaded" = "$work/pkg$pg_libdir/bloomfilter.so"
check "the extension installs at $ext_version" \
	"$(psql_v -d bf_check_deb -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'")" = "$ext_version"
psql_q -c "DROP DATABASE bf_check_deb"

# the suites of the same commit, in an export of it (results stay there)
git archive --format=tar --prefix=src/ HEAD | tar -x -C "$work"
suite=0
make -C "$work/src" installcheck PG_CONFIG="$pg_config" > "$work/installcheck.log" 2>&1 || suite=$?
grep -E "^(not )?ok |^test |^ *(All [0-9]+ tests passed|[0-9]+ of [0-9]+ tests failed)" "$work/installcheck.log" || true
if [ "$suite" -ne 0 ]; then
	tail -30 "$work/installcheck.log"
	for f in "$work"/src/regression.diffs "$work"/src/output_iso/regression.diffs; do
		[ -f "$f" ] && head -100 "$f"
	done
fi
check "make installcheck passes against the package" "$suite" -eq 0
check "the server log has no PANIC or server crash" \
	"$(grep -c -E 'PANIC|terminated by signal' "$work/server.log" || true)" -eq 0

finish
