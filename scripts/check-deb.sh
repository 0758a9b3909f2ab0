#!/bin/bash
# make check-deb: the package that make deb left in dist/, checked as a
# user would get it.
#
#   1. Its contents: the library, the control files and every
#      bloomfilter--*.sql and bloomfilter_citus--*.sql of HEAD (no more, no
#      fewer); its dependencies on
#      the server and on libmurmurhash; the library's links resolve.
#   2. lintian (installed first when run as root): errors fail the check,
#      warnings are listed.
#   3. A fresh machine: a minimal Debian of this machine's release
#      (debootstrap, kept pristine in CHECK_DEB_ROOT and copied for each
#      run), where apt-get installs the .deb with the dependencies it
#      declares, from the archive, as a user's apt would.  A server of that
#      system starts from a fresh cluster (the check asks its backend which
#      bloomfilter.so it mapped: the installed one), the whole suite of the
#      same commit (make installcheck: pg_regress and isolation) runs
#      against it, and apt-get purge must then leave no file of the
#      package.  The copy runs in mount and PID namespaces of its own
#      (unshare + chroot): nothing of it outlives the check, nothing is
#      installed on this machine but debootstrap.  Root and the network to
#      the Debian archive are needed; the first run spends about a minute and
#      a half on debootstrap, each run about as long on apt.
#
# Environment: PG_MAJOR (default 15), DEB_OUTDIR (default dist/),
# CHECK_DEB_ROOT (default /var/tmp/bloomfilter-deb-root), KEEP_WORK=1 to
# keep the scratch directory's logs (they are kept anyway on failure).
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
fresh=$work/fresh
serve_pid=
stop_server() {
	local status=$?
	set +e
	if [ -n "$serve_pid" ] && kill -0 "$serve_pid" 2> /dev/null; then
		touch "$fresh/tmp/stop"
		for _ in $(seq 120); do kill -0 "$serve_pid" 2> /dev/null || break; sleep 0.5; done
		kill "$serve_pid" 2> /dev/null	# unshare --kill-child takes the rest
		wait "$serve_pid" 2> /dev/null
	fi
	rm -rf "$fresh"	# the fresh system's copy: only the logs are kept
	if [ "$status" -eq 0 ] && [ -z "${KEEP_WORK:-}" ]; then
		rm -rf "$work"
	else
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
if ! command -v lintian > /dev/null && [ "$(id -u)" -eq 0 ]; then
	echo "check-deb: installing lintian"
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends lintian > /dev/null
fi
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

# ---- 3. a fresh machine: the package installed by apt, the whole suite ----
# A minimal Debian of this machine's release (debootstrap --variant=minbase,
# made once and kept pristine in $CHECK_DEB_ROOT, then copied for each run)
# with this machine's apt sources.  There apt-get installs the .deb, taking
# its dependencies (the server, libmurmurhash) from the archive as on a
# user's machine; a server of that system, started by the system's own
# binaries from a fresh cluster, answers on a socket in the copy, and the
# whole suite of the same commit runs against it from here.  The copy runs
# in namespaces of its own (mount and PID, unshare): its /proc and /dev
# mounts and its processes go when it ends.  Then the package is purged,
# and must leave no file behind.
fresh_cache=${CHECK_DEB_ROOT:-/var/tmp/bloomfilter-deb-root}
. /etc/os-release
codename=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
as_root() { [ "$(id -u)" -eq 0 ] || { echo "check-deb: the fresh machine needs root (debootstrap, chroot)"; exit 2; }; }
as_root
if [ ! -f "$fresh_cache/$codename/.complete" ]; then
	command -v debootstrap > /dev/null || {
		echo "check-deb: installing debootstrap"
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends debootstrap > /dev/null
	}
	mirror=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2> /dev/null |
		sed -n 's/^URIs: *\(\S*\/debian\)\/*$/\1/p; s/^deb \(\[[^]]*\] \)\?\(\S*\/debian\)\/* .*/\2/p' |
		head -1 || true)
	echo "check-deb: making a minimal $codename in $fresh_cache/$codename (debootstrap, from ${mirror:-the default mirror}; once)"
	rm -rf "$fresh_cache/$codename.tmp"
	mkdir -p "$fresh_cache"
	debootstrap --variant=minbase "$codename" "$fresh_cache/$codename.tmp" ${mirror:+"$mirror"} \
		> "$fresh_cache/debootstrap.log" 2>&1 || { tail -20 "$fresh_cache/debootstrap.log"; exit 1; }
	touch "$fresh_cache/$codename.tmp/.complete"
	rm -rf "$fresh_cache/$codename"
	mv "$fresh_cache/$codename.tmp" "$fresh_cache/$codename"
fi
cp -a "$fresh_cache/$codename" "$fresh"
rm -f "$fresh/.complete"
# this machine's sources, resolver; no service starts, no default cluster
rm -f "$fresh/etc/apt/sources.list"
cp /etc/apt/sources.list.d/* "$fresh/etc/apt/sources.list.d/" 2> /dev/null || true
[ ! -f /etc/apt/sources.list ] || cp /etc/apt/sources.list "$fresh/etc/apt/"
cp -L /etc/resolv.conf "$fresh/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' > "$fresh/usr/sbin/policy-rc.d"
chmod 755 "$fresh/usr/sbin/policy-rc.d"
mkdir -p "$fresh/etc/postgresql-common/createcluster.d"
echo "create_main_cluster = false" > "$fresh/etc/postgresql-common/createcluster.d/check-deb.conf"
mkdir -p "$fresh/tmp/pkg"
cp "$deb" "$fresh/tmp/pkg/"

in_fresh() {	# in_fresh CMD...: CMD in the fresh system, in namespaces of its own
	unshare --mount --pid --fork --kill-child -- sh -c '
		root=$1; shift
		mount --rbind /dev "$root/dev" && mount -t proc proc "$root/proc" &&
		mount -t tmpfs tmpfs "$root/run" && exec chroot "$root" "$@"' in_fresh "$fresh" "$@"
}
fresh_apt=(env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -y -q --no-install-recommends)
echo "check-deb: installing $(basename "$deb") on a fresh $codename"
installed=0
{ in_fresh "${fresh_apt[@]}" update && in_fresh "${fresh_apt[@]}" install "/tmp/pkg/$(basename "$deb")"; } \
	> "$work/fresh-install.log" 2>&1 || installed=$?
grep -E "^(Setting up|Unpacking) " "$work/fresh-install.log" | sed 's/^/  /' | grep -E "bloomfilter|postgresql-[0-9]|murmur" || true
[ "$installed" -eq 0 ] || tail -30 "$work/fresh-install.log"
check "apt-get installs the package and its dependencies on a fresh $codename" "$installed" -eq 0
check "the package is installed there" \
	"$(in_fresh dpkg-query -W -f '${Status}' "$package" 2> /dev/null)" = "install ok installed"
fresh_pkgs=$(in_fresh dpkg-query -W -f '${Package}\n' | grep -E "^(postgresql-[0-9]+|libmurmurhash[0-9a-z]*)$" | tr '\n' ' ')
echo "check-deb: the fresh system got: $fresh_pkgs"
check "the fresh system runs the library from the package's path" \
	"$(in_fresh dpkg -S "$pg_libdir/bloomfilter.so" 2> /dev/null | cut -d: -f1)" = "$package"

# a server of the fresh system, its cluster and socket in its /tmp; it
# stops when the host creates /tmp/stop there
cat > "$fresh/tmp/serve.sh" <<SERVE
#!/bin/sh
set -e
install -d -o postgres /tmp/data /tmp/sock
runuser -u postgres -- $pg_bindir/initdb -D /tmp/data -A trust --no-locale -E UTF8 > /tmp/initdb.log
runuser -u postgres -- $pg_bindir/pg_ctl -D /tmp/data -l /tmp/server.log -w -t 120 \
	-o "-c listen_addresses='' -k /tmp/sock -p 5432 -c fsync=off" start > /dev/null
touch /tmp/ready
while [ ! -e /tmp/stop ]; do sleep 0.5; done
runuser -u postgres -- $pg_bindir/pg_ctl -D /tmp/data -m fast -w -t 60 stop > /dev/null
SERVE
chmod 755 "$fresh/tmp/serve.sh"
in_fresh /tmp/serve.sh > "$work/fresh-serve.log" 2>&1 &
serve_pid=$!
stop_fresh() {
	touch "$fresh/tmp/stop"
	wait "$serve_pid" 2> /dev/null || true
}
for _ in $(seq 240); do
	[ -e "$fresh/tmp/ready" ] || ! kill -0 "$serve_pid" 2> /dev/null && break
	sleep 0.5
done
check "the fresh system's server starts" -e "$fresh/tmp/ready"
[ -e "$fresh/tmp/ready" ] || { cat "$work/fresh-serve.log" "$fresh/tmp/server.log" 2> /dev/null | tail -20; finish; }
cp "$fresh/tmp/server.log" "$work/server.log" 2> /dev/null || true

# only this server: none of the caller's libpq settings (PGHOSTADDR or a
# PGSERVICE would reach another server whatever PGHOST says)
unset $(compgen -e | grep -E '^PG[A-Z]' || true)
export PGHOST=$fresh/tmp/sock PGPORT=5432 PGUSER=postgres PGDATABASE=postgres
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
check "the backend runs the installed package's library ($loaded)" "$loaded" = "$pg_libdir/bloomfilter.so"
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
check "make installcheck passes against the package on the fresh system" "$suite" -eq 0
stop_fresh
cp "$fresh/tmp/server.log" "$work/server.log" 2> /dev/null || true
check "the server log has no PANIC or server crash" \
	"$(grep -c -E 'PANIC|terminated by signal' "$work/server.log" || true)" -eq 0

# removal: purge leaves none of the package's files
purged=0
in_fresh "${fresh_apt[@]}" purge "$package" > "$work/fresh-purge.log" 2>&1 || purged=$?
check "apt-get purge removes the package" "$purged" -eq 0
left=$(cd "$fresh" && ls -d ".$pg_libdir"/bloomfilter* ".$pg_sharedir"/extension/bloomfilter* \
	"./usr/share/doc/$package" 2> /dev/null | wc -l || true)
check "purge leaves none of its files ($left left)" "$left" -eq 0

finish
