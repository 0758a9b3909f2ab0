/*-------------------------------------------------------------------------
 *
 * guava.h
 *	  Layout 5, "guava": a Bloom filter with the bits, sizing and serialized
 *	  form of Guava's com.google.common.hash.BloomFilter (strategy
 *	  MURMUR128_MITZ_64), and the conversions to and from that form.
 *
 * core/guava.c has the design notes; docs/format.md the bytes.
 *
 * src/core/guava.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_GUAVA_H
#define BLOOM_GUAVA_H

#include "core/header.h"

/* Guava's strategies by ordinal (BloomFilterStrategies) */
#define BLOOM_GUAVA_MITZ_32			0
#define BLOOM_GUAVA_MITZ_64			1

/* Guava keeps the hash count in an unsigned byte and refuses more */
#define BLOOM_GUAVA_MAX_HASHES		255

/* writeTo: byte strategy, byte hash count, int number of longs (big-endian) */
#define BLOOM_GUAVA_PREFIX			6

/* the key types a Guava filter may have: the four funnels' */
#define BLOOM_GUAVA_KEY_BYTEA		17	/* Funnels.byteArrayFunnel() */
#define BLOOM_GUAVA_KEY_INT8		20	/* Funnels.longFunnel() */
#define BLOOM_GUAVA_KEY_INT4		23	/* Funnels.integerFunnel() */
#define BLOOM_GUAVA_KEY_TEXT		25	/* Funnels.stringFunnel(UTF_8) */

/* what sizing, or reading a serialized filter, found wrong */
typedef enum BloomGuavaCheck
{
	BLOOM_GUAVA_OK = 0,
	BLOOM_GUAVA_TRUNCATED,		/* shorter than its prefix says */
	BLOOM_GUAVA_TRAILING,		/* longer than its prefix says */
	BLOOM_GUAVA_STRATEGY,		/* no strategy has that ordinal */
	BLOOM_GUAVA_OLD_STRATEGY,	/* MURMUR128_MITZ_32, not read here */
	BLOOM_GUAVA_NHASHES,		/* 0 hash functions, or sizing above 255 */
	BLOOM_GUAVA_NO_BITS,		/* 0 or fewer longs, or sizing to 0 bits */
	BLOOM_GUAVA_TOO_LARGE		/* over BLOOM_MAX_BYTES as a bloomfilter */
} BloomGuavaCheck;

extern bool bloom_guava_key_type(uint32_t key_type);
extern int64_t bloom_guava_optimal_bits(int64_t n, double p);
extern int	bloom_guava_optimal_hashes(int64_t n, int64_t m);
extern BloomGuavaCheck bloom_guava_size(int64_t n, double p, uint64_t *nlongs,
										int *nhashes);
extern BloomGuavaCheck bloom_guava_header(BloomHeader *hdr, int64_t n, double p,
										  uint32_t key_type);

/* the bit numbers of an element, in Guava's order (k of them) */
extern void bloom_guava_bits(BloomHash h, int nhashes, uint64_t nbits, uint64_t *bits);

/* serialized form */
extern uint64_t bloom_guava_serialized_bytes(const BloomHeader *hdr);
extern void bloom_guava_write(const BloomHeader *hdr, const uint8_t *payload,
							  uint8_t *out);
extern BloomGuavaCheck bloom_guava_read_prefix(const uint8_t *in, size_t len,
											   int *nhashes, uint64_t *nlongs);
extern void bloom_guava_read(const uint8_t *in, int nhashes, uint64_t nlongs,
							 uint32_t key_type, BloomHeader *hdr, uint8_t *payload);
extern const char *bloom_guava_check_message(BloomGuavaCheck check);

#endif							/* BLOOM_GUAVA_H */
