/*-------------------------------------------------------------------------
 *
 * blocked.c
 *	  Layout 1, "blocked512": the bits of the plain Bloom filter.
 *
 * The payload is nbits / 8 bytes, grouped into 64-byte blocks.  An
 * element's block is the high 64 bits of the 128-bit product h1 * nblocks,
 * which is uniform over the blocks without a division.  Inside the block the
 * element owns exactly k distinct bits, drawn from a 64-bit linear
 * congruential sequence
 *
 *		x(0) = h2,	x(i+1) = x(i) * 6364136223846793005 + (h1 | 1)
 *
 * of which x(1), x(2), ... give the bit numbers: the top nine bits of each,
 * 0..511.  A number already drawn for this element is skipped (and counts
 * towards no bound but BLOOM_MAX_DRAWS).  Bit b of a block is bit (b & 7) of
 * byte (b >> 3), so the stored bytes mean the same on every architecture.
 * Adding an element ORs its k bits into one block and checking it reads one
 * block: one cache miss either way, and a point check of a stored filter
 * fetches the header and a single block by TOAST slices.
 *
 * Why distinct bits: with them the false-positive rate has an exact model
 * (bloom_model_fpp in core/sizing.c), which sizing uses.  The standard
 * optimum for an unblocked filter is m = -n ln p / (ln 2)^2 bits; the blocked
 * layout needs a few percent more, the price of touching a single cache line.
 *
 * src/core/blocked.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/blocked.h"

#include <math.h>

void
bloom_mask(BloomHash h, int nhashes, BloomMask *mask)
{
	BloomDraw	d;

	bloom_draw_init(&d, h, nhashes);
	while (bloom_draw_next(&d) >= 0)
		;
	*mask = d.drawn;
}

int
bloom_block_add(uint8_t *block, const BloomMask *mask)
{
	int			added = 0;

	for (int i = 0; i < BLOOM_BLOCK_BYTES / 8; i++)
	{
		uint64_t	old,
					fresh;

		if (mask->w[i] == 0)
			continue;
		old = bloom_load64le(block + 8 * i);
		fresh = mask->w[i] & ~old;
		if (fresh)
		{
			added += bloom_popcount64(fresh);
			bloom_store64le(block + 8 * i, old | fresh);
		}
	}
	return added;
}

bool
bloom_block_test(const uint8_t *block, const BloomMask *mask)
{
	for (int i = 0; i < BLOOM_BLOCK_BYTES / 8; i++)
	{
		if ((bloom_load64le(block + 8 * i) & mask->w[i]) != mask->w[i])
			return false;
	}
	return true;
}

/*
 * Set an element's bits in its block as they are drawn; returns how many
 * were newly set.  Same bits as OR-ing in bloom_mask, without building the
 * mask or counting it.  This is the one place that walks the sequence
 * without bloom_draw_next: on the build path, where it runs once per row,
 * one flat loop over 64-bit words, with the drawn set and the block word
 * sharing the bit arithmetic, is cheaper than the general walk.  The unit
 * tests and fuzzers hold it to bloom_mask.  Inline in bloom_add, which
 * was a call through the PLT (as every exported function is from inside
 * the shared library) to bloom_block_add_hash, the index's one-row insert.
 * The batch below walks the same sequence with marks of its own.
 */
static BLOOM_ALWAYS_INLINE int
bloom_block_add_bits(uint8_t *block, BloomHash h, int nhashes)
{
	uint64_t	drawn[BLOOM_BLOCK_BYTES / 8] = {0};
	uint64_t	x = h.h2;
	uint64_t	c = h.h1 | 1;
	int			got = 0;
	int			added = 0;

	for (int draws = 0; got < nhashes && draws < BLOOM_MAX_DRAWS; draws++)
	{
		unsigned	pos;
		unsigned	w;
		uint64_t	bit;
		uint64_t	old;

		x = x * BLOOM_LCG_MULT + c;
		pos = (unsigned) (x >> 55);
		w = pos >> 6;
		bit = UINT64_C(1) << (pos & 63);
		if (bloom_unlikely(drawn[w] & bit))
			continue;
		drawn[w] |= bit;
		got++;
		/* branch-free: at half fill "already set?" is a coin toss */
		old = bloom_load64le(block + 8 * w);
		added += (old & bit) == 0;
		bloom_store64le(block + 8 * w, old | bit);
	}
	return added;
}

int
bloom_block_add_hash(uint8_t *block, BloomHash h, int nhashes)
{
	return bloom_block_add_bits(block, h, nhashes);
}

int
bloom_add(uint8_t *bits, uint64_t nblocks, int nhashes, BloomHash h)
{
	return bloom_block_add_bits(bits + bloom_block_of(h.h1, nblocks) * BLOOM_BLOCK_BYTES,
								h, nhashes);
}

/*
 * One element of a batch: the bits of bloom_block_add_bits, with two
 * changes that keep the walk's loads from waiting on its own stores: the
 * draws are told new by the batch's stamps (bloom_stamped_next,
 * core/blocked.h); and the block is changed a byte at a time, bit pos & 7 of byte pos >> 3 (the layout's
 * definition itself), so that two draws of one element share a location
 * in one element of three, not in nearly every one as with 64-bit words
 * (seven draws among eight words).  Measured 20% faster than the word
 * form over 10M adds (bench/RESULTS.md, "Builds, second pass").
 */
static BLOOM_ALWAYS_INLINE int
bloom_block_add_stamped(uint8_t *block, BloomHash h, int nhashes,
						uint16_t *seen, uint16_t stamp)
{
	BloomStampedDraw d;
	int			pos;
	int			added = 0;

	bloom_stamped_init(&d, h, nhashes, seen, stamp);
	while ((pos = bloom_stamped_next(&d)) >= 0)
	{
		/* branch-free: at half fill "already set?" is a coin toss */
		unsigned	bit = 1u << (pos & 7);
		unsigned	old = block[pos >> 3];

		added += (old & bit) == 0;
		block[pos >> 3] = (uint8_t) (old | bit);
	}
	return added;
}

/*
 * The bits of bloom_block_add_stamped, not counted: an aggregate's state counts
 * its bits once, when it is read (bloom_state_count in type/agg.c),
 * not per bit set.  The first k draws set their bits outright; a draw that
 * repeats an earlier one of its element (told by the stamps) sets its bit
 * again, harmlessly, and the walk then goes on from the k-th draw for as
 * many more new ones, exactly as bloom_stamped_next would have (about one
 * element in 25 at k = 7).  In a C loop of 10M adds into 12 MB, 10.3 ns
 * an add against the counted batch's 14.6 (bench/RESULTS.md).
 */
static BLOOM_ALWAYS_INLINE void
bloom_block_set_stamped(uint8_t *block, BloomHash h, int nhashes, uint16_t *seen,
						uint16_t stamp)
{
	uint64_t	x = h.h2;
	uint64_t	c = h.h1 | 1;
	int			repeats = 0;

	for (int i = 0; i < nhashes; i++)
	{
		unsigned	pos;

		x = x * BLOOM_LCG_MULT + c;
		pos = (unsigned) (x >> 55);
		repeats += seen[pos] == stamp;
		seen[pos] = stamp;
		block[pos >> 3] |= (uint8_t) (1u << (pos & 7));
	}
	if (bloom_unlikely(repeats > 0))
	{
		BloomStampedDraw d;
		int			pos;

		bloom_stamped_init(&d, h, nhashes, seen, stamp);
		d.x = x;
		d.got = nhashes - repeats;
		d.draws = nhashes;
		while ((pos = bloom_stamped_next(&d)) >= 0)
			block[pos >> 3] |= (uint8_t) (1u << (pos & 7));
	}
}

/*
 * Add many hashes at once.  A large filter misses cache on every add; with
 * the block of the element BLOOM_PREFETCH_AHEAD places further on
 * requested while the current one is applied, those misses overlap instead
 * of queueing one behind another.  Counted (bloom_add_batch) or not
 * (bloom_set_batch): the same walk, the count folded away.
 */
static BLOOM_ALWAYS_INLINE uint64_t
bloom_batch_walk(uint8_t *bits, uint64_t nblocks, int nhashes, const BloomHash *hashes,
				 size_t n, bool count)
{
	uint16_t	seen[BLOOM_BLOCK_BITS];
	uint16_t	stamp = 0;
	uint64_t	added = 0;

	memset(seen, 0, sizeof(seen));
	for (size_t i = 0; i < n && i < BLOOM_PREFETCH_AHEAD; i++)
		__builtin_prefetch(bits + bloom_block_of(hashes[i].h1, nblocks) * BLOOM_BLOCK_BYTES, 1);
	for (size_t i = 0; i < n; i++)
	{
		uint8_t    *block = bits + bloom_block_of(hashes[i].h1, nblocks) * BLOOM_BLOCK_BYTES;

		if (i + BLOOM_PREFETCH_AHEAD < n)
			__builtin_prefetch(bits + bloom_block_of(hashes[i + BLOOM_PREFETCH_AHEAD].h1,
													 nblocks) * BLOOM_BLOCK_BYTES, 1);
		stamp = bloom_stamp_next(seen, stamp);
		if (count)
			added += bloom_block_add_stamped(block, hashes[i], nhashes, seen, stamp);
		else
			bloom_block_set_stamped(block, hashes[i], nhashes, seen, stamp);
	}
	return added;
}

uint64_t
bloom_add_batch(uint8_t *bits, uint64_t nblocks, int nhashes,
				const BloomHash *hashes, size_t n)
{
	return bloom_batch_walk(bits, nblocks, nhashes, hashes, n, true);
}

void
bloom_set_batch(uint8_t *bits, uint64_t nblocks, int nhashes, const BloomHash *hashes,
				size_t n)
{
	(void) bloom_batch_walk(bits, nblocks, nhashes, hashes, n, false);
}

uint64_t
bloom_popcount(const uint8_t *bits, size_t nbytes)
{
	uint64_t	count = 0;
	size_t		i = 0;

	for (; i + 8 <= nbytes; i += 8)
		count += bloom_popcount64(bloom_load64le(bits + i));
	for (; i < nbytes; i++)
		count += bloom_popcount64(bits[i]);
	return count;
}

uint64_t
bloom_union_into(uint8_t *dst, const uint8_t *src, size_t nbytes)
{
	uint64_t	count = 0;

	/* nbytes is a multiple of the block size, so of 8 */
	for (size_t i = 0; i < nbytes; i += 8)
	{
		uint64_t	v = bloom_load64le(dst + i) | bloom_load64le(src + i);

		bloom_store64le(dst + i, v);
		count += bloom_popcount64(v);
	}
	return count;
}

uint64_t
bloom_intersect_into(uint8_t *dst, const uint8_t *src, size_t nbytes)
{
	uint64_t	count = 0;

	for (size_t i = 0; i < nbytes; i += 8)
	{
		uint64_t	v = bloom_load64le(dst + i) & bloom_load64le(src + i);

		bloom_store64le(dst + i, v);
		count += bloom_popcount64(v);
	}
	return count;
}

static int
bloom_block_popcount(const uint8_t *block)
{
	return (int) bloom_popcount(block, BLOOM_BLOCK_BYTES);
}

/*
 * Elements a block holds, given c of its 512 cells set: a block holding j
 * elements of k distinct cells has 512 (1 - (1 - k/512)^j) cells set on
 * average; inverted.  Summing this per block accounts for the uneven spread
 * of elements that a single estimate over the whole filter would miss.
 */
void
bloom_cardinality_table(int nhashes, double table[BLOOM_BLOCK_BITS + 1])
{
	const double B = BLOOM_BLOCK_BITS;
	double		denom = log1p(-(double) nhashes / B);

	for (int c = 0; c <= BLOOM_BLOCK_BITS; c++)
	{
		/* a full block says "at least this many"; cap it one cell short */
		double		cc = (c == BLOOM_BLOCK_BITS) ? B - 1 : c;

		table[c] = (nhashes >= BLOOM_BLOCK_BITS) ? cc / nhashes :
			log1p(-cc / B) / denom;
	}
}

/*
 * False-positive rate of a probe landing in a block with c cells set: its k
 * distinct cells must all be among them, probability C(c,k) / C(512,k).
 */
void
bloom_fpp_table(int nhashes, double table[BLOOM_BLOCK_BITS + 1])
{
	for (int c = 0; c <= BLOOM_BLOCK_BITS; c++)
	{
		double		f = 1.0;

		for (int i = 0; i < nhashes && f > 0.0; i++)
			f *= (double) (c - i) / (double) (BLOOM_BLOCK_BITS - i);
		table[c] = f > 0.0 ? f : 0.0;
	}
}

double
bloom_estimate_cardinality(const uint8_t *bits, uint64_t nblocks, int nhashes)
{
	double		table[BLOOM_BLOCK_BITS + 1];
	double		total = 0.0;

	bloom_cardinality_table(nhashes, table);
	for (uint64_t b = 0; b < nblocks; b++)
	{
		if (b % (BLOOM_INTERRUPT_BYTES / BLOOM_BLOCK_BYTES) == 0)
			bloom_check_interrupts();
		total += table[bloom_block_popcount(bits + b * BLOOM_BLOCK_BYTES)];
	}
	return total;
}

double
bloom_estimate_fpp(const uint8_t *bits, uint64_t nblocks, int nhashes)
{
	double		table[BLOOM_BLOCK_BITS + 1];
	double		total = 0.0;

	bloom_fpp_table(nhashes, table);
	for (uint64_t b = 0; b < nblocks; b++)
	{
		if (b % (BLOOM_INTERRUPT_BYTES / BLOOM_BLOCK_BYTES) == 0)
			bloom_check_interrupts();
		total += table[bloom_block_popcount(bits + b * BLOOM_BLOCK_BYTES)];
	}
	return total / (double) nblocks;
}

/* ---- the layout's entry in the table ---- */

static BloomCheck
blocked_check_header(const BloomHeader *hdr, size_t payload_len)
{
	return bloom_check_cells(hdr, payload_len, 1);
}

static BloomCheck
blocked_check_payload(const BloomHeader *hdr, const uint8_t *payload)
{
	if (bloom_popcount(payload, hdr->nbits / 8) != hdr->bits_set)
		return BLOOM_BAD_BITS_SET;
	return BLOOM_OK;
}

static uint64_t
blocked_payload_bytes(const BloomHeader *hdr)
{
	return hdr->nbits / 8;
}

/* one part: the whole payload, checked one block per element */
static BloomCheck
blocked_dir_next(const BloomHeader *hdr, BloomDir *dir, const uint8_t *piece,
				 BloomSpan *next)
{
	(void) piece;
	return bloom_dir_single(dir, bloom_nblocks(hdr), hdr->nhashes, next);
}

static int
blocked_spans(const BloomDir *dir, BloomHash h, BloomSpan *spans)
{
	return bloom_dir_block_span(dir, BLOOM_BLOCK_BYTES, h, spans);
}

static int
blocked_answer(const BloomDir *dir, const uint8_t *const *spans, BloomHash h, bool count)
{
	(void) count;				/* a bit cannot count: 0 or 1 either way */
	return bloom_block_test_hash(spans[0], h, (int) dir->part[0].width);
}

/*
 * bloom_block_test_hash for an element of a batch: its draws told new by
 * the batch's stamps (bloom_stamped_next), which cost a load and a store
 * where BloomDraw's mask is cleared per element and tested per draw.
 */
static BLOOM_ALWAYS_INLINE bool
bloom_block_test_stamped(const uint8_t *block, BloomHash h, int nhashes, uint16_t *seen,
						 uint16_t stamp)
{
	BloomStampedDraw d;

	bloom_stamped_init(&d, h, nhashes, seen, stamp);
	return bloom_block_test_walk(block, bloom_stamped_walk, &d);
}

/* the blocks of a group are requested before its first test */
#define BLOCKED_ANSWER_GROUP	64

static void
blocked_answer_many(const BloomDir *dir, const uint8_t *payload, const BloomHash *hashes,
					const bool *skip, int n, bool *found)
{
	const uint8_t *bits = payload + dir->part[0].offset;
	uint64_t	nblocks = dir->part[0].size;
	int			nhashes = (int) dir->part[0].width;
	uint16_t	seen[BLOOM_BLOCK_BITS];
	uint16_t	stamp = 0;

	memset(seen, 0, sizeof(seen));
	for (int start = 0; start < n; start += BLOCKED_ANSWER_GROUP)
	{
		int			end = n - start < BLOCKED_ANSWER_GROUP ? n : start + BLOCKED_ANSWER_GROUP;

		for (int i = start; i < end; i++)
			if (!skip[i])
				__builtin_prefetch(bits + bloom_block_of(hashes[i].h1, nblocks) * BLOOM_BLOCK_BYTES);
		for (int i = start; i < end; i++)
		{
			found[i] = false;
			if (skip[i])
				continue;
			stamp = bloom_stamp_next(seen, stamp);
			found[i] = bloom_block_test_stamped(bits + bloom_block_of(hashes[i].h1, nblocks) * BLOOM_BLOCK_BYTES,
												hashes[i], nhashes, seen, stamp);
		}
	}
}

static size_t
blocked_add(BloomHeader *hdr, uint8_t *payload, const BloomHash *hashes, size_t n)
{
	hdr->bits_set += bloom_add_batch(payload, bloom_nblocks(hdr), hdr->nhashes,
									 hashes, n);
	return n;
}

static void
blocked_add_uncounted(const BloomHeader *hdr, uint8_t *payload, const BloomHash *hashes,
					  size_t n)
{
	bloom_set_batch(payload, bloom_nblocks(hdr), hdr->nhashes, hashes, n);
}

/* a megabyte at a time, so that a cancel is answered */
static uint64_t
blocked_recount(const BloomHeader *hdr, const uint8_t *payload)
{
	size_t		nbytes = hdr->nbits / 8;
	uint64_t	count = 0;

	for (size_t off = 0; off < nbytes; off += BLOOM_INTERRUPT_BYTES)
	{
		bloom_check_interrupts();
		count += bloom_popcount(payload + off, nbytes - off < BLOOM_INTERRUPT_BYTES ?
								nbytes - off : BLOOM_INTERRUPT_BYTES);
	}
	return count;
}

bool
bloom_bits_same_shape(const BloomHeader *a, const BloomHeader *b)
{
	return a->nhashes == b->nhashes && a->nbits == b->nbits;
}

/* OR or AND, a megabyte at a time so that a cancel is answered */
bool
bloom_bits_combine(BloomHeader *hdr, uint8_t *dst, const BloomHeader *src_hdr,
				   const uint8_t *src, bool intersect)
{
	size_t		nbytes = hdr->nbits / 8;
	uint64_t	count = 0;

	(void) src_hdr;				/* same shape: same size */

	for (size_t off = 0; off < nbytes; off += BLOOM_INTERRUPT_BYTES)
	{
		size_t		len = nbytes - off < BLOOM_INTERRUPT_BYTES ?
			nbytes - off : BLOOM_INTERRUPT_BYTES;

		bloom_check_interrupts();
		count += intersect ? bloom_intersect_into(dst + off, src + off, len)
			: bloom_union_into(dst + off, src + off, len);
	}
	hdr->bits_set = count;
	return true;
}

static double
blocked_cardinality(const BloomHeader *hdr, const uint8_t *payload)
{
	return bloom_estimate_cardinality(payload, bloom_nblocks(hdr), hdr->nhashes);
}

static double
blocked_fpp(const BloomHeader *hdr, const uint8_t *payload)
{
	return bloom_estimate_fpp(payload, bloom_nblocks(hdr), hdr->nhashes);
}

/* the plain filter: its description does not name the layout */
static size_t
blocked_describe(const BloomHeader *hdr, char *buf, size_t size)
{
	return bloom_describe_cells(hdr, "bits", NULL, buf, size);
}

static void
blocked_info(const BloomHeader *hdr, const uint8_t *payload, BloomInfoSink *sink)
{
	(void) payload;
	bloom_info_cells(hdr, sink);
}

/* declared for -Wmissing-variable-declarations; core/header.c registers it */
extern const BloomLayout bloom_blocked_layout;

const BloomLayout bloom_blocked_layout = {
	.id = BLOOM_LAYOUT_BLOCKED512,
	.name = "blocked512",
	.intersects = true,
	.shape_hint = BLOOM_HINT_SAME_SIZING,
	.check_header = blocked_check_header,
	.check_payload = blocked_check_payload,
	.payload_bytes = blocked_payload_bytes,
	.dir_next = blocked_dir_next,
	.spans = blocked_spans,
	.answer = blocked_answer,
	.answer_many = blocked_answer_many,
	.add = blocked_add,
	.add_uncounted = blocked_add_uncounted,
	.recount = blocked_recount,
	.remove = NULL,				/* a bit cannot tell how many set it */
	.same_shape = bloom_bits_same_shape,
	.combine = bloom_bits_combine,
	.cardinality = blocked_cardinality,
	.fpp = blocked_fpp,
	.header_fpp = bloom_fill_fpp,
	.describe = blocked_describe,
	.info = blocked_info,
};
