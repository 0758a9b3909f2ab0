/*-------------------------------------------------------------------------
 *
 * bloomfilter_op.c
 *	  SQL entry points: creating, adding to, checking, combining, comparing
 *	  and describing filters.
 *
 * These functions know neither how a value is stored (bloomfilter_datum.c)
 * nor how its payload is laid out (the layout table of bloom_core.h): they
 * open a value, hash elements (bloomfilter_elem.c) and hand the work to the
 * value's layout.  Functions that return a filter work on a copy; arguments
 * are never modified, except an aggregate's own state (bloom_agg_writable).
 *
 * src/bloomfilter_op.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/arrayaccess.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"

#include "bloomfilter_datum.h"
#include "bloomfilter_elem.h"

PG_FUNCTION_INFO_V1(bloomfilter_create);
PG_FUNCTION_INFO_V1(bloomfilter_add);
PG_FUNCTION_INFO_V1(bloomfilter_add_all);
PG_FUNCTION_INFO_V1(bloomfilter_contains);
PG_FUNCTION_INFO_V1(bloomfilter_contained);
PG_FUNCTION_INFO_V1(bloomfilter_contains_all);
PG_FUNCTION_INFO_V1(bloomfilter_union);
PG_FUNCTION_INFO_V1(bloomfilter_intersect);
PG_FUNCTION_INFO_V1(bloomfilter_capacity);
PG_FUNCTION_INFO_V1(bloomfilter_error_rate);
PG_FUNCTION_INFO_V1(bloomfilter_nbits);
PG_FUNCTION_INFO_V1(bloomfilter_nhashes);
PG_FUNCTION_INFO_V1(bloomfilter_bits_set);
PG_FUNCTION_INFO_V1(bloomfilter_cardinality);
PG_FUNCTION_INFO_V1(bloomfilter_fpp);
PG_FUNCTION_INFO_V1(bloomfilter_info);
PG_FUNCTION_INFO_V1(bloomfilter_eq);
PG_FUNCTION_INFO_V1(bloomfilter_ne);
PG_FUNCTION_INFO_V1(bloomfilter_lt);
PG_FUNCTION_INFO_V1(bloomfilter_le);
PG_FUNCTION_INFO_V1(bloomfilter_gt);
PG_FUNCTION_INFO_V1(bloomfilter_ge);
PG_FUNCTION_INFO_V1(bloomfilter_cmp);
PG_FUNCTION_INFO_V1(bloomfilter_hash);
PG_FUNCTION_INFO_V1(bloomfilter_hash_extended);

/*
 * Hashes gathered before one batched pass over the filter: enough for the
 * layout to overlap its cache misses, few enough to answer a cancel soon.
 */
#define BLOOM_ADD_CHUNK 4096

Datum
bloomfilter_create(PG_FUNCTION_ARGS)
{
	BloomHeader hdr;

	bloom_header_for(&hdr, PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1),
					 PG_NARGS() > 2 ? PG_GETARG_INT64(2) : BLOOM_DEFAULT_SEED);
	PG_RETURN_BLOOMFILTER_P(bloom_new(&hdr));
}

/* not strict: adding NULL adds nothing, and the stored filter survives it */
Datum
bloomfilter_add(PG_FUNCTION_ARGS)
{
	BloomElemType *et;
	BloomFilter *bf;
	BloomView	v;
	BloomHash	h;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	et = bloom_fn_cache(fcinfo, 1, false, sizeof(BloomElemType));
	bf = bloom_copy(PG_GETARG_DATUM(0), &v);
	h = bloom_elem_hash(et, PG_GETARG_DATUM(1), &v.hdr);
	v.layout->add(&v.hdr, BLOOMFILTER_PAYLOAD(bf), &h, 1);
	bloom_set_header(bf, &v.hdr);
	PG_RETURN_BLOOMFILTER_P(bf);
}

Datum
bloomfilter_add_all(PG_FUNCTION_ARGS)
{
	BloomElemType *et;
	AnyArrayType *arr;
	array_iter	it;
	int			nitems;
	BloomFilter *bf;
	BloomView	v;
	BloomHash  *hashes;
	int			npending = 0;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	et = bloom_fn_cache(fcinfo, 1, true, sizeof(BloomElemType));
	arr = PG_GETARG_ANY_ARRAY_P(1);
	nitems = ArrayGetNItems(AARR_NDIM(arr), AARR_DIMS(arr));
	bf = bloom_copy(PG_GETARG_DATUM(0), &v);

	hashes = palloc(sizeof(BloomHash) * Min(nitems, BLOOM_ADD_CHUNK) + 1);
	array_iter_setup(&it, arr);
	for (int i = 0; i < nitems; i++)
	{
		bool		isnull;
		Datum		elem = array_iter_next(&it, &isnull, i, et->typlen, et->typbyval,
										   et->typalign);

		if (isnull)
			continue;
		hashes[npending++] = bloom_elem_hash(et, elem, &v.hdr);
		if (npending == BLOOM_ADD_CHUNK)
		{
			CHECK_FOR_INTERRUPTS();
			v.layout->add(&v.hdr, BLOOMFILTER_PAYLOAD(bf), hashes, npending);
			npending = 0;
		}
	}
	v.layout->add(&v.hdr, BLOOMFILTER_PAYLOAD(bf), hashes, npending);
	pfree(hashes);
	bloom_set_header(bf, &v.hdr);
	PG_RETURN_BLOOMFILTER_P(bf);
}

Datum
bloomfilter_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_probe(fcinfo, 0, 1));
}

/* element <@ filter: the commutator, arguments the other way round */
Datum
bloomfilter_contained(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_probe(fcinfo, 1, 0));
}

/*
 * bf_contains for every element of an array (RedisBloom's BF.MEXISTS): an
 * array of answers of the same shape, NULL for NULL elements.  The reading
 * is bloom_probe_many's: hashes first, then the spans, read together.
 */
Datum
bloomfilter_contains_all(PG_FUNCTION_ARGS)
{
	BloomElemType *et = bloom_probe_elem_type(fcinfo, 1, true);
	AnyArrayType *arr = PG_GETARG_ANY_ARRAY_P(1);
	int			ndim = AARR_NDIM(arr);
	int			nitems = ArrayGetNItems(ndim, AARR_DIMS(arr));
	Datum	   *elems = palloc(sizeof(Datum) * Max(nitems, 1));
	bool	   *nulls = palloc(sizeof(bool) * Max(nitems, 1));
	bool	   *found = palloc(sizeof(bool) * Max(nitems, 1));
	array_iter	it;

	array_iter_setup(&it, arr);
	for (int i = 0; i < nitems; i++)
		elems[i] = array_iter_next(&it, &nulls[i], i, et->typlen, et->typbyval,
								   et->typalign);
	bloom_probe_many(fcinfo, 0, elems, nulls, nitems, found);
	for (int i = 0; i < nitems; i++)
		elems[i] = BoolGetDatum(found[i]);
	PG_RETURN_ARRAYTYPE_P(construct_md_array(elems, nulls, ndim, AARR_DIMS(arr),
											 AARR_LBOUND(arr), BOOLOID, 1, true,
											 TYPALIGN_CHAR));
}

/*
 * Union or intersection.  Not strict: a NULL operand is ignored, as
 * aggregates ignore NULL rows, so that
 *		UPDATE t SET bf = bf_union(bf, (SELECT bf_agg(...) FROM new_rows))
 * keeps the stored filter when there are no new rows.  Both NULL: NULL.
 */
static Datum
bloom_combine(FunctionCallInfo fcinfo, bool intersect)
{
	BloomFilter *a;
	BloomView	va,
				vb;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0) && PG_ARGISNULL(1))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(PG_ARGISNULL(0) ? 1 : 0));
	}
	a = intersect ? bloom_copy(PG_GETARG_DATUM(0), &va) :
		bloom_agg_writable(fcinfo, 0, &va);
	bloom_read(PG_GETARG_DATUM(1), &vb);
	bloom_check_shape(&va.hdr, &vb.hdr, intersect);
	va.layout->combine(&va.hdr, BLOOMFILTER_PAYLOAD(a), vb.payload, intersect);
	bloom_set_header(a, &va.hdr);
	PG_RETURN_BLOOMFILTER_P(a);
}

Datum
bloomfilter_union(PG_FUNCTION_ARGS)
{
	return bloom_combine(fcinfo, false);
}

Datum
bloomfilter_intersect(PG_FUNCTION_ARGS)
{
	return bloom_combine(fcinfo, true);
}

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

Datum
bloomfilter_cardinality(PG_FUNCTION_ARGS)
{
	BloomView	v;

	bloom_read(PG_GETARG_DATUM(0), &v);
	PG_RETURN_INT64((int64) llround(v.layout->cardinality(&v.hdr, v.payload)));
}

Datum
bloomfilter_fpp(PG_FUNCTION_ARGS)
{
	BloomView	v;

	bloom_read(PG_GETARG_DATUM(0), &v);
	PG_RETURN_FLOAT8(v.layout->fpp(&v.hdr, v.payload));
}

Datum
bloomfilter_info(PG_FUNCTION_ARGS)
{
	BloomView	v;
	StringInfoData json;

	bloom_read(PG_GETARG_DATUM(0), &v);
	initStringInfo(&json);
	appendStringInfo(&json,
					 "{\"version\": %d, \"layout\": \"%s\", \"hash\": \"%s\", "
					 "\"hash_id\": %d, \"seed\": %u, "
					 "\"capacity\": " UINT64_FORMAT ", \"error_rate\": %s, "
					 "\"nbits\": " UINT64_FORMAT ", \"nhashes\": %d, "
					 "\"bits_set\": " UINT64_FORMAT ", \"cardinality\": %lld, "
					 "\"fpp\": %s, \"size_bytes\": %zu}",
					 v.hdr.version, v.layout->name, bloom_hash_name(v.hdr.hash_id),
					 v.hdr.hash_id, v.hdr.seed, v.hdr.capacity,
					 float8out_internal(v.hdr.error_rate),
					 v.hdr.nbits, v.hdr.nhashes, v.hdr.bits_set,
					 llround(v.layout->cardinality(&v.hdr, v.payload)),
					 float8out_internal(v.layout->fpp(&v.hdr, v.payload)),
					 (size_t) VARHDRSZ + bloom_total_bytes(&v.hdr));
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(json.data)));
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
