/*-------------------------------------------------------------------------
 *
 * held.c
 *	  Stored values held whole for the checks that come back to them: one
 *	  cache per query, shared by its call sites, and the values a session
 *	  keeps between queries.  The checks (type/probe.c) ask for a value
 *	  here first, and read what they need of it themselves when it is not
 *	  held.
 *
 * A query that checks keys against several stored values in turn (the
 * buckets of a rolling window, a table of shards, a join against a table
 * of filters) would read each value's header, directory and spans again
 * on every switch from one value to another.  So the values a query comes
 * back to are held whole, in one cache per query shared by every check
 * of that query: the cache belongs to the memory context the call sites'
 * fn_extra lives in (the executor's per-query context), and goes with it
 * at the end of the query.  A registry of the caches alive in the backend
 * finds a query's cache from a call site's first call; a reset callback
 * takes a cache out of it when its context goes.
 *
 * Keys.  An out-of-line value is named by its TOAST pointer: the TOAST
 * relation, the value's OID and its two sizes (with the filter kind that
 * reads it).  TOAST values are never changed in place: an UPDATE that
 * changes a filter stores a new value under a new OID, so a held value
 * is never stale for a pointer that names it.  The pair (relation, OID)
 * could name another value only once the first is gone and its OID
 * handed out again.  While a query runs, the rows it read stay visible to
 * its snapshot, so VACUUM cannot remove their chunks, and the tables it
 * read stay locked (AccessShareLock until the end of the transaction), so
 * no TRUNCATE, VACUUM FULL or CLUSTER can rewrite them; its own
 * transaction cannot rewrite a table the query is using either
 * (CheckTableNotInUse).  Even where a value does go (a plpgsql simple
 * expression's cache outlives statements), a new value takes the OID
 * only after the cluster-wide OID counter has wrapped around its 2^32
 * values.  In-line values are not held: they are in memory already.
 *
 * Memory.  The values held take at most bloomfilter.cache_memory (kB) per
 * query, and each parallel worker's query its own; the bookkeeping of the
 * values seen but not held takes at most BLOOM_CACHE_SEEN entries more
 * (about 100 kB).  A value larger than the setting is never held: it is
 * read by slices as a single check reads it, and a compressed one is
 * decompressed for each check.  0 holds nothing, and keeps nothing
 * between queries either.
 *
 * What is held.  A value is read whole only when that costs less than
 * reading slices for what is left: after as many checks by slices as a
 * 32nd of its chunks (1.2 MB of a million-key bucket: 20 checks), so that
 * a query that checks one or two keys against each of many values reads
 * slices only, and one that checks thousands reads each value once and a
 * few slices before.  When the budget is full, the value used least
 * recently gives way, but only if it has not been used since the new
 * value's previous check: a query that cycles through more values than
 * fit (a window longer than the budget) keeps those it holds and reads
 * the others by slices, instead of evicting each value just before it is
 * needed again, while a query that moves on to other values (shards
 * checked in shard order) replaces the old ones.
 *
 * The values kept between queries (below) are held by the same rules, by
 * one more cache of the same kind that lives as long as the backend.
 *
 * src/type/held.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "access/heaptoast.h"
#include "access/table.h"
#include "access/xact.h"
#include "lib/ilist.h"
#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "type/held.h"
#include "type/kind.h"
#include "type/toast.h"
#include "type/value.h"

#define BLOOM_CACHE_DEFAULT_KB	(256 * 1024)
#define BLOOM_KEEP_DEFAULT_KB	(16 * 1024)
#define BLOOM_CACHE_SEEN		1024
#define BLOOM_CACHE_SIGHT_CHUNKS	32

static int	bloom_cache_memory = BLOOM_CACHE_DEFAULT_KB;
static int	bloom_keep_memory = BLOOM_KEEP_DEFAULT_KB;

void
bloom_held_define_guc(void)
{
	DefineCustomIntVariable("bloomfilter.cache_memory",
							"Memory a query may use to hold stored filters it checks repeatedly.",
							"Each query, and each parallel worker, holds at most this much; a filter larger than this is read in slices on every check. 0 holds none, and keeps none between queries.",
							&bloom_cache_memory, BLOOM_CACHE_DEFAULT_KB, 0, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomIntVariable("bloomfilter.session_cache_memory",
							"Memory a session may use to keep stored filters it checks query after query.",
							"A kept filter is lent to later queries after one read of its first chunk shows it unchanged. 0 keeps none.",
							&bloom_keep_memory, BLOOM_KEEP_DEFAULT_KB, 0, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
}


/*
 * A value read whole into the backend's memory, kept between queries.  It
 * is freed when nothing pins it: the backend's cache pins it while it
 * keeps it, and each query cache or call site it is lent to while that
 * uses it.  first_tid and first_xmin name its first chunk's tuple.
 */
typedef struct BloomKeptValue
{
	MemoryContext cxt;			/* holds this and the value */
	BloomOpened *value;
	Size		bytes;
	int			pins;
	ItemPointerData first_tid;
	TransactionId first_xmin;
} BloomKeptValue;

typedef struct BloomHeld
{
	BloomHeldKey key;			/* first: the hash key */
	dlist_node	node;			/* in the held list, or the seen list */
	uint64		last_use;		/* the cache's clock at the last check */
	uint64		sights;			/* checks so far, counting batch elements */
	TimestampTz first_stmt;		/* kept values: when the first check's statement began */
	BloomOpened *value;			/* the value, opened, when held; else NULL */
	Size		bytes;			/* the memory value takes */
	BloomKeptValue *kept;		/* value's owner when kept: pinned; else NULL */
} BloomHeld;

/* the entries of a cache of either lifetime, and its budget */
typedef struct BloomCache
{
	MemoryContext cxt;			/* the entries' */
	HTAB	   *entries;
	dlist_head	held;			/* most recently used first */
	dlist_head	seen;			/* the others, most recently used first */
	int			nseen;
	Size		held_bytes;
	uint64		clock;
	uint64		releases;		/* values let go so far */
	int		   *budget_kb;		/* the setting that bounds held_bytes */
	bool		recount;		/* a value let go starts its count anew */

	/*
	 * A query's cache: the kept values it holds, pinned, in memory of cxt
	 * itself (the entries are in the hash table's own context, a child of
	 * cxt, which is gone by the time cxt's reset callback runs).
	 */
	BloomKeptValue **lent;
	int			nlent;
	int			lent_room;
} BloomCache;

typedef struct BloomQueryCache
{
	BloomCache	c;
	dlist_node	registry;		/* in bloom_query_caches */
	MemoryContext owner;		/* the query's memory */
	MemoryContextCallback on_reset;
} BloomQueryCache;

static dlist_head bloom_query_caches = DLIST_STATIC_INIT(bloom_query_caches);

/* the backend's cache of kept values; entries NULL until first needed */
static BloomCache bloom_kept = {.budget_kb = &bloom_keep_memory, .recount = true};


static void
bloom_kept_unpin(BloomKeptValue *kv)
{
	if (--kv->pins == 0)
		MemoryContextDelete(kv->cxt);
}

static void
bloom_cache_init(BloomCache *c, MemoryContext cxt, const char *name)
{
	HASHCTL		ctl;

	c->cxt = cxt;
	ctl.keysize = sizeof(BloomHeldKey);
	ctl.entrysize = sizeof(BloomHeld);
	ctl.hcxt = cxt;
	c->entries = hash_create(name, 64, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	dlist_init(&c->held);
	dlist_init(&c->seen);
}

/* a query's memory goes: the values it borrowed are given back */
static void
bloom_query_cache_gone(void *arg)
{
	BloomQueryCache *qc = arg;

	dlist_delete(&qc->registry);
	for (int i = 0; i < qc->c.nlent; i++)
		bloom_kept_unpin(qc->c.lent[i]);
}

/* the cache of the query whose memory is owner, made if there is none */
static BloomQueryCache *
bloom_query_cache(MemoryContext owner)
{
	dlist_iter	it;
	MemoryContext cxt;
	BloomQueryCache *qc;

	dlist_foreach(it, &bloom_query_caches)
	{
		qc = dlist_container(BloomQueryCache, registry, it.cur);
		if (qc->owner == owner)
			return qc;
	}
	cxt = AllocSetContextCreate(owner, "bloomfilter check cache", ALLOCSET_DEFAULT_SIZES);
	qc = MemoryContextAllocZero(cxt, sizeof(BloomQueryCache));
	qc->owner = owner;
	qc->c.budget_kb = &bloom_cache_memory;
	bloom_cache_init(&qc->c, cxt, "bloomfilter check cache");
	qc->on_reset.func = bloom_query_cache_gone;
	qc->on_reset.arg = qc;
	MemoryContextRegisterResetCallback(cxt, &qc->on_reset);
	dlist_push_head(&bloom_query_caches, &qc->registry);
	return qc;
}

/* room in qc's list of lent values for one more, made before it is lent */
static void
bloom_query_cache_lend_room(BloomQueryCache *qc)
{
	BloomCache *c = &qc->c;

	if (c->nlent < c->lent_room)
		return;
	c->lent_room = Max(8, 2 * c->lent_room);
	c->lent = c->lent ? repalloc(c->lent, sizeof(BloomKeptValue *) * c->lent_room) :
		MemoryContextAlloc(c->cxt, sizeof(BloomKeptValue *) * c->lent_room);
}

/* stop holding e's value; it stays known as seen */
static void
bloom_cache_release(BloomCache *c, BloomHeld *e)
{
	for (int i = 0; i < c->nlent; i++)
		if (c->lent[i] == e->kept)
		{
			c->lent[i] = c->lent[--c->nlent];
			break;
		}
	if (e->kept)
		bloom_kept_unpin(e->kept);
	else
		pfree(e->value);
	e->value = NULL;
	e->kept = NULL;
	c->held_bytes -= e->bytes;
	c->releases++;
	if (c->recount)
	{
		e->sights = 0;
		e->first_stmt = 0;
	}
	dlist_delete(&e->node);
	dlist_push_head(&c->seen, &e->node);
	c->nseen++;
}

/* e now holds value (owned by kept, pinned for e, if not NULL) */
static void
bloom_cache_hold(BloomCache *c, BloomHeld *e, BloomOpened *value, Size bytes,
				 BloomKeptValue *kept)
{
	e->value = value;
	e->bytes = bytes;
	e->kept = kept;
	c->held_bytes += bytes;
	dlist_delete(&e->node);
	c->nseen--;
	dlist_push_head(&c->held, &e->node);
}

/*
 * The entry of key, moved to the front of its list, its clock reading
 * before this check in *prev_use (0 if new).
 */
static BloomHeld *
bloom_cache_entry(BloomCache *c, const BloomHeldKey *key, uint64 *prev_use)
{
	bool		found;
	BloomHeld  *e = hash_search(c->entries, key, HASH_ENTER, &found);

	if (!found)
	{
		e->last_use = 0;
		e->sights = 0;
		e->first_stmt = 0;
		e->value = NULL;
		e->bytes = 0;
		e->kept = NULL;
		dlist_push_head(&c->seen, &e->node);
		/* Forget the value seen longest ago: never e, which is at the head. */
		if (++c->nseen > BLOOM_CACHE_SEEN)
		{
			BloomHeld  *old = dlist_container(BloomHeld, node, dlist_tail_node(&c->seen));

			dlist_delete(&old->node);
			c->nseen--;
			hash_search(c->entries, &old->key, HASH_REMOVE, NULL);
		}
	}
	else
		dlist_move_head(e->value ? &c->held : &c->seen, &e->node);
	*prev_use = e->last_use;
	e->last_use = ++c->clock;
	return e;
}

/* the memory a value of key takes when held */
static Size
bloom_held_bytes(const BloomHeldKey *key, bool sliceable)
{
	Size		size = sliceable ? VARATT_EXTERNAL_GET_EXTSIZE(key->ptr) :
		(Size) key->ptr.va_rawsize;

	return MAXALIGN(sizeof(BloomOpened)) + size + VARHDRSZ + BLOOM_CACHE_LINE;
}

/*
 * Whether to read e's value whole now, making room for it: never if it is
 * larger than the budget; a value that can be read in slices once it has
 * been checked enough; and then only if the values it would replace have
 * not been used since its previous check (prev_use).
 */
static bool
bloom_cache_admit(BloomCache *c, BloomHeld *e, uint64 prev_use, bool sliceable)
{
	Size		budget = (Size) *c->budget_kb * 1024;
	Size		bytes = bloom_held_bytes(&e->key, sliceable);

	if (bytes > budget)
		return false;
	if (sliceable &&
		(e->sights < 2 ||
		 e->sights <= (VARATT_EXTERNAL_GET_EXTSIZE(e->key.ptr) / TOAST_MAX_CHUNK_SIZE) /
		 BLOOM_CACHE_SIGHT_CHUNKS))
		return false;
	while (c->held_bytes + bytes > budget)
	{
		BloomHeld  *lru;

		if (dlist_is_empty(&c->held))
			return false;		/* not reached: e alone fits the budget */
		lru = dlist_container(BloomHeld, node, dlist_tail_node(&c->held));
		if (lru->last_use > prev_use)
			return false;
		bloom_cache_release(c, lru);
	}
	return true;
}

/*
 * The whole value d (named by key) in cxt, opened, its payload on a cache
 * line boundary; *bytes what it takes.  An uncompressed out-of-line value
 * is read from its TOAST table straight into place; anything else is
 * detoasted and copied.
 */
static BloomOpened *
bloom_read_whole(MemoryContext cxt, const BloomHeldKey *key, Datum d, bool sliceable,
				 Size *bytes)
{
	Size		size;
	char	   *alloc;
	char	   *room;
	struct varlena *dst;
	struct varlena *flat = NULL;
	BloomOpened *o;

	if (sliceable)
		size = VARHDRSZ + VARATT_EXTERNAL_GET_EXTSIZE(key->ptr);
	else
	{
		flat = PG_DETOAST_DATUM(d);
		size = VARSIZE(flat);
	}
	*bytes = MAXALIGN(sizeof(BloomOpened)) + size + BLOOM_CACHE_LINE;
	alloc = bloom_palloc_present(cxt, *bytes);
	o = (BloomOpened *) alloc;
	room = alloc + MAXALIGN(sizeof(BloomOpened));
	dst = (struct varlena *) (TYPEALIGN(BLOOM_CACHE_LINE,
										room + VARHDRSZ + BLOOM_HEADER_SIZE) -
							  VARHDRSZ - BLOOM_HEADER_SIZE);
	if (sliceable)
	{
		Relation	toastrel = table_open(key->ptr.va_toastrelid, AccessShareLock);

		bloom_toast_fetch(toastrel, &key->ptr, 0, (int32) (size - VARHDRSZ), dst);
		table_close(toastrel, AccessShareLock);
	}
	else
	{
		bloom_fill_chunked((uint8 *) dst, (const uint8 *) flat, size);
		if (flat != (struct varlena *) DatumGetPointer(d))
			pfree(flat);
	}
	bloom_opened_begin(o, key->kind, (const uint8 *) VARDATA(dst), size - VARHDRSZ);
	bloom_opened_walk_memory(o, (const uint8 *) VARDATA(dst) + BLOOM_HEADER_SIZE);
	return o;
}

/* where the first chunk of the value ptr names lies, and who inserted it */
static void
bloom_first_chunk(const struct varatt_external *ptr, ItemPointer tid, TransactionId *xmin)
{
	BloomChunkReader r;

	bloom_chunks_begin(&r, ptr);
	bloom_chunks_first(&r, tid, xmin);
	bloom_chunks_end(&r);
}

/* ---- values kept between queries ---- */

/*
 * A session that checks the same stored value query after query (a
 * service asking bf_contains_all of one filters row, point checks of a
 * blacklist) would read its chunks again in every query, since a query's
 * cache goes with the query.  So the backend keeps values too, in the
 * cache bloom_kept, up to bloomfilter.session_cache_memory, by the rules
 * above counted over the session: a value is read whole once it has been
 * checked as often as a 32nd of its chunks, by more than one statement (a
 * value one statement checks alone, however many times, is that
 * statement's business), and gives way only to a value checked more
 * recently than itself was used.  A value that gives way
 * starts its count anew, so that a session cycling through more values
 * than fit cannot read each one whole again and again.
 *
 * Between queries a TOAST pointer no longer names one value for sure:
 * once the rows holding a value are deleted and vacuumed, its OID can go
 * to a new value of the same TOAST relation (after the OID counter wraps),
 * and a dropped relation's OID to a new relation.  So a kept value is lent
 * to a query only after its first chunk, fetched again under the query's
 * TOAST snapshot, is found where it lay when the value was read and
 * inserted by the same transaction (bloom_chunks_first): the same tuple,
 * so the same value.  That costs a query one chunk, at its remembered
 * place, instead of the value's chunks.
 *
 * A value is lent pinned, to a query's cache or to a call site's single
 * value, and unpinned when that memory goes (its reset callback, on error
 * too), so a value the backend lets go while a query uses it is freed when
 * that query ends: until then the backend's memory can exceed the setting
 * by such values.
 */

/* a call site's memory goes: its single borrowed value is given back */
static void
bloom_site_unpin(void *arg)
{
	BloomCallSite *cs = arg;

	if (cs->first_kept)
		bloom_kept_unpin(cs->first_kept);
	cs->first_kept = NULL;
}

/* read e's value whole and keep it, for the first query to borrow it */
static void
bloom_kept_load(BloomHeld *e, Datum d)
{
	/*
	 * The value's own memory is a child of the query's until the value is
	 * complete, so that an error while reading it frees it with the query.
	 */
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "bloomfilter kept value",
											  ALLOCSET_SMALL_SIZES);
	BloomKeptValue *kv = MemoryContextAllocZero(cxt, sizeof(BloomKeptValue));

	bloom_first_chunk(&e->key.ptr, &kv->first_tid, &kv->first_xmin);
	kv->value = bloom_read_whole(cxt, &e->key, d, true, &kv->bytes);
	kv->cxt = cxt;
	kv->pins = 1;
	MemoryContextSetParent(cxt, bloom_kept.cxt);
	bloom_cache_hold(&bloom_kept, e, kv->value, kv->bytes, kv);
}

/*
 * The kept value that key (an uncompressed out-of-line value d) names,
 * pinned for the caller, for a check of weight elements: after its first
 * chunk shows it unchanged, or read whole now if it is time to keep it;
 * NULL if it is not kept.
 */
static BloomKeptValue *
bloom_kept_lend(const BloomHeldKey *key, Datum d, int weight)
{
	BloomHeld  *e;
	uint64		prev_use;

	/* Values beyond a setting lowered since the last check are let go now. */
	while (bloom_kept.held_bytes > (Size) bloom_keep_memory * 1024)
		bloom_cache_release(&bloom_kept, dlist_container(BloomHeld, node,
														 dlist_tail_node(&bloom_kept.held)));
	if (bloom_keep_memory == 0)
		return NULL;
	if (bloom_kept.entries == NULL)
		bloom_cache_init(&bloom_kept,
						 AllocSetContextCreate(TopMemoryContext, "bloomfilter kept values",
											   ALLOCSET_DEFAULT_SIZES),
						 "bloomfilter kept values");
	e = bloom_cache_entry(&bloom_kept, key, &prev_use);
	if (e->kept)
	{
		ItemPointerData tid;
		TransactionId xmin;

		bloom_first_chunk(&key->ptr, &tid, &xmin);
		if (!ItemPointerEquals(&tid, &e->kept->first_tid) ||
			!TransactionIdEquals(xmin, e->kept->first_xmin))
			bloom_cache_release(&bloom_kept, e);
	}
	if (e->kept == NULL)
	{
		/* a value one statement alone checks is that statement's business */
		TimestampTz stmt = GetCurrentStatementStartTimestamp();

		if (e->sights == 0)
			e->first_stmt = stmt;
		e->sights += weight;
		if (e->first_stmt == stmt || !bloom_cache_admit(&bloom_kept, e, prev_use, true))
			return NULL;
		bloom_kept_load(e, d);
	}
	e->kept->pins++;
	return e->kept;
}

/*
 * The out-of-line value d (pointer ptr) for a check of weight elements:
 * held whole by the query's cache (its own, or lent by the kept values),
 * read now if it is time to, or NULL if it is not held (then the caller
 * reads what it needs).
 */
const BloomOpened *
bloom_held_value(FunctionCallInfo fcinfo, const BloomKind *kind, BloomCallSite *cs,
				 Datum d, const struct varatt_external *ptr, bool sliceable, int weight)
{
	BloomHeldKey key;
	BloomHeld  *e;
	uint64		prev_use;
	BloomKeptValue *kv;
	BloomOpened *o;
	Size		bytes;

	if (bloom_cache_memory == 0)
		return NULL;
	memset(&key, 0, sizeof(key));
	key.ptr = *ptr;
	key.kind = kind;
	if (cs->qc == NULL)
	{
		/*
		 * A call site's first value needs no query cache: a point check meets
		 * one value once.  A compressed one does, as it cannot be read by
		 * slices.
		 */
		if (!cs->seen_one && sliceable)
		{
			cs->seen_one = true;
			cs->first = key;
			cs->first_kept = bloom_kept_lend(&key, d, weight);
			if (cs->first_kept == NULL)
				return NULL;
			cs->unpin.func = bloom_site_unpin;
			cs->unpin.arg = cs;
			MemoryContextRegisterResetCallback(fcinfo->flinfo->fn_mcxt, &cs->unpin);
			return cs->first_kept->value;
		}
		/* ... and the same again, if it is kept */
		if (cs->first_kept && memcmp(&key, &cs->first, sizeof(key)) == 0)
			return cs->first_kept->value;
		cs->qc = bloom_query_cache(fcinfo->flinfo->fn_mcxt);
		if (cs->seen_one)
			bloom_cache_entry(&cs->qc->c, &cs->first, &prev_use)->sights++;
	}
	/*
	 * A join or a subquery checks one value row after row: the entry the
	 * last check used is taken without a lookup.
	 */
	e = cs->last;
	if (e != NULL && cs->last_releases == cs->qc->c.releases &&
		memcmp(&e->key, &key, sizeof(key)) == 0)
	{
		e->last_use = ++cs->qc->c.clock;
		dlist_move_head(&cs->qc->c.held, &e->node);
		return e->value;
	}
	e = bloom_cache_entry(&cs->qc->c, &key, &prev_use);
	if (e->value == NULL)
	{
		e->sights += weight;
		/* A kept value counts against the session's budget, not the query's. */
		bloom_query_cache_lend_room(cs->qc);
		if (sliceable && (kv = bloom_kept_lend(&key, d, weight)) != NULL)
		{
			cs->qc->c.lent[cs->qc->c.nlent++] = kv;
			bloom_cache_hold(&cs->qc->c, e, kv->value, 0, kv);
		}
		else if (bloom_cache_admit(&cs->qc->c, e, prev_use, sliceable))
		{
			o = bloom_read_whole(cs->qc->c.cxt, &key, d, sliceable, &bytes);
			bloom_cache_hold(&cs->qc->c, e, o, bytes, NULL);
		}
		else
			return NULL;
	}
	cs->last = e;
	cs->last_releases = cs->qc->c.releases;
	return e->value;
}
