/*-------------------------------------------------------------------------
 *
 * attributes_cuckoo.c
 *	  SQL entry points of the cuckoofilter type that are not changes,
 *	  merges, I/O, info or checks (type/change.c,
 *	  type/combine.c, type/io.c, type/jsonb.c,
 *	  type/probe.c, shared with bloomfilter): introspection.
 *
 * src/type/attributes_cuckoo.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "type/kind.h"

PG_FUNCTION_INFO_V1(cuckoofilter_capacity);
PG_FUNCTION_INFO_V1(cuckoofilter_error_rate);
PG_FUNCTION_INFO_V1(cuckoofilter_items);
PG_FUNCTION_INFO_V1(cuckoofilter_fpp);
PG_FUNCTION_INFO_V1(cuckoofilter_key_type);
PG_FUNCTION_INFO_V1(cuckoofilter_set_key_type);

/* ---- introspection ---- */

/* the header, after the same structural check every read makes */
static CuckooHeader
cf_arg_header(FunctionCallInfo fcinfo)
{
	CuckooView	v;

	cf_read(PG_GETARG_DATUM(0), &v);
	return v.hdr;
}

Datum
cuckoofilter_capacity(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) cf_arg_header(fcinfo).capacity);
}

Datum
cuckoofilter_error_rate(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(cf_arg_header(fcinfo).error_rate);
}

Datum
cuckoofilter_items(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) cf_arg_header(fcinfo).items);
}

/* cf_key_type(filter): the type of its keys, NULL if untyped */
Datum
cuckoofilter_key_type(PG_FUNCTION_ARGS)
{
	return bloom_key_type_kind(fcinfo, &cuckoofilter_kind);
}

/* cf_set_key_type(filter, type): as bf_set_key_type */
Datum
cuckoofilter_set_key_type(PG_FUNCTION_ARGS)
{
	return bloom_set_key_type_kind(fcinfo, &cuckoofilter_kind);
}

Datum
cuckoofilter_fpp(PG_FUNCTION_ARGS)
{
	return bloom_fpp_kind(fcinfo, &cuckoofilter_kind);
}
