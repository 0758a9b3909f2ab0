/*-------------------------------------------------------------------------
 *
 * value.h
 *	  Every form a bloomfilter value takes in the server, behind one
 *	  interface: reading a datum (header only, the spans a check needs by
 *	  TOAST chunks, the whole value, the per-query probe cache of either
 *	  filter type), writing (new values, private
 *	  copies), the aggregate's expanded state, and the checks of shapes and
 *	  parameters.  The SQL entry points never look at a varlena's form.
 *
 * src/type/value.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_DATUM_H
#define BLOOMFILTER_DATUM_H

#include "postgres.h"

#include "access/detoast.h"
#include "fmgr.h"
#include "nodes/nodes.h"
#include "storage/itemptr.h"
#include "utils/expandeddatum.h"
#include "utils/relcache.h"

#include "core/blocked.h"		/* layout 1 and the lists of layout 4 */
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

/*
 * Loops that hash or look up an element a step check for a cancel every
 * this many steps (a power of 2): a few thousand such steps take well
 * under a millisecond.
 */
#define BLOOM_INTERRUPT_ELEMS	4096

pg_noreturn extern void bloom_report_corrupt(BloomCheck check);

/*
 * Decode a header and check it against the value's total length.  Inline,
 * as bloom_is_sliceable below: both are on the path of every check, which
 * should not pass through this module (type/probe.c).
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

extern void bloom_read_header(Datum d, BloomView *v);
extern void bloom_read(Datum d, BloomView *v);
extern const uint8 *bloom_read_bytes(Datum d, size_t *len);
extern const uint8 *bloom_read_front(Datum d, Size need, size_t *len, void **copy);

/*
 * Whether d is an uncompressed out-of-line value, whose parts can be read
 * alone (its pointer into *ptr); and a slice of one (type/value.c),
 * for the header alone and for values read whole.
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

/* Values to write: private copies of either type (type/value.c). */
extern void *bloom_palloc(MemoryContext cxt, Size size);
extern void *bloom_palloc_present(MemoryContext cxt, Size size);
extern void *bloom_repalloc(void *p, Size size);
extern struct varlena *bloom_value_copy(Datum d);
extern BloomFilter *bloom_copy(Datum d, BloomView *v);

/*
 * What bloomfilter's kind (type/kind_bloom.c) offers the rest of its glue:
 * new values, adds that grow, estimates.
 */
extern BloomFilter *bloom_new(const BloomHeader *hdr);
extern BloomFilter *bloom_add_hashes(BloomFilter *bf, BloomView *v,
									 const BloomHash *hashes, size_t n);
extern BloomFilter *bloom_new_scalable(int64 capacity, double error_rate,
									   int64 seed, int32 expansion);
extern double bloom_cardinality(const BloomView *v);
extern void bloom_check_layout_key_type(const BloomHeader *hdr, uint32 key_type);

/* type/io.c: literals of either filter type */
extern struct varlena *bloom_literal_decode(const char *str, const char *typname,
											Node *escontext, size_t *len);
extern char *bloom_literal_encode(const uint8 *bytes, size_t len);
extern void bloom_literal_invalid(const char *str, const char *typname,
								  Node *escontext, const char *detail);
extern void bloom_set_header(BloomFilter *bf, const BloomHeader *hdr);
extern BloomFilter *bloom_agg_result(Datum d);
extern bool bloom_agg_owns(FunctionCallInfo fcinfo, int argno);
extern void bloom_require_aggregate(FunctionCallInfo fcinfo, MemoryContext *aggcxt,
									const char *fname, const char *aggname);

/*
 * Union-like functions of either filter type ignore a NULL operand, as
 * aggregates ignore NULL rows: the other operand, or NULL if both are.
 * Call when either argument is NULL.
 */
static inline Datum
bloom_other_operand(FunctionCallInfo fcinfo)
{
	if (PG_ARGISNULL(0) && PG_ARGISNULL(1))
		PG_RETURN_NULL();
	PG_RETURN_DATUM(PG_GETARG_DATUM(PG_ARGISNULL(0) ? 1 : 0));
}

/* type/kind_bloom.c: bloomfilter's sizing and shape errors */
extern void bloom_header_for(BloomHeader *hdr, int64 capacity,
							 double error_rate, int64 seed, uint8 layout);
extern void bloom_check_shape(const BloomHeader *a, const BloomHeader *b,
							  bool intersect);
pg_noreturn extern void bloom_shape_error(const BloomHeader *a, const BloomHeader *b,
										  bool intersect);
/*
 * The aggregate's state: an expanded object owned by the aggregate's memory
 * context.  It holds the payload 64-byte aligned and a buffer of element
 * hashes not yet added, so that adds are applied in batches whose cache
 * misses overlap.  Flattening it (for output, a tuple, the combine step or
 * any other function) writes the pending hashes into the flat copy only, so
 * a reader never changes the state.
 */
#define BLOOM_PENDING	BLOOM_ADD_BATCH

typedef struct BloomState
{
	ExpandedObjectHeader eoh;
	BloomHeader hdr;			/* bits_set excludes the pending hashes, and
								 * if uncounted the adds since recount */
	const BloomLayout *layout;
	uint8	   *payload;			/* 64-byte aligned, in alloc */
	void	   *alloc;
	int			nparts;			/* partial states combined with it; 0: not partial */
	int			npending;
	BloomHash	pending[BLOOM_PENDING];
	bool		uncounted;
} BloomState;

/*
 * d's expanded object if it has methods m (and is read-write if rw_only),
 * else NULL; inline, as the aggregates' transition functions ask it once a
 * row (type/agg_state.c owns both types' states).
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

extern const ExpandedObjectMethods bloom_state_methods;

/* our state passed read-write, which only its aggregate can do; else NULL */
static inline BloomState *
bloom_state_of(Datum d)
{
	return (BloomState *) bloom_expanded_of(d, &bloom_state_methods, true);
}

extern BloomState *bloom_state_from(FunctionCallInfo fcinfo, MemoryContext aggcxt,
									Datum template);
extern BloomState *bloom_state_new(MemoryContext parent, const BloomHeader *hdr,
								   const uint8 *payload);
extern void bloom_state_flush(BloomState *s);
extern void bloom_state_count(BloomState *s);
extern void bloom_state_add_many(BloomState *s, const BloomHash *hashes, size_t n);
extern void bloom_state_reserve(BloomState *s, uint64 payload_bytes);
extern uint8 *bloom_state_payload_alloc(BloomState *s, uint64 nbytes, void **alloc);
extern int	bloom_agg_partial_parts(FunctionCallInfo fcinfo);
extern uint64 bloom_grown_bytes(const BloomHeader *hdr, const BloomLayout *layout,
								const uint8 *payload);

/*
 * Lists of hashes (layout 4, an unsized aggregate's state): the memory
 * bound of a state, what happens past it, the filter a list becomes, and
 * unions with lists (type/agg_hashlist.c).
 */
extern void bloom_hashes_define_guc(void);
extern void bloom_probe_define_guc(void);
extern BloomState *bloom_state_new_hashes(FunctionCallInfo fcinfo, MemoryContext aggcxt,
										  double error_rate, uint32 expansion);
extern void bloom_state_list_grow(BloomState *s);
extern BloomFilter *bloom_hashes_finish(const BloomHeader *hdr, const uint8 *payload);
extern bool bloom_union_takes_hashes(FunctionCallInfo fcinfo);
extern Datum bloom_union_hashes(FunctionCallInfo fcinfo);
extern void bloom_check_union_rate(const BloomView *dst, const uint8 *dst_payload,
								   const BloomView *src);

/*
 * A layout that grows takes each hash at once, so flattening never grows:
 * straight in if it has room, else through the flush, which grows it.
 */
static inline void
bloom_state_add(BloomState *s, BloomHash h)
{
	/* an unsized aggregate's list: a row is a 16-byte append */
	if (s->layout->holds_hashes && s->hdr.bits_set < s->hdr.capacity)
	{
		bloom_hashes_put(s->payload, s->hdr.bits_set++, h);
		return;
	}
	if (s->layout->grows && s->layout->add(&s->hdr, s->payload, &h, 1) == 1)
		return;
	/*
	 * Word by word: h arrives in two registers, and a 16-byte copy of it
	 * would go through the stack, where reading back two 8-byte stores as
	 * one load stalls (no store forwarding) on every row.
	 */
	s->pending[s->npending].h1 = h.h1;
	s->pending[s->npending].h2 = h.h2;
	s->npending++;
	if (s->npending == BLOOM_PENDING || s->layout->grows)
		bloom_state_flush(s);
}

static inline Datum
bloom_state_datum(BloomState *s)
{
	return EOHPGetRWDatum(&s->eoh);
}

#endif							/* BLOOMFILTER_DATUM_H */
