#!/bin/bash
# Every upgraded database restores from a dump (issue 34, item 7).
#
# For each released version (1.0 .. 1.4): a database installs that version,
# makes objects that call what later releases rename or replace (views, a
# column default, a check constraint, an index on an expression, a function
# with BEGIN ATOMIC, an operator and an aggregate of the user's own), takes
# rows, and is updated to the current release (ALTER EXTENSION bloomfilter
# UPDATE): the calls now reach kept forms such as bf_contains_1_3,
# bf_create_1_4 or bf_shard_text_1_2 (docs/reference.md, "Dumps of upgraded
# databases").  The database is dumped with pg_dump, in plain format
# restored by psql with ON_ERROR_STOP and in custom format by pg_restore
# --exit-on-error, each into a new empty database, where the dump's
# CREATE EXTENSION makes a fresh install of the current release.  Then:
#   - the restore ran without an error, and the extension in the copy is
#     at the current version;
#   - every object of the user's is there, with the same definition
#     (relations, columns' defaults, constraints, indexes, views, functions,
#     operators, aggregates);
#   - every answer is the same: every view's rows, the table's rows, the
#     default a new row gets, the function, the operator, the aggregate, and
#     a scan of the expression index.
#
# Until 1.5 the kept forms were members of the extension, so pg_dump left
# them out and the restore failed on the first object that named one
# ("function public.bf_contains_1_3(public.bloomfilter, text) does not
# exist"), losing it and what was built on it.
#
# Runs against the server of the PG* environment (make test runs it under
# pg_virtualenv, after make install); about 20 s.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
require_pg_env_server

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
RELEASES=${UDR_RELEASES:-1.0 1.1 1.2 1.3 1.4}
current=$(psql_v -d postgres -c "SELECT default_version FROM pg_available_extensions WHERE name = 'bloomfilter'")
echo "current release: $current; upgrading from: $RELEASES"

ge() {	# ge A B: version A >= version B
	[ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -1)" = "$1" ]
}

# The objects a database of release $1 makes: each call binds to what
# that release has, and so to a kept form after the update.
objects_sql() {
	local v=$1
	cat <<'SQL'
CREATE TABLE t (
	id int PRIMARY KEY,
	k int8 NOT NULL,
	s text NOT NULL,
	f bloomfilter DEFAULT bf_create(1000, 0.01),
	g bloomfilter
);
INSERT INTO t
	SELECT i, i * 7, 'key-' || i, bf_add(bf_add(bf_create(1000, 0.01), 'key-' || i), 'abc'::text),
		   bf_add(bf_add(bf_create(1000, 0.01, 5), (i * 7)::int8), 0::int8)
	FROM generate_series(1, 40) i;
INSERT INTO t (id, k, s) VALUES (41, 287, 'key-41');
ALTER TABLE t ADD CONSTRAINT t_has_sentinel CHECK (f IS NULL OR bf_contains(f, 'sentinel'::text) IS NOT NULL);
CREATE INDEX t_has_abc ON t ((bf_contains(f, 'abc'::text)));
CREATE VIEW v_create AS SELECT bf_create(1000, 0.01) AS plain, bf_create(1000, 0.01, 7) AS seeded;
CREATE VIEW v_check AS
	SELECT id, bf_contains(f, 'abc'::text) AS has_text, bf_contains(g, k) AS has_key,
		   bf_contains(f, 'nope'::text) AS has_other, bf_contained(s, f) AS contained,
		   bf_contained(k + 1, g) AS key_contained,
		   f @> 'abc'::text AS op_text, g @> k AS op_key, k <@ g AS op_key_in, s <@ f AS op_text_in,
		   bf_add(f, 'more'::text) AS added, bf_add(g, 3::int8) AS added_key
	FROM t;
CREATE VIEW v_agg AS SELECT bf_agg(s, 1000, 0.01) AS texts, bf_agg(k, 1000) AS keys FROM t;
CREATE FUNCTION probe(bf bloomfilter, key text) RETURNS boolean LANGUAGE sql IMMUTABLE
BEGIN ATOMIC
	SELECT bf_contains(bf, key) AND bf_contains(bf_add(bf_create(10, 0.01), key), key);
END;
SQL
	if ge 1.3 "$v"; then	# 1.4 has no text form to name
		cat <<'SQL'
CREATE OPERATOR ?~ (LEFTARG = bloomfilter, RIGHTARG = text, FUNCTION = bf_contains);
SQL
	fi
	if ge "$v" 1.2; then	# cuckoo filters, typed shards, per-type aggregates
		cat <<'SQL'
CREATE TABLE c (id int PRIMARY KEY, cf cuckoofilter DEFAULT cf_create(1000, 0.01), cg cuckoofilter);
INSERT INTO c SELECT g, cf_add(cf_add(cf_create(1000, 0.01, 11), 'abc'::text), 'c-' || g),
					 cf_add(cf_create(1000, 0.01, 11), g::int8)
FROM generate_series(1, 10) g;
CREATE VIEW v_cuckoo AS
	SELECT id, cf_contains(cf, 'abc'::text) AS has_text, cf_contains(cg, id::int8) AS has_key,
		   cf_count(cf, 'abc'::text) AS n_text, cf_count(cg, id::int8) AS n_key, cf_contains(cf, 'c-' || id) AS has_own,
		   cf_contained(id::int8, cg) AS key_contained, cg @> (id + 1)::int8 AS op_key,
		   cf @> 'abc'::text AS op_text, cf_add(cf, 'x'::text) AS added, cf_add_nx(cf, 'abc'::text) AS added_nx,
		   cf_delete(cf, 'abc'::text) AS deleted, cf_create(500, 0.01) AS plain, cf_create(500, 0.01, 19) AS seeded
	FROM c;
CREATE VIEW v_shard AS SELECT bf_shard(s, 16) AS shard, bf_shard(s || '-', 8) AS other FROM t;
CREATE VIEW v_cf_agg AS SELECT cf_agg(s, 1000, 0.01) AS texts, cf_agg(k, 1000) AS keys FROM t;
SQL
	fi
	if ge "$v" 1.3; then	# the bloomfilter index, counting filters, an aggregate of one's own
		cat <<'SQL'
CREATE INDEX t_bf ON t USING bloomfilter (k);
CREATE VIEW v_index AS SELECT bf_index_contains('t_bf', 14::int8) AS member, bf_index_contains('t_bf', 15::int8) AS other;
CREATE VIEW v_count AS
	SELECT bf_count(x, 'abc'::text) AS n, bf_remove(x, 'abc'::text) AS removed
	FROM (SELECT bf_add(bf_add(bf_create(100, 0.01, counting => true), 'abc'::text), 'abc'::text) AS x) s;
CREATE AGGREGATE my_agg(int8, bigint, float8) (
	SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter, FINALFUNC = bloomfilter_agg_final,
	COMBINEFUNC = bf_union, PARALLEL = SAFE);
CREATE VIEW v_my_agg AS SELECT my_agg(k, 1000, 0.01) AS f FROM t;
SQL
	fi
	if ge "$v" 1.4; then	# bf_create's 1.4 form; cuckoofilter's estimators by their 1.4 names
		cat <<'SQL'
CREATE VIEW v_typed AS SELECT bf_create(1000, 0.001, key_type => 'bigint') AS f;
CREATE FUNCTION cf_has(cuckoofilter, int8) RETURNS boolean
	LANGUAGE sql IMMUTABLE STRICT AS 'SELECT cf_contains($1, $2)' SUPPORT cuckoofilter_support;
CREATE FUNCTION cf_in(int8, cuckoofilter) RETURNS boolean
	LANGUAGE sql IMMUTABLE STRICT AS 'SELECT cf_contains($2, $1)';
CREATE OPERATOR &? (LEFTARG = int8, RIGHTARG = cuckoofilter, FUNCTION = cf_in,
	RESTRICT = cuckoofilter_contsel, JOIN = cuckoofilter_contjoinsel);
SQL
	fi
}

# What the user's objects are: one line each, by name and definition, with
# nothing that depends on OIDs.  Members of the extension are not listed
# (an upgraded database and a fresh install differ there); whatever else
# is in the schema is.
inventory_sql() {
	cat <<'SQL'
\pset tuples_only on
\pset format unaligned
SET search_path = public;
WITH members AS (
	SELECT d.classid, d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
	WHERE d.deptype = 'e' AND e.extname = 'bloomfilter')
SELECT line FROM (
	SELECT 'relation ' || c.relname || ' ' || c.relkind::text AS line
	FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'v', 'i', 'm')
	UNION ALL
	SELECT 'column ' || a.attrelid::regclass || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
		   || coalesce(' default ' || pg_get_expr(ad.adbin, ad.adrelid), '')
	FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
	LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
	WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
	UNION ALL
	SELECT 'constraint ' || conrelid::regclass || '.' || conname || ' ' || pg_get_constraintdef(oid)
	FROM pg_constraint WHERE connamespace = 'public'::regnamespace
	UNION ALL
	SELECT 'index ' || pg_get_indexdef(indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
	WHERE c.relnamespace = 'public'::regnamespace
	UNION ALL
	SELECT 'view ' || c.relname || ' ' || regexp_replace(pg_get_viewdef(c.oid), '\s+', ' ', 'g')
	FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'v'
	UNION ALL
	SELECT 'function ' || p.oid::regprocedure || ' ' || p.prokind::text || ' '
		   || CASE WHEN p.prokind = 'a' THEN '' ELSE regexp_replace(pg_get_functiondef(p.oid), '\s+', ' ', 'g') END
	FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
	  AND NOT EXISTS (SELECT 1 FROM members m WHERE m.classid = 'pg_proc'::regclass AND m.objid = p.oid)
	UNION ALL
	SELECT 'aggregate ' || a.aggfnoid::regprocedure || ' ' || a.aggtransfn::regprocedure || ' '
		   || a.aggfinalfn || ' ' || a.aggcombinefn || ' ' || a.aggtranstype::regtype
	FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
	WHERE p.pronamespace = 'public'::regnamespace
	  AND NOT EXISTS (SELECT 1 FROM members m WHERE m.classid = 'pg_proc'::regclass AND m.objid = p.oid)
	UNION ALL
	SELECT 'operator ' || o.oid::regoperator || ' ' || o.oprcode::regprocedure || ' ' || o.oprrest || ' ' || o.oprjoin
	FROM pg_operator o WHERE o.oprnamespace = 'public'::regnamespace
	  AND NOT EXISTS (SELECT 1 FROM members m WHERE m.classid = 'pg_operator'::regclass AND m.objid = o.oid)
) s ORDER BY line COLLATE "C";
SQL
}

# Every answer the objects give, one line each.
answers_sql() {
	cat <<'SQL'
\pset tuples_only on
\pset format unaligned
SET search_path = public;
-- every view, every row, as text
SELECT format('SELECT %L || '' '' || coalesce(md5(string_agg(x::text, %L ORDER BY x::text)), %L) FROM %I x',
			  c.relname, E'\n', 'no rows', c.relname)
FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'v' ORDER BY c.relname COLLATE "C"
\gexec
SELECT 'rows ' || md5(string_agg(x::text, E'\n' ORDER BY id)) FROM t x;
SELECT 'probe ' || string_agg(probe(f, s)::text || probe(f, 'abc')::text || probe(f, 'nope')::text, '' ORDER BY id) FROM t;
-- the default and the check, for a new row
BEGIN;
INSERT INTO t (id, k, s) VALUES (1000, 1, 'new') RETURNING 'default ' || md5(f::text);
ROLLBACK;
-- the expression index, used for a scan of its own expression
SET enable_seqscan = off;
SELECT format('SELECT ''index %s '' || coalesce(string_agg(id::text, '','' ORDER BY id), '''') FROM t WHERE %s',
			  c.relname, pg_get_expr(i.indexprs, i.indrelid))
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
WHERE i.indrelid = 't'::regclass AND i.indexprs IS NOT NULL
\gexec
RESET enable_seqscan;
-- the user's operators, where that release let them be made
SELECT 'SELECT ''operator '' || string_agg((f OPERATOR(public.?~) s)::text, '''' ORDER BY id) FROM t'
WHERE to_regoperator('public.?~(bloomfilter,text)') IS NOT NULL
\gexec
SELECT 'SELECT ''own operator '' || (7::int8 OPERATOR(public.&?) cf_add(cf_create(100), 7::int8))::text'
WHERE to_regoperator('public.&?(int8,cuckoofilter)') IS NOT NULL
\gexec
SQL
}

for from in $RELEASES; do
	tag=${from//./_}
	src=bf_udr_$tag plain=bf_udr_${tag}_plain custom=bf_udr_${tag}_custom
	echo "== from $from"
	psql_q -d postgres -c "DROP DATABASE IF EXISTS $src" -c "DROP DATABASE IF EXISTS $plain" \
		-c "DROP DATABASE IF EXISTS $custom" -c "CREATE DATABASE $src"
	psql_q -d "$src" -c "CREATE EXTENSION bloomfilter VERSION '$from'"
	objects_sql "$from" > "$work/objects_$tag.sql"
	psql_q -d "$src" -f "$work/objects_$tag.sql"
	psql_q -d "$src" -c "SET client_min_messages = error" -c "ALTER EXTENSION bloomfilter UPDATE"
	check "from $from: updated to $current" \
		"$(psql_v -d "$src" -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'")" = "$current"
	kept=$(psql_v -d "$src" -c "SELECT count(*) FROM pg_proc WHERE pronamespace = 'public'::regnamespace
		AND proname ~ '_1_[0-9]+\$'")
	echo "kept forms in the updated database: $kept"
	inventory_sql > "$work/inventory.sql"
	answers_sql > "$work/answers.sql"
	psql_q -d "$src" -f "$work/inventory.sql" > "$work/inventory_$tag.src"
	psql_q -d "$src" -f "$work/answers.sql" > "$work/answers_$tag.src"

	pg_dump -d "$src" -f "$work/dump_$tag.sql"
	pg_dump -d "$src" -Fc -f "$work/dump_$tag.custom"
	for copy in plain custom; do
		db=bf_udr_${tag}_$copy
		psql_q -d postgres -c "CREATE DATABASE $db TEMPLATE template0"
		status=0
		if [ "$copy" = plain ]; then
			psql -X -q -v ON_ERROR_STOP=1 -d "$db" -f "$work/dump_$tag.sql" > "$work/restore_${tag}_$copy.log" 2>&1 || status=$?
		else
			pg_restore --exit-on-error -d "$db" "$work/dump_$tag.custom" > "$work/restore_${tag}_$copy.log" 2>&1 || status=$?
		fi
		check "from $from, $copy dump: restores without an error" "$status" -eq 0
		[ "$status" -eq 0 ] || sed 's/^/    /' "$work/restore_${tag}_$copy.log" | grep -v '^ *$' | head -5
		check "from $from, $copy dump: a fresh install of $current" \
			"$(psql_v -d "$db" -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'")" = "$current"
		psql_q -d "$db" -f "$work/inventory.sql" > "$work/inventory_${tag}_$copy" 2>&1 || true
		psql_q -d "$db" -f "$work/answers.sql" > "$work/answers_${tag}_$copy" 2>&1 || true
		if diff -u "$work/inventory_$tag.src" "$work/inventory_${tag}_$copy" > "$work/inventory.diff"; then
			check "from $from, $copy dump: all $(wc -l < "$work/inventory_$tag.src") objects restored, same definitions" 1 -eq 1
		else
			check "from $from, $copy dump: every object restored, same definitions" 0 -eq 1
			grep '^[-+][^-+]' "$work/inventory.diff" | head -8 | sed 's/^/    /'
		fi
		if diff -u "$work/answers_$tag.src" "$work/answers_${tag}_$copy" > "$work/answers.diff"; then
			check "from $from, $copy dump: the same $(wc -l < "$work/answers_$tag.src") answers" 1 -eq 1
		else
			check "from $from, $copy dump: the same answers" 0 -eq 1
			grep '^[-+][^-+]' "$work/answers.diff" | head -8 | sed 's/^/    /'
		fi
	done
	psql_q -d postgres -c "DROP DATABASE $src" -c "DROP DATABASE $plain" -c "DROP DATABASE $custom"
done

finish
