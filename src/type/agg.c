/*-------------------------------------------------------------------------
 *
 * agg.c
 *	  The aggregates' states, for both filter types: an expanded object in a
 *	  context of its own under the aggregate's, recognised by its methods,
 *	  returned read-write so that the executor keeps it without a copy, and
 *	  grown in place.  A bloomfilter state holds a payload and the hashes
 *	  not yet added; a cuckoofilter state holds the flat value and its open
 *	  view.  Also what transition, combine and final functions share
 *	  (ownership of the state, the result handed over flat, partial states
 *	  of parallel plans), and bf_agg(element) with no sizing: the element
 *	  hashes kept until the end, a filter sized for them, and the unions
 *	  that keep them.
 *
 * The kinds (type/kind_bloom.c, type/kind_cuckoo.c) know nothing of these
 * states: a state calls them, never the other way round.  What reads a
 * cuckoofilter state reads its flat value through type/value.h's flat
 * states, whose methods this file hands over.
 *
 * The state of bf_agg(element) is a list of element hashes (layout 4,
 * core/hashlist.c), 16 bytes an element, up to a memory bound.  Its final
 * function builds a scalable filter whose first sub-filter is sized for the
 * distinct count, so the result is within a sixth of a filter sized for the
 * final count (the first sub-filter's rate is half the requested one, so
 * that the filter can still grow) and holds every element at its rate.
 *
 * Partial states (parallel workers, partition-wise aggregation, Citus's
 * worker_partial_agg) are lists too.  Their union, the combine step, is the
 * list of both, kept in an expanded state of the combining aggregate so
 * that each partial is appended rather than the whole copied again; a list
 * and a filter combine by adding the list to the filter.  No union of
 * partial states overfills anything, however many there are.
 *
 * Past the bound (bloomfilter.agg_hash_memory or work_mem, whichever is
 * larger) a state settles: it becomes a scalable filter whose first
 * sub-filter is sized for the bound's count of elements, and grows from
 * there as bf_agg(element, template) would.  The result is then up to
 * 2-4 times a sized filter, and the union of two settled partial states is
 * refused with an error if it would exceed the rate (bloom_check_union_rate).
 *
 * src/type/agg.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "core/blocked.h"
#include "type/agg.h"
#include "type/keys.h"
#include "type/kind_bloom.h"
#include "type/kind_cuckoo.h"

static void bloom_state_count(BloomState *s);
static void bloom_state_list_grow(BloomState *s);
static BloomFilter *bloom_hashes_finish(const BloomHeader *hdr, const uint8 *payload);

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
	/*
	 * A list leaves with the cells it uses: the spare cells the state keeps
	 * for later rows are no part of the value.
	 */
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
static uint8 *
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
 * (bloom_state_list_grow, below).
 */
static void
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
static void
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
static void
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

		/*
		 * A list grows, and a layout that grows has no pending hashes
		 * (bloom_state_add adds each at once): the list is complete as it is.
		 */
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
static int
bloom_agg_partial_parts(FunctionCallInfo fcinfo)
{
	if (fcinfo->context && IsA(fcinfo->context, AggState) &&
		DO_AGGSPLIT_SKIPFINAL(((AggState *) fcinfo->context)->aggsplit))
		return max_parallel_workers_per_gather + (parallel_leader_participation ? 1 : 0);
	return 0;
}

/*
 * A new aggregate state, a copy of a template, is told how many partial
 * states there can be: as many as a parallel plan has if the aggregate
 * computes one that will be combined with others, else 0, so that a
 * template's own fill divisor (a value stored before input checked it)
 * never decides when the state grows.  The template is a value, or a shape
 * whose runs the caller wrote into the new state's payload.
 */
void
bloom_state_partial(FunctionCallInfo fcinfo, BloomState *s)
{
	s->nparts = bloom_agg_partial_parts(fcinfo);
	if (s->layout->partial)
		s->layout->partial(&s->hdr, s->payload, s->nparts);
}

/* a new aggregate state from a template value */
BloomState *
bloom_state_from(FunctionCallInfo fcinfo, MemoryContext aggcxt, Datum template)
{
	BloomView	v;
	BloomState *s;

	bloom_read(template, &v);
	s = bloom_state_new(aggcxt, &v.hdr, v.payload);
	bloom_state_partial(fcinfo, s);
	return s;
}

/* ---- the cuckoofilter state ---- */

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
	cf_add_hashes((CuckooFilter **) &s->fs.flat, &s->view, s->pending, n,
				  s->fs.eoh.eoh_context);
}

static void
cf_state_settle(ExpandedObjectHeader *eoh)
{
	cf_state_flush((CuckooState *) eoh);
}

/*
 * The state's methods: a flat state's (type/value.h), which reads the
 * value after settling the pending hashes into it.
 */
const BloomFlatMethods cf_state_methods = {
	{bloom_flat_state_size, bloom_flat_state_flatten},
	cf_state_settle
};

/*
 * A new state for cf_agg holding a copy of the value d (a template, or a
 * state that is not ours), or a new filter of the sizing arguments when d
 * is NULL.  The flat value lives in the state's context, where growth
 * reallocates it in place (cf_add_hashes).
 */
CuckooState *
cf_state_new(MemoryContext aggcxt, Datum d, int64 capacity, double error_rate)
{
	MemoryContext cxt = AllocSetContextCreate(aggcxt, "cuckoo filter state",
											  ALLOCSET_SMALL_SIZES);
	CuckooState *s = MemoryContextAllocZero(cxt, sizeof(CuckooState));
	MemoryContext old;

	EOH_init_header(&s->fs.eoh, &cf_state_methods.eom, cxt);
	if (d == (Datum) 0)
	{
		s->fs.flat = cf_create(capacity, error_rate, BLOOM_DEFAULT_SEED, cxt);
		cf_read(PointerGetDatum(s->fs.flat), &s->view);
	}
	else
	{
		old = MemoryContextSwitchTo(cxt);
		s->fs.flat = cf_copy(d, &s->view);
		MemoryContextSwitchTo(old);
	}
	return s;
}


/* ---- bf_agg(element): lists of hashes ---- */

/*
 * A state's list is at most bloomfilter.agg_hash_memory (kB, default 256 MB:
 * 16 million elements) or work_mem, whichever is larger.  As the probe
 * cache's bound, the default is well above work_mem's, since the point is
 * to size filters of millions of elements; hash aggregation counts the
 * states against hash_mem and spills groups as usual.  A value cannot
 * exceed BLOOM_MAX_BYTES in any case.
 */
#define BLOOM_HASHES_BOUND_KB		(256 * 1024)
/* the least bloomfilter.agg_hash_memory accepts: work_mem's own minimum */
#define BLOOM_HASHES_MIN_BOUND_KB	64

static int	bloom_agg_hash_memory = BLOOM_HASHES_BOUND_KB;

void
bloom_hashes_define_guc(void)
{
	DefineCustomIntVariable("bloomfilter.agg_hash_memory",
							"Memory an unsized bf_agg state may use for element hashes, if more than work_mem.",
							"Past it, the state becomes a scalable filter that grows.",
							&bloom_agg_hash_memory, BLOOM_HASHES_BOUND_KB, BLOOM_HASHES_MIN_BOUND_KB, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
}

/* a new state's room, in hashes: small groups stay small */
#define BLOOM_HASHES_FIRST_CELLS	16

/* hashes decoded from a list at a time: a few prefetch batches */
#define BLOOM_HASHES_CHUNK			(4 * BLOOM_ADD_BATCH)
/* chunks between checks for a cancel: a chunk is a batched add, quick */
#define BLOOM_HASHES_INTERRUPT_CHUNKS	16

/*
 * The distinct count is estimated (bloom_hashes_distinct, within about 1%);
 * a filter that turns out to hold more than this fraction over the count
 * it was sized for is built again for the count it holds.
 */
#define BLOOM_HASHES_SLACK			20	/* 1/20: 5% */

static uint64
bloom_hashes_bound(void)
{
	uint64		bound = (uint64) Max(work_mem, bloom_agg_hash_memory) * 1024;

	return Min(bound, BLOOM_MAX_BYTES / 2);
}

/* a list of hashes for bf_agg(element): empty, for a filter at error_rate */
BloomState *
bloom_state_new_hashes(FunctionCallInfo fcinfo, MemoryContext aggcxt,
					   double error_rate, uint32 expansion)
{
	BloomHeader hdr;
	BloomState *s;

	bloom_hashes_header(&hdr, error_rate, BLOOM_DEFAULT_SEED, BLOOM_HASHES_FIRST_CELLS);
	s = bloom_state_new(aggcxt, &hdr, NULL);
	bloom_hashes_init(&s->hdr, expansion, s->payload);
	s->nparts = bloom_agg_partial_parts(fcinfo);
	return s;
}

/*
 * The header of an empty scalable filter of capacity elements, at the rate,
 * seed and hash id of like, and the size of its payload; an error if it
 * cannot be made.
 */
static uint64
bloom_scalable_like(const BloomHeader *like, uint64 capacity, uint32 expansion,
					BloomHeader *hdr)
{
	uint64		payload_bytes;

	if (!bloom_scalable_header(hdr, capacity, like->error_rate, like->seed, expansion,
							   &payload_bytes))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cannot make a scalable bloom filter for " UINT64_FORMAT " elements at error rate %g",
						capacity, like->error_rate),
				 errdetail("Its first sub-filter, sized for half the rate, must fit the limit of %llu bytes and have a rate of at least %g.",
						   (unsigned long long) BLOOM_MAX_BYTES, BLOOM_MIN_ERROR_RATE)));
	hdr->hash_id = like->hash_id;
	hdr->key_type = like->key_type;
	return payload_bytes;
}

/* the hashes of a list, a chunk at a time, to add(arg, hashes, n) */
static void
bloom_hashes_each(const BloomHeader *hdr, const uint8 *payload,
				  void (*add) (void *arg, const BloomHash *hashes, size_t n), void *arg)
{
	BloomHash	chunk[BLOOM_HASHES_CHUNK];

	for (uint64 i = 0; i < hdr->bits_set; i += BLOOM_HASHES_CHUNK)
	{
		size_t		n = Min(BLOOM_HASHES_CHUNK, hdr->bits_set - i);

		for (size_t j = 0; j < n; j++)
			chunk[j] = bloom_hashes_get(payload, i + j);
		if ((i / BLOOM_HASHES_CHUNK) % BLOOM_HASHES_INTERRUPT_CHUNKS == 0)
			CHECK_FOR_INTERRUPTS();
		add(arg, chunk, n);
	}
}

static void
bloom_hashes_to_state(void *arg, const BloomHash *hashes, size_t n)
{
	bloom_state_add_many((BloomState *) arg, hashes, n);
}

/*
 * The state's list has reached its bound: the state becomes a scalable
 * filter sized for as many elements as the bound holds hashes (the same for
 * every state of the plan, so that settled partial states still combine),
 * with the hashes so far added, and grows from there.
 */
static void
bloom_state_settle(BloomState *s)
{
	BloomHeader list = s->hdr;
	uint8	   *list_payload = s->payload;
	void	   *list_alloc = s->alloc;
	uint32		expansion = bloom_hashes_expansion(list_payload);
	uint64		payload_bytes;

	payload_bytes = bloom_scalable_like(&list, bloom_hashes_bound() / BLOOM_HASHES_CELL,
										expansion, &s->hdr);
	s->payload = bloom_state_payload_alloc(s, payload_bytes, &s->alloc);
	s->layout = bloom_layout_for(s->hdr.layout);
	bloom_scalable_init(&s->hdr, expansion, s->payload);
	if (s->layout->partial && s->nparts > 0)
		s->layout->partial(&s->hdr, s->payload, s->nparts);
	bloom_hashes_each(&list, list_payload, bloom_hashes_to_state, s);
	pfree(list_alloc);
}

/*
 * More room for the state's list: twice the cells, or as many as the bound
 * holds if that is fewer; at the bound, the state settles into a filter.
 */
static void
bloom_state_list_grow(BloomState *s)
{
	uint64		bound_cells = (bloom_hashes_bound() - BLOOM_HASHES_PREFIX) / BLOOM_HASHES_CELL;
	uint64		cells = Min(2 * s->hdr.capacity, bound_cells);
	Size		offset = (char *) s->payload - (char *) s->alloc;

	if (cells <= s->hdr.capacity)
	{
		bloom_state_settle(s);
		return;
	}

	/*
	 * Enlarged in place (a list needs no cache-line alignment), so that the
	 * hashes so far are neither copied nor faulted in again.
	 */
	s->alloc = bloom_repalloc(s->alloc, offset + BLOOM_HASHES_PREFIX + cells * BLOOM_HASHES_CELL);
	s->payload = (uint8 *) s->alloc + offset;
	bloom_hashes_resize(&s->hdr, s->payload, s->payload, cells, false);
}

typedef struct BloomTake
{
	BloomHeader hdr;
	uint8	   *payload;
	uint64		items;
} BloomTake;

static void
bloom_hashes_to_first(void *arg, const BloomHash *hashes, size_t n)
{
	BloomTake  *t = (BloomTake *) arg;

	t->items = bloom_scalable_take(&t->hdr, t->payload, hashes, n);
}

/*
 * The filter a list of hashes becomes when it leaves an aggregate: a
 * scalable filter whose first sub-filter is sized for the list's distinct
 * count (bloom_hashes_capacity) and holds all of it.
 */
static BloomFilter *
bloom_hashes_finish(const BloomHeader *hdr, const uint8 *payload)
{
	uint64		capacity = bloom_hashes_capacity(hdr, payload);
	uint32		expansion = bloom_hashes_expansion(payload);

	for (;;)
	{
		BloomTake	t;
		uint64		payload_bytes = bloom_scalable_like(hdr, capacity, expansion, &t.hdr);
		BloomFilter *bf = bloom_palloc(CurrentMemoryContext, BLOOMFILTER_SIZE(payload_bytes));

		SET_VARSIZE(bf, BLOOMFILTER_SIZE(payload_bytes));
		t.payload = BLOOMFILTER_PAYLOAD(bf);
		t.items = 0;
		bloom_scalable_init(&t.hdr, expansion, t.payload);
		bloom_hashes_each(hdr, payload, bloom_hashes_to_first, &t);
		if (t.items <= capacity + capacity / BLOOM_HASHES_SLACK)
		{
			bloom_set_header(bf, &t.hdr);
			return bf;
		}
		/*
		 * The distinct count was estimated short, as hashes chosen to fool
		 * the estimate can make it: size the filter for the count it holds.
		 */
		capacity = t.items;
		pfree(bf);
	}
}

/* ---- unions with lists ---- */

/*
 * Whether bf_union(a, b) is this file's: an operand is a list of hashes, or
 * the first is the expanded state of a combine step that one made.
 */
bool
bloom_union_takes_hashes(FunctionCallInfo fcinfo)
{
	BloomView	a,
				b;

	if (bloom_state_of(PG_GETARG_DATUM(0)) != NULL)
		return true;
	bloom_read_header(PG_GETARG_DATUM(0), &a);
	bloom_read_header(PG_GETARG_DATUM(1), &b);
	return a.layout->holds_hashes || b.layout->holds_hashes;
}

/* the key type of a union that takes hashes, after checking they agree */
static uint32
bloom_union_check_hash(const BloomHeader *a, const BloomHeader *b)
{
	if (a->seed != b->seed || !bloom_hash_ids_alike(a->hash_id, b->hash_id))
		bloom_shape_error(a, b, false);
	return bloom_key_combine(a->key_type, a->bits_set == 0,
							 b->key_type, b->bits_set == 0,
							 gettext_noop("cannot unite filters of different key types"));
}

/*
 * A filter (not a list) into the state s: a list becomes the filter with
 * the list's hashes added (a new state, which the aggregate takes in place
 * of s); a filter is unioned in, if the union keeps the rate.
 */
static BloomState *
bloom_state_absorb_filter(BloomState *s, MemoryContext aggcxt, const BloomView *o)
{
	BloomState *t;
	BloomView	sv;

	if (s->layout->holds_hashes)
	{
		t = bloom_state_new(aggcxt, &o->hdr, o->payload);
		t->nparts = s->nparts;
		bloom_hashes_each(&s->hdr, s->payload, bloom_hashes_to_state, t);
		return t;
	}
	bloom_check_shape(&s->hdr, &o->hdr, false);
	bloom_state_reserve(s, o->layout->payload_bytes(&o->hdr));
	sv.hdr = s->hdr;
	sv.layout = s->layout;
	sv.payload = s->payload;
	bloom_check_union_rate(&sv, s->payload, o);
	if (!s->layout->combine(&s->hdr, s->payload, &o->hdr, o->payload, false))
		bloom_shape_error(&sv.hdr, &o->hdr, false);
	return s;
}

/*
 * The transition or combine step of an aggregate: its state (made expanded
 * here if it is not yet) takes the other operand, in place.
 */
static Datum
bloom_union_state(FunctionCallInfo fcinfo, MemoryContext aggcxt)
{
	BloomState *s = bloom_state_of(PG_GETARG_DATUM(0));
	BloomView	o;
	uint32		key_type;

	if (s == NULL)
	{
		BloomView	v;

		bloom_read(PG_GETARG_DATUM(0), &v);
		s = bloom_state_new(aggcxt, &v.hdr, v.payload);
	}
	bloom_state_count(s);
	bloom_read(PG_GETARG_DATUM(1), &o);
	key_type = bloom_union_check_hash(&s->hdr, &o.hdr);
	if (o.layout->holds_hashes)
		bloom_hashes_each(&o.hdr, o.payload, bloom_hashes_to_state, s);
	else
		s = bloom_state_absorb_filter(s, aggcxt, &o);
	s->hdr.key_type = key_type;
	PG_RETURN_DATUM(bloom_state_datum(s));
}

typedef struct BloomAddTo
{
	BloomFilter *bf;
	BloomView	view;
} BloomAddTo;

static void
bloom_hashes_to_value(void *arg, const BloomHash *hashes, size_t n)
{
	BloomAddTo *a = (BloomAddTo *) arg;

	a->bf = bloom_add_hashes(a->bf, &a->view, hashes, n);
}

/*
 * bf_union(a, b) where a list of hashes is involved (neither NULL): the
 * hashes of one added to a copy of the other, a filter if either is one,
 * else the longer list.  In an aggregate (bf_union_agg, a combine step) the
 * state takes them in place.
 */
Datum
bloom_union_hashes(FunctionCallInfo fcinfo)
{
	MemoryContext aggcxt;
	BloomView	a,
				b;
	BloomAddTo	into;
	int			keep;
	uint32		key_type;

	if (AggCheckCallContext(fcinfo, &aggcxt))
		return bloom_union_state(fcinfo, aggcxt);
	bloom_read(PG_GETARG_DATUM(0), &a);
	bloom_read(PG_GETARG_DATUM(1), &b);
	key_type = bloom_union_check_hash(&a.hdr, &b.hdr);
	if (a.layout->holds_hashes != b.layout->holds_hashes)
		keep = a.layout->holds_hashes ? 1 : 0;
	else
		keep = b.hdr.bits_set > a.hdr.bits_set ? 1 : 0;
	into.bf = bloom_copy(PG_GETARG_DATUM(keep), &into.view);
	into.view.hdr.key_type = key_type;
	bloom_set_header(into.bf, &into.view.hdr);
	if (keep == 0)
		bloom_hashes_each(&b.hdr, b.payload, bloom_hashes_to_value, &into);
	else
		bloom_hashes_each(&a.hdr, a.payload, bloom_hashes_to_value, &into);
	PG_RETURN_BLOOMFILTER_P(into.bf);
}
