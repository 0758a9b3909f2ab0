-- An ordinary role can install (the extension is trusted) and use everything.
DROP EXTENSION bloomfilter;
CREATE ROLE regress_bf_user;
DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_bf_user', current_database()); END $$;
CREATE SCHEMA bf_user_schema AUTHORIZATION regress_bf_user;
SET ROLE regress_bf_user;
SET search_path = bf_user_schema;

CREATE EXTENSION bloomfilter;
SELECT extowner::regrole AS owner FROM pg_extension WHERE extname = 'bloomfilter';
CREATE TABLE mine (id int, bf bloomfilter);
INSERT INTO mine SELECT 1, bf_agg(g, 1000) FROM generate_series(1, 100) g;
UPDATE mine SET bf = bf_add(bf, 1000) | bf_create(1000);
SELECT bf @> 50 AS has_50, bf @> 1000 AS has_1000, bf_info(bf)->>'capacity' AS capacity FROM mine;
DROP TABLE mine;
DROP EXTENSION bloomfilter;

RESET ROLE;
RESET search_path;
DROP SCHEMA bf_user_schema;
DO $$ BEGIN EXECUTE format('REVOKE CREATE ON DATABASE %I FROM regress_bf_user', current_database()); END $$;
DROP ROLE regress_bf_user;

-- the install script grants nothing special: no SECURITY DEFINER function
CREATE EXTENSION bloomfilter;
SELECT count(*) AS security_definer_functions
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomfilter'
WHERE p.prosecdef;
