# bloomfilter: Bloom filter data type for PostgreSQL (PGXS)

EXTENSION = bloomfilter
MODULE_big = bloomfilter
OBJS = src/bloom_core.o src/bloomfilter_io.o src/bloomfilter_elem.o \
	src/bloomfilter_op.o src/bloomfilter_agg.o
SHLIB_LINK = -lmurmurhash
DATA = $(wildcard bloomfilter--*.sql)

# setup first: it creates the extension the other suites use
REGRESS = setup $(filter-out setup,$(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql))))
REGRESS_OPTS = --encoding=UTF8
ISOLATION = $(patsubst specs/%.spec,%,$(sort $(wildcard specs/*.spec)))

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS does not track headers; every object depends on ours
$(OBJS): src/bloomfilter.h src/bloom_core.h

# ---- developer entry points (see README) ----

PG_MAJOR ?= 15
CORE_CFLAGS = -O2 -g -Wall -Wextra -std=c11 -Isrc
EXTRA_CLEAN = test/unit_core

test/unit_core: test/unit_core.c src/bloom_core.c src/bloom_core.h
	$(CC) $(CORE_CFLAGS) -o $@ test/unit_core.c src/bloom_core.c -lmurmurhash -lm

.PHONY: deps unit test demo check-all bench fuzz check-citus

deps:
	@bash scripts/deps.sh

unit: test/unit_core
	./test/unit_core

# Build, install, then run every suite against a throwaway cluster.
test: deps
	$(MAKE) all
	$(MAKE) install
	$(MAKE) unit
	pg_virtualenv -t -v $(PG_MAJOR) $(MAKE) installcheck

demo: deps
	$(MAKE) all
	$(MAKE) install
	pg_virtualenv -t -v $(PG_MAJOR) psql -X -v ON_ERROR_STOP=1 -f demo/demo.sql

HARDENING_SCRIPTS = $(sort $(filter-out test/hardening/lib.sh,$(wildcard test/hardening/*.sh)))

# Everything: the fast suite, then each heavy check (test/hardening/*.sh)
# against its own throwaway cluster, all of them even if one fails, then the
# fuzzers.  STRESS_SECONDS, CRASH_CYCLES, FUZZ_SECONDS pass through.
check-all: test
	@failed=""; \
	for script in $(HARDENING_SCRIPTS); do \
		echo "== $$script"; \
		pg_virtualenv -t -v $(PG_MAJOR) bash $$script || failed="$$failed $$script"; \
	done; \
	if [ -n "$$failed" ]; then echo "check-all: FAILED:$$failed"; exit 1; fi
	$(MAKE) fuzz

fuzz:
	bash fuzz/run.sh

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
