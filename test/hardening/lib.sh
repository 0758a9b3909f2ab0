# Shared by the hardening scripts: a fresh database with the extension, and
# the pass/fail tally that ends in the "N passed, N failed" line.
# (Sourced, not run: check-all runs only the *.sh files that are scripts.)

passed=0
failed=0

fresh_db() {	# fresh_db NAME: drop and create it, with the extension
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"
	psql -X -q -d "$1" -c "CREATE EXTENSION bloomfilter"
}

check() {	# check DESCRIPTION TEST-ARGS...: count a [ TEST-ARGS ] result
	local what=$1
	shift
	if [ "$@" ]; then
		passed=$((passed + 1)); echo "ok: $what"
	else
		failed=$((failed + 1)); echo "FAILED: $what"
	fi
}

finish() {	# print the tally; exit status says whether all passed
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
