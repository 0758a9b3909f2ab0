/*-------------------------------------------------------------------------
 *
 * toast.h
 *	  Chunks of an uncompressed out-of-line value fetched by number
 *	  (type/toast.c), for the checks that read only what they need.
 *
 * src/type/toast.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_TOAST_H
#define BLOOMFILTER_TOAST_H

#include "postgres.h"

#include "storage/itemptr.h"
#include "utils/relcache.h"

#include "core/header.h"
#include "type/compat.h"

/*
 * A reader holds the chunks fetched so far for one check, and where the first
 * of them lies, from which it predicts where the others do.
 */
typedef struct BloomChunkReader
{
	Relation	toastrel;
	struct varatt_external ptr;
	int32		extsize;		/* the value's length */
	int32		nchunks;		/* the value's count of chunks */
	int			nheld;
	int32	   *held;			/* chunk numbers held, sorted */
	char	   *data;			/* chunk held[i] at i * TOAST_MAX_CHUNK_SIZE */
	int32		anchor_seq;		/* a chunk found by the index; -1 before */
	ItemPointerData anchor_tid; /* where it lies */
	bool		anchor_remembered;	/* from an earlier reader, not yet seen to hold */
	BlockNumber nblocks;		/* toastrel's, once a prediction needs it */
	bool		nblocks_exact;	/* read now, rather than the size last seen */
	bool		first_known;	/* chunk 0 fetched: first_tid and first_xmin */
	ItemPointerData first_tid;	/* where chunk 0 lies */
	TransactionId first_xmin;	/* its inserting transaction, raw */
} BloomChunkReader;

/* Spans here are (offset, length) in the value, header included. */
extern void bloom_chunks_begin(BloomChunkReader *r, const struct varatt_external *ptr);
extern void bloom_chunks_end(BloomChunkReader *r);
extern bool bloom_chunks_held(const BloomChunkReader *r, const BloomSpan *span);
extern void bloom_chunks_read(BloomChunkReader *r, const BloomSpan *span,
							  const BloomSpan *also, int nalso, uint8 *dst);
extern bool bloom_chunks_gather(BloomChunkReader *r, const BloomSpan *spans,
								uint8 *const *dsts, int n, int max_fetch);
extern void bloom_chunks_first(BloomChunkReader *r, ItemPointer tid, TransactionId *xmin);

#endif							/* BLOOMFILTER_TOAST_H */
