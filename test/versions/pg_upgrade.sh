#!/bin/bash
# pg_upgrade from PostgreSQL 15 to 17 (or 18, 19) keeps every filter: byte-identical
# values that answer bf_contains identically, for members and non-members.
#
# Why: pg_upgrade does not dump and reload the data; it copies the 15
# cluster's files and the new server reads them as they are, through the
# new server's TOAST, detoasting and the extension built for it.  A filter
# whose bytes or answers changed across the upgrade would quietly lose keys
# (a false "certainly not") in every database that upgraded.
#
# The old cluster gets the shapes that matter (the set of
# test/hardening/dump_restore.sh): empty, tiny, a 10-million-bit filter
# (over a megabyte, TOASTed out of line), the smallest and largest seeds,
# error rates from 20% to 1e-10, an overfilled one, text keys with
# non-ASCII characters, a union, NULL, counting (with removals) and
# scalable (grown) layouts, cuckoo filters (one TOASTed, one with deletes);
# arrays of filters; a column with
# STORAGE MAIN (compressed in line); bloomfilter indexes (sized by options,
# sized from their table, partial, two-column), whose files pg_upgrade
# copies as they are; a second database still on extension
# version 1.0, which must update in place on the new server.  Fingerprint
# per value: md5 of its bytes, bits set, and the md5 and count of the
# answers for the integers -20000 .. 20000 and for 6000 texts (members and
# non-members of every filter).
#
#   test/versions/pg_upgrade.sh [NEW_MAJOR]   (17 unless given; make
#                                             check-versions runs 17)
#   BF_CLEAR_ATTVER=1 test/versions/pg_upgrade.sh 19
#                                             (18, 19: Debian 15's column
#                                             stamp cleared first, below)
#
# OLD_BINDIR: the 15 server (default: the private mirror of the system's 15
# that scripts/check-version.sh 15 leaves, with this tree's extension in
# it; else /usr/lib/postgresql/15/bin with the installed extension).
# NEW_BINDIR: the new server with the extension installed (default: the
# scratch prefix that scripts/check-version.sh NEW_MAJOR installs into).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../hardening/lib.sh
. "$repo/test/hardening/lib.sh"
root=${BF_PG_ROOT:-/var/tmp/bloomfilter-pg}

old_bin=${OLD_BINDIR:-$root/mirror-15/usr/lib/postgresql/15/bin}
[ -x "$old_bin/postgres" ] || old_bin=/usr/lib/postgresql/15/bin
new_bin=${NEW_BINDIR:-$root/${1:-17}/bin}
for b in "$old_bin" "$new_bin"; do
	[ -x "$b/postgres" ] || { echo "no server in $b (run scripts/check-version.sh for it first)"; exit 2; }
done
old_version=$("$old_bin/postgres" --version | sed -E 's/^postgres \(PostgreSQL\) ([^ ]+).*/\1/')
new_version=$("$new_bin/postgres" --version | sed -E 's/^postgres \(PostgreSQL\) ([^ ]+).*/\1/')
new_major=$("$new_bin/pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
echo "old: $old_version ($old_bin)"
echo "new: $new_version ($new_bin)"

as_pg() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
work=$(mktemp -d /tmp/bf_upgrade.XXXXXX)
chmod 755 "$work"
[ "$(id -u)" -ne 0 ] || chown postgres "$work"
running=""
cleanup() {
	[ -z "$running" ] || as_pg "$running/pg_ctl" -D "$running_data" -m immediate -w stop > /dev/null 2>&1 || true
	if [ -n "${BF_KEEP:-}" ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

start() {	# start BINDIR DATADIR: a server on a Unix socket in $work only
	as_pg "$1/pg_ctl" -D "$2" -l "$work/$(basename "$2").log" -w -t 120 \
		-o "-c listen_addresses='' -k $work -p 5432" start > /dev/null \
		|| { tail -20 "$work/$(basename "$2").log"; exit 1; }
	running=$1 running_data=$2
}
stop() {
	as_pg "$running/pg_ctl" -D "$running_data" -m fast -w -t 120 stop > /dev/null
	running=""
}
# only these clusters: none of the caller's libpq settings (PGHOSTADDR or
# a PGSERVICE would reach another server whatever PGHOST says)
unset $(compgen -e | grep -E '^PG[A-Z]' || true)
export PGHOST=$work PGPORT=5432 PGUSER=postgres
export PGOPTIONS="-c statement_timeout=600s"

# ---- the old cluster and its filters ----
as_pg "$old_bin/initdb" -D "$work/old" -A trust -U postgres --no-locale -E UTF8 > /dev/null
start "$old_bin" "$work/old"
psql_q -d postgres -c "CREATE DATABASE bf_upgrade" -c "CREATE DATABASE bf_upgrade_10"
psql_q -d bf_upgrade <<'SQL'
CREATE EXTENSION bloomfilter;
CREATE TABLE filters (id int PRIMARY KEY, label text NOT NULL, bf bloomfilter);
INSERT INTO filters VALUES
	(1, 'empty', bf_create(1000)),
	(2, 'small, two texts', bf_add(bf_add(bf_create(100), 'one'), 'k7')),
	(3, '10M bits, 1M ints', (SELECT bf_agg(g, 1000000, 0.01) FROM generate_series(1, 1000000) g)),
	(4, 'seed 4294967295, 0.1%', bf_add_all(bf_create(50000, 0.001, 4294967295),
	                                        ARRAY(SELECT g FROM generate_series(1, 50000, 3) g))),
	(5, 'seed 1, 20%, texts', bf_add_all(bf_create(10000, 0.2, 1),
	                                     ARRAY(SELECT 'k' || g FROM generate_series(1, 3000) g)
	                                     || ARRAY['ü', 'naïve', '日本語', '🙂'])),
	(6, 'NULL', NULL),
	(7, 'capacity 100, 5000 ints', (SELECT bf_agg(g, 100) FROM generate_series(1, 5000) g)),
	(8, 'rate 1e-10, seed 0', bf_add_all(bf_create(20000, 1e-10, 0), ARRAY(SELECT g FROM generate_series(1, 20000, 2) g))),
	(9, 'union of two', (SELECT bf_agg(g, 30000, 0.05) FROM generate_series(1, 10000) g)
	                    | (SELECT bf_agg(g, 30000, 0.05) FROM generate_series(15000, 19000) g)),
	(10, 'negative ints, seed 7', bf_add_all(bf_create(40000, 0.01, 7),
	                                        ARRAY(SELECT -g FROM generate_series(1, 20000, 7) g))),
	(11, 'counting, 3000 ints, two removed', bf_remove(bf_remove(
	        (SELECT bf_agg(g, bf_create(5000, 0.01, counting => true)) FROM generate_series(1, 3000) g), 1), 2)),
	(12, 'scalable, grown 10x', (SELECT bf_agg(g, bf_create(1000, 0.01, expansion => 2)) FROM generate_series(1, 10000) g)),
	(13, 'scalable by default, texts', (SELECT bf_agg('k' || g) FROM generate_series(1, 5000) g));

-- the other type: cuckoo filters, one of them TOASTed out of line
CREATE TABLE cuckoos (id int PRIMARY KEY, label text NOT NULL, cf cuckoofilter);
INSERT INTO cuckoos VALUES
	(1, 'empty', cf_create(1000)),
	(2, '300k ints', (SELECT cf_agg(g, 300000, 0.01) FROM generate_series(1, 300000) g)),
	(3, 'seed 9, 0.1%, texts, two deleted', cf_delete(cf_delete(
	        cf_add_all(cf_create(10000, 0.001, 9), ARRAY(SELECT 'k' || g FROM generate_series(1, 3000) g)), 'k1'), 'k2')),
	(4, 'NULL', NULL);

CREATE TABLE arrays (id int PRIMARY KEY, bfs bloomfilter[]);
INSERT INTO arrays VALUES
	(1, ARRAY[bf_add(bf_create(10), 1), NULL, bf_add(bf_create(10, 0.01, 5), 2)]),
	(2, (SELECT array_agg(bf ORDER BY id) FROM filters WHERE id IN (1, 2, 4, 5, 7))),
	(3, NULL);

CREATE TABLE compressed (id int PRIMARY KEY, bf bloomfilter);
ALTER TABLE compressed ALTER bf SET STORAGE main;
INSERT INTO compressed SELECT id, bf FROM filters WHERE id <> 3;
-- bloomfilter indexes: the new server reads the old one's pages
CREATE TABLE keyed (id int8, tag int4);
INSERT INTO keyed SELECT g, g % 5 FROM generate_series(1, 200000) g;
CREATE INDEX keyed_id ON keyed USING bloomfilter (id) WITH (capacity = 500000);
CREATE INDEX keyed_auto ON keyed USING bloomfilter (id);
CREATE INDEX keyed_even ON keyed USING bloomfilter (id) WITH (capacity = 100000) WHERE id % 2 = 0;
CREATE INDEX keyed_pair ON keyed USING bloomfilter (id, tag) WITH (capacity = 500000);
SQL
psql_q -d bf_upgrade_10 <<'SQL'
CREATE EXTENSION bloomfilter VERSION '1.0';
CREATE TABLE t AS SELECT bf_agg(g, 10000, 0.01) AS bf FROM generate_series(1, 10000) g;
SQL

fingerprint() {	# fingerprint DB: one line per filter value
	psql_v -d "$1" -c "
		CREATE TEMP VIEW every_filter AS
			SELECT 'filters' AS tab, id, 0::bigint AS pos, bf FROM filters
			UNION ALL SELECT 'compressed', id, 0, bf FROM compressed
			UNION ALL SELECT 'arrays', id, pos, bf FROM arrays, unnest(bfs) WITH ORDINALITY u(bf, pos);
		SELECT e.tab, e.id, e.pos, coalesce(md5(e.bf::bytea), 'null'), coalesce(bf_bits_set(e.bf), -1),
		       i.hits, i.md5, t.hits, t.md5
		  FROM every_filter e,
		       LATERAL (SELECT count(*) FILTER (WHERE a) AS hits,
		                       md5(string_agg(CASE WHEN a THEN '1' WHEN NOT a THEN '0' ELSE 'n' END, '' ORDER BY g))
		                  FROM (SELECT g, CASE WHEN bf_key_type(e.bf) IS DISTINCT FROM 'text'::regtype THEN bf_contains(e.bf, g) END AS a
		                          FROM generate_series(-20000, 20000) g) s) i,
		       LATERAL (SELECT count(*) FILTER (WHERE a) AS hits,
		                       md5(string_agg(CASE WHEN a THEN '1' WHEN NOT a THEN '0' ELSE 'n' END, '' ORDER BY g))
		                  FROM (SELECT g, CASE WHEN coalesce(bf_key_type(e.bf), 'text'::regtype) = 'text'::regtype THEN bf_contains(e.bf, 'k' || g) END AS a
		                          FROM generate_series(1, 6000) g) s) t
		 ORDER BY 1, 2, 3"
	psql_v -d "$1" -c "
		SELECT 'cuckoos', c.id, coalesce(md5(c.cf::bytea), 'null'), i.hits, i.md5, t.hits, t.md5
		  FROM cuckoos c,
		       LATERAL (SELECT count(*) FILTER (WHERE a) AS hits,
		                       md5(string_agg(CASE WHEN a THEN '1' WHEN NOT a THEN '0' ELSE 'n' END, '' ORDER BY g))
		                  FROM (SELECT g, CASE WHEN cf_key_type(c.cf) IS DISTINCT FROM 'text'::regtype THEN cf_contains(c.cf, g) END AS a
		                          FROM generate_series(-20000, 20000) g) s) i,
		       LATERAL (SELECT count(*) FILTER (WHERE a) AS hits,
		                       md5(string_agg(CASE WHEN a THEN '1' WHEN NOT a THEN '0' ELSE 'n' END, '' ORDER BY g))
		                  FROM (SELECT g, CASE WHEN coalesce(cf_key_type(c.cf), 'text'::regtype) = 'text'::regtype THEN cf_contains(c.cf, 'k' || g) END AS a
		                          FROM generate_series(1, 6000) g) s) t
		 ORDER BY 2"
	psql_v -d bf_upgrade_10 -c "SELECT 'v1.0', md5(bf::bytea), count(*) FILTER (WHERE bf_contains(bf, g))
	                              FROM t, generate_series(-20000, 20000) g GROUP BY bf::bytea"
	# each index: its snapshot, its shape, and its answers for -20000..220000
	psql_v -d "$1" -c "
		SELECT 'index', i, md5(bf_index_filter(i::regclass)::bytea), bf_index_info(i::regclass)->>'nbits',
		       md5(string_agg(CASE WHEN i = 'keyed_pair' THEN bf_index_contains(i::regclass, ROW(g, g % 5))
		                           ELSE bf_index_contains(i::regclass, g) END::int::text, '' ORDER BY g))
		  FROM unnest(ARRAY['keyed_id', 'keyed_auto', 'keyed_even', 'keyed_pair']) i,
		       generate_series(-20000::int8, 220000) g
		 GROUP BY i ORDER BY i"
}
fingerprint bf_upgrade > "$work/before.txt"
rows=$(wc -l < "$work/before.txt")
read -r big_bytes big_stored < <(psql_v -d bf_upgrade -c "
	SELECT octet_length(bf::bytea), pg_column_size(bf) FROM filters WHERE id = 3")
main_compressed=$(psql_v -d bf_upgrade -c "
	SELECT count(*) FROM compressed WHERE pg_column_size(bf) < octet_length(bf::bytea)")
toasted=$(psql_v -d bf_upgrade -c "
	SELECT pg_relation_size(reltoastrelid) FROM pg_class WHERE relname = 'filters'")
echo "old cluster: $rows filter values; the big one is $big_bytes bytes ($big_stored stored); TOAST table of filters: $toasted bytes; $main_compressed STORAGE MAIN values compressed"
check "the big filter is out of line (TOAST table of $toasted bytes)" "$toasted" -ge "$big_bytes"
check "some STORAGE MAIN values are stored compressed ($main_compressed)" "$main_compressed" -gt 0
cuckoo_toast=$(psql_v -d bf_upgrade -c "
	SELECT pg_relation_size(reltoastrelid) FROM pg_class WHERE relname = 'cuckoos'")
check "the big cuckoo filter is out of line too (TOAST table of $cuckoo_toast bytes)" "$cuckoo_toast" -gt 0
# Debian's 15.20 stamps every column with an attribute option pg_attver
# that 18 and 19 refuse in pg_restore, so pg_upgrade from it to them fails
# on any user table (CONTRIBUTING.md: PostgreSQL versions).  With
# BF_CLEAR_ATTVER=1 the stamp is taken out of the user columns' options in
# the catalog by hand, as the last thing before the old server stops, to
# check what pg_upgrade does to the filters there; not a step for a real
# cluster.
if [ "${BF_CLEAR_ATTVER:-}" = 1 ]; then
	for db in bf_upgrade bf_upgrade_10; do
		cleared=$(psql_v -d "$db" -c "
			WITH c AS (
				UPDATE pg_attribute
				   SET attoptions = nullif(ARRAY(SELECT o FROM unnest(attoptions) o
				                                  WHERE o NOT LIKE 'pg\_attver=%'), '{}')
				 WHERE attrelid >= 16384 AND attoptions::text LIKE '%pg\_attver=%'
				RETURNING 1)
			SELECT count(*) FROM c")
		echo "$db: pg_attver cleared from $cleared user columns (BF_CLEAR_ATTVER=1)"
	done
fi
stop

# ---- pg_upgrade ----
initdb_opts=(-A trust -U postgres --no-locale -E UTF8)
# 18 turns data checksums on by default; 15's cluster has none
[ "$new_major" -lt 18 ] || initdb_opts+=(--no-data-checksums)
as_pg "$new_bin/initdb" -D "$work/new" "${initdb_opts[@]}" > /dev/null
upgrade=0
(cd "$work" && as_pg "$new_bin/pg_upgrade" -b "$old_bin" -B "$new_bin" -d "$work/old" -D "$work/new" \
	-U postgres --socketdir="$work" -p 5433 -P 5434 > "$work/pg_upgrade.log" 2>&1) || upgrade=$?
if [ "$upgrade" -ne 0 ]; then
	cat "$work/pg_upgrade.log"
	find "$work/new/pg_upgrade_output.d" -name '*.log' -exec tail -n 20 {} + 2> /dev/null || true
	echo "---- errors in pg_upgrade's logs:"
	find "$work/new/pg_upgrade_output.d" -name '*.log' -exec grep -h "error:" {} + 2> /dev/null | sort -u || true
fi
check "pg_upgrade $old_version -> $new_version" "$upgrade" -eq 0
if [ "$upgrade" -ne 0 ]; then
	echo "summary: pg_upgrade $old_version -> $new_version: pg_upgrade itself failed"
	finish
fi

# ---- the new cluster: the same bytes, the same answers ----
start "$new_bin" "$work/new"
fingerprint bf_upgrade > "$work/after.txt"
if ! cmp -s "$work/before.txt" "$work/after.txt"; then
	diff "$work/before.txt" "$work/after.txt" | head -20 || true
fi
check "all $rows values byte-identical, with identical answers for members and non-members" \
	"$(cmp -s "$work/before.txt" "$work/after.txt" && echo same)" = same
server=$(psql_v -d bf_upgrade -c "SHOW server_version" | cut -d' ' -f1)
server_major=$(psql_v -d bf_upgrade -c "SELECT current_setting('server_version_num')::int / 10000")
check "the upgraded cluster runs $server" "$server_major" = "$new_major"
read -r hits_int < <(awk '$1 == "filters" && $2 == 3 { print $6 }' "$work/after.txt")
check "the 1M-key filter still answers true for its members (-20000..20000: $hits_int hits >= 20000)" \
	"${hits_int:-0}" -ge 20000

# the extension keeps working: new values, operations, soft input errors
read -r same_add union_ok valid < <(psql_v -d bf_upgrade -c "
	SELECT bf_add(bf, 1000001)::bytea = bf_add(bf, 1000001)::bytea AND bf_contains(bf_add(bf, 1000001), 1000001),
	       bf_bits_set(bf | bf) = bf_bits_set(bf),
	       pg_input_is_valid('garbage', 'bloomfilter')
	  FROM filters WHERE id = 3")
check "adds and unions on upgraded values" "$same_add $union_ok" = "t t"
check "pg_input_is_valid('garbage') is false on the new server" "$valid" = f
read -r index_found index_exact < <(psql_v -d bf_upgrade -c "
	INSERT INTO keyed SELECT g, g % 5 FROM generate_series(300001, 310000) g;
	SELECT bool_and(bf_index_contains('keyed_id', id) AND bf_index_contains('keyed_pair', ROW(id, tag))),
	       bf_index_filter('keyed_id') = bf_add_all(bf_create(500000, 0.01), array_agg(id))
	  FROM keyed")
check "the upgraded bloomfilter indexes take inserts: every key found, keyed_id exactly the table's keys" \
	"$index_found $index_exact" = "t t"
ext=$(psql_v -d bf_upgrade_10 -c "ALTER EXTENSION bloomfilter UPDATE" -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'")
check "extension 1.0 updates in place on the new server (now $ext)" "$ext" = "$(sed -nE "s/^default_version = '(.*)'/\1/p" "$repo/bloomfilter.control")"
after_update=$(psql_v -d bf_upgrade_10 -c "SELECT 'v1.0', md5(bf::bytea), count(*) FILTER (WHERE bf_contains(bf, g))
	FROM t, generate_series(-20000, 20000) g GROUP BY bf::bytea")
check "the 1.0 database's filter is unchanged after the update" "$after_update" = "$(grep '^v1.0' "$work/before.txt")"
stop
echo "summary: pg_upgrade $old_version -> $new_version: $rows filter values compared"
finish
