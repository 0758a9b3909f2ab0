/*-------------------------------------------------------------------------
 *
 * insert.c
 *	  An index insert: the key's columns hashed as the bloomfilter type
 *	  hashes them, and the k bits of its block set in the one data page that
 *	  holds it, logged as a generic WAL record of that block.
 *
 * src/am/insert.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xloginsert.h"
#include "catalog/index.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "am/index.h"

/* ---- keys ---- */

/*
 * Types the filter cannot hash so that equal values match (type/keys/canon.c
 * refuses them when hashing) are refused when the index is created, not at
 * the first row.
 */
void
bloom_am_check_hashable(BloomElemType *et)
{
	if (et->nondeterministic)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloomfilter indexes cannot hash text under the nondeterministic collation \"%s\"",
						get_collation_name(et->collation)),
				 errhint("Index a normalized expression (for example lower()) under a deterministic collation.")));
	if (et->kind == BLOOM_ELEM_ENUM)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloomfilter indexes cannot hash values of the enum type %s",
						format_type_be(et->typid)),
				 errdetail("An enum value hashes by its label, which ALTER TYPE ... RENAME VALUE can change, and the index would then miss it."),
				 errhint("Index a key that does not change with the catalog, such as the integer key of a lookup table.")));
	if (et->kind == BLOOM_ELEM_ARRAY)
		bloom_am_check_hashable(et->elem);
	else if (et->kind == BLOOM_ELEM_RECORD ||
			 (et->kind == BLOOM_ELEM_SEND && !et->send_is_canonical))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloomfilter indexes cannot hash values of type %s",
						format_type_be(et->typid)),
				 errdetail("Equal values of this type do not all have the same binary form.")));
}

BloomAmKeyTypes *
bloom_am_key_types(Relation index, MemoryContext cxt)
{
	int			natts = IndexRelationGetNumberOfKeyAttributes(index);
	BloomAmKeyTypes *keys;

	keys = MemoryContextAllocZero(cxt, offsetof(BloomAmKeyTypes, cols) +
								  natts * sizeof(BloomElemType));
	keys->natts = natts;
	for (int i = 0; i < natts; i++)
		bloom_elem_init(&keys->cols[i], TupleDescAttr(RelationGetDescr(index), i)->atttypid,
						index->rd_indcollation[i], cxt);
	return keys;
}

/* the hash of a key; false for the NULL key of a one-column index */
bool
bloom_am_key_hash(BloomAmKeyTypes *keys, const Datum *values, const bool *isnull,
				  const BloomHeader *hdr, BloomHash *h)
{
	if (keys->natts == 1)
	{
		if (isnull[0])
			return false;
		*h = bloom_elem_hash(&keys->cols[0], values[0], bloom_hash_params(hdr));
		return true;
	}
	*h = bloom_elem_hash_row(keys->cols, keys->natts, values, isnull, bloom_hash_params(hdr));
	return true;
}

/* ---- insert ---- */

/*
 * WAL for one block of a data page that an insert changed, as a generic WAL
 * record (RM_GENERIC_ID): a delta of one fragment, the block's 64 bytes at
 * their offset in the page, which generic_redo writes back in place.
 *
 * XXX This writes the record GenericXLogFinish would write, without the
 * GenericXLog calls: those copy the 8 kB page, then compare it byte by
 * byte with the original to find the changed bytes, about ten microseconds
 * an insert, three quarters of the cost of a COPY into the table, when we
 * know already which 64 bytes changed.  It relies on the fragment format
 * of generic_xlog.c (offset and length as OffsetNumber, then the bytes),
 * which has been the same since 9.6 and would need a new WAL page magic to
 * change; the replication test replays these records with
 * wal_consistency_checking = generic, which compares every replayed page
 * with the primary's.
 */
static void
bloom_am_log_block(Buffer buf, const uint8 *block)
{
	OffsetNumber offset = (OffsetNumber) (block - (uint8 *) BufferGetPage(buf));
	OffsetNumber length = BLOOM_BLOCK_BYTES;
	char		delta[2 * sizeof(OffsetNumber) + BLOOM_BLOCK_BYTES];
	XLogRecPtr	lsn;

	memcpy(delta, &offset, sizeof(offset));
	memcpy(delta + sizeof(offset), &length, sizeof(length));
	memcpy(delta + 2 * sizeof(offset), block, BLOOM_BLOCK_BYTES);
	XLogRegisterBuffer(0, buf, REGBUF_STANDARD);
	XLogRegisterBufData(0, delta, sizeof(delta));
	/* not inside PageSetLSN, a macro that on 15 evaluates it twice */
	lsn = XLogInsert(RM_GENERIC_ID, 0);
	PageSetLSN(BufferGetPage(buf), lsn);
}

static void
bloom_am_add(Relation index, const BloomHeader *hdr, BloomHash h)
{
	uint8	   *block;
	Buffer		buf = bloom_am_lock_block(index, hdr, h, BUFFER_LOCK_EXCLUSIVE, &block);
	bool		logged = RelationNeedsWAL(index);

	/* a key whose bits are all set already changes nothing: no WAL */
	if (!bloom_block_test_hash(block, h, hdr->nhashes))
	{
		if (logged)
			XLogBeginInsert();
		START_CRIT_SECTION();
		bloom_block_add_hash(block, h, hdr->nhashes);
		MarkBufferDirty(buf);
		if (logged)
			bloom_am_log_block(buf, block);
		END_CRIT_SECTION();
	}
	UnlockReleaseBuffer(buf);
}

bool
bloom_am_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
				Relation heap, IndexUniqueCheck checkUnique, bool indexUnchanged,
				IndexInfo *indexInfo)
{
	BloomAmKeyTypes *keys = (BloomAmKeyTypes *) indexInfo->ii_AmCache;
	const BloomAmMetaCache *mc = bloom_am_meta(index);
	BloomHash	h;

	if (keys == NULL)
	{
		keys = bloom_am_key_types(index, indexInfo->ii_Context);
		indexInfo->ii_AmCache = keys;
	}
	if (bloom_am_key_hash(keys, values, isnull, &mc->hdr, &h))
		bloom_am_add(index, &mc->hdr, h);
	return false;
}
