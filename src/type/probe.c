/*-------------------------------------------------------------------------
 *
 * probe.c
 *	  Checks of elements against a filter argument of either type, from
 *	  the SQL functions down to the kind: one element (bf_contains,
 *	  bf_count, cf_contains, cf_count and their operators) or many at once
 *	  (bf_contains_all, cf_contains_all).
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
 * the query's cache (type/held.c), placed so that its payload starts on
 * a 64-byte boundary, and every further check costs a hash and a cache
 * line or a few.  A value a session checks query after query is kept by
 * the backend as well.
 *
 * Element hashing is bloomfilter's (type/keys.h) for both types, so an
 * element matches in a cuckoofilter exactly when it would in a bloomfilter
 * of hash id 2.  bench/check_path.sh reports the files a check enters and
 * its instructions.
 *
 * src/type/probe.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/detoast.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/arrayaccess.h"
#include "utils/memutils.h"

#include "type/held.h"
#include "type/kind.h"
#include "type/kind_bloom.h"
#include "type/kind_cuckoo.h"
#include "type/toast.h"
#include "type/value.h"

StaticAssertDecl(BLOOM_HEADER_SIZE == CUCKOO_HEADER_SIZE,
				 "both filter types have headers of one size");

/*
 * fn_extra of a check: the element's type, and what the call site holds of
 * the values it checks (type/held.h).
 */
typedef struct BloomProbeCache
{
	BloomElemType elem;			/* first: see bloom_fn_cache */
	BloomCallSite site;
} BloomProbeCache;

/* ---- opening a value ---- */

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
		/*
		 * A blocked filter's span is one 64-byte block: room on the stack
		 * saves a palloc and a pfree on every check.
		 */
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

		o = bloom_held_value(fcinfo, kind, &pc->site, d, &ptr, sliceable, 1);
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
		const BloomOpened *held = bloom_held_value(fcinfo, kind, &pc->site, d, &ptr, sliceable, n);

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
