/*-------------------------------------------------------------------------
 *
 * held.h
 *	  Stored values held whole for the checks that come back to them
 *	  (type/held.c): one cache per query, and the values a session keeps
 *	  between queries.
 *
 * src/type/held.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_HELD_H
#define BLOOMFILTER_HELD_H

#include "postgres.h"

#include "fmgr.h"

#include "type/kind.h"

/* what names a stored value for a kind: the caches' key */
typedef struct BloomHeldKey
{
	struct varatt_external ptr;
	const BloomKind *kind;
} BloomHeldKey;

struct BloomQueryCache;
struct BloomKeptValue;
struct BloomHeld;

/*
 * What a call site of checks holds, in its fn_extra: the query's cache once
 * it meets a second out-of-line value (or the first again).  A query that
 * checks one stored value once, as a point check does, never makes a cache;
 * if that value is kept, the call site borrows it alone.
 */
typedef struct BloomCallSite
{
	struct BloomQueryCache *qc;
	bool		seen_one;
	BloomHeldKey first;			/* the first value met, until qc is made */
	struct BloomKeptValue *first_kept;	/* first, lent by the kept values: pinned */
	MemoryContextCallback unpin;
	struct BloomHeld *last;		/* qc's entry the last check used, held ... */
	uint64		last_releases;	/* ... while qc has let no value go since */
} BloomCallSite;

/*
 * The out-of-line value d (pointer ptr) for a check of weight elements,
 * held whole and opened, or NULL if it is not held (then the caller reads
 * what it needs).
 */
extern const BloomOpened *bloom_held_value(FunctionCallInfo fcinfo, const BloomKind *kind,
										   BloomCallSite *cs, Datum d,
										   const struct varatt_external *ptr,
										   bool sliceable, int weight);

/* bloomfilter.cache_memory and bloomfilter.session_cache_memory */
extern void bloom_held_define_guc(void);

#endif							/* BLOOMFILTER_HELD_H */
