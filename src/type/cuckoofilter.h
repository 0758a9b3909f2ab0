/*-------------------------------------------------------------------------
 *
 * cuckoofilter.h
 *	  The cuckoofilter varlena type and what its kind entry
 *	  (type/kind_cuckoo.c) offers the rest of the glue: reading a datum,
 *	  writable copies, new filters, adds that grow the value, the
 *	  aggregate's state.
 *
 * On disk a cuckoofilter is the varlena length word followed by the bytes
 * of core/cuckoo.c (48-byte header, then the sub-filters), with no
 * padding; nothing reads it through a struct cast.  The core reads every
 * field byte-wise, so a short (1-byte) varlena header needs no copy.
 *
 * src/type/cuckoofilter.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef CUCKOOFILTER_H
#define CUCKOOFILTER_H

#include "postgres.h"

#include "fmgr.h"
#include "utils/expandeddatum.h"

#include "core/cuckoo.h"
#include "type/keys.h"
#include "type/compat.h"

typedef struct varlena CuckooFilter;

#define CUCKOOFILTER_BYTES(cf)		((uint8 *) VARDATA(cf))

/*
 * What cuckoofilter's kind (type/kind_cuckoo.c) offers the rest of its
 * glue: a read-only view of any form of a value (validated against its
 * length), its bytes alone (not checked), a writable copy in the current
 * memory context opened into v, a new, empty filter (its parameters checked
 * with the user's errors), a key type written into a writable value, and
 * an add of one hash that grows the value as needed: if free_old (the value
 * is ours) it is reallocated in place, else the grown value is new memory
 * in cxt.  Growth raises 54000 at the size limit, before allocating.
 */
extern void cf_read(Datum d, CuckooView *v);
extern const uint8 *cf_read_bytes(Datum d, size_t *len);
extern CuckooFilter *cf_copy(Datum d, CuckooView *v);
extern CuckooFilter *cf_create(int64 capacity, double error_rate, int64 seed,
							   MemoryContext cxt);
extern void cf_set_key_type(CuckooView *v, uint32 key_type);
extern void cf_add_hash(CuckooFilter **cf, CuckooView *v, BloomHash h,
						MemoryContext cxt, bool free_old);
extern void cf_add_hashes(CuckooFilter **cf, CuckooView *v, const BloomHash *hashes,
						  int n, MemoryContext cxt);

/*
 * cf_agg's state (type/agg_state.c): an expanded object holding the
 * flat value, grown in place, its open view, and what element hashing
 * reads of its header.
 */
/* a build's hashes added at once (core/cuckoo.c, cuckoo_add_batch) */
#define CF_PENDING		128

typedef struct CuckooState
{
	ExpandedObjectHeader eoh;
	CuckooFilter *flat;			/* in eoh_context */
	CuckooView	view;			/* open on flat */
	BloomHashParams hash;
	/* hashes not added yet, in row order (cf_state_flush) */
	int			npending;
	BloomHash	pending[CF_PENDING];
} CuckooState;

extern CuckooState *cf_state_of(Datum d, bool rw_only);
extern CuckooState *cf_state_new(MemoryContext aggcxt, Datum d, int64 capacity,
								 double error_rate);
/* the state's methods, by which type/value.h's bloom_expanded_of finds it */
extern const ExpandedObjectMethods cf_state_methods;
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

/* what hashing an element reads of a cuckoo filter, as of a bloom filter */
static inline BloomHashParams
cf_hash_params(const CuckooHeader *hdr)
{
	BloomHashParams hp;

	hp.seed = hdr->seed;
	hp.key_type = hdr->key_type;
	hp.hash_id = hdr->hash_id;
	return hp;
}

pg_noreturn extern void cf_report_corrupt(CuckooCheck check);

#endif							/* CUCKOOFILTER_H */
