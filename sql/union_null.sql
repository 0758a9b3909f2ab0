-- A NULL operand of bf_union / bf_intersect (and |, &) is ignored, so a
-- stored filter is never wiped by combining it with nothing.
CREATE TABLE f AS SELECT bf_add(bf_create(100), 'kept') AS bf;
SELECT bf_union(bf, NULL)::bytea = bf::bytea AS union_null_right,
       bf_union(NULL, bf)::bytea = bf::bytea AS union_null_left,
       (bf | NULL)::bytea = bf::bytea AS or_null,
       (NULL | bf)::bytea = bf::bytea AS null_or,
       bf_intersect(bf, NULL)::bytea = bf::bytea AS intersect_null_right,
       bf_intersect(NULL, bf)::bytea = bf::bytea AS intersect_null_left,
       (bf & NULL)::bytea = bf::bytea AS and_null,
       bf_union(NULL::bloomfilter, NULL) IS NULL AS both_null,
       bf_intersect(NULL::bloomfilter, NULL) IS NULL AS both_null_intersect
FROM f;

-- the trigger pattern: a statement that adds no rows keeps the filter
CREATE TABLE items (id int);
CREATE TABLE item_filter (bf bloomfilter);
INSERT INTO item_filter VALUES (bf_create(1000));
CREATE FUNCTION items_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE item_filter SET bf = bf_union(bf, (SELECT bf_agg(id, 1000) FROM new_rows));
	RETURN NULL;
END $$;
CREATE TRIGGER items_add AFTER INSERT ON items REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION items_add();
INSERT INTO items SELECT generate_series(1, 100);
INSERT INTO items SELECT 1 WHERE false;		-- zero rows: bf_agg gives NULL
SELECT bf IS NOT NULL AS not_wiped, (SELECT bool_and(bf @> id) FROM items) AS all_found
FROM item_filter;

-- bf_union_agg, whose transition function is bf_union, still skips NULLs
SELECT bf_union_agg(x)::bytea = (SELECT bf::bytea FROM f) AS agg_skips_nulls
FROM (SELECT NULL::bloomfilter UNION ALL SELECT bf FROM f UNION ALL SELECT NULL) s(x);
SELECT bf_union_agg(x) IS NULL AS all_null FROM (VALUES (NULL::bloomfilter), (NULL)) v(x);

DROP TABLE f, items, item_filter;
DROP FUNCTION items_add();
