# Benchmarks: measurements, not tests (CONTRIBUTING.md: Benchmarks;
# results in bench/RESULTS.md).  None is part of make test.

.PHONY: bench figures bench-1b bench-index bench-stored bench-mexists bench-window bench-points bench-partitions \
	bench-hash bench-sizing bench-path bench-template

bench/hash_micro: bench/hash_micro.c src/core/hash.h
	$(CC) $(CORE_CFLAGS) -o $@ bench/hash_micro.c -lmurmurhash

# bench/mexists.sh's client: one int8[] parameter in binary, pipelined
bench/mexists_client: bench/mexists_client.c
	$(CC) -O2 -Wall -o $@ bench/mexists_client.c -I$(shell $(PG_CONFIG) --includedir) -lpq

bench-hash: bench/hash_micro
	./bench/hash_micro

bench-sizing: test/unit_sizing
	./test/unit_sizing --bench

# every figure of README's table in one run, then the table, its section
# of bench/RESULTS.md and bench/figures.svg (bench/bench.sh, about 30
# minutes on 2 cores)
bench: deps
	$(MAKE) all
	$(MAKE) install
	bash bench/bench.sh

# the same table, section and chart again from bench/figures.tsv, the last
# run's results, without measuring (bench/figures.py)
figures:
	EXTRA_PACKAGES=gnuplot-nox bash scripts/deps.sh
	python3 bench/figures.py bench/figures.tsv

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

# only bf_contains_all against RedisBloom's BF.MEXISTS (bench/mexists.sh;
# part of bench): REDISBLOOM_MODULE names the module, else SKIPPED
bench-mexists: deps
	EXTRA_PACKAGES="redis-server bc" bash scripts/deps.sh
	$(MAKE) all
	$(MAKE) install
	$(PG_VIRTUALENV) bash bench/mexists.sh

# point checks of a stored filter and of the index against the one-row
# read and the bare statement, prepared and simple (bench/point_checks.sh)
bench-points: deps
	$(MAKE) all
	$(MAKE) install
	$(PG_VIRTUALENV) bash bench/point_checks.sh

# checks through a partitioned index of 30 and of 365 partitions against a
# partition's own index, and the last 7 of 365 asked by their own indexes
# (bench/partitions.sh)
bench-partitions: deps
	$(MAKE) all
	$(MAKE) install
	$(PG_VIRTUALENV) bash bench/partitions.sh

# checks against many stored filters in one query: rolling windows of 8, 24
# and 168 hourly buckets, 64 and 256 shards, "seen in the last 24 hours"
# for 340,000 users (bench/window.sh), on a server of default settings;
# not part of make test
bench-window: deps
	$(MAKE) all
	$(MAKE) install
	$(PG_VIRTUALENV) bash bench/window.sh

# a sharded filter of 1,000,000,000 keys (BENCH_1B_N); not part of make test
bench-1b: deps
	$(MAKE) all
	$(MAKE) install
	bash bench/bench_1b.sh

# the files a check, an index insert and an aggregate row pass through, and
# their instructions per call, measured with callgrind on the installed
# extension (bench/check_path.sh); the report goes to the top of
# bench/RESULTS.md.  A report, not a gate: bench/compare.sh guards speed.
bench-path: deps
	$(MAKE) all
	$(MAKE) install
	EXTRA_PACKAGES=valgrind bash scripts/deps.sh
	bash bench/check_path.sh $(shell $(PG_CONFIG) --bindir) > bench/out.path.md
	python3 bench/check_path.py --into bench/RESULTS.md bench/out.path.md
	rm -f bench/out.path.md

# bf_agg(k, bf_shape(T) ORDER BY ...) against bf_agg(k, T), T a 2.4 MB
# RedisBloom template, over 200,000 rows, and the old ordered form
# bf_agg(k, T ORDER BY k) over 500 (bench/ordered_template.sh; issue 34,
# item 5); not part of make test
bench-template: deps
	$(MAKE) all
	$(MAKE) install
	$(PG_VIRTUALENV) bash bench/ordered_template.sh
