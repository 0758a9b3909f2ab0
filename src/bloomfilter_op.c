/*-------------------------------------------------------------------------
 *
 * bloomfilter_op.c
 *	  Creating, adding to, checking, combining and describing filters.
 *
 * Reading a stored filter is where the time goes: a filter of ten million
 * elements is 12 MB of TOAST.  bf_contains therefore never detoasts the
 * whole value per call.  The first call on a stored (external, uncompressed)
 * value reads the header and the one block it needs by TOAST slices, which
 * is what a point check from an application costs.  If the same value comes
 * back in a later call of the same query (a join or a scalar subquery
 * against a filters row), it is detoasted once into fn_extra, 64-byte
 * aligned, and every further call costs a hash and one cache line.  Values
 * are recognised by their TOAST pointer (relation, value OID and sizes),
 * which names one immutable value.
 *
 * Functions that return a filter always work on a copy: arguments are never
 * modified, with one exception, bf_union called by an aggregate on the state
 * it owns.
 *
 * src/bloomfilter_op.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/detoast.h"
#include "access/table.h"
#include "access/tableam.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/arrayaccess.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"

#include "bloomfilter.h"

PG_FUNCTION_INFO_V1(bloomfilter_create);
PG_FUNCTION_INFO_V1(bloomfilter_add);
PG_FUNCTION_INFO_V1(bloomfilter_add_all);
PG_FUNCTION_INFO_V1(bloomfilter_contains);
PG_FUNCTION_INFO_V1(bloomfilter_contained);
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

/* hashes gathered before one batched, prefetched pass over the filter */
#define BLOOM_ADD_CHUNK 4096

/* fn_extra of bf_contains */
typedef struct BloomProbeCache
{
	BloomElemType elem;			/* first: see bloom_fn_cache */
	bool		have_key;		/* key names the value seen last */
	struct varatt_external key;
	BloomHeader hdr;			/* of the cached value */
	uint8	   *bits;			/* its bits, 64-byte aligned; or NULL */
	void	   *alloc;			/* what bits points into */
} BloomProbeCache;

static inline const uint8 *
bloom_bits(const BloomFilter *bf)
{
	return (const uint8 *) VARDATA_ANY(bf) + BLOOM_HEADER_SIZE;
}

/*
 * Header of a filter without reading its bits when it is stored out of line
 * and uncompressed (the type's default storage is EXTERNAL).
 */
static void
bloom_read_header(Datum d, BloomHeader *hdr)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);

	/* an aggregate's result, not flattened yet: no need to */
	if (bloom_is_expanded(d))
	{
		bloom_expanded_header(d, hdr);
		return;
	}

	if (VARATT_IS_EXTERNAL_ONDISK(raw))
	{
		struct varatt_external ptr;

		VARATT_EXTERNAL_GET_POINTER(ptr, raw);
		if (!VARATT_EXTERNAL_IS_COMPRESSED(ptr))
		{
			struct varlena *slice = PG_DETOAST_DATUM_SLICE(d, 0, BLOOM_HEADER_SIZE);
			BloomCheck	check = BLOOM_BAD_LENGTH;

			if (VARSIZE_ANY_EXHDR(slice) == BLOOM_HEADER_SIZE)
			{
				bloom_header_decode((const uint8 *) VARDATA_ANY(slice), hdr);
				check = bloom_validate_header(hdr, VARATT_EXTERNAL_GET_EXTSIZE(ptr));
			}
			if (check != BLOOM_OK)
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg("bloomfilter value is corrupt"),
						 errdetail_internal("%s", bloom_check_message(check))));
			pfree(slice);
			return;
		}
	}
	bloom_open((BloomFilter *) PG_DETOAST_DATUM_PACKED(d), hdr);
}

Datum
bloomfilter_create(PG_FUNCTION_ARGS)
{
	int64		capacity = PG_GETARG_INT64(0);
	double		error_rate = PG_GETARG_FLOAT8(1);
	int64		seed = PG_NARGS() > 2 ? PG_GETARG_INT64(2) : BLOOM_DEFAULT_SEED;
	uint64		nbits;
	int			nhashes;
	BloomHeader hdr;

	if (seed < 0 || seed > (int64) PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter seed must be between 0 and %u", PG_UINT32_MAX)));
	bloom_size_or_error(capacity, error_rate, &nbits, &nhashes);
	bloom_header_init(&hdr, (uint64) capacity, error_rate, (uint32) seed, nbits, nhashes);
	PG_RETURN_BLOOMFILTER_P(bloom_alloc(&hdr));
}

Datum
bloomfilter_add(PG_FUNCTION_ARGS)
{
	BloomElemType *et;
	BloomFilter *bf;
	BloomHeader hdr;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	/* adding NULL adds nothing: the stored filter must survive it */
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	et = bloom_fn_cache(fcinfo, 1, false, sizeof(BloomElemType));
	bf = PG_GETARG_BLOOMFILTER_P_COPY(0);
	bloom_open(bf, &hdr);
	hdr.bits_set += bloom_add(BLOOMFILTER_BITS(bf), bloom_nblocks(&hdr), hdr.nhashes,
							  bloom_elem_hash(et, PG_GETARG_DATUM(1), hdr.seed));
	bloom_store_header(bf, &hdr);
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
	BloomHeader hdr;
	BloomHash  *hashes;
	int			npending = 0;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	et = bloom_fn_cache(fcinfo, 1, true, sizeof(BloomElemType));
	arr = PG_GETARG_ANY_ARRAY_P(1);
	nitems = ArrayGetNItems(AARR_NDIM(arr), AARR_DIMS(arr));
	bf = PG_GETARG_BLOOMFILTER_P_COPY(0);
	bloom_open(bf, &hdr);

	hashes = palloc(sizeof(BloomHash) * Min(nitems, BLOOM_ADD_CHUNK) + 1);
	array_iter_setup(&it, arr);
	for (int i = 0; i < nitems; i++)
	{
		bool		isnull;
		Datum		v = array_iter_next(&it, &isnull, i, et->typlen, et->typbyval,
										et->typalign);

		if (isnull)
			continue;
		hashes[npending++] = bloom_elem_hash(et, v, hdr.seed);
		if (npending == BLOOM_ADD_CHUNK)
		{
			CHECK_FOR_INTERRUPTS();
			hdr.bits_set += bloom_add_batch(BLOOMFILTER_BITS(bf), bloom_nblocks(&hdr),
											hdr.nhashes, hashes, npending);
			npending = 0;
		}
	}
	hdr.bits_set += bloom_add_batch(BLOOMFILTER_BITS(bf), bloom_nblocks(&hdr),
									hdr.nhashes, hashes, npending);
	pfree(hashes);
	bloom_store_header(bf, &hdr);
	PG_RETURN_BLOOMFILTER_P(bf);
}

/* answer from the header and the one block the element maps to */
static bool
bloom_probe_slices(BloomElemType *et, Datum fdatum, Datum elem)
{
	BloomHeader hdr;
	BloomHash	h;
	uint64		block;
	struct varlena *slice;
	bool		result;

	bloom_read_header(fdatum, &hdr);
	h = bloom_elem_hash(et, elem, hdr.seed);
	block = bloom_block_of(h.h1, bloom_nblocks(&hdr));
	slice = PG_DETOAST_DATUM_SLICE(fdatum,
								   (int32) (BLOOM_HEADER_SIZE + block * BLOOM_BLOCK_BYTES),
								   BLOOM_BLOCK_BYTES);
	if (VARSIZE_ANY_EXHDR(slice) != BLOOM_BLOCK_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("bloomfilter value is corrupt"),
				 errdetail("A block could not be read in full.")));
	result = bloom_block_test_hash((const uint8 *) VARDATA_ANY(slice), h, hdr.nhashes);
	pfree(slice);
	return result;
}

/*
 * Hold the whole value in fn_extra's memory, placed so that its bits start
 * on a 64-byte boundary and a check touches a single cache line.  An
 * uncompressed out-of-line value is read from its TOAST table straight into
 * place, as detoasting would but without the second copy; anything else is
 * detoasted and copied.
 */
static void
bloom_probe_cache_load(FunctionCallInfo fcinfo, BloomProbeCache *pc, Datum fdatum)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(fdatum);
	struct varlena *flat = NULL;
	Size		size;
	char	   *alloc;
	BloomFilter *bf;

	if (VARATT_IS_EXTERNAL_ONDISK(raw) && !VARATT_EXTERNAL_IS_COMPRESSED(pc->key))
		size = VARHDRSZ + VARATT_EXTERNAL_GET_EXTSIZE(pc->key);
	else
	{
		flat = PG_DETOAST_DATUM(fdatum);
		size = VARSIZE(flat);
	}
	alloc = bloom_alloc_bytes(fcinfo->flinfo->fn_mcxt, size + BLOOM_BLOCK_BYTES);
	bf = (BloomFilter *) (TYPEALIGN(BLOOM_BLOCK_BYTES, alloc + VARHDRSZ + BLOOM_HEADER_SIZE) -
						  VARHDRSZ - BLOOM_HEADER_SIZE);
	if (flat == NULL)
	{
		Relation	toastrel = table_open(pc->key.va_toastrelid, AccessShareLock);

		SET_VARSIZE(bf, size);
		table_relation_fetch_toast_slice(toastrel, pc->key.va_valueid,
										 (int32) (size - VARHDRSZ), 0,
										 (int32) (size - VARHDRSZ),
										 (struct varlena *) bf);
		table_close(toastrel, AccessShareLock);
	}
	else
	{
		bloom_fill(bf, flat, size);
		if (flat != raw)
			pfree(flat);
	}
	bloom_open(bf, &pc->hdr);
	pc->alloc = alloc;
	pc->bits = BLOOMFILTER_BITS(bf);
}

static bool
bloom_probe(FunctionCallInfo fcinfo, Datum fdatum, Datum elem)
{
	BloomProbeCache *pc = bloom_fn_cache(fcinfo, 1, false, sizeof(BloomProbeCache));
	struct varlena *raw = (struct varlena *) DatumGetPointer(fdatum);

	if (VARATT_IS_EXTERNAL_ONDISK(raw))
	{
		struct varatt_external ptr;

		VARATT_EXTERNAL_GET_POINTER(ptr, raw);
		if (!pc->have_key || memcmp(&ptr, &pc->key, sizeof(ptr)) != 0)
		{
			/* a value not seen before: remember it, answer by slices */
			if (pc->alloc)
				pfree(pc->alloc);
			pc->alloc = NULL;
			pc->bits = NULL;
			pc->key = ptr;
			pc->have_key = true;
			if (!VARATT_EXTERNAL_IS_COMPRESSED(ptr))
				return bloom_probe_slices(&pc->elem, fdatum, elem);
		}
		/* seen before, or compressed: worth holding in memory */
		if (pc->bits == NULL)
			bloom_probe_cache_load(fcinfo, pc, fdatum);
		return bloom_test(pc->bits, bloom_nblocks(&pc->hdr), pc->hdr.nhashes,
						  bloom_elem_hash(&pc->elem, elem, pc->hdr.seed));
	}

	if (bloom_is_expanded(fdatum))
		return bloom_expanded_test(fdatum, &pc->elem, elem);

	{
		/* in line: no copy unless compressed */
		BloomFilter *bf = (BloomFilter *) PG_DETOAST_DATUM_PACKED(fdatum);
		BloomHeader hdr;

		bloom_open(bf, &hdr);
		return bloom_test(bloom_bits(bf), bloom_nblocks(&hdr), hdr.nhashes,
						  bloom_elem_hash(&pc->elem, elem, hdr.seed));
	}
}

Datum
bloomfilter_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_probe(fcinfo, PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)));
}

/* element <@ filter: the commutator, arguments the other way round */
Datum
bloomfilter_contained(PG_FUNCTION_ARGS)
{
	BloomProbeCache *pc = fcinfo->flinfo->fn_extra;

	/* the element is argument 0 here; resolve its type before bloom_probe */
	if (pc == NULL)
		bloom_fn_cache(fcinfo, 0, false, sizeof(BloomProbeCache));
	PG_RETURN_BOOL(bloom_probe(fcinfo, PG_GETARG_DATUM(1), PG_GETARG_DATUM(0)));
}

static void
bloom_combine_bits(uint8 *dst, const uint8 *src, size_t nbytes, bool intersect,
				   uint64 *bits_set)
{
	uint64		count = 0;

	for (size_t off = 0; off < nbytes; off += BLOOM_INTERRUPT_BYTES)
	{
		size_t		len = Min(BLOOM_INTERRUPT_BYTES, nbytes - off);

		CHECK_FOR_INTERRUPTS();
		count += intersect ? bloom_intersect_into(dst + off, src + off, len)
			: bloom_union_into(dst + off, src + off, len);
	}
	*bits_set = count;
}

/*
 * Union or intersection.  When an aggregate calls bf_union on the state it
 * owns (bf_union_agg's transition, bf_agg's combine step), the state is a
 * plain varlena in the aggregate's memory, and we OR into it in place
 * instead of copying it once per row.
 */
static Datum
bloom_combine(FunctionCallInfo fcinfo, bool intersect)
{
	const char *operation = intersect ? "intersect" : "union";
	struct varlena *raw0 = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0));
	BloomFilter *a;
	BloomFilter *b;
	BloomHeader ha,
				hb;

	if (!intersect && AggCheckCallContext(fcinfo, NULL) && !VARATT_IS_EXTENDED(raw0))
		a = (BloomFilter *) raw0;
	else
		a = PG_GETARG_BLOOMFILTER_P_COPY(0);
	b = (BloomFilter *) PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(1));

	bloom_open(a, &ha);
	bloom_open(b, &hb);
	bloom_check_shape(&ha, &hb, operation);
	bloom_combine_bits(BLOOMFILTER_BITS(a), bloom_bits(b), ha.nbits / 8, intersect,
					   &ha.bits_set);
	bloom_store_header(a, &ha);
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

/* ---- introspection ---- */

Datum
bloomfilter_capacity(PG_FUNCTION_ARGS)
{
	BloomHeader hdr;

	bloom_read_header(PG_GETARG_DATUM(0), &hdr);
	PG_RETURN_INT64((int64) hdr.capacity);
}

Datum
bloomfilter_error_rate(PG_FUNCTION_ARGS)
{
	BloomHeader hdr;

	bloom_read_header(PG_GETARG_DATUM(0), &hdr);
	PG_RETURN_FLOAT8(hdr.error_rate);
}

Datum
bloomfilter_nbits(PG_FUNCTION_ARGS)
{
	BloomHeader hdr;

	bloom_read_header(PG_GETARG_DATUM(0), &hdr);
	PG_RETURN_INT64((int64) hdr.nbits);
}

Datum
bloomfilter_nhashes(PG_FUNCTION_ARGS)
{
	BloomHeader hdr;

	bloom_read_header(PG_GETARG_DATUM(0), &hdr);
	PG_RETURN_INT32((int32) hdr.nhashes);
}

Datum
bloomfilter_bits_set(PG_FUNCTION_ARGS)
{
	BloomHeader hdr;

	bloom_read_header(PG_GETARG_DATUM(0), &hdr);
	PG_RETURN_INT64((int64) hdr.bits_set);
}

Datum
bloomfilter_cardinality(PG_FUNCTION_ARGS)
{
	BloomFilter *bf = (BloomFilter *) PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(0));
	BloomHeader hdr;

	bloom_open(bf, &hdr);
	PG_RETURN_INT64((int64) llround(bloom_estimate_cardinality(bloom_bits(bf),
															   bloom_nblocks(&hdr),
															   hdr.nhashes)));
}

Datum
bloomfilter_fpp(PG_FUNCTION_ARGS)
{
	BloomFilter *bf = (BloomFilter *) PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(0));
	BloomHeader hdr;

	bloom_open(bf, &hdr);
	PG_RETURN_FLOAT8(bloom_estimate_fpp(bloom_bits(bf), bloom_nblocks(&hdr), hdr.nhashes));
}

Datum
bloomfilter_info(PG_FUNCTION_ARGS)
{
	BloomFilter *bf = (BloomFilter *) PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(0));
	BloomHeader hdr;
	StringInfoData json;
	uint64		nblocks;

	bloom_open(bf, &hdr);
	nblocks = bloom_nblocks(&hdr);

	initStringInfo(&json);
	appendStringInfo(&json,
					 "{\"version\": %d, \"layout\": \"blocked512\", "
					 "\"hash\": \"murmur3_x64_128\", \"seed\": %u, "
					 "\"capacity\": " UINT64_FORMAT ", \"error_rate\": %s, "
					 "\"nbits\": " UINT64_FORMAT ", \"nhashes\": %d, "
					 "\"bits_set\": " UINT64_FORMAT ", \"cardinality\": %lld, "
					 "\"fpp\": %s, \"size_bytes\": %zu}",
					 hdr.version, hdr.seed, hdr.capacity,
					 float8out_internal(hdr.error_rate),
					 hdr.nbits, hdr.nhashes, hdr.bits_set,
					 llround(bloom_estimate_cardinality(bloom_bits(bf), nblocks, hdr.nhashes)),
					 float8out_internal(bloom_estimate_fpp(bloom_bits(bf), nblocks, hdr.nhashes)),
					 (size_t) VARHDRSZ + bloom_total_bytes(&hdr));
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(json.data)));
}
