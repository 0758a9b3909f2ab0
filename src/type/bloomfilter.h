/*-------------------------------------------------------------------------
 *
 * bloomfilter.h
 *	  The bloomfilter varlena type: the stored struct and its accessors.
 *
 * How a value is read, written, cached and held by an aggregate is
 * type/value.h's business; this header only says what the bytes are.
 *
 * src/type/bloomfilter.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_H
#define BLOOMFILTER_H

#include "postgres.h"

#include "fmgr.h"

#include "core/header.h"

/*
 * On disk: the varlena length word, the 48-byte little-endian header of
 * core/header.c, then the layout's payload.  There is no padding, and no
 * field is read through a cast of this struct: bloom_header_decode does it.
 */
typedef struct BloomFilter
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	uint8		data[FLEXIBLE_ARRAY_MEMBER];	/* header, then payload */
} BloomFilter;

#define BLOOMFILTER_PAYLOAD(bf)		((bf)->data + BLOOM_HEADER_SIZE)
#define BLOOMFILTER_SIZE(payload_bytes) \
	add_size(VARHDRSZ + BLOOM_HEADER_SIZE, (Size) (payload_bytes))

#define PG_RETURN_BLOOMFILTER_P(x)	PG_RETURN_POINTER(x)

#endif							/* BLOOMFILTER_H */
