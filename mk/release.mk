# Packaging and releasing (CONTRIBUTING.md: Packaging, Releasing); not part
# of make test.
#
# deb: the Debian package from a clean export of HEAD, into dist/.
# check-deb: that package unpacked into a private mirror of the PostgreSQL
# installation, its contents checked, and the whole suite run against it.
# dist: release archives of HEAD for PGXN, after version checks.
# release V=X.Y, release-dev V=X.Y: the one release step (scripts/release.py), which
# moves bloomfilter.control, META.json, CHANGELOG.md, debian/changelog and
# the clients' versions together; check-release (part of make test): that
# they agree, after a self-test of the step in scratch copies.

.PHONY: deb check-deb dist release release-dev check-release

deb:
	bash scripts/deb.sh

check-deb: deb
	PG_MAJOR=$(PG_MAJOR) bash scripts/check-deb.sh

dist:
	bash scripts/dist.sh


release:
	@test -n "$(V)" || { echo "release: name it, e.g. make release V=1.5"; exit 2; }
	python3 scripts/release.py $(V)

release-dev:
	@test -n "$(V)" || { echo "release-dev: name it, e.g. make release-dev V=1.6"; exit 2; }
	python3 scripts/release.py --dev $(V)

check-release:
	python3 scripts/check-release.py --self-test
