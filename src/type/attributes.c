/*-------------------------------------------------------------------------
 *
 * attributes.c
 *	  SQL entry points that are not changes, combinations, I/O, info or
 *	  checks (type/change.c, type/combine.c, type/io.c, type/info.c,
 *	  type/probe.c): bloomfilter's comparison and introspection, what both
 *	  types share of these (the key type, the rate), then cuckoofilter's
 *	  introspection.
 *
 * These functions know neither how a value is stored (type/value.c,
 * type/probe.c) nor how its payload is laid out: they ask the
 * filter's kind (type/kind.h).
 *
 * src/type/attributes.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "common/hashfn.h"

#include "type/kind.h"
#include "type/kind_bloom.h"
#include "type/kind_cuckoo.h"

PG_FUNCTION_INFO_V1(bloomfilter_capacity);
PG_FUNCTION_INFO_V1(bloomfilter_error_rate);
PG_FUNCTION_INFO_V1(bloomfilter_nbits);
PG_FUNCTION_INFO_V1(bloomfilter_nhashes);
PG_FUNCTION_INFO_V1(bloomfilter_bits_set);
PG_FUNCTION_INFO_V1(bloomfilter_cardinality);
PG_FUNCTION_INFO_V1(bloomfilter_fpp);
PG_FUNCTION_INFO_V1(bloomfilter_eq);
PG_FUNCTION_INFO_V1(bloomfilter_ne);
PG_FUNCTION_INFO_V1(bloomfilter_lt);
PG_FUNCTION_INFO_V1(bloomfilter_le);
PG_FUNCTION_INFO_V1(bloomfilter_gt);
PG_FUNCTION_INFO_V1(bloomfilter_ge);
PG_FUNCTION_INFO_V1(bloomfilter_cmp);
PG_FUNCTION_INFO_V1(bloomfilter_hash);
PG_FUNCTION_INFO_V1(bloomfilter_hash_extended);
PG_FUNCTION_INFO_V1(bloomfilter_key_type);
PG_FUNCTION_INFO_V1(bloomfilter_set_key_type);

/* ---- introspection: the header alone, except the estimates ---- */

static BloomHeader
bloom_arg_header(FunctionCallInfo fcinfo)
{
	BloomView	v;

	bloom_read_header(PG_GETARG_DATUM(0), &v);
	return v.hdr;
}

Datum
bloomfilter_capacity(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) bloom_arg_header(fcinfo).capacity);
}

Datum
bloomfilter_error_rate(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(bloom_arg_header(fcinfo).error_rate);
}

Datum
bloomfilter_nbits(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) bloom_arg_header(fcinfo).nbits);
}

Datum
bloomfilter_nhashes(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) bloom_arg_header(fcinfo).nhashes);
}

Datum
bloomfilter_bits_set(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) bloom_arg_header(fcinfo).bits_set);
}

/*
 * Introspection both types share, through their kind: the key type, a
 * copy with another, the estimated false-positive rate.
 */
static Datum
bloom_key_type_kind(FunctionCallInfo fcinfo, const BloomKind *kind)
{
	BloomValue	val;

	kind->look(PG_GETARG_DATUM(0), &val);
	return bloom_key_type_result(fcinfo, kind->hash_params(&val).key_type);
}

/*
 * A copy that holds keys of the type.  For a filter made by 1.2 or earlier
 * the user asserts what its keys were; a typed filter changes only among
 * integer types, which hash alike (but in a Guava filter, of hash id 3).
 */
static Datum
bloom_set_key_type_kind(FunctionCallInfo fcinfo, const BloomKind *kind)
{
	BloomValue	val;

	BloomHashParams hp;

	kind->copy(PG_GETARG_DATUM(0), &val);
	hp = kind->hash_params(&val);
	kind->set_key_type(&val, bloom_key_reset(hp.key_type, hp.hash_id, PG_GETARG_OID(1),
											 kind->set_key_type_msg));
	kind->finish(&val);
	PG_RETURN_DATUM(bloom_value_datum(&val));
}

static Datum
bloom_fpp_kind(FunctionCallInfo fcinfo, const BloomKind *kind)
{
	BloomValue	val;

	kind->read(PG_GETARG_DATUM(0), &val);
	PG_RETURN_FLOAT8(kind->fpp(&val));
}

/* bf_key_type(filter): the type of its keys, NULL if untyped */
Datum
bloomfilter_key_type(PG_FUNCTION_ARGS)
{
	return bloom_key_type_kind(fcinfo, &bloomfilter_kind);
}

/* bf_set_key_type(filter, type): a copy that holds keys of the type */
Datum
bloomfilter_set_key_type(PG_FUNCTION_ARGS)
{
	return bloom_set_key_type_kind(fcinfo, &bloomfilter_kind);
}

Datum
bloomfilter_cardinality(PG_FUNCTION_ARGS)
{
	BloomView	v;

	bloom_read(PG_GETARG_DATUM(0), &v);
	PG_RETURN_INT64((int64) llround(bloom_cardinality(&v)));
}

Datum
bloomfilter_fpp(PG_FUNCTION_ARGS)
{
	return bloom_fpp_kind(fcinfo, &bloomfilter_kind);
}

/*
 * ---- equality and ordering: by the binary form ----
 *
 * Two filters are equal when their bytes are: same shape, same cells, same
 * parameters.  The order (bytes compared as unsigned, a prefix first) has
 * no meaning beyond serving btree operator classes, so that DISTINCT,
 * GROUP BY, UNION and IN work on filter columns.
 */
static int
bloom_compare(FunctionCallInfo fcinfo)
{
	size_t		la,
				lb;
	const uint8 *a = bloom_read_bytes(PG_GETARG_DATUM(0), &la);
	const uint8 *b = bloom_read_bytes(PG_GETARG_DATUM(1), &lb);
	int			c = memcmp(a, b, Min(la, lb));

	if (c != 0)
		return c < 0 ? -1 : 1;
	return la < lb ? -1 : (la > lb ? 1 : 0);
}

Datum
bloomfilter_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_compare(fcinfo) == 0);
}

Datum
bloomfilter_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_compare(fcinfo) != 0);
}

Datum
bloomfilter_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_compare(fcinfo) < 0);
}

Datum
bloomfilter_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_compare(fcinfo) <= 0);
}

Datum
bloomfilter_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_compare(fcinfo) > 0);
}

Datum
bloomfilter_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_compare(fcinfo) >= 0);
}

Datum
bloomfilter_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(bloom_compare(fcinfo));
}

Datum
bloomfilter_hash(PG_FUNCTION_ARGS)
{
	size_t		len;
	const uint8 *bytes = bloom_read_bytes(PG_GETARG_DATUM(0), &len);

	return hash_any(bytes, (int) len);
}

Datum
bloomfilter_hash_extended(PG_FUNCTION_ARGS)
{
	size_t		len;
	const uint8 *bytes = bloom_read_bytes(PG_GETARG_DATUM(0), &len);

	return hash_any_extended(bytes, (int) len, PG_GETARG_INT64(1));
}

/* ---- cuckoofilter's introspection ---- */

PG_FUNCTION_INFO_V1(cuckoofilter_capacity);
PG_FUNCTION_INFO_V1(cuckoofilter_error_rate);
PG_FUNCTION_INFO_V1(cuckoofilter_items);
PG_FUNCTION_INFO_V1(cuckoofilter_fpp);
PG_FUNCTION_INFO_V1(cuckoofilter_key_type);
PG_FUNCTION_INFO_V1(cuckoofilter_set_key_type);

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
