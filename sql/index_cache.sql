-- What a backend keeps between point checks of a bloomfilter index (the
-- metapage and the buffers of its pages in the relcache entry, the probe
-- key's conversion per index and probe type) never answers for an index
-- that has changed: prepared statements executed before and after REINDEX,
-- REINDEX CONCURRENTLY, DROP and CREATE under the same name, TRUNCATE, a
-- change of the column's type, and more indexes than the backend keeps.
CREATE TABLE ic (id int8);
INSERT INTO ic SELECT g FROM generate_series(1, 2000) g;
CREATE INDEX ic_id ON ic USING bloomfilter (id) WITH (capacity = 100000);
PREPARE ic_one(int8) AS SELECT bf_index_contains('ic_id', $1);
PREPARE ic_all(int8[]) AS SELECT bf_index_contains_all('ic_id', $1);
-- how many of keys lo..hi the index says it holds, one check per key
CREATE FUNCTION ic_found(lo int8, hi int8) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	n int := 0;
	found bool;
BEGIN
	FOR k IN lo .. hi LOOP
		EXECUTE 'EXECUTE ic_one(' || k || ')' INTO found;
		n := n + found::int;
	END LOOP;
	RETURN n;
END $$;
-- the same by one bf_index_contains_all of the range
CREATE FUNCTION ic_found_all(lo int8, hi int8) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	answers bool[];
BEGIN
	EXECUTE 'EXECUTE ic_all(' || quote_literal(ARRAY(SELECT generate_series(lo, hi))) || ')'
		INTO answers;
	RETURN (SELECT count(*) FILTER (WHERE a) FROM unnest(answers) a);
END $$;

-- keys 1..2000 present, 1000001..1002000 absent (1% false positives at most)
SELECT ic_found(1, 2000) AS present, ic_found(1000001, 1002000) < 20 AS absent_mostly,
	ic_found_all(1, 2000) AS present_all;

-- bf_index_contains_all tests its keys page by page: each answer still
-- lands on its own element, equal to bf_index_contains of that key (keys in
-- a scrambled order, present and absent, repeated, with NULLs)
WITH a AS (SELECT ARRAY(SELECT CASE WHEN g % 13 = 0 THEN NULL ELSE (g * 7919) % 4001 END
						FROM generate_series(1, 3000) g) AS keys)
SELECT count(*) AS elements,
	count(*) FILTER (WHERE r.answer IS NOT DISTINCT FROM bf_index_contains('ic_id', r.key)) AS same,
	count(*) FILTER (WHERE r.answer) AS found
FROM a, unnest(a.keys, bf_index_contains_all('ic_id', a.keys)) AS r(key, answer);
-- ... and in an index of 600 pages, a few keys at a time (sorted by
-- comparison) and many (counted by page): each answer bf_index_contains's
CREATE TABLE ic_big (id int8);
INSERT INTO ic_big SELECT g FROM generate_series(1, 5000) g;
CREATE INDEX ic_big_id ON ic_big USING bloomfilter (id) WITH (capacity = 4000000);
SELECT n, count(*) AS elements,
	count(*) FILTER (WHERE r.answer IS NOT DISTINCT FROM bf_index_contains('ic_big_id', r.key)) AS same,
	count(*) FILTER (WHERE r.answer AND r.key <= 5000) AS members_found,
	count(*) FILTER (WHERE r.key <= 5000) AS members
FROM (VALUES (3), (10), (80), (100), (3000)) v(n),
	LATERAL (SELECT ARRAY(SELECT (g * 7919) % 10000 + 1 FROM generate_series(1, n) g) AS keys) a,
	unnest(a.keys, bf_index_contains_all('ic_big_id', a.keys)) AS r(key, answer)
GROUP BY n ORDER BY n;
DROP TABLE ic_big;

-- REINDEX after half the keys left: the old pages said present
DELETE FROM ic WHERE id <= 1000;
SELECT ic_found(1, 1000) AS before_reindex;
REINDEX INDEX ic_id;
SELECT ic_found(1, 1000) < 20 AS gone_after_reindex, ic_found(1001, 2000) AS kept,
	ic_found_all(1, 1000) < 20 AS gone_all, ic_found_all(1001, 2000) AS kept_all;

-- REINDEX CONCURRENTLY: another index (OID, relfilenode) under the name
INSERT INTO ic SELECT g FROM generate_series(1, 1000) g;
SELECT ic_found(1, 1000) AS inserted;	-- an insert adds its key to the pages
EXECUTE ic_one(1);
REINDEX INDEX CONCURRENTLY ic_id;
SELECT ic_found(1, 2000) AS present_after_concurrently;
DELETE FROM ic WHERE id > 1000;
REINDEX INDEX CONCURRENTLY ic_id;
SELECT ic_found(1001, 2000) < 20 AS gone_after_concurrently, ic_found(1, 1000) AS kept;

-- DROP and CREATE under the same name, other keys
DROP INDEX ic_id;
TRUNCATE ic;
INSERT INTO ic SELECT g FROM generate_series(5001, 7000) g;
CREATE INDEX ic_id ON ic USING bloomfilter (id) WITH (capacity = 100000);
SELECT ic_found(1, 1000) < 20 AS old_keys_gone, ic_found(5001, 7000) AS new_keys,
	ic_found_all(5001, 7000) AS new_keys_all;

-- TRUNCATE: a new, empty relfilenode for the same index
TRUNCATE ic;
SELECT ic_found(5001, 7000) AS after_truncate, ic_found_all(5001, 7000) AS after_truncate_all;

-- the column's type changes (the index is rebuilt): probes convert to numeric
INSERT INTO ic SELECT g FROM generate_series(1, 2000) g;
SELECT ic_found(1, 2000) AS int8_column;
DROP FUNCTION ic_found(int8, int8);
DROP FUNCTION ic_found_all(int8, int8);
ALTER TABLE ic ALTER COLUMN id TYPE numeric;
INSERT INTO ic VALUES (2.5), (3.25);
EXECUTE ic_one(1999);
SELECT bf_index_contains('ic_id', 2.5) AS fraction, bf_index_contains('ic_id', 3.25::numeric) AS fraction2,
	bf_index_contains('ic_id', 2.75) AS other_fraction;
SELECT count(*) FILTER (WHERE bf_index_contains('ic_id', g)) AS int8_probes,
	count(*) FILTER (WHERE bf_index_contains('ic_id', g::numeric)) AS numeric_probes
FROM generate_series(1::int8, 2000) g;
DEALLOCATE ic_one;
DEALLOCATE ic_all;

-- more indexes than the backend keeps entries for, probed in turns, with
-- two call sites in one query and several probe types per index
CREATE TABLE ic_many (id int4);
INSERT INTO ic_many SELECT g FROM generate_series(1, 300) g;
DO $$
BEGIN
	FOR i IN 1 .. 12 LOOP
		EXECUTE format('CREATE INDEX ic_many_%s ON ic_many USING bloomfilter ((id + %s)) WITH (capacity = 100000)', i, 1000 * i);
	END LOOP;
END $$;
SELECT i, count(*) FILTER (WHERE bf_index_contains(format('ic_many_%s', i)::regclass, 1000 * i + g)
		AND bf_index_contains(format('ic_many_%s', (i % 12) + 1)::regclass, (1000 * ((i % 12) + 1) + g)::int8)
		AND bf_index_contains(format('ic_many_%s', i)::regclass, (1000 * i + g)::text)) AS found,
	count(*) FILTER (WHERE bf_index_contains(format('ic_many_%s', i)::regclass, 1000 * ((i % 12) + 1) + g + 500000)) < 5 AS absent
FROM generate_series(1, 12) i, generate_series(1, 300) g
GROUP BY i ORDER BY i;
DROP TABLE ic_many;
DROP TABLE ic;
