#!/bin/bash
# make deb: the Debian package (postgresql-<major>-bloomfilter) from a clean
# export of HEAD, built with dpkg-buildpackage -us -uc -b in a temporary
# directory, so the working tree gets nothing but the results in dist/.
#
# What is packaged is what is committed: uncommitted changes are left out
# (with a warning).  debian/changelog must name the version that
# bloomfilter.control installs by default (1.2-1 or 1.2~rc1-1 for 1.2), so
# a package never carries a version number that is not its own.
#
# Missing build dependencies are installed with apt-get build-dep when run
# as root.  The build runs the regression and isolation suites against the
# staged package in a throwaway cluster (dh_pgxs_test through pg_buildext);
# DEB_BUILD_OPTIONS=nocheck skips that, and then the servers needed only
# for it (postgresql-all) are not installed either.
#
# Environment: DEB_OUTDIR (default dist/), DEB_BUILD_OPTIONS.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${DEB_OUTDIR:-$repo/dist}
cd "$repo"

die() { echo "deb: $*" >&2; exit 1; }

head=$(git rev-parse --short HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "deb: warning: uncommitted changes are not packaged (building HEAD, $head)" >&2
fi

# ---- tools: dpkg-dev itself may be missing on a fresh machine ----
as_root_install() {	# as_root_install PKG...: apt-get install, as root only
	[ "$(id -u)" -eq 0 ] || die "missing: $*; install them as root (apt-get install $*)"
	echo "deb: installing $*"
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "$@" > /dev/null
}
command -v dpkg-buildpackage > /dev/null || as_root_install dpkg-dev build-essential

# ---- the export ----
version=$(git show HEAD:debian/changelog | dpkg-parsechangelog -l - -S Version)
source=$(git show HEAD:debian/changelog | dpkg-parsechangelog -l - -S Source)
upstream=${version#*:}
upstream=${upstream%-*}
ext_version=$(git show HEAD:bloomfilter.control | sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p")
[ -n "$ext_version" ] || die "no default_version in bloomfilter.control"
case $upstream in
	"$ext_version" | "$ext_version"[~+]*) ;;
	*) die "debian/changelog is at $version, but bloomfilter.control installs $ext_version by default;" \
		"add a changelog entry first: dch -v $ext_version-1 'New upstream release $ext_version.'" ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/bloomfilter-deb.XXXXXX")
# the build-time test's server runs as postgres and reads the staged files
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
src=$work/$source-$upstream
git archive --format=tar --prefix="$source-$upstream/" HEAD | tar -x -C "$work"
cd "$src"

# ---- build dependencies ----
profiles=()
case " ${DEB_BUILD_OPTIONS:-} " in
	*" nocheck "*)
		profiles=(-P nocheck)
		export DEB_BUILD_PROFILES="nocheck${DEB_BUILD_PROFILES:+ $DEB_BUILD_PROFILES}" ;;
esac
if ! dpkg-checkbuilddeps "${profiles[@]}" 2> "$work/builddeps"; then
	cat "$work/builddeps" >&2
	[ "$(id -u)" -eq 0 ] || die "install the build dependencies as root: apt-get build-dep ${profiles[*]} $repo"
	echo "deb: installing build dependencies"
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 build-dep -y -qq --no-install-recommends "${profiles[@]}" "$src" > /dev/null
fi

# ---- build ----
log=$work/build.log
echo "deb: building $source $version from $head in $src"
if ! dpkg-buildpackage -us -uc -b > "$log" 2>&1; then
	tail -60 "$log"
	mkdir -p "$out"
	cp "$log" "$out/${source}_${version#*:}.build.log"
	die "dpkg-buildpackage failed; log: $out/${source}_${version#*:}.build.log"
fi
# the build-time suite's verdicts, if it ran
grep -E "^### |^ *(All [0-9]+ tests passed|[0-9]+ of [0-9]+ tests failed)" "$log" || true

mkdir -p "$out"
changes=$(cd "$work" && ls ./*.changes)
for f in $(cd "$work" && ls ./*.deb ./*.ddeb ./*.changes ./*.buildinfo 2> /dev/null); do
	cp "$work/$f" "$out/"
done
cp "$log" "$out/${changes%.changes}.build.log"
for f in $(cd "$work" && ls ./*.deb); do
	echo "deb: $out/${f#./} ($(stat -c %s "$out/$f") bytes)"
done
