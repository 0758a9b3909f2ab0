/*-------------------------------------------------------------------------
 *
 * unit_layout_toy.c
 *	  A layout of the unit tests only, "toy64": the textbook Bloom filter,
 *	  to show that a layout is one file plus its id and its registry line.
 *
 * This file is all the layout there is: core/header.h lists its id
 * (BLOOM_LAYOUT_TOY) and core/header.c's registry its table, both only when
 * the core is built with BLOOM_TOY_LAYOUT, as test/unit_layout does.  That
 * test then reaches it through the table alone (bloom_validate,
 * bloom_same_shape, bloom_test_payload, the callbacks), as the server and
 * the fuzzers reach every layout.
 *
 * The payload is nbits / 8 bytes of bits, nbits a multiple of 64; element
 * h sets bits (h1 + j * h2) mod nbits for j < k (Kirsch and Mitzenmacher's
 * double hashing), so a check reads k scattered bytes: the whole payload is
 * its span.  bits_set counts the bits set.  The header fields mean what a
 * blocked filter's do, so the core's helpers describe it and predict its
 * rate from the header.
 *
 * test/unit_layout_toy.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/header.h"

#include <math.h>

#define TOY_WORD_BITS	64

static uint64_t
toy_payload_bytes(const BloomHeader *hdr)
{
	return hdr->nbits / 8;
}

static BloomCheck
toy_check_header(const BloomHeader *hdr, size_t payload_len)
{
	if (hdr->nbits == 0 || hdr->nbits % TOY_WORD_BITS != 0 ||
		hdr->nbits / 8 > BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE)
		return BLOOM_BAD_NBITS;
	if (hdr->nhashes < 1 || hdr->nhashes > BLOOM_MAX_HASHES)
		return BLOOM_BAD_NHASHES;
	if (payload_len != toy_payload_bytes(hdr))
		return BLOOM_BAD_LENGTH;
	if (hdr->bits_set > hdr->nbits)
		return BLOOM_BAD_BITS_SET;
	return BLOOM_OK;
}

static uint64_t
toy_count_bits(const uint8_t *payload, uint64_t nbytes)
{
	uint64_t	n = 0;

	for (uint64_t i = 0; i < nbytes; i++)
		n += (uint64_t) bloom_popcount64(payload[i]);
	return n;
}

static BloomCheck
toy_check_payload(const BloomHeader *hdr, const uint8_t *payload)
{
	return toy_count_bits(payload, toy_payload_bytes(hdr)) == hdr->bits_set ?
		BLOOM_OK : BLOOM_BAD_BITS_SET;
}

static uint64_t
toy_bit(uint64_t nbits, BloomHash h, int j)
{
	return (h.h1 + (uint64_t) j * h.h2) % nbits;
}

/* k bits anywhere: the directory is one part, the payload, that a check reads whole */
static BloomCheck
toy_dir_next(const BloomHeader *hdr, BloomDir *dir, const uint8_t *piece, BloomSpan *next)
{
	(void) piece;
	return bloom_dir_single(dir, hdr->nbits, hdr->nhashes, next);
}

static int
toy_spans(const BloomDir *dir, BloomHash h, BloomSpan *spans)
{
	(void) h;
	spans[0].offset = 0;
	spans[0].len = (uint32_t) (dir->part[0].size / 8);
	return 1;
}

static int
toy_answer(const BloomDir *dir, const uint8_t *const *spans, BloomHash h, bool count)
{
	(void) count;				/* a bit cannot tell how many set it: 0 or 1 */
	for (uint32_t j = 0; j < dir->part[0].width; j++)
	{
		uint64_t	b = toy_bit(dir->part[0].size, h, (int) j);

		if (((spans[0][b >> 3] >> (b & 7)) & 1) == 0)
			return 0;
	}
	return 1;
}

static size_t
toy_add(BloomHeader *hdr, uint8_t *payload, const BloomHash *hashes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (int j = 0; j < hdr->nhashes; j++)
		{
			uint64_t	b = toy_bit(hdr->nbits, hashes[i], j);
			uint8_t		bit = (uint8_t) (1u << (b & 7));

			hdr->bits_set += (payload[b >> 3] & bit) == 0;
			payload[b >> 3] |= bit;
		}
	return n;
}

static bool
toy_same_shape(const BloomHeader *a, const BloomHeader *b)
{
	return a->nbits == b->nbits && a->nhashes == b->nhashes;
}

static bool
toy_combine(BloomHeader *hdr, uint8_t *dst, const BloomHeader *src_hdr,
			const uint8_t *src, bool intersect)
{
	uint64_t	nbytes = toy_payload_bytes(hdr);

	if (!toy_same_shape(hdr, src_hdr))
		return false;
	for (uint64_t i = 0; i < nbytes; i++)
	{
		if (i % BLOOM_INTERRUPT_BYTES == 0)
			bloom_check_interrupts();
		dst[i] = intersect ? dst[i] & src[i] : dst[i] | src[i];
	}
	hdr->bits_set = toy_count_bits(dst, nbytes);
	return true;
}

/* Swamidass and Baldi's estimate from the fill */
static double
toy_cardinality(const BloomHeader *hdr, const uint8_t *payload)
{
	double		m = (double) hdr->nbits;

	(void) payload;
	if (hdr->bits_set >= hdr->nbits)
		return m;
	return -m / hdr->nhashes * log1p(-(double) hdr->bits_set / m);
}

static double
toy_fpp(const BloomHeader *hdr, const uint8_t *payload)
{
	(void) payload;
	return bloom_fill_fpp(hdr);
}

static size_t
toy_describe(const BloomHeader *hdr, char *buf, size_t size)
{
	return bloom_describe_cells(hdr, "bits", "toy64", buf, size);
}

/* its words, and the bits set in each half: a list of objects */
static void
toy_info(const BloomHeader *hdr, const uint8_t *payload, BloomInfoSink *sink)
{
	uint64_t	half = toy_payload_bytes(hdr) / 2;

	bloom_info_cells(hdr, sink);
	bloom_info_uint(sink, "words", hdr->nbits / TOY_WORD_BITS);
	bloom_info_open(sink, "halves", BLOOM_INFO_LIST);
	for (int i = 0; i < 2; i++)
	{
		bloom_info_open(sink, NULL, BLOOM_INFO_OBJECT);
		bloom_info_uint(sink, "bits_set", toy_count_bits(payload + i * half, half));
		bloom_info_close(sink);
	}
	bloom_info_close(sink);
}

const BloomLayout bloom_toy_layout = {
	.id = BLOOM_LAYOUT_TOY,
	.name = "toy64",
	.intersects = true,
	.shape_hint = BLOOM_HINT_SAME_SIZING,
	.check_header = toy_check_header,
	.check_payload = toy_check_payload,
	.payload_bytes = toy_payload_bytes,
	.dir_next = toy_dir_next,
	.spans = toy_spans,
	.answer = toy_answer,
	.add = toy_add,
	.same_shape = toy_same_shape,
	.combine = toy_combine,
	.cardinality = toy_cardinality,
	.fpp = toy_fpp,
	.header_fpp = bloom_fill_fpp,
	.describe = toy_describe,
	.info = toy_info,
};
