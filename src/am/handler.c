/*-------------------------------------------------------------------------
 *
 * handler.c
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
 * (type/keys/canon.c); a key of several columns hashes as ROW(a, b, ...)
 * would.  So a snapshot (bf_index_filter) is byte for byte the value
 * bf_add_all would make of the same keys, and the type's functions answer
 * for it as the index does.  NULL keys of a one-column index are skipped,
 * as the aggregates skip NULL elements; a multi-column key is a row, which
 * is never NULL, and its NULL columns hash as a row's do.
 *
 * Pages (am/index.h): a metapage, written once by the build, then the
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
 * am/functions.c.  A Bloom filter cannot forget a key, so VACUUM
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
 * src/am/handler.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/index.h"
#include "catalog/pg_opclass.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "optimizer/plancat.h"
#include "storage/bufmgr.h"
#include "utils/catcache.h"
#include "utils/syscache.h"

#include "am/index.h"

PG_FUNCTION_INFO_V1(bloomfilter_am_handler);

/* a cost no plan accepts: the access method has no scans to offer */
#define BLOOM_AM_NO_SCAN_COST	1.0e10

/*
 * Whether index is one of ours: its access method's insert is ours, which
 * only the routine below hands the server.
 */
bool
bloom_am_is_ours(Relation index)
{
	return index->rd_rel->relkind == RELKIND_INDEX && index->rd_indam != NULL &&
		index->rd_indam->aminsert == bloom_am_insert;
}

/* a partitioned index of this access method (it has no pages of its own) */
bool
bloom_am_is_ours_partitioned(Relation index)
{
	return index->rd_rel->relkind == RELKIND_PARTITIONED_INDEX &&
		index->rd_indam != NULL && index->rd_indam->aminsert == bloom_am_insert;
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

/*
 * The access method's API struct.  Every flag and callback not named (scans
 * above all) is false or NULL; no strategies and no support functions:
 * nothing to search by.
 */
static const IndexAmRoutine bloom_am_routine = {
	.type = T_IndexAmRoutine,
	.amstrategies = 0,
	.amsupport = 0,
	.amoptsprocnum = 0,
	.amcanmulticol = true,
	.amoptionalkey = true,
	.amparallelvacuumoptions = VACUUM_OPTION_NO_PARALLEL,
	.amkeytype = InvalidOid,

	.ambuild = bloom_am_build,
	.ambuildempty = bloom_am_buildempty,
	.aminsert = bloom_am_insert,
	.ambulkdelete = bloom_am_bulkdelete,
	.amvacuumcleanup = bloom_am_vacuumcleanup,
	.amcostestimate = bloom_am_costestimate,
	.amoptions = bloom_am_options,
	.amvalidate = bloom_am_validate,
};

Datum
bloomfilter_am_handler(PG_FUNCTION_ARGS)
{
#if PG_VERSION_NUM >= 190000
	/* 19 keeps the pointer in the relcache, expecting a static struct */
	PG_RETURN_POINTER(&bloom_am_routine);
#else
	/* before 19 the relcache copies the struct and pfrees what we return */
	IndexAmRoutine *am = palloc(sizeof(IndexAmRoutine));

	memcpy(am, &bloom_am_routine, sizeof(IndexAmRoutine));
	PG_RETURN_POINTER(am);
#endif
}
