#!/bin/bash
# make bench: every figure and its baseline measured in one run, in one
# throwaway cluster.  BENCH_N (default 10,000,000) scales the keys and probes;
# BENCH_BIG (default 100,000,000) sizes the large point-check filter.
set -euo pipefail
cd "$(dirname "$0")/.."

# postgresql-hll is the comparison for the build step
# redis-server (with redis-benchmark) for bench/mexists.sh, which loads the
# RedisBloom module named by REDISBLOOM_MODULE and is SKIPPED without it
EXTRA_PACKAGES="postgresql-15-hll bc redis-server" bash scripts/deps.sh

# A server as users run it: Debian's defaults (no huge pages reserved,
# transparent huge pages as the kernel has them), except shared_buffers
# large enough to hold the tables, since we measure CPU, not disk.  Rows
# with other settings (THP always) are labelled as such in the table.
pg_virtualenv -t -v 15 -o shared_buffers=3GB bash bench/run.sh

# the bloomfilter index against a btree (issue 17's measures), own database
pg_virtualenv -t -v 15 -o shared_buffers=3GB bash bench/index.sh

# bf_contains_all against RedisBloom's BF.MEXISTS, one core each (1.5)
pg_virtualenv -t -v 15 bash bench/mexists.sh
