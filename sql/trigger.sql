-- Keeping a stored filter current with a statement-level trigger: one update
-- of the filter per statement, whatever the number of rows (INSERT or COPY).
CREATE TABLE products (id bigint PRIMARY KEY, name text);
CREATE TABLE product_filter (name text PRIMARY KEY, bf bloomfilter NOT NULL);
INSERT INTO product_filter VALUES ('products', bf_create(100000, 0.01));

CREATE FUNCTION products_filter_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE product_filter
	   SET bf = bf_add_all(bf, (SELECT array_agg(id) FROM new_rows))
	 WHERE name = 'products';
	RETURN NULL;
END $$;

CREATE TRIGGER products_filter_add
	AFTER INSERT ON products
	REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION products_filter_add();

INSERT INTO products SELECT g, 'product ' || g FROM generate_series(1, 5000) g;
INSERT INTO products VALUES (900001, 'single');
\copy products FROM stdin
700001	copied one
700002	copied two
\.
COPY products FROM stdin;
800001	server copy
\.

SELECT bf_bits_set(bf) > 0 AS filled,
       (SELECT bool_and(f.bf @> p.id) FROM products p) AS every_product_present,
       bf @> 700002::bigint AS copied_present, bf @> 800001::bigint AS server_copy_present,
       bf @> 123456789::bigint AS absent
FROM product_filter f;

-- the guard: lookups the filter rules out never touch the table
SELECT id, bf_contains(f.bf, id) AS maybe_present
FROM product_filter f, (VALUES (1::bigint), (700001), (424242424242)) v(id) ORDER BY id;

-- a statement inserting nothing leaves the filter as it was
SELECT bf::bytea AS before FROM product_filter \gset
INSERT INTO products SELECT 1, 'dup' WHERE false;
SELECT bf::bytea = :'before'::bytea AS unchanged FROM product_filter;

DROP TABLE products, product_filter;
DROP FUNCTION products_filter_add();
