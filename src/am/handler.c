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
 * (type/keys.c); a key of several columns hashes as ROW(a, b, ...)
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

#include "access/reloptions.h"
#include "catalog/index.h"
#include "catalog/pg_opclass.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "optimizer/plancat.h"
#include "storage/bufmgr.h"
#include "utils/catcache.h"
#include "utils/float.h"
#include "utils/syscache.h"

#include "am/index.h"

PG_FUNCTION_INFO_V1(bloomfilter_am_handler);

/* a cost no plan accepts: the access method has no scans to offer */
#define BLOOM_AM_NO_SCAN_COST	1.0e10

static relopt_kind bloom_am_relopt_kind;
static bool bloom_am_options_registered = false;

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
int64
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
