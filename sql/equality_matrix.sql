-- The equality promise, systematically: for pairs of values of different
-- types, a filter of one either finds the other exactly when SQL calls the
-- two equal, or refuses the probe with 42804.  Never a false negative.
SET TimeZone = 'America/New_York';
SET DateStyle = 'ISO, YMD';
SET extra_float_digits = 0;

-- The outcome of looking b up in a filter holding a: 'found' or 'absent'
-- (checked against SQL's own a = b), or 'refused' on 42804.  A false
-- positive at this size (one key, rate 1e-6) would be a wrong conversion.
CREATE FUNCTION probe(a_type text, a text, b_type text, b text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	sql_equal boolean;
	found boolean;
BEGIN
	BEGIN
		EXECUTE format('SELECT %L::%s = %L::%s', a, a_type, b, b_type) INTO sql_equal;
	EXCEPTION WHEN numeric_value_out_of_range THEN
		sql_equal := NULL;		-- SQL cannot even compare them (oid = -1::int8)
	END;
	BEGIN
		EXECUTE format('SELECT bf_add(bf_create(1000, 0.000001), %L::%s) @> %L::%s',
					   a, a_type, b, b_type) INTO found;
	EXCEPTION WHEN datatype_mismatch THEN
		RETURN 'refused';
	END;
	IF sql_equal AND NOT found THEN
		RETURN 'FALSE NEGATIVE';
	ELSIF found AND NOT sql_equal THEN
		RETURN 'found, SQL says unequal';
	END IF;
	IF sql_equal IS NULL THEN
		RETURN CASE WHEN found THEN 'found, SQL raises' ELSE 'absent, SQL raises' END;
	END IF;
	RETURN CASE WHEN found THEN 'found' ELSE 'absent' END;
END $$;

-- types by name as written in a cast (bpchar, not character: that is char(1))
CREATE TABLE pairs (a_type text, a text, b_type text, b text);
INSERT INTO pairs VALUES
	-- integer_ops: one canonical form for every width
	('int2', '32767', 'int4', '32767'), ('int2', '-1', 'int8', '-1'),
	('int4', '-2147483648', 'int8', '-2147483648'),
	('int4', '2147483647', 'int8', '9223372036854775807'),
	-- float_ops: float4 widened, as SQL compares
	('float4', '0.5', 'float8', '0.5'), ('float4', '0.1', 'float8', '0.1'),
	('float4', '-0', 'float8', '0'), ('float4', 'NaN', 'float8', 'NaN'),
	('float4', 'Infinity', 'float8', 'Infinity'), ('float4', '-Infinity', 'float8', '-Infinity'),
	-- integers and floats: compared as float8
	('int4', '16777217', 'float4', '16777216'), ('int4', '3', 'float8', '3'),
	('int8', '9007199254740991', 'float8', '9007199254740991'),
	('int8', '9007199254740993', 'float8', '9007199254740992'),
	('int8', '9223372036854775807', 'float8', '1e20'),
	('int4', '0', 'float8', '-0'), ('int4', '2', 'float8', '2.5'),
	('int8', '1', 'float8', 'NaN'), ('int8', '1', 'float8', 'Infinity'),
	-- numeric and integers
	('numeric', '5.00', 'int4', '5'), ('numeric', '5.5', 'int8', '5'),
	('numeric', '1e20', 'int8', '9223372036854775807'), ('numeric', 'NaN', 'int4', '0'),
	-- numeric and floats: SQL compares as float8
	('numeric', '1e20', 'float8', '1e20'), ('numeric', '0.1', 'float8', '0.1'),
	('numeric', 'NaN', 'float8', 'NaN'), ('numeric', 'Infinity', 'float4', 'Infinity'),
	-- datetime_ops
	('date', '2024-02-29', 'timestamp', '2024-02-29 00:00'),
	('date', '2024-02-29', 'timestamp', '2024-02-29 00:00:00.000001'),
	('date', 'infinity', 'timestamp', 'infinity'), ('date', '-infinity', 'timestamp', '-infinity'),
	('date', '5874897-12-31', 'timestamp', 'infinity'),
	('date', '2024-02-29', 'timestamptz', '2024-02-29 00:00-05'),
	('timestamp', '2024-02-29 12:00', 'timestamptz', '2024-02-29 12:00-05'),
	-- time and timetz: compared in the session's time zone
	('time', '12:00', 'timetz', '12:00-05'),
	-- oid and integers: int4 as oid, int8 as int8
	('oid', '4294967295', 'int4', '-1'), ('oid', '4294967295', 'int8', '4294967295'),
	('oid', '4294967295', 'int8', '-1'), ('oid', '7', 'int2', '7'),
	-- text_ops, bpchar_ops, name: trailing blanks of char(n) do not count
	('text', 'abc', 'bpchar', 'abc  '), ('text', 'abc ', 'bpchar', 'abc'),
	('text', 'abc', 'name', 'abc'), ('varchar', 'abc', 'name', 'abc'),
	('bpchar', 'abc', 'varchar', 'abc'),
	-- network_ops
	('inet', '10.0.0.0/8', 'cidr', '10.0.0.0/8'), ('inet', '10.0.0.1/8', 'cidr', '10.0.0.0/8');

-- both ways round: a filter of a probed with b, and of b probed with a
SELECT a_type, a, b_type, b, probe(a_type, a, b_type, b) AS a_holds_b,
       probe(b_type, b, a_type, a) AS b_holds_a
FROM pairs ORDER BY a_type, b_type, a, b;

-- nothing anywhere is a false negative
SELECT count(*) AS false_negatives FROM pairs
WHERE 'FALSE NEGATIVE' IN (probe(a_type, a, b_type, b), probe(b_type, b, a_type, a));

-- Every cross-type equality operator of the default btree operator families
-- among the types filters hash, and whether a pair above covers it: a new
-- operator in a later server shows up here as not covered.
WITH hashed(t) AS (VALUES ('int2'::regtype), ('int4'), ('int8'), ('float4'), ('float8'),
						  ('numeric'), ('date'), ('timestamp'), ('timestamptz'), ('time'),
						  ('timetz'), ('interval'), ('oid'), ('text'), ('varchar'), ('bpchar'),
						  ('name'), ('inet'), ('cidr'), ('uuid'), ('bool'), ('"char"'),
						  ('money'), ('macaddr'), ('macaddr8'), ('bit'), ('varbit'),
						  ('pg_lsn'), ('bytea')),
	 ops AS (
	SELECT DISTINCT f.opfname, LEAST(o.amoplefttype::regtype::text, o.amoprighttype::regtype::text) AS l,
		   GREATEST(o.amoplefttype::regtype::text, o.amoprighttype::regtype::text) AS r
	FROM pg_amop o
	JOIN pg_opfamily f ON f.oid = o.amopfamily
	JOIN pg_am m ON m.oid = f.opfmethod AND m.amname = 'btree'
	JOIN pg_opclass c ON c.opcfamily = f.oid AND c.opcdefault
	WHERE o.amopstrategy = 3 AND o.amoplefttype <> o.amoprighttype
	  AND o.amoplefttype IN (SELECT t FROM hashed) AND o.amoprighttype IN (SELECT t FROM hashed))
SELECT opfname, l, r,
	   EXISTS (SELECT 1 FROM pairs p
			   WHERE LEAST(p.a_type::regtype::text, p.b_type::regtype::text) = l
				 AND GREATEST(p.a_type::regtype::text, p.b_type::regtype::text) = r) AS covered
FROM ops ORDER BY 1, 2, 3;

DROP TABLE pairs;
DROP FUNCTION probe(text, text, text, text);
