/*-------------------------------------------------------------------------
 *
 * pages.c
 *	  The index's pages: the metapage, read once and cached in the relcache,
 *	  and the data pages holding the filter's blocks, each checked before it
 *	  is used (a damaged page raises XX001, never a crash).
 *
 * src/am/pages.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/index.h"
#include "storage/bufmgr.h"

#include "am/index.h"

/* ---- pages ---- */

pg_noreturn static void
bloom_am_corrupt(Relation index, BlockNumber blkno, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("index \"%s\" contains a corrupted page at block %u",
					RelationGetRelationName(index), blkno),
			 errdetail("%s", detail),
			 errhint("Rebuild the index with REINDEX.")));
}

/* the special space every page of ours has; the page's kind must match */
static void
bloom_am_check_page(Relation index, Page page, BlockNumber blkno, uint16 kind)
{
	BloomAmPageOpaque *opaque;

	if (PageIsNew(page))
		bloom_am_corrupt(index, blkno, "The page is empty.");
	if (PageGetSpecialSize(page) != MAXALIGN(sizeof(BloomAmPageOpaque)))
		bloom_am_corrupt(index, blkno, "The page's special space has the wrong size.");
	opaque = BLOOM_AM_OPAQUE(page);
	if (opaque->page_id != BLOOM_AM_PAGE_ID || opaque->kind != kind)
		bloom_am_corrupt(index, blkno, "The page is not of the kind its position requires.");
}

void
bloom_am_check_data_page(Relation index, Page page, BlockNumber blkno)
{
	bloom_am_check_page(index, page, blkno, BLOOM_AM_DATA_PAGE);
	if (((PageHeader) page)->pd_lower !=
		BLOOM_AM_PAGE_DATA_OFFSET + BLOOM_AM_BLOCKS_PER_PAGE * BLOOM_BLOCK_BYTES)
		bloom_am_corrupt(index, blkno, "The page's data area has the wrong size.");
}

/* the metapage, read and checked; no cache (the build and buildempty) */
void
bloom_am_read_meta(Relation index, BloomAmMetaCache *mc)
{
	Buffer		buf;
	Page		page;
	uint64		nblocks;

	if (RelationGetNumberOfBlocks(index) == 0)
		bloom_am_corrupt(index, BLOOM_AM_METAPAGE_BLKNO, "The index has no metapage.");
	buf = ReadBuffer(index, BLOOM_AM_METAPAGE_BLKNO);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	bloom_am_check_page(index, page, BLOOM_AM_METAPAGE_BLKNO, BLOOM_AM_META_PAGE);
	if (((PageHeader) page)->pd_lower < BLOOM_AM_PAGE_DATA_OFFSET + sizeof(BloomAmMeta))
		bloom_am_corrupt(index, BLOOM_AM_METAPAGE_BLKNO, "The metapage is too short.");
	memcpy(&mc->meta, (char *) page + BLOOM_AM_PAGE_DATA_OFFSET, sizeof(BloomAmMeta));
	UnlockReleaseBuffer(buf);

	if (mc->meta.magic != BLOOM_AM_MAGIC || mc->meta.version != BLOOM_AM_VERSION)
		bloom_am_corrupt(index, BLOOM_AM_METAPAGE_BLKNO,
						 "The metapage does not start with the access method's magic number and version.");
	bloom_header_decode(mc->meta.filter_header, &mc->hdr);
	if (bloom_load32le(mc->meta.filter_header) != BLOOM_MAGIC ||
		bloom_validate_header(&mc->hdr, BLOOM_HEADER_SIZE + mc->hdr.nbits / 8) != BLOOM_OK ||
		mc->hdr.layout != BLOOM_LAYOUT_BLOCKED512 ||
		!BLOOM_HASH_IS_EQ(mc->hdr.hash_id) || mc->hdr.bits_set != 0)
		bloom_am_corrupt(index, BLOOM_AM_METAPAGE_BLKNO,
						 "The filter header in the metapage is not valid.");
	nblocks = bloom_nblocks(&mc->hdr);
	if (mc->meta.blocks_per_page != BLOOM_AM_BLOCKS_PER_PAGE ||
		mc->meta.ndatapages != (nblocks + BLOOM_AM_BLOCKS_PER_PAGE - 1) / BLOOM_AM_BLOCKS_PER_PAGE ||
		RelationGetNumberOfBlocks(index) < 1 + (BlockNumber) mc->meta.ndatapages ||
		mc->meta.natts != IndexRelationGetNumberOfKeyAttributes(index))
		bloom_am_corrupt(index, BLOOM_AM_METAPAGE_BLKNO,
						 "The metapage does not match the index's size or columns.");
}

/*
 * The metapage as this backend caches it.  The build never changes it
 * afterwards, and a rebuild gives the index a new relfilenode, whose
 * relcache invalidation frees rd_amcache.
 */
const BloomAmMetaCache *
bloom_am_meta(Relation index)
{
	if (index->rd_amcache == NULL)
	{
		BloomAmMetaCache mc;

		bloom_am_read_meta(index, &mc);
		memset(mc.recent, 0, sizeof(mc.recent));	/* InvalidBuffer */
		index->rd_amcache = MemoryContextAlloc(index->rd_indexcxt, sizeof(mc));
		memcpy(index->rd_amcache, &mc, sizeof(mc));
	}
	return (const BloomAmMetaCache *) index->rd_amcache;
}

/*
 * A data page, pinned, as ReadBuffer reads it.  A point check costs less
 * than finding its page in the shared buffer mapping table (a hash lookup
 * whose buckets are cold), so the buffer a page was found in is remembered
 * in the relcache entry's amcache and tried first.  ReadRecentBuffer pins it
 * only if it still holds that very page: the same relfilenode, fork and
 * block number, valid.  Whatever moved in between (eviction, a REINDEX or
 * TRUNCATE giving the index a new relfilenode, a DROP) makes the tag differ
 * and we look the page up as usual; a pinned buffer with the right tag is
 * exactly the one ReadBuffer would have returned, so an answer can never
 * come from a stale page.  The relcache invalidation of a rebuild also
 * frees the hints with the metapage.  Temporary indexes (local buffers)
 * keep to ReadBuffer.
 */
Buffer
bloom_am_read_page(Relation index, BlockNumber blkno)
{
	BloomAmMetaCache *mc = (BloomAmMetaCache *) index->rd_amcache;
	Buffer	   *slot;

	if (mc == NULL || RelationUsesLocalBuffers(index))
		return ReadBuffer(index, blkno);
	slot = &mc->recent[blkno % BLOOM_AM_RECENT_PAGES];
	if (*slot != InvalidBuffer &&
		ReadRecentBuffer(BLOOM_REL_LOCATOR(index), MAIN_FORKNUM, blkno, *slot))
		return *slot;
	*slot = ReadBuffer(index, blkno);
	return *slot;
}

/*
 * The data page holding h's block, pinned, locked in mode and checked;
 * *block points at the block's bytes in it.
 */
Buffer
bloom_am_lock_block(Relation index, const BloomHeader *hdr, BloomHash h, int mode,
					uint8 **block)
{
	uint64		b = bloom_block_of(h.h1, bloom_nblocks(hdr));
	BlockNumber blkno = bloom_am_page_of(b);
	Buffer		buf = bloom_am_read_page(index, blkno);
	Page		page = BufferGetPage(buf);

	/*
	 * The check reads the page's header and special space, then the block:
	 * three lines that are usually not in the CPU's cache.  Asked for
	 * together, while the buffer is locked, their misses overlap.
	 */
	__builtin_prefetch(page);
	__builtin_prefetch((char *) page + BLCKSZ - MAXALIGN(sizeof(BloomAmPageOpaque)));
	__builtin_prefetch(bloom_am_block_in_page(page, b));
	LockBuffer(buf, mode);
	bloom_am_check_data_page(index, page, blkno);
	*block = bloom_am_block_in_page(page, b);
	return buf;
}
