/*-------------------------------------------------------------------------
 *
 * value.c
 *	  The forms of a value and how each is read and written: a
 *	  bloomfilter's header, slices and whole value; the bytes, the front
 *	  and private copies of a value of either type; memory for filters;
 *	  expanded objects that hold a flat value.
 *
 * A filter reaches a function in one of four forms: in line (possibly with
 * a short header), out of line uncompressed (the type's default storage is
 * EXTERNAL), out of line or in line compressed (if someone changed the
 * storage), or as an aggregate's expanded state (type/agg.c; cf_agg's is
 * a flat state, defined here, whose flat value any reader sees).  This
 * file, the checks and their cache (type/probe.c, type/held.c) and
 * type/agg.c (which knows its own expanded states) are the only ones that
 * tell them apart.
 *
 * Reading is where the time goes: a filter of ten million elements is 12 MB
 * of TOAST.  So reading comes in three depths.  The header alone (for
 * introspection) is a 48-byte slice of an out-of-line value; the spans a
 * check needs come from the TOAST chunks they lie in, fetched in one index
 * scan (type/probe.c, type/toast.c); only what has to see the
 * whole payload (unions, estimates, output) reads the whole value.
 *
 * Every read checks the header against the value's length first (O(1)), so
 * a value damaged since it passed full validation on input raises an error
 * instead of sending a read past its end.  Nothing that reads changes the
 * datum it read: the expanded state is flattened into a copy, with its
 * pending hashes applied to the copy.
 *
 * src/type/value.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/mman.h>

#include "access/detoast.h"
#include "access/heaptoast.h"
#include "access/table.h"
#include "access/tableam.h"
#include "utils/memutils.h"

#include "core/blocked.h"
#include "type/value.h"

void
bloom_report_corrupt(BloomCheck check)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("bloom filter value is corrupt"),
			 errdetail_internal("%s", bloom_check_message(check))));
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
 * Memory for a filter that is about to be written whole (a stored value
 * read into the check cache), in cxt, its pages made present at once:
 * where the kernel offers it (Linux 5.14's MADV_POPULATE_WRITE), one call
 * maps them all instead of a fault on the first write to each page, which
 * costs more than the copy itself on some virtual machines (3 ms against
 * 1.3 ms for 1.2 MB on the one bench/RESULTS.md was measured on).  Pages
 * present already are left alone; a kernel without it leaves the faults.
 */
void *
bloom_palloc_present(MemoryContext cxt, Size size)
{
	char	   *p = bloom_palloc(cxt, size);

#ifdef MADV_POPULATE_WRITE
	{
		uintptr_t	start = TYPEALIGN((uintptr_t) BLCKSZ, (uintptr_t) p);
		uintptr_t	end = TYPEALIGN_DOWN((uintptr_t) BLCKSZ, (uintptr_t) p + size);

		if (end > start)
			(void) madvise((void *) start, end - start, MADV_POPULATE_WRITE);
	}
#endif
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

/* ---- reading ---- */

/*
 * Fetch len bytes at offset of an uncompressed out-of-line value into dst
 * (which has room for a varlena header in front of them).
 */
void
bloom_toast_fetch(Relation toastrel, const struct varatt_external *ptr,
				  int32 offset, int32 len, struct varlena *dst)
{
	SET_VARSIZE(dst, VARHDRSZ + len);
	table_relation_fetch_toast_slice(toastrel, ptr->va_valueid,
									 VARATT_EXTERNAL_GET_EXTSIZE(*ptr),
									 offset, len, dst);
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

/*
 * The first need bytes of a value of any form (fewer if it is shorter:
 * *len says how many), read-only: a slice of an out-of-line or compressed
 * value, which *copy then holds for the caller to free (else NULL).
 */
const uint8 *
bloom_read_front(Datum d, Size need, size_t *len, void **copy)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);
	struct varlena *front = raw;

	*copy = NULL;
	if (VARATT_IS_EXTENDED(raw))
		*copy = front = detoast_attr_slice(raw, 0, need);
	*len = VARSIZE_ANY_EXHDR(front);
	return (const uint8 *) VARDATA_ANY(front);
}

void
bloom_read(Datum d, BloomView *v)
{
	size_t		len;
	const uint8 *bytes = bloom_read_bytes(d, &len);

	bloom_view_init(v, bytes, len, len);
	v->payload = bytes + BLOOM_HEADER_SIZE;
}

/* ---- writing ---- */

void
bloom_set_header(BloomFilter *bf, const BloomHeader *hdr)
{
	bloom_header_encode(hdr, bf->data);
}

/*
 * A private, writable copy of a value of any form and of either type: a
 * value that has to be detoasted or flattened arrives as a fresh copy.
 */
struct varlena *
bloom_value_copy(Datum d)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);
	struct varlena *copy;

	if (VARATT_IS_EXTENDED(raw))
		return PG_DETOAST_DATUM(d);
	copy = bloom_palloc(CurrentMemoryContext, VARSIZE(raw));
	SET_VARSIZE(copy, VARSIZE(raw));
	bloom_fill_chunked((uint8 *) VARDATA(copy), (const uint8 *) VARDATA(raw),
					   VARSIZE(raw) - VARHDRSZ);
	return copy;
}

/* a private, writable copy of any form, opened into v */
BloomFilter *
bloom_copy(Datum d, BloomView *v)
{
	BloomFilter *bf = (BloomFilter *) bloom_value_copy(d);

	bloom_view_init(v, bf->data, VARSIZE(bf) - VARHDRSZ, VARSIZE(bf) - VARHDRSZ);
	v->payload = BLOOMFILTER_PAYLOAD(bf);
	return bf;
}

/* ---- flat values held by expanded objects ---- */

/* the pending changes go in before anything reads the value */
Size
bloom_flat_state_size(ExpandedObjectHeader *eoh)
{
	((const BloomFlatMethods *) eoh->eoh_methods)->settle(eoh);
	return VARSIZE(((BloomFlatState *) eoh)->flat);
}

void
bloom_flat_state_flatten(ExpandedObjectHeader *eoh, void *result, Size size)
{
	((const BloomFlatMethods *) eoh->eoh_methods)->settle(eoh);
	memcpy(result, ((BloomFlatState *) eoh)->flat, size);
}
