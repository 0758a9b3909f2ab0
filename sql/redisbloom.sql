-- RedisBloom's format: layout 6, hash id 4 (docs/format.md).  The dumps
-- below are what BF.SCANDUMP of RedisBloom 2.4.9 handed out, and the
-- answers in the comments are what its BF.MEXISTS gave for them.
SET extra_float_digits = 0;
SELECT getdatabaseencoding() = 'UTF8' AS utf8;

CREATE TABLE rb_dump (name text, iter bigint, chunk bytea);
-- BF.RESERVE k1 0.01 10 EXPANSION 2; BF.MADD k1 0 2 4 ... 58 -42: three links
INSERT INTO rb_dump VALUES
 ('k1', 1, '\x1f00000000000000030000000500000002000000100000000000000080000000000000000a000000000000007b14ae47e17a743fe9862fb2350e2640080000000a00000000000000002000000000000000000100000000000014000000000000007b14ae47e17a643f4af7d49edef02840090000001400000000000000004800000000000000400200000000000001000000000000007b14ae47e17a543faa677a8b87d32b400a000000280000000000000000'),
 ('k1', 17, '\x31f229017508e30a2390ad642fa161ad'),
 ('k1', 49, '\x596ce4d830940af6fb6bcefbef7c15256640bc8bcffdabd255c0cc4264e6e681'),
 ('k1', 121, '\x000000000004008000000000000000000000000000000000000010000000000000000000000800000000000000020040000000000000000001002000000000000000080000010000');
-- BF.RESERVE k2 0.001 5 NONSCALING; BF.MADD k2 ключ abc "" é "x y"
INSERT INTO rb_dump VALUES
 ('k2', 1, '\x0500000000000000010000000d00000002000000100000000000000080000000000000000500000000000000fca9f1d24d62503fcd214f2853c12c400a000000050000000000000000'),
 ('k2', 17, '\xb08408e54e24e0010baa0bc0106ca31a');
-- BF.RESERVE k3 0.05 3 EXPANSION 1; BF.MADD k3 \x00 \x00\xff \xdeadbeef "" \xff*9 ab abc\x00
INSERT INTO rb_dump VALUES
 ('k3', 1, '\x07000000000000000300000005000000010000000800000000000000400000000000000003000000000000009a9999999999993f0bd81f7830b61e40060000000300000000000000000800000000000000400000000000000003000000000000009a9999999999893f655cb528c13d2240070000000300000000000000000800000000000000400000000000000001000000000000009a9999999999793fc6cc5a156a20254008000000030000000000000000'),
 ('k3', 9, '\x4d00306010898c02'),
 ('k3', 17, '\x0826021180587515'),
 ('k3', 25, '\x02002800800a00a0');

-- errors are shown with their SQLSTATEs
CREATE FUNCTION rb_err(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	d text;
BEGIN
	EXECUTE q;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;
	RETURN SQLSTATE || ': ' || SQLERRM || coalesce(' (' || nullif(d, '') || ')', '');
END $$;

-- the same adds here give the same bytes, directly and through bf_agg
CREATE FUNCTION dump_of(bloomfilter) RETURNS text[] LANGUAGE sql IMMUTABLE
	AS $$ SELECT array_agg(iter || ':' || encode(chunk, 'hex') ORDER BY iter) FROM bf_to_redisbloom($1) $$;
CREATE FUNCTION pinned(text) RETURNS text[] LANGUAGE sql STABLE
	AS $$ SELECT array_agg(iter || ':' || encode(chunk, 'hex') ORDER BY iter) FROM rb_dump WHERE name = $1 $$;
SELECT dump_of(bf_add_all(bf_create(10, 0.01, expansion => 2, key_type => 'bigint', layout => 'redisbloom'),
					  ARRAY(SELECT generate_series(0, 58, 2)) || -42::bigint)) = pinned('k1') AS k1_same;
SELECT dump_of(bf_agg(x, bf_create(10, 0.01, expansion => 2, layout => 'redisbloom') ORDER BY o)) = pinned('k1') AS k1_agg_same
FROM unnest(ARRAY(SELECT generate_series(0, 58, 2)) || -42::bigint) WITH ORDINALITY AS u(x, o);
SELECT dump_of(bf_add_all(bf_create(5, 0.001, layout => 'redisbloom'),
					  ARRAY['ключ', 'abc', '', 'é', 'x y'])) = pinned('k2') AS k2_same;
SELECT dump_of(bf_add_all(bf_create(3, 0.05, expansion => 1, layout => 'redisbloom'),
					  ARRAY['\x00', '\x00ff', '\xdeadbeef', '', '\xffffffffffffffffff', '\x6162', '\x61626300']::bytea[])) = pinned('k3') AS k3_same;

-- read back from the dumps, in any order, with or without SCANDUMP's final (0, '')
CREATE TABLE rb_val AS
SELECT name, bf_from_redisbloom(array_agg(iter), array_agg(chunk),
								CASE name WHEN 'k1' THEN 'bigint' WHEN 'k2' THEN 'text' ELSE 'bytea' END::regtype) AS v
FROM (SELECT * FROM rb_dump ORDER BY iter DESC) d GROUP BY name;
SELECT name, dump_of(v) = pinned(name) AS round_trip, bf_key_type(v), bf_capacity(v), bf_error_rate(v),
	   bf_bits_set(v), bf_nbits(v), bf_nhashes(v) AS links
FROM rb_val ORDER BY name;
SELECT bf_from_redisbloom(ARRAY[0, 17, 1], ARRAY['', '\xb08408e54e24e0010baa0bc0106ca31a', (SELECT chunk FROM rb_dump WHERE name = 'k2' AND iter = 1)], 'text')
	= (SELECT v FROM rb_val WHERE name = 'k2') AS with_end_marker;

-- answers as BF.MEXISTS gave them: k1 for -100..100 held
-- -96 -82 -66 -60 -43 -42 -24 and the even numbers 0..58
SELECT array_agg(x ORDER BY x) FILTER (WHERE bf_contains(v, x)) AS present
FROM rb_val, generate_series(-100, 100) x WHERE name = 'k1';
SELECT array_agg(x ORDER BY x) FILTER (WHERE bf_contains(v, x))
	= '{-96,-82,-66,-60,-43,-42,-24,0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,50,52,54,56,58}' AS as_redis
FROM rb_val, generate_series(-100, 100) x WHERE name = 'k1';
-- k2: members yes; 'abc ', 'Abc', 'ключи', 'e', 'xy' no
SELECT p, bf_contains(v, p) FROM rb_val, unnest(ARRAY['ключ', 'abc', '', 'é', 'x y', 'abc ', 'Abc', 'ключи', 'e', 'xy']) p
WHERE name = 'k2';
-- k3: members yes; \x01, abc, \xff*8 no
SELECT p, bf_contains(v, p) FROM rb_val,
	unnest(ARRAY['\x00', '\x00ff', '\xdeadbeef', '', '\xffffffffffffffffff', '\x6162', '\x61626300',
				 '\x01', '\x616263', '\xffffffffffffffff']::bytea[]) p
WHERE name = 'k3';

-- typed probes: what SQL's = calls equal to a member tests present
SELECT bf_contains(v, 2::int2) AS int2, bf_contains(v, 2::int4) AS int4, bf_contains(v, 2.0::numeric) AS numeric,
	   bf_contains(v, 2.0::float8) AS float8, bf_contains(v, (-42)::numeric) AS neg, bf_contains(v, 2.5) AS fraction,
	   v @> 4::bigint AS op, bf_contains_all(v, ARRAY[0, 2, 4, 58]) AS all_members
FROM rb_val WHERE name = 'k1';
SELECT bf_contains(v, 'abc'::varchar) AS varchar, bf_contains(v, 'abc'::char(6)) AS bpchar,
	   bf_contains(v, 'ключ') AS untyped, bf_contains(v, 'abc '::text) AS trailing_blank
FROM rb_val WHERE name = 'k2';

-- the value forms: text, binary, bytea, equality
SELECT name, v::text::bloomfilter = v AS text_io, bloomfilter(v::bytea) = v AS bytea_cast FROM rb_val ORDER BY name;
\copy (SELECT name, v FROM rb_val ORDER BY name) TO 'results/redisbloom.bin' WITH (FORMAT binary)
CREATE TABLE rb_copy (name text, v bloomfilter);
\copy rb_copy FROM 'results/redisbloom.bin' WITH (FORMAT binary)
SELECT bool_and(a.v = b.v) AS binary_copy FROM rb_val a JOIN rb_copy b USING (name);
SELECT jsonb_pretty(bf_info(v)) FROM rb_val WHERE name = 'k3';
SELECT round(bf_fpp(v)::numeric, 6) AS fpp, round(bf_cardinality(v)) AS cardinality FROM rb_val WHERE name = 'k1';

-- adds keep counting as BF.ADD does: a member again changes nothing
SELECT bf_add(v, 2) = v AS readd, bf_add(v, 1) = v AS new_one FROM rb_val WHERE name = 'k1';
-- unions of chains of the same links
SELECT bf_union(v, v) @> 58::bigint AS self_union FROM rb_val WHERE name = 'k1';
SELECT dump_of(bf_union(bf_add(bf_create(100, 0.01, layout => 'redisbloom'), 1), bf_add(bf_create(100, 0.01, layout => 'redisbloom'), 2)))
	= dump_of(bf_add_all(bf_create(100, 0.01, layout => 'redisbloom'), ARRAY[1, 2])) AS union_is_adds;

-- chains of the same request but different lengths union into the longer
-- (as a parallel bf_agg's partial chains do): every member of both present
CREATE TABLE rb_two AS
SELECT bf_add_all(bf_create(10, 0.01, expansion => 2, layout => 'redisbloom'), ARRAY(SELECT generate_series(1, 100))) AS long,
	   bf_add_all(bf_create(10, 0.01, expansion => 2, layout => 'redisbloom'), ARRAY(SELECT generate_series(1001, 1008))) AS short;
SELECT bf_nhashes(long) AS long_links, bf_nhashes(short) AS short_links,
	   bf_nhashes(bf_union(long, short)) AS union_links, bf_nhashes(bf_union(short, long)) AS reversed_links,
	   (SELECT bool_and(bf_contains(bf_union(short, long), i)) FROM generate_series(1, 100) i) AS long_members,
	   (SELECT bool_and(bf_contains(bf_union(long, short), i)) FROM generate_series(1001, 1008) i) AS short_members,
	   bf_union(long, short) = bf_union(short, long) AS commutes
FROM rb_two;
-- the union counts at most a link's entries in it, so input takes it back
SELECT (bf_info(u)->'links'->0->>'size')::int AS first_link_size, u::bytea::bloomfilter = u AS reads_back
FROM (SELECT bf_union(long, short) AS u FROM rb_two) s;
SELECT rb_err(q) FROM (VALUES
	($$SELECT bf_union(bf_create(10, 0.01, expansion => 2, layout => 'redisbloom'), bf_create(10, 0.01, expansion => 3, layout => 'redisbloom'))$$)
) t(q);
CREATE TABLE rb_par AS SELECT i FROM generate_series(1, 200000) i;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT bf_nhashes(f) > 1 AS grew, (SELECT bool_and(bf_contains(f, i)) FROM rb_par) AS members
FROM (SELECT bf_agg(i, bf_create(100, 0.01, expansion => 2, layout => 'redisbloom')) AS f FROM rb_par) s;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- a stored chain out of line: checks read its links from TOAST
CREATE TABLE rb_stored (id int, v bloomfilter);
ALTER TABLE rb_stored ALTER v SET STORAGE EXTERNAL;
INSERT INTO rb_stored SELECT 1, bf_add_all(bf_create(2000, 0.001, expansion => 2, layout => 'redisbloom'),
										   ARRAY(SELECT generate_series(1, 10000)));
SELECT pg_column_size(v) > 20000 AS out_of_line, bf_nhashes(v) AS links, bf_contains(v, 5000) AS member,
	   bf_contains(v, 1) AS first, bf_contains(v, 10000) AS last FROM rb_stored;
SELECT count(*) FILTER (WHERE bf_contains(v, i)) AS members_present FROM rb_stored, generate_series(1, 10000) i;
SELECT bool_and(bf_contains_all(v, ARRAY[1, 777, 9999]) = '{t,t,t}') AS contains_all FROM rb_stored;

-- generated: shapes by adds past capacity; every member present, the dump
-- reads back to the same value, and integer probes of every type agree
CREATE TABLE rb_gen AS
SELECT cap, err, exp, n,
	   bf_add_all(bf_create(cap, err, expansion => exp, layout => 'redisbloom'),
				  ARRAY(SELECT (i * 2654435761) % 1000000007 FROM generate_series(1, n) i)) AS v
FROM (VALUES (1, 0.5, 3, 40), (7, 0.2, 2, 300), (100, 0.01, 2, 1000), (50, 0.001, 1, 300),
			 (1000, 1e-5, 4, 5000), (20, 0.3, 0, 20), (3, 0.9, 2, 200)) s(cap, err, exp, n);
SELECT cap, err, exp, n, bf_nhashes(v) AS links,
	   (SELECT bool_and(bf_contains(v, (i * 2654435761) % 1000000007)) FROM generate_series(1, n) i) AS members,
	   bf_from_redisbloom((SELECT array_agg(iter) FROM bf_to_redisbloom(v)),
						  (SELECT array_agg(chunk) FROM bf_to_redisbloom(v)), 'bigint') = v AS round_trip,
	   (SELECT bool_and(bf_contains(v, i) = bf_contains(v, i::numeric) AND
						(i > 32767 OR bf_contains(v, i::int2) = bf_contains(v, i)))
		FROM generate_series(-20000, 20000, 7) i) AS typed
FROM rb_gen ORDER BY cap, err;

-- errors, with their SQLSTATEs
SELECT rb_err(q) FROM (VALUES
	($$SELECT bf_create(10, 0.01, layout => 'nosuch')$$),
	($$SELECT bf_create(10, 0.01, counting => true, layout => 'redisbloom')$$),
	($$SELECT bf_create(10, 0.01, 7, layout => 'redisbloom')$$),
	($$SELECT bf_create(10, 0.01, key_type => 'numeric', layout => 'redisbloom')$$),
	($$SELECT bf_create(10, 0.01, key_type => 'uuid', layout => 'redisbloom')$$),
	($$SELECT bf_create(10, 1, layout => 'redisbloom')$$),
	($$SELECT bf_create(10, 0, layout => 'redisbloom')$$),
	($$SELECT bf_create(0, 0.01, layout => 'redisbloom')$$),
	($$SELECT bf_create(10, 0.01, expansion => -1, layout => 'redisbloom')$$),
	($$SELECT bf_create(10, 0.01, expansion => 2000, layout => 'redisbloom')$$),
	($$SELECT bf_create(1, 0.9, layout => 'redisbloom')$$),
	($$SELECT bf_create(1000000000000, 1e-9, layout => 'redisbloom')$$),
	($$SELECT bf_add(bf_create(10, 0.01, layout => 'redisbloom'), 2.5)$$),
	($$SELECT bf_add(bf_create(10, 0.01, layout => 'redisbloom'), 'x'::name)$$),
	($$SELECT bf_add(bf_create(10, 0.01, layout => 'redisbloom'), now())$$),
	($$SELECT bf_add_all(bf_create(5, 0.01, layout => 'redisbloom'), ARRAY[1, 2, 3, 4, 5, 6])$$),
	($$SELECT bf_to_redisbloom(bf_create(10))$$),
	($$SELECT bf_union(bf_create(10, 0.01, layout => 'redisbloom'), bf_create(10, 0.01))$$),
	($$SELECT bf_union(bf_create(10, 0.01, layout => 'redisbloom'), bf_create(20, 0.01, layout => 'redisbloom'))$$),
	($$SELECT bf_intersect(bf_create(10, 0.01, layout => 'redisbloom'), bf_create(10, 0.01, layout => 'redisbloom'))$$)
) t(q);

-- malformed dumps: each refused with 22P03 and what is wrong
CREATE FUNCTION from_dump(name text, iters bigint[], chunks bytea[]) RETURNS text LANGUAGE sql AS $$
	SELECT rb_err(pg_catalog.format('SELECT bf_from_redisbloom(%L::bigint[], %L::bytea[])', iters, chunks)) $$;
CREATE FUNCTION head_with(name text, at int, bytes bytea) RETURNS bytea LANGUAGE sql STABLE AS $$
	SELECT overlay(chunk placing bytes from at + 1 for length(bytes)) FROM rb_dump WHERE rb_dump.name = head_with.name AND iter = 1 $$;
CREATE FUNCTION k3(iter bigint) RETURNS bytea LANGUAGE sql STABLE AS $$ SELECT chunk FROM rb_dump WHERE name = 'k3' AND rb_dump.iter = k3.iter $$;
SELECT what, from_dump('k3', i, c) FROM (VALUES
	('no header', ARRAY[9, 17, 25], ARRAY[k3(9), k3(17), k3(25)]),
	('a link missing', ARRAY[1, 9, 17], ARRAY[k3(1), k3(9), k3(17)]),
	('a chunk twice', ARRAY[1, 9, 9, 17, 25], ARRAY[k3(1), k3(9), k3(9), k3(17), k3(25)]),
	('overlap', ARRAY[1, 9, 13, 17, 25], ARRAY[k3(1), k3(9), substring(k3(17) from 1 for 4), k3(17), k3(25)]),
	('spans two links', ARRAY[1, 17, 25], ARRAY[k3(1), k3(9) || k3(17), k3(25)]),
	('past the last link', ARRAY[1, 9, 17, 25, 26], ARRAY[k3(1), k3(9), k3(17), k3(25), '\x00'::bytea]),
	('longer than its iter', ARRAY[1, 3, 17, 25], ARRAY[k3(1), k3(9), k3(17), k3(25)]),
	('empty chunk', ARRAY[1, 9, 17, 25, 30], ARRAY[k3(1), k3(9), k3(17), k3(25), ''::bytea]),
	('iter 0 with data', ARRAY[0, 1, 9, 17, 25], ARRAY['\x00', k3(1), k3(9), k3(17), k3(25)]),
	('negative iter', ARRAY[-5, 1, 9, 17, 25], ARRAY[''::bytea, k3(1), k3(9), k3(17), k3(25)]),
	('arrays of two lengths', ARRAY[1, 9, 17], ARRAY[k3(1), k3(9), k3(17), k3(25)]),
	('a NULL chunk', ARRAY[1, 9, 17, 25], ARRAY[k3(1), k3(9), NULL, k3(25)]),
	('header cut short', ARRAY[1, 9, 17, 25], ARRAY[substring(k3(1) from 1 for 70), k3(9), k3(17), k3(25)]),
	('nfilters 4', ARRAY[1, 9, 17, 25], ARRAY[head_with('k3', 8, '\x04'), k3(9), k3(17), k3(25)]),
	('nfilters 0', ARRAY[1], ARRAY[head_with('k3', 8, '\x00')]),
	('no FORCE64 (32-bit hashing)', ARRAY[1, 9, 17, 25], ARRAY[head_with('k3', 12, '\x01'), k3(9), k3(17), k3(25)]),
	('an unknown option', ARRAY[1, 9, 17, 25], ARRAY[head_with('k3', 12, '\x15'), k3(9), k3(17), k3(25)]),
	('chain size not the sum', ARRAY[1, 9, 17, 25], ARRAY[head_with('k3', 0, '\x08'), k3(9), k3(17), k3(25)]),
	('link bits not 8 * bytes', ARRAY[1, 9, 17, 25], ARRAY[head_with('k3', 28, '\x41'), k3(9), k3(17), k3(25)]),
	('link error 0', ARRAY[1, 9, 17, 25], ARRAY[head_with('k3', 44, '\x0000000000000000'), k3(9), k3(17), k3(25)]),
	('link error 1', ARRAY[1, 9, 17, 25], ARRAY[head_with('k3', 44, '\x000000000000f03f'), k3(9), k3(17), k3(25)]),
	('link hashes not as bpe gives', ARRAY[1, 9, 17, 25], ARRAY[head_with('k3', 60, '\x07'), k3(9), k3(17), k3(25)]),
	('link bpe NaN', ARRAY[1, 9, 17, 25], ARRAY[head_with('k3', 52, '\x000000000000f87f'), k3(9), k3(17), k3(25)]),
	('link n2 above its bits', ARRAY[1, 9, 17, 25], ARRAY[head_with('k3', 72, '\x07'), k3(9), k3(17), k3(25)]),
	('link n2 64', ARRAY[1, 9, 17, 25], ARRAY[head_with('k3', 72, '\x40'), k3(9), k3(17), k3(25)]),
	('link of no bytes', ARRAY[1, 9, 17, 25], ARRAY[head_with('k3', 20, '\x0000000000000000'), k3(9), k3(17), k3(25)])
) t(what, i, c);
SELECT rb_err($$SELECT bf_from_redisbloom(ARRAY[1, 17], ARRAY[(SELECT chunk FROM rb_dump WHERE name = 'k2' AND iter = 1), '\xb08408e54e24e0010baa0bc0106ca31a'], 'numeric')$$);
SELECT bf_from_redisbloom(NULL, ARRAY['\x00'::bytea]) IS NULL AS null_in_null_out;

-- stored values are checked as RedisBloom's loader checks them, and more
CREATE TABLE rb_good AS SELECT v::bytea AS b FROM rb_val WHERE name = 'k3';
SELECT rb_err(pg_catalog.format('SELECT %L::bytea::bloomfilter', q)) FROM (VALUES
	((SELECT overlay(b placing '\x02' from 7 for 1) FROM rb_good)),   -- hash id 2 with layout 6
	((SELECT overlay(b placing '\x04' from 7 for 1) FROM (SELECT bf_create(10)::bytea b) x)), -- hash id 4, layout 1
	((SELECT overlay(b placing '\x01' from 9 for 1) FROM rb_good)),   -- a seed
	((SELECT overlay(b placing '\xa4' from 13 for 1) FROM rb_good)),  -- key type 1700 (numeric)
	((SELECT overlay(b placing '\x04' from 8 for 1) FROM rb_good)),   -- links 4
	((SELECT overlay(b placing '\x09' from 49 for 1) FROM rb_good)),  -- chain size
	((SELECT overlay(b placing '\x04' from 25 for 1) FROM rb_good)),  -- capacity 4
	((SELECT overlay(b placing '\x00' from 41 for 1) FROM rb_good)),  -- bits set
	((SELECT overlay(b placing '\x41' from 77 for 1) FROM rb_good)),  -- a link's bits
	((SELECT b || '\x00'::bytea FROM rb_good))                        -- a trailing byte
) t(q);

-- forged growth (issue 32): the fields that size later links, rewritten in
-- genuine chains one at a time, everything else made consistent as a
-- forger would (capacity, error rate, counts, hashes), so that only the
-- new checks can refuse them.  Offsets: chain at 48 (size 48, nfilters 56,
-- options 60, growth 64), link i at 68 + 53 i (bytes 0, bits 8, size 16,
-- error 24, bpe 32, hashes 40, entries 44, n2 52), little-endian.
CREATE FUNCTION rb_u(b bytea, at int, n int) RETURNS numeric LANGUAGE sql IMMUTABLE
	AS $$ SELECT sum(get_byte(b, at + i)::numeric * 256::numeric ^ i) FROM generate_series(0, n - 1) i $$;
CREATE FUNCTION rb_put(b bytea, at int, n int, v numeric) RETURNS bytea LANGUAGE sql IMMUTABLE
	AS $$ SELECT overlay(b placing (SELECT string_agg(set_byte('\x00'::bytea, 0, (floor(v / 256::numeric ^ i) % 256)::int), ''::bytea ORDER BY i)
								   FROM generate_series(0, n - 1) i) from at + 1 for n) $$;
-- a normal double from its bits, and back
CREATE FUNCTION rb_d(u numeric) RETURNS float8 LANGUAGE sql IMMUTABLE
	AS $$ SELECT (1 + (u % 2::numeric ^ 52)::float8 / 2::float8 ^ 52) * 2::float8 ^ (floor(u / 2::numeric ^ 52)::int % 2048 - 1023) $$;
CREATE FUNCTION rb_bits(x float8) RETURNS numeric LANGUAGE sql IMMUTABLE
	AS $$ SELECT rb_u((SELECT string_agg(substring(float8send(x) from i for 1), ''::bytea ORDER BY i DESC) FROM generate_series(1, 8) i), 0, 8) $$;
CREATE FUNCTION rb_link(i int, field text) RETURNS int LANGUAGE sql IMMUTABLE
	AS $$ SELECT 68 + 53 * i + CASE field WHEN 'size' THEN 16 WHEN 'bpe' THEN 32 WHEN 'hashes' THEN 40 WHEN 'entries' THEN 44 END $$;
-- the derived fields made to agree: each link's hashes from its bpe, the
-- chain's size the sum of the links', the header's capacity and rate link 0's
CREATE FUNCTION rb_consistent(b bytea) RETURNS bytea LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
	n int := rb_u(b, 56, 4);
	total numeric := 0;
BEGIN
	FOR i IN 0 .. n - 1 LOOP
		b := rb_put(b, rb_link(i, 'hashes'), 4, ceil(0.693147180559945 * rb_d(rb_u(b, rb_link(i, 'bpe'), 8)))::numeric);
		total := total + rb_u(b, rb_link(i, 'size'), 8);
	END LOOP;
	b := rb_put(b, 48, 8, total);
	b := rb_put(b, 24, 8, rb_u(b, rb_link(0, 'entries'), 8));
	RETURN rb_put(b, 32, 8, rb_bits(rb_d(rb_u(b, 68 + 24, 8)) / CASE WHEN rb_u(b, 60, 4)::int & 8 = 8 THEN 1 ELSE 0.5 END));
END $$;
CREATE TABLE rb_genuine AS
SELECT name, v::bytea AS b FROM rb_val
UNION ALL SELECT format('gen %s/%s/%s', cap, err, exp), v::bytea FROM rb_gen
UNION ALL SELECT format('new %s/%s/%s', c, e, x), bf_create(c, e, expansion => x, layout => 'redisbloom')::bytea
FROM unnest('{1,10,1000,100000}'::int[]) c, unnest('{0.5,0.01,1e-6}'::float8[]) e, unnest('{0,1,3}'::int[]) x;
-- every link of every chain: i, its bits (m), bpe, entries, whether last
CREATE TABLE rb_links AS
SELECT name, b, i, rb_u(b, 68 + 53 * i + 8, 8) AS m, rb_d(rb_u(b, rb_link(i, 'bpe'), 8)) AS bpe,
	   rb_u(b, rb_link(i, 'entries'), 8) AS entries, rb_u(b, rb_link(i, 'size'), 8) AS size,
	   rb_u(b, 56, 4) = 1 AS alone
FROM rb_genuine, generate_series(0, rb_u(b, 56, 4)::int - 1) i;
CREATE TABLE rb_forged (what text, b bytea);
INSERT INTO rb_forged
SELECT 'entries just past what the bits hold',
	   rb_consistent(rb_put(b, rb_link(i, 'entries'), 8, floor(((m + 1) / bpe)::numeric) + 2)) FROM rb_links
UNION ALL
SELECT 'entries a thousand times too many',
	   rb_consistent(rb_put(b, rb_link(i, 'entries'), 8, entries * 1000)) FROM rb_links
UNION ALL
SELECT 'entries 10^15', rb_consistent(rb_put(b, rb_link(i, 'entries'), 8, 10::numeric ^ 15)) FROM rb_links
UNION ALL
SELECT 'a lone link at the most entries its bits hold (genuine)',
	   rb_consistent(rb_put(b, rb_link(i, 'entries'), 8, floor((m / bpe)::numeric))) FROM rb_links
WHERE alone AND floor((m / bpe)::numeric) >= size
UNION ALL
SELECT 'size one past entries',
	   rb_consistent(rb_put(b, rb_link(i, 'size'), 8, entries + 1)) FROM rb_links
UNION ALL
SELECT 'size and entries 250000000',
	   rb_consistent(rb_put(rb_put(b, rb_link(i, 'size'), 8, 250000000), rb_link(i, 'entries'), 8, 250000000)) FROM rb_links
UNION ALL
SELECT 'bpe twice the rate''s', rb_consistent(rb_put(b, rb_link(i, 'bpe'), 8, rb_u(b, rb_link(i, 'bpe'), 8) + 2::numeric ^ 52)) FROM rb_links
UNION ALL
SELECT 'bpe half the rate''s', rb_consistent(rb_put(b, rb_link(i, 'bpe'), 8, rb_u(b, rb_link(i, 'bpe'), 8) - 2::numeric ^ 52)) FROM rb_links
UNION ALL
SELECT format('growth %s%s', g, CASE WHEN rb_u(b, 60, 4)::int & 8 = 8 THEN ' (NONSCALING)' ELSE '' END),
	   rb_put(b, 64, 4, g) FROM rb_genuine, unnest('{0,1025,500000000,4294967295}'::bigint[]) g
UNION ALL
SELECT format('option ENTS_IS_BITS%s', CASE WHEN rb_u(b, 60, 4)::int & 8 = 8 THEN ' (NONSCALING)' ELSE '' END),
	   rb_put(b, 60, 4, rb_u(b, 60, 4) + 2) FROM rb_genuine
UNION ALL
SELECT 'growth one more than the links were made with', rb_put(b, 64, 4, rb_u(b, 64, 4) + 1)
FROM rb_genuine WHERE rb_u(b, 56, 4) > 1
UNION ALL
SELECT 'NONSCALING with more than one link', rb_consistent(rb_put(b, 60, 4, rb_u(b, 60, 4) + 8))
FROM rb_genuine WHERE rb_u(b, 56, 4) > 1 AND rb_u(b, 60, 4)::int & 8 = 0;
-- each kind of forgery: how many, and what input said
SELECT what, regexp_replace(rb_err(pg_catalog.format('SELECT %L::bytea::bloomfilter', b)), '^no error$', 'taken') AS outcome,
	   count(*) AS cases
FROM rb_forged GROUP BY 1, 2 ORDER BY 1, 2;
-- a chain whose link holds the most its bits hold grows as one made by
-- adds does, and keeps its members
SELECT count(*) AS chains, bool_and(bf_nhashes(g) > 1) AS grew, bool_and(false <> ALL (bf_contains_all(g, k))) AS members
FROM (SELECT bf_add_all(b::bloomfilter, k) AS g, k
	  FROM (SELECT b, ARRAY(SELECT generate_series(1, 2 * rb_u(b, 24, 8)::int + 10)) AS k
			FROM rb_forged WHERE what LIKE 'a lone link%' AND rb_u(b, 60, 4)::int & 8 = 0) s) t;

-- the issue's 129-byte value (one 8-byte link, entries and size
-- 250,000,000), and one with growth 500,000,000, on every input path
CREATE TABLE rb_issue AS
SELECT 'entries' AS what, rb_consistent(rb_put(rb_put(b, rb_link(0, 'size'), 8, 250000000), rb_link(0, 'entries'), 8, 250000000)) AS b
FROM (SELECT bf_create(1, 0.01, layout => 'redisbloom')::bytea AS b) s
UNION ALL
SELECT 'growth', rb_put(bf_create(1, 0.01, expansion => 2, layout => 'redisbloom')::bytea, 64, 4, 500000000);
SELECT what, length(b), rb_err(pg_catalog.format('SELECT %L::bytea::bloomfilter', b)) AS bytea_cast,
	   rb_err(pg_catalog.format('SELECT %L::bloomfilter', translate(encode(b, 'base64'), E'\n', ''))) AS text_input
FROM rb_issue ORDER BY what;
-- binary input: a bytea column's binary COPY is a bloomfilter's wire form
CREATE TABLE rb_issue_bytes (b bytea);
CREATE TABLE rb_issue_recv (v bloomfilter);
INSERT INTO rb_issue_bytes SELECT b FROM rb_issue WHERE what = 'entries';
\copy rb_issue_bytes TO 'results/redisbloom_forged.bin' WITH (FORMAT binary)
\set VERBOSITY sqlstate
\copy rb_issue_recv FROM 'results/redisbloom_forged.bin' WITH (FORMAT binary)
\set VERBOSITY default
TRUNCATE rb_issue_bytes;
INSERT INTO rb_issue_bytes SELECT b FROM rb_issue WHERE what = 'growth';
\copy rb_issue_bytes TO 'results/redisbloom_forged.bin' WITH (FORMAT binary)
\set VERBOSITY sqlstate
\copy rb_issue_recv FROM 'results/redisbloom_forged.bin' WITH (FORMAT binary)
\set VERBOSITY default
SELECT count(*) AS received FROM rb_issue_recv;
-- and through a dump
SELECT what, rb_err(pg_catalog.format('SELECT bf_from_redisbloom(ARRAY[1, 9], ARRAY[%L, %L]::bytea[])',
									 substring(b from 49 for 73), substring(b from 122))) AS from_dump
FROM rb_issue ORDER BY what;

-- growth stops at the size limit with 54000: a chain of 1,000,000 at 1%
-- with expansion 1024, its link full (as adds leave it), would next make a
-- link of about 1.6 GB
SELECT rb_err(pg_catalog.format('SELECT bf_add(%L::bytea::bloomfilter, 1)',
	   rb_consistent(rb_put(b, rb_link(0, 'size'), 8, rb_u(b, rb_link(0, 'entries'), 8)))))
FROM (SELECT bf_create(1000000, 0.01, expansion => 1024, layout => 'redisbloom')::bytea AS b) s;
-- and a genuine chain at expansion 1024 grows while the next link fits
SELECT bf_nhashes(bf_add_all(bf_create(1, 0.01, expansion => 1024, layout => 'redisbloom'), ARRAY[1, 2, 3, 4])) AS links;

DROP TABLE rb_genuine, rb_links, rb_forged, rb_issue, rb_issue_bytes, rb_issue_recv;
DROP FUNCTION rb_u(bytea, int, int), rb_put(bytea, int, int, numeric), rb_d(numeric), rb_bits(float8),
	rb_link(int, text), rb_consistent(bytea);

DROP TABLE rb_dump, rb_val, rb_copy, rb_gen, rb_good, rb_two, rb_par, rb_stored;
DROP FUNCTION dump_of(bloomfilter), pinned(text), rb_err(text), from_dump(text, bigint[], bytea[]),
	head_with(text, int, bytea), k3(bigint);
