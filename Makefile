# bloomfilter: Bloom filter data type for PostgreSQL (PGXS)

EXTENSION = bloomfilter
MODULE_big = bloomfilter
# src/bloom_*.c: the core, plain C without server headers (unit tests and
# fuzzers link it alone); src/bloomfilter_*.c, src/cuckoofilter_*.c: the
# PostgreSQL glue
CORE_SRCS = $(sort $(wildcard src/bloom_*.c))
OBJS = $(CORE_SRCS:.c=.o) $(patsubst %.c,%.o,$(sort $(wildcard src/bloomfilter.c src/bloomfilter_*.c src/cuckoofilter_*.c)))
SHLIB_LINK = -lmurmurhash
DATA = $(wildcard bloomfilter--*.sql)

# setup first: it creates the extension the other suites use; io_soft only
# on servers with soft input errors (16+), added below
REGRESS = setup $(filter-out setup io_soft,$(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql))))
REGRESS_OPTS = --encoding=UTF8
ISOLATION = $(patsubst specs/%.spec,%,$(sort $(wildcard specs/*.spec)))

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

ifeq ($(shell test $(MAJORVERSION) -ge 16 && echo yes),yes)
REGRESS += io_soft
endif

# PGXS does not track headers; every object depends on ours
$(OBJS): $(wildcard src/*.h)

# ---- developer entry points (see CONTRIBUTING.md) ----

PG_MAJOR ?= 15
CORE_CFLAGS = -O2 -g -Wall -Wextra -std=c11 -Isrc
EXTRA_CLEAN = test/unit_core test/unit_hash test/unit_sizing test/unit_cuckoo test/unit_layout bench/hash_micro
CORE_HDRS = $(wildcard src/bloom_*.h)

test/unit_core: test/unit_core.c test/unit.h $(CORE_SRCS) $(CORE_HDRS)
	$(CC) $(CORE_CFLAGS) -o $@ test/unit_core.c $(CORE_SRCS) -lmurmurhash -lm

test/unit_sizing: test/unit_sizing.c test/unit.h $(CORE_SRCS) $(CORE_HDRS)
	$(CC) $(CORE_CFLAGS) -o $@ test/unit_sizing.c $(CORE_SRCS) -lmurmurhash -lm

test/unit_cuckoo: test/unit_cuckoo.c test/unit.h $(CORE_SRCS) $(CORE_HDRS)
	$(CC) $(CORE_CFLAGS) -o $@ test/unit_cuckoo.c $(CORE_SRCS) -lmurmurhash -lm

# the core with a layout of the tests' own, added as CONTRIBUTING.md says
test/unit_layout: test/unit_layout.c test/unit_layout_toy.c test/unit.h $(CORE_SRCS) $(CORE_HDRS)
	$(CC) $(CORE_CFLAGS) -DBLOOM_TOY_LAYOUT -o $@ test/unit_layout.c test/unit_layout_toy.c $(CORE_SRCS) -lmurmurhash -lm

test/unit_hash: test/unit_hash.c test/unit.h src/bloom_hash.h
	$(CC) $(CORE_CFLAGS) -o $@ test/unit_hash.c -lmurmurhash

bench/hash_micro: bench/hash_micro.c src/bloom_hash.h
	$(CC) $(CORE_CFLAGS) -o $@ bench/hash_micro.c -lmurmurhash

.PHONY: deps unit unit-hash unit-sizing unit-cuckoo unit-layout bench-sizing test demo check-all bench \
	bench-1b bench-index bench-stored bench-hash fuzz check-symbols check-style check-path check-citus check-versions

deps:
	@bash scripts/deps.sh

unit: test/unit_core unit-hash unit-sizing unit-cuckoo unit-layout
	./test/unit_core

unit-layout: test/unit_layout
	./test/unit_layout

unit-cuckoo: test/unit_cuckoo
	./test/unit_cuckoo

unit-hash: test/unit_hash
	./test/unit_hash

unit-sizing: test/unit_sizing
	./test/unit_sizing

# The server's own exported functions take precedence over a loaded
# library's: one of ours with the same name would silently call the server's.
# And every C symbol an install or upgrade script names, released ones
# included, must be exported (scripts/check-script-symbols.py).
check-symbols: all
	python3 scripts/check-script-symbols.py --self-test $(shlib)
	@nm -D --defined-only $(shlib) | awk '{print $$3}' | sort > .symbols.ours
	@nm -D --defined-only $(shell $(PG_CONFIG) --bindir)/postgres | awk '{print $$3}' | sort > .symbols.server
	@clash=$$(comm -12 .symbols.ours .symbols.server); rm -f .symbols.ours .symbols.server; \
	if [ -n "$$clash" ]; then echo "symbols that clash with the server's: $$clash"; exit 1; fi; \
	echo "check-symbols: no exported name clashes with the server's"

# A layout's id and table are named only in its own file, the registry and
# the places scripts/check-layouts.py allows (CONTRIBUTING.md: Adding a layout);
# every filter kind's entry is complete, and only the entries call the cuckoo
# core or a layout's callbacks (scripts/check-kinds.py; CONTRIBUTING.md: The
# kind table).
.PHONY: check-layouts
check-layouts:
	python3 scripts/check-layouts.py --self-test
	python3 scripts/check-kinds.py --self-test

# House rules a script can check: no function in src/ over 80 lines (the
# script is held to a sample of its own first: --self-test).
check-style:
	python3 scripts/check-function-length.py --self-test
	python3 scripts/check-function-length.py

# A check of any type and layout enters at most 4 source files, measured
# with callgrind on the installed extension (bench/check_path.sh).
check-path: install
	EXTRA_PACKAGES=valgrind bash scripts/deps.sh
	bash bench/check_path.sh $(shell $(PG_CONFIG) --bindir)

# Build, install, then run every suite against a throwaway cluster, and both
# clients' tests against servers of their own.  pg_virtualenv -t points
# PGHOST, PGPORT, PGUSER and PGDATABASE at its own cluster and unsets
# PGHOSTADDR and PGSERVICE, so installcheck (which drops and creates
# contrib_regression) never reaches a server the caller's environment names;
# a caller's PGPORT would become that cluster's port (and one in use would
# fail its start), so it is unset first.  A plain `make installcheck` runs
# against the server of the caller's PG* environment, as PGXS's always does.
# test/decoy/check_decoy.sh (make check-decoy) holds all of this to a decoy.
PG_VIRTUALENV = env -u PGPORT pg_virtualenv -t -v $(PG_MAJOR)

test: deps
	$(MAKE) check-style
	$(MAKE) all
	$(MAKE) check-symbols
	$(MAKE) check-layouts
	$(MAKE) install
	$(MAKE) unit
	$(MAKE) check-path
	$(PG_VIRTUALENV) $(MAKE) installcheck
	$(MAKE) check-python
	$(MAKE) check-java

demo: deps
	$(MAKE) all
	$(MAKE) install
	$(PG_VIRTUALENV) psql -X -v ON_ERROR_STOP=1 -f demo/demo.sql

HARDENING_SCRIPTS = $(sort $(filter-out test/hardening/lib.sh,$(wildcard test/hardening/*.sh)))

# Everything: the fast suite, then each heavy check (test/hardening/*.sh)
# against its own throwaway cluster, all of them even if one fails, then the
# fuzzers.  STRESS_SECONDS, CRASH_CYCLES, FUZZ_SECONDS pass through.  The
# scripts that use the server of the PG* environment refuse to run outside
# pg_virtualenv (test/hardening/lib.sh: require_pg_env_server).
check-all: test
	@failed=""; \
	for script in $(HARDENING_SCRIPTS); do \
		echo "== $$script"; \
		$(PG_VIRTUALENV) bash $$script || failed="$$failed $$script"; \
	done; \
	if [ -n "$$failed" ]; then echo "check-all: FAILED:$$failed"; exit 1; fi
	$(MAKE) fuzz

fuzz:
	bash fuzz/run.sh

bench-hash: bench/hash_micro
	./bench/hash_micro

bench-sizing: test/unit_sizing
	./test/unit_sizing --bench

# A coordinator and two workers of Citus on loopback (test/citus/check_citus.sh),
# running this tree's build from a private mirror of the installation.  With
# CITUS_SRC (a citusdata/citus 13.2.x checkout) Citus is built and installed
# into the PostgreSQL of pg_config first.  Not part of test or check-all.
CITUS_SRC ?=

check-citus: deps
	@if [ -n "$(CITUS_SRC)" ]; then bash scripts/build-citus.sh "$(CITUS_SRC)"; fi
	bash test/citus/check_citus.sh

bench: deps
	$(MAKE) all
	$(MAKE) install
	bash bench/bench.sh

# only the bloomfilter index against a btree (bench/index.sh; part of bench)
bench-index: deps
	$(MAKE) all
	$(MAKE) install
	$(PG_VIRTUALENV) -o shared_buffers=3GB bash bench/index.sh

# only checks of stored filters: point checks of every kind, batches against
# a btree, joins (bench/stored.sh); not part of make test
bench-stored: deps
	$(MAKE) all
	$(MAKE) install
	$(PG_VIRTUALENV) bash bench/stored.sh

# ---- packaging and release (CONTRIBUTING.md: Releasing); not part of make test ----

# a sharded filter of 1,000,000,000 keys (BENCH_1B_N); not part of make test
bench-1b: deps
	$(MAKE) all
	$(MAKE) install
	bash bench/bench_1b.sh

# every relative link and anchor in the Markdown documents resolves
.PHONY: check-docs
check-docs:
	python3 scripts/check-docs.py

# ---- packaging and release (CONTRIBUTING.md: Releasing); not part of make test ----
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

# ---- Python client: clients/python (see its README) ----
# A virtualenv over Debian's python3 with Debian's psycopg 3, pytest and numpy
# (PyPI may be out of reach); mmh3 is added when pip can get it, otherwise
# the client hashes through the server's own libmurmurhash.  The tests start
# a private server (initdb in a temporary directory, as postgres when run as
# root, on a Unix socket there only) from BLOOMFILTER_PG_BINDIR, else
# pg_config --bindir, against the installed extension: run `make install`
# first, or point BLOOMFILTER_PG_BINDIR at a mirror scripts/check-version.sh
# made.  PGHOST, PGPORT and every other libpq variable are ignored (removed
# from the tests' environment).  To use a server of your own instead, set
# BLOOMFILTER_TEST_DSN: the tests then create a database of their own there
# (pgbloomfilter_test_ and a random suffix) and drop only that one.

PYTHON3 ?= /usr/bin/python3
PYCLIENT = clients/python

.PHONY: check-python
check-python:
	@EXTRA_PACKAGES="python3-venv python3-setuptools python3-wheel python3-psycopg python3-pytest python3-numpy libmurmurhash2" bash scripts/deps.sh
	test -x $(PYCLIENT)/.venv/bin/python || $(PYTHON3) -m venv --system-site-packages $(PYCLIENT)/.venv
	$(PYCLIENT)/.venv/bin/python -m pip install -q --no-deps --no-build-isolation -e $(PYCLIENT)
	@$(PYCLIENT)/.venv/bin/python -m pip install -q --timeout 10 --retries 0 'mmh3>=3' >/dev/null 2>&1 \
		|| echo "check-python: mmh3 not installable here; hashing through libmurmurhash"
	cd $(PYCLIENT) && .venv/bin/python -m pytest -q -p no:cacheprovider

# ---- Java client: clients/java (see its README) ----
# javac and jar from Debian's JDK, JUnit 5 and the PostgreSQL JDBC driver
# from Debian's packages (nothing downloaded).  The tests start a private
# server (initdb in a temporary directory, as postgres when run as root, TCP
# on 127.0.0.1 for JDBC, on a port the system hands out, retried should
# another process take it first) from BLOOMFILTER_PG_BINDIR, else
# pg_config --bindir, against the installed extension: run `make install`
# first.  The server programs run without the libpq variables, and the URL
# names host, port, database and user, so PGHOST and the like reach
# nothing.  To use a server of your own instead, set
# BLOOMFILTER_TEST_JDBC_URL: the tests then create a database of their own
# there (pgbloomfilter_test_ and a random suffix) and drop only that one.
# bench-java compares checks/s with Guava's BloomFilter (Debian's
# libguava-java).

JAVACLIENT = clients/java

.PHONY: check-java bench-java
check-java:
	@EXTRA_PACKAGES="default-jdk-headless junit5 libpostgresql-jdbc-java" bash scripts/deps.sh
	$(MAKE) -C $(JAVACLIENT) test

bench-java:
	@EXTRA_PACKAGES="default-jdk-headless libguava-java" bash scripts/deps.sh
	$(MAKE) -C $(JAVACLIENT) bench

# Both clients' tests, pg_virtualenv as make test calls it and
# scripts/check-version.sh, each with every libpq variable naming a decoy
# cluster that must see no connection, and the clients' opt-in variables
# aimed at the decoy, whose databases must be as before
# (test/decoy/check_decoy.sh).  Not part of test: about ten minutes.
.PHONY: check-decoy
check-decoy:
	bash test/decoy/check_decoy.sh

# The suite on every supported major: 15 (the system's, through a private
# mirror: nothing is installed there), 17 and 18 (scratch builds under
# $(BF_PG_ROOT), made by scripts/build-pg.sh if missing, which takes a while
# the first time), then pg_upgrade from 15 to each of UPGRADE_TO (15 and that
# version must be in CHECK_VERSIONS: they install the extension it uses).
# Not to 18 by default: Debian's 15.20 stamps every column with a
# "pg_attver" attribute option that 18.6 does not know, so pg_upgrade to 18
# fails on any user table, ours or not (CONTRIBUTING.md: PostgreSQL versions).  All
# of them run even if one fails; a summary line each, the test lines of a
# success or the end of the log of a failure.  Not part of test: CI does not
# run it.
CHECK_VERSIONS ?= 15 17 18
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
	echo; echo "check-versions summary (logs in $(BF_PG_ROOT)/check-*.log):"; printf "$$summary"; \
	if [ -n "$$failed" ]; then echo "check-versions: FAILED:$$failed"; exit 1; fi
