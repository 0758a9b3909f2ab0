/*-------------------------------------------------------------------------
 *
 * bloomfilter.h
 *	  The bloomfilter varlena type: stored struct, accessors and the helpers
 *	  shared by the I/O, operation and aggregate modules.
 *
 * src/bloomfilter.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_H
#define BLOOMFILTER_H

#include "postgres.h"

#include "fmgr.h"
#include "utils/expandeddatum.h"

#include "bloom_core.h"

/*
 * On disk: the varlena length word, the 48-byte little-endian header of
 * bloom_core.c, then nbits / 8 bytes of bits.  There is no padding, and no
 * field is read through a cast of this struct: bloom_header_decode does it.
 */
typedef struct BloomFilter
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	uint8		data[FLEXIBLE_ARRAY_MEMBER];	/* header, then bits */
} BloomFilter;

#define BLOOMFILTER_BITS(bf)		((bf)->data + BLOOM_HEADER_SIZE)
#define BLOOMFILTER_SIZE(nbits)	\
	add_size(VARHDRSZ + BLOOM_HEADER_SIZE, (Size) ((nbits) / 8))

#define DatumGetBloomFilterP(d)		((BloomFilter *) PG_DETOAST_DATUM(d))
#define DatumGetBloomFilterPCopy(d) bloom_copy(d)
#define PG_GETARG_BLOOMFILTER_P(n)	DatumGetBloomFilterP(PG_GETARG_DATUM(n))
#define PG_GETARG_BLOOMFILTER_P_COPY(n) DatumGetBloomFilterPCopy(PG_GETARG_DATUM(n))

/* long loops over bits look for a cancel this often (bytes) */
#define BLOOM_INTERRUPT_BYTES (1024 * 1024)
#define PG_RETURN_BLOOMFILTER_P(x)	PG_RETURN_POINTER(x)

/*
 * How an element of one SQL type becomes canonical bytes, resolved once per
 * call site and kept in fn_extra.
 */
typedef enum BloomElemKind
{
	BLOOM_ELEM_INT2,
	BLOOM_ELEM_INT4,
	BLOOM_ELEM_INT8,
	BLOOM_ELEM_TEXT,			/* text, varchar, bytea: the bytes as stored */
	BLOOM_ELEM_BPCHAR,			/* without trailing blanks */
	BLOOM_ELEM_NAME,
	BLOOM_ELEM_UUID,
	BLOOM_ELEM_SEND				/* anything else: its binary send output */
} BloomElemKind;

typedef struct BloomElemType
{
	Oid			typid;
	BloomElemKind kind;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	FmgrInfo	send;			/* for BLOOM_ELEM_SEND */
} BloomElemType;

/* bloomfilter_elem.c */
extern void bloom_elem_init(BloomElemType *et, Oid typid, MemoryContext mcxt);
extern BloomHash bloom_elem_hash_bytes(BloomElemType *et, Datum value, uint32 seed);
extern void *bloom_fn_cache_init(FunctionCallInfo fcinfo, int argno,
								 bool array_element, Size size);

/* the hash of an element; integers, the common case, without a call */
static inline BloomHash
bloom_elem_hash(BloomElemType *et, Datum value, uint32 seed)
{
	switch (et->kind)
	{
		case BLOOM_ELEM_INT8:
			return bloom_hash_int64(DatumGetInt64(value), seed);
		case BLOOM_ELEM_INT4:
			return bloom_hash_int64((int64) DatumGetInt32(value), seed);
		case BLOOM_ELEM_INT2:
			return bloom_hash_int64((int64) DatumGetInt16(value), seed);
		default:
			return bloom_elem_hash_bytes(et, value, seed);
	}
}

/*
 * Per-call-site cache in fn_extra: a BloomElemType for argument argno (or
 * for its array elements), resolved on the first call, followed by whatever
 * else the caller keeps (size bytes in all).
 */
static inline void *
bloom_fn_cache(FunctionCallInfo fcinfo, int argno, bool array_element, Size size)
{
	if (likely(fcinfo->flinfo->fn_extra != NULL))
		return fcinfo->flinfo->fn_extra;
	return bloom_fn_cache_init(fcinfo, argno, array_element, size);
}

/* bloomfilter_io.c */
extern void bloom_check_serialized(const uint8 *buf, size_t len,
								   BloomHeader *hdr, int sqlstate);
extern BloomFilter *bloom_from_bytes(const uint8 *buf, size_t len, int sqlstate);
extern void bloom_open(const BloomFilter *bf, BloomHeader *hdr);
extern void *bloom_alloc_bytes(MemoryContext cxt, Size size);
extern BloomFilter *bloom_alloc(const BloomHeader *hdr);
extern BloomFilter *bloom_copy(Datum d);
extern void bloom_fill(void *dst, const void *src, size_t n);
extern void bloom_store_header(BloomFilter *bf, const BloomHeader *hdr);
extern void bloom_check_shape(const BloomHeader *a, const BloomHeader *b,
							  const char *operation);
extern void bloom_check_params(int64 capacity, double error_rate);
extern void bloom_size_or_error(int64 capacity, double error_rate,
								uint64 *nbits, int *nhashes);

/* bloomfilter_agg.c: the expanded form used as an aggregate state */
typedef struct ExpandedBloom ExpandedBloom;
extern const ExpandedObjectMethods bloom_expanded_methods;

/* DatumGetEOHP without the call, for the per-row paths */
static inline ExpandedObjectHeader *
bloom_eohp(Datum d)
{
	varatt_expanded ptr;

	memcpy(&ptr, VARDATA_EXTERNAL(DatumGetPointer(d)), sizeof(ptr));
	return ptr.eohptr;
}

static inline bool
bloom_is_expanded(Datum d)
{
	return VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(d)) &&
		bloom_eohp(d)->eoh_methods == &bloom_expanded_methods;
}
extern bool bloom_expanded_test(Datum d, BloomElemType *et, Datum value);
extern void bloom_expanded_header(Datum d, BloomHeader *hdr);

#endif							/* BLOOMFILTER_H */
