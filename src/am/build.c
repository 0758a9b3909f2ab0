/*-------------------------------------------------------------------------
 *
 * build.c
 *	  CREATE INDEX and REINDEX: the filter sized from the options or the
 *	  table, every row's key added in batches, then the metapage and the
 *	  data pages written at once (and the init fork of an unlogged index).
 *
 * src/am/build.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "access/tableam.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "miscadmin.h"
#include "optimizer/plancat.h"
#include "storage/bufmgr.h"
#include "utils/fmgrprotos.h"
#include "utils/memutils.h"

#include "am/index.h"
#include "type/kind_bloom.h"

typedef struct BloomAmBuildState
{
	BloomAmKeyTypes *keys;
	BloomHeader hdr;
	uint8	   *payload;
	double		heap_tuples;
	double		keys_added;
	int			npending;
	MemoryContext tmpcxt;		/* reset after every batch */
	BloomHash	pending[BLOOM_ADD_BATCH];
} BloomAmBuildState;

/* ---- build ---- */

/*
 * The filter's header for this build: from the options, or sized from the
 * table, exactly as bf_create(capacity, error_rate) would be (seed 0).
 */
static void
bloom_am_size(Relation heap, Relation index, BloomAmMeta *meta, BloomHeader *hdr)
{
	BloomAmOptions *opts = (BloomAmOptions *) index->rd_options;
	BlockNumber pages;
	double		tuples;
	double		allvisfrac;
	int64		capacity;

	memset(meta, 0, sizeof(*meta));
	meta->magic = BLOOM_AM_MAGIC;
	meta->version = BLOOM_AM_VERSION;
	meta->blocks_per_page = BLOOM_AM_BLOCKS_PER_PAGE;
	meta->natts = IndexRelationGetNumberOfKeyAttributes(index);
	capacity = bloom_am_capacity_option(opts);
	/* a flag there, and the option while it fits: the header has it whole */
	meta->capacity_option = (int32) Min(capacity, PG_INT32_MAX);
	meta->error_rate_option = opts ? opts->error_rate : BLOOM_AM_DEFAULT_ERROR_RATE;
	estimate_rel_size(heap, NULL, &pages, &tuples, &allvisfrac);
	meta->table_rows = Max(tuples, 0);

	if (capacity == 0)
		capacity = (int64) Min(Max(2.0 * meta->table_rows, BLOOM_AM_MIN_CAPACITY),
							   (double) INT_MAX);
	bloom_header_for(hdr, capacity, meta->error_rate_option, BLOOM_DEFAULT_SEED,
					 BLOOM_LAYOUT_BLOCKED512);
	bloom_header_encode(hdr, meta->filter_header);
	meta->ndatapages = (uint32) ((bloom_nblocks(hdr) + BLOOM_AM_BLOCKS_PER_PAGE - 1) /
								 BLOOM_AM_BLOCKS_PER_PAGE);

	/* deletions and key-changing updates from here on leave stale keys */
	meta->deleted_at_build =
		DatumGetInt64(DirectFunctionCall1(pg_stat_get_tuples_deleted,
										  ObjectIdGetDatum(RelationGetRelid(heap))));
	meta->updated_at_build =
		DatumGetInt64(DirectFunctionCall1(pg_stat_get_tuples_updated,
										  ObjectIdGetDatum(RelationGetRelid(heap)))) -
		DatumGetInt64(DirectFunctionCall1(pg_stat_get_tuples_hot_updated,
										  ObjectIdGetDatum(RelationGetRelid(heap))));
}

static void
bloom_am_build_flush(BloomAmBuildState *bs)
{
	bloom_add_batch(bs->payload, bloom_nblocks(&bs->hdr), bs->hdr.nhashes,
					bs->pending, bs->npending);
	bs->npending = 0;
	MemoryContextReset(bs->tmpcxt);
}

static void
bloom_am_build_callback(Relation index, ItemPointer tid, Datum *values,
						bool *isnull, bool tupleIsAlive, void *state)
{
	BloomAmBuildState *bs = (BloomAmBuildState *) state;
	MemoryContext old = MemoryContextSwitchTo(bs->tmpcxt);

	bs->heap_tuples += 1;
	if (bloom_am_key_hash(bs->keys, values, isnull, &bs->hdr,
						  &bs->pending[bs->npending]))
	{
		bs->keys_added += 1;
		if (++bs->npending == BLOOM_ADD_BATCH)
			bloom_am_build_flush(bs);
	}
	MemoryContextSwitchTo(old);
}

/* a new page at the end of the fork, locked */
static Buffer
bloom_am_new_buffer(Relation index, ForkNumber fork)
{
#if PG_VERSION_NUM >= 160000
	return ExtendBufferedRel(BMR_REL(index), fork, NULL, EB_LOCK_FIRST);
#else
	Buffer		buf = ReadBufferExtended(index, fork, P_NEW, RBM_NORMAL, NULL);

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	return buf;
#endif
}

/* page blkno of the fork, written whole and logged as a full image */
static void
bloom_am_write_page(Relation index, ForkNumber fork, BlockNumber blkno,
					uint16 kind, const void *data, Size len, Size area)
{
	Buffer		buf = bloom_am_new_buffer(index, fork);
	Page		page = BufferGetPage(buf);
	BloomAmPageOpaque *opaque;

	if (BufferGetBlockNumber(buf) != blkno)
		elog(ERROR, "index \"%s\" was extended to block %u instead of %u",
			 RelationGetRelationName(index), BufferGetBlockNumber(buf), blkno);
	START_CRIT_SECTION();
	PageInit(page, BLCKSZ, sizeof(BloomAmPageOpaque));
	opaque = BLOOM_AM_OPAQUE(page);
	opaque->kind = kind;
	opaque->page_id = BLOOM_AM_PAGE_ID;
	if (len > 0)
		memcpy((char *) page + BLOOM_AM_PAGE_DATA_OFFSET, data, len);
	((PageHeader) page)->pd_lower = BLOOM_AM_PAGE_DATA_OFFSET + area;
	MarkBufferDirty(buf);
	/* an unlogged index's init fork is logged all the same: recovery needs it */
	if (RelationNeedsWAL(index) || fork == INIT_FORKNUM)
		log_newpage_buffer(buf, true);
	END_CRIT_SECTION();
	UnlockReleaseBuffer(buf);
}

/* the metapage, then the data pages holding payload (NULL: all zero) */
static void
bloom_am_write(Relation index, ForkNumber fork, const BloomAmMeta *meta,
			   const uint8 *payload)
{
	BloomHeader hdr;
	uint64		nblocks;

	bloom_header_decode(meta->filter_header, &hdr);
	nblocks = bloom_nblocks(&hdr);
	bloom_am_write_page(index, fork, BLOOM_AM_METAPAGE_BLKNO, BLOOM_AM_META_PAGE,
						meta, sizeof(*meta), sizeof(*meta));
	for (uint32 p = 0; p < meta->ndatapages; p++)
	{
		uint64		first = (uint64) p * BLOOM_AM_BLOCKS_PER_PAGE;
		uint64		n = Min(BLOOM_AM_BLOCKS_PER_PAGE, nblocks - first);

		CHECK_FOR_INTERRUPTS();
		bloom_am_write_page(index, fork, p + 1, BLOOM_AM_DATA_PAGE,
							payload ? payload + first * BLOOM_BLOCK_BYTES : NULL,
							payload ? n * BLOOM_BLOCK_BYTES : 0,
							BLOOM_AM_BLOCKS_PER_PAGE * BLOOM_BLOCK_BYTES);
	}
}

IndexBuildResult *
bloom_am_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	BloomAmBuildState bs;
	BloomAmMeta meta;
	IndexBuildResult *result;

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data", RelationGetRelationName(index));

	memset(&bs, 0, sizeof(bs));
	bloom_am_size(heap, index, &meta, &bs.hdr);
	bs.keys = bloom_am_key_types(index, CurrentMemoryContext);
	for (int i = 0; i < bs.keys->natts; i++)
		bloom_am_check_hashable(&bs.keys->cols[i]);
	bs.payload = palloc0(bloom_nblocks(&bs.hdr) * BLOOM_BLOCK_BYTES);
	bs.tmpcxt = AllocSetContextCreate(CurrentMemoryContext, "bloomfilter index build",
									  ALLOCSET_DEFAULT_SIZES);

	table_index_build_scan(heap, index, indexInfo, true, true,
						   bloom_am_build_callback, &bs, NULL);
	bloom_am_build_flush(&bs);

	meta.heap_tuples = bs.heap_tuples;
	meta.keys_added = bs.keys_added;
	bloom_am_write(index, MAIN_FORKNUM, &meta, bs.payload);
	pfree(bs.payload);
	MemoryContextDelete(bs.tmpcxt);

	/* a relfilenode rebuilt in this command must not be read by an old cache */
	if (index->rd_amcache != NULL)
	{
		pfree(index->rd_amcache);
		index->rd_amcache = NULL;
	}

	result = palloc(sizeof(IndexBuildResult));
	result->heap_tuples = bs.heap_tuples;
	result->index_tuples = bs.keys_added;
	return result;
}

/* an unlogged index's init fork: the main fork's shape, no keys */
void
bloom_am_buildempty(Relation index)
{
	BloomAmMetaCache mc;

	/* index_build calls this right after the build wrote the main fork */
	bloom_am_read_meta(index, &mc);
	bloom_am_write(index, INIT_FORKNUM, &mc.meta, NULL);
}
