/*-------------------------------------------------------------------------
 *
 * index.h
 *	  The bloomfilter index access method: its pages, its metapage, and what
 *	  the access method (am/handler.c) and the SQL functions that read an
 *	  index (am/functions.c) share.
 *
 * An index is one filter of layout blocked512 (core/blocked.c) over the
 * key of every row.  Block 0 is the metapage: the filter's 48-byte header,
 * encoded exactly as a bloomfilter value's, and what the build chose.  The
 * filter's 64-byte blocks follow on data pages 1..n, BLOOM_AM_BLOCKS_PER_PAGE
 * to a page, in order: filter block b is slot b % BLOOM_AM_BLOCKS_PER_PAGE of
 * page 1 + b / BLOOM_AM_BLOCKS_PER_PAGE.  The data pages, concatenated, are
 * the payload of a bloomfilter value, so a snapshot is a copy.
 *
 * src/am/index.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_AM_H
#define BLOOMFILTER_AM_H

#include "postgres.h"

#include "access/amapi.h"
#include "access/itup.h"
#include "nodes/execnodes.h"
#include "storage/buf.h"
#include "storage/bufpage.h"
#include "utils/rel.h"

#include "core/blocked.h"
#include "type/keys.h"
#include "type/compat.h"

/* page kinds, in every page's special space */
#define BLOOM_AM_META_PAGE		1
#define BLOOM_AM_DATA_PAGE		2
#define BLOOM_AM_PAGE_ID		0xBF17	/* marks a page of ours */

typedef struct BloomAmPageOpaque
{
	uint16		kind;			/* BLOOM_AM_META_PAGE or BLOOM_AM_DATA_PAGE */
	uint16		page_id;		/* BLOOM_AM_PAGE_ID */
	uint32		unused;
} BloomAmPageOpaque;

#define BLOOM_AM_OPAQUE(page) \
	((BloomAmPageOpaque *) PageGetSpecialPointer(page))

#define BLOOM_AM_METAPAGE_BLKNO	0
#define BLOOM_AM_PAGE_DATA_OFFSET	MAXALIGN(SizeOfPageHeaderData)

/* 64-byte blocks a data page holds: 127 on 8 kB pages */
#define BLOOM_AM_BLOCKS_PER_PAGE \
	((BLCKSZ - BLOOM_AM_PAGE_DATA_OFFSET - MAXALIGN(sizeof(BloomAmPageOpaque))) / \
	 BLOOM_BLOCK_BYTES)

#define BLOOM_AM_MAGIC			0x4D414642	/* "BFAM" */
#define BLOOM_AM_VERSION		1

/*
 * The metapage's contents.  Written once by the build and never changed
 * afterwards (inserts touch data pages only), so every backend may cache it
 * for as long as the relation's relcache entry lives: a REINDEX gives the
 * index a new relfilenode, which resets that cache.
 */
typedef struct BloomAmMeta
{
	uint32		magic;			/* BLOOM_AM_MAGIC */
	uint32		version;		/* BLOOM_AM_VERSION */
	uint8		filter_header[BLOOM_HEADER_SIZE];	/* as a bloomfilter value's,
													 * bits_set 0 */
	uint32		blocks_per_page;	/* BLOOM_AM_BLOCKS_PER_PAGE of the build */
	uint32		ndatapages;
	int32		capacity_option;	/* WITH (capacity) up to PG_INT32_MAX
									 * (filter_header has it whole), 0: from
									 * the table */
	int32		natts;			/* key columns */
	double		error_rate_option;
	double		table_rows;		/* the table's rows as the build estimated */
	double		heap_tuples;	/* rows the build scanned */
	double		keys_added;		/* keys the build added */
	int64		deleted_at_build;	/* the table's deleted rows then */
	int64		updated_at_build;	/* and non-HOT updates */
} BloomAmMeta;

/* the metapage as a backend keeps it in rd_amcache */
/* slots of the data pages' buffers a backend remembers (am/pages.c) */
#define BLOOM_AM_RECENT_PAGES	1024

typedef struct BloomAmMetaCache
{
	BloomAmMeta meta;
	BloomHeader hdr;			/* filter_header, decoded and checked */

	/*
	 * The buffer each data page was last found in by this backend, in slot
	 * blkno % BLOOM_AM_RECENT_PAGES: a hint, which ReadRecentBuffer checks
	 * against the buffer's tag before it is used.
	 */
	Buffer		recent[BLOOM_AM_RECENT_PAGES];
} BloomAmMetaCache;

/* options of CREATE INDEX ... WITH (...) */
typedef struct BloomAmOptions
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	int			capacity_offset;	/* of the capacity's text; 0: not given */
	double		error_rate;
} BloomAmOptions;

#define BLOOM_AM_DEFAULT_ERROR_RATE 0.01
/* above it a filter would answer "maybe" for most keys: no use to a scan */
#define BLOOM_AM_MAX_ERROR_RATE	0.5
/* bf_index_contains_all checks for a cancel every this many keys (a page read each) */
#define BLOOM_AM_INTERRUPT_KEYS	1024
/* without a capacity: twice the table's rows, at least this */
#define BLOOM_AM_MIN_CAPACITY	100000

/* the key columns' types, resolved once per statement (ii_AmCache) */
typedef struct BloomAmKeyTypes
{
	int			natts;
	BloomElemType cols[FLEXIBLE_ARRAY_MEMBER];
} BloomAmKeyTypes;

/* handler.c: the handler */
extern bool bloom_am_is_ours(Relation index);
extern bool bloom_am_is_ours_partitioned(Relation index);

/* options.c: WITH (capacity, error_rate) */
extern int64 bloom_am_capacity_option(const BloomAmOptions *opts);
extern bytea *bloom_am_options(Datum reloptions, bool validate);

/* build.c */
extern IndexBuildResult *bloom_am_build(Relation heap, Relation index,
										IndexInfo *indexInfo);
extern void bloom_am_buildempty(Relation index);

/* insert.c: keys and inserts */
extern BloomAmKeyTypes *bloom_am_key_types(Relation index, MemoryContext cxt);
extern bool bloom_am_key_hash(BloomAmKeyTypes *keys, const Datum *values,
							  const bool *isnull, const BloomHeader *hdr,
							  BloomHash *h);
extern void bloom_am_check_hashable(BloomElemType *et);
extern bool bloom_am_insert(Relation index, Datum *values, bool *isnull,
							ItemPointer ht_ctid, Relation heap,
							IndexUniqueCheck checkUnique, bool indexUnchanged,
							IndexInfo *indexInfo);

/* citus.c: where a table's rows live */
extern bool bloom_am_rows_elsewhere(Relation index, Oid heapoid);

/* citus_shards.c: a Citus table's shards asked */
extern void bloom_am_citus_contains(Relation index, Oid heapoid, Oid fnoid, Oid keytype,
									Oid collation, int n, const Datum *keys,
									const bool *ask, Datum *answers);
extern Datum bloom_am_citus_filter(Relation index, Oid heapoid, Oid fnoid);
extern Datum bloom_am_citus_info(Relation index, Oid heapoid, Oid fnoid);
extern void bloom_am_places_forget(Oid relid);

/* partitions.c: the leaves of a partitioned index */
typedef struct BloomAmLeaf
{
	Oid			heapoid;		/* a leaf partition */
	Oid			indexoid;		/* its index attached to the tree */
} BloomAmLeaf;

typedef struct BloomAmTree
{
	int			nleaves;
	int			maxleaves;
	BloomAmLeaf *leaves;
	int			nlocked;		/* tables locked, to release */
	int			maxlocked;
	Oid		   *locked;
} BloomAmTree;

extern void bloom_am_tree(Relation index, Oid heapoid, BloomAmTree *tree);
extern void bloom_am_tree_release(BloomAmTree *tree);
extern void bloom_am_trees_forget(Oid relid);
extern Relation bloom_am_leaf_open(const BloomAmLeaf *leaf);

/* pages.c */
extern void bloom_am_read_meta(Relation index, BloomAmMetaCache *mc);
extern const BloomAmMetaCache *bloom_am_meta(Relation index);
extern void bloom_am_check_data_page(Relation index, Page page, BlockNumber blkno);
extern Buffer bloom_am_read_page(Relation index, BlockNumber blkno);
extern Buffer bloom_am_lock_block(Relation index, const BloomHeader *hdr, BloomHash h,
								  int mode, uint8 **block);

static inline BlockNumber
bloom_am_page_of(uint64 block)
{
	return (BlockNumber) (1 + block / BLOOM_AM_BLOCKS_PER_PAGE);
}

/* the 64-byte block's bytes in its data page */
static inline uint8 *
bloom_am_block_in_page(Page page, uint64 block)
{
	return (uint8 *) page + BLOOM_AM_PAGE_DATA_OFFSET +
		(block % BLOOM_AM_BLOCKS_PER_PAGE) * BLOOM_BLOCK_BYTES;
}

#endif							/* BLOOMFILTER_AM_H */
