-- Keeping a cuckoo filter current with statement-level triggers: AFTER
-- INSERT adds the new rows' keys, AFTER DELETE removes the old rows' keys,
-- each once per statement through its transition table.  100k inserts and
-- 50k deletes later, every remaining key is found, the deleted ones are
-- absent but for false positives, and the filter answers exactly as one
-- built from scratch over the remaining rows.
CREATE TABLE citems (id bigint PRIMARY KEY, label text);
CREATE TABLE citems_filter (name text PRIMARY KEY, f cuckoofilter NOT NULL);
INSERT INTO citems_filter VALUES ('citems', cf_create(100000, 0.01));

CREATE FUNCTION citems_filter_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE citems_filter SET f = cf_add_all(f, (SELECT array_agg(id) FROM new_rows))
	 WHERE name = 'citems';
	RETURN NULL;
END $$;

CREATE FUNCTION citems_filter_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE citems_filter SET f = cf_delete_all(f, (SELECT array_agg(id) FROM old_rows))
	 WHERE name = 'citems';
	RETURN NULL;
END $$;

CREATE TRIGGER citems_filter_add AFTER INSERT ON citems
	REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION citems_filter_add();
CREATE TRIGGER citems_filter_delete AFTER DELETE ON citems
	REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION citems_filter_delete();

-- 100,000 inserts: bulk statements, single rows, COPY
INSERT INTO citems SELECT g, 'item ' || g FROM generate_series(1, 60000) g;
INSERT INTO citems SELECT g, 'item ' || g FROM generate_series(60001, 99997) g;
INSERT INTO citems VALUES (99998, 'single');
COPY citems FROM stdin;
99999	copied
100000	copied
\.
-- 50,000 deletes: bulk, by range, one row, and a statement deleting nothing
DELETE FROM citems WHERE id % 4 = 0;
DELETE FROM citems WHERE id % 4 = 1 AND id <= 99990;
DELETE FROM citems WHERE id IN (99993, 99997);
DELETE FROM citems WHERE id = 100001;
SELECT count(*) AS remaining FROM citems;

SELECT cf_items(f) AS items,
       (SELECT count(*) FROM citems c WHERE NOT f @> c.id) AS false_negatives,
       (SELECT count(*) FROM generate_series(1, 100000) g
         WHERE f @> g::bigint AND NOT EXISTS (SELECT 1 FROM citems WHERE id = g)) AS deleted_reported,
       (SELECT count(*) FROM generate_series(1, 100000) g
         WHERE f @> g::bigint AND NOT EXISTS (SELECT 1 FROM citems WHERE id = g)) < 500 AS deleted_within_rate,
       jsonb_array_length(cf_info(f)->'subfilters') AS subfilters
FROM citems_filter;

-- against a filter built from scratch over the remaining rows: the same
-- entries (one (fingerprint, bucket pair) per live row), so the same
-- answers for every key, members or not
SELECT cf_items(t.f) = cf_items(r.f) AS same_items,
       (SELECT count(*) FROM generate_series(1, 300000) g WHERE (t.f @> g::bigint) <> (r.f @> g::bigint)) AS answers_differing
FROM citems_filter t, (SELECT cf_agg(id, 100000, 0.01) AS f FROM citems) r;

DROP TABLE citems, citems_filter;
DROP FUNCTION citems_filter_add(), citems_filter_delete();
