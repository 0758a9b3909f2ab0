-- How a stored filter is read.  The filter lives out of line in TOAST; the
-- statistics of the filters table's TOAST relation show how much of it each
-- query read.
CREATE TABLE filters (name text PRIMARY KEY, bf bloomfilter);
INSERT INTO filters SELECT 'k', bf_agg(g::bigint, 200000, 0.01) FROM generate_series(1, 200000) g;
CREATE TABLE probe AS SELECT g::bigint AS id FROM generate_series(1, 2000) g;
SELECT pg_column_size(bf) > 200000 AS out_of_line_and_uncompressed FROM filters;

CREATE FUNCTION toast_blocks() RETURNS bigint LANGUAGE sql AS $$
	SELECT coalesce(toast_blks_read, 0) + coalesce(toast_blks_hit, 0)
	FROM pg_statio_user_tables WHERE relname = 'filters'
$$;
SET stats_fetch_consistency = none;

-- baseline: one full read of the value
SELECT toast_blocks() AS t0 \gset
SELECT length(bf::bytea) > 0 FROM filters;
SELECT pg_stat_force_next_flush();
SELECT toast_blocks() - :t0 AS one_read \gset

-- a point check reads the header and one block by slices, not the value
SELECT toast_blocks() AS t0 \gset
SELECT bf_contains(bf, 12345::bigint) FROM filters WHERE name = 'k';
SELECT pg_stat_force_next_flush();
SELECT toast_blocks() - :t0 < :one_read / 10 AS point_check_reads_little;

-- a join against the filters row detoasts the value once, not once per row
SELECT toast_blocks() AS t0 \gset
SELECT count(*) FROM probe p JOIN filters f ON f.name = 'k' WHERE bf_contains(f.bf, p.id);
SELECT pg_stat_force_next_flush();
SELECT toast_blocks() - :t0 <= 2 * :one_read AS join_reads_once;

-- so does the scalar subquery form
SELECT toast_blocks() AS t0 \gset
SELECT count(*) FROM probe p WHERE bf_contains((SELECT bf FROM filters WHERE name = 'k'), p.id);
SELECT pg_stat_force_next_flush();
SELECT toast_blocks() - :t0 <= 2 * :one_read AS subquery_reads_once;

-- and the operator with its arguments swapped
SELECT toast_blocks() AS t0 \gset
SELECT count(*) FROM probe p JOIN filters f ON f.name = 'k' WHERE p.id <@ f.bf;
SELECT pg_stat_force_next_flush();
SELECT toast_blocks() - :t0 <= 2 * :one_read AS commutator_reads_once;

-- introspection reads only the header
SELECT toast_blocks() AS t0 \gset
SELECT bf_capacity(bf), bf_nbits(bf) > 0, bf_nhashes(bf), bf_bits_set(bf) > 0, bf_error_rate(bf) FROM filters;
SELECT pg_stat_force_next_flush();
SELECT toast_blocks() - :t0 < :one_read / 10 AS header_reads_little;

-- two filters probed alternately still give right answers (the cache is per value)
INSERT INTO filters SELECT 'odd', bf_agg(g::bigint, 200000, 0.01) FROM generate_series(1, 200000, 2) g;
SELECT f.name, count(*) FILTER (WHERE bf_contains(f.bf, p.id)) AS hits
FROM probe p CROSS JOIN filters f WHERE p.id <= 100 GROUP BY f.name ORDER BY f.name;

-- after an update, the same query sees the new value
UPDATE filters SET bf = bf_add(bf, 999999999::bigint) WHERE name = 'k';
SELECT bf_contains(bf, 999999999::bigint) AS sees_update FROM filters WHERE name = 'k';

-- a filter stored compressed (if someone changes the storage) still answers
ALTER TABLE filters ALTER COLUMN bf SET STORAGE extended;
INSERT INTO filters SELECT 'empty', bf_create(200000);
SELECT pg_column_size(bf) < 10000 AS compressed, bf_contains(bf, 1) AS empty_has_nothing
FROM filters WHERE name = 'empty';
SELECT count(*) FROM probe p JOIN filters f ON f.name = 'empty' WHERE bf_contains(f.bf, p.id);

RESET stats_fetch_consistency;
DROP TABLE filters, probe;
DROP FUNCTION toast_blocks();
