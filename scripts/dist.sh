#!/bin/bash
# make dist: release archives of HEAD, dist/bloomfilter-VERSION.tar.gz and
# .zip (the one PGXN takes), each unpacking into bloomfilter-VERSION/.
#
# VERSION is default_version in bloomfilter.control.  Before anything is
# written, the versions that must agree are checked, all in HEAD (what is
# archived): META.json's release version and the version it says it
# provides, and the upstream part of debian/changelog's latest entry.  PGXN
# takes semantic versions only (three numbers), so control 1.2 is 1.2.0 in
# META.json; a control version of three numbers must appear as it is.
# The upgrade script that leads to VERSION must exist too.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${DIST_OUTDIR:-$repo/dist}
cd "$repo"

fail=0
bad() { echo "dist: $*" >&2; fail=1; }

head=$(git rev-parse --short HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "dist: warning: uncommitted changes are not in the archives (archiving HEAD, $head)" >&2
fi

version=$(git show HEAD:bloomfilter.control | sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p")
[ -n "$version" ] || { echo "dist: no default_version in bloomfilter.control" >&2; exit 1; }
case $version in
	*.*.*) semver=$version ;;
	*.*) semver=$version.0 ;;
	*) semver=$version.0.0 ;;
esac

meta=$(git show HEAD:META.json 2> /dev/null) || { echo "dist: no META.json in HEAD" >&2; exit 1; }
jq -e . > /dev/null <<< "$meta" || { echo "dist: META.json is not valid JSON" >&2; exit 1; }
meta_name=$(jq -r '.name' <<< "$meta")
meta_version=$(jq -r '.version' <<< "$meta")
provides_version=$(jq -r '.provides.bloomfilter.version // empty' <<< "$meta")
provides_file=$(jq -r '.provides.bloomfilter.file // empty' <<< "$meta")
[ "$meta_name" = bloomfilter ] || bad "META.json name is '$meta_name', not bloomfilter"
[ "$meta_version" = "$semver" ] ||
	bad "META.json version is $meta_version, but bloomfilter.control says $version (PGXN: $semver)"
[ "$provides_version" = "$semver" ] ||
	bad "META.json provides bloomfilter $provides_version, but bloomfilter.control says $version (PGXN: $semver)"
if [ -z "$provides_file" ] || ! git cat-file -e "HEAD:$provides_file" 2> /dev/null; then
	bad "META.json provides file '$provides_file', which HEAD does not have"
fi
for key in abstract maintainer license prereqs '"meta-spec"'; do
	jq -e ".$key" > /dev/null <<< "$meta" || bad "META.json has no $key"
done

# every release after 1.0 arrives through an upgrade script
if [ "$version" != 1.0 ] && ! git ls-tree --name-only HEAD | grep -qE "^bloomfilter--[^-]+--$version\.sql$"; then
	bad "no upgrade script bloomfilter--*--$version.sql in HEAD"
fi
git cat-file -e HEAD:LICENSE 2> /dev/null || echo "dist: warning: no LICENSE file in HEAD" >&2

if git cat-file -e HEAD:debian/changelog 2> /dev/null; then
	deb_version=$(git show HEAD:debian/changelog | dpkg-parsechangelog -l - -S Version)
	deb_upstream=${deb_version#*:}
	deb_upstream=${deb_upstream%-*}
	[ "$deb_upstream" = "$version" ] ||
		bad "debian/changelog is at $deb_version; add an entry: dch -v $version-1 'New upstream release $version.'"
fi

if [ "$fail" -ne 0 ]; then
	echo "dist: versions disagree; nothing written" >&2
	exit 1
fi

mkdir -p "$out"
name=bloomfilter-$version
git archive --format=tar.gz --prefix="$name/" -o "$out/$name.tar.gz" HEAD
git archive --format=zip --prefix="$name/" -o "$out/$name.zip" HEAD
for f in "$out/$name.tar.gz" "$out/$name.zip"; do
	echo "dist: $f ($(stat -c %s "$f") bytes, HEAD $head, META.json $meta_version)"
done
