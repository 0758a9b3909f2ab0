#!/bin/bash
# make bench-rust: the Rust client's contains(i64) against the Java client's
# mightContain(long) on the same 12 MB filter and probes, one thread each,
# the two programs run in turn (Rust, Java, Rust, Java, ...) so that load
# on the host falls on both alike; each reports its best of several rounds,
# and the best over the runs is compared.  Default server settings play no
# part: no server is involved.
set -euo pipefail
cd "$(dirname "$0")"
RUNS=${RUNS:-3}
ROUNDS=${ROUNDS:-5}
CARGO=${CARGO:-/usr/bin/cargo}
export RUSTC=${RUSTC:-/usr/bin/rustc}
"$CARGO" build --offline --release --example bench
make -s -C ../java all >/dev/null
mkdir -p ../java/build/bench-classes
javac --release 17 -d ../java/build/bench-classes \
	-cp "../java/build/pgbloomfilter-$(cat ../java/VERSION).jar:/usr/share/java/guava.jar" \
	$(find ../java/src/bench/java -name '*.java')
best_rust=0
best_java=0
for run in $(seq "$RUNS"); do
	r=$(./target/release/examples/bench "$ROUNDS" | awk '/BloomFilter::contains/ {print $NF}')
	j=$(java -Xmx1g -cp "../java/build/pgbloomfilter-$(cat ../java/VERSION).jar:../java/build/bench-classes:/usr/share/java/guava.jar" \
		org.pgbloomfilter.Bench "$ROUNDS" | awk '/BloomFilter.mightContain/ {gsub(",", "", $NF); print $NF}')
	echo "run $run: Rust $r checks/s, Java $j checks/s"
	best_rust=$(awk -v a="$best_rust" -v b="$r" 'BEGIN {print (b > a) ? b : a}')
	best_java=$(awk -v a="$best_java" -v b="$j" 'BEGIN {print (b > a) ? b : a}')
done
awk -v r="$best_rust" -v j="$best_java" -v n="$RUNS" -v k="$ROUNDS" 'BEGIN {
	printf "contains(i64), 12 MB plain filter, one thread, best of %d runs x %d rounds:\n", n, k
	printf "  Rust  %14.0f checks/s\n  Java  %14.0f checks/s\n  Rust/Java %.2fx\n", r, j, r / j }'
