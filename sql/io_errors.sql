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
SELECT bf_create(0);
SELECT bf_create(10000000000, 0.01);
SELECT bf_union(bf_create(10), bf_create(100000));
\set VERBOSITY default

DROP TABLE good;
DROP FUNCTION b64(bytea);
