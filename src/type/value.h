/*-------------------------------------------------------------------------
 *
 * value.h
 *	  The forms a filter value takes in the server, behind one interface
 *	  (type/value.c): reading a datum (a bloomfilter's header alone, or the
 *	  whole value; the bytes or the front of a value of either type),
 *	  writable copies, memory for filters, and the expanded objects that
 *	  hold a flat value.  The SQL entry points never look at a varlena's
 *	  form.
 *
 * src/type/value.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_VALUE_H
#define BLOOMFILTER_VALUE_H

#include "postgres.h"

#include "access/detoast.h"
#include "fmgr.h"
#include "utils/expandeddatum.h"
#include "utils/relcache.h"

#include "core/header.h"
#include "type/bloomfilter.h"
#include "type/compat.h"

/* A filter opened for reading.  Reading never changes the datum. */
typedef struct BloomView
{
	BloomHeader hdr;
	const BloomLayout *layout;
	const uint8 *payload;		/* NULL when only the header was read */
} BloomView;

/* payloads in memory are kept aligned to this, so that a check touches one line */
#define BLOOM_CACHE_LINE	64

pg_noreturn extern void bloom_report_corrupt(BloomCheck check);

/*
 * Decode a header and check it against the value's total length.  Inline,
 * as bloom_is_sliceable below: a stored check opens a header each time
 * (type/kind_bloom.c), and a call for a few lines would cost more than
 * the lines.
 */
static inline void
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

/* Reading: a bloomfilter's header or whole value; the bytes of either type. */
extern void bloom_read_header(Datum d, BloomView *v);
extern void bloom_read(Datum d, BloomView *v);
extern const uint8 *bloom_read_bytes(Datum d, size_t *len);
extern const uint8 *bloom_read_front(Datum d, Size need, size_t *len, void **copy);

/*
 * Whether d is an uncompressed out-of-line value, whose parts can be read
 * alone (its pointer into *ptr); and a slice of one, for the header alone
 * and for values read whole.
 */
static inline bool
bloom_is_sliceable(Datum d, struct varatt_external *ptr)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);

	if (!VARATT_IS_EXTERNAL_ONDISK(raw))
		return false;
	VARATT_EXTERNAL_GET_POINTER(*ptr, raw);
	return !VARATT_EXTERNAL_IS_COMPRESSED(*ptr);
}

extern void bloom_toast_fetch(Relation toastrel, const struct varatt_external *ptr,
							  int32 offset, int32 len, struct varlena *dst);

/* Values to write: memory for filters, private copies of either type. */
extern void *bloom_palloc(MemoryContext cxt, Size size);
extern void *bloom_palloc_present(MemoryContext cxt, Size size);
extern void *bloom_repalloc(void *p, Size size);
extern struct varlena *bloom_value_copy(Datum d);
extern BloomFilter *bloom_copy(Datum d, BloomView *v);
extern void bloom_set_header(BloomFilter *bf, const BloomHeader *hdr);

/*
 * d's expanded object if it has methods m (and is read-write if rw_only),
 * else NULL; inline, as the aggregates' transition functions ask it once a
 * row.
 */
static inline ExpandedObjectHeader *
bloom_expanded_of(Datum d, const ExpandedObjectMethods *m, bool rw_only)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);

	if (rw_only ? !VARATT_IS_EXTERNAL_EXPANDED_RW(raw) : !VARATT_IS_EXTERNAL_EXPANDED(raw))
		return NULL;
	if (DatumGetEOHP(d)->eoh_methods != m)
		return NULL;
	return DatumGetEOHP(d);
}

/*
 * An expanded object that holds a flat value and changes not yet written
 * into it (cf_agg's state, type/agg.c).  Its methods are the server's two,
 * which are bloom_flat_state_size and bloom_flat_state_flatten below, and
 * settle, which its owner hands over to write the pending changes in.  So
 * whatever reads such an object (bloom_settled) reads the flat value
 * itself, without a copy, and never names the module that made it.
 */
typedef struct BloomFlatMethods
{
	ExpandedObjectMethods eom;	/* first: what the server calls */
	void		(*settle) (ExpandedObjectHeader *eoh);
} BloomFlatMethods;

typedef struct BloomFlatState
{
	ExpandedObjectHeader eoh;
	struct varlena *flat;		/* in eoh.eoh_context */
} BloomFlatState;

extern Size bloom_flat_state_size(ExpandedObjectHeader *eoh);
extern void bloom_flat_state_flatten(ExpandedObjectHeader *eoh, void *result, Size size);

/*
 * d, or the flat value of the flat state d is, with its pending changes
 * written in: for reading.  Inline, as a check of a cuckoo filter in memory
 * asks it each time.
 */
static inline Datum
bloom_settled(Datum d)
{
	ExpandedObjectHeader *eoh;

	if (!VARATT_IS_EXTERNAL_EXPANDED((struct varlena *) DatumGetPointer(d)))
		return d;
	eoh = DatumGetEOHP(d);
	if (eoh->eoh_methods->get_flat_size != bloom_flat_state_size)
		return d;
	((const BloomFlatMethods *) eoh->eoh_methods)->settle(eoh);
	return PointerGetDatum(((BloomFlatState *) eoh)->flat);
}

#endif							/* BLOOMFILTER_VALUE_H */
