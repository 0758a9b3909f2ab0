/*-------------------------------------------------------------------------
 *
 * probe.c
 *	  Checks of elements against a filter argument of either type, from
 *	  the SQL functions down to the kind: one element (bf_contains,
 *	  bf_count, cf_contains, cf_count and their operators) or many at once
 *	  (bf_contains_all, cf_contains_all), with the query's cache of stored
 *	  values.
 *
 * Both types are checked the same way, through the table of operations
 * per kind (BloomKind, type/kind.h): bloomfilter's goes on through
 * its layout table, cuckoofilter's to its core.  A check opens the value's header, walks its
 * directory (the parts checks look into: a plain filter's cells, each
 * sub-filter of a scalable or cuckoo filter) and asks for the spans an
 * element maps to (a block per part; two buckets per cuckoo sub-filter);
 * the kind answers from those bytes.  core/header.h says more.
 *
 * A single check of an out-of-line value not seen before by the call site
 * reads only what it needs, in two scans of the TOAST index
 * (type/toast.c): the first chunk (the header, and with it the first
 * pieces of a directory), then the chunks of the element's spans, with
 * those of the further directory pieces, whose places the kind predicts
 * from its shapes (a prediction that fails costs a scan more per piece,
 * never an answer).  Only the spans' bytes are copied out of the chunks.
 * When the same stored value comes back in later
 * calls of the same query (a join or a scalar subquery against a filters
 * row, the buckets of a window, a table of shards), it is read once into
 * the query's cache, placed so that its payload starts on a 64-byte
 * boundary, and every further check costs a hash and a cache line or a
 * few.  Values are recognised by their TOAST pointer (relation, value OID,
 * sizes), which names one immutable value; the cache's own comment below
 * says why no query can meet a stale one.  A value a session checks query
 * after query is kept by the backend as well, and lent to each later query
 * once its first chunk shows it is still the same value.
 *
 * A check passes through few files: this one, type/toast.c for a
 * stored value's chunks, and the kind's core (the layout's file and
 * core/header.c, or core/cuckoo.c); bench/check_path.sh keeps it so.
 * Element hashing is bloomfilter's (type/keys.h) for both types, so
 * an element matches in a cuckoofilter exactly when it would in a
 * bloomfilter of hash id 2.
 *
 * src/type/probe.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "access/detoast.h"
#include "access/heaptoast.h"
#include "access/table.h"
#include "access/xact.h"
#include "lib/ilist.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/arrayaccess.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "type/kind.h"

StaticAssertDecl(BLOOM_HEADER_SIZE == CUCKOO_HEADER_SIZE,
				 "both filter types have headers of one size");

/*
 * ---- the kinds' stored reads ----
 *
 * The open, dir_next and dir_predict members of both kind entries: here
 * rather than in type/kind_bloom.c and type/kind_cuckoo.c because the
 * checks below are their only callers, and a check should not pass through
 * a kind's file for a few lines each (scripts/check-kinds.py allows these
 * calls of the layouts' callbacks and the cuckoo core).
 */

void
bloom_kind_open(BloomOpened *o, const uint8 *front, size_t len)
{
	BloomView	v;

	bloom_view_init(&v, front, BLOOM_HEADER_SIZE, len);
	o->hdr.bloom = v.hdr;
	o->layout = v.layout;
	o->hash = bloom_hash_params(&v.hdr);
	o->spans = v.layout->spans;
	o->answer = v.layout->answer;
	o->answer_many = v.layout->answer_many;
}

void
bloom_kind_dir_next(BloomOpened *o, const uint8 *piece, BloomSpan *next)
{
	BloomCheck	check = o->layout->dir_next(&o->hdr.bloom, &o->dir, piece, next);

	if (check != BLOOM_OK)
		bloom_report_corrupt(check);
}

int
bloom_kind_dir_predict(const BloomOpened *o, BloomDir *dir, BloomSpan *pieces, int max)
{
	if (o->layout->dir_predict == NULL)
		return 0;
	return o->layout->dir_predict(&o->hdr.bloom, dir, pieces, max);
}

void
cf_kind_open(BloomOpened *o, const uint8 *front, size_t len)
{
	CuckooHeader *hdr = &o->hdr.cuckoo;
	CuckooCheck check = cuckoo_header_check(front, len, hdr);

	if (check != CUCKOO_OK)
		cf_report_corrupt(check);
	o->hash = cf_hash_params(hdr);
	o->layout = NULL;
	o->spans = cuckoo_spans;
	o->answer = cuckoo_answer;
	o->answer_many = NULL;
}

void
cf_kind_dir_next(BloomOpened *o, const uint8 *piece, BloomSpan *next)
{
	CuckooCheck check = cuckoo_dir_next(&o->hdr.cuckoo, &o->dir, piece, next);

	if (check != CUCKOO_OK)
		cf_report_corrupt(check);
}

int
cf_kind_dir_predict(const BloomOpened *o, BloomDir *dir, BloomSpan *pieces, int max)
{
	return cuckoo_dir_predict(&o->hdr.cuckoo, dir, pieces, max);
}

/* ---- opening a value ---- */

/* the header from front (BLOOM_HEADER_SIZE bytes of a value of len bytes) */
static void
bloom_opened_begin(BloomOpened *o, const BloomKind *kind, const uint8 *front, size_t len)
{
	if (len < BLOOM_HEADER_SIZE)
		kind->corrupt_length();
	o->kind = kind;
	kind->open(o, front, len);
	memset(&o->dir, 0, offsetof(BloomDir, part));
	o->dir.payload_len = len - BLOOM_HEADER_SIZE;
	o->payload = NULL;
}

/* a piece or span a kind named must lie in the payload */
static inline void
bloom_opened_check_span(const BloomOpened *o, const BloomSpan *s)
{
	if (s->offset > o->dir.payload_len || s->len > o->dir.payload_len - s->offset)
		o->kind->corrupt_length();
}

/* the directory of a value in memory: each piece from the payload itself */
static void
bloom_opened_walk_memory(BloomOpened *o, const uint8 *payload)
{
	const uint8 *piece = NULL;
	BloomSpan	next;

	for (;;)
	{
		o->kind->dir_next(o, piece, &next);
		if (next.len == 0)
			break;
		bloom_opened_check_span(o, &next);
		piece = payload + next.offset;
	}
	o->payload = payload;
}

/* a value of any form, read whole (in line: as it is; else a copy) */
static void
bloom_open_memory(const BloomKind *kind, Datum d, BloomOpened *o)
{
	size_t		len;
	const uint8 *bytes = kind->read_bytes(d, &len);

	bloom_opened_begin(o, kind, bytes, len);
	bloom_opened_walk_memory(o, bytes + BLOOM_HEADER_SIZE);
}

/* ---- answers, and reading stored values by chunks ---- */

/* h checked against a value in memory */
static inline int
bloom_opened_answer(const BloomOpened *o, BloomHash h, bool count)
{
	BloomSpan	spans[BLOOM_MAX_SPANS];
	const uint8 *at[BLOOM_MAX_SPANS];
	int			n = o->spans(&o->dir, h, spans);

	for (int i = 0; i < n; i++)
		at[i] = o->payload + spans[i].offset;
	return o->answer(&o->dir, at, h, count);
}

/*
 * The spans of h (at most BLOOM_MAX_SPANS) as offsets in the value, each
 * checked against the payload; returns how many.
 */
static int
bloom_value_spans(const BloomOpened *o, BloomHash h, BloomSpan *spans)
{
	int			n = o->spans(&o->dir, h, spans);

	for (int i = 0; i < n; i++)
	{
		bloom_opened_check_span(o, &spans[i]);
		spans[i].offset += BLOOM_HEADER_SIZE;
	}
	return n;
}

/* keep the spans that lie in the payload, as offsets in the value */
static int
bloom_spans_in_value(const BloomOpened *o, BloomSpan *spans, int n)
{
	int			kept = 0;

	for (int i = 0; i < n; i++)
		if (spans[i].offset <= o->dir.payload_len &&
			spans[i].len <= o->dir.payload_len - spans[i].offset)
		{
			spans[kept] = spans[i];
			spans[kept++].offset += BLOOM_HEADER_SIZE;
		}
	return kept;
}

/*
 * Copy the directory piece next into buf.  If its chunks are not held,
 * the kind predicts the rest of the directory, and the chunks of the
 * pieces that confirm it are fetched with them in one scan, and those of
 * h's spans in the predicted directory too (h: NULL for none), so that a
 * prediction that comes true leaves nothing more to fetch.
 */
static void
bloom_read_piece(BloomOpened *o, BloomChunkReader *r, const BloomSpan *next,
				 const BloomHash *h, uint8 *buf)
{
	BloomSpan	piece = *next;
	BloomSpan	along[BLOOM_MAX_PARTS + BLOOM_MAX_SPANS];
	int			n = 0;

	piece.offset += BLOOM_HEADER_SIZE;
	if (!bloom_chunks_held(r, &piece))
	{
		BloomDir   *predicted = palloc(sizeof(BloomDir));

		*predicted = o->dir;
		n = o->kind->dir_predict(o, predicted, along, BLOOM_MAX_PARTS);
		if (h != NULL && n > 0)
			n += o->spans(predicted, *h, along + n);
		n = bloom_spans_in_value(o, along, n);
		pfree(predicted);
	}
	bloom_chunks_read(r, &piece, along, n, buf);
}

/* an out-of-line value's header, from its first chunk */
static void
bloom_open_stored(const BloomKind *kind, BloomChunkReader *r, BloomOpened *o)
{
	BloomSpan	front = {0, BLOOM_HEADER_SIZE};
	uint8		header[BLOOM_HEADER_SIZE];

	if (r->extsize < BLOOM_HEADER_SIZE)
		kind->corrupt_length();
	bloom_chunks_read(r, &front, NULL, 0, header);
	bloom_opened_begin(o, kind, header, r->extsize);
}

/*
 * The directory of an out-of-line value: the pieces the first chunk holds,
 * then each further piece, fetched with those predicted to follow it (and
 * the spans of h, if not NULL, in the predicted directory).
 */
static void
bloom_walk_stored(BloomOpened *o, BloomChunkReader *r, const BloomHash *h)
{
	uint8	   *buf = NULL;
	const uint8 *piece = NULL;
	BloomSpan	next;

	for (;;)
	{
		o->kind->dir_next(o, piece, &next);
		if (next.len == 0)
			break;
		bloom_opened_check_span(o, &next);
		buf = buf ? repalloc(buf, next.len) : palloc(next.len);
		bloom_read_piece(o, r, &next, h, buf);
		piece = buf;
	}
	if (buf)
		pfree(buf);
}

/* ---- the query's cache of stored values ---- */

/*
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
 */
#define BLOOM_CACHE_DEFAULT_KB	(256 * 1024)
#define BLOOM_KEEP_DEFAULT_KB	(16 * 1024)
#define BLOOM_CACHE_SEEN		1024
#define BLOOM_CACHE_SIGHT_CHUNKS	32

static int	bloom_cache_memory = BLOOM_CACHE_DEFAULT_KB;
static int	bloom_keep_memory = BLOOM_KEEP_DEFAULT_KB;

void
bloom_probe_define_guc(void)
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

/* what names a stored value for a kind: the hash table's key */
typedef struct BloomHeldKey
{
	struct varatt_external ptr;
	const BloomKind *kind;
} BloomHeldKey;

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

/*
 * fn_extra of a check: the element's type, and the query's cache once the
 * call site meets a second out-of-line value (or the first again).  A
 * query that checks one stored value once, as a point check does, never
 * makes a cache; if that value is kept, the call site borrows it alone.
 */
typedef struct BloomProbeCache
{
	BloomElemType elem;			/* first: see bloom_fn_cache */
	BloomQueryCache *qc;
	bool		seen_one;
	BloomHeldKey first;			/* the first value met, until qc is made */
	BloomKeptValue *first_kept; /* first, lent by the kept values: pinned */
	MemoryContextCallback unpin;
	BloomHeld  *last;			/* qc's entry the last check used, held ... */
	uint64		last_releases;	/* ... while qc has let no value go since */
} BloomProbeCache;

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
		/* forget the values seen longest ago; e is at the head */
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
bloom_probe_unpin(void *arg)
{
	BloomProbeCache *pc = arg;

	if (pc->first_kept)
		bloom_kept_unpin(pc->first_kept);
	pc->first_kept = NULL;
}

/* read e's value whole and keep it, for the first query to borrow it */
static void
bloom_kept_load(BloomHeld *e, Datum d)
{
	/* the value's own memory: a child of the query's until it is complete */
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

	/* a setting lowered since lets values go now */
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
static const BloomOpened *
bloom_probe_held(FunctionCallInfo fcinfo, const BloomKind *kind, BloomProbeCache *pc,
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
	if (pc->qc == NULL)
	{
		/* a call site's first value needs no cache, unless it is compressed */
		if (!pc->seen_one && sliceable)
		{
			pc->seen_one = true;
			pc->first = key;
			pc->first_kept = bloom_kept_lend(&key, d, weight);
			if (pc->first_kept == NULL)
				return NULL;
			pc->unpin.func = bloom_probe_unpin;
			pc->unpin.arg = pc;
			MemoryContextRegisterResetCallback(fcinfo->flinfo->fn_mcxt, &pc->unpin);
			return pc->first_kept->value;
		}
		/* ... and the same again, if it is kept */
		if (pc->first_kept && memcmp(&key, &pc->first, sizeof(key)) == 0)
			return pc->first_kept->value;
		pc->qc = bloom_query_cache(fcinfo->flinfo->fn_mcxt);
		if (pc->seen_one)
			bloom_cache_entry(&pc->qc->c, &pc->first, &prev_use)->sights++;
	}
	/* a join or a subquery checks one value row after row: no lookup */
	e = pc->last;
	if (e != NULL && pc->last_releases == pc->qc->c.releases &&
		memcmp(&e->key, &key, sizeof(key)) == 0)
	{
		e->last_use = ++pc->qc->c.clock;
		dlist_move_head(&pc->qc->c.held, &e->node);
		return e->value;
	}
	e = bloom_cache_entry(&pc->qc->c, &key, &prev_use);
	if (e->value == NULL)
	{
		e->sights += weight;
		/* kept values are lent outside the query's budget: they count in theirs */
		bloom_query_cache_lend_room(pc->qc);
		if (sliceable && (kv = bloom_kept_lend(&key, d, weight)) != NULL)
		{
			pc->qc->c.lent[pc->qc->c.nlent++] = kv;
			bloom_cache_hold(&pc->qc->c, e, kv->value, 0, kv);
		}
		else if (bloom_cache_admit(&pc->qc->c, e, prev_use, sliceable))
		{
			o = bloom_read_whole(pc->qc->c.cxt, &key, d, sliceable, &bytes);
			bloom_cache_hold(&pc->qc->c, e, o, bytes, NULL);
		}
		else
			return NULL;
	}
	pc->last = e;
	pc->last_releases = pc->qc->c.releases;
	return e->value;
}

/* ---- one element ---- */

/* answer from the first chunk, the directory's and the element's spans' */
static int
bloom_probe_stored(const BloomKind *kind, BloomElemType *et,
				   const struct varatt_external *ptr, Datum elem, bool count)
{
	BloomChunkReader r;
	BloomOpened o;
	BloomHash	h;
	int			result = 0;

	bloom_chunks_begin(&r, ptr);
	bloom_open_stored(kind, &r, &o);
	if (bloom_key_hash(et, elem, o.hash, &h))
	{
		BloomSpan	spans[BLOOM_MAX_SPANS];
		uint8	   *dsts[BLOOM_MAX_SPANS];
		int			n;
		Size		need = 0;
		/* a blocked filter's span is one block: no palloc for it */
		uint64		local[32];
		uint8	   *buf = (uint8 *) local;

		bloom_walk_stored(&o, &r, &h);
		n = bloom_value_spans(&o, h, spans);

		for (int i = 0; i < n; i++)
			need += spans[i].len;
		if (need > sizeof(local))
			buf = palloc(need);
		for (int i = 0, pos = 0; i < n; pos += spans[i++].len)
			dsts[i] = buf + pos;
		bloom_chunks_gather(&r, spans, dsts, n, r.nchunks);
		result = o.answer(&o.dir, (const uint8 *const *) dsts, h, count);
		if (buf != (uint8 *) local)
			pfree(buf);
	}
	bloom_chunks_end(&r);
	return result;
}

/*
 * Check an element (argument elem_arg) against the filter (argument
 * filter_arg) of the given kind, or count it, caching what makes repeated
 * checks of one stored value cheap in fn_extra.
 */
static int
bloom_probe_answer(FunctionCallInfo fcinfo, const BloomKind *kind, int filter_arg,
				   int elem_arg, bool count)
{
	BloomProbeCache *pc = bloom_fn_cache(fcinfo, elem_arg, false, sizeof(BloomProbeCache));
	Datum		d = PG_GETARG_DATUM(filter_arg);
	Datum		elem = PG_GETARG_DATUM(elem_arg);
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);
	const BloomOpened *o;
	BloomOpened local;
	BloomHash	h;

	if (VARATT_IS_EXTERNAL_ONDISK(raw))
	{
		struct varatt_external ptr;
		bool		sliceable = bloom_is_sliceable(d, &ptr);

		o = bloom_probe_held(fcinfo, kind, pc, d, &ptr, sliceable, 1);
		/* not held: answer from its spans, or decompress it for this check */
		if (o == NULL && sliceable)
			return bloom_probe_stored(kind, &pc->elem, &ptr, elem, count);
		if (o == NULL)
		{
			bloom_open_memory(kind, d, &local);
			o = &local;
		}
	}
	else
	{
		/* in line (no copy unless compressed) or expanded (flattened) */
		bloom_open_memory(kind, d, &local);
		o = &local;
	}
	if (!bloom_key_hash(&pc->elem, elem, o->hash, &h))
		return 0;				/* no key of the filter's type equals it */
	return bloom_opened_answer(o, h, count);
}

PG_FUNCTION_INFO_V1(bloomfilter_contains);
PG_FUNCTION_INFO_V1(bloomfilter_contained);
PG_FUNCTION_INFO_V1(bloomfilter_count);
PG_FUNCTION_INFO_V1(cuckoofilter_contains);
PG_FUNCTION_INFO_V1(cuckoofilter_contained);
PG_FUNCTION_INFO_V1(cuckoofilter_count_int4);
PG_FUNCTION_INFO_V1(cuckoofilter_count);

Datum
bloomfilter_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_probe_answer(fcinfo, &bloomfilter_kind, 0, 1, false) != 0);
}

/* element <@ filter: the commutator, arguments the other way round */
Datum
bloomfilter_contained(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_probe_answer(fcinfo, &bloomfilter_kind, 1, 0, false) != 0);
}

/* bf_count(filter, element): how often the element was added, at most */
Datum
bloomfilter_count(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(bloom_probe_answer(fcinfo, &bloomfilter_kind, 0, 1, true));
}

Datum
cuckoofilter_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_probe_answer(fcinfo, &cuckoofilter_kind, 0, 1, false) != 0);
}

/* element <@ filter: the commutator */
Datum
cuckoofilter_contained(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_probe_answer(fcinfo, &cuckoofilter_kind, 1, 0, false) != 0);
}

/*
 * cf_count(filter, element): the entries matching the element, an integer
 * as bf_count's is.  Only the element's two buckets in each sub-filter can
 * match: at most 2 x 8 slots x CUCKOO_MAX_SUBFILTERS (64) = 1024.
 */
Datum
cuckoofilter_count_int4(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(bloom_probe_answer(fcinfo, &cuckoofilter_kind, 0, 1, true));
}

/*
 * 1.2's cf_count, bigint: what a 1.2 catalog calls until the upgrade, and
 * the cf_count_1_2 an upgrade keeps for objects that depend on it.
 */
Datum
cuckoofilter_count(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) bloom_probe_answer(fcinfo, &cuckoofilter_kind, 0, 1, true));
}

/* ---- many elements at once ---- */

/*
 * A batch of checks (bf_contains_all, cf_contains_all) hashes every element
 * first, then reads.  In memory, the spans of a group of elements are all
 * requested (prefetched) before the first is tested, so that their cache
 * misses overlap instead of following one another.  From an out-of-line
 * value that the call site has not seen before, the chunks every element's
 * spans lie in are fetched in one index scan, unless they are more than a
 * BLOOM_WHOLE_READ_SHARE-th of the value's chunks: then the value is read
 * whole into the call site's cache, since a range of chunks costs less per
 * chunk than chunks picked one by one (bench/RESULTS.md has the figures).
 */
#define BLOOM_PREFETCH_GROUP	64
#define BLOOM_WHOLE_READ_SHARE	4

/*
 * The hashes of the elements as keys of the filter; skip[i] for the NULL
 * ones and those no key of the filter's type equals (both found false).
 */
static BloomHash *
bloom_hash_many(BloomElemType *et, BloomHashParams hp, const Datum *elems,
				const bool *nulls, int n, bool *skip)
{
	BloomHash  *hashes = palloc(sizeof(BloomHash) * Max(n, 1));

	for (int i = 0; i < n; i++)
	{
		if ((i & (BLOOM_INTERRUPT_ELEMS - 1)) == BLOOM_INTERRUPT_ELEMS - 1)
			CHECK_FOR_INTERRUPTS();
		skip[i] = nulls[i] || !bloom_key_hash(et, elems[i], hp, &hashes[i]);
	}
	return hashes;
}

/* the elements one by one, each group's spans requested before its first test */
static void
bloom_opened_answer_each(const BloomOpened *o, const BloomHash *hashes, const bool *skip,
						 int n, bool *found)
{
	for (int start = 0; start < n; start += BLOOM_PREFETCH_GROUP)
	{
		int			end = Min(n, start + BLOOM_PREFETCH_GROUP);

		for (int i = start; i < end; i++)
		{
			BloomSpan	spans[BLOOM_MAX_SPANS];
			int			ns;

			if (skip[i])
				continue;
			ns = o->spans(&o->dir, hashes[i], spans);
			for (int j = 0; j < ns; j++)
				__builtin_prefetch(o->payload + spans[j].offset);
		}
		for (int i = start; i < end; i++)
			found[i] = !skip[i] && bloom_opened_answer(o, hashes[i], false);
	}
}

static void
bloom_opened_test_many(const BloomOpened *o, BloomElemType *et, const Datum *elems,
					   const bool *nulls, int n, bool *found)
{
	bool	   *skip = palloc(sizeof(bool) * Max(n, 1));
	BloomHash  *hashes = bloom_hash_many(et, o->hash, elems, nulls, n, skip);

	if (o->answer_many)
		o->answer_many(&o->dir, o->payload, hashes, skip, n, found);
	else
		bloom_opened_answer_each(o, hashes, skip, n, found);
	pfree(hashes);
	pfree(skip);
}

/* Every span of a batch, with where its bytes go. */
typedef struct BloomBatchSpans
{
	BloomSpan  *spans;			/* offsets in the value */
	uint8	  **dsts;
	int		   *first;			/* element i's spans start at first[i] */
	int			nspans;
	uint8	   *buf;
} BloomBatchSpans;

/*
 * The spans of the elements not skipped, each with room for its bytes;
 * false (nothing listed) if there could be more than twice as many as the
 * value has chunks: such a batch reads most of the value anyway.  No kind
 * names more than two spans per part of its directory.
 */
static bool
bloom_batch_spans(const BloomOpened *o, const BloomHash *hashes, const bool *skip,
				  int n, int32 nchunks, BloomBatchSpans *b)
{
	int64		room = (int64) n * 2 * o->dir.nparts;
	Size		need = 0;

	memset(b, 0, sizeof(*b));
	if (room > 2 * (int64) nchunks + BLOOM_MAX_SPANS)
		return false;
	/* a call names at most BLOOM_MAX_SPANS: the check below stays inside */
	b->spans = palloc(sizeof(BloomSpan) * (room + BLOOM_MAX_SPANS));
	b->first = palloc(sizeof(int) * (n + 1));
	for (int i = 0; i < n; i++)
	{
		b->first[i] = b->nspans;
		if (!skip[i])
			b->nspans += bloom_value_spans(o, hashes[i], b->spans + b->nspans);
		if (b->nspans > room)
			elog(ERROR, "more spans than the directory allows");
	}
	b->first[n] = b->nspans;
	for (int i = 0; i < b->nspans; i++)
		need += b->spans[i].len;
	b->buf = palloc(Max(need, 1));
	b->dsts = palloc(sizeof(uint8 *) * Max(b->nspans, 1));
	need = 0;
	for (int i = 0; i < b->nspans; i++)
	{
		b->dsts[i] = b->buf + need;
		need += b->spans[i].len;
	}
	return true;
}

static void
bloom_batch_spans_free(BloomBatchSpans *b)
{
	if (b->spans)
		pfree(b->spans);
	if (b->first)
		pfree(b->first);
	if (b->dsts)
		pfree(b->dsts);
	if (b->buf)
		pfree(b->buf);
}

/*
 * Answer a batch from the chunks its spans lie in, fetched in one scan;
 * false (nothing answered) when they are too large a share of the value,
 * or the spans too many to list.
 */
static bool
bloom_probe_many_stored(const BloomKind *kind, BloomElemType *et,
						const struct varatt_external *ptr, const Datum *elems,
						const bool *nulls, int n, bool *found)
{
	BloomChunkReader r;
	BloomOpened o;
	BloomHash  *hashes;
	BloomBatchSpans b;
	bool		done;

	bloom_chunks_begin(&r, ptr);
	bloom_open_stored(kind, &r, &o);
	bloom_walk_stored(&o, &r, NULL);
	/* found doubles as the skip list until the answers go in */
	hashes = bloom_hash_many(et, o.hash, elems, nulls, n, found);
	done = bloom_batch_spans(&o, hashes, found, n, r.nchunks, &b);
	if (done)
	{
		CHECK_FOR_INTERRUPTS();
		done = bloom_chunks_gather(&r, b.spans, b.dsts, b.nspans,
								   r.nchunks / BLOOM_WHOLE_READ_SHARE);
	}
	if (done)
		for (int i = 0; i < n; i++)
			found[i] = !found[i] &&
				o.answer(&o.dir, (const uint8 *const *) b.dsts + b.first[i],
						 hashes[i], false) != 0;
	bloom_chunks_end(&r);
	bloom_batch_spans_free(&b);
	pfree(hashes);
	return done;
}

/*
 * Check n elements at once against the filter (argument 0): found[i] for
 * each element not NULL (false for the others), of the type pc holds.
 */
static void
bloom_probe_many(FunctionCallInfo fcinfo, const BloomKind *kind, BloomProbeCache *pc,
				 const Datum *elems, const bool *nulls, int n, bool *found)
{
	Datum		d = PG_GETARG_DATUM(0);
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);
	struct varlena *flat;
	BloomOpened local;

	if (VARATT_IS_EXTERNAL_ONDISK(raw))
	{
		struct varatt_external ptr;
		bool		sliceable = bloom_is_sliceable(d, &ptr);
		const BloomOpened *held = bloom_probe_held(fcinfo, kind, pc, d, &ptr, sliceable, n);

		if (held != NULL)
		{
			bloom_opened_test_many(held, &pc->elem, elems, nulls, n, found);
			return;
		}
		if (sliceable &&
			bloom_probe_many_stored(kind, &pc->elem, &ptr, elems, nulls, n, found))
			return;
		/* not held, and most of it needed: read whole for this batch alone */
		flat = PG_DETOAST_DATUM(d);
		bloom_open_memory(kind, PointerGetDatum(flat), &local);
		bloom_opened_test_many(&local, &pc->elem, elems, nulls, n, found);
		pfree(flat);
		return;
	}
	bloom_open_memory(kind, d, &local);
	bloom_opened_test_many(&local, &pc->elem, elems, nulls, n, found);
}

/*
 * Elements bf_contains_all hashes and tests per batch: the batch's element
 * datums and hashes (25 bytes an element) stay a couple of megabytes
 * however long the array (67 million elements at once needed 1 GB of
 * hashes), and within a batch the layout still overlaps its cache misses.
 */
#define BLOOM_CONTAINS_CHUNK 65536

/*
 * An empty boolean array of the given shape with room for nitems answers
 * (and a NULL bitmap if with_nulls), written in place rather than through
 * an array of Datums as long as the answers.  An argument array has at most
 * MaxArraySize elements, so this fits, but it is checked: a limit is an
 * error, not an allocation failure.
 */
static ArrayType *
bloom_bool_array(int ndim, const int *dims, const int *lbs, int nitems, bool with_nulls)
{
	Size		overhead = with_nulls ? ARR_OVERHEAD_WITHNULLS(ndim, nitems) :
		ARR_OVERHEAD_NONULLS(ndim);
	ArrayType  *result;

	if (!AllocSizeIsValid(overhead + (Size) nitems))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("an array of %d answers exceeds the maximum allocation size of %zu bytes",
						nitems, (Size) MaxAllocSize),
				 errhint("Check the elements in smaller arrays.")));
	result = palloc0(overhead + (Size) nitems);
	SET_VARSIZE(result, overhead + (Size) nitems);
	result->ndim = ndim;
	result->dataoffset = with_nulls ? (int32) overhead : 0;
	result->elemtype = BOOLOID;
	memcpy(ARR_DIMS(result), dims, ndim * sizeof(int));
	memcpy(ARR_LBOUND(result), lbs, ndim * sizeof(int));
	return result;
}

/*
 * The array's length once ndata answers are written: without its NULL
 * bitmap if no answer was NULL, as construct_md_array would have made it.
 */
static void
bloom_bool_array_finish(ArrayType *result, int ndata, bool anynull)
{
	if (ARR_HASNULL(result) && !anynull)
	{
		char	   *data = ARR_DATA_PTR(result);

		result->dataoffset = 0;
		memmove(ARR_DATA_PTR(result), data, ndata);
	}
	SET_VARSIZE(result, ARR_DATA_OFFSET(result) + ndata);
}

/*
 * A check of every element of an array (RedisBloom's BF.MEXISTS): an array
 * of answers of the same shape, NULL for NULL elements.  The elements go to
 * the batch check a batch at a time, their type resolved once per call
 * site into the cache that check keeps.  Shared by bf_contains_all and
 * cf_contains_all.
 */
static Datum
bloom_contains_all(FunctionCallInfo fcinfo, const BloomKind *kind)
{
	BloomProbeCache *pc = bloom_fn_cache(fcinfo, 1, true, sizeof(BloomProbeCache));
	BloomElemType *et = &pc->elem;
	AnyArrayType *arr = PG_GETARG_ANY_ARRAY_P(1);
	int			ndim = AARR_NDIM(arr);
	int			nitems = ArrayGetNItems(ndim, AARR_DIMS(arr));
	int			chunk = Min(nitems, BLOOM_CONTAINS_CHUNK);
	Datum	   *elems = palloc(sizeof(Datum) * Max(chunk, 1));
	bool	   *nulls = palloc(sizeof(bool) * Max(chunk, 1));
	bool	   *found = palloc(sizeof(bool) * Max(chunk, 1));
	ArrayType  *result;
	bool	   *answers;
	uint8	   *bitmap;
	int			ndata = 0;
	bool		anynull = false;
	array_iter	it;

	if (nitems == 0)
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(BOOLOID));
	/* an expanded array does not say cheaply whether it holds NULLs */
	result = bloom_bool_array(ndim, AARR_DIMS(arr), AARR_LBOUND(arr), nitems,
							  VARATT_IS_EXPANDED_HEADER(arr) || ARR_HASNULL(&arr->flt));
	answers = (bool *) ARR_DATA_PTR(result);
	bitmap = ARR_NULLBITMAP(result);
	BLOOM_ARRAY_ITER_SETUP(&it, arr, et->typlen, et->typbyval, et->typalign);
	for (int start = 0; start < nitems; start += chunk)
	{
		int			n = Min(chunk, nitems - start);

		for (int i = 0; i < n; i++)
			elems[i] = BLOOM_ARRAY_ITER_NEXT(&it, &nulls[i], start + i, et->typlen,
											  et->typbyval, et->typalign);
		bloom_probe_many(fcinfo, kind, pc, elems, nulls, n, found);
		for (int i = 0; i < n; i++)
		{
			anynull |= nulls[i];
			if (nulls[i])
				continue;
			if (bitmap)
				bitmap[(start + i) / 8] |= 1 << ((start + i) % 8);
			answers[ndata++] = found[i];
		}
	}
	bloom_bool_array_finish(result, ndata, anynull);
	PG_RETURN_ARRAYTYPE_P(result);
}

PG_FUNCTION_INFO_V1(bloomfilter_contains_all);
PG_FUNCTION_INFO_V1(cuckoofilter_contains_all);

/*
 * bf_contains_all(filter, elements): bf_contains for each; a batch at a
 * time, hashes first, then the spans, read together.
 */
Datum
bloomfilter_contains_all(PG_FUNCTION_ARGS)
{
	return bloom_contains_all(fcinfo, &bloomfilter_kind);
}

/* cf_contains_all(filter, elements): cf_contains for each, batched alike */
Datum
cuckoofilter_contains_all(PG_FUNCTION_ARGS)
{
	return bloom_contains_all(fcinfo, &cuckoofilter_kind);
}
