/*-------------------------------------------------------------------------
 *
 * toast.c
 *	  Chunks of an out-of-line value, fetched by their numbers, for the
 *	  checks that read only what they need (type/probe.c).
 *
 * PostgreSQL reads a slice of a stored value with one scan of the TOAST
 * index per slice, over a range of chunk numbers.  A check that needs a few
 * scattered stretches of a large value (a block of each sub-filter, two
 * buckets of each, a hundred blocks for a batch) would start one scan per
 * stretch, and starting a scan costs more than reading a chunk.  So the
 * chunks a check needs are asked for together, chunk_id = X AND chunk_seq
 * = ANY(array): btree takes the array in one scan and returns the chunks in
 * order.
 *
 * Even so, before PostgreSQL 17 btree descends from the root for each
 * number in the array: three or four buffers and a dozen comparisons per
 * chunk, most of a batch's cost.  A value is stored a chunk after another,
 * EXTERN_TUPLES_PER_PAGE to a page, so once the index has given the place
 * of one chunk (the first, which holds the header) the places of the
 * others follow, unless the value went into free space scattered over
 * several pages.  Each chunk is looked for at its predicted place first,
 * and taken only if the tuple there is visible to the TOAST snapshot and
 * carries this value's OID and the chunk's number; the chunks not found
 * there are fetched by the index, in one scan as above.  A prediction that
 * fails costs a buffer, never an answer.
 *
 * Every chunk is checked as heap_fetch_toast_slice checks it (its number,
 * its size, the last one's size) and anything unexpected raises XX001.
 *
 * A reader holds the chunks fetched so far for one check, so that the
 * pieces of a value's directory and the spans after it are fetched once.
 *
 * src/type/toast.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/heaptoast.h"
#include "access/table.h"
#include "access/toast_internals.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_collation_d.h"
#include "catalog/pg_type_d.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/array.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"

#include "type/toast.h"

/* chunks fetched between checks for a cancel (8 MB; a power of 2) */
#define BLOOM_CHUNK_INTERRUPT	4096

/*
 * Working arrays of up to this many chunks, spans or pieces live on the
 * stack: a point check needs a handful, and their pallocs and pfrees were
 * a tenth of its own instructions.
 */
#define BLOOM_CHUNKS_LOCAL	16

pg_noreturn static void
bloom_chunk_corrupt(Relation toastrel, Oid valueid, const char *what, int32 got,
					int32 expected)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg_internal("%s %d (expected %d) for toast value %u in %s",
							 what, got, expected, valueid,
							 RelationGetRelationName(toastrel))));
}

/* the data of a chunk tuple, checked to be plain as heap_fetch_toast_slice does */
static const char *
bloom_chunk_data(HeapTuple tup, TupleDesc desc, Relation toastrel, Oid valueid,
				 int32 *seq, int32 *size)
{
	bool		isnull;
	Pointer		chunk;

	*seq = DatumGetInt32(fastgetattr(tup, 2, desc, &isnull));
	chunk = DatumGetPointer(fastgetattr(tup, 3, desc, &isnull));
	if (isnull)
		bloom_chunk_corrupt(toastrel, valueid, "null data in chunk", *seq, *seq);
	if (!VARATT_IS_EXTENDED(chunk))
	{
		*size = VARSIZE(chunk) - VARHDRSZ;
		return VARDATA(chunk);
	}
	if (VARATT_IS_SHORT(chunk))
	{
		*size = VARSIZE_SHORT(chunk) - VARHDRSZ_SHORT;
		return VARDATA_SHORT(chunk);
	}
	bloom_chunk_corrupt(toastrel, valueid, "toasted data in chunk", *seq, *seq);
}

typedef void (*BloomChunkFn) (void *arg, int index, const char *data, int32 size);

/* raise XX001 unless chunk seq of r's value has the size it must have */
static void
bloom_chunk_check_size(const BloomChunkReader *r, int32 seq, int32 size)
{
	int32		expected = seq < r->nchunks - 1 ? TOAST_MAX_CHUNK_SIZE :
		r->extsize - (r->nchunks - 1) * TOAST_MAX_CHUNK_SIZE;

	if (size != expected)
		bloom_chunk_corrupt(r->toastrel, r->ptr.va_valueid, "unexpected chunk size",
							size, expected);
}

/*
 * Where chunk seq would lie if the value's chunks followed the anchor's
 * place in order, EXTERN_TUPLES_PER_PAGE to a page, as a value stored at
 * once into pages with no room left elsewhere does; false if that is past
 * the relation's end, or before its start.
 *
 * The end is the size the storage manager last saw, which costs no system
 * call (an lseek was most of a point check's own time on a virtual
 * machine, bench/RESULTS.md): it can only be too small, since the relation
 * may have grown since, and a block below it exists.  The storage manager
 * forgets it when the relation is truncated: VACUUM's truncation sends a
 * shared invalidation that closes every backend's handle, and the reader
 * takes its lock afresh (bloom_chunks_begin), which processes it; TRUNCATE
 * and rewrites give the relation a new file.  A place past that size is
 * checked against the relation's size, read once per reader.
 */
static bool
bloom_chunk_predict(BloomChunkReader *r, int32 seq, ItemPointer tid)
{
	int64		pos = (int64) ItemPointerGetBlockNumber(&r->anchor_tid) * EXTERN_TUPLES_PER_PAGE +
		(ItemPointerGetOffsetNumber(&r->anchor_tid) - FirstOffsetNumber) +
		(seq - r->anchor_seq);

	if (pos < 0)
		return false;
	if (r->nblocks == InvalidBlockNumber)
		r->nblocks = RelationGetSmgr(r->toastrel)->smgr_cached_nblocks[MAIN_FORKNUM];
	if (r->nblocks == InvalidBlockNumber || pos / EXTERN_TUPLES_PER_PAGE >= r->nblocks)
	{
		if (r->nblocks_exact)
			return false;
		r->nblocks = RelationGetNumberOfBlocks(r->toastrel);
		r->nblocks_exact = true;
		if (pos / EXTERN_TUPLES_PER_PAGE >= r->nblocks)
			return false;
	}
	ItemPointerSet(tid, (BlockNumber) (pos / EXTERN_TUPLES_PER_PAGE),
				   (OffsetNumber) (pos % EXTERN_TUPLES_PER_PAGE + FirstOffsetNumber));
	return true;
}

/* keep where chunk 0 lies and who inserted it (bloom_chunks_first) */
static inline void
bloom_chunk_note_first(BloomChunkReader *r, HeapTuple tup, int32 seq)
{
	if (seq != 0)
		return;
	r->first_known = true;
	r->first_tid = tup->t_self;
	r->first_xmin = HeapTupleHeaderGetRawXmin(tup->t_data);
}

/*
 * Chunk seq at its predicted place: handed to fn as index if the tuple
 * there is visible and is that chunk of this value (the unique index on
 * (chunk_id, chunk_seq), and OIDs never reused while any tuple holds them,
 * make it the chunk the index would return); false, with nothing done,
 * if it is not.
 */
static bool
bloom_chunk_fetch_predicted(BloomChunkReader *r, Snapshot snapshot, int32 seq,
							BloomChunkFn fn, void *arg, int index)
{
	HeapTupleData tup;
	Buffer		buf;
	bool		isnull;
	int32		got;
	int32		size;
	const char *data;

	if (!bloom_chunk_predict(r, seq, &tup.t_self) ||
		!heap_fetch(r->toastrel, snapshot, &tup, &buf, false))
		return false;
	if (DatumGetObjectId(fastgetattr(&tup, 1, r->toastrel->rd_att, &isnull)) !=
		r->ptr.va_valueid || isnull ||
		DatumGetInt32(fastgetattr(&tup, 2, r->toastrel->rd_att, &isnull)) != seq || isnull)
	{
		ReleaseBuffer(buf);
		return false;
	}
	data = bloom_chunk_data(&tup, r->toastrel->rd_att, r->toastrel, r->ptr.va_valueid,
							&got, &size);
	bloom_chunk_check_size(r, seq, size);
	bloom_chunk_note_first(r, &tup, seq);
	fn(arg, index, data, size);
	ReleaseBuffer(buf);
	return true;
}

/*
 * Where the backend last found a chunk of a value by the index, for the
 * next reader of that value: a point check, which reads a value once per
 * query, then finds its first chunk with one buffer instead of a descent
 * of the TOAST index (a third of its own time).  A remembered place is
 * only a prediction, checked as any other is (bloom_chunk_fetch_predicted:
 * a tuple visible to the TOAST snapshot, with this value's OID and this
 * chunk's number), so a place that is stale (the value deleted, moved by
 * VACUUM FULL, the slot taken by another value) costs a buffer, never an
 * answer.  A small table indexed by a hash of the pointer, in static
 * memory; a collision forgets the older place.
 */
#define BLOOM_ANCHORS	64

typedef struct BloomAnchor
{
	Oid			toastrelid;
	Oid			valueid;
	int32		seq;
	ItemPointerData tid;
} BloomAnchor;

static BloomAnchor bloom_anchors[BLOOM_ANCHORS];

static inline BloomAnchor *
bloom_anchor_slot(const struct varatt_external *ptr)
{
	uint32		h = hash_combine(murmurhash32(ptr->va_valueid), ptr->va_toastrelid);

	return &bloom_anchors[murmurhash32(h) % BLOOM_ANCHORS];
}

static void
bloom_anchor_remember(const BloomChunkReader *r)
{
	BloomAnchor *a = bloom_anchor_slot(&r->ptr);

	a->toastrelid = r->ptr.va_toastrelid;
	a->valueid = r->ptr.va_valueid;
	a->seq = r->anchor_seq;
	a->tid = r->anchor_tid;
}

/* the place remembered for r's value as its anchor, if there is one */
static void
bloom_anchor_recall(BloomChunkReader *r)
{
	const BloomAnchor *a = bloom_anchor_slot(&r->ptr);

	if (a->valueid == r->ptr.va_valueid && a->toastrelid == r->ptr.va_toastrelid &&
		OidIsValid(a->valueid))
	{
		r->anchor_seq = a->seq;
		r->anchor_tid = a->tid;
		r->anchor_remembered = true;
	}
}

/*
 * Chunks seqs[0..n) (sorted, distinct, each below the value's count of
 * chunks) of r's value by the index, in one scan: each handed to fn with
 * its index in seqs (through map, when given), while its buffer is held.
 * The first becomes r's anchor if it has none.
 */
static void
bloom_chunks_fetch_indexed(BloomChunkReader *r, Snapshot snapshot, const int32 *seqs,
						   const int *map, int n, BloomChunkFn fn, void *arg)
{
	Relation   *toastidxs;
	int			nindexes;
	int			valid = toast_open_indexes(r->toastrel, AccessShareLock, &toastidxs, &nindexes);
	ScanKeyData keys[2];
	ArrayType  *arr = NULL;
	SysScanDesc scan;
	HeapTuple	tup;
	int			next = 0;

	ScanKeyInit(&keys[0], (AttrNumber) 1, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(r->ptr.va_valueid));
	/* one chunk (the header's) needs no array, whose set-up costs */
	if (n == 1)
		ScanKeyInit(&keys[1], (AttrNumber) 2, BTEqualStrategyNumber, F_INT4EQ,
					Int32GetDatum(seqs[0]));
	else
	{
		Datum	   *elems = palloc(sizeof(Datum) * n);

		for (int i = 0; i < n; i++)
			elems[i] = Int32GetDatum(seqs[i]);
		arr = construct_array(elems, n, INT4OID, sizeof(int32), true, TYPALIGN_INT);
		pfree(elems);
		ScanKeyEntryInitialize(&keys[1], SK_SEARCHARRAY, (AttrNumber) 2,
							   BTEqualStrategyNumber, InvalidOid, C_COLLATION_OID,
							   F_INT4EQ, PointerGetDatum(arr));
	}
	scan = systable_beginscan_ordered(r->toastrel, toastidxs[valid], snapshot, 2, keys);
	while ((tup = systable_getnext_ordered(scan, ForwardScanDirection)) != NULL)
	{
		int32		seq;
		int32		size;
		const char *data = bloom_chunk_data(tup, r->toastrel->rd_att, r->toastrel,
											r->ptr.va_valueid, &seq, &size);

		if (next >= n || seq != seqs[next])
			bloom_chunk_corrupt(r->toastrel, r->ptr.va_valueid, "unexpected chunk number",
								seq, next < n ? seqs[next] : -1);
		bloom_chunk_check_size(r, seq, size);
		bloom_chunk_note_first(r, tup, seq);
		if (r->anchor_seq < 0)
		{
			r->anchor_seq = seq;
			r->anchor_tid = tup->t_self;
			bloom_anchor_remember(r);
		}
		fn(arg, map ? map[next] : next, data, size);
		if ((++next & (BLOOM_CHUNK_INTERRUPT - 1)) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	if (next < n)
		bloom_chunk_corrupt(r->toastrel, r->ptr.va_valueid, "missing chunk number",
							seqs[next], seqs[next]);
	systable_endscan_ordered(scan);
	toast_close_indexes(toastidxs, nindexes, AccessShareLock);
	if (arr)
		pfree(arr);
}

/*
 * Fetch chunks seqs[0..n) (sorted, distinct, each below the value's count
 * of chunks) of r's value, handing each to fn with its index in seqs while
 * its buffer is held.  Once the reader has an anchor, each chunk is first
 * looked for where the anchor predicts it, which costs a buffer instead of
 * a descent of the index; the chunks not found there (a value stored into
 * the free space of several pages, or moved by VACUUM FULL) are fetched by
 * the index in one scan.  A toast relation of another table access method
 * is read by the index alone.
 */
static void
bloom_toast_fetch_chunks(BloomChunkReader *r, const int32 *seqs, int n, BloomChunkFn fn,
						 void *arg)
{
	SnapshotData space;
	Snapshot	snapshot = BLOOM_TOAST_SNAPSHOT(&space);
	int32		left_local[BLOOM_CHUNKS_LOCAL];
	int			map_local[BLOOM_CHUNKS_LOCAL];
	int32	   *left = left_local;
	int		   *map = map_local;
	int			nleft = 0;

	if (r->anchor_seq < 0 || r->toastrel->rd_rel->relam != HEAP_TABLE_AM_OID)
	{
		bloom_chunks_fetch_indexed(r, snapshot, seqs, NULL, n, fn, arg);
		return;
	}
	if (n > BLOOM_CHUNKS_LOCAL)
	{
		left = palloc(sizeof(int32) * n);
		map = palloc(sizeof(int) * n);
	}
	for (int i = 0; i < n; i++)
	{
		if ((i & (BLOOM_CHUNK_INTERRUPT - 1)) == BLOOM_CHUNK_INTERRUPT - 1)
			CHECK_FOR_INTERRUPTS();
		if (bloom_chunk_fetch_predicted(r, snapshot, seqs[i], fn, arg, i))
		{
			r->anchor_remembered = false;	/* it holds */
			continue;
		}
		if (r->anchor_remembered)
		{
			/* gone from where it was: the index finds this one and the rest */
			r->anchor_seq = -1;
			r->anchor_remembered = false;
			for (; i < n; i++)
			{
				left[nleft] = seqs[i];
				map[nleft++] = i;
			}
			break;
		}
		left[nleft] = seqs[i];
		map[nleft++] = i;
	}
	if (nleft > 0)
		bloom_chunks_fetch_indexed(r, snapshot, left, map, nleft, fn, arg);
	if (left != left_local)
	{
		pfree(left);
		pfree(map);
	}
}

/* ---- a reader of one value's chunks ---- */

void
bloom_chunks_begin(BloomChunkReader *r, const struct varatt_external *ptr)
{
	r->ptr = *ptr;
	r->extsize = VARATT_EXTERNAL_GET_EXTSIZE(*ptr);
	r->nchunks = (r->extsize - 1) / TOAST_MAX_CHUNK_SIZE + 1;
	r->nheld = 0;
	r->held = NULL;
	r->data = NULL;
	r->anchor_seq = -1;
	r->nblocks = InvalidBlockNumber;
	r->nblocks_exact = false;
	r->anchor_remembered = false;
	r->first_known = false;
	bloom_anchor_recall(r);
	r->toastrel = table_open(ptr->va_toastrelid, AccessShareLock);
}

void
bloom_chunks_end(BloomChunkReader *r)
{
	table_close(r->toastrel, AccessShareLock);
	if (r->held)
		pfree(r->held);
	if (r->data)
		pfree(r->data);
}

/* index of chunk seq among those held, or -1 */
static int
bloom_chunks_find(const BloomChunkReader *r, int32 seq)
{
	int			lo = 0,
				hi = r->nheld;

	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (r->held[mid] < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nheld && r->held[lo] == seq ? lo : -1;
}

static int
bloom_int32_cmp(const void *a, const void *b)
{
	int32		x = *(const int32 *) a;
	int32		y = *(const int32 *) b;

	return x < y ? -1 : (x > y ? 1 : 0);
}

/* sort and drop repeats; returns how many are left */
static int
bloom_int32_unique(int32 *v, int n)
{
	int			m = 0;

	qsort(v, n, sizeof(int32), bloom_int32_cmp);
	for (int i = 0; i < n; i++)
		if (m == 0 || v[m - 1] != v[i])
			v[m++] = v[i];
	return m;
}

/* append the chunks span lies in to seqs (room for them is the caller's) */
static int
bloom_span_chunks(const BloomSpan *span, int32 *seqs)
{
	int32		first = (int32) (span->offset / TOAST_MAX_CHUNK_SIZE);
	int32		last = (int32) ((span->offset + span->len - 1) / TOAST_MAX_CHUNK_SIZE);

	for (int32 c = first; c <= last; c++)
		seqs[c - first] = c;
	return span->len == 0 ? 0 : last - first + 1;
}

static void
bloom_chunk_store(void *arg, int index, const char *data, int32 size)
{
	char	  **dsts = arg;

	memcpy(dsts[index], data, size);
}

/*
 * Hold the chunks of spans[0..n) (offsets in the value, within it): those
 * not held yet are fetched in one scan, straight into their places among
 * the held ones.
 */
static void
bloom_chunks_hold(BloomChunkReader *r, const BloomSpan *spans, int n)
{
	int			room = 0;
	int32		seqs_local[BLOOM_CHUNKS_LOCAL];
	char	   *dsts_local[BLOOM_CHUNKS_LOCAL];
	int32	   *seqs = seqs_local;
	int			nseqs = 0;
	int			nmissing = 0;
	char	  **dsts = dsts_local;
	int32	   *held;
	char	   *data;
	int			a = 0;

	for (int i = 0; i < n; i++)
		room += (int) (spans[i].len / TOAST_MAX_CHUNK_SIZE) + 2;
	if (room > BLOOM_CHUNKS_LOCAL)
		seqs = palloc(sizeof(int32) * room);
	for (int i = 0; i < n; i++)
		nseqs += bloom_span_chunks(&spans[i], seqs + nseqs);
	nseqs = bloom_int32_unique(seqs, nseqs);
	for (int i = 0; i < nseqs; i++)
		if (bloom_chunks_find(r, seqs[i]) < 0)
			seqs[nmissing++] = seqs[i];
	if (nmissing > 0)
	{
		if (nmissing > BLOOM_CHUNKS_LOCAL)
			dsts = palloc(sizeof(char *) * nmissing);
		held = palloc(sizeof(int32) * (r->nheld + nmissing));
		data = palloc((Size) (r->nheld + nmissing) * TOAST_MAX_CHUNK_SIZE);
		for (int k = 0, b = 0; k < r->nheld + nmissing; k++)
		{
			char	   *at = data + (Size) k * TOAST_MAX_CHUNK_SIZE;

			if (b >= nmissing || (a < r->nheld && r->held[a] < seqs[b]))
			{
				held[k] = r->held[a];
				memcpy(at, r->data + (Size) a++ * TOAST_MAX_CHUNK_SIZE, TOAST_MAX_CHUNK_SIZE);
			}
			else
			{
				held[k] = seqs[b];
				dsts[b++] = at;
			}
		}
		bloom_toast_fetch_chunks(r, seqs, nmissing, bloom_chunk_store, dsts);
		if (r->held)
		{
			pfree(r->held);
			pfree(r->data);
		}
		r->held = held;
		r->data = data;
		r->nheld += nmissing;
		if (dsts != dsts_local)
			pfree(dsts);
	}
	if (seqs != seqs_local)
		pfree(seqs);
}

/* copy bytes [offset, offset + len) of the value, from chunks held, to dst */
static void
bloom_chunks_copy(const BloomChunkReader *r, uint64 offset, uint64 len, uint8 *dst)
{
	while (len > 0)
	{
		int32		seq = (int32) (offset / TOAST_MAX_CHUNK_SIZE);
		uint64		in = offset % TOAST_MAX_CHUNK_SIZE;
		uint64		take = Min(len, TOAST_MAX_CHUNK_SIZE - in);
		int			i = bloom_chunks_find(r, seq);

		if (i < 0)
			elog(ERROR, "chunk %d of toast value %u was not fetched", seq, r->ptr.va_valueid);
		memcpy(dst, r->data + (Size) i * TOAST_MAX_CHUNK_SIZE + in, take);
		dst += take;
		offset += take;
		len -= take;
	}
}

/* whether the chunks span (offsets in the value) lies in are all held */
bool
bloom_chunks_held(const BloomChunkReader *r, const BloomSpan *span)
{
	int32		last = (int32) ((span->offset + span->len - 1) / TOAST_MAX_CHUNK_SIZE);

	for (int32 c = (int32) (span->offset / TOAST_MAX_CHUNK_SIZE); c <= last; c++)
		if (bloom_chunks_find(r, c) < 0)
			return false;
	return true;
}

/*
 * Read span (offsets in the value, within it) into dst: from the chunks
 * held, or fetched now with those of the spans in also[0..nalso), which are
 * held for later reads.
 */
void
bloom_chunks_read(BloomChunkReader *r, const BloomSpan *span, const BloomSpan *also,
				  int nalso, uint8 *dst)
{
	BloomSpan	spans_local[BLOOM_CHUNKS_LOCAL];
	BloomSpan  *spans = spans_local;

	if (nalso + 1 > BLOOM_CHUNKS_LOCAL)
		spans = palloc(sizeof(BloomSpan) * (nalso + 1));
	spans[0] = *span;
	memcpy(spans + 1, also, sizeof(BloomSpan) * nalso);
	bloom_chunks_hold(r, spans, nalso + 1);
	bloom_chunks_copy(r, span->offset, span->len, dst);
	if (spans != spans_local)
		pfree(spans);
}

/* ---- gathering spans from the chunks they lie in ---- */

/* the part of one span that lies in one chunk */
typedef struct BloomPiece
{
	int32		seq;
	uint32		from;			/* in the chunk */
	uint32		len;
	uint8	   *dst;
} BloomPiece;

typedef struct BloomPieces
{
	BloomPiece *pieces;			/* sorted by chunk */
	int			n;
} BloomPieces;

static int
bloom_piece_cmp(const void *a, const void *b)
{
	return bloom_int32_cmp(&((const BloomPiece *) a)->seq, &((const BloomPiece *) b)->seq);
}

/* copy the pieces that lie in chunk seq out of its data */
static void
bloom_pieces_copy(const BloomPieces *p, int32 seq, const char *data)
{
	int			lo = 0,
				hi = p->n;

	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (p->pieces[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->n && p->pieces[lo].seq == seq; lo++)
		memcpy(p->pieces[lo].dst, data + p->pieces[lo].from, p->pieces[lo].len);
}

typedef struct BloomGatherFetch
{
	const BloomPieces *pieces;
	const int32 *seqs;
} BloomGatherFetch;

static void
bloom_chunk_gather(void *arg, int index, const char *data, int32 size)
{
	BloomGatherFetch *g = arg;

	bloom_pieces_copy(g->pieces, g->seqs[index], data);
}

/* split the spans into pieces of one chunk each, sorted by chunk */
static void
bloom_pieces_of(const BloomSpan *spans, uint8 *const *dsts, int n, BloomPieces *p)
{
	int			room = 0;

	for (int i = 0; i < n; i++)
		room += (int) (spans[i].len / TOAST_MAX_CHUNK_SIZE) + 2;
	/* p->pieces is the caller's room for BLOOM_CHUNKS_LOCAL pieces */
	if (room > BLOOM_CHUNKS_LOCAL)
		p->pieces = palloc(sizeof(BloomPiece) * room);
	p->n = 0;
	for (int i = 0; i < n; i++)
	{
		uint64		offset = spans[i].offset;
		uint64		left = spans[i].len;
		uint8	   *dst = dsts[i];

		while (left > 0)
		{
			BloomPiece *piece = &p->pieces[p->n++];

			piece->seq = (int32) (offset / TOAST_MAX_CHUNK_SIZE);
			piece->from = (uint32) (offset % TOAST_MAX_CHUNK_SIZE);
			piece->len = (uint32) Min(left, TOAST_MAX_CHUNK_SIZE - piece->from);
			piece->dst = dst;
			dst += piece->len;
			offset += piece->len;
			left -= piece->len;
		}
	}
	qsort(p->pieces, p->n, sizeof(BloomPiece), bloom_piece_cmp);
}

/*
 * Copy each of spans[0..n) (offsets in the value, within it) into dsts[i],
 * from the chunks held and those it lies in fetched in one scan; only the
 * spans' bytes are copied.  False, with nothing read, if that would fetch
 * more than max_fetch chunks.
 */
bool
bloom_chunks_gather(BloomChunkReader *r, const BloomSpan *spans, uint8 *const *dsts,
					int n, int max_fetch)
{
	BloomPiece	pieces_local[BLOOM_CHUNKS_LOCAL];
	int32		seqs_local[BLOOM_CHUNKS_LOCAL];
	BloomPieces p;
	int32	   *seqs = seqs_local;
	int			nseqs = 0;
	BloomGatherFetch g;

	p.pieces = pieces_local;
	bloom_pieces_of(spans, dsts, n, &p);
	if (p.n > BLOOM_CHUNKS_LOCAL)
		seqs = palloc(sizeof(int32) * p.n);
	for (int i = 0; i < p.n; i++)
		if ((nseqs == 0 || seqs[nseqs - 1] != p.pieces[i].seq) &&
			bloom_chunks_find(r, p.pieces[i].seq) < 0)
			seqs[nseqs++] = p.pieces[i].seq;
	if (nseqs <= max_fetch)
	{
		for (int i = 0; i < r->nheld; i++)
			bloom_pieces_copy(&p, r->held[i], r->data + (Size) i * TOAST_MAX_CHUNK_SIZE);
		g.pieces = &p;
		g.seqs = seqs;
		if (nseqs > 0)
			bloom_toast_fetch_chunks(r, seqs, nseqs, bloom_chunk_gather, &g);
	}
	if (seqs != seqs_local)
		pfree(seqs);
	if (p.pieces != pieces_local)
		pfree(p.pieces);
	return nseqs <= max_fetch;
}

/* a BloomChunkFn for a chunk fetched only to be found */
static void
bloom_chunk_ignore(void *arg, int index, const char *data, int32 size)
{
	(void) arg;
	(void) index;
	(void) data;
	(void) size;
}

/*
 * Where the first chunk of r's value lies and the raw xmin of the tuple
 * there, fetched now unless it has been: together they name that chunk's
 * tuple, not just a value OID, for type/held.c's values kept between
 * queries.  A value's chunks are inserted together and never changed, and
 * its OID goes to another value only after they are all removed, so a
 * chunk 0 found again at the same place, inserted by the same
 * transaction, is the same value's.  PostgreSQL knows its own cached
 * functions again the same way (their pg_proc tuple's xmin and place).
 */
void
bloom_chunks_first(BloomChunkReader *r, ItemPointer tid, TransactionId *xmin)
{
	if (!r->first_known)
	{
		int32		seq = 0;

		bloom_toast_fetch_chunks(r, &seq, 1, bloom_chunk_ignore, NULL);
	}
	if (!r->first_known)
		elog(ERROR, "chunk 0 of toast value %u was not fetched", r->ptr.va_valueid);
	*tid = r->first_tid;
	*xmin = r->first_xmin;
}
