/*-------------------------------------------------------------------------
 *
 * cuckoofilter_op.c
 *	  SQL entry points of the cuckoofilter type that are not changes,
 *	  merges, I/O or info (bloomfilter_change.c, bloomfilter_combine.c,
 *	  bloomfilter_io.c, bloomfilter_json.c, shared with bloomfilter):
 *	  checks, counts and introspection.
 *
 * Element hashing is bloomfilter's (bloomfilter_elem.c), so an element
 * matches in a cuckoofilter exactly when it would in a bloomfilter of hash
 * id 2.
 *
 * src/cuckoofilter_op.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "bloomfilter_kind.h"

PG_FUNCTION_INFO_V1(cuckoofilter_contains);
PG_FUNCTION_INFO_V1(cuckoofilter_contained);
PG_FUNCTION_INFO_V1(cuckoofilter_contains_all);
PG_FUNCTION_INFO_V1(cuckoofilter_count);
PG_FUNCTION_INFO_V1(cuckoofilter_count_int4);
PG_FUNCTION_INFO_V1(cuckoofilter_capacity);
PG_FUNCTION_INFO_V1(cuckoofilter_error_rate);
PG_FUNCTION_INFO_V1(cuckoofilter_items);
PG_FUNCTION_INFO_V1(cuckoofilter_fpp);
PG_FUNCTION_INFO_V1(cuckoofilter_key_type);
PG_FUNCTION_INFO_V1(cuckoofilter_set_key_type);

Datum
cuckoofilter_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cf_probe(fcinfo, 0, 1, false) != 0);
}

/* element <@ filter: the commutator */
Datum
cuckoofilter_contained(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cf_probe(fcinfo, 1, 0, false) != 0);
}

/*
 * cf_contains_all(filter, elements): cf_contains for each element, in the
 * array's shape, NULL for NULL elements; batched as bf_contains_all.
 */
Datum
cuckoofilter_contains_all(PG_FUNCTION_ARGS)
{
	return bloom_contains_all(fcinfo, cf_probe_elem_type(fcinfo, 1, true), cf_probe_many);
}

/*
 * cf_count(filter, element): the entries matching the element, an integer
 * as bf_count's is.  Only the element's two buckets in each sub-filter can
 * match: at most 2 x 8 slots x CUCKOO_MAX_SUBFILTERS (64) = 1024.
 */
Datum
cuckoofilter_count_int4(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) cf_probe(fcinfo, 0, 1, true));
}

/*
 * 1.2's cf_count, bigint: what a 1.2 catalog calls until the upgrade, and
 * the cf_count_1_2 an upgrade keeps for objects that depend on it.
 */
Datum
cuckoofilter_count(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) cf_probe(fcinfo, 0, 1, true));
}

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
