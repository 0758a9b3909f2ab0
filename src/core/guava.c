/*-------------------------------------------------------------------------
 *
 * guava.c
 *	  Layout 5, "guava": the Bloom filter of Guava's
 *	  com.google.common.hash.BloomFilter with strategy MURMUR128_MITZ_64
 *	  (ordinal 1, what BloomFilter.create uses since Guava 12), bit for bit,
 *	  so that a filter built in PostgreSQL is checked by a Java program and
 *	  the other way round.
 *
 * Hashing (hash id 3).  An element is reduced to the bytes Guava's funnel
 * of the filter's key type feeds the hasher (type/keys/typed.c): bigint as 8
 * bytes little-endian (Funnels.longFunnel), integer as 4 bytes
 * little-endian (Funnels.integerFunnel), text as its UTF-8 bytes
 * (Funnels.stringFunnel(UTF_8)), bytea as its bytes
 * (Funnels.byteArrayFunnel).  Those bytes are hashed with MurmurHash3
 * x64_128 with seed 0 (Hashing.murmur3_128()); Guava reads the 16 bytes of
 * the result as two little-endian longs, which are exactly h1 and h2.
 *
 * Bits.  The filter is an array of 64-bit words, and its size in bits is
 * 64 times their number.  An element sets or tests k bits:
 *
 *		combined = h1
 *		for i in 0 .. k-1:
 *			bit (combined & INT64_MAX) mod nbits
 *			combined = combined + h2 (mod 2^64)
 *
 * Bit b is bit b mod 64 of word b / 64.  The payload stores the words
 * little-endian, one after another, so bit b is bit b mod 8 of byte b / 8
 * on every host; the serialized form (bloom_guava_write) writes the same
 * words big-endian, as Java's DataOutputStream does.
 *
 * Sizing is Guava's, to the bit (BloomFilter.optimalNumOfBits and
 * optimalNumOfHashFunctions in Guava 31.1): for n expected insertions (0
 * counted as 1) at rate p, m = (long) (-n ln p / (ln 2)^2) bits rounded up
 * to whole words, and k = max(1, round(m / n ln 2)), where m is the bit
 * count before rounding up.  The casts and rounding follow Java's: a cast
 * truncates towards zero and saturates, Math.round rounds halves up.  What
 * Guava refuses (a size of 0 bits, more than 255 hash functions) is
 * refused here too; so is anything larger than BLOOM_MAX_BYTES.
 *
 * Header fields for this layout: hash id 3, seed 0 (Guava has none), the
 * key type one of the four above (a Guava filter is always typed: it names
 * its funnel), k 1..255, nbits 64 times the words, capacity and error
 * rate as sized (for a filter read from Guava's form, which carries
 * neither, the capacity an optimally sized filter of that many bits and
 * hash functions would have, m ln 2 / k, and the rate 2^-k it has there),
 * bits_set the count of bits set (Guava's bitCount).
 *
 * The rate is Guava's expectedFpp, (bits set / nbits)^k; the count of
 * elements is Guava's approximateElementCount, -m ln(1 - bits set / m) / k.
 * A union ORs two filters of the same words and k, as Guava's putAll does;
 * an intersection ANDs them, which holds every element both hold.
 *
 * XXX A check reads k words scattered over the payload, one span each, so
 * that a stored filter is checked by fetching those only; with more than
 * BLOOM_MAX_SPANS hash functions (a rate below about 1e-38) the span is the
 * whole payload.
 *
 * XXX Guava also reads MURMUR128_MITZ_32 (ordinal 0, Guava 11's strategy),
 * whose bits are derived from 32-bit halves of the hash; this layout does
 * not, and bf_from_guava refuses such a filter with a message saying so.
 *
 * src/core/guava.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/guava.h"
#include "core/blocked.h"

#include <float.h>
#include <math.h>

#define GUAVA_WORD_BITS		64
#define GUAVA_MAX_LONGS		((BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE) / 8)
/* Java's Integer.MAX_VALUE: LockFreeBitArray holds a long[] */
#define GUAVA_INT_MAX		INT64_C(2147483647)

bool
bloom_guava_key_type(uint32_t key_type)
{
	return key_type == BLOOM_GUAVA_KEY_INT8 || key_type == BLOOM_GUAVA_KEY_INT4 ||
		key_type == BLOOM_GUAVA_KEY_TEXT || key_type == BLOOM_GUAVA_KEY_BYTEA;
}

/* Java's (long) of a double: NaN is 0, out-of-range values saturate */
static int64_t
guava_java_long(double d)
{
	if (isnan(d))
		return 0;
	if (d >= 9223372036854775808.0)
		return INT64_MAX;
	if (d <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t) d;
}

/* Java's Math.round(double): the closest long, halves towards +infinity */
static int64_t
guava_java_round(double d)
{
	double		f = floor(d);

	if (isnan(d))
		return 0;
	if (d - f >= 0.5)
		f += 1.0;
	return guava_java_long(f);
}

/* BloomFilter.optimalNumOfBits(n, p) */
int64_t
bloom_guava_optimal_bits(int64_t n, double p)
{
	if (p == 0)
		p = DBL_TRUE_MIN;		/* Double.MIN_VALUE */
	return guava_java_long((double) (-n) * log(p) / (log(2) * log(2)));
}

/* BloomFilter.optimalNumOfHashFunctions(n, m): (int) of a long keeps 32 bits */
int
bloom_guava_optimal_hashes(int64_t n, int64_t m)
{
	int32_t		k = (int32_t) (uint32_t) guava_java_round((double) m / (double) n * log(2));

	return k > 1 ? k : 1;
}

/*
 * BloomFilter.create(funnel, n, p)'s shape: the words and hash functions,
 * or what Guava (or this build's size limit) refuses.  n must be at least
 * 0 and p in (0, 1), as Guava's checkArgument calls require.
 */
BloomGuavaCheck
bloom_guava_size(int64_t n, double p, uint64_t *nlongs, int *nhashes)
{
	int64_t		m;

	if (n == 0)
		n = 1;
	m = bloom_guava_optimal_bits(n, p);
	*nhashes = bloom_guava_optimal_hashes(n, m);
	if (m <= 0)
		return BLOOM_GUAVA_NO_BITS;
	*nlongs = (uint64_t) (m / GUAVA_WORD_BITS + (m % GUAVA_WORD_BITS != 0));
	if (*nlongs > (uint64_t) GUAVA_MAX_LONGS)
		return BLOOM_GUAVA_TOO_LARGE;
	if (*nhashes > BLOOM_GUAVA_MAX_HASHES)
		return BLOOM_GUAVA_NHASHES;
	return BLOOM_GUAVA_OK;
}

/* the header of a new, empty filter for n elements at rate p */
BloomGuavaCheck
bloom_guava_header(BloomHeader *hdr, int64_t n, double p, uint32_t key_type)
{
	uint64_t	nlongs;
	int			nhashes;
	BloomGuavaCheck check = bloom_guava_size(n, p, &nlongs, &nhashes);

	if (check != BLOOM_GUAVA_OK)
		return check;
	bloom_header_init(hdr, (uint64_t) (n > 0 ? n : 1), p, 0,
					  nlongs * GUAVA_WORD_BITS, nhashes);
	hdr->layout = BLOOM_LAYOUT_GUAVA;
	hdr->hash_id = BLOOM_HASH_GUAVA;
	hdr->key_type = key_type;
	return BLOOM_GUAVA_OK;
}

void
bloom_guava_bits(BloomHash h, int nhashes, uint64_t nbits, uint64_t *bits)
{
	uint64_t	combined = h.h1;

	for (int i = 0; i < nhashes; i++)
	{
		bits[i] = (combined & (uint64_t) INT64_MAX) % nbits;
		combined += h.h2;
	}
}

static inline bool
guava_test_bit(const uint8_t *payload, uint64_t bit)
{
	return (payload[bit >> 3] >> (bit & 7)) & 1;
}

/* ---- the serialized form: Guava's writeTo and readFrom ---- */

uint64_t
bloom_guava_serialized_bytes(const BloomHeader *hdr)
{
	return BLOOM_GUAVA_PREFIX + hdr->nbits / 8;
}

/* bloom_guava_serialized_bytes(hdr) bytes into out */
void
bloom_guava_write(const BloomHeader *hdr, const uint8_t *payload, uint8_t *out)
{
	uint64_t	nlongs = hdr->nbits / GUAVA_WORD_BITS;

	out[0] = BLOOM_GUAVA_MITZ_64;
	out[1] = hdr->nhashes;
	for (int i = 0; i < 4; i++)
		out[2 + i] = (uint8_t) (nlongs >> (8 * (3 - i)));
	out += BLOOM_GUAVA_PREFIX;
	for (uint64_t w = 0; w < nlongs; w++)
	{
		if (w % (BLOOM_INTERRUPT_BYTES / 8) == 0)
			bloom_check_interrupts();
		/* a little-endian word written big-endian: its bytes reversed */
		bloom_store64le(out + 8 * w, __builtin_bswap64(bloom_load64le(payload + 8 * w)));
	}
}

/*
 * The prefix of a serialized filter of len bytes, checked as Guava's
 * readFrom checks it (a strategy it knows, 1..255 hash functions, a
 * positive number of longs, all of them present), and also against this
 * build (MITZ_64 only, the size limit, no bytes after the longs).
 */
BloomGuavaCheck
bloom_guava_read_prefix(const uint8_t *in, size_t len, int *nhashes, uint64_t *nlongs)
{
	int32_t		count;

	if (len < BLOOM_GUAVA_PREFIX)
		return BLOOM_GUAVA_TRUNCATED;
	/* Java reads the ordinal as a signed byte: 0x80.. are negative */
	if (in[0] > BLOOM_GUAVA_MITZ_64)
		return BLOOM_GUAVA_STRATEGY;
	if (in[0] == BLOOM_GUAVA_MITZ_32)
		return BLOOM_GUAVA_OLD_STRATEGY;
	*nhashes = in[1];
	if (*nhashes == 0)
		return BLOOM_GUAVA_NHASHES;
	count = (int32_t) (((uint32_t) in[2] << 24) | ((uint32_t) in[3] << 16) |
					   ((uint32_t) in[4] << 8) | (uint32_t) in[5]);
	if (count <= 0)
		return BLOOM_GUAVA_NO_BITS;
	*nlongs = (uint64_t) count;
	if (*nlongs > (uint64_t) GUAVA_MAX_LONGS)
		return BLOOM_GUAVA_TOO_LARGE;
	if (len - BLOOM_GUAVA_PREFIX < *nlongs * 8)
		return BLOOM_GUAVA_TRUNCATED;
	if (len - BLOOM_GUAVA_PREFIX > *nlongs * 8)
		return BLOOM_GUAVA_TRAILING;
	return BLOOM_GUAVA_OK;
}

/*
 * A filter from a serialized one whose prefix passed the check above:
 * header (capacity and rate inferred, see the notes above) and payload of
 * nlongs * 8 bytes.
 */
void
bloom_guava_read(const uint8_t *in, int nhashes, uint64_t nlongs, uint32_t key_type,
				 BloomHeader *hdr, uint8_t *payload)
{
	uint64_t	nbits = nlongs * GUAVA_WORD_BITS;
	uint64_t	count = 0;
	double		capacity = floor((double) nbits * log(2) / nhashes + 0.5);

	in += BLOOM_GUAVA_PREFIX;
	for (uint64_t w = 0; w < nlongs; w++)
	{
		uint64_t	v = __builtin_bswap64(bloom_load64le(in + 8 * w));

		if (w % (BLOOM_INTERRUPT_BYTES / 8) == 0)
			bloom_check_interrupts();
		bloom_store64le(payload + 8 * w, v);
		count += bloom_popcount64(v);
	}
	bloom_header_init(hdr, capacity >= 1.0 ? (uint64_t) capacity : 1,
					  pow(0.5, nhashes), 0, nbits, nhashes);
	hdr->layout = BLOOM_LAYOUT_GUAVA;
	hdr->hash_id = BLOOM_HASH_GUAVA;
	hdr->key_type = key_type;
	hdr->bits_set = count;
}

const char *
bloom_guava_check_message(BloomGuavaCheck check)
{
	switch (check)
	{
		case BLOOM_GUAVA_OK:
			return "The value is valid.";
		case BLOOM_GUAVA_TRUNCATED:
			return "The data ends before the number of longs its prefix gives.";
		case BLOOM_GUAVA_TRAILING:
			return "The data goes on after the number of longs its prefix gives.";
		case BLOOM_GUAVA_STRATEGY:
			return "The first byte is not the ordinal of a Guava strategy (0 or 1).";
		case BLOOM_GUAVA_OLD_STRATEGY:
			return "The filter uses strategy MURMUR128_MITZ_32 (ordinal 0), which is not supported; only MURMUR128_MITZ_64 (ordinal 1) is.";
		case BLOOM_GUAVA_NHASHES:
			return "The number of hash functions must be between 1 and 255.";
		case BLOOM_GUAVA_NO_BITS:
			return "The number of longs must be positive.";
		case BLOOM_GUAVA_TOO_LARGE:
			return "The filter is larger than a bloomfilter value can be.";
	}
	return "The value is invalid.";
}

/* ---- the layout's entry in the table ---- */

static BloomCheck
guava_check_header(const BloomHeader *hdr, size_t payload_len)
{
	if (hdr->seed != 0)
		return BLOOM_BAD_RESERVED;
	if (!bloom_guava_key_type(hdr->key_type))
		return BLOOM_BAD_KEY_TYPE;
	if (hdr->nbits == 0 || hdr->nbits % GUAVA_WORD_BITS != 0 ||
		hdr->nbits / GUAVA_WORD_BITS > GUAVA_MAX_LONGS)
		return BLOOM_BAD_NBITS;
	if (payload_len != hdr->nbits / 8)
		return BLOOM_BAD_LENGTH;
	if (hdr->nhashes == 0)
		return BLOOM_BAD_NHASHES;
	if (hdr->bits_set > hdr->nbits)
		return BLOOM_BAD_BITS_SET;
	return BLOOM_OK;
}

static BloomCheck
guava_check_payload(const BloomHeader *hdr, const uint8_t *payload)
{
	if (bloom_popcount(payload, hdr->nbits / 8) != hdr->bits_set)
		return BLOOM_BAD_BITS_SET;
	return BLOOM_OK;
}

static uint64_t
guava_payload_bytes(const BloomHeader *hdr)
{
	return hdr->nbits / 8;
}

/* one part: the words, k bits an element */
static BloomCheck
guava_dir_next(const BloomHeader *hdr, BloomDir *dir, const uint8_t *piece,
			   BloomSpan *next)
{
	(void) piece;
	return bloom_dir_single(dir, hdr->nbits / GUAVA_WORD_BITS, hdr->nhashes, next);
}

/* the word of each bit in Guava's order, or the whole payload (see above) */
static int
guava_spans(const BloomDir *dir, BloomHash h, BloomSpan *spans)
{
	uint64_t	nlongs = dir->part[0].size;
	int			nhashes = (int) dir->part[0].width;
	uint64_t	bits[BLOOM_GUAVA_MAX_HASHES];

	if (nhashes > BLOOM_MAX_SPANS)
	{
		spans[0].offset = 0;
		spans[0].len = (uint32_t) (nlongs * 8);
		return 1;
	}
	bloom_guava_bits(h, nhashes, nlongs * GUAVA_WORD_BITS, bits);
	for (int i = 0; i < nhashes; i++)
	{
		spans[i].offset = bits[i] / GUAVA_WORD_BITS * 8;
		spans[i].len = 8;
	}
	return nhashes;
}

static int
guava_answer(const BloomDir *dir, const uint8_t *const *spans, BloomHash h, bool count)
{
	uint64_t	nbits = dir->part[0].size * GUAVA_WORD_BITS;
	int			nhashes = (int) dir->part[0].width;
	uint64_t	bits[BLOOM_GUAVA_MAX_HASHES];

	(void) count;				/* a bit cannot count: 0 or 1 either way */
	bloom_guava_bits(h, nhashes, nbits, bits);
	for (int i = 0; i < nhashes; i++)
	{
		bool		set = nhashes > BLOOM_MAX_SPANS ?
			guava_test_bit(spans[0], bits[i]) :
			guava_test_bit(spans[i], bits[i] % GUAVA_WORD_BITS);

		if (!set)
			return 0;
	}
	return 1;
}

/*
 * Adds go a batch of elements at a time: every bit of the batch is computed
 * and its byte requested first, then set, so that the k cache misses of
 * each element, and those of the elements after it, overlap instead of
 * queueing (a large filter misses cache on nearly every bit).
 */
#define GUAVA_ADD_BITS		512

static size_t
guava_add(BloomHeader *hdr, uint8_t *payload, const BloomHash *hashes, size_t n)
{
	uint64_t	bits[GUAVA_ADD_BITS];
	int			k = hdr->nhashes;
	size_t		batch = GUAVA_ADD_BITS / (size_t) k;

	for (size_t j0 = 0; j0 < n; j0 += batch)
	{
		size_t		m = n - j0 < batch ? n - j0 : batch;

		for (size_t j = 0; j < m; j++)
		{
			bloom_guava_bits(hashes[j0 + j], k, hdr->nbits, bits + j * k);
			for (int i = 0; i < k; i++)
				__builtin_prefetch(payload + (bits[j * k + i] >> 3), 1);
		}
		for (size_t i = 0; i < m * k; i++)
		{
			uint8_t		mask = (uint8_t) (1 << (bits[i] & 7));

			/* branch-free, as blocked.c's: at half fill a coin toss */
			hdr->bits_set += (payload[bits[i] >> 3] & mask) == 0;
			payload[bits[i] >> 3] |= mask;
		}
	}
	return n;
}

/*
 * approximateElementCount: -m ln(1 - x / m) / k for x bits set.  Guava
 * rounds it to a long, and fails on a filter with every bit set; here that
 * filter counts as one bit short of full.
 */
static double
guava_cardinality(const BloomHeader *hdr, const uint8_t *payload)
{
	double		m = (double) hdr->nbits;
	double		x = (double) hdr->bits_set;

	(void) payload;
	if (hdr->bits_set >= hdr->nbits)
		x = m - 1.0;
	return floor(-log1p(-x / m) * m / hdr->nhashes + 0.5);
}

/* expectedFpp: (bits set / m)^k, from the header's exact count */
static double
guava_fpp(const BloomHeader *hdr, const uint8_t *payload)
{
	(void) payload;
	return bloom_fill_fpp(hdr);
}

static size_t
guava_describe(const BloomHeader *hdr, char *buf, size_t size)
{
	return bloom_describe_cells(hdr, "bits", "guava", buf, size);
}

static void
guava_info(const BloomHeader *hdr, const uint8_t *payload, BloomInfoSink *sink)
{
	(void) payload;
	bloom_info_cells(hdr, sink);
	bloom_info_uint(sink, "guava_strategy", BLOOM_GUAVA_MITZ_64);
	bloom_info_uint(sink, "guava_longs", hdr->nbits / GUAVA_WORD_BITS);
}

/* declared for -Wmissing-variable-declarations; core/header.c registers it */
extern const BloomLayout bloom_guava_layout;

const BloomLayout bloom_guava_layout = {
	.id = BLOOM_LAYOUT_GUAVA,
	.name = "guava",
	.hash_id = BLOOM_HASH_GUAVA,
	.intersects = true,
	.shape_hint = "Create both filters with the same capacity and error rate, or read both from Guava filters of the same size and hash count.",
	.check_header = guava_check_header,
	.check_payload = guava_check_payload,
	.payload_bytes = guava_payload_bytes,
	.dir_next = guava_dir_next,
	.spans = guava_spans,
	.answer = guava_answer,
	.add = guava_add,
	.remove = NULL,				/* a bit cannot tell how many set it */
	.same_shape = bloom_bits_same_shape,
	.combine = bloom_bits_combine,	/* Guava's putAll, or AND */
	.cardinality = guava_cardinality,
	.fpp = guava_fpp,
	.header_fpp = bloom_fill_fpp,
	.describe = guava_describe,
	.info = guava_info,
};
