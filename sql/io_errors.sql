-- malformed text literals: one per line, each a clear error
SELECT ''::bloomfilter;
SELECT 'abc'::bloomfilter;
SELECT 'QkxNRg'::bloomfilter;
SELECT 'QkxNRg=='::bloomfilter;
SELECT '!!!!'::bloomfilter;
SELECT 'QkxNRgEBAQU='::bloomfilter;

-- well-formed base64 of bad binary values, built from a valid one
CREATE FUNCTION b64(bytea) RETURNS text LANGUAGE sql IMMUTABLE
	AS $$ SELECT translate(encode($1, 'base64'), E'\n', '') $$;
-- untyped (header bytes 12..15 zero), as 1.2 made it, so the literals below stay those of 1.2
CREATE TABLE good AS SELECT overlay(bf_add(bf_create(10), 1)::bytea placing '\x00' from 13 for 1) AS b;
SELECT b64(substring(b from 1 for 47))::bloomfilter FROM good;            -- truncated header
SELECT b64(substring(b from 1 for length(b) - 1))::bloomfilter FROM good; -- truncated bits
SELECT b64(b || '\x00'::bytea)::bloomfilter FROM good;                     -- trailing byte
SELECT b64(overlay(b placing '\x00' from 1 for 1))::bloomfilter FROM good;  -- magic
SELECT b64(overlay(b placing '\x02' from 5 for 1))::bloomfilter FROM good;  -- version 2
SELECT b64(overlay(b placing '\x07' from 6 for 1))::bloomfilter FROM good;  -- layout
SELECT b64(overlay(b placing '\x09' from 7 for 1))::bloomfilter FROM good;  -- hash id
SELECT b64(overlay(b placing '\x00' from 8 for 1))::bloomfilter FROM good;  -- k = 0
SELECT b64(overlay(b placing '\xff' from 8 for 1))::bloomfilter FROM good;  -- k = 255
SELECT b64(overlay(b placing '\x28' from 14 for 1))::bloomfilter FROM good; -- key type 10240
SELECT b64(overlay(b placing '\x0000000000000000' from 17 for 8))::bloomfilter FROM good; -- nbits 0
SELECT b64(overlay(b placing '\x0102' from 17 for 2))::bloomfilter FROM good; -- nbits not a multiple of 512
SELECT b64(overlay(b placing '\x00000000000000f0' from 17 for 8))::bloomfilter FROM good; -- nbits absurd
SELECT b64(overlay(b placing '\x0000000000000000' from 25 for 8))::bloomfilter FROM good; -- capacity 0
SELECT b64(overlay(b placing '\x000000000000f87f' from 33 for 8))::bloomfilter FROM good; -- error rate NaN
SELECT b64(overlay(b placing '\x000000000000f03f' from 33 for 8))::bloomfilter FROM good; -- error rate 1
SELECT b64(overlay(b placing '\x63' from 41 for 1))::bloomfilter FROM good; -- bits set wrong
SELECT b64(overlay(b placing '\xff' from 49 for 1))::bloomfilter FROM good; -- bits changed under the count

-- the same checks on the bytea cast (binary receive shares them: see copy_binary)
SELECT '\x00'::bytea::bloomfilter;
SELECT overlay(b placing '\x02' from 5 for 1)::bloomfilter FROM good;
SELECT substring(b from 1 for length(b) - 64)::bloomfilter FROM good;
SELECT overlay(b placing '\x63' from 41 for 1)::bloomfilter FROM good;

-- Every header field against what the format allows (1.4): each value is
-- a real one with the bytes shown changed, refused as text (22P02) and as
-- binary (22P03, the bytea cast; binary receive shares it: copy_binary).
-- The key type (bytes 12..15) must be 0 or a type filters hash: not any
-- OID below 10000, as 1.3 took, whose bf_info then failed with XX000.
SELECT b64(overlay(b placing '\x0f27' from 13 for 2))::bloomfilter FROM good; -- key type 9999, no type
SELECT overlay(b placing '\x0f27' from 13 for 2)::bloomfilter FROM good;
SELECT overlay(b placing '\x16' from 13 for 1)::bloomfilter FROM good;      -- 22, int2vector: its keys are int2[]
SELECT overlay(b placing '\xda0e' from 13 for 2)::bloomfilter FROM good;    -- 3802, jsonb: not hashed
SELECT bf_key_type(overlay(b placing '\xee03' from 13 for 2)::bloomfilter) FROM good; -- 1006, int2vector[]: valid
-- Input accepts exactly the key types the server's rules can record, for
-- every type of this server: kt gives the key type bf_create records for a
-- type (NULL if refused, whatever the error: a disagreement shows it), and
-- accepted whether input takes an OID as one.
CREATE FUNCTION kt(t regtype) RETURNS oid LANGUAGE plpgsql AS $$
BEGIN
	RETURN bf_key_type(bf_create(10, 0.01, key_type => t));
EXCEPTION WHEN others THEN
	RETURN NULL;
END $$;
CREATE FUNCTION accepted(b bytea) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	PERFORM b::bloomfilter;
	RETURN true;
EXCEPTION WHEN invalid_binary_representation THEN
	RETURN false;
END $$;
CREATE TABLE recordable AS SELECT DISTINCT kt(oid) AS k FROM pg_type WHERE kt(oid) IS NOT NULL;
SELECT count(*) FILTER (WHERE ok) AS accepted,
       count(*) FILTER (WHERE ok <> (o IN (SELECT k FROM recordable))) AS disagreements
FROM (SELECT o, accepted(overlay(b placing set_byte(set_byte('\x0000'::bytea, 0, o % 256), 1, o / 256) from 13 for 2)) AS ok
      FROM good, generate_series(1, 9999) o) s;
DROP TABLE recordable;
DROP FUNCTION kt(regtype), accepted(bytea);
-- A scalable filter (payload: uint32 expansion at byte 48, uint32 fill
-- divisor at 52, 8 zero bytes, then each sub-filter's uint64 count and
-- 48-byte header, the first's at 64 and 72).  A divisor above 1 exists
-- only inside a running parallel aggregate; from outside it made every add
-- start a sub-filter, and 1.6 kB grew to 36 MB in 13 adds.
CREATE TABLE scal AS SELECT bf_create(1000, 0.01, 0, false, 2)::bytea AS s;
SELECT overlay(s placing '\x02' from 53 for 1)::bloomfilter FROM scal;         -- fill divisor 2
SELECT overlay(s placing '\xffffffff' from 53 for 4)::bloomfilter FROM scal;   -- fill divisor 2^32 - 1
SELECT b64(overlay(s placing '\x02' from 53 for 1))::bloomfilter FROM scal;    -- the same as text
SELECT overlay(s placing '\x00' from 53 for 1)::bloomfilter FROM scal;         -- fill divisor 0
SELECT overlay(s placing '\x14' from 85 for 1)::bloomfilter FROM scal;         -- a sub-filter's key type 20
SELECT bf_key_type(overlay(s placing '\x14' from 13 for 1)::bloomfilter) FROM scal; -- the top's: valid
DROP TABLE scal;

-- bad arguments
SELECT bf_create(0);
SELECT bf_create(-5, 0.01);
SELECT bf_create(100, 0);
SELECT bf_create(100, 1);
SELECT bf_create(100, -0.5);
SELECT bf_create(100, 'NaN');
SELECT bf_create(100, 1e-12);
SELECT bf_create(100, 0.01, -1);
SELECT bf_create(100, 0.01, 4294967296);
SELECT bf_create(10000000000, 0.01);
SELECT bf_create(9223372036854775807, 0.5);

-- the error codes
\set VERBOSITY sqlstate
SELECT 'abc'::bloomfilter;
SELECT '\x00'::bytea::bloomfilter;
SELECT b64(overlay(b placing '\x0f27' from 13 for 2))::bloomfilter FROM good;
SELECT overlay(b placing '\x0f27' from 13 for 2)::bloomfilter FROM good;
SELECT bf_create(0);
SELECT bf_create(10000000000, 0.01);
SELECT bf_union(bf_create(10), bf_create(100000));
\set VERBOSITY default

DROP TABLE good;
DROP FUNCTION b64(bytea);
