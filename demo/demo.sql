-- bloomfilter demo: a cache-penetration guard in front of a products table.
--
-- A shop has 1,000,000 products with sparse ids.  Clients ask for products by
-- id; most requests in this demo are for ids that do not exist (a scraper, or
-- an attack aimed past the cache at the database).  A filter built once with
-- bf_agg answers "certainly absent" for almost all of them without touching
-- the table.
\set ON_ERROR_STOP 1
\pset footer off
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomfilter;
DROP TABLE IF EXISTS products, product_guard, requests;

\echo '== 1. one million products, ids spread over 0 .. 7,000,000'
CREATE TABLE products (id bigint PRIMARY KEY, name text NOT NULL);
INSERT INTO products SELECT g * 7 + 3, 'product ' || g FROM generate_series(0, 999999) g;
ANALYZE products;

\echo '== 2. the guard: one bloomfilter for all ids, 1% false positives at capacity'
CREATE TABLE product_guard (name text PRIMARY KEY, bf bloomfilter NOT NULL);
INSERT INTO product_guard SELECT 'products', bf_agg(id, 1000000, 0.01) FROM products;
SELECT bf_capacity(bf) AS capacity, bf_error_rate(bf) AS error_rate,
       bf_nhashes(bf) AS hashes, pg_size_pretty(pg_column_size(bf)::bigint) AS filter_size,
       pg_size_pretty(pg_relation_size('products_pkey')) AS btree_index_size,
       bf_cardinality(bf) AS estimated_elements
FROM product_guard;

\echo '== 3. 200,000 requests: 10% for real products, 90% for ids that do not exist'
CREATE TABLE requests AS
	SELECT n, CASE WHEN n % 10 = 0 THEN (n * 7919 % 1000000) * 7 + 3	-- a real id
	               ELSE (n * 104729 % 7000000) * 7 + 5 END AS id			-- never a product
	FROM generate_series(1::bigint, 200000) n;

\echo '== 4. what the guard does with them'
SELECT count(*) AS requests,
       count(*) FILTER (WHERE p.id IS NOT NULL) AS real_products,
       count(*) FILTER (WHERE NOT bf_contains(g.bf, r.id)) AS ruled_out_without_table,
       count(*) FILTER (WHERE bf_contains(g.bf, r.id) AND p.id IS NULL) AS false_positives,
       count(*) FILTER (WHERE p.id IS NOT NULL AND NOT bf_contains(g.bf, r.id)) AS false_negatives,
       round(100.0 * count(*) FILTER (WHERE bf_contains(g.bf, r.id) AND p.id IS NULL)
             / count(*) FILTER (WHERE p.id IS NULL), 2) AS false_positive_pct
FROM requests r
CROSS JOIN product_guard g
LEFT JOIN products p ON p.id = r.id;

\echo '== 5. index lookups: without the guard every request probes the table (loops=200000),'
\echo '       with it only the ids the filter lets through do'
SET max_parallel_workers_per_gather = 0;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT count(*) FROM requests r
WHERE EXISTS (SELECT 1 FROM products p WHERE p.id = r.id);
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT count(*) FROM requests r
WHERE bf_contains((SELECT bf FROM product_guard WHERE name = 'products'), r.id)
  AND EXISTS (SELECT 1 FROM products p WHERE p.id = r.id);
RESET ALL;

\echo '== 6. keeping the guard current: new products are added by a trigger'
CREATE FUNCTION products_guard_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE product_guard SET bf = bf_add_all(bf, (SELECT array_agg(id) FROM new_rows))
	 WHERE name = 'products';
	RETURN NULL;
END $$;
CREATE TRIGGER products_guard_add AFTER INSERT ON products
	REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION products_guard_add();
SELECT bf_contains(bf, 12345678901) AS before_insert FROM product_guard;
INSERT INTO products VALUES (12345678901, 'new product');
SELECT bf_contains(bf, 12345678901) AS after_insert FROM product_guard;

\echo '== 7. a point check from an application reads one 64-byte block, not the filter'
SELECT bf_contains(bf, 700003) AS id_700003_maybe, bf_contains(bf, 700005) AS id_700005_maybe
FROM product_guard WHERE name = 'products';
