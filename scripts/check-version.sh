#!/bin/bash
# Build bloomfilter against one PostgreSQL major version and run the whole
# pg_regress and isolation suite (make installcheck) against a throwaway
# cluster of that version.  Called by `make check-versions`.
#
#   scripts/check-version.sh MAJOR      15, 17, 18 or 19
#   BF_REGRESS="setup ops" BF_ISOLATION=concurrent_add scripts/check-version.sh 15
#                                       only those suites (a quick loop)
#
# 15 is the system's server (/usr/lib/postgresql/15).  Nothing is installed
# there: the extension goes into a private mirror of that installation,
# $BF_PG_ROOT/mirror-15, where every file is a symlink to the real one
# except the executables (copies: PostgreSQL resolves symlinks and finds
# $libdir and the share directory relative to the executable it runs) and
# our own files.  Other versions live in scratch prefixes that
# scripts/build-pg.sh makes (if missing); the extension is installed there.
#
# The build is in a private copy of the tree ($BF_PG_ROOT/work/MAJOR),
# so the working tree is untouched and versions do not share objects.  The
# cluster is initdb'd in a temporary directory, listens on a Unix socket
# there only (no TCP port to collide with), and is removed at the end.
# The last line is the summary: "PostgreSQL X.Y: ..., N passed, N failed".
set -euo pipefail
major=${1:?usage: check-version.sh MAJOR}
repo=$(cd "$(dirname "$0")/.." && pwd)
root=${BF_PG_ROOT:-/var/tmp/bloomfilter-pg}
mkdir -p "$root"

# run server programs as postgres when we are root (initdb refuses root)
as_pg() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

mirror_system() {	# mirror_system MAJOR: a private mirror of the system's installation
	local m=$root/mirror-$1 sysbin=/usr/lib/postgresql/$1/bin f d
	[ -x "$sysbin/pg_config" ] || { echo "no PostgreSQL $1 in /usr/lib/postgresql/$1 (scripts/deps.sh installs it)" >&2; exit 1; }
	rm -rf "$m"
	mkdir -p "$m/usr/lib/postgresql/$1/bin" "$m/usr/lib/postgresql/$1/lib" \
		"$m/usr/share/postgresql/$1/extension" "$m/usr/include/postgresql"
	cp -L "$sysbin"/* "$m/usr/lib/postgresql/$1/bin/"
	for f in /usr/lib/postgresql/"$1"/lib/*; do ln -s "$f" "$m/usr/lib/postgresql/$1/lib/"; done
	for f in /usr/share/postgresql/"$1"/*; do
		[ "$(basename "$f")" = extension ] || ln -s "$f" "$m/usr/share/postgresql/$1/"
	done
	for f in /usr/share/postgresql/"$1"/extension/*; do ln -s "$f" "$m/usr/share/postgresql/$1/extension/"; done
	for d in /usr/include/postgresql/*; do ln -s "$d" "$m/usr/include/postgresql/"; done
	rm -f "$m/usr/lib/postgresql/$1/lib"/bloomfilter.so "$m/usr/share/postgresql/$1/extension"/bloomfilter[._-]*
	echo "$m/usr/lib/postgresql/$1/bin"
}

if [ "$major" = 15 ]; then
	bindir=$(mirror_system 15)
else
	bash "$repo/scripts/build-pg.sh" "$major" "$root/$major"	# quick when it is there
	bindir=$root/$major/bin
fi
pg_config=$bindir/pg_config
version=$("$bindir/postgres" --version | sed -E 's/^postgres \(PostgreSQL\) ([^ ]+).*/\1/')

# ---- build and install, in a private copy ----
build=$root/work/$major
rm -rf "$build"
mkdir -p "$build"
# the whole tree but git's files and earlier results and objects
tar -C "$repo" --exclude=.git --exclude=results --exclude=output_iso --exclude='*.o' \
	--exclude='*.so' --exclude='*.bc' -cf - . | tar -C "$build" -xf -
log=$build/build.log
# A server built by Debian with a newer gcc (19 from experimental) names
# warning options in its CFLAGS that this system's compiler refuses (19's
# -Wmissing-variable-declarations, gcc 14's, against Debian 12's gcc 12):
# those are left out, and said so; every other flag is the server's own.
cc=$("$pg_config" --cc | awk '{ print $1 }')
command -v "$cc" > /dev/null || cc=gcc
cflags=() dropped=()
for f in $("$pg_config" --cflags); do
	# (only an option the compiler does not know: -Werror=format-security
	# alone fails too, for want of -Wformat, and is kept)
	if [[ $f == -W* ]] && [[ $("$cc" "$f" -x c -c /dev/null -o /dev/null 2>&1 || true) =~ \
		unrecognized\ command[-\ ]line\ option|unknown\ warning\ option ]]; then
		dropped+=("$f")
	else
		cflags+=("$f")
	fi
done
# with_llvm=no: no JIT bitcode (the Debian builds' PGXS asks for clang)
make_pg() {
	if [ ${#dropped[@]} -eq 0 ]; then
		make -C "$build" PG_CONFIG="$pg_config" with_llvm=no "$@"
	else
		make -C "$build" PG_CONFIG="$pg_config" with_llvm=no CFLAGS="${cflags[*]}" "$@"
	fi
}
[ ${#dropped[@]} -eq 0 ] || echo "left out of $pg_config's CFLAGS, unknown to $cc: ${dropped[*]}"
if ! { make_pg -j2 && make_pg install; } > "$log" 2>&1; then
	tail -30 "$log"
	echo "PostgreSQL $version: build FAILED (log: $log)"
	exit 1
fi
warnings=$(grep -c "warning:" "$log" || true)

# ---- a throwaway cluster ----
tmp=$(mktemp -d "/tmp/bf_pg$major.XXXXXX")
chmod 755 "$tmp"
[ "$(id -u)" -ne 0 ] || chown postgres "$tmp"
stop() {
	as_pg "$bindir/pg_ctl" -D "$tmp/data" -m immediate -w stop > /dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap stop EXIT
as_pg "$bindir/initdb" -D "$tmp/data" -A trust -U postgres --no-locale -E UTF8 > "$tmp/initdb.log" 2>&1 \
	|| { cat "$tmp/initdb.log"; exit 1; }
as_pg "$bindir/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w -t 120 \
	-o "-c listen_addresses='' -k $tmp -p 5432 -c fsync=off" start > /dev/null \
	|| { cat "$tmp/server.log"; exit 1; }

# ---- the suite ----
# regression and isolation suites in two runs, so a failure in the first
# does not hide the second
status=0
# only this cluster: none of the caller's libpq settings (PGHOSTADDR or a
# PGSERVICE would send pg_regress, which drops and creates its database,
# to another server whatever PGHOST says)
unset $(compgen -e | grep -E '^PG[A-Z]' || true)
export PGHOST=$tmp PGPORT=5432 PGUSER=postgres
# BF_REGRESS / BF_ISOLATION: only these suites ("setup ops"), for a quick
# loop in a worktree without installing into the system's server
if [ -n "${BF_REGRESS:-}${BF_ISOLATION:-}" ]; then
	{ [ -z "${BF_REGRESS:-}" ] || make_pg installcheck ISOLATION= REGRESS="$BF_REGRESS" || status=$?; } > "$build/installcheck.log" 2>&1
	{ [ -z "${BF_ISOLATION:-}" ] || make_pg installcheck REGRESS= ISOLATION="$BF_ISOLATION" || status=$?; } >> "$build/installcheck.log" 2>&1
else
	{ make_pg installcheck ISOLATION= || status=$?; } > "$build/installcheck.log" 2>&1
	{ make_pg installcheck REGRESS= || status=$?; } >> "$build/installcheck.log" 2>&1
fi
grep -E "^(ok|not ok|test) |^# |tests (passed|failed)|^ *[a-z_0-9]+ +\.\.\. " "$build/installcheck.log" || true
if [ "$status" -ne 0 ]; then
	for f in "$build"/regression.diffs "$build"/output_iso/regression.diffs; do
		[ -f "$f" ] && { echo "---- $f"; head -80 "$f"; }
	done
fi

# count: pg_regress prints "ok N - name" (16+) or "name ... ok" (15)
ok=$(grep -cE "^ok [0-9]+ |^ *(test )?[a-z_0-9]+ +\.\.\. ok" "$build/installcheck.log" || true)
# the failed suites ("not ok N - name", "+ name" in a parallel group; or
# "name ... FAILED"), named on the summary line, which is all a short tail
# of CI's output may show
failed=$(grep -oE "^not ok [0-9]+ +[-+] +[a-z_0-9]+|^ *(test )?[a-z_0-9]+ +\.\.\. FAILED" "$build/installcheck.log" \
	| sed -E 's/^not ok [0-9]+ +[-+] +//; s/^ *(test )?//; s/ +\.\.\. FAILED$//' || true)
bad=$(printf '%s' "$failed" | grep -c . || true)
if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; fi
names=$(printf '%s' "$failed" | tr '\n' ' ')
echo "PostgreSQL $version: build with $warnings warnings; make installcheck: $ok passed, $bad failed${names:+ ($names)}"
[ "$status" -eq 0 ]
