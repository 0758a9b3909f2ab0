# bloomfilter: Bloom filter data type for PostgreSQL (PGXS)

EXTENSION = bloomfilter
MODULE_big = bloomfilter
# src/bloom_*.c: the core, plain C without server headers (unit tests and
# fuzzers link it alone); src/bloomfilter_*.c: the PostgreSQL glue
CORE_SRCS = $(sort $(wildcard src/bloom_*.c))
OBJS = $(CORE_SRCS:.c=.o) $(patsubst %.c,%.o,$(sort $(wildcard src/bloomfilter_*.c)))
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
$(OBJS): $(wildcard src/*.h)

# ---- developer entry points (see README) ----

PG_MAJOR ?= 15
CORE_CFLAGS = -O2 -g -Wall -Wextra -std=c11 -Isrc
EXTRA_CLEAN = test/unit_core test/unit_hash test/unit_sizing bench/hash_micro
CORE_HDRS = $(wildcard src/bloom_*.h)

test/unit_core: test/unit_core.c $(CORE_SRCS) $(CORE_HDRS)
	$(CC) $(CORE_CFLAGS) -o $@ test/unit_core.c $(CORE_SRCS) -lmurmurhash -lm

test/unit_sizing: test/unit_sizing.c $(CORE_SRCS) $(CORE_HDRS)
	$(CC) $(CORE_CFLAGS) -o $@ test/unit_sizing.c $(CORE_SRCS) -lmurmurhash -lm

test/unit_hash: test/unit_hash.c src/bloom_hash.h
	$(CC) $(CORE_CFLAGS) -o $@ test/unit_hash.c -lmurmurhash

bench/hash_micro: bench/hash_micro.c src/bloom_hash.h
	$(CC) $(CORE_CFLAGS) -o $@ bench/hash_micro.c -lmurmurhash

.PHONY: deps unit unit-hash unit-sizing bench-sizing test demo check-all bench bench-1b bench-hash fuzz check-symbols

deps:
	@bash scripts/deps.sh

unit: test/unit_core unit-hash unit-sizing
	./test/unit_core

unit-hash: test/unit_hash
	./test/unit_hash

unit-sizing: test/unit_sizing
	./test/unit_sizing

# The server's own exported functions take precedence over a loaded
# library's: one of ours with the same name would silently call the server's.
check-symbols: all
	@nm -D --defined-only $(shlib) | awk '{print $$3}' | sort > .symbols.ours
	@nm -D --defined-only $(shell $(PG_CONFIG) --bindir)/postgres | awk '{print $$3}' | sort > .symbols.server
	@clash=$$(comm -12 .symbols.ours .symbols.server); rm -f .symbols.ours .symbols.server; \
	if [ -n "$$clash" ]; then echo "symbols that clash with the server's: $$clash"; exit 1; fi; \
	echo "check-symbols: no exported name clashes with the server's"

# Build, install, then run every suite against a throwaway cluster.
test: deps
	$(MAKE) all
	$(MAKE) check-symbols
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

bench-hash: bench/hash_micro
	./bench/hash_micro

bench-sizing: test/unit_sizing
	./test/unit_sizing --bench

bench: deps
	$(MAKE) all
	$(MAKE) install
	bash bench/bench.sh

# a sharded filter of 1,000,000,000 keys (BENCH_1B_N); not part of make test
bench-1b: deps
	$(MAKE) all
	$(MAKE) install
	bash bench/bench_1b.sh

# ---- packaging and release (notes/packaging.md); not part of make test ----
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
