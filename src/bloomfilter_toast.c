/*-------------------------------------------------------------------------
 *
 * bloomfilter_toast.c
 *	  Chunks of an out-of-line value, fetched by their numbers in one index
 *	  scan of the TOAST relation, for the checks that read only what they
 *	  need (bloomfilter_probe.c).
 *
 * PostgreSQL reads a slice of a stored value with one scan of the TOAST
 * index per slice, over a range of chunk numbers.  A check that needs a few
 * scattered stretches of a large value (a block of each sub-filter, two
 * buckets of each, a hundred blocks for a batch) would start one scan per
 * stretch, and starting a scan costs more than reading a chunk.  So the
 * chunks a check needs are asked for together, chunk_id = X AND chunk_seq
 * = ANY(array): btree takes the array in one scan and returns the chunks in
 * order.  Every chunk is checked as heap_fetch_toast_slice checks it (its
 * number, its size, the last one's size) and anything unexpected raises
 * XX001.
 *
 * A reader holds the chunks fetched so far for one check, so that the
 * pieces of a value's directory and the spans after it are fetched once.
 *
 * src/bloomfilter_toast.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heaptoast.h"
#include "access/table.h"
#include "access/toast_internals.h"
#include "catalog/pg_collation_d.h"
#include "catalog/pg_type_d.h"
#include "utils/array.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"

#include "bloomfilter_datum.h"

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

/*
 * Fetch chunks seqs[0..n) (sorted, distinct, each below the value's count
 * of chunks) of the value ptr names: chunk seqs[i] into dsts[i], which has
 * room for TOAST_MAX_CHUNK_SIZE bytes.
 */
void
bloom_toast_fetch_chunks(Relation toastrel, const struct varatt_external *ptr,
						 const int32 *seqs, int n, char *const *dsts)
{
	int32		extsize = VARATT_EXTERNAL_GET_EXTSIZE(*ptr);
	int32		nchunks = (extsize - 1) / TOAST_MAX_CHUNK_SIZE + 1;
	Relation   *toastidxs;
	int			nindexes;
	int			valid = toast_open_indexes(toastrel, AccessShareLock, &toastidxs, &nindexes);
	ScanKeyData keys[2];
	Datum	   *elems = palloc(sizeof(Datum) * n);
	ArrayType  *arr = NULL;
	SnapshotData snapshot;
	SysScanDesc scan;
	HeapTuple	tup;
	int			next = 0;

	for (int i = 0; i < n; i++)
		elems[i] = Int32GetDatum(seqs[i]);
	if (n > 1)
		arr = construct_array(elems, n, INT4OID, sizeof(int32), true, TYPALIGN_INT);
	ScanKeyInit(&keys[0], (AttrNumber) 1, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(ptr->va_valueid));
	/* one chunk (the header's) needs no array, whose set-up costs */
	if (n == 1)
		ScanKeyInit(&keys[1], (AttrNumber) 2, BTEqualStrategyNumber, F_INT4EQ,
					Int32GetDatum(seqs[0]));
	else
		ScanKeyEntryInitialize(&keys[1], SK_SEARCHARRAY, (AttrNumber) 2,
							   BTEqualStrategyNumber, InvalidOid, C_COLLATION_OID,
							   F_INT4EQ, PointerGetDatum(arr));
	scan = systable_beginscan_ordered(toastrel, toastidxs[valid],
									  BLOOM_TOAST_SNAPSHOT(&snapshot), 2, keys);
	while ((tup = systable_getnext_ordered(scan, ForwardScanDirection)) != NULL)
	{
		int32		seq;
		int32		size;
		const char *data = bloom_chunk_data(tup, toastrel->rd_att, toastrel,
											ptr->va_valueid, &seq, &size);
		int32		expected;

		if (next >= n || seq != seqs[next])
			bloom_chunk_corrupt(toastrel, ptr->va_valueid, "unexpected chunk number",
								seq, next < n ? seqs[next] : -1);
		expected = seq < nchunks - 1 ? TOAST_MAX_CHUNK_SIZE :
			extsize - (nchunks - 1) * TOAST_MAX_CHUNK_SIZE;
		if (size != expected)
			bloom_chunk_corrupt(toastrel, ptr->va_valueid, "unexpected chunk size",
								size, expected);
		memcpy(dsts[next], data, size);
		next++;
	}
	if (next < n)
		bloom_chunk_corrupt(toastrel, ptr->va_valueid, "missing chunk number",
							seqs[next], seqs[next]);
	systable_endscan_ordered(scan);
	toast_close_indexes(toastidxs, nindexes, AccessShareLock);
	if (arr)
		pfree(arr);
	pfree(elems);
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

/*
 * Hold chunks seqs[0..n) (sorted, distinct, within the value): those not
 * held yet are fetched in one scan, straight into their places among the
 * held ones.
 */
void
bloom_chunks_want(BloomChunkReader *r, const int32 *seqs, int n)
{
	int32	   *missing = palloc(sizeof(int32) * Max(n, 1));
	char	  **dsts;
	int			nmissing = 0;
	int32	   *held;
	char	   *data;
	int			a = 0,
				b = 0;

	for (int i = 0; i < n; i++)
		if (bloom_chunks_find(r, seqs[i]) < 0)
			missing[nmissing++] = seqs[i];
	if (nmissing == 0)
	{
		pfree(missing);
		return;
	}
	dsts = palloc(sizeof(char *) * nmissing);
	held = palloc(sizeof(int32) * (r->nheld + nmissing));
	data = palloc((Size) (r->nheld + nmissing) * TOAST_MAX_CHUNK_SIZE);
	for (int k = 0; k < r->nheld + nmissing; k++)
	{
		char	   *at = data + (Size) k * TOAST_MAX_CHUNK_SIZE;

		if (b >= nmissing || (a < r->nheld && r->held[a] < missing[b]))
		{
			held[k] = r->held[a];
			memcpy(at, r->data + (Size) a++ * TOAST_MAX_CHUNK_SIZE, TOAST_MAX_CHUNK_SIZE);
		}
		else
		{
			held[k] = missing[b];
			dsts[b++] = at;
		}
	}
	bloom_toast_fetch_chunks(r->toastrel, &r->ptr, missing, nmissing, dsts);
	if (r->held)
	{
		pfree(r->held);
		pfree(r->data);
	}
	r->held = held;
	r->data = data;
	r->nheld += nmissing;
	pfree(dsts);
	pfree(missing);
}

/* whether the chunks bytes [offset, offset + len) of the value lie in are held */
bool
bloom_chunks_held(const BloomChunkReader *r, uint64 offset, uint64 len)
{
	int32		last = (int32) ((offset + len - 1) / TOAST_MAX_CHUNK_SIZE);

	for (int32 s = (int32) (offset / TOAST_MAX_CHUNK_SIZE); s <= last; s++)
		if (bloom_chunks_find(r, s) < 0)
			return false;
	return true;
}

/* copy bytes [offset, offset + len) of the value, from chunks held, to dst */
void
bloom_chunks_copy(const BloomChunkReader *r, uint64 offset, uint64 len, uint8 *dst)
{
	Assert(offset + len <= (uint64) r->extsize);
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
