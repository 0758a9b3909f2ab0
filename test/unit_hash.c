/*-------------------------------------------------------------------------
 *
 * unit_hash.c
 *	  The inline MurmurHash3 fast paths of core/hash.h must be the very
 *	  function libmurmurhash computes.
 *
 * Every comparison hashes the same bytes twice, once with lmmh_x64_128 (the
 * reference) and once through the fast path the extension calls, and wants
 * both output words equal: at least 10 million random 8-byte keys and 10
 * million random 16-byte keys spread over 64 seeds (0, 1, 2^31 - 1, 2^31,
 * 2^32 - 1 and random ones), plus the edge values under every seed.  The
 * library itself is checked against SMHasher's verification value first, so
 * a broken reference cannot make a broken fast path pass.
 *
 * test/unit_hash.c
 *
 *-------------------------------------------------------------------------
 */
#include "unit.h"
#include "core/hash.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NSEEDS			64
#define KEYS_PER_SEED	160000	/* 64 * 160,000 = 10,240,000 keys per length */



/* splitmix64: a fixed, portable stream of test keys */
static uint64_t
next_random(uint64_t *state)
{
	uint64_t	z = (*state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* bytes are written out explicitly, so the key is the same on any host */
static void
put64le(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

/*
 * SMHasher's verification of the library: hash {}, {0}, {0,1}, ...,
 * {0..254} with seeds 256 - len, hash the 256 concatenated results with
 * seed 0, and read the first four bytes little-endian.
 */
static void
test_smhasher_verification(void)
{
	uint8_t		key[256];
	uint8_t		hashes[256 * 16];
	uint64_t	out[2];
	uint32_t	verification;

	for (int i = 0; i < 256; i++)
	{
		key[i] = (uint8_t) i;
		lmmh_x64_128(key, (unsigned int) i, (uint32_t) (256 - i), out);
		put64le(hashes + i * 16, out[0]);
		put64le(hashes + i * 16 + 8, out[1]);
	}
	lmmh_x64_128(hashes, sizeof(hashes), 0, out);
	verification = (uint32_t) out[0];
	CHECK(verification == 0x6384BA69,
		  "lmmh_x64_128 verification 0x%08X, expected 0x6384BA69", verification);
}

static uint32_t seeds[NSEEDS];

static void
make_seeds(void)
{
	static const uint32_t fixed[] = {0, 1, 2, 42, 0x7FFFFFFF, 0x80000000,
	0xFFFFFFFE, 0xFFFFFFFF};
	uint64_t	state = 20261122;
	int			n = 0;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		seeds[n++] = fixed[i];
	while (n < NSEEDS)
		seeds[n++] = (uint32_t) next_random(&state);
}

/* one 8-byte key under one seed, every way the extension can reach it */
static bool
same_8(uint64_t v, uint32_t seed)
{
	uint8_t		le[8];
	uint64_t	ref[2],
				fast[2];
	BloomHash	h;

	put64le(le, v);
	lmmh_x64_128(le, 8, seed, ref);
	bloom_murmur3_8(v, seed, fast);
	h = bloom_hash_int64((int64_t) v, seed);
	return ref[0] == fast[0] && ref[1] == fast[1] &&
		ref[0] == h.h1 && ref[1] == h.h2;
}

/* one 16-byte key, at a given misalignment inside buf */
static bool
same_16(uint64_t lo, uint64_t hi, uint32_t seed, int offset)
{
	uint8_t		buf[16 + 8];
	uint8_t    *key = buf + offset;
	uint64_t	ref[2],
				fast[2];
	BloomHash	h;

	put64le(key, lo);
	put64le(key + 8, hi);
	lmmh_x64_128(key, 16, seed, ref);
	bloom_murmur3_16(lo, hi, seed, fast);
	h = bloom_hash_16(key, seed);
	return ref[0] == fast[0] && ref[1] == fast[1] &&
		ref[0] == h.h1 && ref[1] == h.h2;
}

/* 0, 1, -1, the extremes, every power of two and its neighbours, bytes */
static int
edge_words(uint64_t *w)
{
	int			n = 0;

	w[n++] = 0;
	w[n++] = 1;
	w[n++] = UINT64_MAX;		/* -1 */
	w[n++] = (uint64_t) INT64_MIN;
	w[n++] = (uint64_t) INT64_MAX;
	w[n++] = (uint64_t) INT64_MIN + 1;
	w[n++] = (uint64_t) INT64_MAX - 1;
	w[n++] = (uint64_t) (int64_t) INT32_MIN;
	w[n++] = (uint64_t) (int64_t) INT32_MAX;
	w[n++] = (uint64_t) (int64_t) INT16_MIN;
	w[n++] = (uint64_t) (int64_t) INT16_MAX;
	w[n++] = UINT64_C(0x0101010101010101);
	w[n++] = UINT64_C(0x8080808080808080);
	w[n++] = UINT64_C(0xFF00FF00FF00FF00);
	w[n++] = UINT64_C(0x00FF00FF00FF00FF);
	w[n++] = UINT64_C(0x5555555555555555);
	w[n++] = UINT64_C(0xAAAAAAAAAAAAAAAA);
	w[n++] = UINT64_C(0x0123456789ABCDEF);
	for (int i = 0; i < 64; i++)
	{
		uint64_t	p = UINT64_C(1) << i;

		w[n++] = p;
		w[n++] = p - 1;
		w[n++] = p + 1;
		w[n++] = (uint64_t) 0 - p;	/* -2^i */
		w[n++] = ~p;
	}
	for (int i = 0; i < 8; i++)
		w[n++] = UINT64_C(0xFF) << (8 * i);
	return n;
}

static void
test_edges(void)
{
	uint64_t	w[18 + 5 * 64 + 8];
	int			nw = edge_words(w);
	long		bad8 = 0,
				bad16 = 0,
				n8 = 0,
				n16 = 0;

	for (int s = 0; s < NSEEDS; s++)
	{
		for (int i = 0; i < nw; i++)
		{
			bad8 += !same_8(w[i], seeds[s]);
			n8++;
		}
		/* every pair of edge words as the two halves of a uuid */
		for (int i = 0; i < nw; i++)
			for (int j = 0; j < nw; j += (s < 8 ? 1 : 17))
			{
				bad16 += !same_16(w[i], w[j], seeds[s], (i + j) & 7);
				n16++;
			}
		/* every single-bit 16-byte key, the nil and the all-ones uuid */
		for (int b = 0; b < 128; b++)
		{
			uint64_t	lo = b < 64 ? UINT64_C(1) << b : 0;
			uint64_t	hi = b < 64 ? 0 : UINT64_C(1) << (b - 64);

			bad16 += !same_16(lo, hi, seeds[s], b & 7);
			bad16 += !same_16(~lo, ~hi, seeds[s], b & 7);
			n16 += 2;
		}
		bad16 += !same_16(0, 0, seeds[s], 0);
		bad16 += !same_16(UINT64_MAX, UINT64_MAX, seeds[s], 3);
		n16 += 2;
	}
	printf("# edge values: %ld 8-byte and %ld 16-byte comparisons over %d seeds\n",
		   n8, n16, NSEEDS);
	CHECK(bad8 == 0, "8-byte fast path differs from lmmh_x64_128 on %ld edge keys", bad8);
	CHECK(bad16 == 0, "16-byte fast path differs from lmmh_x64_128 on %ld edge keys", bad16);
}

static void
test_random(void)
{
	uint64_t	state = UINT64_C(0x243F6A8885A308D3);
	long		bad8 = 0,
				bad16 = 0;
	long		n = 0;

	for (int s = 0; s < NSEEDS; s++)
	{
		for (int i = 0; i < KEYS_PER_SEED; i++)
		{
			uint64_t	a = next_random(&state);
			uint64_t	b = next_random(&state);

			/* small magnitudes too: most integer columns hold them */
			if ((i & 3) == 0)
				a >>= (b & 63);
			bad8 += !same_8(a, seeds[s]);
			bad16 += !same_16(a, b, seeds[s], i & 7);
			n++;
		}
	}
	printf("# random keys: %ld 8-byte and %ld 16-byte over %d seeds\n", n, n, NSEEDS);
	CHECK(bad8 == 0, "8-byte fast path differs from lmmh_x64_128 on %ld random keys", bad8);
	CHECK(bad16 == 0, "16-byte fast path differs from lmmh_x64_128 on %ld random keys", bad16);
}

/* a pinned value: int8 42, seed 0 */
static void
test_pinned(void)
{
	BloomHash	h = bloom_hash_int64(42, 0);

	CHECK(h.h1 == UINT64_C(0xB6ACC39989D27DF8) && h.h2 == UINT64_C(0x24B917FB96F22F80),
		  "hash of int8 42 changed: %016llX %016llX",
		  (unsigned long long) h.h1, (unsigned long long) h.h2);
}

int
main(void)
{
	clock_t		start = clock();

	test_smhasher_verification();
	make_seeds();
	test_pinned();
	test_edges();
	test_random();

	printf("# %.2f s CPU\n", (double) (clock() - start) / CLOCKS_PER_SEC);
	printf("%d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
