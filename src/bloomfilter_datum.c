/*-------------------------------------------------------------------------
 *
 * bloomfilter_datum.c
 *	  The forms of a bloomfilter value and how each is read and written.
 *
 * A filter reaches a function in one of four forms: in line (possibly with
 * a short header), out of line uncompressed (the type's default storage is
 * EXTERNAL), out of line or in line compressed (if someone changed the
 * storage), or as the aggregate's expanded state.  This file is the only
 * one that tells them apart.
 *
 * Reading is where the time goes: a filter of ten million elements is 12 MB
 * of TOAST.  So reading comes in three depths.  The header alone (for
 * introspection) is a 48-byte slice of an out-of-line value.  A single check
 * of an out-of-line value fetches the header and the one span its layout
 * says the element lives in (a 64-byte block), both from one opening of the
 * TOAST relation.  When the same stored value comes back in a later call of
 * the same query (a join or a scalar subquery against a filters row), it is
 * read once into the call site's cache, placed so that its payload starts on
 * a 64-byte boundary, and every further check costs a hash and a cache line.
 * Values are recognised by their TOAST pointer (relation, value OID,
 * sizes), which names one immutable value.
 *
 * Every read checks the header against the value's length first (O(1)), so
 * a value damaged since it passed full validation on input raises an error
 * instead of sending a read past its end.  Nothing that reads changes the
 * datum it read: the expanded state is flattened into a copy, with its
 * pending hashes applied to the copy.
 *
 * src/bloomfilter_datum.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/mman.h>

#include "access/detoast.h"
#include "access/heaptoast.h"
#include "access/table.h"
#include "access/tableam.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/memutils.h"

#include "bloom_blocked.h"
#include "bloomfilter_datum.h"
#include "bloomfilter_elem.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/* payloads are kept aligned to this, so that a check touches one line */
#define BLOOM_CACHE_LINE	64

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

void
bloom_report_corrupt(BloomCheck check)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("bloom filter value is corrupt"),
			 errdetail_internal("%s", bloom_check_message(check))));
}

static void
bloom_check_interrupts_hook(void)
{
	CHECK_FOR_INTERRUPTS();
}

void
_PG_init(void)
{
	/* the core's long loops answer a cancel through this */
	bloom_interrupt_hook = bloom_check_interrupts_hook;
	bloom_hashes_define_guc();
}

/* decode a header and check it against the value's total length */
static void
bloom_view_init(BloomView *v, const uint8 *bytes, size_t header_bytes, size_t len)
{
	BloomCheck	check = BLOOM_BAD_LENGTH;

	if (header_bytes >= BLOOM_HEADER_SIZE)
	{
		bloom_header_decode(bytes, &v->hdr);
		check = bloom_validate_header(&v->hdr, len);
	}
	if (check != BLOOM_OK)
		bloom_report_corrupt(check);
	v->layout = bloom_layout_for(v->hdr.layout);
	v->payload = NULL;
}

/* ---- memory ---- */

/*
 * Memory for a filter, in cxt.  A large chunk comes straight from mmap and
 * is faulted in page by page when first written; where the kernel offers
 * transparent huge pages on request (Linux's "madvise" mode, Debian's
 * default), asking for them before the first write turns thousands of
 * faults into a handful.  Only the 2 MB-aligned interior is advised, so
 * nothing outside the chunk is affected; the advice changes neither
 * contents nor semantics, and a kernel that declines it leaves things as
 * they were.
 */
#define BLOOM_HUGE_PAGE		((uintptr_t) 2 * 1024 * 1024)

static void
bloom_advise_huge(char *p, Size size)
{
#ifdef MADV_HUGEPAGE
	if (size >= 2 * BLOOM_HUGE_PAGE)
	{
		uintptr_t	start = TYPEALIGN(BLOOM_HUGE_PAGE, (uintptr_t) p);
		uintptr_t	end = TYPEALIGN_DOWN(BLOOM_HUGE_PAGE, (uintptr_t) p + size);

		if (end > start)
			(void) madvise((void *) start, end - start, MADV_HUGEPAGE);
	}
#endif
}

void *
bloom_palloc(MemoryContext cxt, Size size)
{
	char	   *p = MemoryContextAlloc(cxt, size);

	bloom_advise_huge(p, size);
	return p;
}

/*
 * p (from bloom_palloc) enlarged to size, its contents kept.  A large chunk
 * is its own malloc block, which the C library moves by remapping its pages
 * rather than copying them.
 */
void *
bloom_repalloc(void *p, Size size)
{
	char	   *q = repalloc(p, size);

	bloom_advise_huge(q, size);
	return q;
}

/*
 * Copy (src not NULL) or zero n bytes a megabyte at a time, checking for
 * interrupts in between: touching fresh memory is the slow part of making a
 * large filter, and a cancel has to be answered meanwhile.
 */
static void
bloom_fill(void *dst, const void *src, size_t n)
{
	for (size_t off = 0; off < n; off += BLOOM_INTERRUPT_BYTES)
	{
		size_t		len = Min(BLOOM_INTERRUPT_BYTES, n - off);

		CHECK_FOR_INTERRUPTS();
		if (src)
			memcpy((char *) dst + off, (const char *) src + off, len);
		else
			memset((char *) dst + off, 0, len);
	}
}

/* how large a value must grow to take more; an error if it cannot */
uint64
bloom_grown_bytes(const BloomHeader *hdr, const BloomLayout *layout, const uint8 *payload)
{
	uint64		bytes = layout->grown_bytes(hdr, payload);

	if (bytes == 0)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s bloom filter cannot grow any further", layout->name),
				 errdetail("A bloom filter value is limited to %llu bytes, and a sub-filter's error rate to at least %g.",
						   (unsigned long long) BLOOM_MAX_BYTES, BLOOM_MIN_ERROR_RATE)));
	return bytes;
}

/* ---- the expanded aggregate state ---- */

static Size
bloom_state_flat_size(ExpandedObjectHeader *eoh)
{
	BloomState *s = (BloomState *) eoh;
	BloomHeader hdr = s->hdr;

	if (s->layout->holds_hashes)
		bloom_hashes_trim(&hdr);
	return BLOOMFILTER_SIZE(s->layout->payload_bytes(&hdr));
}

/* the flat form, with the pending hashes added to it and not to the state */
static void
bloom_state_flatten_into(ExpandedObjectHeader *eoh, void *result, Size size)
{
	BloomState *s = (BloomState *) eoh;
	BloomFilter *bf = (BloomFilter *) result;
	BloomHeader hdr = s->hdr;

	Assert(size == bloom_state_flat_size(eoh));
	SET_VARSIZE(bf, size);
	bloom_fill(BLOOMFILTER_PAYLOAD(bf), s->payload, size - VARHDRSZ - BLOOM_HEADER_SIZE);
	/* a list leaves with the cells it uses, the state's spare ones unwritten */
	if (s->layout->holds_hashes)
		bloom_hashes_trim(&hdr);
	s->layout->add(&hdr, BLOOMFILTER_PAYLOAD(bf), s->pending, s->npending);
	bloom_header_encode(&hdr, bf->data);
}

static const ExpandedObjectMethods bloom_state_methods = {
	bloom_state_flat_size,
	bloom_state_flatten_into
};

static bool
bloom_is_expanded(Datum d)
{
	return VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(d)) &&
		DatumGetEOHP(d)->eoh_methods == &bloom_state_methods;
}

/* our state passed read-write, which only its aggregate can do; else NULL */
BloomState *
bloom_state_of(Datum d)
{
	if (VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(d)) && bloom_is_expanded(d))
		return (BloomState *) DatumGetEOHP(d);
	return NULL;
}

/* a new state in a child of parent: empty (payload NULL) or a copy */
BloomState *
bloom_state_new(MemoryContext parent, const BloomHeader *hdr, const uint8 *payload)
{
	MemoryContext cxt = AllocSetContextCreate(parent, "bloom filter state",
											  ALLOCSET_SMALL_SIZES);
	BloomState *s = MemoryContextAlloc(cxt, sizeof(BloomState));
	size_t		nbytes;
	char	   *alloc;

	EOH_init_header(&s->eoh, &bloom_state_methods, cxt);
	s->hdr = *hdr;
	s->layout = bloom_layout_for(hdr->layout);
	s->npending = 0;
	s->nparts = 0;
	nbytes = s->layout->payload_bytes(hdr);
	alloc = bloom_palloc(cxt, nbytes + BLOOM_CACHE_LINE - 1);
	s->alloc = alloc;
	s->payload = (uint8 *) TYPEALIGN(BLOOM_CACHE_LINE, alloc);
	bloom_fill(s->payload, payload, nbytes);
	return s;
}

/* one step of growth of the state's payload, into memory of its own */
static void
bloom_state_grow(BloomState *s)
{
	uint64		bytes = bloom_grown_bytes(&s->hdr, s->layout, s->payload);
	char	   *alloc = bloom_palloc(s->eoh.eoh_context, bytes + BLOOM_CACHE_LINE - 1);
	uint8	   *grown = (uint8 *) TYPEALIGN(BLOOM_CACHE_LINE, alloc);

	s->layout->grow(&s->hdr, s->payload, grown);
	pfree(s->alloc);
	s->alloc = alloc;
	s->payload = grown;
}

/*
 * n hashes into the state, growing it when its layout must.  A list of
 * hashes grows up to its bound, and past it becomes a filter
 * (bloomfilter_hashes.c).
 */
void
bloom_state_add_many(BloomState *s, const BloomHash *hashes, size_t n)
{
	size_t		done = 0;

	while ((done += s->layout->add(&s->hdr, s->payload, hashes + done, n - done)) < n)
	{
		if (s->layout->holds_hashes)
			bloom_state_list_grow(s);
		else
			bloom_state_grow(s);
	}
}

/* the pending hashes into the state (the array is not touched by settling) */
void
bloom_state_flush(BloomState *s)
{
	int			n = s->npending;

	s->npending = 0;
	bloom_state_add_many(s, s->pending, n);
}

/*
 * Grow the state's payload until it is as large as payload_bytes (a
 * scalable filter's, before a union with one that has more sub-filters).
 */
void
bloom_state_reserve(BloomState *s, uint64 payload_bytes)
{
	while (s->layout->payload_bytes(&s->hdr) < payload_bytes)
		bloom_state_grow(s);
}

/* ---- reading ---- */

/*
 * Fetch len bytes at offset of an uncompressed out-of-line value into dst
 * (which has room for a varlena header in front of them).
 */
static void
bloom_toast_fetch(Relation toastrel, const struct varatt_external *ptr,
				  int32 offset, int32 len, struct varlena *dst)
{
	SET_VARSIZE(dst, VARHDRSZ + len);
	table_relation_fetch_toast_slice(toastrel, ptr->va_valueid,
									 VARATT_EXTERNAL_GET_EXTSIZE(*ptr),
									 offset, len, dst);
}

static bool
bloom_is_sliceable(Datum d, struct varatt_external *ptr)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);

	if (!VARATT_IS_EXTERNAL_ONDISK(raw))
		return false;
	VARATT_EXTERNAL_GET_POINTER(*ptr, raw);
	return !VARATT_EXTERNAL_IS_COMPRESSED(*ptr);
}

static void
bloom_read_header_slice(Relation toastrel, const struct varatt_external *ptr,
						BloomView *v)
{
	union
	{
		struct varlena vl;
		char		buf[VARHDRSZ + BLOOM_HEADER_SIZE];
	}			slice;
	int32		extsize = VARATT_EXTERNAL_GET_EXTSIZE(*ptr);

	if (extsize < BLOOM_HEADER_SIZE)
		bloom_report_corrupt(BLOOM_BAD_LENGTH);
	bloom_toast_fetch(toastrel, ptr, 0, BLOOM_HEADER_SIZE, &slice.vl);
	bloom_view_init(v, (const uint8 *) VARDATA(&slice.vl), BLOOM_HEADER_SIZE, extsize);
}

/*
 * The header, reading no more of the value than it must: a slice of an
 * uncompressed out-of-line value; the front of a compressed one, which
 * decompression can stop after (and whose compressed form is read only as
 * far as that needs), checked against the length it records.
 */
void
bloom_read_header(Datum d, BloomView *v)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);
	struct varatt_external ptr;

	if (bloom_is_sliceable(d, &ptr))
	{
		Relation	toastrel = table_open(ptr.va_toastrelid, AccessShareLock);

		bloom_read_header_slice(toastrel, &ptr, v);
		table_close(toastrel, AccessShareLock);
		return;
	}
	if (VARATT_IS_COMPRESSED(raw) || VARATT_IS_EXTERNAL_ONDISK(raw))
	{
		struct varlena *front = detoast_attr_slice(raw, 0, BLOOM_HEADER_SIZE);
		size_t		len;

		/* bloom_is_sliceable read the pointer of an out-of-line value */
		if (VARATT_IS_COMPRESSED(raw))
			len = VARDATA_COMPRESSED_GET_EXTSIZE(raw);
		else
			len = ptr.va_rawsize - VARHDRSZ;
		bloom_view_init(v, (const uint8 *) VARDATA_ANY(front), VARSIZE_ANY_EXHDR(front), len);
		pfree(front);
		return;
	}
	bloom_read(d, v);
	v->payload = NULL;
}

/*
 * The serialized bytes (header and payload) of any form, read-only: in line
 * as they are, anything else detoasted or flattened into a fresh copy.
 */
const uint8 *
bloom_read_bytes(Datum d, size_t *len)
{
	struct varlena *flat = PG_DETOAST_DATUM_PACKED(d);

	*len = VARSIZE_ANY_EXHDR(flat);
	return (const uint8 *) VARDATA_ANY(flat);
}

void
bloom_read(Datum d, BloomView *v)
{
	size_t		len;
	const uint8 *bytes = bloom_read_bytes(d, &len);

	bloom_view_init(v, bytes, len, len);
	v->payload = bytes + BLOOM_HEADER_SIZE;
}

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
	if (*answered && bloom_key_hash(et, elem, &v.hdr, &h))
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
		bloom_fill(dst, flat, size);
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

	if (!bloom_key_hash(et, elem, &v->hdr, &h))
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

	for (int i = 0; i < n; i++)
	{
		if ((i & 4095) == 4095)
			CHECK_FOR_INTERRUPTS();
		skip[i] = nulls[i] || !bloom_key_hash(et, elems[i], hdr, &hashes[i]);
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

/* ---- writing ---- */

void
bloom_set_header(BloomFilter *bf, const BloomHeader *hdr)
{
	bloom_header_encode(hdr, bf->data);
}

/* a new, empty filter for hdr (whose count of cells set must be 0) */
BloomFilter *
bloom_new(const BloomHeader *hdr)
{
	Size		size = BLOOMFILTER_SIZE(bloom_layout_for(hdr->layout)->payload_bytes(hdr));
	BloomFilter *bf = bloom_palloc(CurrentMemoryContext, size);

	SET_VARSIZE(bf, size);
	bloom_set_header(bf, hdr);
	bloom_fill(BLOOMFILTER_PAYLOAD(bf), NULL, size - VARHDRSZ - BLOOM_HEADER_SIZE);
	return bf;
}

/* a private, writable copy of any form, opened into v */
BloomFilter *
bloom_copy(Datum d, BloomView *v)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);
	BloomFilter *bf;

	/* a value that has to be detoasted or flattened arrives as a fresh copy */
	if (VARATT_IS_EXTENDED(raw))
		bf = (BloomFilter *) PG_DETOAST_DATUM(d);
	else
	{
		bf = bloom_palloc(CurrentMemoryContext, VARSIZE(raw));
		SET_VARSIZE(bf, VARSIZE(raw));
		bloom_fill(bf->data, VARDATA(raw), VARSIZE(raw) - VARHDRSZ);
	}
	bloom_view_init(v, bf->data, VARSIZE(bf) - VARHDRSZ, VARSIZE(bf) - VARHDRSZ);
	v->payload = BLOOMFILTER_PAYLOAD(bf);
	return bf;
}

/*
 * Add hashes to bf (a private copy opened into v), growing it into a new
 * value when its layout must; returns the value to use from then on, with
 * its header written.
 */
BloomFilter *
bloom_add_hashes(BloomFilter *bf, BloomView *v, const BloomHash *hashes, size_t n)
{
	size_t		done = 0;

	while ((done += v->layout->add(&v->hdr, BLOOMFILTER_PAYLOAD(bf), hashes + done,
								   n - done)) < n)
	{
		Size		size = BLOOMFILTER_SIZE(bloom_grown_bytes(&v->hdr, v->layout,
															  BLOOMFILTER_PAYLOAD(bf)));
		BloomFilter *grown = bloom_palloc(CurrentMemoryContext, size);

		SET_VARSIZE(grown, size);
		v->layout->grow(&v->hdr, BLOOMFILTER_PAYLOAD(bf), BLOOMFILTER_PAYLOAD(grown));
		pfree(bf);
		bf = grown;
	}
	v->payload = BLOOMFILTER_PAYLOAD(bf);
	bloom_set_header(bf, &v->hdr);
	return bf;
}

/* a new scalable filter: one empty sub-filter, more as elements arrive */
BloomFilter *
bloom_new_scalable(int64 capacity, double error_rate, int64 seed, int32 expansion)
{
	BloomHeader hdr;
	uint64		payload_bytes;
	BloomFilter *bf;

	if (expansion < 1 || expansion > BLOOM_MAX_EXPANSION)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter expansion %d is out of range", expansion),
				 errdetail("A scalable filter grows each sub-filter by a factor between 1 and %d.",
						   BLOOM_MAX_EXPANSION)));
	/* the parameter checks and errors of a fixed filter of the same request */
	bloom_header_for(&hdr, capacity, error_rate, seed, BLOOM_LAYOUT_BLOCKED512);
	if (error_rate / 2 < BLOOM_MIN_ERROR_RATE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter error rate %g is too small for a scalable filter", error_rate),
				 errdetail("Its first sub-filter is sized for half the rate, which must be at least %g.",
						   BLOOM_MIN_ERROR_RATE)));
	if (!bloom_scalable_header(&hdr, (uint64) capacity, error_rate, (uint32) seed,
							   (uint32) expansion, &payload_bytes))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("scalable bloom filter for " INT64_FORMAT " elements at error rate %g is too large",
						capacity, error_rate),
				 errdetail("Its first sub-filter, sized for half the rate, exceeds the limit of %llu bytes.",
						   (unsigned long long) BLOOM_MAX_BYTES)));
	bf = bloom_palloc(CurrentMemoryContext, BLOOMFILTER_SIZE(payload_bytes));
	SET_VARSIZE(bf, BLOOMFILTER_SIZE(payload_bytes));
	bloom_scalable_init(&hdr, (uint32) expansion, BLOOMFILTER_PAYLOAD(bf));
	bloom_set_header(bf, &hdr);
	return bf;
}

/*
 * Whether argument argno is the flat state of the aggregate calling us
 * (bf_union_agg's transition, a combine step of either filter type): only
 * an aggregate's own state may be modified in place, and copying it once
 * per row would make the aggregate quadratic.
 */
bool
bloom_agg_owns(FunctionCallInfo fcinfo, int argno)
{
	return AggCheckCallContext(fcinfo, NULL) &&
		!VARATT_IS_EXTENDED(DatumGetPointer(PG_GETARG_DATUM(argno)));
}

/*
 * The aggregate context of a transition function (into *aggcxt if not
 * NULL).  Called directly (SELECT bloomfilter_agg_trans(...)) it has none to keep
 * its state in: a user's mistake, so a user's error, not XX000.
 */
void
bloom_require_aggregate(FunctionCallInfo fcinfo, MemoryContext *aggcxt,
						const char *fname, const char *aggname)
{
	if (!AggCheckCallContext(fcinfo, aggcxt))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s can only be called as an aggregate's transition function",
						fname),
				 errhint("Use the aggregate %s.", aggname)));
}

/* argument argno to change: itself if the aggregate owns it, else a copy */
BloomFilter *
bloom_agg_writable(FunctionCallInfo fcinfo, int argno, BloomView *v)
{
	if (bloom_agg_owns(fcinfo, argno))
	{
		BloomFilter *bf = (BloomFilter *) DatumGetPointer(PG_GETARG_DATUM(argno));

		bloom_view_init(v, bf->data, VARSIZE(bf) - VARHDRSZ, VARSIZE(bf) - VARHDRSZ);
		v->payload = BLOOMFILTER_PAYLOAD(bf);
		return bf;
	}
	return bloom_copy(PG_GETARG_DATUM(argno), v);
}

/*
 * An aggregate's result: a flat copy of its state (of any form) in the
 * current memory context, which the layout is told has left the aggregate.
 */
BloomFilter *
bloom_agg_result(Datum d)
{
	BloomView	v;
	BloomFilter *bf;

	if (bloom_is_expanded(d))
	{
		ExpandedObjectHeader *eoh = DatumGetEOHP(d);
		BloomState *s = (BloomState *) eoh;
		Size		size;

		/* a layout that grows has no pending hashes (bloom_state_add) */
		if (s->layout->holds_hashes)
			return bloom_hashes_finish(&s->hdr, s->payload);
		size = EOH_get_flat_size(eoh);

		bf = bloom_palloc(CurrentMemoryContext, size);
		EOH_flatten_into(eoh, bf, size);
		bloom_view_init(&v, bf->data, size - VARHDRSZ, size - VARHDRSZ);
	}
	else
	{
		bloom_read(d, &v);
		if (v.layout->holds_hashes)
			return bloom_hashes_finish(&v.hdr, v.payload);
		bf = bloom_copy(d, &v);
	}
	if (v.layout->finish)
	{
		v.layout->finish(&v.hdr, BLOOMFILTER_PAYLOAD(bf));
		bloom_set_header(bf, &v.hdr);
	}
	return bf;
}

/*
 * How many partial states the aggregate calling us can have, if it is
 * computing one that will be combined with others (a parallel plan); 0 if
 * it is not.
 */
int
bloom_agg_partial_parts(FunctionCallInfo fcinfo)
{
	if (fcinfo->context && IsA(fcinfo->context, AggState) &&
		DO_AGGSPLIT_SKIPFINAL(((AggState *) fcinfo->context)->aggsplit))
		return max_parallel_workers_per_gather + (parallel_leader_participation ? 1 : 0);
	return 0;
}

/*
 * A new aggregate state from a template value.  If the aggregate is
 * computing a partial result that will be combined with others (a parallel
 * plan), the layout is told how many there can be.
 */
BloomState *
bloom_state_from(FunctionCallInfo fcinfo, MemoryContext aggcxt, Datum template)
{
	BloomView	v;
	BloomState *s;

	bloom_read(template, &v);
	s = bloom_state_new(aggcxt, &v.hdr, v.payload);
	s->nparts = bloom_agg_partial_parts(fcinfo);
	if (s->layout->partial && s->nparts > 0)
		s->layout->partial(&s->hdr, s->payload, s->nparts);
	return s;
}

/* outside bytes (binary input, bytea), fully validated */
BloomFilter *
bloom_from_bytes(const uint8 *buf, size_t len, int sqlstate)
{
	BloomHeader hdr;
	BloomCheck	check = bloom_validate(buf, len, &hdr);
	BloomFilter *bf;

	if (check != BLOOM_OK)
		ereport(ERROR,
				(errcode(sqlstate),
				 errmsg("invalid bloom filter value"),
				 errdetail_internal("%s", bloom_check_message(check))));
	bf = bloom_palloc(CurrentMemoryContext, VARHDRSZ + len);
	SET_VARSIZE(bf, VARHDRSZ + len);
	memcpy(bf->data, buf, len);
	return bf;
}

/* ---- checks of what callers pass in ---- */

/*
 * The header of a new, empty filter of the given layout for capacity
 * elements at error_rate.  Every layout so far sizes its cells as the
 * blocked layout does; a counting filter holds four bits per cell.
 */
void
bloom_header_for(BloomHeader *hdr, int64 capacity, double error_rate, int64 seed,
				 uint8 layout)
{
	uint64		nbits;
	int			nhashes;
	bool		fits;

	if (capacity <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter capacity must be positive"),
				 errdetail("The capacity given was " INT64_FORMAT ".", capacity)));
	if (!(error_rate > 0.0 && error_rate < 1.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter error rate must be greater than 0 and less than 1"),
				 errdetail("The error rate given was %g.", error_rate)));
	if (error_rate < BLOOM_MIN_ERROR_RATE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter error rate %g is below the supported minimum of %g",
						error_rate, BLOOM_MIN_ERROR_RATE)));
	if (seed < 0 || seed > (int64) PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter seed must be between 0 and %u", PG_UINT32_MAX)));
	fits = bloom_size((uint64) capacity, error_rate, &nbits, &nhashes);
	if (fits)
	{
		bloom_header_init(hdr, (uint64) capacity, error_rate, (uint32) seed, nbits, nhashes);
		hdr->layout = layout;
		fits = bloom_layout_for(layout)->check_header(hdr, bloom_layout_for(layout)->payload_bytes(hdr)) == BLOOM_OK;
	}
	if (!fits)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom filter for " INT64_FORMAT " elements at error rate %g is too large",
						capacity, error_rate),
				 errdetail("A bloom filter value is limited to %llu bytes.",
						   (unsigned long long) BLOOM_MAX_BYTES)));
}

static void
bloom_describe(StringInfo buf, const BloomHeader *h)
{
	const BloomLayout *layout = bloom_layout_for(h->layout);

	if (layout->grow != NULL)
		appendStringInfo(buf, "capacity " UINT64_FORMAT " at error rate %g, seed %u",
						 h->capacity, h->error_rate, h->seed);
	else
		appendStringInfo(buf, "%llu bits, %d hashes, seed %u",
						 (unsigned long long) h->nbits, h->nhashes, h->seed);
	if (h->layout != BLOOM_LAYOUT_BLOCKED512)
		appendStringInfo(buf, ", layout %s", layout->name);
	if (h->hash_id != BLOOM_HASH_CURRENT)
		appendStringInfo(buf, ", hash id %d", h->hash_id);
}

static int
bloom_shape_hint(const BloomHeader *a, const BloomHeader *b)
{
	if (a->hash_id != b->hash_id)
		return errhint("Filters made by bloomfilter 1.1 or earlier (hash id 1) combine only with each other; rebuild them with bf_agg to combine them with newer ones.");
	if (bloom_layout_for(a->layout)->holds_hashes || bloom_layout_for(b->layout)->holds_hashes)
		return errhint("A list of element hashes (an aggregate's partial state) combines with any filter of the same seed.");
	if (a->layout != b->layout)
		return errhint("Plain, counting and scalable filters combine only with filters of their own layout.");
	if (bloom_layout_for(a->layout)->grow != NULL)
		return errhint("Create both filters with the same capacity, error rate, expansion and seed; to combine the elements of filters built apart, add them to one filter (bf_add_all) or build it with one aggregate.");
	return errhint("Create both filters with the same capacity, error rate and seed.");
}

void
bloom_check_shape(const BloomHeader *a, const BloomHeader *b, bool intersect)
{
	if (!bloom_same_shape(a, b))
		bloom_shape_error(a, b, intersect);
}

/*
 * Refuse a union into dst (dst_payload, which may be the result's copy) of
 * src whose result would not keep the error rate: a scalable filter's
 * sub-filter that would hold more than it was sized for.  Nothing can
 * repair that afterwards, so it is an error, not a silent rise in the rate.
 * 54000, as for a filter that cannot grow: the operands hold more than the
 * value can at its rate; with fewer elements the same union works.
 */
void
bloom_check_union_rate(const BloomView *dst, const uint8 *dst_payload, const BloomView *src)
{
	double		fpp;
	double		limit;
	int			part;

	if (dst->layout->union_overfills == NULL)
		return;
	part = dst->layout->union_overfills(&dst->hdr, dst_payload, &src->hdr, src->payload,
										&fpp, &limit);
	if (part < 0)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("union of %s bloom filters would exceed their error rate", dst->layout->name),
			 errdetail("Sub-filter %d of the union would hold more elements than it was sized for: its estimated false-positive rate would be %.3g, above its share %.3g of the error rate %g.",
					   part, fpp, limit, dst->hdr.error_rate),
			 errhint("Add the elements to one filter instead (bf_add_all(filter, ARRAY(SELECT ...))), build the filter with a single aggregate (bf_agg(element) or bf_agg(element, template)), or use plain filters sized for the total (bf_create(total, error_rate)), whose unions are exact.")));
}

void
bloom_shape_error(const BloomHeader *a, const BloomHeader *b, bool intersect)
{
	StringInfoData da,
				db;

	initStringInfo(&da);
	initStringInfo(&db);
	bloom_describe(&da, a);
	bloom_describe(&db, b);
	if (intersect)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("cannot intersect bloom filters of different shape"),
				 errdetail("The first filter has %s; the second has %s.", da.data, db.data),
				 bloom_shape_hint(a, b)));
	ereport(ERROR,
			(errcode(ERRCODE_DATA_EXCEPTION),
			 errmsg("cannot union bloom filters of different shape"),
			 errdetail("The first filter has %s; the second has %s.", da.data, db.data),
			 bloom_shape_hint(a, b)));
}
