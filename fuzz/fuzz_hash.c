/*-------------------------------------------------------------------------
 *
 * fuzz_hash.c
 *	  libFuzzer harness: the inline MurmurHash3 fast paths of core/hash.h
 *	  against lmmh_x64_128 on arbitrary input.
 *
 * The first four bytes of the input pick the seed (little-endian; missing
 * bytes are zero), the rest is key material.  Every 8-byte and every
 * 16-byte window of it, at every alignment, is hashed by the library and by
 * the fast path the extension calls, under the seed and under three
 * relatives of it (complement, top bit flipped, zero); both output words
 * must agree.  bloom_hash(), which any length takes, must be the library
 * itself.  Any difference prints the key and aborts, which libFuzzer reports
 * as a crash with the input saved.
 *
 * fuzz/fuzz_hash.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/hash.h"

#include <stdio.h>
#include <stdlib.h>

/* windows tried per input; the rest of a long input only feeds bloom_hash */
#define FUZZ_HASH_MAX_WINDOWS	256

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fuzz_hash_fail(const char *what, const uint8_t *key, size_t len, uint32_t seed,
			   const uint64_t ref[2], uint64_t h1, uint64_t h2)
{
	fprintf(stderr, "fuzz check failed: %s differs from lmmh_x64_128\n", what);
	fprintf(stderr, "  seed %u, key", seed);
	for (size_t i = 0; i < len; i++)
		fprintf(stderr, " %02x", key[i]);
	fprintf(stderr, "\n  library %016llx %016llx, fast path %016llx %016llx\n",
			(unsigned long long) ref[0], (unsigned long long) ref[1],
			(unsigned long long) h1, (unsigned long long) h2);
	abort();
}

static void
fuzz_hash_window(const uint8_t *key, size_t len, uint32_t seed)
{
	uint64_t	ref[2];
	uint64_t	fast[2];
	BloomHash	h;

	lmmh_x64_128(key, (unsigned int) len, seed, ref);

	h = bloom_hash(key, len, seed);
	if (h.h1 != ref[0] || h.h2 != ref[1])
		fuzz_hash_fail("bloom_hash", key, len, seed, ref, h.h1, h.h2);

	if (len == 8)
	{
		uint64_t	word = bloom_load64le(key);

		bloom_murmur3_8(word, seed, fast);
		if (fast[0] != ref[0] || fast[1] != ref[1])
			fuzz_hash_fail("bloom_murmur3_8", key, len, seed, ref, fast[0], fast[1]);
		h = bloom_hash_int64((int64_t) word, seed);
		if (h.h1 != ref[0] || h.h2 != ref[1])
			fuzz_hash_fail("bloom_hash_int64", key, len, seed, ref, h.h1, h.h2);
	}
	else if (len == 16)
	{
		bloom_murmur3_16(bloom_load64le(key), bloom_load64le(key + 8), seed, fast);
		if (fast[0] != ref[0] || fast[1] != ref[1])
			fuzz_hash_fail("bloom_murmur3_16", key, len, seed, ref, fast[0], fast[1]);
		h = bloom_hash_16(key, seed);
		if (h.h1 != ref[0] || h.h2 != ref[1])
			fuzz_hash_fail("bloom_hash_16", key, len, seed, ref, h.h1, h.h2);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t	seed = 0;
	size_t		head = size < 4 ? size : 4;
	const uint8_t *key;
	size_t		len;
	uint8_t    *copy;

	for (size_t i = 0; i < head; i++)
		seed |= (uint32_t) data[i] << (8 * i);
	key = data + head;
	len = size - head;

	/* an exact-size copy, so ASan sees any read past the key */
	copy = malloc(len > 0 ? len : 1);
	if (copy == NULL)
		abort();
	if (len > 0)
		memcpy(copy, key, len);

	for (int variant = 0; variant < 4; variant++)
	{
		uint32_t	s = variant == 0 ? seed : variant == 1 ? ~seed :
			variant == 2 ? seed ^ UINT32_C(0x80000000) : 0;
		int			windows = 0;

		/* the whole key at whatever length it has */
		fuzz_hash_window(copy, len, s);
		for (size_t off = 0; off < len && windows < FUZZ_HASH_MAX_WINDOWS; off++)
		{
			if (off + 8 <= len)
				fuzz_hash_window(copy + off, 8, s);
			if (off + 16 <= len)
				fuzz_hash_window(copy + off, 16, s);
			windows++;
		}
	}
	free(copy);
	return 0;
}
