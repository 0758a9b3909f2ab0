/*-------------------------------------------------------------------------
 *
 * kind_cuckoo.h
 *	  The cuckoofilter kind (type/kind_cuckoo.c): its entry in the table of
 *	  filter kinds, and what it offers the rest of the glue besides.
 *
 * src/type/kind_cuckoo.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_KIND_CUCKOO_H
#define BLOOMFILTER_KIND_CUCKOO_H

#include "postgres.h"

#include "core/cuckoo.h"
#include "type/cuckoofilter.h"
#include "type/keys.h"
#include "type/kind.h"

extern const BloomKind cuckoofilter_kind;

/*
 * A read-only view of any form of a value (validated against its length),
 * a writable copy in the current memory context opened into v, a new,
 * empty filter in cxt (its parameters checked with the user's errors), a
 * key type written into a writable value, and adds of hashes in order to
 * a value of ours opened in v, reallocated in place when it grows.  Growth
 * raises 54000 at the size limit, before allocating.
 */
extern void cf_read(Datum d, CuckooView *v);
extern CuckooFilter *cf_copy(Datum d, CuckooView *v);
extern CuckooFilter *cf_create(int64 capacity, double error_rate, int64 seed,
							   MemoryContext cxt);
extern void cf_set_key_type(CuckooView *v, uint32 key_type);
extern void cf_add_hashes(CuckooFilter **cf, CuckooView *v, const BloomHash *hashes,
						  int n, MemoryContext cxt);

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

#endif							/* BLOOMFILTER_KIND_CUCKOO_H */
