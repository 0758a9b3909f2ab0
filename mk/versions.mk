# The suite on every supported major: 15 (the system's, through a private
# mirror: nothing is installed there), 17, 18 and 19 (scratch servers under
# $(BF_PG_ROOT), made by scripts/build-pg.sh if missing, which takes a while
# the first time: 18 is built from source, 17 and 19 are Debian's builds),
# then pg_upgrade from 15 to each of UPGRADE_TO (15 and that version must be
# in CHECK_VERSIONS: they install the extension it uses).  Not to 18 or 19 by
# default: Debian's 15.20 stamps every column with a "pg_attver" attribute
# option that 18.6 and 19rc1 do not know, so pg_upgrade to them fails on any
# user table, ours or not (CONTRIBUTING.md: PostgreSQL versions);
# BF_CLEAR_ATTVER=1 make check-versions UPGRADE_TO="18 19" clears the stamp
# by hand first (test/versions/pg_upgrade.sh).  All of them run even if one
# fails; a summary line each, the test lines of a success or the end of the
# log of a failure, and at the end, before the summary (whose lines name
# the failed suites), the head of each failed version's diffs.  Not part of
# test: CI (.ci/run) runs it after make test.
.PHONY: check-versions check-citus

CHECK_VERSIONS ?= 15 17 18 19
UPGRADE_TO ?= 17
BF_PG_ROOT ?= /var/tmp/bloomfilter-pg
export BF_PG_ROOT

check-versions:
	@mkdir -p $(BF_PG_ROOT)
	@summary=""; failed=""; \
	for v in $(CHECK_VERSIONS); do \
		echo "== PostgreSQL $$v"; \
		if bash scripts/check-version.sh $$v > $(BF_PG_ROOT)/check-$$v.log 2>&1; then \
			grep -E "^(ok|not ok) |^test |^ ?#? ?All [0-9]+ tests" $(BF_PG_ROOT)/check-$$v.log || true; \
		else failed="$$failed $$v"; tail -60 $(BF_PG_ROOT)/check-$$v.log; fi; \
		line=$$(tail -1 $(BF_PG_ROOT)/check-$$v.log); echo "$$line"; summary="$$summary$$line\n"; \
	done; \
	for v in $(UPGRADE_TO); do \
		echo "== pg_upgrade 15 -> $$v"; \
		log=$(BF_PG_ROOT)/check-upgrade-$$v.log; \
		if bash test/versions/pg_upgrade.sh $$v > $$log 2>&1; then grep -E "^ok:" $$log; \
		else failed="$$failed pg_upgrade-$$v"; tail -40 $$log; fi; \
		line="$$(grep '^summary:' $$log | sed 's/^summary: //'), $$(tail -1 $$log)"; \
		summary="$$summary$$line\n"; \
	done; \
	for v in $$failed; do \
		log=$(BF_PG_ROOT)/check-$$v.log; [ -f $$log ] || continue; \
		echo; echo "== the diffs of $$v (the head of each; all in $$log)"; \
		sed -n '/^---- /,$$p' $$log | sed '$$d' | head -40; \
	done; \
	echo; echo "check-versions summary (logs in $(BF_PG_ROOT)/check-*.log):"; printf "$$summary"; \
	if [ -n "$$failed" ]; then echo "check-versions: FAILED:$$failed"; exit 1; fi

# A coordinator and two workers of Citus on loopback (test/citus/check_citus.sh),
# running this tree's build from a private mirror of the installation.  With
# CITUS_SRC (a citusdata/citus 13.2.x checkout) Citus is built and installed
# into the PostgreSQL of pg_config first.  Not part of test or check-all.
CITUS_SRC ?=

check-citus: deps
	@if [ -n "$(CITUS_SRC)" ]; then bash scripts/build-citus.sh "$(CITUS_SRC)"; fi
	bash test/citus/check_citus.sh

