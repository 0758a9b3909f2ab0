# Interleaved pgbench rounds, sourced by bench/point_checks.sh and
# bench/partitions.sh: each round runs every statement file in every
# protocol once, so that a drifting host moves all of them alike.
#
#   pgbench_rounds ROUNDS SECONDS DB OUT "MODES" NAME...
#
# runs $OUT/NAME.sql with 4 clients for SECONDS each, ROUNDS times, and
# fills the arrays BEST[MODE.NAME] (best TPS) and ROUNDS_OF[MODE.NAME]
# (each round's TPS, space-separated); ratio A B and per_round KEY KEY
# print best / best and each round's ratio.

declare -A BEST ROUNDS_OF

pgbench_rounds() {
	local rounds=$1 seconds=$2 db=$3 out=$4 modes=$5 mode name tps key
	shift 5
	for _ in $(seq "$rounds"); do
		for mode in $modes; do
			for name in "$@"; do
				tps=$(pgbench -n -M "$mode" -c 4 -j 2 -T "$seconds" -f "$out/$name.sql" "$db" 2> /dev/null |
					sed -n 's/^tps = \([0-9.]*\).*/\1/p' | awk '{ printf "%.0f", $1 }')
				key=$mode.$name
				ROUNDS_OF[$key]="${ROUNDS_OF[$key]:-}${ROUNDS_OF[$key]:+ }$tps"
				if [ -z "${BEST[$key]:-}" ] || [ "$tps" -gt "${BEST[$key]}" ]; then BEST[$key]=$tps; fi
			done
		done
	done
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

per_round() {	# the ratio of each round: a's TPS over b's
	paste -d' ' <(tr ' ' '\n' <<< "${ROUNDS_OF[$1]}") <(tr ' ' '\n' <<< "${ROUNDS_OF[$2]}") |
		awk '{ printf "%s%.2f", (NR > 1 ? ", " : ""), $1 / $2 }'
}
