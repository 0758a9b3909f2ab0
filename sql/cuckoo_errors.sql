-- Malformed cuckoofilter values, one per line: the text form is refused
-- with 22P02, the bytea cast with 22P03, each naming what is wrong.  Each
-- starts from the valid cf_create(1, 0.01) (48-byte header, then one
-- sub-filter: its 24-byte descriptor and 1 bucket of 4 8-bit slots, 76
-- bytes in all) and changes one thing.
\set VERBOSITY default
CREATE TABLE cf_ok AS SELECT cf_create(1, 0.01)::bytea AS b;
SELECT encode(b, 'hex') FROM cf_ok;
-- text form
SELECT ''::cuckoofilter;
SELECT 'not base64!'::cuckoofilter;
SELECT 'Q0tPRg=='::cuckoofilter;
SELECT 'QkxNRgEBAgcAAAAAAAAAAA=='::cuckoofilter;
SELECT translate(encode(overlay(b placing '\x02' FROM 5 FOR 1), 'base64'), E'\n', '')::cuckoofilter FROM cf_ok;
-- binary form through the bytea cast
SELECT '\x'::bytea::cuckoofilter;
SELECT substr(b, 1, 47)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing 'X' FROM 1 FOR 1)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x02' FROM 5 FOR 1)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x01' FROM 6 FOR 1)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x03' FROM 7 FOR 1)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x21' FROM 8 FOR 1)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x0b' FROM 8 FOR 1)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x0000' FROM 13 FOR 2)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x4100' FROM 13 FOR 2)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x0200' FROM 13 FOR 2)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x0110' FROM 15 FOR 2)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x0000000000000000' FROM 17 FOR 8)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\xffffffffffffffff' FROM 17 FOR 8)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x0000000000000000' FROM 25 FOR 8)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x000000000000f03f' FROM 25 FOR 8)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x000000000000f87f' FROM 25 FOR 8)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x01' FROM 33 FOR 1)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x01' FROM 45 FOR 1)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x28' FROM 42 FOR 1)::cuckoofilter FROM cf_ok; -- key type 10240
-- the key type must be 0 or one filters hash (bloomfilter's rule), not any
-- OID below 10000: cf_info of key type 9999 failed with XX000 in 1.3
SELECT overlay(b placing '\x0f27' FROM 41 FOR 2)::cuckoofilter FROM cf_ok;    -- 9999, no type
SELECT translate(encode(overlay(b placing '\x0f27' FROM 41 FOR 2), 'base64'), E'\n', '')::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x16' FROM 41 FOR 1)::cuckoofilter FROM cf_ok;      -- 22, int2vector
SELECT cf_key_type(overlay(b placing '\x14' FROM 41 FOR 1)::cuckoofilter) FROM cf_ok; -- 20: valid
-- the capacity (bytes 16..23) sizes every later sub-filter, so the first
-- must have a slot for each element of it (its 1 bucket of 4 slots here):
-- 1.3 took capacity 200,000,000 on these 76 bytes and grew them to 590 MB
-- at the add that filled the four slots
SELECT overlay(b placing '\x05' FROM 17 FOR 1)::cuckoofilter FROM cf_ok;      -- capacity 5
SELECT overlay(b placing '\x00c2eb0b' FROM 17 FOR 4)::cuckoofilter FROM cf_ok; -- capacity 200,000,000
SELECT cf_capacity(overlay(b placing '\x04' FROM 17 FOR 1)::cuckoofilter) FROM cf_ok; -- capacity 4: valid
SELECT overlay(b placing '\x03' FROM 49 FOR 1)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x00' FROM 49 FOR 1)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x01' FROM 57 FOR 1)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x01' FROM 66 FOR 1)::cuckoofilter FROM cf_ok;
SELECT overlay(b placing '\x01' FROM 73 FOR 1)::cuckoofilter FROM cf_ok;
SELECT (b || '\x00'::bytea)::cuckoofilter FROM cf_ok;
SELECT bf_create(10)::bytea::cuckoofilter;
-- a changed slot with its counts changed to match is a valid value
SELECT cf_items(overlay(overlay(overlay(b placing '\x01' FROM 73 FOR 1) placing '\x01' FROM 57 FOR 1)
                placing '\x01' FROM 33 FOR 1)::cuckoofilter) FROM cf_ok;
DROP TABLE cf_ok;
-- seeds 1 to 8: with a key of that many bytes, MurmurHash3's two words are
-- tied (h2 = 1.5 h1), and a fingerprint would follow from its bucket
SELECT cf_create(100, 0.01, 8);
SELECT cf_create(100, 0.01, 1);
SELECT cf_info(cf_create(100, 0.01, 9))->>'seed' AS nine_is_fine;
