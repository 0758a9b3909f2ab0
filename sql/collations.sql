-- The probe's collation (issue 32, item 1).  SQL's "=" compares text under
-- the collation the probe brings, and a nondeterministic one calls strings
-- of other bytes equal ('alice' = 'Alice' under a case-insensitive one),
-- which no filter or index of the stored bytes can find: every path must
-- answer "present" for a probe that "=" finds equal to a member, or refuse
-- it with 0A000, never "absent".
--
-- The cases are generated: every collation that differs in behaviour (C,
-- a deterministic ICU one, nondeterministic ICU at strength 1 and 2 and one
-- that ignores punctuation), every way a collation reaches a probe (a
-- COLLATE clause, a domain declared with it, a column of a probe table, a
-- join column, a PL/pgSQL and an SQL function's parameter, a PREPAREd
-- statement's $1 COLLATE ...), every text-like column type and every path,
-- over members and variants of them (case, accents, punctuation, blanks)
-- that SQL itself derives.  Only counts are printed, and the silent
-- absences by where they happen (none).
CREATE SCHEMA coll;
SET search_path = coll, public;
SET client_min_messages = warning;

CREATE COLLATION coll.icu_und (provider = icu, locale = 'und');
CREATE COLLATION coll.ci_level1 (provider = icu, locale = 'und-u-ks-level1', deterministic = false);
CREATE COLLATION coll.ci_level2 (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE COLLATION coll.ci_shifted (provider = icu, locale = 'und-u-ka-shifted', deterministic = false);

-- the dimensions; a placeholder's name is the name of its table
CREATE TABLE coll.collations (tag text PRIMARY KEY, name text NOT NULL);
INSERT INTO coll.collations VALUES
	('c', 'pg_catalog."C"'), ('icu', 'coll.icu_und'), ('l1', 'coll.ci_level1'),
	('l2', 'coll.ci_level2'), ('sh', 'coll.ci_shifted');
CREATE TABLE coll.types (tag text PRIMARY KEY, sqltype text NOT NULL, is_array boolean NOT NULL);
INSERT INTO coll.types VALUES
	('text', 'text', false), ('varchar', 'varchar', false), ('bpchar', 'char(8)', false),
	('name', 'name', false), ('textarr', 'text[]', true);
CREATE TABLE coll.forms (form text PRIMARY KEY);
INSERT INTO coll.forms VALUES
	('collate'), ('domain'), ('column'), ('join'), ('plpgsql'), ('sqlfunc'), ('prepare');
-- %W% the probe, %IX% the index on the column, %IX2% on the column and id, %ID% the member's id
CREATE TABLE coll.paths (name text PRIMARY KEY, expr text NOT NULL, arrays boolean NOT NULL);
INSERT INTO coll.paths VALUES
	('bf_contains', 'bf_contains(f.bf, %W%)', true),
	('bf_contains_all', '(bf_contains_all(f.bf, ARRAY[%W%]))[1]', false),
	('bf @>', 'f.bf @> %W%', true),
	('<@ bf', '%W% <@ f.bf', true),
	('cf_contains', 'cf_contains(f.cf, %W%)', true),
	('cf_contains_all', '(cf_contains_all(f.cf, ARRAY[%W%]))[1]', false),
	('cf @>', 'f.cf @> %W%', true),
	('<@ cf', '%W% <@ f.cf', true),
	('bf_index_contains', 'bf_index_contains(%IX%, %W%)', true),
	('bf_index_contains_all', '(bf_index_contains_all(%IX%, ARRAY[%W%]))[1]', false),
	('bf_index_contains two columns', 'bf_index_contains(%IX2%, ROW(%W%, %ID%))', true),
	('bf_index_filter', 'bf_contains(bf_index_filter(%IX%), %W%)', true);

-- members, and the strings that may equal them under some collation
CREATE TABLE coll.words (id integer PRIMARY KEY, w text NOT NULL);
INSERT INTO coll.words VALUES (1, 'Alice'), (2, 'José'), (3, 'Straße'), (4, 'a-b c'), (5, 'ÅNGSTRÖM');
CREATE TABLE coll.variants AS
	SELECT (row_number() OVER (ORDER BY id, v COLLATE "C"))::integer AS k, id, v
	FROM (SELECT DISTINCT id, v FROM coll.words,
		  LATERAL (VALUES (w), (lower(w)), (upper(w)),
				   (translate(w, 'éÅÖß', 'eAOs')), (lower(translate(w, 'éÅÖ', 'eAO'))),
				   (replace(replace(w, '-', ''), ' ', '')), (regexp_replace(w, '(.)', '\1-', 'g')),
				   (w || ' ')) x(v)) s;

-- per column type: the members, their filters, their indexes, and per
-- collation a domain and a table of probes
CREATE FUNCTION coll.lit(t coll.types, v text) RETURNS text LANGUAGE sql AS $$
	SELECT CASE WHEN t.is_array THEN format('ARRAY[%L]::%s', v, t.sqltype)
		ELSE format('%L::%s', v, t.sqltype) END $$;

DO $$
DECLARE
	t coll.types;
	c coll.collations;
BEGIN
	FOR t IN SELECT * FROM coll.types LOOP
		-- the "default" collation (a name column's is "C"): an implicit
		-- collation a probe brings then wins, as it does over a text column
		EXECUTE format('CREATE TABLE coll.m_%s (id integer PRIMARY KEY, c %s COLLATE "default")',
					   t.tag, t.sqltype);
		EXECUTE format('INSERT INTO coll.m_%s SELECT id, %s FROM coll.words',
					   t.tag, replace(coll.lit(t, 'WORD'), '''WORD''', 'w'));
		EXECUTE format('CREATE INDEX m_%s_ix ON coll.m_%s USING bloomfilter (c)', t.tag, t.tag);
		EXECUTE format('CREATE INDEX m_%s_ix2 ON coll.m_%s USING bloomfilter (c, id)', t.tag, t.tag);
		EXECUTE format('CREATE TABLE coll.f_%s AS SELECT bf_agg(c) AS bf, cf_agg(c, 100) AS cf FROM coll.m_%s',
					   t.tag, t.tag);
		FOR c IN SELECT * FROM coll.collations LOOP
			EXECUTE format('CREATE DOMAIN coll.d_%s_%s AS %s COLLATE %s', c.tag, t.tag, t.sqltype, c.name);
			EXECUTE format('CREATE TABLE coll.p_%s_%s (k integer PRIMARY KEY, v %s COLLATE %s)',
						   c.tag, t.tag, t.sqltype, c.name);
			EXECUTE format('INSERT INTO coll.p_%s_%s SELECT k, %s FROM coll.variants',
						   c.tag, t.tag, replace(coll.lit(t, 'WORD'), '''WORD''', 'v'));
		END LOOP;
	END LOOP;
END $$;

-- An expression of a path (or SQL's "=", the oracle) for one type, with the
-- probe %W% left to the form.
CREATE FUNCTION coll.path_expr(t coll.types, expr text, id text) RETURNS text
LANGUAGE sql AS $$
	SELECT replace(replace(replace(expr,
		'%IX2%', format('%L::regclass', 'coll.m_' || t.tag || '_ix2')),
		'%IX%', format('%L::regclass', 'coll.m_' || t.tag || '_ix')),
		'%ID%', id) $$;

-- The functions that take the probe as a parameter (which inherits the
-- caller's collation): one per type, language and path, over any member.
DO $$
DECLARE
	t coll.types;
	p record;
	lang text;
BEGIN
	FOR t IN SELECT * FROM coll.types LOOP
		FOR p IN SELECT 'eq' AS name, 'm.c = %W%' AS expr, true AS arrays
				 UNION ALL SELECT * FROM coll.paths LOOP
			CONTINUE WHEN t.is_array AND NOT p.arrays;
			FOREACH lang IN ARRAY ARRAY['plpgsql', 'sql'] LOOP
				EXECUTE format('CREATE FUNCTION coll.%I(w %s, mid integer) RETURNS boolean LANGUAGE %s AS %L',
							   lang || ' ' || t.tag || ' ' || p.name, t.sqltype, lang,
							   CASE lang WHEN 'plpgsql' THEN 'BEGIN RETURN ' ELSE '' END ||
							   format('(SELECT %s FROM coll.m_%s m, coll.f_%s f WHERE m.id = mid)',
									  replace(coll.path_expr(t, p.expr, 'mid'), '%W%', 'w'), t.tag, t.tag) ||
							   CASE lang WHEN 'plpgsql' THEN '; END' ELSE '' END);
			END LOOP;
		END LOOP;
	END LOOP;
END $$;

-- One case: the statement that evaluates expr (which names the probe as
-- %W%) for member id and probe k of the type, in the form, under the
-- collation.
CREATE FUNCTION coll.case_sql(form text, c coll.collations, t coll.types, pathname text,
							  expr text, id integer, k integer, v text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	e text := coll.path_expr(t, expr, id::text);
	src text := format('coll.m_%s m, coll.f_%s f', t.tag, t.tag);
	cond text := format('m.id = %s', id);
BEGIN
	CASE form
		WHEN 'collate' THEN
			e := replace(e, '%W%', format('(%s COLLATE %s)', coll.lit(t, v), c.name));
		WHEN 'domain' THEN
			e := replace(e, '%W%', format('(%s)::coll.d_%s_%s', coll.lit(t, v), c.tag, t.tag));
		WHEN 'column' THEN
			e := replace(e, '%W%', 'p.v');
			src := src || format(', coll.p_%s_%s p', c.tag, t.tag);
			cond := cond || format(' AND p.k = %s', k);
		WHEN 'join' THEN
			e := replace(e, '%W%', 'p.v');
			src := format('coll.f_%s f, coll.m_%s m JOIN coll.p_%s_%s p ON m.c = p.v',
						  t.tag, t.tag, c.tag, t.tag);
			cond := cond || format(' AND p.k = %s', k);
		WHEN 'plpgsql', 'sqlfunc' THEN
			RETURN format('SELECT coll.%I(%s COLLATE %s, %s)',
						  CASE form WHEN 'plpgsql' THEN 'plpgsql' ELSE 'sql' END || ' ' || t.tag || ' ' || pathname,
						  coll.lit(t, v), c.name, id);
		WHEN 'prepare' THEN
			RETURN format('SELECT %s FROM %s WHERE %s',
						  replace(e, '%W%', format('($1 COLLATE %s)', c.name)), src, cond);
	END CASE;
	RETURN format('SELECT %s FROM %s WHERE %s', e, src, cond);
END $$;

-- Runs one case: true, false (NULL counts as false) or the SQLSTATE.
CREATE FUNCTION coll.ask(form text, t coll.types, sql text, v text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	r boolean;
BEGIN
	IF form = 'prepare' THEN
		EXECUTE format('PREPARE coll_q(%s) AS %s', t.sqltype, sql);
		BEGIN
			EXECUTE format('EXECUTE coll_q(%s)', coll.lit(t, v)) INTO r;
		EXCEPTION WHEN others THEN
			DEALLOCATE coll_q;
			RETURN SQLSTATE;
		END;
		DEALLOCATE coll_q;
	ELSE
		EXECUTE sql INTO r;
	END IF;
	RETURN coalesce(r, false)::text;
EXCEPTION WHEN others THEN
	RETURN SQLSTATE;
END $$;

CREATE TABLE coll.results (coll text, form text, type text, path text, outcome text);

-- every case: SQL's "=" first, then, where it finds the member, every path
DO $$
DECLARE
	c coll.collations;
	t coll.types;
	f text;
	p coll.paths;
	x record;
	eq text;
	r text;
BEGIN
	FOR c IN SELECT * FROM coll.collations ORDER BY tag LOOP
	FOR t IN SELECT * FROM coll.types ORDER BY tag LOOP
	FOR f IN SELECT form FROM coll.forms ORDER BY form LOOP
	FOR x IN SELECT id, k, v AS vtext FROM coll.variants ORDER BY k LOOP
		eq := coll.ask(f, t, coll.case_sql(f, c, t, 'eq', 'm.c = %W%', x.id, x.k, x.vtext), x.vtext);
		IF eq <> 'true' THEN
			INSERT INTO coll.results VALUES (c.tag, f, t.tag, '=',
				CASE eq WHEN 'false' THEN 'not equal' ELSE 'not comparable' END);
			CONTINUE;
		END IF;
		INSERT INTO coll.results VALUES (c.tag, f, t.tag, '=', 'equal');
		FOR p IN SELECT * FROM coll.paths ORDER BY name LOOP
			CONTINUE WHEN t.is_array AND NOT p.arrays;
			r := coll.ask(f, t, coll.case_sql(f, c, t, p.name, p.expr, x.id, x.k, x.vtext), x.vtext);
			INSERT INTO coll.results VALUES (c.tag, f, t.tag, p.name,
				CASE r WHEN 'true' THEN 'present' WHEN 'false' THEN 'SILENT ABSENCE'
					   WHEN '0A000' THEN 'refused' ELSE 'error ' || r END);
		END LOOP;
	END LOOP;
	END LOOP;
	END LOOP;
	END LOOP;
END $$;
RESET client_min_messages;

-- what SQL's "=" said, by collation
SELECT coll, outcome, count(*) FROM coll.results WHERE path = '='
GROUP BY 1, 2 ORDER BY 1, 2;
-- every path: present or refused, by collation and path
SELECT coll, path, outcome, count(*) FROM coll.results WHERE path <> '='
GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
-- every form and type was asked
SELECT form, count(*) FILTER (WHERE path <> '=') AS asked,
	   count(DISTINCT type) FILTER (WHERE path <> '=') AS types
FROM coll.results GROUP BY 1 ORDER BY 1;
-- the silent absences, where they are: none
SELECT coll, form, type, path, count(*) AS silent FROM coll.results
WHERE outcome NOT IN ('present', 'refused') AND path <> '='
GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;

-- The backend keeps a probe's conversion per index and probe type between
-- calls: under one collation it must not answer for another, in either order.
SELECT bf_index_contains('coll.m_text_ix', 'Alice' COLLATE "C") AS c_first;
SELECT bf_index_contains('coll.m_text_ix', 'alice' COLLATE coll.ci_level2) AS then_ci;
SELECT bf_index_contains_all('coll.m_text_ix', ARRAY['alice'] COLLATE coll.ci_level2) AS ci_first;
SELECT bf_index_contains_all('coll.m_text_ix', ARRAY['Alice', 'alice'] COLLATE "C") AS then_c;
-- no probe, no collation: the whole index, as before
SELECT bf_contains(bf_index_filter('coll.m_text_ix'), 'Alice') AS filter,
	   bf_index_info('coll.m_text_ix')->>'keys_at_build' AS keys;

RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA coll CASCADE;
RESET client_min_messages;
