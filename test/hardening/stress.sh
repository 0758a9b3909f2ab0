#!/bin/bash
# Eight clients add to and check a few shared filter rows at once for
# STRESS_SECONDS (default 60).  Every add is logged in the same transaction;
# afterwards every logged key must be in its filter (zero false negatives)
# and every filter must still validate.
# Run inside a cluster: pg_virtualenv -v 15 bash test/hardening/stress.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DB=bf_stress
SECONDS_TO_RUN=${STRESS_SECONDS:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fresh_db $DB
psql -X -q -d $DB <<'SQL'
CREATE TABLE filters (name int PRIMARY KEY, bf bloomfilter NOT NULL);
INSERT INTO filters SELECT g, bf_create(20000, 0.01) FROM generate_series(0, 7) g;
CREATE TABLE added (name int NOT NULL, key bigint NOT NULL);
SQL

# 40% single adds, 10% batches of three, 50% checks; eight rows shared by
# eight clients, so writers queue on the same row locks
cat > "$work/mixed.sql" <<'EOF2'
\set name random(0, 7)
\set key random(1, 1000000000000)
\set op random(1, 10)
\if :op <= 4
BEGIN;
UPDATE filters SET bf = bf_add(bf, :key::bigint) WHERE name = :name;
INSERT INTO added VALUES (:name, :key);
COMMIT;
\elif :op = 5
BEGIN;
UPDATE filters SET bf = bf_add_all(bf, ARRAY[:key::bigint, :key::bigint + 1, :key::bigint + 2]) WHERE name = :name;
INSERT INTO added VALUES (:name, :key), (:name, :key + 1), (:name, :key + 2);
COMMIT;
\else
SELECT bf_contains(bf, :key::bigint) FROM filters WHERE name = :name;
\endif
EOF2

pgbench -n -c 8 -j 2 -T "$SECONDS_TO_RUN" -f "$work/mixed.sql" $DB > "$work/pgbench.out" 2>&1
grep -E "^(number of transactions actually processed|number of failed|tps)" "$work/pgbench.out" || true

read -r adds fneg bad fill < <(psql -X -A -t -F ' ' -d $DB -c "
	SELECT (SELECT count(*) FROM added),
	       (SELECT count(*) FROM added a JOIN filters f USING (name) WHERE NOT bf_contains(f.bf, a.key)),
	       (SELECT count(*) FROM filters
	         WHERE bf::text::bloomfilter::bytea <> bf::bytea
	            OR bf::bytea::bloomfilter::bytea <> bf::bytea),
	       (SELECT round(max(bf_bits_set(bf)::numeric / bf_nbits(bf)), 3) FROM filters)")
echo "adds logged: $adds, false negatives: $fneg, filters failing validation: $bad, fullest filter fill: $fill"

check "more than 1000 adds ran" "$adds" -gt 1000
check "no false negatives" "$fneg" -eq 0
check "every filter validates" "$bad" -eq 0
psql -X -q -d postgres -c "DROP DATABASE $DB"
finish
