/*-------------------------------------------------------------------------
 *
 * options.c
 *	  The options of CREATE INDEX ... USING bloomfilter WITH (capacity = n,
 *	  error_rate = p): their registration, parsing and validation, which
 *	  the handler (am/handler.c) hands the server and the build (am/build.c)
 *	  reads.
 *
 * src/am/options.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/reloptions.h"
#include "miscadmin.h"
#include "utils/float.h"

#include "am/index.h"

static relopt_kind bloom_am_relopt_kind;
static bool bloom_am_options_registered = false;

/*
 * WITH (capacity = n) is a bigint, as bf_create's capacity is, which no
 * integer option of PostgreSQL 15 holds: it is a string option read here.
 * An index made by 1.3 has its integer option stored as text in
 * pg_class.reloptions ("capacity=1000"), so this reads every value that
 * option read, as it did (PostgreSQL's parse_int: decimal, 0x hexadecimal
 * or 0 octal, a fraction or an exponent rounded, spaces after), only
 * over bigint's range.  False if value is no number; *in_range false if it
 * is one beyond bigint.
 */
static bool
bloom_am_parse_capacity(const char *value, int64 *result, bool *in_range)
{
	char	   *end;
	int64		n;

	*in_range = true;
	errno = 0;
	n = strtoi64(value, &end, 0);
	if (*end == '.' || *end == 'e' || *end == 'E' || errno == ERANGE)
	{
		double		d;

		errno = 0;
		d = strtod(value, &end);
		if (end == value || isnan(d))
			return false;
		d = rint(d);
		/* -(double) PG_INT64_MIN is 2^63, the first double past bigint */
		if (errno == ERANGE || !(d >= (double) PG_INT64_MIN && d < -(double) PG_INT64_MIN))
			*in_range = false;
		else
			n = (int64) d;
	}
	else if (end == value)
		return false;
	while (isspace((unsigned char) *end))
		end++;
	*result = n;
	return *end == '\0';
}

/*
 * The validator of capacity, at CREATE INDEX and ALTER INDEX ... SET: 1 to
 * bigint's largest, as bf_create takes (22023 otherwise, as there).  0
 * meant "from the table" up to 1.3, where bf_create refuses it; leaving
 * the option out says that now.  pg_upgrade restores a 1.3 index's
 * definition as it was, so there 0 still passes, and means what it meant.
 */
static void
bloom_am_validate_capacity(const char *value)
{
	int64		capacity;
	bool		in_range;

	/* add_string_reloption checks the default, which is no value */
	if (value == NULL)
		return;
	if (!bloom_am_parse_capacity(value, &capacity, &in_range))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for integer option \"%s\": %s", "capacity", value)));
	if (!in_range || capacity < 1)
	{
		if (in_range && capacity == 0 && IsBinaryUpgrade)
			return;
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("value %s out of bounds for option \"%s\"", value, "capacity"),
				 errdetail("Valid values are between \"1\" and \"" INT64_FORMAT "\".",
						   PG_INT64_MAX),
				 (in_range && capacity == 0) ?
				 errhint("Leave the option out to size the filter from the table.") : 0));
	}
}

/* the capacity option of a relcache entry's options; 0 when not given */
int64
bloom_am_capacity_option(const BloomAmOptions *opts)
{
	int64		capacity;
	bool		in_range;

	if (opts == NULL || opts->capacity_offset == 0)
		return 0;
	/* validated when it was set (or by 1.3, as an integer) */
	if (!bloom_am_parse_capacity((const char *) opts + opts->capacity_offset,
								 &capacity, &in_range) || !in_range || capacity < 0)
		elog(ERROR, "invalid capacity option \"%s\"",
			 (const char *) opts + opts->capacity_offset);
	return capacity;
}

/*
 * error_rate is a real option whose bounds PostgreSQL's own check would
 * print with six decimals ("0.000000" for 1e-10); they are checked here
 * instead, with the real ones in the message.
 */
static void
bloom_am_validate_error_rate(double error_rate)
{
	if (!(error_rate >= BLOOM_MIN_ERROR_RATE && error_rate <= BLOOM_AM_MAX_ERROR_RATE))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("value %g out of bounds for option \"%s\"", error_rate, "error_rate"),
				 errdetail("Valid values are between \"%g\" and \"%g\".",
						   BLOOM_MIN_ERROR_RATE, BLOOM_AM_MAX_ERROR_RATE)));
}

bytea *
bloom_am_options(Datum reloptions, bool validate)
{
	static const relopt_parse_elt tab[] = {
		{"capacity", RELOPT_TYPE_STRING, offsetof(BloomAmOptions, capacity_offset)},
		{"error_rate", RELOPT_TYPE_REAL, offsetof(BloomAmOptions, error_rate)},
	};
	BloomAmOptions *opts;

	/* registered on first use, which every path to the options goes through */
	if (!bloom_am_options_registered)
	{
		bloom_am_relopt_kind = add_reloption_kind();
		add_string_reloption(bloom_am_relopt_kind, "capacity",
							 "Keys the filter is sized for (not set: twice the table's rows at build time)",
							 NULL, bloom_am_validate_capacity, AccessExclusiveLock);
		add_real_reloption(bloom_am_relopt_kind, "error_rate",
						   "False-positive rate the filter is sized for at its capacity",
						   BLOOM_AM_DEFAULT_ERROR_RATE, -get_float8_infinity(),
						   get_float8_infinity(), AccessExclusiveLock);
		bloom_am_options_registered = true;
	}
	opts = (BloomAmOptions *) build_reloptions(reloptions, validate, bloom_am_relopt_kind,
											   sizeof(BloomAmOptions), tab, lengthof(tab));
	if (validate && opts != NULL)
		bloom_am_validate_error_rate(opts->error_rate);
	return (bytea *) opts;
}
