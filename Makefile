# bloomfilter: Bloom and cuckoo filters as PostgreSQL types, with an index
# access method.  Plain PGXS:
#
#   make && make install    build, and install into the PostgreSQL of pg_config
#   make test               what CI runs: every check and suite (mk/test.mk)
#
# The other targets are grouped by purpose in mk/ (CONTRIBUTING.md says what
# each one does): test.mk, the test suite and the checks of the code's rules;
# versions.mk, other PostgreSQL versions and Citus; clients.mk, the Python
# and Java clients; bench.mk, the benchmarks; release.mk, packages and
# release archives.

# bloomfilter_citus: the per-type aggregates Citus needs, a companion
# extension with its own control file and scripts and bloomfilter's library
EXTENSION = bloomfilter bloomfilter_citus
MODULE_big = bloomfilter

# The sources in layers, lowest first (scripts/check-layers.py holds the
# order): src/core, plain C without server headers, which the unit tests,
# fuzzers and benchmarks link alone; src/type, the PostgreSQL glue of both
# SQL types; src/am, the index access method.
CORE_SRCS = $(sort $(wildcard src/core/*.c))
OBJS = $(CORE_SRCS:.c=.o) $(patsubst %.c,%.o,$(sort $(wildcard src/type/*.c src/type/keys/*.c src/am/*.c)))
PG_CPPFLAGS = -I$(srcdir)/src
SHLIB_LINK = -lmurmurhash
DATA = $(wildcard bloomfilter--*.sql bloomfilter_citus--*.sql)

# setup first: it creates the extension the other suites use; io_soft only
# on servers with soft input errors (16+), added below
REGRESS = setup $(filter-out setup io_soft,$(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql))))
REGRESS_OPTS = --encoding=UTF8
ISOLATION = $(patsubst specs/%.spec,%,$(sort $(wildcard specs/*.spec)))

# the C programs of mk/test.mk and mk/bench.mk (PGXS reads this before
# the includes below)
EXTRA_CLEAN = test/unit_core test/unit_hash test/unit_sizing test/unit_cuckoo \
	test/unit_layout test/unit_keytype bench/hash_micro bench/mexists_client

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

ifeq ($(shell test $(MAJORVERSION) -ge 16 && echo yes),yes)
REGRESS += io_soft
endif

# PGXS does not track headers; every object depends on ours
$(OBJS): $(wildcard src/*/*.h src/*/*/*.h)

# the major version of the pg_virtualenv clusters of tests and benchmarks
PG_MAJOR ?= 15
# pg_virtualenv -t points PGHOST, PGPORT, PGUSER and PGDATABASE at its own
# cluster and unsets PGHOSTADDR and PGSERVICE, so installcheck (which drops
# and creates contrib_regression) never reaches a server the caller's
# environment names; a caller's PGPORT would become that cluster's port (and
# one in use would fail its start), so it is unset first.  A plain
# `make installcheck` runs against the server of the caller's PG*
# environment, as PGXS's always does (make check-decoy holds this).
PG_VIRTUALENV = env -u PGPORT pg_virtualenv -t -v $(PG_MAJOR)

include mk/test.mk mk/versions.mk mk/clients.mk mk/bench.mk mk/release.mk mk/interop.mk
