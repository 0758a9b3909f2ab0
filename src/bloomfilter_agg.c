/*-------------------------------------------------------------------------
 *
 * bloomfilter_agg.c
 *	  bf_agg: building a filter from rows.
 *
 * The aggregate's state type is bloomfilter itself, not internal, so that
 * engines which ship partial aggregates between nodes as text (Citus) can
 * run it distributed, and so that bf_union can serve as the combine
 * function of parallel plans.
 *
 * Inside one backend the state is an expanded object (utils/expandeddatum.h)
 * owned by the aggregate's memory context.  It keeps the bits 64-byte
 * aligned and, besides them, a buffer of element hashes not yet applied:
 * adding to a 12 MB filter misses cache on every element, and applying the
 * hashes in batches with the target blocks prefetched lets those misses
 * overlap.  Whenever the state leaves the aggregate (flattened for output,
 * for a tuple, for the combine step or for another function) the flattening
 * applies the pending hashes first, so no add can be lost.
 *
 * src/bloomfilter_agg.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "bloomfilter.h"

PG_FUNCTION_INFO_V1(bloomfilter_agg_trans);
PG_FUNCTION_INFO_V1(bloomfilter_agg_final);

/* hashes held before they are applied as one batch */
#define BLOOM_PENDING 256

struct ExpandedBloom
{
	ExpandedObjectHeader hdr;
	BloomHeader bh;				/* bits_set excludes pending hashes */
	uint8	   *bits;			/* 64-byte aligned */
	int			npending;
	BloomHash	pending[BLOOM_PENDING];
};

/* fn_extra of the transition function: the sizing of the last group */
typedef struct BloomAggCache
{
	BloomElemType elem;			/* first: see bloom_fn_cache */
	bool		sized;
	int64		capacity;
	double		error_rate;
	uint64		nbits;
	int			nhashes;
} BloomAggCache;

static Size eb_get_flat_size(ExpandedObjectHeader *eohptr);
static void eb_flatten_into(ExpandedObjectHeader *eohptr, void *result,
							Size allocated_size);

const ExpandedObjectMethods bloom_expanded_methods = {
	eb_get_flat_size,
	eb_flatten_into
};

static void
eb_flush(ExpandedBloom *eb)
{
	if (eb->npending == 0)
		return;
	eb->bh.bits_set += bloom_add_batch(eb->bits, bloom_nblocks(&eb->bh),
									   eb->bh.nhashes, eb->pending, eb->npending);
	eb->npending = 0;
}

/*
 * Applying pending hashes does not change the value the object stands for,
 * only how it is held, so it is allowed here even for a read-only pointer.
 */
static Size
eb_get_flat_size(ExpandedObjectHeader *eohptr)
{
	ExpandedBloom *eb = (ExpandedBloom *) eohptr;

	eb_flush(eb);
	return BLOOMFILTER_SIZE(eb->bh.nbits);
}

static void
eb_flatten_into(ExpandedObjectHeader *eohptr, void *result, Size allocated_size)
{
	ExpandedBloom *eb = (ExpandedBloom *) eohptr;
	BloomFilter *bf = (BloomFilter *) result;

	eb_flush(eb);
	Assert(allocated_size == BLOOMFILTER_SIZE(eb->bh.nbits));
	SET_VARSIZE(bf, allocated_size);
	bloom_header_encode(&eb->bh, bf->data);
	bloom_fill(BLOOMFILTER_BITS(bf), eb->bits, eb->bh.nbits / 8);
}

/* a new expanded filter in a child of parent; bits NULL means empty */
static ExpandedBloom *
eb_create(MemoryContext parent, const BloomHeader *bh, const uint8 *bits)
{
	MemoryContext cxt = AllocSetContextCreate(parent, "expanded bloomfilter",
											  ALLOCSET_SMALL_SIZES);
	ExpandedBloom *eb = MemoryContextAlloc(cxt, sizeof(ExpandedBloom));
	size_t		nbytes = bh->nbits / 8;
	void	   *alloc;

	EOH_init_header(&eb->hdr, &bloom_expanded_methods, cxt);
	eb->bh = *bh;
	eb->npending = 0;
	alloc = bloom_alloc_bytes(cxt, nbytes + BLOOM_BLOCK_BYTES - 1);
	eb->bits = (uint8 *) TYPEALIGN(BLOOM_BLOCK_BYTES, alloc);
	bloom_fill(eb->bits, bits, nbytes);
	return eb;
}

void
bloom_expanded_header(Datum d, BloomHeader *hdr)
{
	ExpandedBloom *eb = (ExpandedBloom *) bloom_eohp(d);

	eb_flush(eb);
	*hdr = eb->bh;
}

bool
bloom_expanded_test(Datum d, BloomElemType *et, Datum value)
{
	ExpandedBloom *eb = (ExpandedBloom *) bloom_eohp(d);

	eb_flush(eb);
	return bloom_test(eb->bits, bloom_nblocks(&eb->bh), eb->bh.nhashes,
					  bloom_elem_hash(et, value, eb->bh.seed));
}

/*
 * bf_agg_trans(state, element, capacity [, error_rate])
 *
 * Not strict: the first call creates the state from the sizing arguments,
 * NULL elements are skipped.
 */
Datum
bloomfilter_agg_trans(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt;
	ExpandedBloom *eb;
	BloomAggCache *cache;

	cache = bloom_fn_cache(fcinfo, 1, false, sizeof(BloomAggCache));

	if (!PG_ARGISNULL(0) &&
		VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(PG_GETARG_DATUM(0))) &&
		bloom_is_expanded(PG_GETARG_DATUM(0)))
	{
		/*
		 * Every row but a group's first: the state we made, passed read-write,
		 * which by the expanded-object rules is ours to change.  Only this
		 * function makes such objects, and only for an aggregate.
		 */
		eb = (ExpandedBloom *) bloom_eohp(PG_GETARG_DATUM(0));
	}
	else if (!AggCheckCallContext(fcinfo, &aggcxt))
		elog(ERROR, "bf_agg transition function called in non-aggregate context");
	else if (PG_ARGISNULL(0))
	{
		int64		capacity;
		double		error_rate = 0.01;
		BloomHeader bh;

		if (PG_ARGISNULL(2) || (PG_NARGS() > 3 && PG_ARGISNULL(3)))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("bf_agg capacity and error rate must not be null")));
		capacity = PG_GETARG_INT64(2);
		if (PG_NARGS() > 3)
			error_rate = PG_GETARG_FLOAT8(3);

		/* sizing costs a little; groups usually share their arguments */
		if (!cache->sized || cache->capacity != capacity ||
			cache->error_rate != error_rate)
		{
			bloom_size_or_error(capacity, error_rate, &cache->nbits, &cache->nhashes);
			cache->capacity = capacity;
			cache->error_rate = error_rate;
			cache->sized = true;
		}
		bloom_header_init(&bh, (uint64) capacity, error_rate, BLOOM_DEFAULT_SEED,
						  cache->nbits, cache->nhashes);
		eb = eb_create(aggcxt, &bh, NULL);
	}
	else
	{
		/* a flat state (not one we made): take a private expanded copy */
		BloomFilter *bf = (BloomFilter *) PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(0));
		BloomHeader bh;

		bloom_open(bf, &bh);
		eb = eb_create(aggcxt, &bh, (const uint8 *) VARDATA_ANY(bf) + BLOOM_HEADER_SIZE);
	}

	if (!PG_ARGISNULL(1))
	{
		if (eb->npending == BLOOM_PENDING)
			eb_flush(eb);
		eb->pending[eb->npending++] = bloom_elem_hash(&cache->elem, PG_GETARG_DATUM(1),
													  eb->bh.seed);
	}
	PG_RETURN_DATUM(EOHPGetRWDatum(&eb->hdr));
}

/*
 * bf_agg_final(state): the result, flat, in the memory the executor keeps
 * it in.
 *
 * Without a final function the executor copies the state itself, through
 * datumCopy into fresh memory of its own, which on a machine with costly
 * page faults took longer than the copy (30 ms for a 12 MB filter here).
 * Writing the flat form into memory of the current context, which is the
 * executor's output context when it calls us, leaves it nothing to copy,
 * and bloom_alloc_bytes asks for huge pages for it.  The state itself is
 * left as it was, so this also serves window aggregates (READ_ONLY).
 */
Datum
bloomfilter_agg_final(PG_FUNCTION_ARGS)
{
	Datum		state = PG_GETARG_DATUM(0);
	ExpandedObjectHeader *eoh;
	BloomFilter *result;
	Size		size;

	/* a flat state (bf_union_agg's, or bf_agg's after a combine step) */
	if (!bloom_is_expanded(state))
		PG_RETURN_BLOOMFILTER_P(bloom_copy(state));

	eoh = bloom_eohp(state);
	size = EOH_get_flat_size(eoh);
	result = bloom_alloc_bytes(CurrentMemoryContext, size);
	EOH_flatten_into(eoh, result, size);
	PG_RETURN_BLOOMFILTER_P(result);
}

