#!/bin/bash
# Dump and restore: pg_dump custom format + pg_restore, plain SQL + psql,
# directory format dumped and restored with 2 jobs, plain with --inserts,
# and COPY BINARY out and back in.  Each copy must hold byte-identical
# filters (md5 of bf::bytea per row) that give identical bf_contains answers.
#
# Why: pg_dump writes filters through the text output (base64) and
# restores them through the text input, which validates everything; COPY
# BINARY goes through send/receive instead.  A value either path rejects or
# alters would make a database impossible to restore, or quietly different
# after the restore.  The set covers the shapes that matter: empty, tiny,
# a 10-million-bit filter (over a megabyte, out of line), the smallest and
# largest seeds, several error rates, an overfilled one, text keys with
# non-ASCII characters, NULL; also arrays of filters (element send/receive),
# a domain over the type with a CHECK calling the extension (restored data
# is checked by it), and a column with STORAGE MAIN (values compressed in
# line instead of the type's EXTERNAL default).
#
# Run inside a cluster: pg_virtualenv -v 15 bash test/hardening/dump_restore.sh
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PGOPTIONS="-c statement_timeout=600s"
SRC=bf_dump_src
COPIES="bf_dump_custom bf_dump_plain bf_dump_dir bf_dump_inserts bf_dump_copy"

fresh_db $SRC
for db in $COPIES; do
	psql_q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
done

psql_q -d $SRC <<'SQL'
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
	                    | (SELECT bf_agg(g, 30000, 0.05) FROM generate_series(15000, 19000) g));

-- element send/receive: filters inside an array, with a NULL element
CREATE TABLE arrays (id int PRIMARY KEY, bfs bloomfilter[]);
INSERT INTO arrays VALUES
	(1, ARRAY[bf_add(bf_create(10), 1), NULL, bf_add(bf_create(10, 0.01, 5), 2)]),
	(2, (SELECT array_agg(bf ORDER BY id) FROM filters WHERE id IN (1, 2, 4, 5, 7))),
	(3, NULL);

-- a domain whose check calls the extension: restored rows pass through it
CREATE DOMAIN sized_filter AS bloomfilter CHECK (bf_nbits(VALUE) >= 512);
CREATE TABLE domained (id int PRIMARY KEY, bf sized_filter);
INSERT INTO domained SELECT id, bf FROM filters;

-- STORAGE MAIN: compressed in line where the value compresses
CREATE TABLE compressed (id int PRIMARY KEY, bf bloomfilter);
ALTER TABLE compressed ALTER bf SET STORAGE main;
INSERT INTO compressed SELECT id, bf FROM filters WHERE id <> 3;
SQL

# Fingerprint of a database: per row, md5 of the bytes, bits set, and md5s
# of the answers for the integers 1 .. 20000 and for 3000 texts.
fingerprint() {	# fingerprint DB
	psql_v -d "$1" -c "
		CREATE TEMP VIEW every_filter AS
			SELECT 'filters' AS tab, id, 0::bigint AS pos, bf FROM filters
			UNION ALL SELECT 'domained', id, 0, bf FROM domained
			UNION ALL SELECT 'compressed', id, 0, bf FROM compressed
			UNION ALL SELECT 'arrays', id, pos, bf FROM arrays, unnest(bfs) WITH ORDINALITY u(bf, pos);
		SELECT tab, id, pos, coalesce(md5(bf::bytea), 'null'), coalesce(bf_bits_set(bf), -1),
		       (SELECT md5(string_agg(CASE WHEN bf_contains(e.bf, g) THEN '1' ELSE '0' END, '' ORDER BY g))
		          FROM generate_series(1, 20000) g),
		       (SELECT md5(string_agg(CASE WHEN bf_contains(e.bf, 'k' || g) THEN '1' ELSE '0' END, '' ORDER BY g))
		          FROM generate_series(1, 3000) g)
		  FROM every_filter e ORDER BY 1, 2, 3"
}
fingerprint $SRC > "$work/$SRC.txt"
rows=$(wc -l < "$work/$SRC.txt")
read -r big_nbits big_bytes < <(psql_v -d $SRC -c "SELECT bf_nbits(bf), octet_length(bf::bytea) FROM filters WHERE id = 3")
read -r main_inline < <(psql_v -d $SRC -c "
	SELECT count(*) FROM compressed WHERE pg_column_size(bf) < octet_length(bf::bytea)")
echo "source: $rows filter values (NULLs included); the big one has $big_nbits bits ($big_bytes bytes); $main_inline STORAGE MAIN values stored compressed"
check "the big filter has at least 10M bits" "$big_nbits" -ge 10000000
check "some STORAGE MAIN values are compressed ($main_inline)" "$main_inline" -gt 0

# Every restore must finish without an error
pg_dump -Fc -f "$work/src.dump" $SRC
pg_restore --exit-on-error -d bf_dump_custom "$work/src.dump"

pg_dump -Fp -f "$work/src.sql" $SRC
psql_q -d bf_dump_plain -f "$work/src.sql" > /dev/null

pg_dump -Fd -j 2 -f "$work/src.dir" $SRC
pg_restore --exit-on-error -j 2 -d bf_dump_dir "$work/src.dir"

pg_dump -Fp --inserts -f "$work/src_inserts.sql" $SRC
psql_q -d bf_dump_inserts -f "$work/src_inserts.sql" > /dev/null
echo "dump sizes: custom $(du -k "$work/src.dump" | cut -f1) kB, plain $(du -k "$work/src.sql" | cut -f1) kB, inserts $(du -k "$work/src_inserts.sql" | cut -f1) kB"

# COPY BINARY: the schema from a schema-only dump, the rows by send/receive
pg_dump -s $SRC | psql_q -d bf_dump_copy > /dev/null
for t in filters arrays domained compressed; do
	psql_q -d $SRC -c "\\copy $t TO '$work/$t.bin' WITH (FORMAT binary)"
	psql_q -d bf_dump_copy -c "\\copy $t FROM '$work/$t.bin' WITH (FORMAT binary)"
done

for db in $COPIES; do
	fingerprint "$db" > "$work/$db.txt"
	if ! cmp -s "$work/$SRC.txt" "$work/$db.txt"; then
		diff "$work/$SRC.txt" "$work/$db.txt" | head -20 || true
	fi
	check "$db: all $rows values byte-identical with identical answers" \
		"$(cmp -s "$work/$SRC.txt" "$work/$db.txt" && echo same)" = same
done

# STORAGE MAIN must survive too (it is part of the schema, not the data)
for db in bf_dump_custom bf_dump_plain; do
	storage=$(psql_v -d $db -c "SELECT attstorage FROM pg_attribute WHERE attrelid = 'compressed'::regclass AND attname = 'bf'")
	check "$db: STORAGE MAIN kept ($storage)" "$storage" = m
done

for db in $SRC $COPIES; do psql_q -d postgres -c "DROP DATABASE $db"; done
finish
