# The figures of one `make bench` run, sourced by each script bench.sh runs.
#
#   figure KEY MEASURE VALUE UNIT [BASELINE BASEVALUE [TARGET]]
#
# appends one line to $BENCH_FIGURES, tab-separated,
#
#   FIGURE  KEY  MEASURE  VALUE  UNIT  BASELINE  BASEVALUE  TARGET  SETTINGS
#
# where SETTINGS are the server settings bench.sh gave the script's cluster
# beyond Debian's defaults ($BENCH_SETTINGS, often none).  UNIT is one of
# s, ms, ns, bytes, fraction, count (less is better) or tps, checks/s (more
# is better); a VALUE that is not a number ("not measured: ...") is shown
# as it is.  bench/figures.py turns the lines into README's Figures, a
# section of bench/RESULTS.md and bench/figures.svg.  Without
# $BENCH_FIGURES (a script run alone) nothing is written.
figure() {
	[ -n "${BENCH_FIGURES:-}" ] || return 0
	printf 'FIGURE\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" \
		"${5:-}" "${6:-}" "${7:-}" "${BENCH_SETTINGS:-}" >> "$BENCH_FIGURES"
}

# a count as the figures name it: 10000000 -> 10M, 100000 -> 100k
count_name() {
	if [ $(($1 % 1000000)) -eq 0 ]; then echo "$(($1 / 1000000))M"
	elif [ $(($1 % 1000)) -eq 0 ]; then echo "$(($1 / 1000))k"
	else echo "$1"; fi
}
