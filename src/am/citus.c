/*-------------------------------------------------------------------------
 *
 * citus.c
 *	  Where a table's rows live: the bf_index_* functions refuse an index
 *	  whose table is a Citus table's shell.
 *
 * Citus keeps the rows of a distributed, reference or local table in shard
 * relations (on the workers, or on the coordinator for a Citus local
 * table), and the relation named by the user, which Citus lists in its
 * catalog pg_catalog.pg_dist_partition, is a shell that holds none of
 * them.  CREATE INDEX on such a table builds the index on every shard and
 * on the shell, and a bloomfilter index of the shell is a filter of no
 * keys: it would answer "certainly not there" for every row of the table.
 * So the SQL functions that read an index (am/functions.c) refuse one whose
 * table is listed there.  A shard's own index, on the node that holds the
 * shard, answers as on any table: Citus does not list shard relations.
 *
 * Cost.  Without Citus the check is one lookup of pg_dist_partition's name,
 * done once: the answer is kept until pg_class changes under that name
 * (a syscache invalidation whose hash is the name's, as CREATE EXTENSION
 * citus and DROP EXTENSION citus send).  With Citus, the answer for a
 * table is kept for as long as its relcache entry would be: Citus's
 * trigger on pg_dist_partition (citus_dist_partition_cache_invalidate)
 * sends a relcache invalidation of the table for every row it inserts,
 * updates or deletes, which Citus's own metadata cache relies on too, and
 * am/functions.c forwards every relcache invalidation here
 * (bloom_am_places_forget).  Invalidations are processed when a lock is
 * taken, and every caller has locked the table before it asks, so a table
 * made distributed by another session after a first call (a prepared
 * statement's, say) is refused at the next.
 *
 * src/am/citus.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "am/index.h"

#define BLOOM_AM_CITUS_CATALOG		"pg_dist_partition"
#define BLOOM_AM_CITUS_CATALOG_INDEX "pg_dist_partition_logical_relid_index"
#define BLOOM_AM_CITUS_RELID_COLUMN "logicalrelid"
#define BLOOM_AM_CITUS_EXTENSION	"citus"
/* Citus's CITUS_APPLICATION_NAME_PREFIX, the name of its own connections */
#define BLOOM_AM_CITUS_TASK_PREFIX	"citus_internal gpid="

/* tables whose answer a backend keeps */
#define BLOOM_AM_PLACES		16

typedef struct BloomAmPlace
{
	Oid			relid;			/* InvalidOid: a free entry */
	bool		citus;			/* listed in pg_dist_partition */
} BloomAmPlace;

static BloomAmPlace bloom_am_places[BLOOM_AM_PLACES];
static int	bloom_am_place_victim;

/* pg_dist_partition's OID (InvalidOid: no Citus), once catalog_known */
static Oid	bloom_am_citus_catalog;
static bool bloom_am_citus_catalog_known;
static bool bloom_am_citus_callback;

/* a relcache invalidation (from am/functions.c): forget that table (all: InvalidOid) */
void
bloom_am_places_forget(Oid relid)
{
	for (int i = 0; i < BLOOM_AM_PLACES; i++)
		if (relid == InvalidOid || bloom_am_places[i].relid == relid)
			bloom_am_places[i].relid = InvalidOid;
}

/*
 * A pg_class change under pg_dist_partition's name, or a reset of every
 * cache (hash 0): look the catalog up again, and every table in it.
 */
static void
bloom_am_citus_catalog_forget(Datum arg, int cacheid, uint32 hashvalue)
{
	(void) arg;
	(void) cacheid;
	if (hashvalue == 0 ||
		hashvalue == GetSysCacheHashValue2(RELNAMENSP,
										   CStringGetDatum(BLOOM_AM_CITUS_CATALOG),
										   ObjectIdGetDatum(PG_CATALOG_NAMESPACE)))
	{
		bloom_am_citus_catalog_known = false;
		bloom_am_places_forget(InvalidOid);
	}
}

/*
 * Whether pg_dist_partition lists the table: one index scan (a scan of the
 * table if a later Citus renamed the index), read with a fresh catalog
 * snapshot as Citus reads it.
 */
static bool
bloom_am_citus_lists(Oid catalog, Oid relid)
{
	Relation	rel = table_open(catalog, AccessShareLock);
	AttrNumber	attno = get_attnum(catalog, BLOOM_AM_CITUS_RELID_COLUMN);
	Oid			index = get_relname_relid(BLOOM_AM_CITUS_CATALOG_INDEX,
										  PG_CATALOG_NAMESPACE);
	ScanKeyData key;
	SysScanDesc scan;
	bool		listed;

	/* a catalog of another shape is not one this code knows how to read */
	if (attno == InvalidAttrNumber ||
		(get_atttype(catalog, attno) != REGCLASSOID && get_atttype(catalog, attno) != OIDOID))
		elog(ERROR, "column %s of pg_catalog.%s is not of type regclass",
			 BLOOM_AM_CITUS_RELID_COLUMN, BLOOM_AM_CITUS_CATALOG);
	ScanKeyInit(&key, attno, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(relid));
	scan = systable_beginscan(rel, index, OidIsValid(index), NULL, 1, &key);
	listed = HeapTupleIsValid(systable_getnext(scan));
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return listed;
}

/* whether pg_dist_partition lists the table (locked), kept per table */
static bool
bloom_am_citus_listed(Oid heapoid)
{
	BloomAmPlace *p = NULL;

	if (!bloom_am_citus_callback)
	{
		CacheRegisterSyscacheCallback(RELNAMENSP, bloom_am_citus_catalog_forget, (Datum) 0);
		bloom_am_citus_callback = true;
	}
	if (!bloom_am_citus_catalog_known)
	{
		bloom_am_citus_catalog = get_relname_relid(BLOOM_AM_CITUS_CATALOG,
												   PG_CATALOG_NAMESPACE);
		bloom_am_citus_catalog_known = true;
	}
	if (!OidIsValid(bloom_am_citus_catalog))
		return false;

	for (int i = 0; i < BLOOM_AM_PLACES; i++)
		if (bloom_am_places[i].relid == heapoid)
			p = &bloom_am_places[i];
	if (p == NULL)
	{
		bool		citus = bloom_am_citus_lists(bloom_am_citus_catalog, heapoid);

		/*
		 * Kept only once the scan is done (an error leaves no entry), and
		 * not if the catalog changed while it was open.
		 */
		if (!bloom_am_citus_catalog_known)
			return bloom_am_citus_listed(heapoid);
		p = &bloom_am_places[bloom_am_place_victim];
		bloom_am_place_victim = (bloom_am_place_victim + 1) % BLOOM_AM_PLACES;
		p->citus = citus;
		p->relid = heapoid;
	}
	return p->citus;
}

/*
 * Whether this backend runs a task Citus sent it: Citus names every
 * connection it opens to a node "citus_internal gpid=..." (its
 * CITUS_APPLICATION_NAME_PREFIX), and checks the same name to tell its own
 * backends from clients'.  A call in such a backend comes from a query over
 * the table that Citus pushed down to a shard, where the index named is the
 * shell's and asking every shard from every row would not end well.
 */
static bool
bloom_am_in_citus_task(void)
{
	const char *name = GetConfigOption("application_name", true, false);

	return name != NULL &&
		strncmp(name, BLOOM_AM_CITUS_TASK_PREFIX, strlen(BLOOM_AM_CITUS_TASK_PREFIX)) == 0;
}

/*
 * Whether the index's table (locked) is a Citus table's shell whose rows
 * its shards hold, to be asked there (am/citus.c's bloom_am_citus_*).  An
 * index of such a table is refused with 0A000 and what to do instead where
 * they cannot be asked: in a task Citus pushed down (above), and where
 * pg_dist_partition exists without the citus extension that runs
 * commands on the nodes.
 */
bool
bloom_am_rows_elsewhere(Relation index, Oid heapoid)
{
	if (!bloom_am_citus_listed(heapoid))
		return false;
	if (bloom_am_in_citus_task())
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloomfilter index \"%s\" cannot answer for Citus table \"%s\"",
						RelationGetRelationName(index), get_rel_name(heapoid)),
				 errdetail("Citus runs this call on the nodes for a query over table \"%s\", where the index named belongs to the table's shell, which holds none of its rows.",
						   get_rel_name(heapoid)),
				 errhint("Call the function on the coordinator outside a query over the table, which asks the shards, or build a filter of the table's keys with bf_agg.")));
	if (!OidIsValid(get_extension_oid(BLOOM_AM_CITUS_EXTENSION, true)))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloomfilter index \"%s\" cannot answer for Citus table \"%s\"",
						RelationGetRelationName(index), get_rel_name(heapoid)),
				 errdetail("Citus keeps the rows of table \"%s\" in its shards, and the citus extension, which can ask them, is not installed in this database.",
						   get_rel_name(heapoid)),
				 errhint("Build a filter of the table's keys with bf_agg, which Citus computes on the nodes that hold the rows, or ask the index of each shard on its node.")));
	return true;
}
