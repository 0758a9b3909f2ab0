/*-------------------------------------------------------------------------
 *
 * hashlist.c
 *	  Layout 4, "hashes": the element hashes an unsized aggregate has seen,
 *	  kept as they are until the aggregate knows how many there are.
 *
 * bf_agg(element) with no sizing cannot know how large a filter to build
 * until its last row.  Growing a scalable filter from a small start costs
 * 3-6 times the size of a filter sized for the final count, and the union
 * of two partial results built that way overfills their sub-filters.  So
 * the aggregate keeps each element's 16-byte hash instead, and at the end
 * builds a scalable filter whose first sub-filter is sized for the number
 * of distinct hashes (bloom_hashes_capacity): it then holds every element
 * at its share of the rate, and can still grow afterwards.
 *
 * The state type of the aggregate is bloomfilter itself, so a partial
 * state that crosses a process boundary (a parallel worker, Citus's
 * worker_partial_agg as text) is a value of this layout: a valid
 * bloomfilter that every function answers on.  A union of two such values
 * is the list of both (nothing is overfilled: the final filter is sized for
 * all of them), and a union with a filter of another layout adds the hashes
 * to it, as bf_add_all would.
 *
 * The header's fields mean, for this layout: k (byte 7) is 0; nbits is 128
 * times the number of hash cells; capacity is the number of cells; bits set
 * is the number of cells in use, the first ones; the error rate is the rate
 * of the filter the hashes become.  The payload is a 16-byte prefix (uint32
 * expansion of that scalable filter, 1..1024, then 12 zero bytes) and the
 * cells: h1 and h2 of each hash, uint64 little-endian, cells past the count
 * all zero.  A check compares the element's hash with every cell in use:
 * an element is present only if its full 128-bit hash was added, so the
 * false-positive rate is that of a 128-bit collision.
 *
 * XXX A check scans the cells, which is fine for the rare value of this
 * layout that leaves an aggregate, and slow for a large one.
 *
 * src/core/hashlist.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/blocked.h"

#include <math.h>

#define HASHES_PREFIX		BLOOM_HASHES_PREFIX
/* the prefix: the expansion, then zero bytes to its end */
#define HASHES_OFF_EXPANSION	0
#define HASHES_OFF_RESERVED		4
#define HASHES_CELL			BLOOM_HASHES_CELL
#define HASHES_CELL_BITS	(HASHES_CELL * 8)
#define HASHES_MAX_CELLS	((BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE - HASHES_PREFIX) / HASHES_CELL)

/*
 * Distinct counting: HyperLogLog over 2^14 one-byte registers (16 kB on the
 * stack), register from the top bits of h1, rank from h2; standard error
 * 1.04 / 128, about 0.8%.  Up to 2.5 elements per register it counts the
 * empty registers instead (linear counting), which is closer there.
 */
#define HLL_BITS			14
#define HLL_REGISTERS		(1 << HLL_BITS)
/* the rank of an all-zero word: one past its 64 bits */
#define HLL_RANK_ZERO		65
/* Flajolet et al.'s bias correction alpha_m = 0.7213 / (1 + 1.079 / m) */
#define HLL_ALPHA_INF		0.7213
#define HLL_ALPHA_M			1.079
/* up to this many elements per register, linear counting (above) */
#define HLL_LINEAR_BELOW	2.5
/* a register update is a few instructions: a cancel check per 2^20 */
#define HLL_INTERRUPT_HASHES	(UINT64_C(1) << 20)

static uint64_t
hashes_cells(const BloomHeader *hdr)
{
	return hdr->nbits / HASHES_CELL_BITS;
}

static uint64_t
hashes_payload_bytes(const BloomHeader *hdr)
{
	return HASHES_PREFIX + hdr->nbits / 8;
}

uint32_t
bloom_hashes_expansion(const uint8_t *payload)
{
	return bloom_load32le(payload + HASHES_OFF_EXPANSION);
}

static BloomCheck
hashes_check_header(const BloomHeader *hdr, size_t payload_len)
{
	if (hdr->nhashes != 0)
		return BLOOM_BAD_HASH_LIST;
	if (hdr->nbits == 0 || hdr->nbits % HASHES_CELL_BITS != 0 ||
		hashes_cells(hdr) > HASHES_MAX_CELLS)
		return BLOOM_BAD_NBITS;
	if (payload_len != hashes_payload_bytes(hdr))
		return BLOOM_BAD_LENGTH;
	if (hdr->bits_set > hashes_cells(hdr))
		return BLOOM_BAD_BITS_SET;
	if (hdr->capacity != hashes_cells(hdr))
		return BLOOM_BAD_HASH_LIST;
	return BLOOM_OK;
}

static BloomCheck
hashes_check_payload(const BloomHeader *hdr, const uint8_t *payload)
{
	uint32_t	expansion = bloom_hashes_expansion(payload);

	if (expansion < 1 || expansion > BLOOM_MAX_EXPANSION)
		return BLOOM_BAD_RESERVED;
	for (int i = HASHES_OFF_RESERVED; i < HASHES_PREFIX; i++)
		if (payload[i] != 0)
			return BLOOM_BAD_RESERVED;
	/* the cells past the count are zero, so every value has one form */
	for (uint64_t i = hdr->bits_set; i < hashes_cells(hdr); i++)
	{
		BloomHash	h = bloom_hashes_get(payload, i);

		if (h.h1 != 0 || h.h2 != 0)
			return BLOOM_BAD_HASH_LIST;
	}
	return BLOOM_OK;
}

/*
 * One part: the list.  A check reads every hash in it, one span from the
 * payload's start (the check of the header has made sure bits_set cells
 * fit the payload).
 */
static BloomCheck
hashes_dir_next(const BloomHeader *hdr, BloomDir *dir, const uint8_t *piece,
				BloomSpan *next)
{
	(void) piece;
	return bloom_dir_single(dir, hdr->bits_set, 0, next);
}

static int
hashes_spans(const BloomDir *dir, BloomHash h, BloomSpan *spans)
{
	(void) h;
	spans[0].offset = 0;
	spans[0].len = (uint32_t) (HASHES_PREFIX + dir->part[0].size * HASHES_CELL);
	return 1;
}

/* whether the first n cells of the list hold h */
static bool
hashes_holds(const uint8_t *payload, uint64_t n, BloomHash h)
{
	for (uint64_t i = 0; i < n; i++)
	{
		BloomHash	c = bloom_hashes_get(payload, i);

		if (c.h1 == h.h1 && c.h2 == h.h2)
			return true;
		if (i % 65536 == 65535)
			bloom_check_interrupts();
	}
	return false;
}

static int
hashes_answer(const BloomDir *dir, const uint8_t *const *spans, BloomHash h, bool count)
{
	(void) count;				/* a list does not count its copies: 0 or 1 */
	return hashes_holds(spans[0], dir->part[0].size, h);
}

/*
 * Append, without looking for duplicates (the filter they become skips
 * them), as many as the free cells take.
 */
static size_t
hashes_add(BloomHeader *hdr, uint8_t *payload, const BloomHash *hashes, size_t n)
{
	uint64_t	room = hashes_cells(hdr) - hdr->bits_set;
	size_t		take = n < room ? n : (size_t) room;

	for (size_t i = 0; i < take; i++)
		bloom_hashes_put(payload, hdr->bits_set + i, hashes[i]);
	hdr->bits_set += take;
	return take;
}

/* twice the cells, up to the value limit; 0 once there */
static uint64_t
hashes_grown_cells(const BloomHeader *hdr)
{
	uint64_t	cells = hashes_cells(hdr);

	if (cells >= HASHES_MAX_CELLS)
		return 0;
	return cells > HASHES_MAX_CELLS / 2 ? HASHES_MAX_CELLS : 2 * cells;
}

static uint64_t
hashes_grown_bytes(const BloomHeader *hdr, const uint8_t *payload)
{
	uint64_t	cells = hashes_grown_cells(hdr);

	(void) payload;
	return cells == 0 ? 0 : HASHES_PREFIX + cells * HASHES_CELL;
}

/*
 * The list in a payload of cells cells (no fewer than it holds); grown may
 * be payload itself if that has room.  The new cells are zeroed, as a value
 * needs them, unless an aggregate's state asks not to (it flattens with
 * bloom_hashes_trim, and writing them twice costs time at 16 bytes a row).
 */
void
bloom_hashes_resize(BloomHeader *hdr, const uint8_t *payload, uint8_t *grown, uint64_t cells,
					bool zero)
{
	uint64_t	used = HASHES_PREFIX + hdr->bits_set * HASHES_CELL;

	if (grown != payload)
		bloom_fill_chunked(grown, payload, used);
	if (zero)
		bloom_fill_chunked(grown + used, NULL, HASHES_PREFIX + cells * HASHES_CELL - used);
	hdr->nbits = cells * HASHES_CELL_BITS;
	hdr->capacity = cells;
}

/*
 * The header of the list as it is to leave a state: as many cells as it
 * holds hashes (one if none, which bloom_hashes_init left zero).  The cells
 * of the trimmed payload are then all in use or zero.
 */
void
bloom_hashes_trim(BloomHeader *hdr)
{
	uint64_t	cells = hdr->bits_set > 0 ? hdr->bits_set : 1;

	hdr->nbits = cells * HASHES_CELL_BITS;
	hdr->capacity = cells;
}

static void
hashes_grow(BloomHeader *hdr, const uint8_t *payload, uint8_t *grown)
{
	bloom_hashes_resize(hdr, payload, grown, hashes_grown_cells(hdr), true);
}

/* seed and hash id are compared by bloom_same_shape: any two lists combine */
static bool
hashes_same_shape(const BloomHeader *a, const BloomHeader *b)
{
	(void) a;
	(void) b;
	return true;
}

/*
 * Union into dst's free cells, skipping hashes dst holds; false if they do
 * not fit, or for an intersection.  The server never comes here (it adds
 * one list to the other, growing: type/agg.c); the table's other
 * users (the fuzzers) do.
 */
static bool
hashes_combine(BloomHeader *hdr, uint8_t *dst, const BloomHeader *shdr,
			   const uint8_t *src, bool intersect)
{
	if (intersect)
		return false;
	for (uint64_t i = 0; i < shdr->bits_set; i++)
	{
		BloomHash	h = bloom_hashes_get(src, i);

		if (hashes_holds(dst, hdr->bits_set, h))
			continue;
		if (hashes_add(hdr, dst, &h, 1) == 0)
			return false;
	}
	return true;
}

/* the rank of a register: leading zeros of w, plus one */
static int
hll_rank(uint64_t w)
{
	return w == 0 ? HLL_RANK_ZERO : __builtin_clzll(w) + 1;
}

/* the number of distinct hashes among the first n cells, estimated */
uint64_t
bloom_hashes_distinct(const uint8_t *payload, uint64_t n)
{
	uint8_t		reg[HLL_REGISTERS];
	double		sum = 0.0;
	int			zeros = 0;
	double		m = HLL_REGISTERS;
	double		estimate;

	memset(reg, 0, sizeof(reg));
	for (uint64_t i = 0; i < n; i++)
	{
		BloomHash	h = bloom_hashes_get(payload, i);
		unsigned	r = (unsigned) (h.h1 >> (64 - HLL_BITS));
		int			rank = hll_rank(h.h2);

		if (rank > reg[r])
			reg[r] = (uint8_t) rank;
		if (i % HLL_INTERRUPT_HASHES == HLL_INTERRUPT_HASHES - 1)
			bloom_check_interrupts();
	}
	for (int r = 0; r < HLL_REGISTERS; r++)
	{
		sum += ldexp(1.0, -reg[r]);
		zeros += reg[r] == 0;
	}
	estimate = HLL_ALPHA_INF / (1.0 + HLL_ALPHA_M / m) * m * m / sum;
	if (estimate <= HLL_LINEAR_BELOW * m && zeros > 0)
		estimate = m * log(m / zeros);
	/* never more than the cells counted, never none of several */
	if (estimate > (double) n)
		return n;
	return n > 0 && estimate < 1.0 ? 1 : (uint64_t) llround(estimate);
}

static double
hashes_cardinality(const BloomHeader *hdr, const uint8_t *payload)
{
	return (double) bloom_hashes_distinct(payload, hdr->bits_set);
}

/* a member only if its full 128-bit hash is: a collision's chance */
static double
hashes_fpp(const BloomHeader *hdr, const uint8_t *payload)
{
	(void) payload;
	return ldexp((double) hdr->bits_set, -128);
}

/* the header alone gives it: the fpp does not read the payload */
static double
hashes_header_fpp(const BloomHeader *hdr)
{
	return hashes_fpp(hdr, NULL);
}

static size_t
hashes_describe(const BloomHeader *hdr, char *buf, size_t size)
{
	return bloom_describe_sized(hdr, "hashes", buf, size);
}

static void
hashes_info(const BloomHeader *hdr, const uint8_t *payload, BloomInfoSink *sink)
{
	bloom_info_cells(hdr, sink);
	bloom_info_uint(sink, "expansion", bloom_hashes_expansion(payload));
	bloom_info_uint(sink, "hashes", hdr->bits_set);
}

/*
 * The capacity of the scalable filter a list becomes: its distinct count,
 * at least BLOOM_HASHES_MIN_CAPACITY so that the filter has room to grow
 * (a sub-filter's rate halves each time, down to BLOOM_MIN_ERROR_RATE).
 */
uint64_t
bloom_hashes_capacity(const BloomHeader *hdr, const uint8_t *payload)
{
	uint64_t	n = bloom_hashes_distinct(payload, hdr->bits_set);

	return n > BLOOM_HASHES_MIN_CAPACITY ? n : BLOOM_HASHES_MIN_CAPACITY;
}

/*
 * The header of a new, empty list of cells cells, for a filter at
 * error_rate; bloom_hashes_init then writes its payload (the filter it
 * becomes grows by expansion).
 */
void
bloom_hashes_header(BloomHeader *hdr, double error_rate, uint32_t seed, uint64_t cells)
{
	bloom_header_init(hdr, cells, error_rate, seed, cells * HASHES_CELL_BITS, 0);
	hdr->layout = BLOOM_LAYOUT_HASHES;
}

void
bloom_hashes_init(const BloomHeader *hdr, uint32_t expansion, uint8_t *payload)
{
	memset(payload, 0, hashes_payload_bytes(hdr));
	bloom_store32le(payload + HASHES_OFF_EXPANSION, expansion);
}

/* declared for -Wmissing-variable-declarations; core/header.c registers it */
extern const BloomLayout bloom_hashes_layout;

const BloomLayout bloom_hashes_layout = {
	.id = BLOOM_LAYOUT_HASHES,
	.name = "hashes",
	.holds_hashes = true,
	.grows = true,
	.no_intersect_detail = "A list of element hashes is the partial state of an aggregate that has not finished.",
	.no_intersect_hint = "Finish the aggregate (bloomfilter_agg_final, or bf_union_agg over the partial states) first.",
	.shape_hint = "A list of element hashes (an aggregate's partial state) combines with any filter of the same seed.",
	.check_header = hashes_check_header,
	.check_payload = hashes_check_payload,
	.payload_bytes = hashes_payload_bytes,
	.dir_next = hashes_dir_next,
	.spans = hashes_spans,
	.answer = hashes_answer,
	.add = hashes_add,
	.grown_bytes = hashes_grown_bytes,
	.grow = hashes_grow,
	.remove = NULL,
	.same_shape = hashes_same_shape,
	.combine = hashes_combine,
	.cardinality = hashes_cardinality,
	.fpp = hashes_fpp,
	.header_fpp = hashes_header_fpp,
	.describe = hashes_describe,
	.info = hashes_info,
	.partial = NULL,
	.finish = NULL,
};
