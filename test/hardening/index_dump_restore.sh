#!/bin/bash
# Dump and restore of bloomfilter indexes: pg_dump in custom format and
# pg_restore, and plain SQL through psql.  A dump holds an index as its
# definition (USING bloomfilter, its operator classes by default, its
# options, its predicate); the restore rebuilds it from the restored rows.
#
# Each restored index must have the same definition, answer for every key
# of its table, and, where its size was given by options, be byte for byte
# the original after a REINDEX of the original (which forgets keys of
# deleted rows, as the restore never had them).  An index sized from its
# table is sized again from the restored table, so only its answers are
# compared.
#
# Starts its own server; run as root with pg_config in PATH:
#   bash test/hardening/index_dump_restore.sh
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

SRC=bf_index_src
export PGOPTIONS="-c statement_timeout=600s"

private_workdir bf_index_dump
trap nodes_stop_all EXIT
node_init main 5432 "shared_buffers = 64MB"
node_start main
on main fresh_db $SRC
on main psql_q -d $SRC <<'SQL'
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE users (id int4, email text, region text, mood mood, seen date);
INSERT INTO users SELECT g, 'User' || g || '@Example.com', CASE WHEN g % 3 = 0 THEN 'eu' ELSE 'us' END,
	(ARRAY['sad', 'ok', 'happy']::mood[])[1 + g % 3], date '2024-01-01' + g % 400
FROM generate_series(1, 20000) g;
CREATE INDEX users_id ON users USING bloomfilter (id) WITH (capacity = 50000, error_rate = 0.001);
CREATE INDEX users_eu ON users USING bloomfilter (id) WITH (capacity = 10000) WHERE region = 'eu';
CREATE INDEX users_email ON users USING bloomfilter (lower(email)) WITH (capacity = 50000);
CREATE INDEX users_pair ON users USING bloomfilter (id, mood, seen) WITH (capacity = 50000);
CREATE INDEX users_auto ON users USING bloomfilter (email);
CREATE TABLE push (user_id int8, message_id uuid);
INSERT INTO push SELECT g / 5, md5(g::text)::uuid FROM generate_series(1, 10000) g;
CREATE INDEX push_dedup ON push USING bloomfilter (user_id, message_id) WITH (capacity = 20000);
DELETE FROM users WHERE id % 10 = 0;
INSERT INTO users VALUES (-1, 'late@example.com', 'eu', 'ok', '2025-01-01');
SQL

answers() {	# answers DB: per index, its definition and the table keys it misses
	on main psql_v -d "$1" -c "
		SELECT 'users_id', (SELECT count(*) FILTER (WHERE NOT bf_index_contains('users_id', id)) FROM users)
		UNION ALL SELECT 'users_eu', (SELECT count(*) FILTER (WHERE NOT bf_index_contains('users_eu', id)) FROM users WHERE region = 'eu')
		UNION ALL SELECT 'users_email', (SELECT count(*) FILTER (WHERE NOT bf_index_contains('users_email', lower(email))) FROM users)
		UNION ALL SELECT 'users_pair', (SELECT count(*) FILTER (WHERE NOT bf_index_contains('users_pair', ROW(id, mood, seen))) FROM users)
		UNION ALL SELECT 'users_auto', (SELECT count(*) FILTER (WHERE NOT bf_index_contains('users_auto', email)) FROM users)
		UNION ALL SELECT 'push_dedup', (SELECT count(*) FILTER (WHERE NOT bf_index_contains('push_dedup', ROW(user_id, message_id))) FROM push);
		SELECT indexrelid::regclass, pg_get_indexdef(indexrelid) FROM pg_index
		 WHERE indrelid IN ('users'::regclass, 'push'::regclass) ORDER BY indexrelid::regclass::text;"
}

# the snapshots of the indexes sized by options
snapshots() {	# snapshots DB
	on main psql_v -d "$1" -c "
		SELECT i, md5(bf_index_filter(i::regclass)::bytea)
		  FROM unnest(ARRAY['users_id', 'users_eu', 'users_email', 'users_pair', 'push_dedup']) i ORDER BY 1"
}

as_pg "$(pg_config --bindir)/pg_dump" -h "$work" -p "$(node_port main)" -U postgres -Fc \
	-f "$work/src.dump" $SRC
as_pg "$(pg_config --bindir)/pg_dump" -h "$work" -p "$(node_port main)" -U postgres \
	-f "$work/src.sql" $SRC
on main psql_q -d $SRC -c "REINDEX TABLE users" -c "REINDEX TABLE push"
answers $SRC > "$work/src.answers"
snapshots $SRC > "$work/src.snapshots"
check "the original misses no key" "$(awk '$2 ~ /^[0-9]+$/ && $2 != 0' "$work/src.answers" | wc -l)" -eq 0

for form in custom plain; do
	db=bf_index_$form
	on main psql_q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
	if [ $form = custom ]; then
		as_pg "$(pg_config --bindir)/pg_restore" -h "$work" -p "$(node_port main)" -U postgres \
			-d $db --exit-on-error "$work/src.dump"
	else
		on main psql_q -d $db -f "$work/src.sql" > /dev/null
	fi
	answers $db > "$work/$db.answers"
	snapshots $db > "$work/$db.snapshots"
	check "$form: same definitions, no key missing from any restored index" \
		"$(diff "$work/src.answers" "$work/$db.answers" | wc -l)" -eq 0
	check "$form: indexes sized by options are byte-identical to the original's" \
		"$(diff "$work/src.snapshots" "$work/$db.snapshots" | wc -l)" -eq 0
done
[ "$failed" -eq 0 ] || diff "$work/src.answers" "$work/bf_index_custom.answers" || true
finish
