/*-------------------------------------------------------------------------
 *
 * bloomfilter_elem.h
 *	  Canonical bytes and hash of an element of any SQL type, for a filter
 *	  of a given hash id.
 *
 * src/bloomfilter_elem.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_ELEM_H
#define BLOOMFILTER_ELEM_H

#include "postgres.h"

#include "fmgr.h"

#include "bloom_core.h"

/*
 * How an element of one SQL type becomes canonical bytes, resolved once per
 * call site (bloom_fn_cache) and kept in fn_extra.
 */
typedef enum BloomElemKind
{
	BLOOM_ELEM_INT2,
	BLOOM_ELEM_INT4,
	BLOOM_ELEM_INT8,
	BLOOM_ELEM_TEXT,			/* text, varchar, bytea: the bytes as stored */
	BLOOM_ELEM_BPCHAR,			/* without trailing blanks */
	BLOOM_ELEM_NAME,
	BLOOM_ELEM_CSTRING,			/* unknown (a literal in a ROW), cstring */
	BLOOM_ELEM_UUID,
	BLOOM_ELEM_NUMERIC,
	BLOOM_ELEM_FLOAT4,
	BLOOM_ELEM_FLOAT8,
	BLOOM_ELEM_ENUM,
	BLOOM_ELEM_INTERVAL,
	BLOOM_ELEM_INET,
	BLOOM_ELEM_ARRAY,
	BLOOM_ELEM_RECORD,
	BLOOM_ELEM_SEND				/* any other type: its binary send output */
} BloomElemKind;

typedef struct BloomElemType BloomElemType;

struct BloomElemType
{
	Oid			typid;
	BloomElemKind kind;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Oid			collation;		/* of the call, for text kinds */
	bool		nondeterministic;	/* that collation: refused by hash id 2 */
	bool		send_is_canonical;	/* BLOOM_ELEM_SEND: equal values, equal bytes */
	bool		send_has_text;	/* its send output may hold converted text */
	FmgrInfo	send;			/* for kinds hashed through send */
	MemoryContext mcxt;			/* where the nested types below live */
	BloomElemType *elem;		/* BLOOM_ELEM_ARRAY: the element type */
	/* BLOOM_ELEM_RECORD: the row type seen last, and its columns' types */
	Oid			rec_typid;
	int32		rec_typmod;
	int			rec_natts;
	BloomElemType *rec_cols;
};

extern void bloom_elem_init(BloomElemType *et, Oid typid, Oid collation,
							MemoryContext mcxt);
extern BloomHash bloom_elem_hash_slow(BloomElemType *et, Datum value,
									  const BloomHeader *hdr);

/* the hash of an element; integers, the common case, without a call */
static inline BloomHash
bloom_elem_hash(BloomElemType *et, Datum value, const BloomHeader *hdr)
{
	switch (et->kind)
	{
		case BLOOM_ELEM_INT8:
			return bloom_hash_int64(DatumGetInt64(value), hdr->seed);
		case BLOOM_ELEM_INT4:
			return bloom_hash_int64((int64) DatumGetInt32(value), hdr->seed);
		case BLOOM_ELEM_INT2:
			return bloom_hash_int64((int64) DatumGetInt16(value), hdr->seed);
		default:
			return bloom_elem_hash_slow(et, value, hdr);
	}
}

/*
 * Per-call-site cache in fn_extra: a BloomElemType for argument argno (or
 * for its array elements), resolved on the first call, followed by whatever
 * else the caller keeps (size bytes in all, the BloomElemType first).
 */
extern void *bloom_fn_cache_init(FunctionCallInfo fcinfo, int argno,
								 bool array_element, Size size);

static inline void *
bloom_fn_cache(FunctionCallInfo fcinfo, int argno, bool array_element, Size size)
{
	if (likely(fcinfo->flinfo->fn_extra != NULL))
		return fcinfo->flinfo->fn_extra;
	return bloom_fn_cache_init(fcinfo, argno, array_element, size);
}

/* a key of several columns, hashed as ROW(a, b, ...) (the index AM's) */
extern BloomHash bloom_elem_hash_row(BloomElemType *cols, int ncols,
									 const Datum *values, const bool *nulls,
									 const BloomHeader *hdr);

#endif							/* BLOOMFILTER_ELEM_H */
