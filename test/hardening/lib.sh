# shellcheck shell=bash
# Shared by the hardening scripts: a fresh database with the extension, the
# pass/fail tally that ends in the "N passed, N failed" line, and stopping
# and starting the server of the PG* environment (crash.sh, asan.sh), a
# private server of a script's own (memcheck.sh, oom.sh), and several
# private servers side by side (replication_*.sh).
# (Sourced, not run: check-all runs only the *.sh files that are scripts.)

passed=0
failed=0

# ---- which server: never one the caller's environment merely names ----
# The scripts that test "the server of the PG* environment" (through
# fresh_db and server_locate: asan, crash, dump_restore, limits,
# scalable_patterns, stress) drop databases on it, kill it and restart
# it.  They run only inside pg_virtualenv (make check-all runs each under
# pg_virtualenv -t, which points PG* at its own cluster and unsets
# PGHOSTADDR and PGSERVICE), or with BLOOMFILTER_TEST_PG_ENV=1, the
# caller's word that the PG* server is a throwaway one.  Outside those,
# every libpq setting (PGHOST, PGHOSTADDR, PGPORT, PGSERVICE, ...) is
# dropped here, so that the private servers (private_cluster, node_*) and
# the scripts that export PGHOST themselves reach theirs alone: psql's
# -h and PGHOST do not override PGHOSTADDR or a service's hostaddr.
in_pg_virtualenv() {
	case ${PG_CLUSTER_CONF_ROOT:-} in
		*/pg_virtualenv.*/postgresql) return 0 ;;
	esac
	return 1
}
if ! in_pg_virtualenv && [ "${BLOOMFILTER_TEST_PG_ENV:-}" != 1 ]; then
	# shellcheck disable=SC2046
	unset $(compgen -e | grep -E '^PG[A-Z]' || true)
fi

require_pg_env_server() {	# stop unless the PG* server is a throwaway one
	in_pg_virtualenv || [ "${BLOOMFILTER_TEST_PG_ENV:-}" = 1 ] && return 0
	echo "$(basename "$0"): this script drops databases on the server of PGHOST/PGPORT" >&2
	echo "and may kill and restart it: run it under pg_virtualenv -t (make check-all" >&2
	echo "does), or set BLOOMFILTER_TEST_PG_ENV=1 if that server is a throwaway one." >&2
	exit 2
}

# every psql here: no ~/.psqlrc, stop at the first error
psql_q() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
# one value or one row, unaligned, fields separated by a space
psql_v() { psql -X -A -t -q -F ' ' -v ON_ERROR_STOP=1 "$@"; }

fresh_db() {	# fresh_db NAME: drop and create it, with the extension
	require_pg_env_server
	psql_q -d postgres -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"
	psql_q -d "$1" -c "CREATE EXTENSION bloomfilter"
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

poke() {	# poke FILE OFFSET HEXBYTES: overwrite bytes in place (corruption scripts)
	printf "$(echo "$3" | sed 's/../\\x&/g')" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

expect_corrupt() {	# expect_corrupt WHAT SQL: SQL in $DB on node main fails with XX001
	local out
	out=$(on main psql -X -q -d "$DB" -v VERBOSITY=verbose -c "$2" 2>&1 || true)
	check "$1: XX001" "$(echo "$out" | grep -c 'ERROR:  XX001')" -eq 1
	echo "$out" | grep ERROR | head -1 | sed 's/^/    /'
}

finish() {	# print the tally; exit status says whether all passed
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

# ---- the server behind PG*: where it is, stop, kill, start ----
# pg_virtualenv exports PGHOST/PGPORT/PGUSER but no PGDATA, and as root its
# cluster lives under /var/lib/postgresql with the configuration in /etc;
# as another user both are in a temporary directory.  The server itself
# says where: ask it before stopping it.  pg_ctl refuses to run as root, so
# it runs as the data directory's owner.

server_locate() {	# sets BINDIR DATA_DIR CONFIG_FILE DATA_OWNER
	require_pg_env_server
	BINDIR=$("${PG_CONFIG:-pg_config}" --bindir)
	DATA_DIR=$(psql_v -d postgres -c "SHOW data_directory")
	CONFIG_FILE=$(psql_v -d postgres -c "SHOW config_file")
	DATA_OWNER=$(stat -c %U "$DATA_DIR")
}

as_owner() {	# as_owner CMD...: run as the data directory's owner
	if [ "$(id -un)" = "$DATA_OWNER" ]; then
		"$@"
	else
		runuser -u "$DATA_OWNER" -- "$@"
	fi
}

owner_dir() {	# owner_dir DIR: let the server's user write server logs there
	chmod 755 "$1"
	if [ "$(id -un)" != "$DATA_OWNER" ]; then chown "$DATA_OWNER" "$1"; fi
}

server_stop() {	# server_stop fast|immediate: pg_ctl stop in that mode
	as_owner "$BINDIR/pg_ctl" -D "$DATA_DIR" -m "$1" -w -t 120 stop > /dev/null
}

server_kill() {	# SIGKILL the postmaster and all its children at once
	local pm kids
	pm=$(head -1 "$DATA_DIR/postmaster.pid")
	# stopped first, so it cannot fork while its children are listed
	kill -STOP "$pm"
	kids=$(pgrep -P "$pm" | tr '\n' ' ' || true)
	# shellcheck disable=SC2086
	kill -KILL "$pm" $kids
	# the next postmaster refuses to start while any of them holds the
	# old shared memory
	for _ in $(seq 100); do
		# shellcheck disable=SC2086
		kill -0 "$pm" $kids 2> /dev/null || return 0
		sleep 0.1
	done
	echo "server_kill: processes survived SIGKILL" >&2
	return 1
}

server_start() {	# server_start LOGFILE [VAR=value...]: start, with that environment
	# (SERVER_EXE, if set, is the postgres executable to start instead)
	local log=$1 exe=()
	shift
	if [ -n "${SERVER_EXE:-}" ]; then exe=(-p "$SERVER_EXE"); fi
	as_owner env "$@" "$BINDIR/pg_ctl" -D "$DATA_DIR" -o "-c config_file=$CONFIG_FILE" \
		"${exe[@]}" -l "$log" -w -t 600 start > /dev/null
	for _ in $(seq 60); do
		psql -X -q -d postgres -c "SELECT 1" > /dev/null 2>&1 && return 0
		sleep 1
	done
	echo "server_start: no connection after start (log: $log)" >&2
	return 1
}

# ---- a private server, for scripts that start postgres their own way ----

as_pg() { runuser -u postgres -- "$@"; }

private_workdir() {	# private_workdir NAME: sets work, a fresh /tmp/NAME.*
	# directory the postgres user can write
	work=$(mktemp -d "/tmp/$1.XXXXXX")
	chmod 755 "$work"
	chown postgres "$work"
}

private_cluster() {	# private_cluster NAME [INITDB-ARGS...]: private_workdir,
	# holding an initdb'd data directory in $work/data
	private_workdir "$1"
	shift
	as_pg "$(pg_config --bindir)/initdb" -D "$work/data" -A trust --no-locale "$@" > /dev/null
}


# ---- several private servers at once (replication_*.sh) ----
# Each node is a data directory $work/NAME (work from private_cluster) whose
# server listens only on the socket directory $work, on a port of its own:
# a port there cannot collide with other servers on the machine.
# `on NAME CMD...` runs CMD with PGHOST/PGPORT/PGUSER pointing at the node.

node_port() { cat "$work/$1.port"; }

node_conf() {	# node_conf NAME PORT [SETTING...]: listen on $work:PORT, plus settings
	local name=$1 port=$2 s
	shift 2
	echo "$port" > "$work/$name.port"
	{
		echo "port = $port"
		echo "unix_socket_directories = '$work'"
		echo "listen_addresses = ''"
		for s in "$@"; do echo "$s"; done
	} | as_pg tee -a "$work/$name/postgresql.conf" > /dev/null
}

node_init() {	# node_init NAME PORT [SETTING...]: initdb $work/NAME, configure it
	as_pg "$(pg_config --bindir)/initdb" -D "$work/$1" -A trust --no-locale -E UTF8 > /dev/null
	node_conf "$@"
}

node_start() {	# node_start NAME: start it, log to $work/NAME.log, wait until it answers
	as_pg "$(pg_config --bindir)/pg_ctl" -D "$work/$1" -l "$work/$1.log" -w -t 600 start > /dev/null
	for _ in $(seq 60); do
		on "$1" psql -X -q -d postgres -c "SELECT 1" > /dev/null 2>&1 && return 0
		sleep 1
	done
	echo "node_start: $1 does not answer (log: $work/$1.log)" >&2
	return 1
}

node_stop() {	# node_stop NAME [fast|immediate]
	as_pg "$(pg_config --bindir)/pg_ctl" -D "$work/$1" -m "${2:-fast}" -w -t 120 stop > /dev/null
}

node_kill() {	# node_kill NAME: SIGKILL its postmaster and every child (server_kill)
	DATA_DIR=$work/$1 server_kill
}

on() {	# on NAME CMD...: CMD against that node
	local name=$1
	shift
	PGHOST=$work PGPORT=$(node_port "$name") PGUSER=postgres "$@"
}

nodes_stop_all() {	# for an EXIT trap: stop every node still running
	local pid
	for pid in "$work"/*/postmaster.pid; do
		[ -f "$pid" ] || continue
		as_pg "$(pg_config --bindir)/pg_ctl" -D "$(dirname "$pid")" -m immediate stop > /dev/null 2>&1 || true
	done
}

nodes_crashes() {	# print every "terminated by signal" a node's log holds, with its query
	grep -h -A1 'terminated by signal' "$work"/*.log 2> /dev/null || true
}

node_wait_replay() {	# node_wait_replay PRIMARY STANDBY: until STANDBY replayed
	# everything PRIMARY had written when called (at most 120 s)
	local target behind start
	start=$(date +%s%N)
	target=$(on "$1" psql_v -d postgres -c "SELECT pg_current_wal_lsn()")
	for _ in $(seq 1200); do
		behind=$(on "$2" psql_v -d postgres -c "
			SELECT coalesce(pg_wal_lsn_diff('$target', pg_last_wal_replay_lsn()) > 0, true)")
		if [ "$behind" = f ]; then
			echo "$2 replayed up to $target in $((($(date +%s%N) - start) / 1000000)) ms"
			return 0
		fi
		sleep 0.1
	done
	echo "node_wait_replay: $2 did not reach $target in 120 s" >&2
	return 1
}

# ---- background load (the crash and replication scripts) ----
# Each script starts its loaders with `cmd & loaders+=($!)`.

loaders=()
loaders_stop() {	# kill every loader, wait for them, forget them
	local p
	for p in "${loaders[@]}"; do kill "$p" 2> /dev/null || true; done
	wait 2> /dev/null || true
	loaders=()
}
