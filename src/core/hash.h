/*-------------------------------------------------------------------------
 *
 * hash.h
 *	  Element hashing of the bloomfilter type: MurmurHash3 x64_128 through
 *	  libmurmurhash, with inline fast paths for 8- and 16-byte keys.
 *
 * The hash of record is lmmh_x64_128 from Debian's libmurmurhash, seeded
 * with the filter's 32-bit seed; its two output words are h1 and h2.  It is
 * the reference, and bloom_hash() sends every length through it.
 *
 * Two lengths are hashed once per row on hot paths: the 8 little-endian
 * bytes every integer widens to, and the 16 bytes of a uuid.  For those the
 * library's generic loop, tail switch and call cost about as much again as
 * the arithmetic, so bloom_murmur3_8 and bloom_murmur3_16 write the same
 * function out for that one length.  MurmurHash3 reads its input as
 * little-endian 64-bit words on every host (libmurmurhash byte-swaps on
 * big-endian ones), so the fast paths take the words as values: an 8-byte
 * key is a single tail word, a 16-byte key is one body block and no tail.
 * The callers load those words little-endian, which makes the definitions
 * correct on big-endian hosts too.
 *
 * Being a copy, the fast paths are held to the library: test/unit_hash.c
 * compares them with lmmh_x64_128 word for word on tens of millions of
 * random keys across many seeds plus the edge values, and fuzz/fuzz_hash.c
 * does the same on arbitrary input.  A stored filter's answers depend on
 * this being exactly the same function; if a test ever disagrees, the fast
 * path is what is wrong.
 *
 * Nothing here includes PostgreSQL headers.
 *
 * src/core/hash.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_HASH_H
#define BLOOM_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <murmurhash.h>

/* Two halves of the element's MurmurHash3_x64_128. */
typedef struct BloomHash
{
	uint64_t	h1;
	uint64_t	h2;
} BloomHash;

/* MurmurHash3 x64_128 constants (Austin Appleby's reference) */
#define BLOOM_MURMUR_C1		UINT64_C(0x87c37b91114253d5)
#define BLOOM_MURMUR_C2		UINT64_C(0x4cf5ad432745937f)

static inline uint64_t
bloom_rotl64(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t
bloom_fmix64(uint64_t k)
{
	k ^= k >> 33;
	k *= UINT64_C(0xff51afd7ed558ccd);
	k ^= k >> 33;
	k *= UINT64_C(0xc4ceb9fe1a85ec53);
	k ^= k >> 33;
	return k;
}

/* eight bytes read as a little-endian word, on any host */
static inline uint64_t
bloom_load64le(const void *p)
{
	uint64_t	v;

	memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* the finalisation shared by every length */
static inline void
bloom_murmur3_final(uint64_t h1, uint64_t h2, uint64_t len, uint64_t out[2])
{
	h1 ^= len;
	h2 ^= len;
	h1 += h2;
	h2 += h1;
	h1 = bloom_fmix64(h1);
	h2 = bloom_fmix64(h2);
	h1 += h2;
	h2 += h1;
	out[0] = h1;
	out[1] = h2;
}

/*
 * MurmurHash3_x64_128 of the 8 bytes whose little-endian value is word: no
 * body block; the tail is exactly one k1 word.
 */
static inline void
bloom_murmur3_8(uint64_t word, uint32_t seed, uint64_t out[2])
{
	uint64_t	k1 = word;
	uint64_t	h1 = seed;

	k1 *= BLOOM_MURMUR_C1;
	k1 = bloom_rotl64(k1, 31);
	k1 *= BLOOM_MURMUR_C2;
	h1 ^= k1;
	bloom_murmur3_final(h1, seed, 8, out);
}

/*
 * MurmurHash3_x64_128 of the 16 bytes whose little-endian words are lo
 * (bytes 0..7) and hi (bytes 8..15): one body block, no tail.
 */
static inline void
bloom_murmur3_16(uint64_t lo, uint64_t hi, uint32_t seed, uint64_t out[2])
{
	uint64_t	h1 = seed;
	uint64_t	h2 = seed;
	uint64_t	k1 = lo;
	uint64_t	k2 = hi;

	k1 *= BLOOM_MURMUR_C1;
	k1 = bloom_rotl64(k1, 31);
	k1 *= BLOOM_MURMUR_C2;
	h1 ^= k1;
	h1 = bloom_rotl64(h1, 27);
	h1 += h2;
	h1 = h1 * 5 + 0x52dce729;

	k2 *= BLOOM_MURMUR_C2;
	k2 = bloom_rotl64(k2, 33);
	k2 *= BLOOM_MURMUR_C1;
	h2 ^= k2;
	h2 = bloom_rotl64(h2, 31);
	h2 += h1;
	h2 = h2 * 5 + 0x38495ab5;

	bloom_murmur3_final(h1, h2, 16, out);
}

/* Any bytes: the library, the reference implementation. */
static inline BloomHash
bloom_hash(const void *data, size_t len, uint32_t seed)
{
	uint64_t	out[2];
	BloomHash	h;

	lmmh_x64_128(data, (unsigned int) len, seed, out);
	h.h1 = out[0];
	h.h2 = out[1];
	return h;
}

/*
 * Integers of every width hash as the same eight little-endian bytes of the
 * value widened to int8; the little-endian word of those bytes is the value
 * itself, on any host.
 */
static inline BloomHash
bloom_hash_int64(int64_t value, uint32_t seed)
{
	uint64_t	out[2];
	BloomHash	h;

	bloom_murmur3_8((uint64_t) value, seed, out);
	h.h1 = out[0];
	h.h2 = out[1];
	return h;
}

/* Exactly 16 bytes (a uuid): the same as bloom_hash(data, 16, seed). */
static inline BloomHash
bloom_hash_16(const void *data, uint32_t seed)
{
	const uint8_t *p = (const uint8_t *) data;
	uint64_t	out[2];
	BloomHash	h;

	bloom_murmur3_16(bloom_load64le(p), bloom_load64le(p + 8), seed, out);
	h.h1 = out[0];
	h.h2 = out[1];
	return h;
}

#endif							/* BLOOM_HASH_H */
