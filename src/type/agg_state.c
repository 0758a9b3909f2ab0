/*-------------------------------------------------------------------------
 *
 * agg_state.c
 *	  The aggregates' state, for both filter types: an expanded object in a
 *	  context of its own under the aggregate's, recognised by its methods,
 *	  returned read-write so that the executor keeps it without a copy, and
 *	  grown in place.  A bloomfilter state holds a payload and the hashes
 *	  not yet added; a cuckoofilter state holds the flat value and its open
 *	  view.  Also what transition, combine and final functions share
 *	  (ownership of the state, the result handed over flat, partial states
 *	  of parallel plans).
 *
 * src/type/agg_state.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "nodes/execnodes.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/memutils.h"

#include "type/value.h"
#include "type/cuckoofilter.h"

/* ---- what both types' states share ---- */

/* ---- the bloomfilter state ---- */

static Size
bloom_state_flat_size(ExpandedObjectHeader *eoh)
{
	BloomState *s = (BloomState *) eoh;
	BloomHeader hdr = s->hdr;

	if (s->layout->holds_hashes)
		bloom_hashes_trim(&hdr);
	return BLOOMFILTER_SIZE(s->layout->payload_bytes(&hdr));
}

/* the flat form, with the pending hashes added to it and not to the state */
static void
bloom_state_flatten_into(ExpandedObjectHeader *eoh, void *result, Size size)
{
	BloomState *s = (BloomState *) eoh;
	BloomFilter *bf = (BloomFilter *) result;
	BloomHeader hdr;

	Assert(size == bloom_state_flat_size(eoh));
	bloom_state_count(s);
	hdr = s->hdr;
	SET_VARSIZE(bf, size);
	bloom_fill_chunked(BLOOMFILTER_PAYLOAD(bf), s->payload,
					   size - VARHDRSZ - BLOOM_HEADER_SIZE);
	/* a list leaves with the cells it uses, the state's spare ones unwritten */
	if (s->layout->holds_hashes)
		bloom_hashes_trim(&hdr);
	s->layout->add(&hdr, BLOOMFILTER_PAYLOAD(bf), s->pending, s->npending);
	bloom_header_encode(&hdr, bf->data);
}

const ExpandedObjectMethods bloom_state_methods = {
	bloom_state_flat_size,
	bloom_state_flatten_into
};

static bool
bloom_is_expanded(Datum d)
{
	return bloom_expanded_of(d, &bloom_state_methods, false) != NULL;
}

/*
 * Room for a payload of nbytes in the state's memory, aligned to a cache
 * line so that a check touches one line; *alloc is what to pfree.
 */
uint8 *
bloom_state_payload_alloc(BloomState *s, uint64 nbytes, void **alloc)
{
	*alloc = bloom_palloc(s->eoh.eoh_context, nbytes + BLOOM_CACHE_LINE - 1);
	return (uint8 *) TYPEALIGN(BLOOM_CACHE_LINE, *alloc);
}

/* a new state in a child of parent: empty (payload NULL) or a copy */
BloomState *
bloom_state_new(MemoryContext parent, const BloomHeader *hdr, const uint8 *payload)
{
	MemoryContext cxt = AllocSetContextCreate(parent, "bloom filter state",
											  ALLOCSET_SMALL_SIZES);
	BloomState *s = MemoryContextAlloc(cxt, sizeof(BloomState));
	size_t		nbytes;

	EOH_init_header(&s->eoh, &bloom_state_methods, cxt);
	s->hdr = *hdr;
	s->uncounted = false;
	s->layout = bloom_layout_for(hdr->layout);
	s->npending = 0;
	s->nparts = 0;
	nbytes = s->layout->payload_bytes(hdr);
	s->payload = bloom_state_payload_alloc(s, nbytes, &s->alloc);
	bloom_fill_chunked(s->payload, payload, nbytes);
	return s;
}

/* one step of growth of the state's payload, into memory of its own */
static void
bloom_state_grow(BloomState *s)
{
	uint64		bytes = bloom_grown_bytes(&s->hdr, s->layout, s->payload);
	void	   *alloc;
	uint8	   *grown = bloom_state_payload_alloc(s, bytes, &alloc);

	s->layout->grow(&s->hdr, s->payload, grown);
	pfree(s->alloc);
	s->alloc = alloc;
	s->payload = grown;
}

/*
 * n hashes into the state, growing it when its layout must.  A list of
 * hashes grows up to its bound, and past it becomes a filter
 * (type/agg_hashlist.c).
 */
void
bloom_state_add_many(BloomState *s, const BloomHash *hashes, size_t n)
{
	size_t		done = 0;

	while ((done += s->layout->add(&s->hdr, s->payload, hashes + done, n - done)) < n)
	{
		if (s->layout->holds_hashes)
			bloom_state_list_grow(s);
		else
			bloom_state_grow(s);
	}
}

/*
 * The pending hashes into the state (the array is not touched by settling),
 * uncounted where the layout can: bloom_state_count counts them when the
 * state is read.
 */
void
bloom_state_flush(BloomState *s)
{
	int			n = s->npending;

	s->npending = 0;
	if (s->layout->add_uncounted)
	{
		s->layout->add_uncounted(&s->hdr, s->payload, s->pending, n);
		s->uncounted = true;
	}
	else
		bloom_state_add_many(s, s->pending, n);
}

/* hdr.bits_set of the state's payload (the pending hashes still apart) */
void
bloom_state_count(BloomState *s)
{
	if (s->uncounted)
	{
		s->hdr.bits_set = s->layout->recount(&s->hdr, s->payload);
		s->uncounted = false;
	}
}

/*
 * Grow the state's payload until it is as large as payload_bytes (a
 * scalable filter's, before a union with one that has more sub-filters).
 */
void
bloom_state_reserve(BloomState *s, uint64 payload_bytes)
{
	while (s->layout->payload_bytes(&s->hdr) < payload_bytes)
		bloom_state_grow(s);
}


/*
 * Whether argument argno is the flat state of the aggregate calling us
 * (bf_union_agg's transition, a combine step of either filter type): only
 * an aggregate's own state may be modified in place, and copying it once
 * per row would make the aggregate quadratic.
 */
bool
bloom_agg_owns(FunctionCallInfo fcinfo, int argno)
{
	return AggCheckCallContext(fcinfo, NULL) &&
		!VARATT_IS_EXTENDED(DatumGetPointer(PG_GETARG_DATUM(argno)));
}

/*
 * The aggregate context of a transition function (into *aggcxt if not
 * NULL).  Called directly (SELECT bloomfilter_agg_trans(...)) it has none to keep
 * its state in: a user's mistake, so a user's error, not XX000.
 */
void
bloom_require_aggregate(FunctionCallInfo fcinfo, MemoryContext *aggcxt,
						const char *fname, const char *aggname)
{
	if (!AggCheckCallContext(fcinfo, aggcxt))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s can only be called as an aggregate's transition function",
						fname),
				 errhint("Use the aggregate %s.", aggname)));
}

/*
 * An aggregate's result: a flat copy of its state (of any form) in the
 * current memory context, which the layout is told has left the aggregate.
 */
BloomFilter *
bloom_agg_result(Datum d)
{
	BloomView	v;
	BloomFilter *bf;

	if (bloom_is_expanded(d))
	{
		ExpandedObjectHeader *eoh = DatumGetEOHP(d);
		BloomState *s = (BloomState *) eoh;
		Size		size;

		/* a layout that grows has no pending hashes (bloom_state_add) */
		if (s->layout->holds_hashes)
			return bloom_hashes_finish(&s->hdr, s->payload);
		size = EOH_get_flat_size(eoh);

		bf = bloom_palloc(CurrentMemoryContext, size);
		EOH_flatten_into(eoh, bf, size);
		bloom_view_init(&v, bf->data, size - VARHDRSZ, size - VARHDRSZ);
	}
	else
	{
		bloom_read(d, &v);
		if (v.layout->holds_hashes)
			return bloom_hashes_finish(&v.hdr, v.payload);
		bf = bloom_copy(d, &v);
	}
	if (v.layout->finish)
	{
		v.layout->finish(&v.hdr, BLOOMFILTER_PAYLOAD(bf));
		bloom_set_header(bf, &v.hdr);
	}
	return bf;
}

/*
 * How many partial states the aggregate calling us can have, if it is
 * computing one that will be combined with others (a parallel plan); 0 if
 * it is not.
 */
int
bloom_agg_partial_parts(FunctionCallInfo fcinfo)
{
	if (fcinfo->context && IsA(fcinfo->context, AggState) &&
		DO_AGGSPLIT_SKIPFINAL(((AggState *) fcinfo->context)->aggsplit))
		return max_parallel_workers_per_gather + (parallel_leader_participation ? 1 : 0);
	return 0;
}

/*
 * A new aggregate state from a template value.  The layout is told how
 * many partial states there can be: as many as a parallel plan has if the
 * aggregate computes one that will be combined with others, else 0, so
 * that a template's own fill divisor (a value stored before input checked
 * it) never decides when the state grows.
 */
BloomState *
bloom_state_from(FunctionCallInfo fcinfo, MemoryContext aggcxt, Datum template)
{
	BloomView	v;
	BloomState *s;

	bloom_read(template, &v);
	s = bloom_state_new(aggcxt, &v.hdr, v.payload);
	s->nparts = bloom_agg_partial_parts(fcinfo);
	if (s->layout->partial)
		s->layout->partial(&s->hdr, s->payload, s->nparts);
	return s;
}


/* ---- the cuckoofilter state ---- */

/* the pending hashes go in before anything reads the state's value */
static Size
cf_state_flat_size(ExpandedObjectHeader *eoh)
{
	cf_state_flush((CuckooState *) eoh);
	return VARSIZE(((CuckooState *) eoh)->flat);
}

static void
cf_state_flatten_into(ExpandedObjectHeader *eoh, void *result, Size size)
{
	cf_state_flush((CuckooState *) eoh);
	memcpy(result, ((CuckooState *) eoh)->flat, size);
}

const ExpandedObjectMethods cf_state_methods = {
	cf_state_flat_size,
	cf_state_flatten_into
};

/*
 * d's cuckoofilter state (read-write only if rw_only), else NULL.  Only the
 * transition function (rw_only) sees the hashes still pending; for any other
 * caller, which reads the value, they are added first.
 */
CuckooState *
cf_state_of(Datum d, bool rw_only)
{
	CuckooState *s = (CuckooState *) bloom_expanded_of(d, &cf_state_methods, rw_only);

	if (s != NULL && !rw_only)
		cf_state_flush(s);
	return s;
}

/*
 * A new state for cf_agg holding a copy of the value d (a template, or a
 * state that is not ours), or a new filter of the sizing arguments when d
 * is NULL.  The flat value lives in the state's context, where growth
 * reallocates it in place (cf_add_hash).
 */
CuckooState *
cf_state_new(MemoryContext aggcxt, Datum d, int64 capacity, double error_rate)
{
	MemoryContext cxt = AllocSetContextCreate(aggcxt, "cuckoo filter state",
											  ALLOCSET_SMALL_SIZES);
	CuckooState *s = MemoryContextAllocZero(cxt, sizeof(CuckooState));
	MemoryContext old;

	EOH_init_header(&s->eoh, &cf_state_methods, cxt);
	if (d == (Datum) 0)
	{
		s->flat = cf_create(capacity, error_rate, BLOOM_DEFAULT_SEED, cxt);
		cf_read(PointerGetDatum(s->flat), &s->view);
	}
	else
	{
		old = MemoryContextSwitchTo(cxt);
		s->flat = cf_copy(d, &s->view);
		MemoryContextSwitchTo(old);
	}
	return s;
}

/*
 * The pending hashes into the state's value, in the order the rows came
 * (cf_add_hashes), so that the value is byte for byte what adding them one
 * at a time makes.
 */
void
cf_state_flush(CuckooState *s)
{
	int			n = s->npending;

	s->npending = 0;
	cf_add_hashes(&s->flat, &s->view, s->pending, n, s->eoh.eoh_context);
}

