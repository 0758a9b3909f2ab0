#!/bin/bash
# make bench: every figure and its baseline measured in one run, each script
# in a throwaway cluster of its own, then README's Figures, a section of
# bench/RESULTS.md and bench/figures.svg written from that run's results
# (bench/figures.py).  BENCH_N (default 10,000,000) scales the keys and
# probes; BENCH_BIG (default 100,000,000) sizes the large point-check
# filter; each script's own knobs are in its header.
#
# Each script writes its human tables to stdout and its README rows, as
# bench/figure.sh says, to bench/figures.tsv (BENCH_FIGURES_OUT names
# another file), committed with what it makes: `make figures` writes them
# again from it.  A run that stops leaves the old file.  BENCH_PG_BINDIR runs the clusters from
# another installation's bindir (a private build) instead of pg_virtualenv
# of the system's PostgreSQL 15; BENCH_NO_DEPS=1 installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

# postgresql-hll is the comparison for the build step
# redis-server (with redis-benchmark) for bench/mexists.sh, which loads the
# RedisBloom module named by REDISBLOOM_MODULE and is SKIPPED without it;
# gnuplot draws the chart
[ "${BENCH_NO_DEPS:-}" = 1 ] ||
	EXTRA_PACKAGES="postgresql-15-hll bc redis-server gnuplot-nox" bash scripts/deps.sh

results=${BENCH_FIGURES_OUT:-bench/figures.tsv}
mkdir -p bench/out
export BENCH_FIGURES
BENCH_FIGURES=$PWD/bench/out/figures.tsv.partial
bindir=${BENCH_PG_BINDIR:-/usr/lib/postgresql/15/bin}
{
	printf 'META\trelease\t%s\n' "$(sed -n "s/^default_version = '\(.*\)'/\1/p" bloomfilter.control)"
	printf 'META\tcommit\t%s\n' "$(git describe --always --dirty 2> /dev/null || echo unknown)"
	printf 'META\tdate\t%s\n' "$(date -u +%Y-%m-%d)"
	printf 'META\tcores\t%s\n' "$(nproc)"
	printf 'META\tmemory\t%s GB\n' "$(awk '$1 == "MemTotal:" { printf "%.0f", $2 / 1048576 }' /proc/meminfo)"
	printf 'META\tpostgres\t%s\n' "$("$bindir/postgres" --version | sed 's/^postgres (PostgreSQL) //')"
	printf 'META\trounds\t%s\n' "${BENCH_RUNS:-3}"
} > "$BENCH_FIGURES"

# step SETTINGS SCRIPT: run the script against a throwaway cluster of
# Debian's default settings but SETTINGS ("name=value ...", or ""), which
# its figures carry.  A server as users run it, except where a measure
# needs more: shared_buffers large enough to hold the tables, since those
# measure CPU, not disk.
step() {
	local opts=() s
	echo "== $2 ${1:+($1)}" >&2
	if [ -z "${BENCH_PG_BINDIR:-}" ]; then
		for s in $1; do opts+=(-o "$s"); done
		BENCH_SETTINGS=$1 pg_virtualenv -t -v 15 "${opts[@]}" bash "$2"
	else
		for s in $1; do opts+=("-c $s"); done
		(
			# shellcheck source=scripts/private-pg.sh
			BLOOMFILTER_PG_BINDIR=$BENCH_PG_BINDIR . scripts/private-pg.sh
			private_pg_start bf_bench '' "${opts[*]}"
			PGHOST=$WORK/sock PGPORT=$PORT PGUSER=postgres PATH=$BINDIR:$PATH \
				BENCH_SETTINGS=$1 bash "$2"
		)
	fi
}

# probes, builds, stored point and batch checks, sizes, the rate
step shared_buffers=3GB bench/run.sh
# the bloomfilter index against a btree (issue 17's measures)
step shared_buffers=3GB bench/index.sh
# bf_contains_all against RedisBloom's BF.MEXISTS, one core each (1.5)
step "" bench/mexists.sh
# stored point checks of every kind (1.3)
step "" bench/stored.sh
# rolling windows of stored filters, on default settings (1.5)
step "" bench/window.sh
# checks through partitioned indexes (issue 34)
step "" bench/partitions.sh
# the ordered template aggregate's shape form (issue 34)
step "" bench/ordered_template.sh

mv "$BENCH_FIGURES" "$results"
python3 bench/figures.py "$results"
