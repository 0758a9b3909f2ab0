/*-------------------------------------------------------------------------
 *
 * numbers.c
 *	  Numbers: the canonical bytes of numerics and floats, and the
 *	  conversions of one number type to another a typed filter makes.
 *
 * SQL calls 2, 2.0::numeric and 2.0::float8 equal, so under hash id 2 a
 * whole number within int8 hashes as that integer, whatever its type; the
 * rest of a number's form, and the conversions between number types that
 * have exactly one equal value (a whole float below 2^53 against integer
 * keys), are here, apart from the text and date/time rules they share no
 * code with.
 *
 * src/type/keys/numbers.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"

#include "type/keys/numbers.h"

void
bloom_append_double(StringInfo buf, double d)
{
	uint64		bits;

	if (isnan(d))
		bits = UINT64CONST(0x7FF8000000000000);
	else
		memcpy(&bits, &d, sizeof(bits));
	bloom_append_le(buf, bits, 8);
}

/* a whole number within int8, as an integer hashes; false otherwise */
bool
bloom_double_as_int64(double d, int64 *v)
{
	if (!isfinite(d) || d != trunc(d) ||
		d < -9223372036854775808.0 || d >= 9223372036854775808.0)
		return false;
	*v = (int64) d;				/* -0.0 becomes 0 */
	return true;
}

/* the text of a numeric without trailing fractional zeros */
static char *
bloom_numeric_text(Datum value)
{
	return DatumGetCString(DirectFunctionCall1(numeric_out,
											   DirectFunctionCall1(numeric_trim_scale, value)));
}

/* a whole number within int8 from that text; false otherwise */
static bool
bloom_numeric_text_int64(const char *s, int64 *v)
{
	char	   *end;
	long long	l;

	/* after trim_scale a whole number has no decimal point */
	errno = 0;
	l = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || end == s)
		return false;
	*v = (int64) l;
	return true;
}

/* a numeric that is a whole number within int8, as that int8; else false */
bool
bloom_numeric_as_int64(Datum value, int64 *v)
{
	char	   *s = bloom_numeric_text(value);
	bool		whole = bloom_numeric_text_int64(s, v);

	pfree(s);
	return whole;
}

void
bloom_append_numeric(StringInfo buf, Datum value)
{
	char	   *s = bloom_numeric_text(value);
	int64		v;

	if (bloom_numeric_text_int64(s, &v))
		bloom_append_le(buf, (uint64) v, 8);
	else
		appendStringInfoString(buf, s);
	pfree(s);
}

/* floats whose integers are all exact: |f| < 2^53 */
#define BLOOM_FLOAT_EXACT	9007199254740992.0
/* beyond 2^63 no int8 converts to the float */
#define BLOOM_FLOAT_INT8	9223372036854775808.0

int64
bloom_key_int(BloomElemType *et, Datum value)
{
	switch (et->kind)
	{
		case BLOOM_ELEM_INT2:
			return DatumGetInt16(value);
		case BLOOM_ELEM_INT4:
			return DatumGetInt32(value);
		default:
			return DatumGetInt64(value);
	}
}

/*
 * A float against integer keys: SQL compares the two as float8, so a whole
 * float below 2^53 equals exactly one integer, a fraction, NaN or an
 * infinity none, and a whole float from 2^53 to 2^63 several (an error:
 * no one hash finds them all); beyond, none.
 */
bool
bloom_key_float_int(BloomElemType *et, Datum value, Datum *out)
{
	double		d = et->kind == BLOOM_ELEM_FLOAT4 ?
		(double) DatumGetFloat4(value) : DatumGetFloat8(value);

	if (!isfinite(d) || d != trunc(d) || fabs(d) > BLOOM_FLOAT_INT8)
		return false;
	if (fabs(d) >= BLOOM_FLOAT_EXACT)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot look up the %s value %s among integer keys",
						format_type_be(et->typid), float8out_internal(d)),
				 errdetail("SQL compares integers with floats as float8, and from 2^53 on several integers equal the same float."),
				 errhint("Cast the value to the filter's integer type, or to numeric.")));
	*out = Int64GetDatum((int64) d);	/* -0.0 becomes 0 */
	return true;
}
