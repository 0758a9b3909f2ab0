-- Counting filters (layout 2): 4-bit counters that can forget an element.
SELECT get_byte(f::bytea, 5) AS layout, bf_info(f)->>'layout' AS name,
       bf_nbits(f) = bf_nbits(bf_create(1000, 0.01)) AS same_cells_as_plain,
       length(f::bytea) - 48 = bf_nbits(f) / 2 AS four_bits_a_cell,
       bf_info(f)->>'saturated' AS saturated
FROM (SELECT bf_create(1000, 0.01, counting => true) f) s;

-- add, check, count, remove
WITH f AS (SELECT bf_add(bf_add(bf_create(1000, 0.01, counting => true), 7), 7) AS f)
SELECT f @> 7 AS present, bf_count(f, 7) AS count_7, bf_count(f, 8) AS count_8,
       bf_remove(f, 7) @> 7 AS after_one_remove, bf_count(bf_remove(f, 7), 7) AS count_after,
       bf_remove(bf_remove(f, 7), 7) @> 7 AS after_two_removes,
       bf_remove(bf_remove(f, 7), 7)::bytea = bf_create(1000, 0.01, counting => true, key_type => 'int4')::bytea AS empty_again,
       bf_bits_set(bf_remove(bf_remove(f, 7), 7)) AS cells_set
FROM f;
SELECT bf_count(bf_add(bf_create(100), 5), 5) AS plain_count_present,
       bf_count(bf_create(100), 5) AS plain_count_absent;

-- removing an element the filter rules out changes nothing
WITH f AS (SELECT bf_add_all(bf_create(1000, 0.01, counting => true), ARRAY[1, 2, 3]) AS f)
SELECT bf_remove(f, 99)::bytea = f::bytea AS absent_is_noop,
       bf_remove(f, NULL::int)::bytea = f::bytea AS null_is_noop,
       bf_remove(NULL::bloomfilter, 1) IS NULL AS null_filter
FROM f;

-- counters stick at 15: a saturated cell is never decremented, so removal
-- can never take away what another element needs
WITH f AS (SELECT bf_add_all(bf_create(1000, 0.01, counting => true), array_fill(42, ARRAY[20])) AS f)
SELECT bf_count(f, 42) AS count, bf_info(f)->>'saturated' = bf_nhashes(f)::text AS k_saturated,
       bf_remove_all(f, array_fill(42, ARRAY[30])) @> 42 AS still_present
FROM f;

-- text overloads, arrays, the batch removal
SELECT bf_remove(bf_add(bf_create(100, 0.01, counting => true), 'x'), 'x') @> 'x' AS text_removed,
       bf_count(bf_add(bf_create(100, 0.01, counting => true), 'x'), 'x') AS text_count,
       bf_remove_all(bf_add_all(bf_create(1000, 0.01, counting => true), ARRAY(SELECT generate_series(1, 500))),
                     ARRAY(SELECT generate_series(1, 500)))::bytea
         = bf_create(1000, 0.01, counting => true, key_type => 'int4')::bytea AS remove_all_empties;

-- plain and scalable filters cannot forget
SELECT bf_remove(bf_add(bf_create(100), 1), 1);
SELECT bf_remove_all(bf_create(100, 0.01, expansion => 2), ARRAY[1]);
\set VERBOSITY sqlstate
SELECT bf_remove(bf_create(100), 1);
\set VERBOSITY default

-- union adds counters, intersection takes the smaller; layouts do not mix
WITH a AS (SELECT bf_add_all(bf_create(1000, 0.01, counting => true), ARRAY[1, 2, 2]) f),
     b AS (SELECT bf_add_all(bf_create(1000, 0.01, counting => true), ARRAY[2, 3]) f)
SELECT bf_count(a.f | b.f, 2) AS union_count_2, bf_count(a.f | b.f, 1) AS union_count_1,
       bf_count(a.f & b.f, 2) AS intersect_count_2, (a.f & b.f) @> 1 AS intersect_has_1,
       (a.f | b.f)::bytea = bf_add_all(bf_create(1000, 0.01, counting => true), ARRAY[1, 2, 2, 2, 3])::bytea
         AS union_is_adding_both
FROM a, b;
SELECT bf_create(1000, 0.01, counting => true) | bf_create(1000, 0.01);

-- estimates read the non-zero counters as a plain filter's bits
SELECT bf_cardinality(f) BETWEEN 950 AND 1050 AS cardinality_close, bf_fpp(f) < 0.01 AS fpp_under,
       bf_bits_set(f) = bf_bits_set(bf_add_all(bf_create(1000, 0.01), ARRAY(SELECT generate_series(1, 1000))))
         AS same_cells_as_plain
FROM (SELECT bf_add_all(bf_create(1000, 0.01, counting => true), ARRAY(SELECT generate_series(1, 1000))) f) s;

-- the promised rate at capacity, and no false negatives after adds and removes
CREATE TABLE cf AS SELECT bf_add_all(bf_create(20000, 0.01, counting => true),
                                     ARRAY(SELECT generate_series(1, 30000))) AS f;
UPDATE cf SET f = bf_remove_all(f, ARRAY(SELECT generate_series(20001, 30000)));
SELECT (SELECT bool_and(f @> g) FROM generate_series(1, 20000) g) AS no_false_negatives,
       (SELECT count(*) FILTER (WHERE f @> g) FROM generate_series(100001, 200000) g) < 1000 AS rate_at_capacity
FROM cf;

-- the template aggregate builds any layout; here, as bf_add_all would
SELECT bf_agg(g, bf_create(1000, 0.01, counting => true))::bytea
     = bf_add_all(bf_create(1000, 0.01, counting => true), ARRAY(SELECT generate_series(1, 800)))::bytea AS template_agg
FROM generate_series(1, 800) g;
SELECT bf_agg(g, bf_add(bf_create(1000, 0.01, counting => true), 0)) @> 0 AS template_contents_kept
FROM generate_series(1, 10) g;
SELECT bf_agg(g, NULL::bloomfilter) FROM generate_series(1, 3) g;

-- pinned bytes of a counting filter
SELECT md5(bf_add_all(bf_create(100, 0.01, counting => true), ARRAY[1, 2, 3, 3])::bytea) AS pinned;

-- binary input checks the counters against the count of cells set
CREATE FUNCTION b64(bytea) RETURNS text LANGUAGE sql IMMUTABLE
	AS $$ SELECT translate(encode($1, 'base64'), E'\n', '') $$;
CREATE TABLE good AS SELECT bf_add(bf_create(10, 0.01, counting => true), 1)::bytea AS b;
SELECT b64(b)::bloomfilter::bytea = b AS round_trip FROM good;
SELECT b64(overlay(b placing '\x00' from 41 for 1))::bloomfilter FROM good;   -- cells set wrong
SELECT substring(b from 1 for length(b) - 1)::bloomfilter FROM good;           -- truncated
SELECT overlay(b placing '\x01' from 6 for 1)::bloomfilter FROM good;          -- read as plain: length

DROP TABLE cf, good;
DROP FUNCTION b64(bytea);
