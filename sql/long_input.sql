-- Long input answers a cancel, or is refused early at the bound PostgreSQL's
-- own input has (issue 32, item 10).  In 1.5 the zone-abbreviation scan of
-- date and time text looked up every word without answering interrupts:
-- 200 MB of 'jan ' ran for tens of seconds under a statement_timeout of a
-- second.  Date and time text longer than PostgreSQL's date and time input
-- takes is now refused before any scan, with that input's error; an array's
-- text, which has no such bound, is scanned answering interrupts.
--
-- Each case runs under a statement_timeout of 2 s and reports what ended
-- it, and whether it ended within the time allowed (below): the old code took
-- 18 seconds here (29 s on the issue's machine) for either case.  The long
-- text is made by repeating a 4000-byte piece, which takes milliseconds.
CREATE FUNCTION long_input(query text, allowed interval, OUT outcome text, OUT quick boolean)
LANGUAGE plpgsql AS $$
DECLARE
	started timestamptz := clock_timestamp();
BEGIN
	BEGIN
		BEGIN
			EXECUTE query;
			outcome := 'finished';
		EXCEPTION
			WHEN query_canceled THEN
				outcome := 'canceled';
			WHEN OTHERS THEN
				outcome := SQLSTATE;
		END;
	EXCEPTION
		-- a refusal that took as long as the timeout on a loaded machine:
		-- the cancel then arrives after it was caught
		WHEN query_canceled THEN
			outcome := coalesce(outcome, 'canceled');
	END;
	quick := clock_timestamp() - started < allowed;
END
$$;

-- the bound: a date or time of more fields or bytes than PostgreSQL's
-- input takes, refused with its error (the text quoted in part)
SELECT bf_contains(bf_create(10, key_type => 'timestamptz'), repeat('jan ', 30));
SELECT bf_contains(bf_create(10, key_type => 'date'), repeat('1', 200));
SELECT bf_contains(bf_create(10, key_type => 'time'), repeat('é', 200));
SELECT bf_contains(bf_create(10, key_type => 'timetz'), repeat('x', 200));
SELECT bf_add(bf_create(10, key_type => 'timestamp'), repeat('jan ', 30));
-- which PostgreSQL refuses too, in the same words
SELECT repeat('jan ', 30)::timestamptz;
-- white space around a value is no field: such text is still read
SELECT bf_contains(bf_add(bf_create(10, key_type => 'timestamptz'), '2024-01-31 12:00:00+00'::timestamptz),
				   '  2024-01-31 12:00:00+00' || repeat(' ', 1000)) AS padded_found;
-- an interval has no such bound (its ISO 8601 form may be longer)
SELECT bf_contains(bf_add(bf_create(10, key_type => 'interval'), interval '1 day'),
				   'P' || repeat('0', 300) || '1D') AS iso_interval_found;

-- How long "quick" is: 10 seconds, or three times what this host takes,
-- now, to make the longest text below and read it with PostgreSQL's own
-- text[] input, whichever is longer.  Making the text and the array input
-- answer no cancel, and a loaded host stretches them (a CI run took 27 s
-- here); the old scan took more than ten times that baseline.
CREATE FUNCTION long_input_allowed() RETURNS interval
LANGUAGE plpgsql AS $$
DECLARE
	started timestamptz := clock_timestamp();
	n int := cardinality(('{' || repeat(repeat('jan ', 1000), 50000) || '}')::text[]);
BEGIN
	RETURN greatest(interval '10 s', 3 * (clock_timestamp() - started));
END
$$;
SELECT long_input_allowed() AS allowed \gset

SET statement_timeout = '2s';
-- the issue's case: the bound, or the cancel while the text is made
SELECT outcome IN ('22007', 'canceled') AS refused_or_canceled, quick
FROM long_input($q$SELECT bf_contains(bf_create(10, key_type => 'timestamptz'),
										repeat(repeat('jan ', 1000), 50000))$q$, :'allowed');
SELECT outcome IN ('22007', 'canceled') AS refused_or_canceled, quick
FROM long_input($q$SELECT cf_contains(cf_create(10, key_type => 'timetz'),
										repeat(repeat('jan ', 1000), 50000))$q$, :'allowed');
-- an array's text: the word scan answers the cancel
SELECT * FROM long_input($q$SELECT bf_contains(bf_create(10, key_type => 'timestamptz[]'),
											   '{' || repeat(repeat('jan ', 1000), 50000) || '}')$q$, :'allowed');
SELECT * FROM long_input($q$SELECT bf_add(bf_create(10, key_type => 'timetz[]'),
										  '{' || repeat(repeat('jan ', 1000), 50000) || '}')$q$, :'allowed');
RESET statement_timeout;
DROP FUNCTION long_input(text, interval), long_input_allowed();
