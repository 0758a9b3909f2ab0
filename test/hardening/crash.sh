#!/bin/bash
# Bulk adds and an aggregate rebuild are running when the server is stopped
# with an immediate shutdown (no checkpoint: recovery replays the WAL).
# After restart every add whose transaction committed must be in its
# filter, and every stored filter must still validate.
# Run inside a cluster: pg_virtualenv -v 15 bash test/hardening/crash.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DB=bf_crash
CRASH_AFTER=${CRASH_AFTER:-6}

fresh_db $DB
psql -X -q -d $DB <<'SQL'
CREATE TABLE filters (name int PRIMARY KEY, bf bloomfilter NOT NULL);
INSERT INTO filters SELECT g, bf_create(2000000, 0.01) FROM generate_series(0, 3) g;
CREATE TABLE added (name int NOT NULL, key bigint NOT NULL);
CREATE TABLE rebuilt (n serial, bf bloomfilter NOT NULL);
SQL

# writer: each transaction adds 1000 new keys to one filter and logs them
psql -X -q -d $DB -c "
DO \$\$
BEGIN
	FOR i IN 0 .. 1000000 LOOP
		UPDATE filters SET bf = bf_add_all(bf, ARRAY(SELECT i * 1000 + g FROM generate_series(1, 1000) g)::bigint[])
		 WHERE name = i % 4;
		INSERT INTO added SELECT i % 4, i * 1000 + g FROM generate_series(1, 1000) g;
		COMMIT;
	END LOOP;
END \$\$" > /dev/null 2>&1 &
writer=$!
# rebuilder: aggregates everything logged so far into a new stored filter
psql -X -q -d $DB -c "
DO \$\$
BEGIN
	FOR i IN 0 .. 1000000 LOOP
		INSERT INTO rebuilt (bf) SELECT bf_agg(key, 10000000, 0.01) FROM added HAVING count(*) > 0;
		COMMIT;
	END LOOP;
END \$\$" > /dev/null 2>&1 &
rebuilder=$!

sleep "$CRASH_AFTER"
before=$(psql -X -A -t -d $DB -c "SELECT count(*) FROM added")
echo "about $before adds committed; immediate shutdown"
pg_ctlcluster 15 regress stop -m immediate
wait $writer $rebuilder || true
pg_ctlcluster 15 regress start
for _ in $(seq 30); do pg_isready -q && break; sleep 1; done

# the writer's transactions commit in order, so any rebuild that saw rows
# saw the first transaction's keys, 1 .. 1000
read -r adds fneg bad rebuilds rebuild_fneg < <(psql -X -A -t -F ' ' -d $DB -c "
	SELECT (SELECT count(*) FROM added),
	       (SELECT count(*) FROM added a JOIN filters f USING (name) WHERE NOT bf_contains(f.bf, a.key)),
	       (SELECT count(*) FROM (SELECT bf FROM filters UNION ALL SELECT bf FROM rebuilt) s
	         WHERE bf::text::bloomfilter::bytea <> bf::bytea
	            OR bf::bytea::bloomfilter::bytea <> bf::bytea),
	       (SELECT count(*) FROM rebuilt),
	       (SELECT count(*) FROM rebuilt r, generate_series(1::bigint, 1000) g
	         WHERE NOT bf_contains(r.bf, g))")
echo "after restart: $adds committed adds, $fneg false negatives, $rebuilds rebuilt filters, $bad filters failing validation, $rebuild_fneg false negatives in rebuilds"

check "every add seen committed before the crash survived" "$adds" -ge "$before"
check "adds and rebuilds ran" "$((adds > 0 && rebuilds > 0))" -eq 1
check "no false negatives after recovery" "$fneg" -eq 0
check "every stored filter validates" "$bad" -eq 0
check "rebuilt filters hold the first keys" "$rebuild_fneg" -eq 0
psql -X -q -d postgres -c "DROP DATABASE $DB"
finish
