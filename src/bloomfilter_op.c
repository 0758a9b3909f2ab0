/*-------------------------------------------------------------------------
 *
 * bloomfilter_op.c
 *	  SQL entry points of bloomfilter that are not changes, combinations,
 *	  I/O or info (bloomfilter_change.c, bloomfilter_combine.c,
 *	  bloomfilter_io.c, bloomfilter_json.c): checks, comparison,
 *	  introspection; and what both types share of these (the answers of
 *	  bf_contains_all and cf_contains_all, the key type, the rate).
 *
 * These functions know neither how a value is stored (bloomfilter_datum.c,
 * bloomfilter_probe.c) nor how its payload is laid out: they ask the
 * filter's kind (bloomfilter_kind.h).
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
#include "utils/memutils.h"

#include "bloomfilter_kind.h"

PG_FUNCTION_INFO_V1(bloomfilter_count);
PG_FUNCTION_INFO_V1(bloomfilter_contains);
PG_FUNCTION_INFO_V1(bloomfilter_contained);
PG_FUNCTION_INFO_V1(bloomfilter_contains_all);
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

/* bf_count(filter, element): how often the element was added, at most */
Datum
bloomfilter_count(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(bloom_probe_count(fcinfo, 0, 1));
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
 * Elements bf_contains_all hashes and tests per batch: the batch's element
 * datums and hashes (25 bytes an element) stay a couple of megabytes
 * however long the array (67 million elements at once needed 1 GB of
 * hashes), and within a batch the layout still overlaps its cache misses.
 */
#define BLOOM_CONTAINS_CHUNK 65536

/*
 * An empty boolean array of the given shape with room for nitems answers
 * (and a NULL bitmap if with_nulls), written in place rather than through
 * an array of Datums as long as the answers.  An argument array has at most
 * MaxArraySize elements, so this fits, but it is checked: a limit is an
 * error, not an allocation failure.
 */
static ArrayType *
bloom_bool_array(int ndim, const int *dims, const int *lbs, int nitems, bool with_nulls)
{
	Size		overhead = with_nulls ? ARR_OVERHEAD_WITHNULLS(ndim, nitems) :
		ARR_OVERHEAD_NONULLS(ndim);
	ArrayType  *result;

	if (!AllocSizeIsValid(overhead + (Size) nitems))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("an array of %d answers exceeds the maximum allocation size of %zu bytes",
						nitems, (Size) MaxAllocSize),
				 errhint("Check the elements in smaller arrays.")));
	result = palloc0(overhead + (Size) nitems);
	SET_VARSIZE(result, overhead + (Size) nitems);
	result->ndim = ndim;
	result->dataoffset = with_nulls ? (int32) overhead : 0;
	result->elemtype = BOOLOID;
	memcpy(ARR_DIMS(result), dims, ndim * sizeof(int));
	memcpy(ARR_LBOUND(result), lbs, ndim * sizeof(int));
	return result;
}

/*
 * The array's length once ndata answers are written: without its NULL
 * bitmap if no answer was NULL, as construct_md_array would have made it.
 */
static void
bloom_bool_array_finish(ArrayType *result, int ndata, bool anynull)
{
	if (ARR_HASNULL(result) && !anynull)
	{
		char	   *data = ARR_DATA_PTR(result);

		result->dataoffset = 0;
		memmove(ARR_DATA_PTR(result), data, ndata);
	}
	SET_VARSIZE(result, ARR_DATA_OFFSET(result) + ndata);
}

/*
 * A check of every element of an array (RedisBloom's BF.MEXISTS): an array
 * of answers of the same shape, NULL for NULL elements.  The elements go to
 * the filter type's batch check (probe_many) a batch at a time; et is the
 * call site's element type, which that check's own cache holds.  Shared by
 * bf_contains_all and cf_contains_all.
 */
Datum
bloom_contains_all(FunctionCallInfo fcinfo, BloomElemType *et, BloomProbeManyFn probe_many)
{
	AnyArrayType *arr = PG_GETARG_ANY_ARRAY_P(1);
	int			ndim = AARR_NDIM(arr);
	int			nitems = ArrayGetNItems(ndim, AARR_DIMS(arr));
	int			chunk = Min(nitems, BLOOM_CONTAINS_CHUNK);
	Datum	   *elems = palloc(sizeof(Datum) * Max(chunk, 1));
	bool	   *nulls = palloc(sizeof(bool) * Max(chunk, 1));
	bool	   *found = palloc(sizeof(bool) * Max(chunk, 1));
	ArrayType  *result;
	bool	   *answers;
	bits8	   *bitmap;
	int			ndata = 0;
	bool		anynull = false;
	array_iter	it;

	if (nitems == 0)
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(BOOLOID));
	/* an expanded array does not say cheaply whether it holds NULLs */
	result = bloom_bool_array(ndim, AARR_DIMS(arr), AARR_LBOUND(arr), nitems,
							  VARATT_IS_EXPANDED_HEADER(arr) || ARR_HASNULL(&arr->flt));
	answers = (bool *) ARR_DATA_PTR(result);
	bitmap = ARR_NULLBITMAP(result);
	array_iter_setup(&it, arr);
	for (int start = 0; start < nitems; start += chunk)
	{
		int			n = Min(chunk, nitems - start);

		for (int i = 0; i < n; i++)
			elems[i] = array_iter_next(&it, &nulls[i], start + i, et->typlen,
									   et->typbyval, et->typalign);
		probe_many(fcinfo, 0, elems, nulls, n, found);
		for (int i = 0; i < n; i++)
		{
			anynull |= nulls[i];
			if (nulls[i])
				continue;
			if (bitmap)
				bitmap[(start + i) / 8] |= 1 << ((start + i) % 8);
			answers[ndata++] = found[i];
		}
	}
	bloom_bool_array_finish(result, ndata, anynull);
	PG_RETURN_ARRAYTYPE_P(result);
}

/*
 * bf_contains_all(filter, elements): bf_contains for each; the reading is
 * bloom_probe_many's, a batch at a time: hashes first, then the spans,
 * read together.
 */
Datum
bloomfilter_contains_all(PG_FUNCTION_ARGS)
{
	return bloom_contains_all(fcinfo, bloom_probe_elem_type(fcinfo, 1, true),
							  bloom_probe_many);
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

/*
 * Introspection both types share, through their kind: the key type, a
 * copy with another, the estimated false-positive rate.
 */
Datum
bloom_key_type_kind(FunctionCallInfo fcinfo, const BloomKind *kind)
{
	BloomValue	val;

	kind->look(PG_GETARG_DATUM(0), &val);
	return bloom_key_type_result(fcinfo, kind->hash_params(&val).key_type);
}

/*
 * A copy that holds keys of the type.  For a filter made by 1.2 or earlier
 * the user asserts what its keys were; a typed filter changes only among
 * integer types, which hash alike.
 */
Datum
bloom_set_key_type_kind(FunctionCallInfo fcinfo, const BloomKind *kind)
{
	BloomValue	val;

	kind->copy(PG_GETARG_DATUM(0), &val);
	kind->set_key_type(&val, bloom_key_reset(kind->hash_params(&val).key_type,
											 PG_GETARG_OID(1), kind->noun));
	kind->finish(&val);
	PG_RETURN_DATUM(bloom_value_datum(&val));
}

Datum
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
