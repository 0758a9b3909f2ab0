/*-------------------------------------------------------------------------
 *
 * cuckoo_sizing.h
 *	  Sizing of the cuckoofilter type: the limits of a sub-filter's shape,
 *	  its room and modelled rate, and the shape for a capacity and rate.
 *
 * core/cuckoo_sizing.c has the design notes; core/cuckoo.h includes this.
 *
 * src/core/cuckoo_sizing.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CUCKOO_SIZING_H
#define BLOOM_CUCKOO_SIZING_H

#include "core/header.h"

#define CUCKOO_HEADER_SIZE		48
#define CUCKOO_SUB_HEADER_SIZE	24

/* fingerprint bits any valid sub-filter may have (1.2 made 3 and up) */
#define CUCKOO_MIN_FP_BITS		2
#define CUCKOO_MAX_FP_BITS		32
/* the fewest bits sizing gives a new sub-filter (core/cuckoo_sizing.c: why) */
#define CUCKOO_FLOOR_FP_BITS	7
/* same limit as bloomfilter: the base64 text form must fit in 1 GB */
#define CUCKOO_MAX_BYTES		BLOOM_MAX_BYTES

/* Sizing: false if the filter would exceed CUCKOO_MAX_BYTES. */
extern bool cuckoo_size(uint64_t capacity, double error_rate, int *bucket_size,
						int *fp_bits, uint64_t *nbuckets);
/* the sub-filter for capacity entries at a modelled rate of at most target */
extern bool cuckoo_shape(uint64_t capacity, double target, int b, int *fp_bits,
						 uint64_t *nbuckets);
/* entries a sub-filter of nbuckets buckets takes before it counts as full */
extern uint64_t cuckoo_room(int bucket_size, uint64_t nbuckets);
/*
 * The modelled false-positive rate of one sub-filter holding items entries:
 * the expected number of entries a non-member matches, an upper bound of
 * the probability that it matches one.
 */
extern double cuckoo_model_fpp(int fp_bits, uint64_t items, uint64_t nbuckets);

/* the bytes of a sub-filter's packed slots */
static inline size_t
cuckoo_sub_slot_bytes(uint64_t nbuckets, int b, int f)
{
	return (size_t) ((nbuckets * (uint64_t) b * (uint64_t) f + 7) / 8);
}

/* nbuckets small enough that the slot bit count cannot overflow */
static inline bool
cuckoo_nbuckets_ok(uint64_t nbuckets, int b, int f)
{
	return nbuckets >= 1 &&
		nbuckets <= (uint64_t) CUCKOO_MAX_BYTES * 8 / ((uint64_t) b * f);
}

/* bytes of an empty filter with one sub-filter; 0 if too large */
static inline size_t
cuckoo_empty_bytes(int bucket_size, int fp_bits, uint64_t nbuckets)
{
	size_t		len;

	if (!cuckoo_nbuckets_ok(nbuckets, bucket_size, fp_bits))
		return 0;
	len = CUCKOO_HEADER_SIZE + CUCKOO_SUB_HEADER_SIZE +
		cuckoo_sub_slot_bytes(nbuckets, bucket_size, fp_bits);
	return len <= CUCKOO_MAX_BYTES ? len : 0;
}

#endif							/* BLOOM_CUCKOO_SIZING_H */
