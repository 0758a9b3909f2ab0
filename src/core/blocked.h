/*-------------------------------------------------------------------------
 *
 * blocked.h
 *	  Layout 1, "blocked512": k distinct bits of an element in one 64-byte
 *	  block.  The primitives are inline here because the per-row paths (the
 *	  aggregate's adds, checks of a cached filter) and the unit tests use
 *	  them directly; everything else reaches them through the layout table.
 *
 * src/core/blocked.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_BLOCKED_H
#define BLOOM_BLOCKED_H

#include "core/header.h"

#define BLOOM_MAX_BLOCKS		((BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE) / BLOOM_BLOCK_BYTES)

/* layouts 2 and 3 build on the blocked cells: core/counting.c, core/scalable.c */
extern bool bloom_scalable_header(BloomHeader *hdr, uint64_t capacity, double error_rate,
								  uint32_t seed, uint32_t expansion, uint64_t *payload_bytes);
extern void bloom_scalable_init(BloomHeader *hdr, uint32_t expansion, uint8_t *payload);
extern uint64_t bloom_scalable_take(BloomHeader *hdr, uint8_t *payload,
									const BloomHash *hashes, size_t n);
/* layout 4, an unsized aggregate's hashes (core/hashlist.c): its payload: a 16-byte prefix, then h1 and h2 (LE) of each hash */
#define BLOOM_HASHES_PREFIX		16
#define BLOOM_HASHES_CELL		16

static inline BloomHash
bloom_hashes_get(const uint8_t *payload, uint64_t i)
{
	const uint8_t *cell = payload + BLOOM_HASHES_PREFIX + i * BLOOM_HASHES_CELL;
	BloomHash	h;

	h.h1 = bloom_load64le(cell);
	h.h2 = bloom_load64le(cell + 8);
	return h;
}

static inline void
bloom_hashes_put(uint8_t *payload, uint64_t i, BloomHash h)
{
	uint8_t    *cell = payload + BLOOM_HASHES_PREFIX + i * BLOOM_HASHES_CELL;

	bloom_store64le(cell, h.h1);
	bloom_store64le(cell + 8, h.h2);
}

extern uint32_t bloom_hashes_expansion(const uint8_t *payload);
extern uint64_t bloom_hashes_distinct(const uint8_t *payload, uint64_t n);
extern uint64_t bloom_hashes_capacity(const BloomHeader *hdr, const uint8_t *payload);
extern void bloom_hashes_header(BloomHeader *hdr, double error_rate, uint32_t seed,
								uint64_t cells);
extern void bloom_hashes_init(const BloomHeader *hdr, uint32_t expansion, uint8_t *payload);
extern void bloom_hashes_resize(BloomHeader *hdr, const uint8_t *payload, uint8_t *grown,
								uint64_t cells, bool zero);
extern void bloom_hashes_trim(BloomHeader *hdr);

static inline uint64_t
bloom_nblocks(const BloomHeader *hdr)
{
	return hdr->nbits / BLOOM_BLOCK_BITS;
}

/* The k bits of an element inside its block, as eight 64-bit words. */
typedef struct BloomMask
{
	uint64_t	w[BLOOM_BLOCK_BYTES / 8];
} BloomMask;

/*
 * The element's bits inside its block: the one definition of the sequence
 * described at the top of core/header.c.  Each call of bloom_draw_next
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
 * XXX Each draw waits for the previous multiply.  Independent draws would
 * need tables of powers of the multiplier, whose loads cost about what the
 * multiplies do (a table of partial sums was tried in 1.1 and measured no
 * faster).
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
 * The same sequence for one element of a batch of adds (core/blocked.c,
 * core/counting.c): a draw is new unless seen[pos] already holds this
 * element's stamp.  seen is the batch's, BLOOM_BLOCK_BITS stamps: nothing
 * is cleared per element, and a load of seen[pos] meets an earlier store
 * of this element only on a true repeat, where BloomDraw's mask words are
 * shared by most draws.  bloom_stamp_next gives each element its stamp.
 */
typedef struct BloomStampedDraw
{
	uint64_t	x;
	uint64_t	c;
	int			nhashes;
	int			got;
	int			draws;
	uint16_t   *seen;
	uint16_t	stamp;
} BloomStampedDraw;

/* the next element's stamp; after 65535 of them the marks start over */
static BLOOM_ALWAYS_INLINE uint16_t
bloom_stamp_next(uint16_t *seen, uint16_t stamp)
{
	if (bloom_unlikely(++stamp == 0))
	{
		memset(seen, 0, sizeof(uint16_t) * BLOOM_BLOCK_BITS);
		stamp = 1;
	}
	return stamp;
}

static BLOOM_ALWAYS_INLINE void
bloom_stamped_init(BloomStampedDraw *d, BloomHash h, int nhashes, uint16_t *seen,
				   uint16_t stamp)
{
	d->x = h.h2;
	d->c = h.h1 | 1;
	d->nhashes = nhashes;
	d->got = 0;
	d->draws = 0;
	d->seen = seen;
	d->stamp = stamp;
}

static BLOOM_ALWAYS_INLINE int
bloom_stamped_next(BloomStampedDraw *d)
{
	while (d->got < d->nhashes && d->draws < BLOOM_MAX_DRAWS)
	{
		unsigned	pos;

		d->draws++;
		d->x = d->x * BLOOM_LCG_MULT + d->c;
		pos = (unsigned) (d->x >> 55);
		if (bloom_unlikely(d->seen[pos] == d->stamp))
			continue;
		d->seen[pos] = d->stamp;
		d->got++;
		return (int) pos;
	}
	return -1;
}

/*
 * Check an element against its block, stopping at the first clear bit, so
 * that most absent elements are ruled out after a draw or two instead of k.
 * The draws are tested two at a time: at the usual fill a single bit is a
 * coin toss the branch predictor cannot learn, and a pair, clear three times
 * in four, halves the mispredictions for the price of a draw that is cheap.
 * next gives the element's next new draw, or -1, from either walk (a
 * constant here, so the call is inlined).
 */
static BLOOM_ALWAYS_INLINE bool
bloom_block_test_walk(const uint8_t *block, int (*next) (void *walk), void *walk)
{
	for (;;)
	{
		int			p1 = next(walk);
		int			p2;
		unsigned	ok;

		if (p1 < 0)
			return true;
		p2 = next(walk);
		ok = (block[p1 >> 3] >> (p1 & 7)) & 1;
		if (p2 < 0)
			return ok != 0;
		ok &= (block[p2 >> 3] >> (p2 & 7)) & 1;
		if (!ok)
			return false;
	}
}

static BLOOM_ALWAYS_INLINE int
bloom_draw_walk(void *walk)
{
	return bloom_draw_next((BloomDraw *) walk);
}

static BLOOM_ALWAYS_INLINE int
bloom_stamped_walk(void *walk)
{
	return bloom_stamped_next((BloomStampedDraw *) walk);
}

static inline bool
bloom_block_test_hash(const uint8_t *block, BloomHash h, int nhashes)
{
	BloomDraw	d;

	bloom_draw_init(&d, h, nhashes);
	return bloom_block_test_walk(block, bloom_draw_walk, &d);
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
extern void bloom_set_batch(uint8_t *bits, uint64_t nblocks, int nhashes,
							const BloomHash *hashes, size_t n);
extern uint64_t bloom_popcount(const uint8_t *bits, size_t nbytes);
extern uint64_t bloom_union_into(uint8_t *dst, const uint8_t *src, size_t nbytes);
extern uint64_t bloom_intersect_into(uint8_t *dst, const uint8_t *src, size_t nbytes);

/*
 * The layout callbacks of a payload that is one array of bits (layouts 1
 * and 5): the same k and bits make the same shape; a union ORs, an
 * intersection ANDs, and the bits set are counted again.
 */
extern bool bloom_bits_same_shape(const BloomHeader *a, const BloomHeader *b);
extern bool bloom_bits_combine(BloomHeader *hdr, uint8_t *dst, const BloomHeader *src_hdr,
							   const uint8_t *src, bool intersect);

/* estimates from the actual fill of every block */
extern void bloom_cardinality_table(int nhashes, double table[BLOOM_BLOCK_BITS + 1]);
extern void bloom_fpp_table(int nhashes, double table[BLOOM_BLOCK_BITS + 1]);
extern double bloom_estimate_cardinality(const uint8_t *bits, uint64_t nblocks,
										 int nhashes);
extern double bloom_estimate_fpp(const uint8_t *bits, uint64_t nblocks,
								 int nhashes);

#endif							/* BLOOM_BLOCKED_H */
