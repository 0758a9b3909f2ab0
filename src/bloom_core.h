/*-------------------------------------------------------------------------
 *
 * bloom_core.h
 *	  Server-independent core of the bloomfilter extension: the stored
 *	  format, hashing, bit layout, sizing and validation.
 *
 * Nothing here includes PostgreSQL headers, so the unit tests, fuzzers and
 * benchmarks can link bloom_core.c on its own.  See bloom_core.c for the
 * design notes.
 *
 * src/bloom_core.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_H
#define BLOOM_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bloom_hash.h"

/* Stored header: 48 bytes, every field little-endian. */
#define BLOOM_HEADER_SIZE		48
#define BLOOM_MAGIC				0x464D4C42	/* "BLMF" read as LE uint32 */
#define BLOOM_VERSION			1
#define BLOOM_LAYOUT_BLOCKED512	1
#define BLOOM_HASH_MURMUR3_X64_128 1

/* Blocked layout: one 64-byte (cache line) block per element. */
#define BLOOM_BLOCK_BYTES		64
#define BLOOM_BLOCK_BITS		(BLOOM_BLOCK_BYTES * 8)

#define BLOOM_MAX_HASHES		64
#define BLOOM_DEFAULT_SEED		0

/*
 * Largest stored filter (header plus blocks).  The text form is base64, 4/3
 * of this; it has to fit PostgreSQL's 1 GB allocation limit, or pg_dump could
 * not write the filter out.
 */
#define BLOOM_MAX_BYTES			((uint64_t) 767 * 1024 * 1024)
#define BLOOM_MAX_BLOCKS		((BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE) / BLOOM_BLOCK_BYTES)

/*
 * Sizing aims the modelled rate at capacity at this fraction of the requested
 * one, so that a measurement (which samples) stays under the request.
 */
#define BLOOM_SIZING_MARGIN		0.9

/* Smallest error rate we size for; below it a 512-bit block cannot deliver. */
#define BLOOM_MIN_ERROR_RATE	1e-10

/* Decoded header, in host byte order. */
typedef struct BloomHeader
{
	uint8_t		version;
	uint8_t		layout;
	uint8_t		hash_id;
	uint8_t		nhashes;
	uint32_t	seed;
	uint32_t	flags;			/* reserved, always zero in version 1 */
	uint64_t	nbits;
	uint64_t	capacity;
	double		error_rate;
	uint64_t	bits_set;
} BloomHeader;

/* What bloom_validate found wrong; BLOOM_OK when nothing. */
typedef enum BloomCheck
{
	BLOOM_OK = 0,
	BLOOM_BAD_LENGTH,
	BLOOM_BAD_MAGIC,
	BLOOM_BAD_VERSION,
	BLOOM_BAD_LAYOUT,
	BLOOM_BAD_HASH,
	BLOOM_BAD_RESERVED,
	BLOOM_BAD_NBITS,
	BLOOM_BAD_NHASHES,
	BLOOM_BAD_CAPACITY,
	BLOOM_BAD_ERROR_RATE,
	BLOOM_BAD_BITS_SET
} BloomCheck;

/* header codec */
extern void bloom_header_decode(const uint8_t *buf, BloomHeader *hdr);
extern void bloom_header_encode(const BloomHeader *hdr, uint8_t *buf);
extern void bloom_header_init(BloomHeader *hdr, uint64_t capacity,
							  double error_rate, uint32_t seed,
							  uint64_t nbits, int nhashes);

static inline uint64_t
bloom_nblocks(const BloomHeader *hdr)
{
	return hdr->nbits / BLOOM_BLOCK_BITS;
}

static inline size_t
bloom_total_bytes(const BloomHeader *hdr)
{
	return BLOOM_HEADER_SIZE + (size_t) (hdr->nbits / 8);
}

/* validation: the one check every path from outside bytes goes through */
extern BloomCheck bloom_validate(const uint8_t *buf, size_t len,
								 BloomHeader *hdr);
extern BloomCheck bloom_validate_header(const BloomHeader *hdr, size_t len);
extern const char *bloom_check_message(BloomCheck check);
extern bool bloom_same_shape(const BloomHeader *a, const BloomHeader *b);

/* sizing: bloom_size, bloom_model_fpp */
#include "bloom_sizing.h"

/* which block an element lives in: high half of h1 * nblocks */
static inline uint64_t
bloom_block_of(uint64_t h1, uint64_t nblocks)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t) (((unsigned __int128) h1 * nblocks) >> 64);
#else
	uint64_t	a_lo = h1 & 0xFFFFFFFF,
				a_hi = h1 >> 32,
				b_lo = nblocks & 0xFFFFFFFF,
				b_hi = nblocks >> 32;
	uint64_t	lo_lo = a_lo * b_lo,
				hi_lo = a_hi * b_lo,
				lo_hi = a_lo * b_hi,
				hi_hi = a_hi * b_hi;
	uint64_t	cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFF) + lo_hi;

	return (cross >> 32) + (hi_lo >> 32) + hi_hi;
#endif
}

/* The k bits of an element inside its block, as eight 64-bit words. */
typedef struct BloomMask
{
	uint64_t	w[BLOOM_BLOCK_BYTES / 8];
} BloomMask;

/*
 * The element's bits inside its block: the one definition of the sequence
 * described at the top of bloom_core.c.  Each call of bloom_draw_next
 * returns the next bit number not drawn before for this element, or -1 once
 * k have been drawn.  The draw count is bounded so that no input can loop;
 * real hashes never reach the bound.
 */
#define BLOOM_LCG_MULT		UINT64_C(6364136223846793005)
#define BLOOM_MAX_DRAWS		(16 * BLOOM_MAX_HASHES)

typedef struct BloomDraw
{
	uint64_t	x;
	uint64_t	c;
	int			nhashes;
	int			got;
	int			draws;
	BloomMask	drawn;
} BloomDraw;

/*
 * XXX Each draw waits for the previous multiply.  Tabulating A^i and the
 * partial sums to make the draws independent was tried and measured slower:
 * the table loads cost more than the latency they hide.
 */
static inline void
bloom_draw_init(BloomDraw *d, BloomHash h, int nhashes)
{
	d->x = h.h2;
	d->c = h.h1 | 1;
	d->nhashes = nhashes;
	d->got = 0;
	d->draws = 0;
	memset(&d->drawn, 0, sizeof(d->drawn));
}

static inline int
bloom_draw_next(BloomDraw *d)
{
	while (d->got < d->nhashes && d->draws < BLOOM_MAX_DRAWS)
	{
		unsigned	pos;
		uint64_t	bit;

		d->draws++;
		d->x = d->x * BLOOM_LCG_MULT + d->c;
		pos = (unsigned) (d->x >> 55);
		bit = UINT64_C(1) << (pos & 63);
		if ((d->drawn.w[pos >> 6] & bit) == 0)
		{
			d->drawn.w[pos >> 6] |= bit;
			d->got++;
			return (int) pos;
		}
	}
	return -1;
}

/*
 * Check an element against its block, stopping at the first clear bit, so
 * that most absent elements are ruled out after a draw or two instead of k.
 * The draws are tested two at a time: at the usual fill a single bit is a
 * coin toss the branch predictor cannot learn, and a pair, clear three times
 * in four, halves the mispredictions for the price of a draw that is cheap.
 */
static inline bool
bloom_block_test_hash(const uint8_t *block, BloomHash h, int nhashes)
{
	BloomDraw	d;

	bloom_draw_init(&d, h, nhashes);
	for (;;)
	{
		int			p1 = bloom_draw_next(&d);
		int			p2;
		unsigned	ok;

		if (p1 < 0)
			return true;
		p2 = bloom_draw_next(&d);
		ok = (block[p1 >> 3] >> (p1 & 7)) & 1;
		if (p2 < 0)
			return ok != 0;
		ok &= (block[p2 >> 3] >> (p2 & 7)) & 1;
		if (!ok)
			return false;
	}
}

static inline bool
bloom_test(const uint8_t *bits, uint64_t nblocks, int nhashes, BloomHash h)
{
	return bloom_block_test_hash(bits + bloom_block_of(h.h1, nblocks) * BLOOM_BLOCK_BYTES,
								 h, nhashes);
}

extern void bloom_mask(BloomHash h, int nhashes, BloomMask *mask);

/*
 * The mask form sets and tests the same bits as bloom_block_add_hash and
 * bloom_block_test_hash; the tests and fuzzers use it as their reference.
 */
extern int	bloom_block_add(uint8_t *block, const BloomMask *mask);
extern int	bloom_block_add_hash(uint8_t *block, BloomHash h, int nhashes);
extern bool bloom_block_test(const uint8_t *block, const BloomMask *mask);

/* whole-filter helpers over the bit area */
extern int	bloom_add(uint8_t *bits, uint64_t nblocks, int nhashes, BloomHash h);
extern uint64_t bloom_add_batch(uint8_t *bits, uint64_t nblocks, int nhashes,
								const BloomHash *hashes, size_t n);
extern uint64_t bloom_popcount(const uint8_t *bits, size_t nbytes);
extern uint64_t bloom_union_into(uint8_t *dst, const uint8_t *src, size_t nbytes);
extern uint64_t bloom_intersect_into(uint8_t *dst, const uint8_t *src, size_t nbytes);

/* estimates from the actual fill of every block */
extern double bloom_estimate_cardinality(const uint8_t *bits, uint64_t nblocks,
										 int nhashes);
extern double bloom_estimate_fpp(const uint8_t *bits, uint64_t nblocks,
								 int nhashes);

/* base64 (RFC 4648, padded, no line breaks) for the text form */
extern size_t bloom_base64_encoded_len(size_t len);
extern void bloom_base64_encode(const uint8_t *src, size_t len, char *dst);
extern bool bloom_base64_decode(const char *src, size_t srclen,
								uint8_t *dst, size_t *dstlen);
extern size_t bloom_base64_decoded_max(size_t srclen);

#endif							/* BLOOM_CORE_H */
