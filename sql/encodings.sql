-- Text keys are hashed as UTF-8 in every database (hash id 5, issue 32
-- items 3 and 4): a filter built in a database of any encoding has the
-- same bytes as one built from the same strings in a UTF8 database, and
-- answers its members after a move in either direction.  For each server
-- encoding below, strings of characters it can hold are generated in this
-- (UTF8) database, carried to a database of that encoding as hex of their
-- UTF-8 bytes (so that psql's client encoding plays no part), and built
-- there by every path (aggregates sized, unsized, counting, scalable,
-- cuckoo, bf_add_all, the index) and every text-like key type (text,
-- varchar, char(n), name, text[], rows); the digests come back and must
-- equal this database's, and each filter is probed with every member in
-- the other database.  Filters of hash id 2 (made by 1.4 or earlier) keep
-- hashing the bytes of their own database.
SELECT current_database() AS regress_db \gset
SET client_min_messages = warning;

-- the strings: 1 to 7 characters, ASCII and the encoding's own, drawn
-- from a fixed sequence so that every run asks the same
CREATE FUNCTION enc_keys(lo int, hi int, n int) RETURNS SETOF text
LANGUAGE sql IMMUTABLE AS $$
	SELECT string_agg(CASE WHEN (g * 7 + j * 13) % 3 = 0 THEN chr(97 + (g + j) % 26)
						   ELSE chr(lo + (g * 31 + j * 17) % (hi - lo + 1)) END, '' ORDER BY j)
	FROM generate_series(1, n) g, generate_series(1, 1 + g % 7) j
	GROUP BY g
$$;

CREATE TABLE enc_sets (enc text, lo int, hi int);
INSERT INTO enc_sets VALUES
	('LATIN1', 192, 255),		-- Latin-1 letters
	('WIN1251', 1040, 1103),	-- Cyrillic
	('EUC_JP', 12353, 12435),	-- hiragana
	('SQL_ASCII', 128512, 128591);	-- emoji: bytes a SQL_ASCII database stores as sent

-- The builds, as a function every database defines from this text: for
-- each key type and path, the digest of the bytes and the base64 value.
CREATE TABLE enc_src (src text);
INSERT INTO enc_src VALUES ($src$
CREATE FUNCTION enc_load(hex text) RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
	DROP TABLE IF EXISTS enc_k;
	CREATE TABLE enc_k (g int, t text, vc varchar(40), c char(40), n name);
	INSERT INTO enc_k
	SELECT o, s, s, s, s
	FROM unnest(string_to_array(hex, ',')) WITH ORDINALITY u(h, o),
		 LATERAL convert_from(decode(h, 'hex'), 'UTF8') s;
END $f$;
CREATE FUNCTION enc_builds(hex text) RETURNS TABLE (build text, digest text, val text)
LANGUAGE plpgsql AS $f$
DECLARE
	col text;
	path text;
	v text;
BEGIN
	PERFORM enc_load(hex);
	FOREACH col IN ARRAY ARRAY['t', 'vc', 'c', 'n', 'ARRAY[t, t || ''x'']', 'ROW(t, g)']
	LOOP
		FOREACH path IN ARRAY ARRAY[
			'bf_agg(%s, 1000, 0.01)', 'bf_agg(%s)',
			'bf_agg(%s, bf_create(1000, 0.01, counting => true))',
			'bf_agg(%s, bf_create(20, 0.01, expansion => 2))',
			'cf_agg(%s, 1000)', 'bf_add_all(bf_create(1000, 0.01), array_agg(%s))']
		LOOP
			-- bf_add_all adds an array's elements, not the array
			CONTINUE WHEN col LIKE 'ARRAY%' AND path LIKE 'bf_add_all%';
			EXECUTE format('SELECT (' || path || ')::text FROM enc_k', col) INTO v;
			build := col || '@' || split_part(path, '(', 1) || ' ' || left(md5(path), 6);
			digest := md5(v);
			val := v;
			RETURN NEXT;
		END LOOP;
	END LOOP;
	CREATE INDEX enc_k_bf ON enc_k USING bloomfilter (t) WITH (capacity = 1000);
	build := 't@index';
	val := bf_index_filter('enc_k_bf')::text;
	digest := md5(val);
	RETURN NEXT;
END $f$;
-- how many members of enc_k the values of vals ("build#value;...") find
CREATE FUNCTION enc_found(vals text) RETURNS TABLE (probes bigint, hits bigint)
LANGUAGE plpgsql AS $f$
DECLARE
	pair text;
	col text;
	n bigint;
	f bigint;
BEGIN
	probes := 0;
	hits := 0;
	FOREACH pair IN ARRAY string_to_array(vals, ';')
	LOOP
		col := split_part(split_part(pair, '#', 1), '@', 1);
		EXECUTE format(CASE WHEN pair LIKE '%%cf_agg%%'
						THEN 'SELECT count(*), count(*) FILTER (WHERE cf_contains($1::cuckoofilter, %s)) FROM enc_k'
						ELSE 'SELECT count(*), count(*) FILTER (WHERE bf_contains($1::bloomfilter, %s)) FROM enc_k' END, col)
			INTO n, f USING split_part(pair, '#', 2);
		probes := probes + n;
		hits := hits + f;
	END LOOP;
	RETURN NEXT;
END $f$;
$src$);

CREATE TABLE enc_here (enc text, build text, digest text, val text);
CREATE TABLE enc_there (enc text, build text, digest text, val text);
CREATE TABLE enc_probe (enc text, direction text, probes int, found int);
CREATE TABLE enc_legacy (enc text, what text, ok bool);
SELECT src FROM enc_src \gset
:src ;

\set enc LATIN1
\ir sql/encodings.inc
\set enc WIN1251
\ir sql/encodings.inc
\set enc EUC_JP
\ir sql/encodings.inc
\set enc SQL_ASCII
\ir sql/encodings.inc

-- every build made in each encoding has the bytes of the UTF8 database's,
-- and every member is found after a move either way
SELECT h.enc, count(*) AS builds, count(*) FILTER (WHERE h.digest = t.digest) AS same_bytes
FROM enc_here h JOIN enc_there t USING (enc, build) GROUP BY 1 ORDER BY 1;
SELECT enc, direction, probes, found FROM enc_probe ORDER BY 1, 2;
SELECT enc, what, ok FROM enc_legacy ORDER BY 1, 2;

-- the client's encoding plays no part: psql receives the members as text
-- in each client encoding (an array literal kept in a variable) and sends
-- them back in it, and the server converts them to the database's on
-- input, before anything is hashed
CREATE TABLE enc_client (enc text, f bloomfilter, probes int, hits int);
INSERT INTO enc_client SELECT enc, (SELECT bf_agg(k) FROM enc_keys(lo, hi, 60) k)
FROM enc_sets WHERE enc <> 'SQL_ASCII';
SET client_encoding = 'LATIN1';
SELECT array_agg(k)::text AS keys FROM enc_sets, enc_keys(lo, hi, 60) k WHERE enc = 'LATIN1' \gset
UPDATE enc_client SET probes = (SELECT count(*) FROM unnest(:'keys'::text[]) k),
	hits = (SELECT count(*) FILTER (WHERE bf_contains(f, k)) FROM unnest(:'keys'::text[]) k)
WHERE enc = 'LATIN1';
RESET client_encoding;
SET client_encoding = 'WIN1251';
SELECT array_agg(k)::text AS keys FROM enc_sets, enc_keys(lo, hi, 60) k WHERE enc = 'WIN1251' \gset
UPDATE enc_client SET probes = (SELECT count(*) FROM unnest(:'keys'::text[]) k),
	hits = (SELECT count(*) FILTER (WHERE bf_contains(f, k)) FROM unnest(:'keys'::text[]) k)
WHERE enc = 'WIN1251';
RESET client_encoding;
SET client_encoding = 'EUC_JP';
SELECT array_agg(k)::text AS keys FROM enc_sets, enc_keys(lo, hi, 60) k WHERE enc = 'EUC_JP' \gset
UPDATE enc_client SET probes = (SELECT count(*) FROM unnest(:'keys'::text[]) k),
	hits = (SELECT count(*) FILTER (WHERE bf_contains(f, k)) FROM unnest(:'keys'::text[]) k)
WHERE enc = 'EUC_JP';
RESET client_encoding;
SELECT enc, probes, hits FROM enc_client ORDER BY 1;
DROP TABLE enc_client;

-- in this UTF8 database hash ids 2 and 5 hash alike, so they combine
SELECT bf_contains(bf_union(set_byte(bf_add(bf_create(100), U&'Jos\00e9'::text)::bytea, 6, 2)::bloomfilter,
						   bf_add(bf_create(100), 'x'::text)), U&'Jos\00e9') AS union_2_5;
DROP TABLE enc_k, enc_here, enc_there, enc_probe, enc_legacy, enc_sets, enc_src;
DROP FUNCTION enc_keys(int, int, int), enc_load(text), enc_builds(text), enc_found(text);
