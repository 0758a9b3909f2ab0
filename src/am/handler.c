/*-------------------------------------------------------------------------
 *
 * bloomfilter_am.c
 *	  The bloomfilter index access method: one Bloom filter over the key of
 *	  every row of a table, kept current by the server as rows are written.
 *
 * Why an index.  A filter kept as a value is rewritten whole by every
 * statement that changes it.  An index is written a few bytes at a time,
 * crash-safe through WAL, replicated, dumped as its definition and rebuilt
 * online by REINDEX CONCURRENTLY; all of that comes with the access method.
 *
 * The filter.  The build sizes a blocked512 filter exactly as
 * bf_create(capacity, error_rate) does (seed 0, hash id 2) and adds every
 * key with the same canonical bytes and hash as the bloomfilter type
 * (bloomfilter_elem.c); a key of several columns hashes as ROW(a, b, ...)
 * would.  So a snapshot (bf_index_filter) is byte for byte the value
 * bf_add_all would make of the same keys, and the type's functions answer
 * for it as the index does.  NULL keys of a one-column index are skipped,
 * as the aggregates skip NULL elements; a multi-column key is a row, which
 * is never NULL, and its NULL columns hash as a row's do.
 *
 * Pages (bloomfilter_am.h): a metapage, written once by the build, then the
 * filter's 64-byte blocks, 127 to an 8 kB page.  An insert hashes the key,
 * locks the one data page holding the key's block and sets k bits there,
 * logged as a generic WAL record of that block (bloom_am_log_block), which
 * any server replays without this library; inserts into different pages
 * never wait for each other.  The metapage is never written after the
 * build, so it is cached in the relcache (rd_amcache).  A key whose bits
 * are all set already changes nothing and writes no WAL.  The filter's count of bits set is not
 * kept (it would serialize every insert on one counter): a snapshot counts.
 *
 * What the access method does not do.  It has no scans: no strategies, no
 * amgettuple or amgetbitmap, and a cost estimate no plan could accept, so
 * the planner never uses it; keys are checked through the SQL functions of
 * bloomfilter_am_func.c.  A Bloom filter cannot forget a key, so VACUUM
 * removes nothing (it reports the index's size) and a deleted row's key
 * stays until REINDEX, which bf_index_info says when to run.  CREATE INDEX
 * CONCURRENTLY's validation pass, finding no entries, adds every row again:
 * idempotent for a filter.
 *
 * Sizing.  WITH (capacity = n, error_rate = p); without a capacity, twice
 * the table's rows as the planner estimates them when the index is built,
 * at least BLOOM_AM_MIN_CAPACITY (partial indexes are sized from the whole
 * table: the predicate's share is unknown before the scan).
 *
 * src/bloomfilter_am.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <math.h>

#include "access/amapi.h"
#include "access/htup_details.h"
#include "access/reloptions.h"
#include "access/rmgr.h"
#include "access/tableam.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "catalog/pg_opclass.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "nodes/pathnodes.h"
#include "optimizer/plancat.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "am/index.h"
#include "type/value.h"

PG_FUNCTION_INFO_V1(bloomfilter_am_handler);

/* a cost no plan accepts: the access method has no scans to offer */
#define BLOOM_AM_NO_SCAN_COST	1.0e10

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

static bool bloom_am_insert(Relation index, Datum *values, bool *isnull,
							ItemPointer ht_ctid, Relation heap,
							IndexUniqueCheck checkUnique, bool indexUnchanged,
							IndexInfo *indexInfo);

static relopt_kind bloom_am_relopt_kind;
static bool bloom_am_options_registered = false;

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
static void
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
		mc->hdr.hash_id != BLOOM_HASH_MURMUR3_EQ || mc->hdr.bits_set != 0)
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
		index->rd_amcache = MemoryContextAlloc(index->rd_indexcxt, sizeof(mc));
		memcpy(index->rd_amcache, &mc, sizeof(mc));
	}
	return (const BloomAmMetaCache *) index->rd_amcache;
}

bool
bloom_am_is_ours(Relation index)
{
	return index->rd_rel->relkind == RELKIND_INDEX && index->rd_indam != NULL &&
		index->rd_indam->aminsert == bloom_am_insert;
}

/* ---- keys ---- */

/*
 * Types the filter cannot hash so that equal values match (bloomfilter_elem.c
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

/* ---- options ---- */

/*
 * WITH (capacity = n) is a bigint, as bf_create's capacity is, which no
 * integer option of PostgreSQL 15 holds: it is a string option read here.
 * An index made by 1.3 has its integer option stored as text in
 * pg_class.reloptions ("capacity=1000"), so this reads every value that
 * option read, as it did (PostgreSQL's parse_int: decimal, 0x hexadecimal
 * or 0 octal, a fraction or an exponent rounded, spaces after), only
 * over bigint's range.  False if value is no number; *in_range false if it
 * is one beyond bigint.
 */
static bool
bloom_am_parse_capacity(const char *value, int64 *result, bool *in_range)
{
	char	   *end;
	int64		n;

	*in_range = true;
	errno = 0;
	n = strtoi64(value, &end, 0);
	if (*end == '.' || *end == 'e' || *end == 'E' || errno == ERANGE)
	{
		double		d;

		errno = 0;
		d = strtod(value, &end);
		if (end == value || isnan(d))
			return false;
		d = rint(d);
		/* -(double) PG_INT64_MIN is 2^63, the first double past bigint */
		if (errno == ERANGE || !(d >= (double) PG_INT64_MIN && d < -(double) PG_INT64_MIN))
			*in_range = false;
		else
			n = (int64) d;
	}
	else if (end == value)
		return false;
	while (isspace((unsigned char) *end))
		end++;
	*result = n;
	return *end == '\0';
}

/*
 * The validator of capacity, at CREATE INDEX and ALTER INDEX ... SET: 1 to
 * bigint's largest, as bf_create takes (22023 otherwise, as there).  0
 * meant "from the table" up to 1.3, where bf_create refuses it; leaving
 * the option out says that now.  pg_upgrade restores a 1.3 index's
 * definition as it was, so there 0 still passes, and means what it meant.
 */
static void
bloom_am_validate_capacity(const char *value)
{
	int64		capacity;
	bool		in_range;

	/* add_string_reloption checks the default, which is no value */
	if (value == NULL)
		return;
	if (!bloom_am_parse_capacity(value, &capacity, &in_range))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for integer option \"%s\": %s", "capacity", value)));
	if (!in_range || capacity < 1)
	{
		if (in_range && capacity == 0 && IsBinaryUpgrade)
			return;
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("value %s out of bounds for option \"%s\"", value, "capacity"),
				 errdetail("Valid values are between \"1\" and \"" INT64_FORMAT "\".",
						   PG_INT64_MAX),
				 (in_range && capacity == 0) ?
				 errhint("Leave the option out to size the filter from the table.") : 0));
	}
}

/* the capacity option of a relcache entry's options; 0 when not given */
static int64
bloom_am_capacity_option(const BloomAmOptions *opts)
{
	int64		capacity;
	bool		in_range;

	if (opts == NULL || opts->capacity_offset == 0)
		return 0;
	/* validated when it was set (or by 1.3, as an integer) */
	if (!bloom_am_parse_capacity((const char *) opts + opts->capacity_offset,
								 &capacity, &in_range) || !in_range || capacity < 0)
		elog(ERROR, "invalid capacity option \"%s\"",
			 (const char *) opts + opts->capacity_offset);
	return capacity;
}

/*
 * error_rate is a real option whose bounds PostgreSQL's own check would
 * print with six decimals ("0.000000" for 1e-10); they are checked here
 * instead, with the real ones in the message.
 */
static void
bloom_am_validate_error_rate(double error_rate)
{
	if (!(error_rate >= BLOOM_MIN_ERROR_RATE && error_rate <= BLOOM_AM_MAX_ERROR_RATE))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("value %g out of bounds for option \"%s\"", error_rate, "error_rate"),
				 errdetail("Valid values are between \"%g\" and \"%g\".",
						   BLOOM_MIN_ERROR_RATE, BLOOM_AM_MAX_ERROR_RATE)));
}

static bytea *
bloom_am_options(Datum reloptions, bool validate)
{
	static const relopt_parse_elt tab[] = {
		{"capacity", RELOPT_TYPE_STRING, offsetof(BloomAmOptions, capacity_offset)},
		{"error_rate", RELOPT_TYPE_REAL, offsetof(BloomAmOptions, error_rate)},
	};
	BloomAmOptions *opts;

	/* registered on first use, which every path to the options goes through */
	if (!bloom_am_options_registered)
	{
		bloom_am_relopt_kind = add_reloption_kind();
		add_string_reloption(bloom_am_relopt_kind, "capacity",
							 "Keys the filter is sized for (not set: twice the table's rows at build time)",
							 NULL, bloom_am_validate_capacity, AccessExclusiveLock);
		add_real_reloption(bloom_am_relopt_kind, "error_rate",
						   "False-positive rate the filter is sized for at its capacity",
						   BLOOM_AM_DEFAULT_ERROR_RATE, -get_float8_infinity(),
						   get_float8_infinity(), AccessExclusiveLock);
		bloom_am_options_registered = true;
	}
	opts = (BloomAmOptions *) build_reloptions(reloptions, validate, bloom_am_relopt_kind,
											   sizeof(BloomAmOptions), tab, lengthof(tab));
	if (validate && opts != NULL)
		bloom_am_validate_error_rate(opts->error_rate);
	return (bytea *) opts;
}

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

static IndexBuildResult *
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
static void
bloom_am_buildempty(Relation index)
{
	BloomAmMetaCache mc;

	/* index_build calls this right after the build wrote the main fork */
	bloom_am_read_meta(index, &mc);
	bloom_am_write(index, INIT_FORKNUM, &mc.meta, NULL);
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
	Buffer		buf = ReadBuffer(index, blkno);

	LockBuffer(buf, mode);
	bloom_am_check_data_page(index, BufferGetPage(buf), blkno);
	*block = bloom_am_block_in_page(BufferGetPage(buf), b);
	return buf;
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

static bool
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

/* ---- vacuum ---- */

/*
 * A Bloom filter cannot forget a key: nothing is removed and the callback
 * is never asked (the index holds no row pointers).  REINDEX forgets.
 */
static IndexBulkDeleteResult *
bloom_am_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
					IndexBulkDeleteCallback callback, void *callback_state)
{
	if (stats == NULL)
		stats = palloc0(sizeof(IndexBulkDeleteResult));
	return stats;
}

/* statistics only: the index's pages, and the table's rows as its entries */
static IndexBulkDeleteResult *
bloom_am_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	if (info->analyze_only)
		return stats;
	if (stats == NULL)
		stats = palloc0(sizeof(IndexBulkDeleteResult));
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	stats->num_index_tuples = Max(info->num_heap_tuples, 0);
	stats->estimated_count = info->estimated_count;
	return stats;
}

/* ---- planner ---- */

/*
 * No scan exists (no amgettuple, no amgetbitmap), so no path using the index
 * survives; the planner can still ask for a cost (a partial index whose
 * predicate the query implies), and gets one no plan accepts.
 */
static void
bloom_am_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
					  Cost *indexStartupCost, Cost *indexTotalCost,
					  Selectivity *indexSelectivity, double *indexCorrelation,
					  double *indexPages)
{
	*indexStartupCost = BLOOM_AM_NO_SCAN_COST;
	*indexTotalCost = BLOOM_AM_NO_SCAN_COST;
	*indexSelectivity = 1.0;
	*indexCorrelation = 0.0;
	*indexPages = path->indexinfo->pages;
}

/* an operator class of ours names a type and nothing else */
static bool
bloom_am_validate(Oid opclassoid)
{
	HeapTuple	tup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid));
	Form_pg_opclass form;
	CatCList   *oprs;
	CatCList   *procs;
	bool		ok;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	form = (Form_pg_opclass) GETSTRUCT(tup);
	oprs = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(form->opcfamily));
	procs = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(form->opcfamily));
	ok = oprs->n_members == 0 && procs->n_members == 0;
	if (!ok)
		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("bloomfilter operator family of operator class \"%s\" has operators or support functions",
						NameStr(form->opcname)),
				 errdetail("The access method uses neither: keys are hashed by their type.")));
	ReleaseCatCacheList(oprs);
	ReleaseCatCacheList(procs);
	ReleaseSysCache(tup);
	return ok;
}

Datum
bloomfilter_am_handler(PG_FUNCTION_ARGS)
{
	IndexAmRoutine *am = makeNode(IndexAmRoutine);

	/* no strategies and no support functions: nothing to search by */
	am->amstrategies = 0;
	am->amsupport = 0;
	am->amoptsprocnum = 0;
	am->amcanmulticol = true;
	am->amoptionalkey = true;
	am->amparallelvacuumoptions = VACUUM_OPTION_NO_PARALLEL;
	am->amkeytype = InvalidOid;

	am->ambuild = bloom_am_build;
	am->ambuildempty = bloom_am_buildempty;
	am->aminsert = bloom_am_insert;
	am->ambulkdelete = bloom_am_bulkdelete;
	am->amvacuumcleanup = bloom_am_vacuumcleanup;
	am->amcostestimate = bloom_am_costestimate;
	am->amoptions = bloom_am_options;
	am->amvalidate = bloom_am_validate;
	/* every flag and callback not set (scans above all) stays false or NULL */

	PG_RETURN_POINTER(am);
}
