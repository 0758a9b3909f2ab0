/*-------------------------------------------------------------------------
 *
 * bloom_core.c
 *	  Stored format, hashing, bit layout and sizing of the bloomfilter type.
 *
 * A bloomfilter value is a 48-byte header followed by nbits/8 bytes of bits,
 * grouped into 64-byte blocks.  Everything here is plain C with no server
 * dependency, so that the same code answers in the backend, in the unit
 * tests and under the fuzzers.
 *
 * Hashing.  Each element is reduced to canonical bytes by the caller (see
 * bloomfilter_op.c for the per-type rules) and hashed with MurmurHash3
 * x64_128 from libmurmurhash, seeded with the filter's 32-bit seed.  The two
 * 64-bit output words are h1 and h2.  Both words are used in full; no step
 * truncates to 32 bits.
 *
 * Layout ("blocked512", layout 1).  The element's block is the high 64 bits
 * of the 128-bit product h1 * nblocks, which is uniform over the blocks
 * without a division.  Inside the block the element owns exactly k distinct
 * bits, drawn from a 64-bit linear congruential sequence
 *
 *		x(0) = h2,	x(i+1) = x(i) * 6364136223846793005 + (h1 | 1)
 *
 * whose top nine bits give a bit number 0..511; a number already drawn for
 * this element is skipped.  Bit b of a block is bit (b & 7) of byte (b >> 3),
 * so the stored bytes mean the same on every architecture.  Adding an element
 * ORs its k bits into one block and checking it reads one block: one cache
 * miss either way, and a point check of a stored filter can fetch the header
 * and a single block by TOAST slices.
 *
 * Why distinct bits: with them the false-positive rate has an exact model.
 * An element falls in a block that holds j others, j binomial with mean
 * n / nblocks; given j, the chance that k fixed bits are all covered follows
 * a small dynamic program over hypergeometric draws.  Sizing picks the
 * smallest number of blocks, and the best k for it, whose modelled rate at
 * capacity is at most 90% of the requested one (the margin keeps measured
 * rates, which sample, under the request).  The standard optimum for an
 * unblocked filter is m = -n ln p / (ln 2)^2 bits; the blocked layout needs a
 * few percent more, the price of touching a single cache line (the README has
 * the table).
 *
 * Header, all little-endian:
 *
 *		0	uint32	magic "BLMF"
 *		4	uint8	version (1)
 *		5	uint8	layout (1 = blocked512)
 *		6	uint8	hash id (1 = MurmurHash3 x64_128)
 *		7	uint8	k, bits per element (1..64)
 *		8	uint32	seed
 *		12	uint32	flags, zero in version 1
 *		16	uint64	nbits, a positive multiple of 512
 *		24	uint64	capacity the filter was sized for
 *		32	float64 error rate it was sized for (IEEE 754)
 *		40	uint64	number of bits set
 *
 * Version, layout and flags leave room for later variants (scalable or
 * counting filters) without reinterpreting stored values.
 *
 * Limits.  A filter holds at most BLOOM_MAX_BYTES, so that its base64 text
 * form still fits in a 1 GB allocation and pg_dump can write it.  Error rates
 * below BLOOM_MIN_ERROR_RATE are refused: 512-bit blocks cannot reach them at
 * a sensible size.
 *
 * XXX Sizing uses floating point (lgamma, exp); a platform whose libm rounds
 * differently could in principle pick another size for a (capacity, rate)
 * pair that sits exactly on a boundary.  Stored filters are unaffected; only
 * a union of filters created on two such platforms would see a shape
 * mismatch.
 *
 * src/bloom_core.c
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_core.h"

#include <math.h>
#include <string.h>


/*
 * Bit count of a word.  Without -mpopcnt the compiler's builtin is a libgcc
 * call; this is a handful of inline instructions either way.
 */
static inline int
popcount64(uint64_t x)
{
#ifdef __POPCNT__
	return __builtin_popcountll(x);
#else
	x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
	return (int) ((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

/* ---- little-endian access ---- */

static inline uint64_t
load64le(const uint8_t *p)
{
	uint64_t	v;

	memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline void
store64le(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, sizeof(v));
}

static inline uint32_t
load32le(const uint8_t *p)
{
	return (uint32_t) p[0] | ((uint32_t) p[1] << 8) |
		((uint32_t) p[2] << 16) | ((uint32_t) p[3] << 24);
}

static inline void
store32le(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t) v;
	p[1] = (uint8_t) (v >> 8);
	p[2] = (uint8_t) (v >> 16);
	p[3] = (uint8_t) (v >> 24);
}

/* ---- header ---- */

void
bloom_header_decode(const uint8_t *buf, BloomHeader *hdr)
{
	uint64_t	rate_bits = load64le(buf + 32);

	hdr->version = buf[4];
	hdr->layout = buf[5];
	hdr->hash_id = buf[6];
	hdr->nhashes = buf[7];
	hdr->seed = load32le(buf + 8);
	hdr->flags = load32le(buf + 12);
	hdr->nbits = load64le(buf + 16);
	hdr->capacity = load64le(buf + 24);
	memcpy(&hdr->error_rate, &rate_bits, sizeof(double));
	hdr->bits_set = load64le(buf + 40);
}

void
bloom_header_encode(const BloomHeader *hdr, uint8_t *buf)
{
	uint64_t	rate_bits;

	memcpy(&rate_bits, &hdr->error_rate, sizeof(double));
	store32le(buf, BLOOM_MAGIC);
	buf[4] = hdr->version;
	buf[5] = hdr->layout;
	buf[6] = hdr->hash_id;
	buf[7] = hdr->nhashes;
	store32le(buf + 8, hdr->seed);
	store32le(buf + 12, hdr->flags);
	store64le(buf + 16, hdr->nbits);
	store64le(buf + 24, hdr->capacity);
	store64le(buf + 32, rate_bits);
	store64le(buf + 40, hdr->bits_set);
}

void
bloom_header_init(BloomHeader *hdr, uint64_t capacity, double error_rate,
				  uint32_t seed, uint64_t nbits, int nhashes)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->version = BLOOM_VERSION;
	hdr->layout = BLOOM_LAYOUT_BLOCKED512;
	hdr->hash_id = BLOOM_HASH_MURMUR3_X64_128;
	hdr->nhashes = (uint8_t) nhashes;
	hdr->seed = seed;
	hdr->nbits = nbits;
	hdr->capacity = capacity;
	hdr->error_rate = error_rate;
}

/* ---- validation ---- */

/*
 * Check a decoded header against the total length of the value (header plus
 * bits).  Everything but the bits-set count, which needs the bits.
 */
BloomCheck
bloom_validate_header(const BloomHeader *hdr, size_t len)
{
	if (hdr->version != BLOOM_VERSION)
		return BLOOM_BAD_VERSION;
	if (hdr->layout != BLOOM_LAYOUT_BLOCKED512)
		return BLOOM_BAD_LAYOUT;
	if (hdr->hash_id != BLOOM_HASH_MURMUR3_X64_128)
		return BLOOM_BAD_HASH;
	if (hdr->flags != 0)
		return BLOOM_BAD_RESERVED;
	if (hdr->nbits == 0 || hdr->nbits % BLOOM_BLOCK_BITS != 0 ||
		hdr->nbits / BLOOM_BLOCK_BITS > BLOOM_MAX_BLOCKS)
		return BLOOM_BAD_NBITS;
	if (len != BLOOM_HEADER_SIZE + hdr->nbits / 8)
		return BLOOM_BAD_LENGTH;
	if (hdr->nhashes == 0 || hdr->nhashes > BLOOM_MAX_HASHES)
		return BLOOM_BAD_NHASHES;
	if (hdr->capacity == 0 || hdr->capacity > (uint64_t) INT64_MAX)
		return BLOOM_BAD_CAPACITY;
	if (!(hdr->error_rate > 0.0 && hdr->error_rate < 1.0))
		return BLOOM_BAD_ERROR_RATE;
	if (hdr->bits_set > hdr->nbits)
		return BLOOM_BAD_BITS_SET;
	return BLOOM_OK;
}

/*
 * Full check of a serialized filter: header fields, exact length and the
 * bits-set count against the bits themselves.  On success *hdr holds the
 * decoded header.
 */
BloomCheck
bloom_validate(const uint8_t *buf, size_t len, BloomHeader *hdr)
{
	BloomCheck	check;

	if (len < BLOOM_HEADER_SIZE)
		return BLOOM_BAD_LENGTH;
	if (load32le(buf) != BLOOM_MAGIC)
		return BLOOM_BAD_MAGIC;
	bloom_header_decode(buf, hdr);
	check = bloom_validate_header(hdr, len);
	if (check != BLOOM_OK)
		return check;
	if (bloom_popcount(buf + BLOOM_HEADER_SIZE, len - BLOOM_HEADER_SIZE) !=
		hdr->bits_set)
		return BLOOM_BAD_BITS_SET;
	return BLOOM_OK;
}

const char *
bloom_check_message(BloomCheck check)
{
	switch (check)
	{
		case BLOOM_OK:
			return "The value is valid.";
		case BLOOM_BAD_LENGTH:
			return "The length does not match the header.";
		case BLOOM_BAD_MAGIC:
			return "The value does not start with the bloomfilter magic number.";
		case BLOOM_BAD_VERSION:
			return "The format version is not supported by this build.";
		case BLOOM_BAD_LAYOUT:
			return "The bit layout is not supported by this build.";
		case BLOOM_BAD_HASH:
			return "The hash function is not supported by this build.";
		case BLOOM_BAD_RESERVED:
			return "Reserved header fields must be zero.";
		case BLOOM_BAD_NBITS:
			return "The number of bits must be a positive multiple of 512 within the size limit.";
		case BLOOM_BAD_NHASHES:
			return "The number of hash functions must be between 1 and 64.";
		case BLOOM_BAD_CAPACITY:
			return "The capacity must be between 1 and 9223372036854775807.";
		case BLOOM_BAD_ERROR_RATE:
			return "The error rate must be greater than 0 and less than 1.";
		case BLOOM_BAD_BITS_SET:
			return "The count of bits set does not match the bits.";
	}
	return "The value is invalid.";
}

/*
 * Filters can be combined only if an element maps to the same bits in both.
 * Capacity and error rate do not affect that, but they are part of what the
 * user asked for, so we require them to match as well.
 */
bool
bloom_same_shape(const BloomHeader *a, const BloomHeader *b)
{
	return a->version == b->version && a->layout == b->layout &&
		a->hash_id == b->hash_id && a->nhashes == b->nhashes &&
		a->seed == b->seed && a->nbits == b->nbits;
}

/* ---- sizing: see bloom_sizing.c ---- */

/* ---- hashing and bits ---- */

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
		old = load64le(block + 8 * i);
		fresh = mask->w[i] & ~old;
		if (fresh)
		{
			added += popcount64(fresh);
			store64le(block + 8 * i, old | fresh);
		}
	}
	return added;
}

bool
bloom_block_test(const uint8_t *block, const BloomMask *mask)
{
	for (int i = 0; i < BLOOM_BLOCK_BYTES / 8; i++)
	{
		if ((load64le(block + 8 * i) & mask->w[i]) != mask->w[i])
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
 * sharing the bit arithmetic, measured 10-15% faster.  The unit tests hold
 * it to bloom_mask.
 */
int
bloom_block_add_hash(uint8_t *block, BloomHash h, int nhashes)
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
		if (drawn[w] & bit)
			continue;
		drawn[w] |= bit;
		got++;
		/* branch-free: at half fill "already set?" is a coin toss */
		old = load64le(block + 8 * w);
		added += (old & bit) == 0;
		store64le(block + 8 * w, old | bit);
	}
	return added;
}

int
bloom_add(uint8_t *bits, uint64_t nblocks, int nhashes, BloomHash h)
{
	return bloom_block_add_hash(bits + bloom_block_of(h.h1, nblocks) * BLOOM_BLOCK_BYTES,
								h, nhashes);
}

/*
 * Add many hashes at once.  A large filter misses cache on every add; with
 * the block of the element BLOOM_PREFETCH_AHEAD places further on requested
 * while the current one is applied, those misses overlap instead of queueing
 * one behind another.  The distance covers a whole batch of bf_agg's
 * pending hashes (256 lines, 16 kB, well inside L1): in the 10M-row build
 * that measured 2% faster than a distance of 16 or 32, which start each
 * batch with a run of misses nobody asked for in advance.
 */
#define BLOOM_PREFETCH_AHEAD 256

uint64_t
bloom_add_batch(uint8_t *bits, uint64_t nblocks, int nhashes,
				const BloomHash *hashes, size_t n)
{
	uint64_t	added = 0;

	for (size_t i = 0; i < n && i < BLOOM_PREFETCH_AHEAD; i++)
		__builtin_prefetch(bits + bloom_block_of(hashes[i].h1, nblocks) * BLOOM_BLOCK_BYTES, 1);
	for (size_t i = 0; i < n; i++)
	{
		if (i + BLOOM_PREFETCH_AHEAD < n)
			__builtin_prefetch(bits + bloom_block_of(hashes[i + BLOOM_PREFETCH_AHEAD].h1,
													 nblocks) * BLOOM_BLOCK_BYTES, 1);
		added += bloom_add(bits, nblocks, nhashes, hashes[i]);
	}
	return added;
}

uint64_t
bloom_popcount(const uint8_t *bits, size_t nbytes)
{
	uint64_t	count = 0;
	size_t		i = 0;

	for (; i + 8 <= nbytes; i += 8)
		count += popcount64(load64le(bits + i));
	for (; i < nbytes; i++)
		count += popcount64(bits[i]);
	return count;
}

uint64_t
bloom_union_into(uint8_t *dst, const uint8_t *src, size_t nbytes)
{
	uint64_t	count = 0;

	/* nbytes is a multiple of the block size, so of 8 */
	for (size_t i = 0; i < nbytes; i += 8)
	{
		uint64_t	v = load64le(dst + i) | load64le(src + i);

		store64le(dst + i, v);
		count += popcount64(v);
	}
	return count;
}

uint64_t
bloom_intersect_into(uint8_t *dst, const uint8_t *src, size_t nbytes)
{
	uint64_t	count = 0;

	for (size_t i = 0; i < nbytes; i += 8)
	{
		uint64_t	v = load64le(dst + i) & load64le(src + i);

		store64le(dst + i, v);
		count += popcount64(v);
	}
	return count;
}

static int
bloom_block_popcount(const uint8_t *block)
{
	return (int) bloom_popcount(block, BLOOM_BLOCK_BYTES);
}

/*
 * Elements added, estimated block by block: a block holding j elements of k
 * distinct bits has 512 (1 - (1 - k/512)^j) bits set on average; invert that
 * for each block and sum.  Summing per block accounts for the uneven spread
 * of elements that a single estimate over the whole filter would miss.
 */
double
bloom_estimate_cardinality(const uint8_t *bits, uint64_t nblocks, int nhashes)
{
	const double B = BLOOM_BLOCK_BITS;
	double		per_count[BLOOM_BLOCK_BITS + 1];
	double		denom = log1p(-(double) nhashes / B);
	double		total = 0.0;

	for (int c = 0; c <= BLOOM_BLOCK_BITS; c++)
	{
		/* a full block says "at least this many"; cap it one bit short */
		double		cc = (c == BLOOM_BLOCK_BITS) ? B - 1 : c;

		per_count[c] = (nhashes >= BLOOM_BLOCK_BITS) ? cc / nhashes :
			log1p(-cc / B) / denom;
	}
	for (uint64_t b = 0; b < nblocks; b++)
		total += per_count[bloom_block_popcount(bits + b * BLOOM_BLOCK_BYTES)];
	return total;
}

/*
 * False-positive rate at the current fill: a probe lands in a uniformly
 * random block with c bits set and needs its k distinct bits all among them,
 * probability C(c,k) / C(512,k).
 */
double
bloom_estimate_fpp(const uint8_t *bits, uint64_t nblocks, int nhashes)
{
	double		per_count[BLOOM_BLOCK_BITS + 1];
	double		total = 0.0;

	for (int c = 0; c <= BLOOM_BLOCK_BITS; c++)
	{
		double		f = 1.0;

		for (int i = 0; i < nhashes && f > 0.0; i++)
			f *= (double) (c - i) / (double) (BLOOM_BLOCK_BITS - i);
		per_count[c] = f > 0.0 ? f : 0.0;
	}
	for (uint64_t b = 0; b < nblocks; b++)
		total += per_count[bloom_block_popcount(bits + b * BLOOM_BLOCK_BYTES)];
	return total / (double) nblocks;
}

/* ---- base64 ---- */

static const char b64_alphabet[] =
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t
bloom_base64_encoded_len(size_t len)
{
	return (len + 2) / 3 * 4;
}

size_t
bloom_base64_decoded_max(size_t srclen)
{
	return srclen / 4 * 3;
}

void
bloom_base64_encode(const uint8_t *src, size_t len, char *dst)
{
	size_t		i = 0;

	for (; i + 3 <= len; i += 3)
	{
		uint32_t	v = ((uint32_t) src[i] << 16) | ((uint32_t) src[i + 1] << 8) | src[i + 2];

		*dst++ = b64_alphabet[(v >> 18) & 63];
		*dst++ = b64_alphabet[(v >> 12) & 63];
		*dst++ = b64_alphabet[(v >> 6) & 63];
		*dst++ = b64_alphabet[v & 63];
	}
	if (i < len)
	{
		uint32_t	v = (uint32_t) src[i] << 16;

		if (i + 1 < len)
			v |= (uint32_t) src[i + 1] << 8;
		*dst++ = b64_alphabet[(v >> 18) & 63];
		*dst++ = b64_alphabet[(v >> 12) & 63];
		*dst++ = (i + 1 < len) ? b64_alphabet[(v >> 6) & 63] : '=';
		*dst++ = '=';
	}
}

static int
b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/*
 * Strict decoder: length a multiple of 4, padding only at the very end, and
 * the unused bits of the last group zero, so every value has exactly one
 * text form.  dst must hold bloom_base64_decoded_max(srclen) bytes.
 */
bool
bloom_base64_decode(const char *src, size_t srclen, uint8_t *dst, size_t *dstlen)
{
	size_t		out = 0;

	if (srclen % 4 != 0)
		return false;
	for (size_t i = 0; i < srclen; i += 4)
	{
		int			v[4];
		int			pad = 0;
		bool		last = (i + 4 == srclen);

		for (int j = 0; j < 4; j++)
		{
			if (last && j >= 2 && src[i + j] == '=' && (j == 3 || src[i + 3] == '='))
			{
				v[j] = 0;
				pad++;
				continue;
			}
			v[j] = b64_value(src[i + j]);
			if (v[j] < 0)
				return false;
		}
		dst[out++] = (uint8_t) ((v[0] << 2) | (v[1] >> 4));
		if (pad == 2)
		{
			if ((v[1] & 15) != 0)
				return false;
			break;
		}
		dst[out++] = (uint8_t) (((v[1] & 15) << 4) | (v[2] >> 2));
		if (pad == 1)
		{
			if ((v[2] & 3) != 0)
				return false;
			break;
		}
		dst[out++] = (uint8_t) (((v[2] & 3) << 6) | v[3]);
	}
	*dstlen = out;
	return true;
}
