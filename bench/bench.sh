#!/bin/bash
# make bench: every figure and its baseline measured in one run, in one
# throwaway cluster.  BENCH_N (default 10,000,000) scales the keys and probes;
# BENCH_BIG (default 100,000,000) sizes the large point-check filter.
set -euo pipefail
cd "$(dirname "$0")/.."

# postgresql-hll is the comparison for the build step
EXTRA_PACKAGES="postgresql-15-hll bc" bash scripts/deps.sh

# Parallel workers map shared_buffers afresh, and on this kind of VM touching
# a 4 kB page for the first time costs ~11 us: without huge pages a worker
# spends longer faulting in the buffers than scanning them, and even
# count(*) gets slower with workers.  As root, reserve huge pages for the
# run and give the previous setting back afterwards.
huge=()
if [ "$(id -u)" -eq 0 ] && [ -w /proc/sys/vm/nr_hugepages ]; then
	old_hugepages=$(cat /proc/sys/vm/nr_hugepages)
	trap 'echo "$old_hugepages" > /proc/sys/vm/nr_hugepages' EXIT
	echo 1700 > /proc/sys/vm/nr_hugepages
	if [ "$(cat /proc/sys/vm/nr_hugepages)" -ge 1600 ]; then
		huge=(-o huge_pages=on)
	fi
fi

# shared_buffers large enough to hold the tables: we measure CPU, not disk
pg_virtualenv -v 15 \
	-o shared_buffers=3GB -o max_wal_size=8GB -o checkpoint_timeout=30min \
	-o max_worker_processes=8 -o max_parallel_workers=4 "${huge[@]}" \
	bash bench/run.sh
