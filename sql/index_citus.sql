-- Where a table's rows live (am/citus.c): the bf_index_* functions ask the
-- shards for the index of a table that Citus's catalog
-- pg_catalog.pg_dist_partition lists (the shell of a distributed, reference
-- or Citus local table, which holds none of the table's rows), and refuse
-- it with 0A000 where they cannot: without the citus extension (here) and
-- in a task Citus pushed down to a node; they answer for every other
-- table.  Citus is not installed here: a stand-in of the
-- catalog (its name, its logicalrelid column, its index) takes its place,
-- so that this suite holds the lookup, the message and what a backend
-- keeps between calls when the catalog comes and goes.  What only Citus
-- can show (its trigger's invalidation when a table is distributed, the
-- shards' own indexes answering on the workers) is in make check-citus
-- (test/citus/check_citus.sh).
CREATE TABLE wh (id int8);
INSERT INTO wh SELECT g FROM generate_series(1, 1000) g;
CREATE INDEX wh_bf ON wh USING bloomfilter (id);
CREATE TABLE wh_local (id int8);
INSERT INTO wh_local SELECT g FROM generate_series(1, 1000) g;
CREATE INDEX wh_local_bf ON wh_local USING bloomfilter (id);
-- how many of the keys 1..1000 an index holds, by each function
CREATE FUNCTION wh_found(idx regclass) RETURNS TABLE (contains bigint, contains_all bigint, filter bigint)
LANGUAGE sql AS $$
	SELECT count(*) FILTER (WHERE bf_index_contains(idx, g::int8)),
		   (SELECT count(*) FILTER (WHERE a)
			  FROM unnest(bf_index_contains_all(idx, ARRAY(SELECT generate_series(1, 1000)::int8))) a),
		   count(*) FILTER (WHERE bf_contains(bf_index_filter(idx), g::int8))
	  FROM generate_series(1, 1000) g
$$;
PREPARE wh_one AS SELECT count(*) FILTER (WHERE bf_index_contains('wh_bf', g::int8))
	FROM generate_series(1, 1000) g;

-- without the catalog, both indexes answer (and the prepared statement has
-- run once)
EXECUTE wh_one;
SELECT * FROM wh_found('wh_bf');
SELECT * FROM wh_found('wh_local_bf');

-- the catalog appears, as CREATE EXTENSION citus makes it, and lists wh
-- (a backend that looked for it before must look again)
SET allow_system_table_mods = on;
CREATE TABLE pg_catalog.pg_dist_partition (logicalrelid regclass NOT NULL, partmethod "char" NOT NULL);
CREATE UNIQUE INDEX pg_dist_partition_logical_relid_index
	ON pg_catalog.pg_dist_partition (logicalrelid);
RESET allow_system_table_mods;
INSERT INTO pg_catalog.pg_dist_partition VALUES ('wh', 'h');
EXECUTE wh_one;
-- every function refuses wh's index with 0A000
\set VERBOSITY sqlstate
SELECT bf_index_contains('wh_bf', 1::int8);
SELECT bf_index_contains('wh_bf', '1'::text);
SELECT bf_index_contains_all('wh_bf', ARRAY[1, 2]::int8[]);
SELECT bf_index_filter('wh_bf') IS NULL;
SELECT bf_index_info('wh_bf') IS NULL;
\set VERBOSITY default
-- a backend running a task Citus sent (its connections' application_name)
-- says why it cannot ask the shards there
SET application_name = 'citus_internal gpid=10000000001';
SELECT bf_index_contains('wh_bf', 1::int8);
RESET application_name;
-- a table the catalog does not list answers, again and from the backend's
-- cached answer
SELECT * FROM wh_found('wh_local_bf');
SELECT * FROM wh_found('wh_local_bf');
-- privileges come first: a role that may not read wh learns nothing more
CREATE ROLE regress_wh_nobody;
SET ROLE regress_wh_nobody;
SELECT bf_index_contains('wh_bf', 1::int8);
RESET ROLE;
DROP ROLE regress_wh_nobody;

-- the same read without the catalog's index (a scan of the catalog)
SET allow_system_table_mods = on;
DROP INDEX pg_catalog.pg_dist_partition_logical_relid_index;
RESET allow_system_table_mods;
INSERT INTO pg_catalog.pg_dist_partition VALUES ('wh_local', 'n');
-- (listing wh_local sent no invalidation, as a stand-in has no trigger:
-- the backend's answer for it stays until the relation's next one)
SELECT * FROM wh_found('wh_local_bf');
ALTER TABLE wh_local ALTER COLUMN id SET STATISTICS 100;
SELECT bf_index_contains('wh_local_bf', 1::int8);

-- the catalog goes, as DROP EXTENSION citus drops it: every index answers
DROP TABLE pg_catalog.pg_dist_partition;
EXECUTE wh_one;
SELECT * FROM wh_found('wh_bf');
SELECT * FROM wh_found('wh_local_bf');

DEALLOCATE wh_one;
DROP FUNCTION wh_found(regclass);
DROP TABLE wh, wh_local;
