-- Soft input errors (PostgreSQL 16 and later; the Makefile leaves this file
-- out on older servers): the input function reports a bad literal through
-- the error-saving context instead of throwing, so pg_input_is_valid,
-- pg_input_error_info and (17+) COPY ... ON_ERROR see it.
SELECT pg_input_is_valid('garbage', 'bloomfilter');
SELECT pg_input_is_valid('', 'bloomfilter');
SELECT pg_input_is_valid(bf_add(bf_create(10), 1)::text, 'bloomfilter');
SELECT pg_input_is_valid(' ' || bf_create(10)::text || E'\n', 'bloomfilter');

-- both kinds of failure: not base64, and base64 of a bad binary value
SELECT * FROM pg_input_error_info('!!!!', 'bloomfilter');
SELECT * FROM pg_input_error_info('QkxNRgEBAQU=', 'bloomfilter');
CREATE TABLE soft_good AS SELECT bf_add(bf_create(10), 1)::bytea AS b;
SELECT e.detail, e.sql_error_code FROM soft_good,
	pg_input_error_info(translate(encode(substring(b from 1 for length(b) - 1), 'base64'), E'\n', ''),
	                    'bloomfilter') e;
SELECT e.detail, e.sql_error_code FROM soft_good,
	pg_input_error_info(translate(encode(overlay(b placing '\x63' from 41 for 1), 'base64'), E'\n', ''),
	                    'bloomfilter') e;

-- the cuckoofilter type's input does the same
SELECT pg_input_is_valid('garbage', 'cuckoofilter');
SELECT pg_input_is_valid(cf_add(cf_create(10), 1)::text, 'cuckoofilter');
SELECT detail IS NOT NULL AS has_detail, sql_error_code FROM pg_input_error_info('QkxNRgEBAQU=', 'cuckoofilter');

-- a valid literal still reads as the same value
SELECT bf_add(bf_create(10), 1)::text::bloomfilter::bytea = b FROM soft_good;
DROP TABLE soft_good;
