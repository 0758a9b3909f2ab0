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

-- ---- robustness ----

-- ---- index access method ----
