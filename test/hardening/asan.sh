#!/bin/bash
# The whole pg_regress suite (make installcheck: regression and isolation)
# against bloomfilter.so built with AddressSanitizer and UndefinedBehavior-
# Sanitizer, loaded into the stock Debian server; then more work on large
# filters and malformed input; then two canaries that must be caught.
#
# Why: an out-of-bounds read or write in C rarely fails a test; it corrupts
# memory or copies neighbouring bytes into a stored filter.  The suites
# cover the code paths, the sanitizers make a bad access fatal and name it.
#
# How, with a server that is not built for ASan:
#   - An instrumented library needs the ASan runtime loaded first, so the
#     postmaster runs with LD_PRELOAD=libasan (backends are forked from it).
#   - Preloading libasan alone hangs Debian's postgres before main():
#     libgpg-error's constructor (postgres -> libsystemd -> libgcrypt ->
#     libgpg-error) calls bindtextdomain(), which holds glibc's
#     _nl_state_lock while it mallocs; that first malloc starts ASan, whose
#     start-up calls dlerror() -> dcgettext(), which takes and releases the
#     same lock as a reader, leaving it broken (reader count -1); postgres's
#     own bindtextdomain() then waits on it for ever.  So a tiny object
#     linked with -z initfirst (DF_1_INITFIRST: its constructor runs before
#     every other one) calls __asan_init() first, and is preloaded too.
#   - The instrumented library is not installed.  It is built in a private
#     copy of the sources, and the cluster's server is restarted from a
#     private copy of the postgres executable in a mirror of the
#     installation (every file a symlink to the real one, except our
#     library and extension files): PostgreSQL finds $libdir and the share
#     directory relative to its executable, so that server loads the
#     instrumented library while the real installation, the working tree
#     and anything else using them are left alone.  At the end the server is
#     restarted from the real executable, without the preload.
#   - Leak detection is off (the server keeps process-lifetime memory).
#     Reports go to $work/asan.<pid> and $work/ubsan.<pid>; a report with a
#     frame in bloomfilter.so (or our sources) is ours.
# What it can see: every access our code makes to the stack, globals and
# malloc'd memory, which includes each palloc chunk over 8 kB (it gets a
# malloc block of its own: out-of-line filters, detoasted values, aggregate
# states, copies).  Small palloc chunks share blocks with others, and the
# server's memory contexts are not instrumented, so an overrun of a small
# value that stays inside its block is invisible.  The canaries show the
# setup is live: overruns of a malloc'd block and of a large palloc chunk,
# in a separately built instrumented module, must each be reported.
#
# Run inside a cluster, as root or as the cluster's owner:
#   pg_virtualenv -v 15 bash test/hardening/asan.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib.sh
. "$repo/test/hardening/lib.sh"

export PGOPTIONS="-c statement_timeout=900s"
SAN_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -g"
PG_CONFIG=${PG_CONFIG:-pg_config}
server_locate
work=$(mktemp -d "${TMPDIR:-/tmp}/bf_asan.XXXXXX")
owner_dir "$work"
libasan=$(readlink -f "$(gcc -print-file-name=libasan.so)")
[ -f "$libasan" ] || { echo "no ASan runtime for gcc (libasan8)"; exit 2; }
echo "sanitizer logs and build: $work"

# ---- the instrumented build, in a private copy of the sources ----
build=$work/build
mkdir "$build"
(cd "$repo" && cp -r Makefile mk bloomfilter.control bloomfilter--*.sql bloomfilter_citus.control \
	bloomfilter_citus--*.sql src sql expected specs "$build/")
# sql/key_types.sql reads the committed test vectors
mkdir -p "$build/test" && cp -r "$repo/test/vectors" "$build/test/"
rm -f "$build"/src/*/*.o "$build"/src/*/*/*.o "$build"/src/*/*.bc "$build"/src/*/*/*.bc "$build"/*.so
# with_llvm=no: no JIT bitcode (the server runs with jit = off here)
make -C "$build" with_llvm=no PG_CFLAGS="$SAN_CFLAGS" > "$work/build.log" 2>&1 \
	|| { tail -20 "$work/build.log"; exit 1; }
check "bloomfilter.so is built with the ASan runtime" "$(ldd "$build/bloomfilter.so" | grep -c libasan)" -ge 1

# ---- the mirror installation ----
pg_bindir=$("$PG_CONFIG" --bindir)
pg_libdir=$("$PG_CONFIG" --pkglibdir)
pg_sharedir=$("$PG_CONFIG" --sharedir)
mirror=$work/root
mkdir -p "$mirror$pg_bindir" "$mirror$pg_libdir" "$mirror$pg_sharedir/extension"
cp "$pg_bindir/postgres" "$mirror$pg_bindir/postgres"	# a copy: symlinks are resolved
for f in "$pg_libdir"/*; do ln -s "$f" "$mirror$pg_libdir/"; done
for f in "$pg_sharedir"/*; do [ "$(basename "$f")" = extension ] || ln -s "$f" "$mirror$pg_sharedir/"; done
for f in "$pg_sharedir"/extension/*; do ln -s "$f" "$mirror$pg_sharedir/extension/"; done
rm -f "$mirror$pg_libdir/bloomfilter.so" "$mirror$pg_sharedir"/extension/bloomfilter[._-]*
cp "$build/bloomfilter.so" "$mirror$pg_libdir/"
cp "$build"/bloomfilter.control "$build"/bloomfilter--*.sql "$build"/bloomfilter_citus.control \
	"$build"/bloomfilter_citus--*.sql "$mirror$pg_sharedir/extension/"

# ---- the initfirst object and the canary module ----
cat > "$work/asan_init_first.c" <<'EOF'
/* runs before every other constructor (DF_1_INITFIRST): start ASan now */
extern void __asan_init(void);
__attribute__((constructor)) static void
asan_init_first(void)
{
	__asan_init();
}
EOF
gcc -shared -fPIC -Wl,-z,initfirst -o "$work/asan_init_first.so" "$work/asan_init_first.c" "$libasan"

cat > "$work/canary.c" <<'EOF'
/* deliberate overruns: the sanitizer must be live in a backend */
#include "postgres.h"
#include "fmgr.h"
#include <stdlib.h>
PG_MODULE_MAGIC;
PG_FUNCTION_INFO_V1(canary_malloc);
PG_FUNCTION_INFO_V1(canary_palloc);

Datum
canary_malloc(PG_FUNCTION_ARGS)
{
	int32		n = PG_GETARG_INT32(0);
	volatile char *p = malloc(n);

	p[n] = 1;					/* one past the end */
	free((void *) p);
	PG_RETURN_INT32(n);
}

Datum
canary_palloc(PG_FUNCTION_ARGS)
{
	int32		n = PG_GETARG_INT32(0);	/* over 8 kB: its own malloc block */
	volatile char *p = palloc(n);

	p[n] = 1;
	pfree((void *) p);
	PG_RETURN_INT32(n);
}
EOF
# shellcheck disable=SC2086 # SAN_CFLAGS is several words
gcc $SAN_CFLAGS -O1 -fPIC -shared -I"$("$PG_CONFIG" --includedir-server)" \
	-o "$work/canary.so" "$work/canary.c"
chmod -R a+rX "$work"

# ---- restart the cluster's server from the mirror, with the runtime ----
restore() {
	local status=$?
	set +e
	echo "restarting the server from $pg_bindir without the sanitizer runtime"
	server_stop fast 2> /dev/null || server_stop immediate
	SERVER_EXE="" server_start "$work/server-normal.log" || status=1
	lib=$(psql_v -d postgres -c "SELECT setting FROM pg_config WHERE name = 'PKGLIBDIR'")
	[ "$lib" = "$pg_libdir" ] || { echo "server runs with \$libdir $lib"; status=1; }
	if ldd "$pg_libdir/bloomfilter.so" | grep -q libasan; then
		echo "the installed bloomfilter.so is instrumented!"; status=1
	fi
	# the mirror holds a copy of the server executable; keep only logs
	rm -rf "$mirror" "$build/src" "$build"/*.so
	exit $status
}
trap restore EXIT
server_stop fast
SERVER_EXE="$mirror$pg_bindir/postgres" server_start "$work/server-asan.log" \
	LD_PRELOAD="$libasan $work/asan_init_first.so" \
	ASAN_OPTIONS="detect_leaks=0:log_path=$work/asan:print_legend=0" \
	UBSAN_OPTIONS="print_stacktrace=1:log_path=$work/ubsan"
pm=$(head -1 "$DATA_DIR/postmaster.pid")
check "the postmaster runs with the ASan runtime" "$(grep -c libasan "/proc/$pm/maps")" -ge 1
lib=$(psql_v -d postgres -c "SELECT setting FROM pg_config WHERE name = 'PKGLIBDIR'")
check "the server's \$libdir is the mirror ($lib)" "$lib" = "$mirror$pg_libdir"

# ---- the suite, from the private copy (results/ stays out of the tree) ----
suite=0
PGOPTIONS="$PGOPTIONS -c jit=off" timeout 1800 make -C "$build" installcheck \
	> "$work/installcheck.log" 2>&1 || suite=$?
grep -E "^test |^ok |^not ok |tests (passed|failed)|FAILED" "$work/installcheck.log" || true
check "make installcheck passes under the sanitizers" "$suite" -eq 0

# ---- more: large (malloc-backed) values and malformed input ----
fresh_db bf_asan
extra=0
psql_q -d bf_asan > "$work/extra.log" 2>&1 <<'SQL' || extra=$?
SET jit = off;
CREATE TABLE big AS SELECT bf_agg(g, 1000000, 0.01) AS bf FROM generate_series(1, 300000) g;
SELECT bf_contains(bf, 5), bf_contains(bf, -5) FROM big;				-- by slices
SELECT count(*) FROM big, generate_series(1, 5000) g WHERE bf_contains(big.bf, g);	-- cached
SELECT count(*) FROM big, generate_series(1, 5000) g WHERE g <@ big.bf;
SELECT bf_nbits(bf | bf), bf_bits_set(bf & bf), bf_cardinality(bf), bf_fpp(bf) FROM big;
SELECT bf_info(bf_add_all(bf, ARRAY(SELECT g FROM generate_series(1, 20000) g))) FROM big;
-- (typed keys since 1.3: text and timestamps go into large filters of their own)
SELECT bf_add_all(bf_create(1000000, 0.01), ARRAY(SELECT 'k' || g FROM generate_series(1, 9000) g)) @> 'k1'::text;
SELECT bf::text::bloomfilter::bytea = bf::bytea, bf::bytea::bloomfilter::bytea = bf::bytea FROM big;
SELECT bf_bits_set(bf_union_agg(bf)) FROM (SELECT bf FROM big UNION ALL SELECT bf FROM big) s;
SELECT bf_add(bf_create(1000000, 0.01), now()) @> now();
SELECT bf_contains(bf_add(bf_create(10), 'abc'::char(5)), 'abc'::name),
       bf_contains(bf_add(bf_create(10), gen_random_uuid()), gen_random_uuid()),
       bf_contains(bf_add(bf_create(10), ARRAY[1, 2]), '{1,2}'::int[]);
-- parallel aggregate: partial states are flattened and combined
CREATE TABLE keys AS SELECT g AS k FROM generate_series(1, 500000) g;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT bf_bits_set(bf_agg(k, 500000, 0.01)), bf_bits_set(bf_agg(k::text, 500000)) FROM keys;
SELECT bf_bits_set(bf_agg(k, 1000)) FROM keys GROUP BY k % 7 ORDER BY 1 LIMIT 1;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
-- the aggregates as window functions
SELECT bf_bits_set(bf_agg(k, 100) OVER (ORDER BY k ROWS 50 PRECEDING)) FROM keys WHERE k < 300 ORDER BY k DESC LIMIT 1;
SELECT bf_bits_set(bf_union_agg(bf_add(bf_create(100), k)) OVER (ORDER BY k)) FROM keys WHERE k < 300 ORDER BY k DESC LIMIT 1;

-- malformed binary and text input: every truncation and extension of a
-- small value, truncations and extensions of a large one, every byte of
-- the header set to 5 values; each must be accepted or refused with an
-- ERROR, and nothing read out of bounds
CREATE TABLE tally (what text, n int);
DO $$
DECLARE
	small bytea := bf_add(bf_create(10), 1)::bytea;
	large bytea := (SELECT bf::bytea FROM big);
	v bytea;
	refused int := 0;
	tried int := 0;
	len int;
	pos int;
	b int;
BEGIN
	FOR len IN 0 .. octet_length(small) + 70 LOOP
		v := CASE WHEN len <= octet_length(small) THEN substring(small FROM 1 FOR len)
		          ELSE small || decode(repeat('ff', len - octet_length(small)), 'hex') END;
		tried := tried + 2;
		BEGIN PERFORM v::bloomfilter; EXCEPTION WHEN OTHERS THEN refused := refused + 1; END;
		BEGIN PERFORM encode(v, 'base64')::bloomfilter; EXCEPTION WHEN OTHERS THEN refused := refused + 1; END;
	END LOOP;
	FOREACH len IN ARRAY ARRAY[0, 47, 48, 49, 111, octet_length(large) - 64, octet_length(large) - 1,
	                           octet_length(large) + 1, octet_length(large) + 64] LOOP
		v := CASE WHEN len <= octet_length(large) THEN substring(large FROM 1 FOR len)
		          ELSE large || decode(repeat('00', len - octet_length(large)), 'hex') END;
		tried := tried + 1;
		BEGIN PERFORM v::bloomfilter; EXCEPTION WHEN OTHERS THEN refused := refused + 1; END;
	END LOOP;
	FOR pos IN 0 .. 47 LOOP
		FOREACH b IN ARRAY ARRAY[0, 1, 127, 128, 255] LOOP
			tried := tried + 2;
			BEGIN PERFORM set_byte(small, pos, b)::bloomfilter; EXCEPTION WHEN OTHERS THEN refused := refused + 1; END;
			BEGIN PERFORM set_byte(large, pos, b)::bloomfilter; EXCEPTION WHEN OTHERS THEN refused := refused + 1; END;
		END LOOP;
	END LOOP;
	INSERT INTO tally VALUES ('tried', tried), ('refused', refused);
END $$;
SELECT * FROM tally;
SQL
check "large values and malformed input ran without a server error" "$extra" -eq 0
if [ "$extra" -ne 0 ]; then tail -20 "$work/extra.log"; fi
read -r tried refused < <(psql_v -d bf_asan -c "
	SELECT max(n) FILTER (WHERE what = 'tried'), max(n) FILTER (WHERE what = 'refused') FROM tally" 2> /dev/null \
	|| echo "0 0")
echo "malformed input: $tried values tried, $refused refused with an ERROR"

# ---- the reports so far (the canaries add theirs after) ----
count_reports() {	# prints: asan asan-ours ubsan ubsan-ours
	local a=0 ao=0 u=0 uo=0
	if ls "$work"/asan.* > /dev/null 2>&1; then
		a=$(cat "$work"/asan.* | grep -c "ERROR: AddressSanitizer" || true)
		# a report runs from its ERROR line to the next one
		ao=$(awk '/ERROR: AddressSanitizer/ { if (blk ~ /bloomfilter\.so|src\/(core|type|am)\//) n++; blk = "" }
			{ blk = blk "\n" $0 }
			END { if (blk ~ /bloomfilter\.so|src\/(core|type|am)\//) n++; print n + 0 }' "$work"/asan.*)
	fi
	if ls "$work"/ubsan.* > /dev/null 2>&1; then
		u=$(cat "$work"/ubsan.* | grep -c "runtime error:" || true)
		uo=$(cat "$work"/ubsan.* | grep "runtime error:" | grep -cE "src/(core|type|am)/" || true)
	fi
	echo "$a $ao $u $uo"
}
read -r asan_n asan_ours ubsan_n ubsan_ours < <(count_reports)
for f in "$work"/asan.* "$work"/ubsan.*; do
	[ -f "$f" ] || continue
	echo "---- $f"
	head -60 "$f"
done
echo "sanitizer reports: ASan $asan_n ($asan_ours with a bloomfilter frame), UBSan $ubsan_n ($ubsan_ours in our sources)"
check "no AddressSanitizer report" "$asan_n" -eq 0
check "no UndefinedBehaviorSanitizer report" "$ubsan_n" -eq 0

# ---- canaries: each overrun must be reported (it ends its backend) ----
fresh_db bf_asan_canary
psql_q -d bf_asan_canary -c "
	CREATE FUNCTION canary_malloc(int) RETURNS int AS '$work/canary.so' LANGUAGE C STRICT;
	CREATE FUNCTION canary_palloc(int) RETURNS int AS '$work/canary.so' LANGUAGE C STRICT;"
for fn in canary_malloc canary_palloc; do
	psql -X -q -d bf_asan_canary -c "SELECT $fn(20000)" > /dev/null 2>&1 || true
	# the postmaster reinitialises after a backend dies; wait for it
	for _ in $(seq 60); do psql -X -q -d postgres -c "SELECT 1" > /dev/null 2>&1 && break; sleep 1; done
	seen=$(grep -l "ERROR: AddressSanitizer: heap-buffer-overflow" "$work"/asan.* 2> /dev/null \
		| xargs -r grep -l "in $fn " | wc -l)
	check "canary $fn: its heap overrun was reported" "$seen" -ge 1
done
psql_q -d postgres -c "DROP DATABASE bf_asan" -c "DROP DATABASE bf_asan_canary"

if [ "$suite" -eq 0 ] && [ "$asan_n" -eq 0 ] && [ "$ubsan_n" -eq 0 ]; then verdict=CLEAN; else verdict=UNCLEAN; fi
echo "summary: sanitizers $verdict: suite exit $suite, ASan reports $asan_n ($asan_ours ours), UBSan reports $ubsan_n ($ubsan_ours ours); logs in $work"
finish
