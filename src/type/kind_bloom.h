/*-------------------------------------------------------------------------
 *
 * kind_bloom.h
 *	  The bloomfilter kind (type/kind_bloom.c): its entry in the table of
 *	  filter kinds, and what it offers the rest of the glue besides.
 *
 * src/type/kind_bloom.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_KIND_BLOOM_H
#define BLOOMFILTER_KIND_BLOOM_H

#include "postgres.h"

#include "core/header.h"
#include "type/kind.h"
#include "type/value.h"

extern const BloomKind bloomfilter_kind;

/* sizing: the header of a new, empty filter of a layout, and growth */
extern void bloom_header_for(BloomHeader *hdr, int64 capacity,
							 double error_rate, int64 seed, uint8 layout);
extern uint64 bloom_grown_bytes(const BloomHeader *hdr, const BloomLayout *layout,
								const uint8 *payload);
extern void bloom_check_layout_key_type(const BloomHeader *hdr, uint32 key_type);

/* adds that grow a private copy, and estimates of a value read whole */
extern BloomFilter *bloom_add_hashes(BloomFilter *bf, BloomView *v,
									 const BloomHash *hashes, size_t n);
extern double bloom_cardinality(const BloomView *v);

/* the checks of operands to combine, with the errors users see */
extern void bloom_check_shape(const BloomHeader *a, const BloomHeader *b,
							  bool intersect);
pg_noreturn extern void bloom_shape_error(const BloomHeader *a, const BloomHeader *b,
										  bool intersect);
extern void bloom_check_union_rate(const BloomView *dst, const uint8 *dst_payload,
								   const BloomView *src);

#endif							/* BLOOMFILTER_KIND_BLOOM_H */
