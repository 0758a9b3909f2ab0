# Packaging and releasing (CONTRIBUTING.md: Packaging, Releasing); not part
# of make test.
#
# deb: the Debian package from a clean export of HEAD, into dist/.
# check-deb: that package unpacked into a private mirror of the PostgreSQL
# installation, its contents checked, and the whole suite run against it.
# dist: release archives of HEAD for PGXN, after version checks.

.PHONY: deb check-deb dist

deb:
	bash scripts/deb.sh

check-deb: deb
	PG_MAJOR=$(PG_MAJOR) bash scripts/check-deb.sh

dist:
	bash scripts/dist.sh

