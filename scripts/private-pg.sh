# Sourced by the scripts that run a PostgreSQL server of their own
# (test/interop/guava.sh, bench/interop_guava.sh).
#
#   private_pg_start PREFIX LISTEN [OPTIONS]
#
# drops the caller's libpq variables (PGHOST, PGPORT, ...), makes WORK (a
# fresh /tmp/PREFIX.*, removed with the server at exit) and PORT (random),
# and starts a cluster initdb'd in $WORK/data (UTF8, C.UTF-8, trust, user
# postgres) that listens on a Unix socket in $WORK/sock and on the TCP
# addresses LISTEN ('' for none), with the server OPTIONS given ("-c
# shared_buffers=3GB"; none by default), from BINDIR (BLOOMFILTER_PG_BINDIR, else
# pg_config --bindir), as postgres when run as root.
BINDIR=${BLOOMFILTER_PG_BINDIR:-$(pg_config --bindir)}

as_pg() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

private_pg_stop() {
	as_pg "$BINDIR/pg_ctl" -D "$WORK/data" -m immediate stop > /dev/null 2>&1 || true
	rm -rf "$WORK"
}

private_pg_start() {
	local v
	for v in $(env | sed -n 's/^\(PG[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
	WORK=$(mktemp -d "/tmp/$1.XXXXXX")
	chmod 755 "$WORK"
	PORT=$((20000 + RANDOM % 20000))
	trap private_pg_stop EXIT
	mkdir -p "$WORK/data" "$WORK/sock"
	if [ "$(id -u)" -eq 0 ]; then chown postgres "$WORK/data" "$WORK/sock"; fi
	as_pg "$BINDIR/initdb" -D "$WORK/data" -E UTF8 --locale=C.UTF-8 -A trust -U postgres > /dev/null
	as_pg "$BINDIR/pg_ctl" -D "$WORK/data" -w -l "$WORK/data/log" \
		-o "-c listen_addresses='$2' -k $WORK/sock -p $PORT ${3:-}" start > /dev/null
}
