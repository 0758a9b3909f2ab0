/*-------------------------------------------------------------------------
 *
 * bloomfilter_probe.c
 *	  Checks of elements against a filter argument: one element
 *	  (bf_contains, bf_count and their operators) or many at once
 *	  (bf_contains_all), with the per-call-site cache of stored values.
 *
 * A single check of an out-of-line value fetches the header and the one
 * span its layout says the element lives in (a 64-byte block), both from
 * one opening of the TOAST relation.  When the same stored value comes
 * back in a later call of the same query (a join or a scalar subquery
 * against a filters row), it is read once into the call site's cache,
 * placed so that its payload starts on a 64-byte boundary, and every
 * further check costs a hash and a cache line.  Values are recognised by
 * their TOAST pointer (relation, value OID, sizes), which names one
 * immutable value.
 *
 * src/bloomfilter_probe.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/detoast.h"
#include "access/heaptoast.h"
#include "access/table.h"
#include "miscadmin.h"

#include "bloomfilter_datum.h"
#include "bloomfilter_elem.h"

/*
 * fn_extra of bloom_probe: the out-of-line values the call site saw last.
 * A join of requests against a few filters rows (one per region, say) sees
 * them in turn; holding several keeps each read once.  The value used least
 * recently gives way to a new one.
 */
#define BLOOM_PROBE_ENTRIES	8

typedef struct BloomProbeEntry
{
	bool		used;
	struct varatt_external key; /* names one immutable value */
	uint64		last_use;
	BloomView	view;			/* of the value held; payload NULL if none */
	void	   *alloc;			/* what view.payload points into */
	Size		bytes;			/* its size */
} BloomProbeEntry;

/*
 * The values held by one call site take at most this much memory, or
 * work_mem if that is more (and always one value, whatever its size).
 */
#define BLOOM_PROBE_CACHE_BYTES ((Size) 256 * 1024 * 1024)

typedef struct BloomProbeCache
{
	BloomElemType elem;			/* first: see bloom_fn_cache */
	uint64		clock;
	BloomProbeEntry entries[BLOOM_PROBE_ENTRIES];
} BloomProbeCache;

/* ---- probing ---- */

/* the answer from the span of h: present, or how often added (count) */
static inline int
bloom_span_answer(const BloomView *v, const uint8 *span, BloomHash h, bool count)
{
	return count ? v->layout->count(&v->hdr, span, h) :
		(int) v->layout->test_span(&v->hdr, span, h);
}

/* answer from the header and the one span the element maps to */
static int
bloom_probe_slices(BloomElemType *et, const struct varatt_external *ptr,
				   Datum elem, bool count, bool *answered)
{
	Relation	toastrel = table_open(ptr->va_toastrelid, AccessShareLock);
	BloomView	v;
	BloomHash	h;
	struct varlena *span;
	int			result = 0;

	bloom_read_header_slice(toastrel, ptr, &v);
	*answered = v.layout->span_bytes > 0;
	if (*answered && bloom_key_hash(et, elem, bloom_hash_params(&v.hdr), &h))
	{
		span = palloc(VARHDRSZ + v.layout->span_bytes);
		bloom_toast_fetch(toastrel, ptr,
						  (int32) (BLOOM_HEADER_SIZE + v.layout->span_of(&v.hdr, h)),
						  (int32) v.layout->span_bytes, span);
		result = bloom_span_answer(&v, (const uint8 *) VARDATA(span), h, count);
		pfree(span);
	}
	table_close(toastrel, AccessShareLock);
	return result;
}

/*
 * Hold the whole value in the call site's memory, its payload on a cache
 * line boundary.  An uncompressed out-of-line value is read from its TOAST
 * table straight into place; anything else is detoasted and copied.
 */
static void
bloom_probe_cache_load(FunctionCallInfo fcinfo, BloomProbeEntry *e, Datum d,
					   bool sliceable)
{
	Size		size;
	char	   *alloc;
	struct varlena *dst;
	struct varlena *flat = NULL;

	if (sliceable)
		size = VARHDRSZ + VARATT_EXTERNAL_GET_EXTSIZE(e->key);
	else
	{
		flat = PG_DETOAST_DATUM(d);
		size = VARSIZE(flat);
	}
	alloc = bloom_palloc(fcinfo->flinfo->fn_mcxt, size + BLOOM_CACHE_LINE);
	dst = (struct varlena *) (TYPEALIGN(BLOOM_CACHE_LINE,
										alloc + VARHDRSZ + BLOOM_HEADER_SIZE) -
							  VARHDRSZ - BLOOM_HEADER_SIZE);
	if (sliceable)
	{
		Relation	toastrel = table_open(e->key.va_toastrelid, AccessShareLock);

		bloom_toast_fetch(toastrel, &e->key, 0, (int32) (size - VARHDRSZ), dst);
		table_close(toastrel, AccessShareLock);
	}
	else
	{
		bloom_fill_chunked((uint8 *) dst, (const uint8 *) flat, size);
		if (flat != (struct varlena *) DatumGetPointer(d))
			pfree(flat);
	}
	bloom_view_init(&e->view, (const uint8 *) VARDATA(dst), size - VARHDRSZ,
					size - VARHDRSZ);
	e->view.payload = (const uint8 *) VARDATA(dst) + BLOOM_HEADER_SIZE;
	e->alloc = alloc;
}

/*
 * The entry of the out-of-line value ptr; *is_new when the call site had not
 * seen it (among the last BLOOM_PROBE_ENTRIES), in which case the entry used
 * least recently now names it, its copy dropped.
 */
static BloomProbeEntry *
bloom_probe_entry(BloomProbeCache *pc, const struct varatt_external *ptr, bool *is_new)
{
	BloomProbeEntry *victim = &pc->entries[0];

	for (int i = 0; i < BLOOM_PROBE_ENTRIES; i++)
	{
		BloomProbeEntry *e = &pc->entries[i];

		if (e->used && memcmp(ptr, &e->key, sizeof(*ptr)) == 0)
		{
			e->last_use = ++pc->clock;
			*is_new = false;
			return e;
		}
		if (!e->used || (victim->used && e->last_use < victim->last_use))
			victim = e;
	}
	if (victim->alloc)
		pfree(victim->alloc);
	victim->alloc = NULL;
	victim->view.payload = NULL;
	victim->key = *ptr;
	victim->used = true;
	victim->last_use = ++pc->clock;
	*is_new = true;
	return victim;
}

/* drop values held least recently until need more bytes fit */
static void
bloom_probe_make_room(BloomProbeCache *pc, BloomProbeEntry *keep, Size need)
{
	Size		budget = Max((Size) work_mem * 1024, BLOOM_PROBE_CACHE_BYTES);

	for (;;)
	{
		Size		held = 0;
		BloomProbeEntry *lru = NULL;

		for (int i = 0; i < BLOOM_PROBE_ENTRIES; i++)
		{
			BloomProbeEntry *e = &pc->entries[i];

			if (e->alloc == NULL || e == keep)
				continue;
			held += e->bytes;
			if (lru == NULL || e->last_use < lru->last_use)
				lru = e;
		}
		if (lru == NULL || held + need <= budget)
			return;
		pfree(lru->alloc);
		lru->alloc = NULL;
		lru->view.payload = NULL;
		lru->bytes = 0;
	}
}

/* the entry's whole value, read now if it is not held yet */
static const BloomView *
bloom_probe_cached(FunctionCallInfo fcinfo, BloomProbeCache *pc, BloomProbeEntry *e,
				   Datum d, bool sliceable)
{
	if (e->view.payload == NULL)
	{
		e->bytes = sliceable ? VARATT_EXTERNAL_GET_EXTSIZE(e->key) : e->key.va_rawsize;
		bloom_probe_make_room(pc, e, e->bytes);
		bloom_probe_cache_load(fcinfo, e, d, sliceable);
	}
	return &e->view;
}

static int
bloom_view_answer(const BloomView *v, BloomElemType *et, Datum elem, bool count)
{
	BloomHash	h;

	if (!bloom_key_hash(et, elem, bloom_hash_params(&v->hdr), &h))
		return 0;				/* no key of the filter's type equals it */
	return bloom_span_answer(v, v->payload + v->layout->span_of(&v->hdr, h), h, count);
}

/*
 * Check an element (argument elem_arg) against the filter (argument
 * filter_arg), or count it, caching what makes repeated checks of one
 * stored value cheap in fn_extra.
 */
static int
bloom_probe_answer(FunctionCallInfo fcinfo, int filter_arg, int elem_arg, bool count)
{
	BloomProbeCache *pc = bloom_fn_cache(fcinfo, elem_arg, false, sizeof(BloomProbeCache));
	Datum		d = PG_GETARG_DATUM(filter_arg);
	Datum		elem = PG_GETARG_DATUM(elem_arg);
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);
	BloomView	v;

	if (VARATT_IS_EXTERNAL_ONDISK(raw))
	{
		struct varatt_external ptr;
		bool		sliceable = bloom_is_sliceable(d, &ptr);
		bool		is_new;
		BloomProbeEntry *e = bloom_probe_entry(pc, &ptr, &is_new);

		/* a value not seen before: remember it, answer by slices */
		if (is_new && sliceable)
		{
			bool		answered;
			int			result = bloom_probe_slices(&pc->elem, &ptr, elem, count, &answered);

			if (answered)
				return result;
		}
		/* seen before, compressed, or checked as a whole: hold it */
		return bloom_view_answer(bloom_probe_cached(fcinfo, pc, e, d, sliceable),
								 &pc->elem, elem, count);
	}

	/* in line (no copy unless compressed) or expanded (flattened) */
	bloom_read(d, &v);
	return bloom_view_answer(&v, &pc->elem, elem, count);
}

bool
bloom_probe(FunctionCallInfo fcinfo, int filter_arg, int elem_arg)
{
	return bloom_probe_answer(fcinfo, filter_arg, elem_arg, false) != 0;
}

/* how often the element was added, at most (bf_count) */
int
bloom_probe_count(FunctionCallInfo fcinfo, int filter_arg, int elem_arg)
{
	return bloom_probe_answer(fcinfo, filter_arg, elem_arg, true);
}

/* ---- probing many elements at once ---- */

/*
 * A batch of checks (bf_contains_all) hashes every element first, then
 * reads.  In memory, the spans of a group of elements are all requested
 * (prefetched) before the first is tested, so that their cache misses
 * overlap instead of following one another.  From an out-of-line value
 * that the call site has not seen before, only the spans are read, in
 * order of offset, from one opening of the TOAST relation: spans close
 * together (in one TOAST chunk, or a few chunks apart) are fetched by one
 * slice, since reading a chunk more costs less than starting another index
 * scan of the TOAST relation.  Many elements thus read the value in a few
 * long slices and few elements read a few chunks; a 12 MB value is never
 * read whole to answer a hundred keys (bench/RESULTS.md has the figures).
 */
#define BLOOM_PREFETCH_GROUP	64

/* Spans further apart than this many TOAST chunks get slices of their own. */
#define BLOOM_SLICE_GAP_CHUNKS	4

BloomElemType *
bloom_probe_elem_type(FunctionCallInfo fcinfo, int elem_arg, bool array_element)
{
	BloomProbeCache *pc = bloom_fn_cache(fcinfo, elem_arg, array_element,
										 sizeof(BloomProbeCache));

	return &pc->elem;
}

/*
 * The hashes of the elements as keys of the filter; skip[i] for the NULL
 * ones and those no key of the filter's type equals (both found false).
 */
static BloomHash *
bloom_hash_many(BloomElemType *et, const BloomHeader *hdr, const Datum *elems,
				const bool *nulls, int n, bool *skip)
{
	BloomHash  *hashes = palloc(sizeof(BloomHash) * Max(n, 1));
	BloomHashParams hp = bloom_hash_params(hdr);

	for (int i = 0; i < n; i++)
	{
		if ((i & (BLOOM_INTERRUPT_ELEMS - 1)) == BLOOM_INTERRUPT_ELEMS - 1)
			CHECK_FOR_INTERRUPTS();
		skip[i] = nulls[i] || !bloom_key_hash(et, elems[i], hp, &hashes[i]);
	}
	return hashes;
}

static void
bloom_view_test_many(const BloomView *v, BloomElemType *et, const Datum *elems,
					 const bool *nulls, int n, bool *found)
{
	bool	   *skip = palloc(sizeof(bool) * Max(n, 1));
	BloomHash  *hashes = bloom_hash_many(et, &v->hdr, elems, nulls, n, skip);

	for (int start = 0; start < n; start += BLOOM_PREFETCH_GROUP)
	{
		int			end = Min(n, start + BLOOM_PREFETCH_GROUP);

		for (int i = start; i < end; i++)
			if (!skip[i])
				__builtin_prefetch(v->payload + v->layout->span_of(&v->hdr, hashes[i]));
		for (int i = start; i < end; i++)
			found[i] = !skip[i] &&
				v->layout->test_span(&v->hdr,
									 v->payload + v->layout->span_of(&v->hdr, hashes[i]),
									 hashes[i]);
	}
	pfree(hashes);
	pfree(skip);
}

typedef struct BloomSpanRef
{
	uint64		offset;			/* in the payload */
	int			index;			/* into the caller's arrays */
} BloomSpanRef;

static int
bloom_span_ref_cmp(const void *a, const void *b)
{
	uint64		oa = ((const BloomSpanRef *) a)->offset;
	uint64		ob = ((const BloomSpanRef *) b)->offset;

	return oa < ob ? -1 : (oa > ob ? 1 : 0);
}

/*
 * Answer a batch from the header and the spans of the elements, by slices.
 * False (nothing answered) for a layout whose checks need the whole value.
 */
static bool
bloom_probe_many_slices(BloomElemType *et, const struct varatt_external *ptr,
						const Datum *elems, const bool *nulls, int n,
						bool *found)
{
	Relation	toastrel = table_open(ptr->va_toastrelid, AccessShareLock);
	BloomView	v;
	BloomHash  *hashes;
	BloomSpanRef *refs;
	int			nrefs = 0;
	uint64		gap = (uint64) BLOOM_SLICE_GAP_CHUNKS * TOAST_MAX_CHUNK_SIZE;
	uint32		span_bytes;

	bloom_read_header_slice(toastrel, ptr, &v);
	span_bytes = v.layout->span_bytes;
	if (span_bytes == 0)
	{
		table_close(toastrel, AccessShareLock);
		return false;
	}
	/* found doubles as the skip list until the answers go in */
	hashes = bloom_hash_many(et, &v.hdr, elems, nulls, n, found);
	refs = palloc(sizeof(BloomSpanRef) * Max(n, 1));
	for (int i = 0; i < n; i++)
	{
		bool		skip = found[i];

		found[i] = false;
		if (skip)
			continue;
		refs[nrefs].offset = v.layout->span_of(&v.hdr, hashes[i]);
		refs[nrefs].index = i;
		nrefs++;
	}
	qsort(refs, nrefs, sizeof(BloomSpanRef), bloom_span_ref_cmp);

	for (int first = 0; first < nrefs;)
	{
		uint64		start = refs[first].offset;
		uint64		end = start + span_bytes;
		int			last = first + 1;
		struct varlena *slice;

		/* the run of spans this slice covers */
		while (last < nrefs && refs[last].offset <= end + gap)
		{
			end = Max(end, refs[last].offset + span_bytes);
			last++;
		}
		CHECK_FOR_INTERRUPTS();
		slice = palloc(VARHDRSZ + (end - start));
		bloom_toast_fetch(toastrel, ptr, (int32) (BLOOM_HEADER_SIZE + start),
						  (int32) (end - start), slice);
		for (int r = first; r < last; r++)
		{
			int			i = refs[r].index;

			found[i] = v.layout->test_span(&v.hdr,
										   (const uint8 *) VARDATA(slice) +
										   (refs[r].offset - start),
										   hashes[i]);
		}
		pfree(slice);
		first = last;
	}
	table_close(toastrel, AccessShareLock);
	pfree(refs);
	pfree(hashes);
	return true;
}

void
bloom_probe_many(FunctionCallInfo fcinfo, int filter_arg, const Datum *elems,
				 const bool *nulls, int n, bool *found)
{
	BloomProbeCache *pc = (BloomProbeCache *) fcinfo->flinfo->fn_extra;
	Datum		d = PG_GETARG_DATUM(filter_arg);
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);
	BloomView	v;

	Assert(pc != NULL);			/* bloom_probe_elem_type made it */
	if (VARATT_IS_EXTERNAL_ONDISK(raw))
	{
		struct varatt_external ptr;
		bool		sliceable = bloom_is_sliceable(d, &ptr);
		bool		is_new;
		BloomProbeEntry *e = bloom_probe_entry(pc, &ptr, &is_new);

		if (is_new && sliceable &&
			bloom_probe_many_slices(&pc->elem, &ptr, elems, nulls, n, found))
			return;
		bloom_view_test_many(bloom_probe_cached(fcinfo, pc, e, d, sliceable),
							 &pc->elem, elems, nulls, n, found);
		return;
	}
	bloom_read(d, &v);
	bloom_view_test_many(&v, &pc->elem, elems, nulls, n, found);
}

