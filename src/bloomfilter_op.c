/*-------------------------------------------------------------------------
 *
 * bloomfilter_op.c
 *	  SQL entry points: creating, adding to, checking, combining, comparing
 *	  and describing filters.
 *
 * These functions know neither how a value is stored (bloomfilter_datum.c,
 * bloomfilter_probe.c) nor how its payload is laid out (the layout table of
 * bloom_core.h): they open a value, hash elements (bloomfilter_elem.c) and
 * hand the work to the value's layout.  Functions that return a filter work on a copy; arguments
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
#include "utils/memutils.h"

#include "bloomfilter_datum.h"
#include "bloomfilter_elem.h"
#include "bloomfilter_json.h"

PG_FUNCTION_INFO_V1(bloomfilter_create);
PG_FUNCTION_INFO_V1(bloomfilter_add);
PG_FUNCTION_INFO_V1(bloomfilter_add_all);
PG_FUNCTION_INFO_V1(bloomfilter_remove);
PG_FUNCTION_INFO_V1(bloomfilter_remove_all);
PG_FUNCTION_INFO_V1(bloomfilter_count);
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
PG_FUNCTION_INFO_V1(bloomfilter_key_type);
PG_FUNCTION_INFO_V1(bloomfilter_set_key_type);

/*
 * Hashes gathered before one batched pass over the filter: enough for the
 * layout to overlap its cache misses, few enough to answer a cancel soon.
 */
#define BLOOM_ADD_CHUNK 4096

static BloomFilter *bloom_create_untyped(FunctionCallInfo fcinfo);

/* a new filter's key type, written into its header */
static BloomFilter *
bloom_with_key_type(BloomFilter *bf, uint32 key_type)
{
	BloomHeader hdr;

	bloom_header_decode(bf->data, &hdr);
	hdr.key_type = key_type;
	bloom_set_header(bf, &hdr);
	return bf;
}

/*
 * bf_create(capacity, error_rate [, seed [, counting, expansion [,
 * key_type]]]): the two- and three-argument forms are those of 1.0, the
 * five-argument one that of 1.2, which later installs keep under their old
 * signatures where user objects depend on them.  Not strict from 1.3 on,
 * for key_type's NULL default; NULL in any other argument gives NULL.
 */
Datum
bloomfilter_create(PG_FUNCTION_ARGS)
{
	uint32		key_type = 0;

	for (int i = 0; i < Min(PG_NARGS(), 5); i++)
		if (PG_ARGISNULL(i))
			PG_RETURN_NULL();
	if (PG_NARGS() > 5 && !PG_ARGISNULL(5))
		key_type = bloom_key_type_arg(PG_GETARG_OID(5));
	PG_RETURN_BLOOMFILTER_P(bloom_with_key_type(bloom_create_untyped(fcinfo), key_type));
}

/* the filter bf_create's arguments but the key type ask for */
static BloomFilter *
bloom_create_untyped(FunctionCallInfo fcinfo)
{
	BloomHeader hdr;
	uint8		layout = BLOOM_LAYOUT_BLOCKED512;

	if (PG_NARGS() > 3)
	{
		bool		counting = PG_GETARG_BOOL(3);
		int32		expansion = PG_GETARG_INT32(4);

		bloom_check_expansion(expansion);
		if (counting && expansion > 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("a bloom filter cannot be both counting and scalable")));
		if (expansion > 0)
			return bloom_new_scalable(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1),
									  PG_GETARG_INT64(2), expansion);
		if (counting)
			layout = BLOOM_LAYOUT_COUNTING4;
	}
	bloom_header_for(&hdr, PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1),
					 PG_NARGS() > 2 ? PG_GETARG_INT64(2) : BLOOM_DEFAULT_SEED, layout);
	return bloom_new(&hdr);
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
	bloom_key_first_add(et, &v.hdr.key_type, v.hdr.bits_set == 0);
	h = bloom_key_hash_add(et, PG_GETARG_DATUM(1), bloom_hash_params(&v.hdr));
	bf = bloom_add_hashes(bf, &v, &h, 1);
	PG_RETURN_BLOOMFILTER_P(bf);
}

/* a layout that cannot forget: the error of bf_remove and bf_remove_all */
static void
bloom_check_removable(const BloomView *v)
{
	if (!v->layout->removes)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot remove an element from a bloom filter of layout %s",
						v->layout->name),
				 errdetail("Only a counting filter can forget an element."),
				 errhint("Create the filter with bf_create(capacity, error_rate, counting => true).")));
}

/*
 * A layout that cannot intersect, as either operand: refused before the
 * shapes are compared, so that the error says why rather than that the
 * shapes differ.
 */
static void
bloom_check_intersectable(const BloomLayout *layout)
{
	if (!layout->intersects)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot intersect a bloom filter of layout %s", layout->name),
				 errdetail("%s", layout->no_intersect_detail),
				 layout->no_intersect_hint ? errhint("%s", layout->no_intersect_hint) : 0));
}

static void
bloom_remove_hashes(BloomFilter *bf, BloomView *v, const BloomHash *hashes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		(void) v->layout->remove(&v->hdr, BLOOMFILTER_PAYLOAD(bf), hashes[i]);
	bloom_set_header(bf, &v->hdr);
}

/*
 * bf_remove(filter, element): not strict, as bf_add.  Takes the element out
 * of a filter that can forget (a counting filter) if it tests present;
 * removing one it rules out changes nothing.
 */
Datum
bloomfilter_remove(PG_FUNCTION_ARGS)
{
	BloomElemType *et;
	BloomFilter *bf;
	BloomView	v;
	BloomHash	h;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	bloom_read_header(PG_GETARG_DATUM(0), &v);
	bloom_check_removable(&v);
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	et = bloom_fn_cache(fcinfo, 1, false, sizeof(BloomElemType));
	/* a value no key of the filter's type equals was never added */
	if (!bloom_key_hash(et, PG_GETARG_DATUM(1), bloom_hash_params(&v.hdr), &h))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	bf = bloom_copy(PG_GETARG_DATUM(0), &v);
	bloom_remove_hashes(bf, &v, &h, 1);
	PG_RETURN_BLOOMFILTER_P(bf);
}

/* bf_count(filter, element): how often the element was added, at most */
Datum
bloomfilter_count(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(bloom_probe_count(fcinfo, 0, 1));
}

/*
 * bf_add_all and bf_remove_all: every non-NULL element of the array, hashed
 * in chunks that the layout applies as batches.
 */
static Datum
bloom_apply_array(FunctionCallInfo fcinfo, bool remove)
{
	BloomElemType *et;
	AnyArrayType *arr;
	array_iter	it;
	int			nitems;
	BloomFilter *bf;
	BloomView	v;
	BloomHashParams hp;
	BloomHash  *hashes;
	int			npending = 0;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (remove)
	{
		bloom_read_header(PG_GETARG_DATUM(0), &v);
		bloom_check_removable(&v);
	}
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	et = bloom_fn_cache(fcinfo, 1, true, sizeof(BloomElemType));
	arr = PG_GETARG_ANY_ARRAY_P(1);
	nitems = ArrayGetNItems(AARR_NDIM(arr), AARR_DIMS(arr));
	bf = bloom_copy(PG_GETARG_DATUM(0), &v);
	if (!remove)
		bloom_key_first_add(et, &v.hdr.key_type, v.hdr.bits_set == 0);
	hp = bloom_hash_params(&v.hdr);

	hashes = palloc(sizeof(BloomHash) * Min(nitems, BLOOM_ADD_CHUNK) + 1);
	array_iter_setup(&it, arr);
	for (int i = 0; i <= nitems; i++)
	{
		bool		isnull = true;
		Datum		elem = 0;

		if (i < nitems)
			elem = array_iter_next(&it, &isnull, i, et->typlen, et->typbyval, et->typalign);
		/* removing a value no key of the filter's type equals: nothing */
		if (!isnull && !remove)
			hashes[npending++] = bloom_key_hash_add(et, elem, hp);
		else if (!isnull && bloom_key_hash(et, elem, hp, &hashes[npending]))
			npending++;
		if (npending == BLOOM_ADD_CHUNK || (i == nitems && npending > 0))
		{
			CHECK_FOR_INTERRUPTS();
			if (remove)
				bloom_remove_hashes(bf, &v, hashes, npending);
			else
				bf = bloom_add_hashes(bf, &v, hashes, npending);
			npending = 0;
		}
	}
	pfree(hashes);
	PG_RETURN_BLOOMFILTER_P(bf);
}

Datum
bloomfilter_add_all(PG_FUNCTION_ARGS)
{
	return bloom_apply_array(fcinfo, false);
}

Datum
bloomfilter_remove_all(PG_FUNCTION_ARGS)
{
	return bloom_apply_array(fcinfo, true);
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

/*
 * Union or intersection.  Not strict: a NULL operand is ignored, as
 * aggregates ignore NULL rows, so that
 *		UPDATE t SET bf = bf_union(bf, (SELECT bf_agg(...) FROM new_rows))
 * keeps the stored filter when there are no new rows.  Both NULL: NULL.
 */
static Datum
bloom_combine(FunctionCallInfo fcinfo, bool intersect)
{
	BloomFilter *result;
	BloomView	va,
				vb,
				vsrc;
	BloomHeader first,
				second;
	int			dst_arg = 0;
	uint32		key_type;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		return bloom_other_operand(fcinfo);
	/* an unsized aggregate's partial states: hashes, added rather than ORed */
	if (!intersect && bloom_union_takes_hashes(fcinfo))
		return bloom_union_hashes(fcinfo);
	bloom_read_header(PG_GETARG_DATUM(0), &va);
	bloom_read_header(PG_GETARG_DATUM(1), &vb);
	if (intersect)
	{
		bloom_check_intersectable(va.layout);
		bloom_check_intersectable(vb.layout);
	}
	key_type = bloom_key_combine(va.hdr.key_type, va.hdr.bits_set == 0,
								 vb.hdr.key_type, vb.hdr.bits_set == 0,
								 intersect ? "intersect" : "union");
	bloom_check_shape(&va.hdr, &vb.hdr, intersect);
	first = va.hdr;
	second = vb.hdr;

	/* into the larger (a scalable filter may have more sub-filters) */
	if (va.layout->payload_bytes(&vb.hdr) > va.layout->payload_bytes(&va.hdr))
		dst_arg = 1;
	if (intersect || dst_arg == 1)
		result = bloom_copy(PG_GETARG_DATUM(dst_arg), &va);
	else
		result = bloom_agg_writable(fcinfo, 0, &va);
	bloom_read(PG_GETARG_DATUM(1 - dst_arg), &vsrc);
	if (!intersect)
		bloom_check_union_rate(&va, BLOOMFILTER_PAYLOAD(result), &vsrc);
	if (!va.layout->combine(&va.hdr, BLOOMFILTER_PAYLOAD(result), &vsrc.hdr, vsrc.payload,
							intersect))
		bloom_shape_error(&first, &second, intersect);
	va.hdr.key_type = key_type;
	bloom_set_header(result, &va.hdr);
	PG_RETURN_BLOOMFILTER_P(result);
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

/* bf_key_type(filter): the type of its keys, NULL if untyped */
Datum
bloomfilter_key_type(PG_FUNCTION_ARGS)
{
	return bloom_key_type_result(fcinfo, bloom_arg_header(fcinfo).key_type);
}

/*
 * bf_set_key_type(filter, type): a copy that holds keys of the type.  For a
 * filter made by 1.2 or earlier the user asserts what its keys were; a
 * typed filter changes only among integer types, which hash alike.
 */
Datum
bloomfilter_set_key_type(PG_FUNCTION_ARGS)
{
	BloomView	v;
	BloomFilter *bf = bloom_copy(PG_GETARG_DATUM(0), &v);

	v.hdr.key_type = bloom_key_reset(v.hdr.key_type, PG_GETARG_OID(1), "bloom filter");
	bloom_set_header(bf, &v.hdr);
	PG_RETURN_BLOOMFILTER_P(bf);
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

/*
 * bf_info(filter): what every filter has, then what its layout shows (the
 * header fields whose meaning is the layout's among them).
 */
Datum
bloomfilter_info(PG_FUNCTION_ARGS)
{
	BloomView	v;
	BloomJson	js;

	bloom_read(PG_GETARG_DATUM(0), &v);
	bloom_json_begin_filter(&js, v.hdr.version, v.hdr.hash_id, v.hdr.seed, v.hdr.key_type,
							v.hdr.capacity, v.hdr.error_rate,
							(uint64) VARHDRSZ + bloom_total_bytes(&v.hdr));
	bloom_json_string(&js, "layout", v.layout->name);
	bloom_json_uint(&js, "bits_set", v.hdr.bits_set);
	bloom_json_int(&js, "cardinality", llround(v.layout->cardinality(&v.hdr, v.payload)));
	bloom_json_float8(&js, "fpp", v.layout->fpp(&v.hdr, v.payload));
	v.layout->info(&v.hdr, v.payload, &js.sink);
	PG_RETURN_JSONB_P(bloom_json_end(&js));
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
