#!/bin/bash
# Build the libFuzzer harnesses (clang-14, ASan + UBSan) into fuzz/build/ and
# run each one for a bounded time or number of executions, on a copy of the
# checked-in seed corpus.  Exits non-zero if any harness reports a crash, a
# leak, a sanitizer error or a failed check.  See fuzz/README.md.
#
# Environment:
#   FUZZ_SECONDS     time limit per harness (default 60 unless FUZZ_RUNS is set)
#   FUZZ_RUNS        execution limit per harness (none by default)
#   FUZZ_HARNESSES   which harnesses to run (default "text binary hash cuckoo")
#   FUZZ_CC          compiler (default clang-14)
#   FUZZ_REGEN_CORPUS=1  rewrite fuzz/corpus/ with fuzz/gen_corpus.c first
#   FUZZ_ARGS        extra libFuzzer arguments, appended as they are
set -euo pipefail
cd "$(dirname "$0")/.."

CC=${FUZZ_CC:-clang-14}
HARNESSES=${FUZZ_HARNESSES:-text binary hash cuckoo}
BUILD=fuzz/build

# ---- limits ----
limits=()
if [ -n "${FUZZ_RUNS:-}" ]; then
	limits+=("-runs=$FUZZ_RUNS")
	[ -n "${FUZZ_SECONDS:-}" ] && limits+=("-max_total_time=$FUZZ_SECONDS")
else
	limits+=("-max_total_time=${FUZZ_SECONDS:-60}")
fi
if [ -z "${FUZZ_RUNS:-}" ] && [ "${FUZZ_SECONDS:-60}" = "0" ]; then
	echo "fuzz: FUZZ_SECONDS=0 means no limit; set FUZZ_RUNS too" >&2
	exit 2
fi

# ---- tools ----
EXTRA_PACKAGES="clang-14 libclang-rt-14-dev" bash scripts/deps.sh

# ---- build ----
mkdir -p $BUILD
CFLAGS=(-g -O1 -fno-omit-frame-pointer -std=c11 -Wall -Wextra -Isrc
		-fsanitize=fuzzer,address,undefined,float-divide-by-zero
		-fno-sanitize-recover=all)
for h in $HARNESSES; do
	echo "fuzz: building $BUILD/fuzz_$h"
	$CC "${CFLAGS[@]}" -o $BUILD/fuzz_$h fuzz/fuzz_$h.c src/core/*.c -lmurmurhash -lm
done

if [ "${FUZZ_REGEN_CORPUS:-0}" = "1" ]; then
	$CC -O2 -std=c11 -Wall -Wextra -Isrc -o $BUILD/gen_corpus fuzz/gen_corpus.c \
		src/core/*.c -lmurmurhash -lm
	rm -rf fuzz/corpus/binary fuzz/corpus/text
	mkdir -p fuzz/corpus/binary fuzz/corpus/text
	$BUILD/gen_corpus fuzz/corpus
	$CC -O2 -std=c11 -Wall -Wextra -Isrc -o $BUILD/gen_cuckoo_corpus fuzz/gen_cuckoo_corpus.c \
		src/core/*.c -lmurmurhash -lm
	rm -rf fuzz/corpus/cuckoo
	mkdir -p fuzz/corpus/cuckoo
	$BUILD/gen_cuckoo_corpus fuzz/corpus
fi

# ---- run ----
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

declare -A max_len=([text]=5600 [binary]=4144 [hash]=64 [cuckoo]=4096)
status=0
summary=()
for h in $HARNESSES; do
	corpus=$BUILD/corpus/$h
	artifacts=$BUILD/artifacts/$h
	log=$BUILD/fuzz_$h.log
	rm -rf "$corpus" "$artifacts"
	mkdir -p "$BUILD/corpus" "$artifacts"
	cp -r fuzz/corpus/$h "$corpus"

	args=("${limits[@]}" -max_len=${max_len[$h]:-4096} -timeout=30
		  -rss_limit_mb=2048 -print_final_stats=1
		  -artifact_prefix="$artifacts/")
	[ -f fuzz/$h.dict ] && args+=(-dict=fuzz/$h.dict)
	# shellcheck disable=SC2206
	[ -n "${FUZZ_ARGS:-}" ] && args+=($FUZZ_ARGS)
	echo "fuzz: $BUILD/fuzz_$h ${args[*]} $corpus"

	start=$(date +%s.%N)
	rc=0
	$BUILD/fuzz_$h "${args[@]}" "$corpus" > "$log" 2>&1 || rc=$?
	end=$(date +%s.%N)

	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	execs=${execs:-?}
	secs=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
	rate=$(echo "$execs $secs" | awk '$2 > 0 && $1 ~ /^[0-9]+$/ { printf "%d", $1 / $2; next } { print "?" }')

	result=clean
	if [ $rc -ne 0 ] ||
		grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|fuzz check failed|deadly signal|SUMMARY: ' "$log" ||
		[ -n "$(ls -A "$artifacts")" ]; then
		result="FAILED (exit $rc)"
		status=1
		echo "fuzz: fuzz_$h FAILED; log $log, inputs in $artifacts/:"
		ls -l "$artifacts"
		grep -E 'ERROR|runtime error|fuzz check failed|SUMMARY|#[0-9]+ 0x' "$log" | head -40
	fi
	summary+=("$(printf '%-12s %12s %8s %9s  %s' "fuzz_$h" "$execs" "$secs" "$rate" "$result")")
done

echo
printf '%-12s %12s %8s %9s  %s\n' harness executions seconds "exec/s" result
for line in "${summary[@]}"; do
	echo "$line"
done
exit $status
