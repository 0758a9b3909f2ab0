#!/bin/bash
# make bench: every figure and its baseline measured in one run, in one
# throwaway cluster.  BENCH_N (default 10,000,000) scales the keys and probes;
# BENCH_BIG (default 100,000,000) sizes the large point-check filter.
set -euo pipefail
cd "$(dirname "$0")/.."

# postgresql-hll is the comparison for the build step
EXTRA_PACKAGES="postgresql-15-hll bc" bash scripts/deps.sh

# shared_buffers large enough to hold the tables: we measure CPU, not disk
exec pg_virtualenv -v 15 \
	-o shared_buffers=3GB -o max_wal_size=8GB -o checkpoint_timeout=30min \
	-o max_worker_processes=8 -o max_parallel_workers=4 \
	bash bench/run.sh
