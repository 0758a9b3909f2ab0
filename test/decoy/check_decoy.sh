#!/bin/bash
# The tests never touch a server the caller's environment names.  A decoy
# cluster listens on a Unix socket and on 127.0.0.1, holds databases under
# the names the tests use or used (pgbloomfilter_test, contrib_regression)
# with a marker row in each, and logs every connection.  Then each step
# runs with every libpq variable pointing at the decoy (PGHOST, PGHOSTADDR,
# PGPORT, PGDATABASE, PGUSER, PGSERVICE with a service file naming it,
# PGPASSFILE) and must pass without one connection to it:
#
#   python   make check-python        the Python client's tests
#   java     make check-java          the Java client's tests
#   venv     make test's installcheck: pg_virtualenv -t as the Makefile
#            calls it (PGPORT unset), probed with psql
#   version  scripts/check-version.sh 15 with BF_REGRESS="setup io_errors"
#            (its own mirror and build, under the decoy's directory)
#
# and, opted in to the decoy on purpose (BLOOMFILTER_TEST_DSN,
# BLOOMFILTER_TEST_JDBC_URL):
#
#   python-optin, java-optin   the tests create a database of their own
#            there and drop it: afterwards the decoy's databases and
#            marker rows are exactly as before.
#
#   make check-decoy                        every step
#   bash test/decoy/check_decoy.sh python   some of them
#
# BLOOMFILTER_PG_BINDIR: the bin directory of a PostgreSQL 15 with the
# extension installed (scripts/check-version.sh leaves one in
# $BF_PG_ROOT/mirror-15/usr/lib/postgresql/15/bin); default pg_config's.
# The decoy runs from it too.  Not part of make test (it runs both
# clients' suites twice: about ten minutes).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=test/hardening/lib.sh
. "$repo/test/hardening/lib.sh"		# check, finish; drops the caller's PG*

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(python python-optin java java-optin venv version)
bindir=${BLOOMFILTER_PG_BINDIR:-$("${PG_CONFIG:-pg_config}" --bindir)}
export BLOOMFILTER_PG_BINDIR=$bindir
unset BLOOMFILTER_TEST_DSN BLOOMFILTER_TEST_JDBC_URL

work=$(mktemp -d /tmp/bf_decoy.XXXXXX)
chmod 755 "$work"
chown postgres "$work"
as_pg() { runuser -u postgres -- "$@"; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
stop_decoy() {
	as_pg "$bindir/pg_ctl" -D "$work/data" -m immediate -w stop > /dev/null 2>&1 || true
	rm -rf "$work"
}
trap stop_decoy EXIT

# ---- the decoy ----
as_pg "$bindir/initdb" -D "$work/data" -A trust -U postgres --no-locale -E UTF8 > /dev/null
cat <<EOF | as_pg tee -a "$work/data/postgresql.conf" > /dev/null
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$work'
log_connections = on
fsync = off
EOF
as_pg "$bindir/pg_ctl" -D "$work/data" -l "$work/decoy.log" -w start > /dev/null
echo "decoy on $work and 127.0.0.1, port $port"

# our own look at the decoy: by its socket, named so the log tells it apart
decoy() { "$bindir/psql" -X -A -t -q -v ON_ERROR_STOP=1 "host=$work port=$port user=postgres dbname=${DB:-postgres} application_name=bf_decoy_check" "$@"; }
for db in pgbloomfilter_test contrib_regression decoy_data; do
	decoy -c "CREATE DATABASE $db"
	DB=$db decoy -c "CREATE TABLE marker (v text); INSERT INTO marker VALUES ('decoy $db')"
done
state() {	# its databases, and the marker rows of ours
	local db
	decoy -c "SELECT string_agg(datname, ' ' ORDER BY datname) FROM pg_database"
	for db in pgbloomfilter_test contrib_regression decoy_data; do
		echo "$db: $(DB=$db decoy -c "SELECT string_agg(v, ',') FROM marker" 2>&1 || echo gone)"
	done
}
before=$(state)
log_mark() { wc -c < "$work/decoy.log"; }
others_since() {	# connections since byte $1 of the log that are not ours
	tail -c +"$(($1 + 1))" "$work/decoy.log" | grep "connection authorized" |
		grep -vc "application_name=bf_decoy_check" || true
}

# every libpq variable names the decoy; a service file names it too
cat > "$work/pg_service.conf" <<EOF
[decoy]
host=127.0.0.1
port=$port
dbname=decoy_data
user=postgres
EOF
echo "127.0.0.1:$port:*:postgres:decoy" > "$work/pgpass"
chmod 600 "$work/pgpass"
decoy_env=(PGHOST="$work" PGHOSTADDR=127.0.0.1 PGPORT="$port" PGDATABASE=decoy_data
	PGUSER=postgres PGSERVICEFILE="$work/pg_service.conf" PGSERVICE=decoy
	PGPASSFILE="$work/pgpass" PGAPPNAME=decoy_env)

untouched() {	# untouched STEP MARK: the decoy's databases and markers as before
	check "$1: the decoy's databases and marker rows are as before" "$(state)" = "$before"
}

# ---- the steps ----
run_step() {
	local step=$1 mark rc=0 log="$work/$1.log"
	mark=$(log_mark)
	echo "== $step"
	case $step in
		python)
			env "${decoy_env[@]}" make -C "$repo" check-python > "$log" 2>&1 || rc=$?
			check "python: make check-python passes" "$rc" -eq 0
			check "python: no connection reached the decoy" "$(others_since "$mark")" -eq 0 ;;
		java)
			env "${decoy_env[@]}" make -C "$repo" check-java > "$log" 2>&1 || rc=$?
			check "java: make check-java passes" "$rc" -eq 0
			check "java: no connection reached the decoy" "$(others_since "$mark")" -eq 0 ;;
		python-optin)
			env "${decoy_env[@]}" BLOOMFILTER_TEST_DSN="host=$work port=$port user=postgres dbname=postgres" \
				make -C "$repo" check-python > "$log" 2>&1 || rc=$?
			check "python-optin: make check-python passes on the decoy" "$rc" -eq 0
			check "python-optin: the tests connected to the decoy" "$(others_since "$mark")" -gt 0 ;;
		java-optin)
			env "${decoy_env[@]}" BLOOMFILTER_TEST_JDBC_URL="jdbc:postgresql://127.0.0.1:$port/postgres?user=postgres" \
				make -C "$repo" check-java > "$log" 2>&1 || rc=$?
			check "java-optin: make check-java passes on the decoy" "$rc" -eq 0
			check "java-optin: the tests connected to the decoy" "$(others_since "$mark")" -gt 0 ;;
		venv)
			# what make test runs installcheck under, as the Makefile calls it
			env "${decoy_env[@]}" env -u PGPORT pg_virtualenv -t -v 15 \
				sh -c 'psql -X -A -t -c "SELECT current_setting('"'data_directory'"')"' > "$log" 2>&1 || rc=$?
			check "venv: pg_virtualenv -t runs" "$rc" -eq 0
			check "venv: psql inside reaches the throwaway cluster" \
				"$(grep -c '/pg_virtualenv\.' "$log")" -eq 1
			check "venv: no connection reached the decoy" "$(others_since "$mark")" -eq 0 ;;
		version)
			env "${decoy_env[@]}" BF_PG_ROOT="$work/pgroot" BF_REGRESS="setup io_errors" BF_ISOLATION= \
				bash "$repo/scripts/check-version.sh" 15 > "$log" 2>&1 || rc=$?
			check "version: check-version.sh passes" "$rc" -eq 0
			check "version: no connection reached the decoy" "$(others_since "$mark")" -eq 0 ;;
		*)
			echo "unknown step $step" >&2
			exit 2 ;;
	esac
	untouched "$step"
	[ "$rc" -eq 0 ] || { echo "  (last lines of $log)"; tail -15 "$log" | sed 's/^/    /'; }
}
for s in "${steps[@]}"; do run_step "$s"; done
finish
