-- The table of key types (src/core/keytypes.c) against this server's
-- catalog and the install scripts, and the test vectors the server writes
-- from it against test/vectors/keys.json, which the clients' tests read.
-- The two functions are the library's, outside the extension's SQL surface.
CREATE FUNCTION pg_temp.key_types()
	RETURNS TABLE(oid oid, array_oid oid, name text, kind text, family text,
		row_code int, reads int, opclass boolean, array_only boolean,
		clients text[], samples text[])
	AS '$libdir/bloomfilter', 'bloomfilter_key_types' LANGUAGE C STRICT;
CREATE FUNCTION pg_temp.key_vectors() RETURNS text
	AS '$libdir/bloomfilter', 'bloomfilter_key_vectors' LANGUAGE C STRICT;
-- Each row names its type and its array type as the catalog does.
SELECT k.oid, k.name, t.typname, k.array_oid, t.typarray
FROM pg_temp.key_types() k LEFT JOIN pg_type t ON t.oid = k.oid
WHERE t.typname IS DISTINCT FROM k.name OR t.typarray IS DISTINCT FROM k.array_oid;
-- The key type bf_create records for a type (NULL if it refuses the type)
-- is one of the table's for every type of the catalog, and each of the
-- table's is recorded for its own type (int2vector's values are int2[]).
CREATE FUNCTION pg_temp.kt(t regtype) RETURNS oid LANGUAGE plpgsql AS $$
BEGIN
	RETURN bf_key_type(bf_create(10, 0.01, key_type => t));
EXCEPTION WHEN others THEN
	RETURN NULL;
END $$;
CREATE TEMP TABLE table_keys AS
	SELECT oid AS k, oid AS t FROM pg_temp.key_types() WHERE NOT array_only
	UNION ALL SELECT array_oid, array_oid FROM pg_temp.key_types() WHERE array_oid <> 0
	UNION ALL SELECT (SELECT typarray FROM pg_type e WHERE e.oid = (SELECT typelem FROM pg_type WHERE oid = r.oid)), oid
		FROM pg_temp.key_types() r WHERE array_only;
SELECT t::regtype, k::regtype AS in_table, pg_temp.kt(t)::regtype AS recorded
FROM table_keys WHERE pg_temp.kt(t) IS DISTINCT FROM k;
SELECT r.k::regtype AS recorded_not_in_table
FROM (SELECT DISTINCT pg_temp.kt(oid) AS k FROM pg_type) r
WHERE r.k IS NOT NULL AND r.k NOT IN (SELECT k FROM table_keys);
-- The index's operator classes are the table's rows marked for one (each
-- <name>_ops, default for its type) and array_ops for every array.
WITH want AS (
	SELECT name || '_ops' AS opcname, oid AS opcintype FROM pg_temp.key_types() WHERE opclass
	UNION ALL SELECT 'array_ops', 'anyarray'::regtype
), have AS (
	SELECT c.opcname::text, c.opcintype FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
	WHERE a.amname = 'bloomfilter' AND c.opcdefault AND c.opckeytype IN (0, c.opcintype)
)
SELECT w.opcname AS in_table, h.opcname AS installed
FROM want w FULL JOIN have h ON (w.opcname, w.opcintype) = (h.opcname, h.opcintype)
WHERE w.opcname IS NULL OR h.opcname IS NULL;
-- (No count is printed: a new row of the table changes no line here.)
SELECT count(*) FILTER (WHERE opclass) + 1 = (SELECT count(*) FROM pg_opclass c
	JOIN pg_am a ON a.oid = c.opcmethod WHERE a.amname = 'bloomfilter') AS every_opclass_in_table
FROM pg_temp.key_types();
-- The vectors: written to results/key_vectors.json (make vectors copies it
-- to test/vectors/keys.json after a change to the table or to hashing) and
-- held to the committed file.
\set committed `cat test/vectors/keys.json`
\pset format unaligned
\pset tuples_only on
\o results/key_vectors.json
SELECT pg_temp.key_vectors();
\o
\pset format aligned
\pset tuples_only off
SELECT pg_temp.key_vectors() = :'committed' AS vectors_as_committed,
       length(pg_temp.key_vectors()) > 10000 AS vectors_written;
