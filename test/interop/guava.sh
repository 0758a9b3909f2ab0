#!/bin/bash
# Interoperability of bloomfilter's layout 5 with Guava's BloomFilter
# (Debian's libguava-java 31.1): make check-interop-guava.
#
# For 6 shapes (n from 1 to 1,000,000, p from 0.5 to 1e-6; the first two
# overfilled) and the four key
# types (bigint, integer, text, bytea), 100,000 members and 100,000
# non-members, in both directions:
#   - PostgreSQL: bf_agg(members, bf_create(n, p, layout => 'guava', ...)),
#     then bf_to_guava; Guava: BloomFilter.readFrom, mightContain of every
#     key, the same answers as bf_contains, and the same bytes as Guava's own
#     filter of the same members;
#   - Guava: create, put, writeTo; PostgreSQL: bf_from_guava, bf_contains of
#     every key, the same answers as mightContain;
#   - writeTo(readFrom(x)) = x and bf_to_guava(bf_from_guava(x)) = x;
#   - bf_fpp = expectedFpp;
# and BloomFilter.create's shape (longs and hash functions, or a refusal)
# equals bf_create's over a grid of 1,320 requests.
#
# The server is private: initdb in a temporary directory (as postgres when
# run as root), a Unix socket there and no TCP; the libpq variables of the
# caller's environment are dropped.  Server programs from
# BLOOMFILTER_PG_BINDIR, else pg_config --bindir, with the extension
# installed there.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
GUAVA_JAR=${GUAVA_JAR:-/usr/share/java/guava.jar}
# shellcheck source=../../scripts/private-pg.sh
. "$HERE/../../scripts/private-pg.sh"
private_pg_start bf-interop-guava ''
mkdir -p "$WORK/cases" "$WORK/classes"
PSQL=("$BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -h "$WORK/sock" -p "$PORT" -U postgres -d postgres)
"${PSQL[@]}" -c "CREATE EXTENSION bloomfilter"

javac --release 17 -Xlint:all,-classfile -Werror -cp "$GUAVA_JAR" -d "$WORK/classes" "$HERE/GuavaInterop.java"
JAVA=(java -Xmx2g -cp "$WORK/classes:$GUAVA_JAR" GuavaInterop)
"${JAVA[@]}" build "$WORK/cases"

D=$WORK/cases
while IFS=$'\t' read -r name n p type; do
	"${PSQL[@]}" -At <<EOF
CREATE TABLE m (ord int, k $type);
CREATE TABLE p (ord int, k $type);
CREATE TABLE g (hex text);
\copy m FROM '$D/$name.members'
\copy p FROM '$D/$name.probes'
\copy g FROM '$D/$name.guava'
CREATE TABLE f AS
	SELECT (SELECT bf_agg(k, bf_create($n, $p, layout => 'guava', key_type => '$type')) FROM m) AS pgf,
		   bf_from_guava(decode(hex, 'hex'), '$type') AS gf,
		   decode(hex, 'hex') AS guava
	FROM g;
\o $D/$name.pg
SELECT encode(bf_to_guava(pgf), 'hex') FROM f;
\o $D/$name.pg_answers
SELECT string_agg(CASE WHEN bf_contains(f.pgf, p.k) THEN '1' ELSE '0' END, '' ORDER BY p.ord) FROM p, f;
\o $D/$name.from_guava_answers
SELECT string_agg(CASE WHEN bf_contains(f.gf, p.k) THEN '1' ELSE '0' END, '' ORDER BY p.ord) FROM p, f;
\o $D/$name.pg_fpp
SELECT bf_fpp(gf) FROM f;
\o $D/$name.pg_roundtrip
SELECT bf_to_guava(gf) = guava FROM f;
\o
DROP TABLE m, p, g, f;
EOF
	if [ "$(cat "$D/$name.pg_roundtrip")" != t ]; then
		echo "FAIL $name: bf_to_guava(bf_from_guava(x)) differs from x"
		exit 1
	fi
done <"$D/cases"

"${PSQL[@]}" -At <<EOF
CREATE TABLE sz (ord serial, n bigint, p text, nlongs text, k text);
\copy sz (n, p, nlongs, k) FROM '$D/sizing'
CREATE FUNCTION pg_temp.shape(n bigint, p float8) RETURNS text LANGUAGE plpgsql AS \$\$
DECLARE
	i jsonb;
BEGIN
	i := bf_info(bf_create(n, p, layout => 'guava', key_type => 'bigint'));
	RETURN (i->>'guava_longs') || E'\t' || (i->>'nhashes');
EXCEPTION WHEN invalid_parameter_value THEN
	RETURN E'refused\trefused';
END
\$\$;
\o $D/pg_sizing
SELECT n || E'\t' || p || E'\t' || pg_temp.shape(n, p::float8) FROM sz ORDER BY ord;
\o
EOF

"${JAVA[@]}" check "$WORK/cases"
echo "check-interop-guava: passed"
