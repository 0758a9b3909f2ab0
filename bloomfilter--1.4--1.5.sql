/* bloomfilter--1.4--1.5.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.5'" to load this file. \quit

-- 1.5 adds objects only: nothing of 1.4 changes or goes.  As everywhere in
-- the install scripts, every function, operator and type named here is
-- schema-qualified (the script runs with search_path set to the target
-- schema, as the bootstrap superuser when the extension is trusted).
