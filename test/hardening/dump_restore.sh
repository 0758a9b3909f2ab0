#!/bin/bash
# pg_dump / pg_restore (custom and plain formats) and COPY BINARY give back
# byte-identical filters that answer every check the same way.
# Run inside a cluster: pg_virtualenv -v 15 bash test/hardening/dump_restore.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
for db in bf_src bf_custom bf_plain; do
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
done

psql -X -q -d bf_src <<'SQL'
CREATE EXTENSION bloomfilter;
CREATE TABLE filters (id int PRIMARY KEY, bf bloomfilter);
INSERT INTO filters VALUES
	(1, bf_create(1)),
	(2, bf_add(bf_create(100), 'one')),
	(3, (SELECT bf_agg(g, 1000000, 0.01) FROM generate_series(1, 1000000) g)),
	(4, (SELECT bf_agg(g, 50000, 0.001) FROM generate_series(1, 50000, 3) g)),
	(5, bf_add_all(bf_create(1000, 0.05, 4294967295), ARRAY[1, 2, 3])),
	(6, NULL);
SQL

# fingerprint: the bytes of every filter and its answers for 1 .. 20000
fingerprint() {
	psql -X -A -t -d "$1" -c "
		SELECT id, md5(bf::bytea),
		       (SELECT count(*) FILTER (WHERE bf_contains(f.bf, g)) FROM generate_series(1, 20000) g)
		FROM $2 f ORDER BY id"
}
fingerprint bf_src filters > "$work/src.txt"

pg_dump -Fc -f "$work/db.dump" bf_src
pg_restore -d bf_custom "$work/db.dump"
fingerprint bf_custom filters > "$work/custom.txt"

pg_dump -Fp bf_src | psql -X -q -d bf_plain > /dev/null
fingerprint bf_plain filters > "$work/plain.txt"

psql -X -q -d bf_src -c "\copy filters TO '$work/filters.bin' WITH (FORMAT binary)"
psql -X -q -d bf_plain -c "CREATE TABLE copied (LIKE filters)" \
	-c "\copy copied FROM '$work/filters.bin' WITH (FORMAT binary)"
fingerprint bf_plain copied > "$work/copy.txt"

for kind in custom plain copy; do
	diff "$work/src.txt" "$work/$kind.txt" || true
	check "$kind round trip is byte-identical ($(wc -l < "$work/$kind.txt") filters)" \
		"$(cmp -s "$work/src.txt" "$work/$kind.txt" && echo same)" = same
done
for db in bf_src bf_custom bf_plain; do psql -X -q -d postgres -c "DROP DATABASE $db"; done
finish
