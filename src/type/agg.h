/*-------------------------------------------------------------------------
 *
 * agg.h
 *	  The aggregates' states, for both filter types, and what transition,
 *	  combine and final functions share (type/agg.c): ownership of the
 *	  state, the result handed over flat, partial states of parallel plans,
 *	  and the unsized bf_agg's lists of hashes with their unions.
 *
 * src/type/agg.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_AGG_H
#define BLOOMFILTER_AGG_H

#include "postgres.h"

#include "fmgr.h"
#include "utils/expandeddatum.h"

#include "core/blocked.h"
#include "core/cuckoo.h"
#include "type/keys.h"
#include "type/value.h"

/*
 * bf_agg's state: an expanded object owned by the aggregate's memory
 * context.  It holds the payload 64-byte aligned and a buffer of element
 * hashes not yet added, so that adds are applied in batches whose cache
 * misses overlap.  Flattening it (for output, a tuple, the combine step or
 * any other function) writes the pending hashes into the flat copy only, so
 * a reader never changes the state.
 */
#define BLOOM_PENDING	BLOOM_ADD_BATCH

typedef struct BloomState
{
	ExpandedObjectHeader eoh;
	BloomHeader hdr;			/* bits_set excludes the pending hashes, and
								 * if uncounted the adds since recount */
	const BloomLayout *layout;
	uint8	   *payload;			/* 64-byte aligned, in alloc */
	void	   *alloc;
	int			nparts;			/* partial states combined with it; 0: not partial */
	int			npending;
	BloomHash	pending[BLOOM_PENDING];
	bool		uncounted;
} BloomState;

extern const ExpandedObjectMethods bloom_state_methods;

/* our state passed read-write, which only its aggregate can do; else NULL */
static inline BloomState *
bloom_state_of(Datum d)
{
	return (BloomState *) bloom_expanded_of(d, &bloom_state_methods, true);
}

extern BloomState *bloom_state_from(FunctionCallInfo fcinfo, MemoryContext aggcxt,
									Datum template);
extern void bloom_state_partial(FunctionCallInfo fcinfo, BloomState *s);
extern BloomState *bloom_state_new(MemoryContext parent, const BloomHeader *hdr,
								   const uint8 *payload);
extern BloomState *bloom_state_new_hashes(FunctionCallInfo fcinfo, MemoryContext aggcxt,
										  double error_rate, uint32 expansion);
extern void bloom_state_flush(BloomState *s);

/*
 * Add h to the state, inline, as it runs once a row.  A layout that grows
 * takes each hash at once, so flattening never grows: straight in if it has
 * room, else through the flush, which grows it.
 */
static inline void
bloom_state_add(BloomState *s, BloomHash h)
{
	/* an unsized aggregate's list: a row is a 16-byte append */
	if (s->layout->holds_hashes && s->hdr.bits_set < s->hdr.capacity)
	{
		bloom_hashes_put(s->payload, s->hdr.bits_set++, h);
		return;
	}
	if (s->layout->grows && s->layout->add(&s->hdr, s->payload, &h, 1) == 1)
		return;

	/*
	 * Word by word: h arrives in two registers, and a 16-byte copy of it
	 * would go through the stack, where reading back two 8-byte stores as
	 * one load stalls (no store forwarding) on every row.
	 */
	s->pending[s->npending].h1 = h.h1;
	s->pending[s->npending].h2 = h.h2;
	s->npending++;
	if (s->npending == BLOOM_PENDING || s->layout->grows)
		bloom_state_flush(s);
}

static inline Datum
bloom_state_datum(BloomState *s)
{
	return EOHPGetRWDatum(&s->eoh);
}

/*
 * cf_agg's state: a flat state (type/value.h) holding the filter, grown in
 * place, with its open view, what element hashing reads of its header, and
 * the hashes not yet added, in row order.
 */
/* a build's hashes added at once (core/cuckoo.c, cuckoo_add_batch) */
#define CF_PENDING		128

typedef struct CuckooState
{
	BloomFlatState fs;			/* first: the expanded object and its value */
	CuckooView	view;			/* open on fs.flat */
	BloomHashParams hash;
	int			npending;
	BloomHash	pending[CF_PENDING];
} CuckooState;

extern const BloomFlatMethods cf_state_methods;

/* our state passed read-write, which only its aggregate can do; else NULL */
static inline CuckooState *
cf_state_of(Datum d)
{
	return (CuckooState *) bloom_expanded_of(d, &cf_state_methods.eom, true);
}

extern CuckooState *cf_state_new(MemoryContext aggcxt, Datum d, int64 capacity,
								 double error_rate);
extern void cf_state_flush(CuckooState *s);

/*
 * Add h to the state (pending until CF_PENDING have come or the value is
 * read); inline, as it runs once a row.
 */
static inline void
cf_state_add(CuckooState *s, BloomHash h)
{
	s->pending[s->npending].h1 = h.h1;
	s->pending[s->npending].h2 = h.h2;
	if (++s->npending == CF_PENDING)
		cf_state_flush(s);
}

static inline Datum
cf_state_datum(CuckooState *s)
{
	return EOHPGetRWDatum(&s->fs.eoh);
}

/* what aggregates' functions share */
extern void bloom_require_aggregate(FunctionCallInfo fcinfo, MemoryContext *aggcxt,
									const char *fname, const char *aggname);
extern bool bloom_agg_owns(FunctionCallInfo fcinfo, int argno);
extern BloomFilter *bloom_agg_result(Datum d);

/* bf_union where a list of hashes is involved */
extern bool bloom_union_takes_hashes(FunctionCallInfo fcinfo);
extern Datum bloom_union_hashes(FunctionCallInfo fcinfo);

/* bloomfilter.agg_hash_memory, defined when the module loads */
extern void bloom_hashes_define_guc(void);

#endif							/* BLOOMFILTER_AGG_H */
