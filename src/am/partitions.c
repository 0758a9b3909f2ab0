/*-------------------------------------------------------------------------
 *
 * partitions.c
 *	  The leaves of a partitioned bloomfilter index: which partitions'
 *	  indexes a bf_index_* call on a partitioned index (relkind 'I') reads,
 *	  found and locked as a query on the partitioned table finds and locks
 *	  its partitions.
 *
 * A partitioned index holds no pages: CREATE INDEX on a partitioned table
 * builds an index on every leaf partition and attaches it, level by level,
 * to the partitioned index above (pg_inherits links indexes as it links
 * tables).  The answer for the tree is the answer of its leaves' indexes,
 * so a call needs the leaves as they are at that call: a prepared statement
 * executed after an ATTACH, DETACH or DROP of a partition must see the new
 * set.
 *
 * How they are found.  The partitioned table's partition descriptor, as
 * the planner reads it (RelationGetPartitionDesc, omitting partitions
 * being detached concurrently as a query does), gives the partitions in
 * bound order; each is locked AccessShareLock before it is looked into
 * (a sub-partitioned one before its own descriptor is read), which is the
 * order and the lock the planner takes, so a call and a query never wait
 * on each other in opposite orders.  The index attached to each partition
 * comes from pg_inherits, the children of the partitioned index at that
 * level, matched to the partitions by their tables.  A partition with no
 * attached index is a foreign table (CREATE INDEX skips those, and its rows
 * are in no filter, so the tree cannot be answered for) or a race with a
 * concurrent detach; either is an error, never a silent "absent".
 *
 * The cache.  Walking the tree reads a pg_inherits scan per level, which
 * cost more than the checks of thirty leaves; a backend keeps the last few
 * trees, each under its partitioned index's OID.  A tree is forgotten on a
 * relcache invalidation of its root table or index or of any partitioned
 * table or index inside it.  Those are what every change to the set sends:
 * CREATE TABLE ... PARTITION OF, ATTACH and DETACH (both phases of
 * CONCURRENTLY) and DROP of a partition invalidate the parent table (its
 * partition descriptor changes), and attaching an index to a partitioned
 * index updates that index's pg_index row.  Invalidations are processed when
 * a lock is first taken in a transaction, and a call locks the root and then
 * every table of the kept tree before it uses the tree: a change committed
 * before the call is seen by it, and one found while locking makes the call
 * walk the tree again under the locks it holds.  A tree with a partition
 * being detached concurrently is never kept, since whether it counts
 * depends on the caller's snapshot.  A leaf's index is watched too:
 * REINDEX CONCURRENTLY of a leaf attaches a new index (another OID) in its
 * place and drops the old one, which sends the old OID's invalidation (so
 * does a VACUUM updating the leaf index's statistics, at the cost of one
 * walk).  Leaf tables' own invalidations do not change the set and keep
 * the tree.
 *
 * src/am/partitions.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "catalog/index.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "miscadmin.h"
#include "partitioning/partdesc.h"
#include "storage/lmgr.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "am/index.h"

/* trees a backend keeps */
#define BLOOM_AM_TREES		4

typedef struct BloomAmTreeEntry
{
	Oid			indexoid;		/* the root index; InvalidOid: a free entry */
	bool		valid;			/* cleared by an invalidation, never freed by one */
	int			ntables;		/* every table below the root, in lock order */
	Oid		   *tables;
	int			nleaves;
	BloomAmLeaf *leaves;
	int			nwatched;		/* the relations whose invalidation forgets it */
	Oid		   *watched;
	MemoryContext cxt;
} BloomAmTreeEntry;

static BloomAmTreeEntry bloom_am_trees[BLOOM_AM_TREES];
static int	bloom_am_tree_victim;

/* what a walk finds, in the call's memory */
typedef struct BloomAmWalk
{
	BloomAmTree *tree;
	List	   *watched;		/* OIDs, as a list of ints */
	bool		keep;			/* no partition is being detached */
} BloomAmWalk;

/* a relcache invalidation (from am/functions.c): forget the trees it concerns */
void
bloom_am_trees_forget(Oid relid)
{
	for (int i = 0; i < BLOOM_AM_TREES; i++)
	{
		BloomAmTreeEntry *e = &bloom_am_trees[i];

		if (!OidIsValid(e->indexoid) || !e->valid)
			continue;
		if (relid == InvalidOid)
			e->valid = false;
		for (int j = 0; e->valid && j < e->nwatched; j++)
			if (e->watched[j] == relid)
				e->valid = false;
	}
}

static void
bloom_am_tree_lock(BloomAmTree *tree, Oid relid)
{
	LockRelationOid(relid, AccessShareLock);
	if (tree->nlocked == tree->maxlocked)
	{
		tree->maxlocked *= 2;
		tree->locked = repalloc(tree->locked, sizeof(Oid) * tree->maxlocked);
	}
	tree->locked[tree->nlocked++] = relid;
}

static void
bloom_am_tree_add_leaf(BloomAmTree *tree, Oid heapoid, Oid indexoid)
{
	if (tree->nleaves == tree->maxleaves)
	{
		tree->maxleaves *= 2;
		tree->leaves = repalloc(tree->leaves, sizeof(BloomAmLeaf) * tree->maxleaves);
	}
	tree->leaves[tree->nleaves].heapoid = heapoid;
	tree->leaves[tree->nleaves].indexoid = indexoid;
	tree->nleaves++;
}

/*
 * A partition without an index attached to the partitioned index: a
 * foreign table, whose rows no filter holds, or one detached (or attached)
 * while we looked.
 */
pg_noreturn static void
bloom_am_tree_no_index(Oid partoid, Oid indexoid)
{
	if (get_rel_relkind(partoid) == RELKIND_FOREIGN_TABLE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloomfilter index \"%s\" cannot answer for foreign table partition \"%s\"",
						get_rel_name(indexoid), get_rel_name(partoid)),
				 errdetail("A foreign table has no index, so no filter holds the keys of its rows."),
				 errhint("Ask the indexes of the other partitions one by one.")));
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("partition \"%s\" has no index attached to bloomfilter index \"%s\"",
					get_rel_name(partoid), get_rel_name(indexoid)),
			 errdetail("The partition was attached or detached while the index was read."),
			 errhint("Try again.")));
}

/*
 * The partitions of heapoid (locked) and the indexes attached to indexoid,
 * depth first in bound order: each partition locked, then walked if it is
 * partitioned itself, else recorded as a leaf.
 */
static void
bloom_am_walk(BloomAmWalk *w, Oid heapoid, Oid indexoid)
{
	Relation	heap = relation_open(heapoid, NoLock);
	PartitionDesc pd = RelationGetPartitionDesc(heap, true);
	List	   *children = find_inheritance_children(indexoid, NoLock);
	int			nchildren = list_length(children);
	Oid		   *child_heaps = palloc(sizeof(Oid) * Max(nchildren, 1));
	ListCell   *lc;
	int			i = 0;

	w->watched = lappend_oid(w->watched, heapoid);
	w->watched = lappend_oid(w->watched, indexoid);
	if (pd->detached_exist)
		w->keep = false;
	foreach(lc, children)
		child_heaps[i++] = IndexGetRelation(lfirst_oid(lc), true);

	for (int p = 0; p < pd->nparts; p++)
	{
		Oid			part = pd->oids[p];
		Oid			child = InvalidOid;

		CHECK_FOR_INTERRUPTS();
		bloom_am_tree_lock(w->tree, part);
		for (i = 0; i < nchildren && !OidIsValid(child); i++)
			if (child_heaps[i] == part)
				child = list_nth_oid(children, i);
		if (!OidIsValid(child))
			bloom_am_tree_no_index(part, indexoid);
		if (pd->is_leaf[p])
		{
			/* REINDEX CONCURRENTLY attaches a new index and drops this one */
			w->watched = lappend_oid(w->watched, child);
			bloom_am_tree_add_leaf(w->tree, part, child);
		}
		else
			bloom_am_walk(w, part, child);
	}
	pfree(child_heaps);
	list_free(children);
	relation_close(heap, NoLock);
}

/* keep what a walk found under the root index, in an entry of its own */
static void
bloom_am_tree_keep(Oid indexoid, const BloomAmTree *tree, List *watched,
				   int ntables, const Oid *tables)
{
	BloomAmTreeEntry *e = &bloom_am_trees[bloom_am_tree_victim];
	ListCell   *lc;
	int			i = 0;

	bloom_am_tree_victim = (bloom_am_tree_victim + 1) % BLOOM_AM_TREES;
	/* free until complete: an error below (out of memory) leaves no half entry */
	e->indexoid = InvalidOid;
	if (e->cxt == NULL)
		e->cxt = AllocSetContextCreate(TopMemoryContext, "bloomfilter index partitions",
									   ALLOCSET_SMALL_SIZES);
	else
		MemoryContextReset(e->cxt);
	e->ntables = ntables;
	e->tables = MemoryContextAlloc(e->cxt, sizeof(Oid) * Max(ntables, 1));
	memcpy(e->tables, tables, sizeof(Oid) * ntables);
	e->nleaves = tree->nleaves;
	e->leaves = MemoryContextAlloc(e->cxt, sizeof(BloomAmLeaf) * Max(tree->nleaves, 1));
	memcpy(e->leaves, tree->leaves, sizeof(BloomAmLeaf) * tree->nleaves);
	e->nwatched = list_length(watched);
	e->watched = MemoryContextAlloc(e->cxt, sizeof(Oid) * Max(e->nwatched, 1));
	foreach(lc, watched)
		e->watched[i++] = lfirst_oid(lc);
	e->valid = true;
	e->indexoid = indexoid;
}

static void
bloom_am_tree_init(BloomAmTree *tree)
{
	tree->nleaves = 0;
	tree->maxleaves = 16;
	tree->leaves = palloc(sizeof(BloomAmLeaf) * tree->maxleaves);
	tree->nlocked = 0;
	tree->maxlocked = 16;
	tree->locked = palloc(sizeof(Oid) * tree->maxlocked);
}

/*
 * The leaves of the partitioned index (opened and locked, its table
 * heapoid locked), every table below it locked AccessShareLock until
 * bloom_am_tree_release: from the kept tree if it is still true once its
 * tables are locked, else by walking the partition descriptors.
 */
void
bloom_am_tree(Relation index, Oid heapoid, BloomAmTree *tree)
{
	Oid			indexoid = RelationGetRelid(index);
	BloomAmWalk w;

	bloom_am_tree_init(tree);
	for (int i = 0; i < BLOOM_AM_TREES; i++)
	{
		BloomAmTreeEntry *e = &bloom_am_trees[i];

		if (e->indexoid != indexoid || !e->valid)
			continue;
		for (int t = 0; t < e->ntables && e->valid; t++)
			bloom_am_tree_lock(tree, e->tables[t]);
		if (e->valid)
		{
			for (int l = 0; l < e->nleaves; l++)
				bloom_am_tree_add_leaf(tree, e->leaves[l].heapoid, e->leaves[l].indexoid);
			return;
		}
		/* changed while we locked: walk it under the locks now held */
		break;
	}

	w.tree = tree;
	w.watched = NIL;
	w.keep = true;
	{
		int			before = tree->nlocked;

		bloom_am_walk(&w, heapoid, indexoid);
		if (w.keep)
			bloom_am_tree_keep(indexoid, tree, w.watched, tree->nlocked - before,
							   tree->locked + before);
	}
	list_free(w.watched);
}

/* release the tables' locks the tree took */
void
bloom_am_tree_release(BloomAmTree *tree)
{
	for (int i = tree->nlocked - 1; i >= 0; i--)
		UnlockRelationOid(tree->locked[i], AccessShareLock);
	tree->nlocked = 0;
}

/*
 * A leaf's index, opened AccessShareLock (its table is locked by the tree)
 * and checked as bloom_am_open checks a plain one; privileges and
 * row-level security are the root's, already checked.
 */
Relation
bloom_am_leaf_open(const BloomAmLeaf *leaf)
{
	Relation	index = index_open(leaf->indexoid, AccessShareLock);

	if (!bloom_am_is_ours(index))
		elog(ERROR, "partition index \"%s\" is not a bloomfilter index",
			 RelationGetRelationName(index));
	if (!index->rd_index->indisvalid)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("bloomfilter index \"%s\" is not valid", RelationGetRelationName(index)),
				 errdetail("An index whose concurrent build failed or is under way may lack keys."),
				 errhint("REINDEX it, or wait for CREATE INDEX CONCURRENTLY to finish.")));
	return index;
}
