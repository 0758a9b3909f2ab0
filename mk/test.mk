# The test suite and the checks of the code's rules (CONTRIBUTING.md: Tests).
# Included by the Makefile, after PGXS.

.PHONY: deps unit unit-hash unit-sizing unit-cuckoo unit-layout unit-keytype unit-guava test demo check-all fuzz \
	check-symbols check-layers check-layouts check-style check-docs check-figures

# The one test command (what CI runs, .ci/run): installs what building and
# testing need (scripts/deps.sh), checks the code's rules, builds and
# installs, runs the core's unit tests, every pg_regress and isolation
# suite against a throwaway cluster, dumps and restores a database upgraded
# from every release, the Python,
# Java and Rust clients' tests and the Guava interop check against servers
# of their own, a short run of the equality oracle, and a short run of the
# documented patterns under a model.
test: deps
	$(MAKE) check-style
	$(MAKE) check-docs
	$(MAKE) check-release
	$(MAKE) check-figures
	$(MAKE) all
	$(MAKE) check-symbols
	$(MAKE) check-layers
	$(MAKE) check-layouts
	$(MAKE) install
	$(MAKE) unit
	$(PG_VIRTUALENV) $(MAKE) installcheck
	$(MAKE) check-upgrade-dump
	$(MAKE) check-asan
	$(MAKE) check-python
	$(MAKE) check-java
	$(MAKE) check-rust
	$(MAKE) check-interop-guava
	$(MAKE) check-oracle ORACLE_TRIPLES=20000
	$(MAKE) check-patterns PATTERNS_STEPS=300

# ---- the core's unit tests: the core alone, no server ----

CORE_CFLAGS = -O2 -g -Wall -Wextra -std=c11 -Isrc
CORE_HDRS = $(wildcard src/core/*.h)

test/unit_core: test/unit_core.c test/unit.h $(CORE_SRCS) $(CORE_HDRS)
	$(CC) $(CORE_CFLAGS) -o $@ test/unit_core.c $(CORE_SRCS) -lmurmurhash -lm

test/unit_sizing: test/unit_sizing.c test/unit.h $(CORE_SRCS) $(CORE_HDRS)
	$(CC) $(CORE_CFLAGS) -o $@ test/unit_sizing.c $(CORE_SRCS) -lmurmurhash -lm

test/unit_cuckoo: test/unit_cuckoo.c test/unit.h $(CORE_SRCS) $(CORE_HDRS)
	$(CC) $(CORE_CFLAGS) -o $@ test/unit_cuckoo.c $(CORE_SRCS) -lmurmurhash -lm

# the core with a layout of the tests' own, added as CONTRIBUTING.md says
test/unit_layout: test/unit_layout.c test/unit_layout_toy.c test/unit.h $(CORE_SRCS) $(CORE_HDRS)
	$(CC) $(CORE_CFLAGS) -DBLOOM_TOY_LAYOUT -o $@ test/unit_layout.c test/unit_layout_toy.c $(CORE_SRCS) -lmurmurhash -lm

# the core with a key type of the tests' own, added as CONTRIBUTING.md says
test/unit_keytype: test/unit_keytype_toy.c test/unit.h $(CORE_SRCS) $(CORE_HDRS)
	$(CC) $(CORE_CFLAGS) -DBLOOM_TOY_KEY_TYPE -o $@ test/unit_keytype_toy.c $(CORE_SRCS) -lmurmurhash -lm

test/unit_guava: test/unit_guava.c test/unit.h $(CORE_SRCS) $(CORE_HDRS)
	$(CC) $(CORE_CFLAGS) -o $@ test/unit_guava.c $(CORE_SRCS) -lmurmurhash -lm

test/unit_hash: test/unit_hash.c test/unit.h src/core/hash.h
	$(CC) $(CORE_CFLAGS) -o $@ test/unit_hash.c -lmurmurhash

deps:
	@bash scripts/deps.sh

unit: test/unit_core unit-hash unit-sizing unit-cuckoo unit-layout unit-keytype unit-guava
	./test/unit_core

unit-guava: test/unit_guava
	./test/unit_guava

unit-layout: test/unit_layout
	./test/unit_layout

unit-keytype: test/unit_keytype
	./test/unit_keytype

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
# every filter kind's entry is complete (scripts/check-kinds.py;
# CONTRIBUTING.md: The kind table).
check-layouts:
	python3 scripts/check-layouts.py --self-test
	python3 scripts/check-kinds.py --self-test

# The layer order, core < type < am, is declared in scripts/check-layers.py:
# a file includes headers of its own folder and those below, never above,
# and the includes have no cycle; read from the objects' symbols (nm), no
# file calls a layer above its own and the calls between files have no
# cycle; a header of src/type declares the functions of one module.
# `python3 scripts/check-layers.py --report` lists every file's level and
# calls and every header's modules (CONTRIBUTING.md: Source layout).
check-layers: all
	python3 scripts/check-layers.py --self-test

# House rules a script can check: no function in src/ over 80 lines (the
# script is held to a sample of its own first: --self-test).
check-style:
	python3 scripts/check-function-length.py --self-test
	python3 scripts/check-function-length.py

# One suite in seconds, while working on it: `make check-one SUITE=ops`
# runs setup (which creates the extension by walking the upgrade chain) and
# that pg_regress suite, or that isolation spec when SUITE names one in
# specs/, on a throwaway cluster against the installed build (make install
# first).  The diffs are in regression.diffs or output_iso/, as usual.
.PHONY: check-one
check-one:
	@test -n "$(SUITE)" || { echo "check-one: name a suite, e.g. make check-one SUITE=ops"; exit 2; }
	@if [ -f specs/$(SUITE).spec ]; then \
		$(PG_VIRTUALENV) $(MAKE) installcheck REGRESS=setup ISOLATION=$(SUITE); \
	elif [ -f sql/$(SUITE).sql ]; then \
		$(PG_VIRTUALENV) $(MAKE) installcheck REGRESS="setup $(SUITE)" ISOLATION=; \
	else \
		echo "check-one: no suite sql/$(SUITE).sql or spec specs/$(SUITE).spec"; exit 2; \
	fi

demo: deps
	$(MAKE) all
	$(MAKE) install
	$(PG_VIRTUALENV) psql -X -v ON_ERROR_STOP=1 -f demo/demo.sql

HARDENING_SCRIPTS = $(sort $(filter-out test/hardening/lib.sh,$(wildcard test/hardening/*.sh)))

# Everything: the fast suite, then each heavy check (test/hardening/*.sh)
# against its own throwaway cluster, all of them even if one fails, then the
# fuzzers.  STRESS_SECONDS, CRASH_CYCLES, FUZZ_SECONDS pass through.
# Every released version's install, with objects that use the forms later
# releases rename or replace, updated to this one, dumped with pg_dump
# (plain and custom) and restored into a fresh install: no error, every
# object, the same answers (test/hardening/upgrade_dump_restore.sh, about
# 20 s; CONTRIBUTING.md: Tests).
.PHONY: check-upgrade-dump
check-upgrade-dump:
	$(PG_VIRTUALENV) bash test/hardening/upgrade_dump_restore.sh

# the pg_regress and isolation suites once more against a library built
# with AddressSanitizer and UBSan (test/hardening/asan.sh, about 3 minutes):
# a read of freed or unowned memory rarely fails a test otherwise
.PHONY: check-asan
check-asan:
	$(PG_VIRTUALENV) bash test/hardening/asan.sh

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

# test/vectors/keys.json, the key-type vectors the clients' tests read, as
# this build's server writes them from src/core/keytypes.c: after a change
# to that table or to hashing.  sql/key_types.sql leaves them in results/
# (and fails while they differ from the committed file); like installcheck,
# it needs the build installed.
.PHONY: vectors
vectors:
	-$(MAKE) check-one SUITE=key_types
	cp results/key_vectors.json test/vectors/keys.json

# every relative link and anchor in the Markdown documents resolves, and
# the clients' table of layouts and key types is current
check-docs:
	python3 scripts/check-docs.py
	python3 scripts/clients_table.py --check

# bench/figures.py rewrites a sample README and RESULTS from
# bench/figures.sample.tsv: every row, markers kept, idempotent (no server,
# no gnuplot; well under a second)
check-figures:
	python3 bench/figures.py --self-test

# ---- the equality oracle: test/oracle (CONTRIBUTING.md: The equality oracle) ----
# Every way of asking about a key (filter functions and operators, counts,
# cuckoo deletes, shards, the index, the clients) against SQL's own `=` over
# generated members and probes, in a throwaway cluster of the installed
# extension (ORACLE_PG_BINDIR: another installation's bindir).  Exit status
# 1 on any silent absence.  ORACLE_SEED reproduces a run; make test runs
# ORACLE_TRIPLES=20000.  A run asks in a UTF8 database, then in a database
# of each of ORACLE_ENCODINGS (the text-like key types only, a quarter of
# the triples each): the encoding reaches a hash through text alone.

ORACLE_TRIPLES ?= 1000000
ORACLE_ENCODINGS ?= LATIN1 WIN1251 EUC_JP SQL_ASCII

.PHONY: check-oracle
check-oracle:
	@EXTRA_PACKAGES="python3-psycopg" bash scripts/deps.sh
	PG_CONFIG=$(PG_CONFIG) $(PYTHON3) test/oracle/oracle.py --triples $(ORACLE_TRIPLES)
	@for enc in $(ORACLE_ENCODINGS); do \
		echo "check-oracle: database encoding $$enc"; \
		PG_CONFIG=$(PG_CONFIG) $(PYTHON3) test/oracle/oracle.py --triples $$(( $(ORACLE_TRIPLES) / 4 )) \
			--encoding $$enc || exit 1; \
	done

# ---- the documented patterns under a model: test/patterns (CONTRIBUTING.md:
# The documented patterns under a model) ----
# The SQL of each maintenance pattern README.md and docs/patterns.md teach
# (the blocks marked <!-- pattern: NAME -->), run as written in a throwaway
# cluster of the installed extension (PATTERNS_PG_BINDIR: another
# installation's bindir) under random INSERT, COPY, UPDATE, DELETE, ON
# CONFLICT, MERGE and TRUNCATE from sessions in several time zones.  Exit
# status 1 on any live key not found or promised rebuild not equal.
# PATTERNS_SEED reproduces a run; make test runs PATTERNS_STEPS=300.

PATTERNS_STEPS ?= 10000

.PHONY: check-patterns
check-patterns:
	@EXTRA_PACKAGES="python3-psycopg" bash scripts/deps.sh
	PG_CONFIG=$(PG_CONFIG) $(PYTHON3) test/patterns/model.py --steps $(PATTERNS_STEPS)
