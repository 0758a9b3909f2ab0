/*-------------------------------------------------------------------------
 *
 * counting.c
 *	  Layout 2, "counting4": a counting Bloom filter of 4-bit counters,
 *	  which can forget an element it was given.
 *
 * The cells are those of the blocked layout (core/blocked.c): the same
 * block for an element, the same k distinct cell numbers 0..511 drawn from
 * the same sequence, so sizing, the false-positive model and every estimate
 * are the plain filter's, with "counter non-zero" for "bit set".  Each cell
 * is a 4-bit counter: cell c of a block is the low nibble of byte c >> 1 of
 * the block if c is even, the high nibble if odd, so a block is 256 bytes
 * and nbits (the header field) counts cells.  bits_set counts the non-zero
 * counters.
 *
 * Adding increments the element's k counters; removing decrements them, but
 * only if all k are non-zero, so removing an element the filter rules out
 * changes nothing.  A counter that reaches 15 stays there (sticky): it can
 * no longer tell how many elements share it, so it is never decremented,
 * and a removal can never clear a cell another element still needs.  That
 * is what keeps removal free of false negatives; the price is that cells
 * which saturated stay set (bf_info reports how many).  Union adds counters
 * (saturating at 15), intersection takes the smaller one.
 *
 * Removing an element that was never added, but tests present (a false
 * positive), decrements counters that belong to other elements; one of them
 * can then test absent.  Only remove what was added.
 *
 * XXX An element's counters share one 256-byte block, four cache lines,
 * where the plain filter's bits share one.  Keeping the plain layout's cells
 * keeps its exact sizing; a one-line block of 128 counters would need a
 * model of its own.
 *
 * src/core/counting.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/blocked.h"

#define COUNTING_BLOCK_BYTES	(BLOOM_BLOCK_BITS / 2)
#define COUNTING_MAX			15
#define COUNTING_CELL_BITS		4	/* as bf_info shows it */

static inline int
counter_get(const uint8_t *block, int cell)
{
	return (block[cell >> 1] >> ((cell & 1) * 4)) & 0xF;
}

static inline void
counter_set(uint8_t *block, int cell, int value)
{
	int			shift = (cell & 1) * 4;

	block[cell >> 1] = (uint8_t) ((block[cell >> 1] & ~(0xF << shift)) | (value << shift));
}

/* non-zero counters in n bytes (n a multiple of 8) */
static uint64_t
counting_nonzero(const uint8_t *p, size_t n)
{
	uint64_t	count = 0;

	for (size_t i = 0; i < n; i += 8)
	{
		uint64_t	v = bloom_load64le(p + i);

		v = (v | (v >> 1) | (v >> 2) | (v >> 3)) & UINT64_C(0x1111111111111111);
		count += bloom_popcount64(v);
	}
	return count;
}

static uint64_t
counting_nblocks(const BloomHeader *hdr)
{
	return hdr->nbits / BLOOM_BLOCK_BITS;
}

static BloomCheck
counting_check_header(const BloomHeader *hdr, size_t payload_len)
{
	return bloom_check_cells(hdr, payload_len, 4);
}

static BloomCheck
counting_check_payload(const BloomHeader *hdr, const uint8_t *payload)
{
	if (counting_nonzero(payload, hdr->nbits / 2) != hdr->bits_set)
		return BLOOM_BAD_BITS_SET;
	return BLOOM_OK;
}

static uint64_t
counting_payload_bytes(const BloomHeader *hdr)
{
	return hdr->nbits / 2;
}

static uint64_t
counting_span_of(const BloomHeader *hdr, BloomHash h)
{
	return bloom_block_of(h.h1, counting_nblocks(hdr)) * COUNTING_BLOCK_BYTES;
}

/* the smallest of the element's counters: 0 if it was never added */
static int
counting_count(int nhashes, const uint8_t *block, BloomHash h)
{
	BloomDraw	d;
	int			cell;
	int			least = COUNTING_MAX;

	bloom_draw_init(&d, h, nhashes);
	while ((cell = bloom_draw_next(&d)) >= 0 && least > 0)
	{
		int			c = counter_get(block, cell);

		if (c < least)
			least = c;
	}
	return least;
}

/* one part: the whole payload, checked one block per element */
static BloomCheck
counting_dir_next(const BloomHeader *hdr, BloomDir *dir, const uint8_t *piece,
				  BloomSpan *next)
{
	(void) piece;
	return bloom_dir_single(dir, counting_nblocks(hdr), hdr->nhashes, next);
}

static int
counting_spans(const BloomDir *dir, BloomHash h, BloomSpan *spans)
{
	return bloom_dir_block_span(dir, COUNTING_BLOCK_BYTES, h, spans);
}

static int
counting_answer(const BloomDir *dir, const uint8_t *const *spans, BloomHash h, bool count)
{
	int			least = counting_count((int) dir->part[0].width, spans[0], h);

	return count ? least : least > 0;
}

/*
 * Increment an element's k counters, as a walk with bloom_draw_next and
 * counter_get/counter_set would, in one flat loop as the blocked layout's
 * batch does (core/blocked.c, bloom_block_add_stamped): the draws told new
 * by the batch's stamps (bloom_stamped_next), each counter read and
 * written in its own byte (cell c: byte c >> 1, the low nibble for even c),
 * the increment and the count of counters leaving zero without a branch.
 * Returns how many counters left zero.  The unit tests hold it to the
 * definition.
 */
static BLOOM_ALWAYS_INLINE uint64_t
counting_add_cells(uint8_t *block, BloomHash h, int nhashes, uint16_t *seen,
				   uint16_t stamp)
{
	BloomStampedDraw d;
	int			pos;
	uint64_t	fresh = 0;

	bloom_stamped_init(&d, h, nhashes, seen, stamp);
	while ((pos = bloom_stamped_next(&d)) >= 0)
	{
		unsigned	shift = 4 * (pos & 1);
		unsigned	v = block[pos >> 1];
		unsigned	cnt = (v >> shift) & 0xF;

		fresh += cnt == 0;
		/* a saturated counter stays (sticky) */
		block[pos >> 1] = (uint8_t) (v + ((unsigned) (cnt < COUNTING_MAX) << shift));
	}
	return fresh;
}

/* forced inline: GCC drops calls to a function whose only effect is a prefetch */
static BLOOM_ALWAYS_INLINE void
counting_prefetch(const uint8_t *payload, uint64_t nblocks, BloomHash h)
{
	const uint8_t *block = payload + bloom_block_of(h.h1, nblocks) * COUNTING_BLOCK_BYTES;

	for (int line = 0; line < COUNTING_BLOCK_BYTES; line += 64)
		__builtin_prefetch(block + line, 1);
}

/* as bloom_add_batch: the block BLOOM_PREFETCH_AHEAD hashes ahead is requested */
static size_t
counting_add(BloomHeader *hdr, uint8_t *payload, const BloomHash *hashes, size_t n)
{
	uint64_t	nblocks = counting_nblocks(hdr);
	uint64_t	fresh = 0;
	uint16_t	seen[BLOOM_BLOCK_BITS];
	uint16_t	stamp = 0;

	memset(seen, 0, sizeof(seen));
	for (size_t i = 0; i < n && i < BLOOM_PREFETCH_AHEAD; i++)
		counting_prefetch(payload, nblocks, hashes[i]);
	for (size_t i = 0; i < n; i++)
	{
		if (i + BLOOM_PREFETCH_AHEAD < n)
			counting_prefetch(payload, nblocks, hashes[i + BLOOM_PREFETCH_AHEAD]);
		stamp = bloom_stamp_next(seen, stamp);
		fresh += counting_add_cells(payload + counting_span_of(hdr, hashes[i]),
									hashes[i], hdr->nhashes, seen, stamp);
	}
	hdr->bits_set += fresh;
	return n;
}

static bool
counting_remove(BloomHeader *hdr, uint8_t *payload, BloomHash h)
{
	uint8_t    *block = payload + counting_span_of(hdr, h);
	BloomDraw	d;
	int			cell;

	if (counting_count(hdr->nhashes, block, h) == 0)
		return false;
	bloom_draw_init(&d, h, hdr->nhashes);
	while ((cell = bloom_draw_next(&d)) >= 0)
	{
		int			c = counter_get(block, cell);

		if (c < COUNTING_MAX)
		{
			counter_set(block, cell, c - 1);
			hdr->bits_set -= (c == 1);
		}
	}
	return true;
}

static bool
counting_same_shape(const BloomHeader *a, const BloomHeader *b)
{
	return a->nhashes == b->nhashes && a->nbits == b->nbits;
}

/* union: counters added, saturating; intersection: the smaller counter */
static bool
counting_combine(BloomHeader *hdr, uint8_t *dst, const BloomHeader *src_hdr,
				 const uint8_t *src, bool intersect)
{
	size_t		nbytes = hdr->nbits / 2;

	(void) src_hdr;				/* same shape: same size */

	for (size_t i = 0; i < nbytes; i++)
	{
		int			out = 0;

		if (i % BLOOM_INTERRUPT_BYTES == 0)
			bloom_check_interrupts();
		for (int shift = 0; shift <= 4; shift += 4)
		{
			int			a = (dst[i] >> shift) & 0xF;
			int			b = (src[i] >> shift) & 0xF;
			int			c = intersect ? (a < b ? a : b) :
				(a + b > COUNTING_MAX ? COUNTING_MAX : a + b);

			out |= c << shift;
		}
		dst[i] = (uint8_t) out;
	}
	hdr->bits_set = counting_nonzero(dst, nbytes);
	return true;
}

/* the plain filter's per-block estimates, over non-zero counters */
static double
counting_estimate(const BloomHeader *hdr, const uint8_t *payload, bool fpp)
{
	double		table[BLOOM_BLOCK_BITS + 1];
	double		total = 0.0;
	uint64_t	nblocks = counting_nblocks(hdr);

	if (fpp)
		bloom_fpp_table(hdr->nhashes, table);
	else
		bloom_cardinality_table(hdr->nhashes, table);
	for (uint64_t b = 0; b < nblocks; b++)
	{
		if (b % (BLOOM_INTERRUPT_BYTES / COUNTING_BLOCK_BYTES) == 0)
			bloom_check_interrupts();
		total += table[counting_nonzero(payload + b * COUNTING_BLOCK_BYTES,
										COUNTING_BLOCK_BYTES)];
	}
	return fpp ? total / (double) nblocks : total;
}

static double
counting_cardinality(const BloomHeader *hdr, const uint8_t *payload)
{
	return counting_estimate(hdr, payload, false);
}

static double
counting_fpp(const BloomHeader *hdr, const uint8_t *payload)
{
	return counting_estimate(hdr, payload, true);
}

/* its cells are four-bit counters, which the header counts in nbits */
static size_t
counting_describe(const BloomHeader *hdr, char *buf, size_t size)
{
	return bloom_describe_cells(hdr, "counters", "counting4", buf, size);
}

static void
counting_info(const BloomHeader *hdr, const uint8_t *payload, BloomInfoSink *sink)
{
	uint64_t	saturated = 0;

	for (uint64_t i = 0; i < hdr->nbits / 2; i++)
	{
		if (i % BLOOM_INTERRUPT_BYTES == 0)
			bloom_check_interrupts();
		saturated += ((payload[i] & 0xF) == COUNTING_MAX) + ((payload[i] >> 4) == COUNTING_MAX);
	}
	bloom_info_cells(hdr, sink);
	bloom_info_uint(sink, "counter_bits", COUNTING_CELL_BITS);
	bloom_info_uint(sink, "saturated", saturated);
}

/* declared for -Wmissing-variable-declarations; core/header.c registers it */
extern const BloomLayout bloom_counting_layout;

const BloomLayout bloom_counting_layout = {
	.id = BLOOM_LAYOUT_COUNTING4,
	.name = "counting4",
	.removes = true,
	.intersects = true,
	.shape_hint = BLOOM_HINT_SAME_SIZING,
	.check_header = counting_check_header,
	.check_payload = counting_check_payload,
	.payload_bytes = counting_payload_bytes,
	.dir_next = counting_dir_next,
	.spans = counting_spans,
	.answer = counting_answer,
	.add = counting_add,
	.remove = counting_remove,
	.same_shape = counting_same_shape,
	.combine = counting_combine,
	.cardinality = counting_cardinality,
	.fpp = counting_fpp,
	.header_fpp = bloom_fill_fpp,
	.describe = counting_describe,
	.info = counting_info,
};
