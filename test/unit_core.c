/*-------------------------------------------------------------------------
 *
 * unit_core.c
 *	  Unit tests of the server-independent core: hashing, the bit layout,
 *	  the header codec, validation, sizing and base64.
 *
 * The pinned values below are the format contract: if one of them changes,
 * stored filters would start giving different answers.
 *
 * test/unit_core.c
 *
 *-------------------------------------------------------------------------
 */
#include "unit.h"
#include "core/blocked.h"
#include "core/sizing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>



static void
put64le(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

/*
 * SMHasher's verification: hash keys {}, {0}, {0,1}, ... {0..254} with seeds
 * 256 - len, hash the concatenated 16-byte results with seed 0, and read the
 * first four bytes as a little-endian uint32.
 */
static void
test_smhasher_verification(void)
{
	uint8_t		key[256];
	uint8_t		hashes[256 * 16];
	BloomHash	h;
	uint32_t	verification;

	for (int i = 0; i < 256; i++)
	{
		key[i] = (uint8_t) i;
		h = bloom_hash(key, (size_t) i, (uint32_t) (256 - i));
		put64le(hashes + i * 16, h.h1);
		put64le(hashes + i * 16 + 8, h.h2);
	}
	h = bloom_hash(hashes, sizeof(hashes), 0);
	verification = (uint32_t) h.h1;
	CHECK(verification == 0x6384BA69,
		  "MurmurHash3_x64_128 verification 0x%08X, expected 0x6384BA69", verification);
}

static void
test_int_canonical(void)
{
	uint8_t		le[8];
	BloomHash	a,
				b;

	/* integers hash as 8 little-endian bytes whatever the host */
	put64le(le, (uint64_t) (int64_t) -5);
	a = bloom_hash(le, 8, 7);
	b = bloom_hash_int64(-5, 7);
	CHECK(a.h1 == b.h1 && a.h2 == b.h2, "int64 canonical bytes are not little-endian");

	a = bloom_hash_int64(42, 0);
	b = bloom_hash_int64(42, 1);
	CHECK(a.h1 != b.h1, "the seed does not change the hash");
}

/* pinned: element 42 (int8), seed 0, in a 1000-block filter with k = 7 */
static void
test_layout_pinned(void)
{
	BloomHash	h = bloom_hash_int64(42, 0);
	BloomMask	mask;
	int			nbits = 0;
	uint64_t	block = bloom_block_of(h.h1, 1000);
	static const uint64_t expect_mask[8] = {
		UINT64_C(0x0000800000080000), UINT64_C(0x0000000000000000),
		UINT64_C(0x0000000000000000), UINT64_C(0x0020000000000000),
		UINT64_C(0x0000000000000000), UINT64_C(0x0000000200004000),
		UINT64_C(0x0000000000000041), UINT64_C(0x0000000000000000)
	};
	bool		mask_ok = true;

	bloom_mask(h, 7, &mask);
	for (int i = 0; i < 8; i++)
	{
		nbits += __builtin_popcountll(mask.w[i]);
		if (mask.w[i] != expect_mask[i])
			mask_ok = false;
	}
	printf("# pinned: h1=0x%016llX h2=0x%016llX block=%llu mask=",
		   (unsigned long long) h.h1, (unsigned long long) h.h2,
		   (unsigned long long) block);
	for (int i = 0; i < 8; i++)
		printf("%016llX%s", (unsigned long long) mask.w[i], i < 7 ? "," : "\n");
	CHECK(nbits == 7, "mask has %d bits, expected 7", nbits);
	CHECK(h.h1 == UINT64_C(0xB6ACC39989D27DF8) && h.h2 == UINT64_C(0x24B917FB96F22F80), "hash of 42 changed");
	CHECK(block == 713, "block of 42 changed: %llu", (unsigned long long) block);
	CHECK(mask_ok, "bit pattern of 42 changed");
}

static void
test_mask_properties(void)
{
	bool		ok_bits = true;
	bool		ok_block = true;

	for (int k = 1; k <= BLOOM_MAX_HASHES; k++)
	{
		for (int64_t v = 0; v < 2000; v++)
		{
			BloomHash	h = bloom_hash_int64(v * 7919 + k, 0);
			BloomMask	mask;
			int			n = 0;

			bloom_mask(h, k, &mask);
			for (int i = 0; i < 8; i++)
				n += __builtin_popcountll(mask.w[i]);
			if (n != k)
				ok_bits = false;
			if (bloom_block_of(h.h1, 12345) >= 12345)
				ok_block = false;
		}
	}
	CHECK(ok_bits, "a mask does not have exactly k distinct bits");
	CHECK(ok_block, "a block index is out of range");
	CHECK(bloom_block_of(UINT64_MAX, 3) == 2 && bloom_block_of(0, 3) == 0,
		  "block_of does not span the range");
}

/* bit b of a block is bit (b & 7) of byte (b >> 3) */
static void
test_byte_order_of_bits(void)
{
	uint8_t		block[BLOOM_BLOCK_BYTES];
	BloomMask	mask;

	memset(block, 0, sizeof(block));
	memset(&mask, 0, sizeof(mask));
	mask.w[1] = UINT64_C(1) << 10;	/* bit 74 = byte 9, bit 2 */
	CHECK(bloom_block_add(block, &mask) == 1, "adding one bit reports %d", 1);
	CHECK(block[9] == 0x04, "bit 74 landed elsewhere (byte 9 = 0x%02x)", block[9]);
	CHECK(bloom_block_add(block, &mask) == 0, "adding a set bit counts it again");
	CHECK(bloom_block_test(block, &mask), "a set bit tests false");
}

/* the early-exit check agrees with the mask on blocks of every fill */
static void
test_block_test_hash(void)
{
	uint8_t		block[BLOOM_BLOCK_BYTES];
	bool		agree = true;
	uint64_t	state = 12345;

	for (int fill = 0; fill <= 512; fill += 16)
	{
		memset(block, 0, sizeof(block));
		for (int i = 0; i < fill; i++)
		{
			state = state * 6364136223846793005ULL + 1442695040888963407ULL;
			block[(state >> 58) & 63] |= (uint8_t) (1u << ((state >> 55) & 7));
		}
		for (int64_t v = 0; v < 500; v++)
		{
			BloomHash	h = bloom_hash_int64(v, 9);
			int			k = 1 + (int) (v % BLOOM_MAX_HASHES);
			BloomMask	mask;

			bloom_mask(h, k, &mask);
			if (bloom_block_test(block, &mask) != bloom_block_test_hash(block, h, k))
				agree = false;
		}
	}
	CHECK(agree, "bloom_block_test_hash disagrees with bloom_mask");
}

/* adding bit by bit sets the same bits, and counts them, as the mask does */
static void
test_block_add_hash(void)
{
	uint8_t		a[BLOOM_BLOCK_BYTES],
				b[BLOOM_BLOCK_BYTES];
	bool		same = true;

	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	for (int64_t v = 0; v < 3000; v++)
	{
		BloomHash	h = bloom_hash_int64(v, 4);
		int			k = 1 + (int) (v % BLOOM_MAX_HASHES);
		BloomMask	mask;
		int			na,
					nb;

		bloom_mask(h, k, &mask);
		na = bloom_block_add(a, &mask);
		nb = bloom_block_add_hash(b, h, k);
		if (na != nb || memcmp(a, b, sizeof(a)) != 0)
			same = false;
		if (v % 100 == 99)
		{
			memset(a, 0, sizeof(a));	/* start over before the block fills */
			memset(b, 0, sizeof(b));
		}
	}
	CHECK(same, "bloom_block_add_hash differs from bloom_block_add");
}

static void
test_header_codec(void)
{
	BloomHeader h,
				d;
	uint8_t		buf[BLOOM_HEADER_SIZE];

	bloom_header_init(&h, 1000, 0.01, 0xAABBCCDD, 10240, 5);
	h.bits_set = 77;
	bloom_header_encode(&h, buf);
	CHECK(memcmp(buf, "BLMF", 4) == 0, "magic bytes are not BLMF");
	/* new filters get hash id 5 (SQL-equal values hash equal, text as UTF-8) */
	CHECK(buf[4] == 1 && buf[5] == 1 && buf[6] == 5 && buf[7] == 5,
		  "version/layout/hash/k bytes wrong");
	CHECK(buf[8] == 0xDD && buf[11] == 0xAA, "seed is not little-endian");
	CHECK(buf[16] == 0x00 && buf[17] == 0x28, "nbits is not little-endian at 16");
	CHECK(buf[24] == 0xE8 && buf[25] == 0x03, "capacity is not at 24");
	CHECK(buf[40] == 77, "bits_set is not at 40");
	memset(&d, 0, sizeof(d));	/* the struct has padding */
	bloom_header_decode(buf, &d);
	CHECK(memcmp(&h, &d, sizeof(h)) == 0, "header does not round-trip");
}

/* a valid serialized filter with a few elements, for the validation tests */
static uint8_t *
make_filter(size_t *len, uint64_t capacity, double rate)
{
	BloomHeader h;
	uint64_t	nbits;
	int			k;
	uint8_t    *buf;

	bloom_size(capacity, rate, &nbits, &k);
	bloom_header_init(&h, capacity, rate, 0, nbits, k);
	*len = bloom_total_bytes(&h);
	buf = calloc(1, *len);
	for (int64_t v = 0; v < 10; v++)
		h.bits_set += bloom_add(buf + BLOOM_HEADER_SIZE, bloom_nblocks(&h), k,
								bloom_hash_int64(v, 0));
	bloom_header_encode(&h, buf);
	return buf;
}

static BloomCheck
validate_mutated(const uint8_t *orig, size_t len, size_t off, uint8_t value,
				 size_t newlen)
{
	uint8_t    *copy = malloc(len + 1);
	BloomHeader h;
	BloomCheck	c;

	memcpy(copy, orig, len);
	copy[len] = 0;
	if (off < len)
		copy[off] = value;
	c = bloom_validate(copy, newlen, &h);
	free(copy);
	return c;
}

static void
test_validation(void)
{
	size_t		len;
	uint8_t    *f = make_filter(&len, 1000, 0.01);
	BloomHeader h;
	uint8_t		nan_bits[8];
	double		nan = NAN;
	uint8_t    *bad;

	CHECK(bloom_validate(f, len, &h) == BLOOM_OK, "a fresh filter is invalid");
	/* an offset past the end mutates nothing */
	CHECK(validate_mutated(f, len, len, 0, len - 1) == BLOOM_BAD_LENGTH, "truncated accepted");
	CHECK(validate_mutated(f, len, len, 0, len + 1) == BLOOM_BAD_LENGTH, "overlong accepted");
	CHECK(validate_mutated(f, len, len, 0, 10) == BLOOM_BAD_LENGTH, "short header accepted");
	CHECK(validate_mutated(f, len, 0, 'X', len) == BLOOM_BAD_MAGIC, "bad magic accepted");
	CHECK(validate_mutated(f, len, 4, 2, len) == BLOOM_BAD_VERSION, "version 2 accepted");
	CHECK(validate_mutated(f, len, 5, 9, len) == BLOOM_BAD_LAYOUT, "layout 9 accepted");
	CHECK(validate_mutated(f, len, 6, 0, len) == BLOOM_BAD_HASH, "hash 0 accepted");
	CHECK(validate_mutated(f, len, 7, 0, len) == BLOOM_BAD_NHASHES, "k 0 accepted");
	CHECK(validate_mutated(f, len, 7, 65, len) == BLOOM_BAD_NHASHES, "k 65 accepted");
	/* key type (bytes 12..15): 0 or the OID of a type filters hash */
	CHECK(validate_mutated(f, len, 12, 20, len) == BLOOM_OK, "key type int8 refused");
	CHECK(validate_mutated(f, len, 12, 22, len) == BLOOM_BAD_KEY_TYPE,
		  "key type int2vector accepted (its key type is int2[])");
	CHECK(validate_mutated(f, len, 13, 0x27, len) == BLOOM_BAD_KEY_TYPE, "key type 9984 accepted");
	CHECK(validate_mutated(f, len, 13, 0x28, len) == BLOOM_BAD_KEY_TYPE, "key type 10240 accepted");
	CHECK(validate_mutated(f, len, 15, 0x80, len) == BLOOM_BAD_KEY_TYPE, "key type 2^31 accepted");
	CHECK(validate_mutated(f, len, 16, 1, len) == BLOOM_BAD_NBITS, "nbits not a multiple of 512 accepted");
	CHECK(validate_mutated(f, len, 23, 0x80, len) == BLOOM_BAD_NBITS, "huge nbits accepted");
	CHECK(validate_mutated(f, len, 40, f[40] + 1, len) == BLOOM_BAD_BITS_SET,
		  "wrong bits_set accepted");
	CHECK(validate_mutated(f, len, BLOOM_HEADER_SIZE, f[BLOOM_HEADER_SIZE] ^ 1, len) ==
		  BLOOM_BAD_BITS_SET, "flipped bit accepted");

	bad = malloc(len);
	/* a read takes the key types 1.3 stored, any below 10000; input does not */
	memcpy(bad, f, len);
	bad[12] = 0x0f;
	bad[13] = 0x27;
	bloom_header_decode(bad, &h);
	CHECK(bloom_validate_header(&h, len) == BLOOM_OK, "a read refuses key type 9999");
	CHECK(bloom_validate(bad, len, &h) == BLOOM_BAD_KEY_TYPE, "input takes key type 9999");
	memcpy(bad, f, len);
	memset(bad + 16, 0, 8);
	CHECK(bloom_validate(bad, len, &h) == BLOOM_BAD_NBITS, "nbits 0 accepted");
	memcpy(bad, f, len);
	memset(bad + 24, 0, 8);
	CHECK(bloom_validate(bad, len, &h) == BLOOM_BAD_CAPACITY, "capacity 0 accepted");
	memcpy(bad, f, len);
	memcpy(nan_bits, &nan, 8);
	memcpy(bad + 32, nan_bits, 8);
	CHECK(bloom_validate(bad, len, &h) == BLOOM_BAD_ERROR_RATE, "NaN error rate accepted");
	free(bad);
	free(f);
}

/*
 * The key types a filter may record: exactly the list, found by a search
 * that needs it sorted.  The server's suite holds the list to the types
 * the server's rules give (sql/io_errors.sql).
 */
static void
test_key_types(void)
{
	static const uint32_t some[] = {16, 20, 25, 650, 1005, 1006, 1013, 1700, 2249, 2287, 3221};
	static const uint32_t none[] = {1, 15, 22, 24, 30, 114, 142, 600, 3802, 3807, 4000,
	9999, 10000, UINT32_MAX};
	int			valid = 0;

	CHECK(bloom_key_type_valid(0), "untyped refused");
	for (size_t i = 0; i < sizeof(some) / sizeof(some[0]); i++)
		CHECK(bloom_key_type_valid(some[i]), "key type %u refused", some[i]);
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		CHECK(!bloom_key_type_valid(none[i]), "key type %u accepted", none[i]);
	for (uint32_t oid = 1; oid < BLOOM_KEY_TYPE_LIMIT; oid++)
		valid += bloom_key_type_valid(oid);
	CHECK(valid == 62, "%d key types below 10000, 62 expected", valid);
}

static void
test_sizing(void)
{
	static const double rates[] = {0.5, 0.1, 0.01, 0.001, 1e-4, 1e-6};
	static const uint64_t caps[] = {1, 10, 1000, 1000000};
	bool		ok = true;
	uint64_t	nbits;
	int			k;

	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		for (size_t j = 0; j < sizeof(caps) / sizeof(caps[0]); j++)
		{
			double		model;

			if (!bloom_size(caps[j], rates[i], &nbits, &k))
			{
				ok = false;
				continue;
			}
			model = bloom_model_fpp((double) caps[j], nbits / BLOOM_BLOCK_BITS, k);
			if (model > BLOOM_SIZING_MARGIN * rates[i] || nbits % BLOOM_BLOCK_BITS != 0 || k < 1 ||
				k > BLOOM_MAX_HASHES)
			{
				ok = false;
				printf("# sizing %llu @ %g: nbits=%llu k=%d model=%g\n",
					   (unsigned long long) caps[j], rates[i],
					   (unsigned long long) nbits, k, model);
			}
			/* one block fewer would break the promise (minimality) */
			if (nbits > BLOOM_BLOCK_BITS)
			{
				int			k2;
				double		fewer = 2.0;

				for (k2 = 1; k2 <= BLOOM_MAX_HASHES; k2++)
					fewer = fmin(fewer, bloom_model_fpp((double) caps[j],
														nbits / BLOOM_BLOCK_BITS - 1, k2));
				if (fewer <= BLOOM_SIZING_MARGIN * rates[i])
				{
					ok = false;
					printf("# sizing %llu @ %g is not minimal\n",
						   (unsigned long long) caps[j], rates[i]);
				}
			}
		}
	CHECK(ok, "sizing breaks the model or is not minimal");

	/* 1%: within 6% of the standard optimum m = -n ln p / (ln 2)^2 */
	bloom_size(10000000, 0.01, &nbits, &k);
	CHECK(nbits <= 1.06 * (-10000000 * log(0.01) / (log(2) * log(2))),
		  "10M at 1%% takes %llu bits", (unsigned long long) nbits);
	CHECK(!bloom_size(UINT64_C(10000000000), 0.01, &nbits, &k), "over the size limit accepted");
}

/* measured false-positive rate at capacity, and the estimates */
static void
test_measured_fpr(void)
{
	static const double rates[] = {0.01, 0.001};

	for (size_t r = 0; r < 2; r++)
	{
		const uint64_t n = 100000;
		const int64_t probes = 1000000;
		uint64_t	nbits;
		int			k;
		uint8_t    *bits;
		int64_t		fp = 0;
		bool		no_fn = true;
		uint64_t	set = 0;
		double		card,
					est,
					model;

		bloom_size(n, rates[r], &nbits, &k);
		bits = calloc(1, nbits / 8);
		for (int64_t v = 0; v < (int64_t) n; v++)
			set += bloom_add(bits, nbits / BLOOM_BLOCK_BITS, k, bloom_hash_int64(v, 0));
		for (int64_t v = 0; v < (int64_t) n; v++)
			no_fn &= bloom_test(bits, nbits / BLOOM_BLOCK_BITS, k, bloom_hash_int64(v, 0));
		for (int64_t v = 0; v < probes; v++)
			fp += bloom_test(bits, nbits / BLOOM_BLOCK_BITS, k,
							 bloom_hash_int64(-1 - v, 0));
		card = bloom_estimate_cardinality(bits, nbits / BLOOM_BLOCK_BITS, k);
		est = bloom_estimate_fpp(bits, nbits / BLOOM_BLOCK_BITS, k);
		printf("# p=%g: measured %.5f, estimated %.5f, cardinality %.0f\n",
			   rates[r], (double) fp / probes, est, card);
		CHECK(no_fn, "false negative at p=%g", rates[r]);
		CHECK((double) fp / probes <= rates[r], "measured %g > %g", (double) fp / probes, rates[r]);
		CHECK(fabs(card - n) < 0.02 * n, "cardinality estimate %.0f for %llu", card,
			  (unsigned long long) n);
		model = bloom_model_fpp((double) n, nbits / BLOOM_BLOCK_BITS, k);
		CHECK(fabs(est - model) < 0.1 * model, "fpp estimate %g, model %g", est, model);
		CHECK(set == bloom_popcount(bits, nbits / 8), "bits-set bookkeeping drifted");
		free(bits);
	}
}

/*
 * Hashes for a batch long enough that its marks of drawn cells start over
 * (65535 elements): element i is a when i % 65535 is 0, else b, whose k
 * cells differ from a's, so that marks left from the first element would
 * hide the cells of the one that reuses its stamp.
 */
static void
fill_long_batch(BloomHash *hashes, size_t n, int k)
{
	BloomHash	a = bloom_hash_int64(1, 7);
	BloomHash	b;
	BloomMask	ma,
				mb;

	bloom_mask(a, k, &ma);
	for (int64_t v = 2;; v++)
	{
		bool		apart = true;

		b = bloom_hash_int64(v, 7);
		bloom_mask(b, k, &mb);
		for (int w = 0; w < BLOOM_BLOCK_BYTES / 8; w++)
			apart &= (ma.w[w] & mb.w[w]) == 0;
		if (apart)
			break;
	}
	for (size_t i = 0; i < n; i++)
		hashes[i] = i % 65535 == 0 ? a : b;
}

/*
 * The batch (marks of drawn cells shared by the batch, bytes changed one at
 * a time, blocks requested ahead) sets and counts what single adds do: every
 * k a header may hold, batches of every length around the prefetch
 * distance, repeated hashes, and one batch long enough that the marks start
 * over (65535 elements).
 */
static void
test_batch_matches_single(void)
{
	const uint64_t nblocks = 97;
	uint8_t    *a = calloc(nblocks, BLOOM_BLOCK_BYTES);
	uint8_t    *b = calloc(nblocks, BLOOM_BLOCK_BYTES);
	uint8_t    *e = calloc(nblocks, BLOOM_BLOCK_BYTES);
	size_t		nlong = 70000;
	BloomHash  *hashes = malloc(nlong * sizeof(BloomHash));
	bool		same = true;
	bool		same_uncounted = true;

	for (int k = 1; k <= BLOOM_MAX_HASHES; k++)
	{
		size_t		n = (size_t) (k * 37) % (3 * BLOOM_PREFETCH_AHEAD + 2);
		uint64_t	sa = 0,
					sb;

		memset(a, 0, nblocks * BLOOM_BLOCK_BYTES);
		memset(b, 0, nblocks * BLOOM_BLOCK_BYTES);
		memset(e, 0, nblocks * BLOOM_BLOCK_BYTES);
		for (int round = 0; round < 40; round++)
		{
			for (size_t i = 0; i < n; i++)
			{
				hashes[i] = bloom_hash_int64((int64_t) ((round * n + i) % 700), 3);	/* with repeats */
				sa += bloom_add(a, nblocks, k, hashes[i]);
			}
			sb = bloom_add_batch(b, nblocks, k, hashes, n);
			sa -= sb;
			if (sa != 0 || memcmp(a, b, nblocks * BLOOM_BLOCK_BYTES) != 0)
				same = false;
			/* the uncounted batch: the same bits */
			bloom_set_batch(e, nblocks, k, hashes, n);
			if (memcmp(a, e, nblocks * BLOOM_BLOCK_BYTES) != 0)
				same_uncounted = false;
		}
	}
	CHECK(same, "batched adds differ from single adds");
	CHECK(same_uncounted, "uncounted batched adds differ from single adds");

	/* past 65535 elements the batch's marks start over */
	{
		uint64_t	sa = 0,
					sb;
		uint8_t    *c = calloc(nblocks * 64, BLOOM_BLOCK_BYTES);
		uint8_t    *d = calloc(nblocks * 64, BLOOM_BLOCK_BYTES);

		fill_long_batch(hashes, nlong, 3);
		for (size_t i = 0; i < nlong; i++)
			sa += bloom_add(c, nblocks * 64, 3, hashes[i]);
		sb = bloom_add_batch(d, nblocks * 64, 3, hashes, nlong);
		CHECK(sa == sb && memcmp(c, d, nblocks * 64 * BLOOM_BLOCK_BYTES) == 0,
			  "a batch of %zu adds differs from single adds", nlong);
		memset(d, 0, nblocks * 64 * BLOOM_BLOCK_BYTES);
		bloom_set_batch(d, nblocks * 64, 3, hashes, nlong);
		CHECK(memcmp(c, d, nblocks * 64 * BLOOM_BLOCK_BYTES) == 0,
			  "an uncounted batch of %zu adds differs from single adds", nlong);
		free(c);
		free(d);
	}
	free(hashes);
	free(a);
	free(b);
	free(e);
}

/*
 * A batch of checks (the layout's answer_many: groups requested ahead, draws
 * told new by stamps) answers what single checks do: every k, skipped
 * elements false, members and others, groups cut anywhere, and one batch
 * long enough that the stamps start over.
 */
static void
test_answer_many_matches_single(void)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_BLOCKED512);
	const uint64_t nblocks = 61;
	uint8_t    *bits = calloc(nblocks, BLOOM_BLOCK_BYTES);
	int			n = 70000;
	BloomHash  *hashes = malloc(n * sizeof(BloomHash));
	bool	   *skip = malloc(n);
	bool	   *found = malloc(n);
	bool		same = true;
	int			present = 0;

	for (int k = 1; k <= BLOOM_MAX_HASHES; k++)
	{
		BloomDir	dir;
		BloomSpan	next;
		int			m = k == 3 ? n : 1 + (k * 53) % 300;

		/* filled to about 60%: for most others some draws are set, some not */
		memset(bits, 0, nblocks * BLOOM_BLOCK_BYTES);
		for (int i = 0; i < 28000 / k; i++)
			bloom_add(bits, nblocks, k, bloom_hash_int64(i, 5));
		bloom_dir_single(&dir, nblocks, (uint32_t) k, &next);
		for (int i = 0; i < m; i++)
		{
			hashes[i] = bloom_hash_int64(i % 90000, 5);	/* members, others, repeats */
			skip[i] = i % 7 == 3;
			found[i] = true;
		}
		l->answer_many(&dir, bits, hashes, skip, m, found);
		for (int i = 0; i < m; i++)
		{
			bool		want = !skip[i] && bloom_test(bits, nblocks, k, hashes[i]);

			if (found[i] != want)
				same = false;
			present += want;
		}
	}
	CHECK(same, "a batch of checks differs from single checks");
	CHECK(present > 0, "the batches of checks found no member");
	free(hashes);
	free(skip);
	free(found);
	free(bits);
}

/* the counting layout's add of one hash by its definition; returns counters leaving zero */
static uint64_t
counting_ref_add(uint8_t *payload, uint64_t nblocks, int k, BloomHash h, uint64_t *saturated)
{
	uint8_t    *block = payload + bloom_block_of(h.h1, nblocks) * (BLOOM_BLOCK_BITS / 2);
	BloomMask	mask;
	uint64_t	fresh = 0;

	bloom_mask(h, k, &mask);
	for (int cell = 0; cell < BLOOM_BLOCK_BITS; cell++)
	{
		int			shift = (cell & 1) * 4;
		int			cnt;

		if (!(mask.w[cell >> 6] >> (cell & 63) & 1))
			continue;
		cnt = (block[cell >> 1] >> shift) & 0xF;
		fresh += cnt == 0;
		if (cnt < 15)
			block[cell >> 1] = (uint8_t) (block[cell >> 1] + (1 << shift));
		else
			(*saturated)++;
	}
	return fresh;
}

/*
 * The counting layout's add (one flat loop, marks of drawn cells shared by
 * the batch, prefetching ahead) against the definition walked literally:
 * the element's block of 256 bytes, its k distinct cells from bloom_mask,
 * cell c the low nibble of byte c >> 1 if c is even, else the high one,
 * incremented up to 15, and bits_set counting the counters that leave zero.
 * Small filters and many repeats, so that counters saturate; every k a
 * header may hold; batches of every length up to past the prefetch
 * distance; and one batch long enough that the marks start over.
 */
static void
test_counting_add_matches_walk(void)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_COUNTING4);
	bool		same = true;
	uint64_t	saturated = 0;
	size_t		nlong = 70000;
	BloomHash  *hashes = malloc(nlong * sizeof(BloomHash));

	for (int k = 1; k <= BLOOM_MAX_HASHES + 1; k++)
	{
		/* the last round: one long batch into a larger filter */
		bool		lng = k > BLOOM_MAX_HASHES;
		uint64_t	nblocks = lng ? 4096 : 1 + (uint64_t) (k * 7) % 13;
		size_t		bytes = nblocks * BLOOM_BLOCK_BITS / 2;
		uint8_t    *a = calloc(bytes, 1);
		uint8_t    *b = calloc(bytes, 1);
		BloomHeader ha = {0};
		uint64_t	ref_set = 0;
		int			kk = lng ? 4 : k;
		size_t		done = 0;

		ha.layout = BLOOM_LAYOUT_COUNTING4;
		ha.nhashes = (uint8_t) kk;
		ha.nbits = nblocks * BLOOM_BLOCK_BITS;
		for (int batch = 0; done < (lng ? nlong : 4000); batch++)
		{
			size_t		n = lng ? nlong : (size_t) batch % (3 * BLOOM_PREFETCH_AHEAD + 6);

			if (lng)
				fill_long_batch(hashes, n, kk);
			for (size_t i = 0; i < n; i++)
			{
				if (!lng)
					hashes[i] = bloom_hash_int64((int64_t) ((done + i) % 300), (uint32_t) k);
				ref_set += counting_ref_add(b, nblocks, kk, hashes[i], &saturated);
			}
			CHECK(l->add(&ha, a, hashes, n) == n, "counting add took fewer hashes than given");
			done += n;
		}
		if (memcmp(a, b, bytes) != 0 || ha.bits_set != ref_set)
		{
			same = false;
			printf("# k=%d: counting add differs from the walk\n", kk);
		}
		free(a);
		free(b);
	}
	free(hashes);
	CHECK(same, "the counting layout's add differs from its definition");
	CHECK(saturated > 0, "no counter saturated: the test misses the sticky case");
}

static void
test_union_intersect(void)
{
	const uint64_t nblocks = 50;
	size_t		nbytes = nblocks * BLOOM_BLOCK_BYTES;
	uint8_t    *a = calloc(1, nbytes),
			   *b = calloc(1, nbytes);
	bool		ok = true;
	uint64_t	n;

	for (int i = 0; i < 300; i++)
	{
		bloom_add(a, nblocks, 5, bloom_hash_int64(i, 0));
		bloom_add(b, nblocks, 5, bloom_hash_int64(i + 1000, 0));
	}
	n = bloom_union_into(a, b, nbytes);
	CHECK(n == bloom_popcount(a, nbytes), "union bits count wrong");
	for (int i = 0; i < 300; i++)
		ok &= bloom_test(a, nblocks, 5, bloom_hash_int64(i, 0)) &&
			bloom_test(a, nblocks, 5, bloom_hash_int64(i + 1000, 0));
	CHECK(ok, "union lost an element");
	n = bloom_intersect_into(b, a, nbytes);
	CHECK(n == bloom_popcount(b, nbytes), "intersect bits count wrong");
	ok = true;
	for (int i = 0; i < 300; i++)
		ok &= bloom_test(b, nblocks, 5, bloom_hash_int64(i + 1000, 0));
	CHECK(ok, "intersection with a superset lost an element");
	free(a);
	free(b);
}

static void
test_base64(void)
{
	static const char *plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
	static const char *coded[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
	static const char *bad[] = {"Zg=", "Z===", "Zh==", "Zm9=", "Zm9v!", "Zg==Zg==", "=Zg=", "Zm 9", "Zg=a"};
	char		out[16];
	uint8_t		dec[16];
	size_t		n;

	for (int i = 0; i < 7; i++)
	{
		size_t		len = strlen(plain[i]);

		bloom_base64_encode((const uint8_t *) plain[i], len, out);
		out[bloom_base64_encoded_len(len)] = '\0';
		CHECK(strcmp(out, coded[i]) == 0, "base64 of \"%s\" is %s", plain[i], out);
		CHECK(bloom_base64_decode(coded[i], strlen(coded[i]), dec, &n) &&
			  n == len && memcmp(dec, plain[i], len) == 0, "decode of %s", coded[i]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(!bloom_base64_decode(bad[i], strlen(bad[i]), dec, &n),
			  "accepted bad base64 \"%s\"", bad[i]);
}

/*
 * The "Bit positions" recipe of docs/format.md, followed word for word from the
 * serialized bytes a client would fetch (f::bytea): "block = high 64 bits of
 * the 128-bit product h1 x nblocks; x0 = h2, x(i+1) = x(i) x 6364136223846793005
 * + (h1 | 1) mod 2^64; the bit numbers are x1 >> 55, x2 >> 55, ... (x0 itself
 * is not used), a number already drawn is skipped, until k distinct numbers;
 * bit b of a block is bit b & 7 of its byte b >> 3; the blocks start at byte
 * 48".  A slip in those words (such as starting from x0) fails here.
 */
static void
test_readme_recipe(void)
{
	uint64_t	nbits;
	int			k;
	BloomHeader hdr;
	uint8_t    *value;
	size_t		len;
	bool		all = true;
	bool		x0_would_work = true;

	bloom_size(1000, 0.01, &nbits, &k);
	bloom_header_init(&hdr, 1000, 0.01, 99, nbits, k);
	len = bloom_total_bytes(&hdr);
	value = calloc(1, len);
	for (int64_t v = 0; v < 200; v++)
		hdr.bits_set += bloom_add(value + BLOOM_HEADER_SIZE, bloom_nblocks(&hdr), k,
								  bloom_hash_int64(v, 99));
	bloom_header_encode(&hdr, value);

	for (int64_t v = 0; v < 200; v++)
	{
		/* the element's canonical bytes: int8, little-endian */
		uint8_t		key[8];
		uint64_t	out[2];
		uint64_t	nblocks = 0;
		uint32_t	seed = (uint32_t) value[8] | (uint32_t) value[9] << 8 |
			(uint32_t) value[10] << 16 | (uint32_t) value[11] << 24;
		int			kk = value[7];
		uint64_t	h1,
					h2,
					x,
					block;
		const uint8_t *bytes;
		unsigned	drawn[64];
		int			got = 0;

		for (int i = 0; i < 8; i++)
			nblocks |= (uint64_t) value[16 + i] << (8 * i);	/* nbits */
		nblocks /= 512;
		for (int i = 0; i < 8; i++)
			key[i] = (uint8_t) ((uint64_t) v >> (8 * i));
		lmmh_x64_128(key, 8, seed, out);
		h1 = out[0];
		h2 = out[1];
		block = (uint64_t) (((unsigned __int128) h1 * nblocks) >> 64);
		bytes = value + 48 + block * 64;
		if (((bytes[(h2 >> 55) >> 3] >> ((h2 >> 55) & 7)) & 1) == 0)
			x0_would_work = false;
		x = h2;
		while (got < kk)
		{
			unsigned	b;
			bool		seen = false;

			x = x * UINT64_C(6364136223846793005) + (h1 | 1);
			b = (unsigned) (x >> 55);
			for (int i = 0; i < got; i++)
				seen |= drawn[i] == b;
			if (seen)
				continue;
			drawn[got++] = b;
			if (((bytes[b >> 3] >> (b & 7)) & 1) == 0)
				all = false;
		}
	}
	CHECK(all, "a bit docs/format.md's recipe names is not set in the filter");
	CHECK(!x0_would_work, "x0's bit was set for every element: the recipe cannot tell x0 from x1");
	free(value);
}

/* the layout table: ids map to entries, unknown ids to nothing */
static void
test_layout_table(void)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_BLOCKED512);

	CHECK(l != NULL && l->id == BLOOM_LAYOUT_BLOCKED512 && strcmp(l->name, "blocked512") == 0,
		  "layout 1 is not blocked512");
	{
		BloomHeader bh;
		BloomDir	dir;
		BloomSpan	spans[BLOOM_MAX_SPANS];
		uint8_t		payload[4 * BLOOM_BLOCK_BYTES] = {0};

		bloom_header_init(&bh, 10, 0.01, 0, 4 * BLOOM_BLOCK_BITS, 3);
		CHECK(bloom_dir_read(l, &bh, payload, sizeof(payload), &dir) == BLOOM_OK &&
			  l->spans(&dir, bloom_hash_int64(7, 0), spans) == 1 &&
			  spans[0].len == BLOOM_BLOCK_BYTES && spans[0].offset % BLOOM_BLOCK_BYTES == 0,
			  "a blocked check reads one block");
	}
	CHECK(bloom_layout_for(0) == NULL && bloom_layout_for(7) == NULL &&
		  bloom_layout_for(255) == NULL, "an unknown layout id has an entry");
	CHECK(l->intersects && !l->grows && !l->removes && l->header_fpp != NULL,
		  "what blocked512 can do");
	l = bloom_layout_for(BLOOM_LAYOUT_COUNTING4);
	CHECK(l != NULL && l->id == BLOOM_LAYOUT_COUNTING4 && strcmp(l->name, "counting4") == 0 &&
		  l->removes && l->intersects && !l->grows, "layout 2 is not counting4");
	l = bloom_layout_for(BLOOM_LAYOUT_SCALABLE);
	CHECK(l != NULL && l->id == BLOOM_LAYOUT_SCALABLE && strcmp(l->name, "scalable") == 0 &&
		  l->grows && !l->removes && !l->intersects && l->header_fpp == NULL,
		  "layout 3 is not scalable");
	l = bloom_layout_for(BLOOM_LAYOUT_HASHES);
	CHECK(l != NULL && l->id == BLOOM_LAYOUT_HASHES && strcmp(l->name, "hashes") == 0 &&
		  l->holds_hashes && l->grows && !l->removes && !l->intersects, "layout 4 is not hashes");
	CHECK(!bloom_layout_for(BLOOM_LAYOUT_SCALABLE)->holds_hashes &&
		  !bloom_layout_for(BLOOM_LAYOUT_BLOCKED512)->holds_hashes, "only layout 4 holds hashes");
	for (int id = BLOOM_LAYOUT_BLOCKED512; id <= BLOOM_LAYOUT_HASHES; id++)
		CHECK(bloom_layout_problem(bloom_layout_for(id)) == NULL, "layout %d: %s", id,
			  bloom_layout_problem(bloom_layout_for(id)));
	CHECK(strcmp(bloom_hash_name(1), "murmur3_x64_128") == 0 &&
		  strcmp(bloom_hash_name(2), "murmur3_x64_128_sqleq") == 0 &&
		  strcmp(bloom_hash_name(5), "murmur3_x64_128_sqleq_utf8") == 0 &&
		  strcmp(bloom_hash_name(3), "murmur3_x64_128_guava") == 0 &&
		  strcmp(bloom_hash_name(4), "murmur64a_redisbloom") == 0 &&
		  bloom_hash_name(0) == NULL && bloom_hash_name(6) == NULL, "hash id names");
}

/*
 * A scalable filter whose payload prefix was damaged after validation (an
 * expansion of 0, say) must neither crash a reader nor answer "absent".
 */
static void
test_scalable_damaged_prefix(void)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_SCALABLE);
	BloomHeader hdr;
	uint64_t	bytes;
	uint8_t    *payload;
	BloomHash	h[3];
	bool		present = true;

	CHECK(bloom_scalable_header(&hdr, 100, 0.01, 0, 2, &bytes), "no room for a small scalable filter");
	payload = calloc(1, bytes);
	bloom_scalable_init(&hdr, 2, payload);
	for (int i = 0; i < 3; i++)
		h[i] = bloom_hash_int64(i, 0);
	CHECK(l->add(&hdr, payload, h, 3) == 3, "three adds to an empty scalable filter");
	memset(payload, 0, 4);		/* expansion 0 */
	CHECK(l->check_payload(&hdr, payload) != BLOOM_OK, "a zero expansion validates");
	CHECK(l->add(&hdr, payload, h, 3) == 3, "adds to a damaged filter did not return");
	CHECK(l->grown_bytes(&hdr, payload) == 0, "a damaged filter offers to grow");
	for (int i = 0; i < 100; i++)
		present &= bloom_test_payload(l, &hdr, payload, bloom_hash_int64(1000 + i, 0));
	CHECK(present, "a damaged scalable filter answered absent");
	free(payload);
}

/* a scalable filter of capacity at rate, growing by expansion, with elements [from, to) */
static uint8_t *
unit_scalable_of(BloomHeader *hdr, uint64_t capacity, double rate, uint32_t expansion,
				 int64_t from, int64_t to)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_SCALABLE);
	uint64_t	bytes;
	uint8_t    *payload;

	bloom_scalable_header(hdr, capacity, rate, 0, expansion, &bytes);
	payload = calloc(1, bytes);
	bloom_scalable_init(hdr, expansion, payload);
	for (int64_t i = from; i < to; i++)
	{
		BloomHash	h = bloom_hash_int64(i, 0);

		while (l->add(hdr, payload, &h, 1) == 0)
		{
			uint8_t    *grown = calloc(1, l->grown_bytes(hdr, payload));

			l->grow(hdr, payload, grown);
			free(payload);
			payload = grown;
		}
	}
	return payload;
}

/* the same at 1%, expansion 2 */
static uint8_t *
unit_scalable(BloomHeader *hdr, uint64_t capacity, int64_t from, int64_t to)
{
	return unit_scalable_of(hdr, capacity, 0.01, 2, from, to);
}

/*
 * Walk a scalable filter's directory into dir, predicting the rest into
 * predicted once the first head is read; returns how many pieces were
 * predicted (-1: the walk ended first), *wrong how many of them the walk
 * did not find there.
 */
static int
unit_scalable_walk(const BloomHeader *hdr, const uint8_t *payload, BloomDir *dir,
				   BloomDir *predicted, int *wrong)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_SCALABLE);
	BloomSpan	next,
				pieces[BLOOM_MAX_PARTS];
	const uint8_t *piece = NULL;
	int			npieces = -1,
				steps = 0;

	*wrong = 0;
	memset(dir, 0, sizeof(*dir));
	dir->payload_len = l->payload_bytes(hdr);
	while (l->dir_next(hdr, dir, piece, &next) == BLOOM_OK && next.len > 0)
	{
		if (steps == 1)
		{
			*predicted = *dir;
			npieces = l->dir_predict(hdr, predicted, pieces, BLOOM_MAX_PARTS);
		}
		if (steps >= 1 && steps - 1 < npieces)
			*wrong += pieces[steps - 1].offset != next.offset ||
				pieces[steps - 1].len != next.len;
		piece = payload + next.offset;
		steps++;
	}
	return next.len == 0 ? npieces : -1;
}

/*
 * A scalable filter's directory: every sub-filter's head where the walk
 * finds it, all predicted right once the first is read (so a stored
 * value's walk fetches them, and an element's spans, at once), spans
 * inside the payload, members found.
 */
static void
test_scalable_directory(void)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_SCALABLE);
	BloomHeader hdr;
	uint8_t    *payload = unit_scalable(&hdr, 1000, 0, 31000);
	uint64_t	plen = l->payload_bytes(&hdr);
	BloomDir	dir,
				predicted;
	int			wrong;
	int			npieces = unit_scalable_walk(&hdr, payload, &dir, &predicted, &wrong);
	bool		all = true;

	CHECK(dir.nparts == 5 && hdr.nhashes == 5, "scalable directory of %d parts", dir.nparts);
	CHECK(npieces == 4 && wrong == 0 &&
		  memcmp(predicted.part, dir.part, sizeof(BloomPart) * 5) == 0,
		  "scalable directory predicted: %d pieces, %d wrong", npieces, wrong);
	for (int64_t i = 0; i < 31000; i++)
	{
		BloomSpan	spans[BLOOM_MAX_SPANS];
		int			n = l->spans(&dir, bloom_hash_int64(i, 0), spans);

		for (int j = 0; j < n; j++)
			all &= spans[j].offset + spans[j].len <= plen;
		all &= n == 5 && bloom_test_payload(l, &hdr, payload, bloom_hash_int64(i, 0));
	}
	CHECK(all, "scalable spans: a member not found or a span outside");
	free(payload);
}

/*
 * What a stored check predicts of a scalable filter's directory, for many
 * chains (more than core/scalable.c remembers, so the first ones are
 * forgotten by the time they are walked): once a walk has read a chain's
 * heads, the next prediction is every sub-filter, each of the shape the
 * sizing search gives its capacity and rate.
 */
static void
test_scalable_predicted(void)
{
	const uint64_t capacities[] = {3, 40, 700};
	const double rates[] = {0.2, 0.01, 1e-4};
	const uint32_t expansions[] = {1, 2, 3};
	BloomHeader hdrs[27];
	uint8_t    *payloads[27];
	int			wrong_shape = 0,
				unpredicted = 0;

	for (int c = 0; c < 27; c++)
	{
		uint64_t	cap = capacities[c / 9];
		uint32_t	e = expansions[c % 3];

		payloads[c] = unit_scalable_of(&hdrs[c], cap, rates[c / 3 % 3], e, 0,
									   (int64_t) (cap * (1 + e + e * e) + 1));
	}
	/* a group's chains differ only in expansion: all walked, then predicted */
	for (int c = 0; c < 27; c++)
	{
		BloomDir	dir,
					predicted;
		int			wrong;
		uint64_t	capacity = hdrs[c].capacity;

		if (c % 3 == 0)
			for (int j = c; j < c + 3; j++)
				unit_scalable_walk(&hdrs[j], payloads[j], &dir, &predicted, &wrong);
		unpredicted += unit_scalable_walk(&hdrs[c], payloads[c], &dir, &predicted,
										  &wrong) != dir.nparts - 1 || wrong != 0 ||
			memcmp(predicted.part, dir.part, sizeof(BloomPart) * dir.nparts) != 0;
		for (int i = 0; i < dir.nparts; i++)
		{
			uint64_t	nbits;
			int			k;

			bloom_size_search(capacity, ldexp(hdrs[c].error_rate, -(i + 1)), &nbits, &k);
			wrong_shape += dir.part[i].size != nbits / BLOOM_BLOCK_BITS ||
				dir.part[i].width != (uint32_t) k;
			capacity *= expansions[c % 3];
		}
		unpredicted += dir.nparts < 3;
	}
	for (int c = 0; c < 27; c++)
		free(payloads[c]);
	CHECK(unpredicted == 0 && wrong_shape == 0,
		  "scalable predictions: %d chains not predicted whole, %d shapes not sizing's",
		  unpredicted, wrong_shape);
}

/*
 * The union check of scalable filters: parts that fit pass, a filter with
 * itself passes (the fill does not grow), two full parts are refused at
 * their first sub-filter, with an estimate above its share of the rate.
 */
static void
test_scalable_union_overfills(void)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_SCALABLE);
	BloomHeader ha,
				hb,
				hc;
	uint8_t    *a = unit_scalable(&ha, 1000, 0, 400);
	uint8_t    *b = unit_scalable(&hb, 1000, 400, 900);
	uint8_t    *c = unit_scalable(&hc, 1000, 10000, 11000);
	double		fpp = 0,
				limit = 0;

	CHECK(l->union_overfills(&ha, a, &hb, b, &fpp, &limit) == -1, "400 and 500 in 1000 refused");
	CHECK(l->union_overfills(&hc, c, &hc, c, &fpp, &limit) == -1, "a full filter with itself refused");
	CHECK(l->union_overfills(&hc, c, &hb, b, &fpp, &limit) == 0, "1000 and 500 in 1000 accepted");
	CHECK(limit == 0.005 && fpp > limit, "overfill estimate %g, limit %g", fpp, limit);
	free(a);
	free(b);
	free(c);
}

/*
 * Layout 4: a list of hashes grows, answers exactly, validates, counts
 * distinct hashes within a few percent, and becomes a scalable filter that
 * holds all of them in its first sub-filter.
 */
static void
test_hashes_layout(void)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_HASHES);
	BloomHeader hdr;
	uint8_t    *payload;
	uint8_t    *whole;
	BloomHeader again;
	bool		all = true,
				none = false;
	const int64_t n = 200000;

	bloom_hashes_header(&hdr, 0.01, 0, 16);
	payload = calloc(1, l->payload_bytes(&hdr));
	bloom_hashes_init(&hdr, 2, payload);
	for (int64_t i = 0; i < 2 * n; i++)
	{
		BloomHash	h = bloom_hash_int64(i % n, 0);	/* each twice */

		while (l->add(&hdr, payload, &h, 1) == 0)
		{
			uint8_t    *grown = calloc(1, l->grown_bytes(&hdr, payload));

			l->grow(&hdr, payload, grown);
			free(payload);
			payload = grown;
		}
	}
	CHECK(hdr.bits_set == (uint64_t) (2 * n) && hdr.capacity >= hdr.bits_set, "count of hashes");
	whole = malloc(BLOOM_HEADER_SIZE + l->payload_bytes(&hdr));
	bloom_header_encode(&hdr, whole);
	memcpy(whole + BLOOM_HEADER_SIZE, payload, l->payload_bytes(&hdr));
	CHECK(bloom_validate(whole, BLOOM_HEADER_SIZE + l->payload_bytes(&hdr), &again) == BLOOM_OK,
		  "a list of hashes fails validation");
	whole[BLOOM_HEADER_SIZE + l->payload_bytes(&hdr) - 1] = 1;	/* a cell past the count */
	CHECK(hdr.bits_set == hdr.capacity ||
		  bloom_validate(whole, BLOOM_HEADER_SIZE + l->payload_bytes(&hdr), &again) != BLOOM_OK,
		  "a non-zero free cell validates");
	free(whole);
	for (int64_t i = 0; i < 1000; i++)
	{
		all &= bloom_test_payload(l, &hdr, payload, bloom_hash_int64(i * 97, 0));
		none |= bloom_test_payload(l, &hdr, payload, bloom_hash_int64(n + i, 0));
	}
	CHECK(all && !none, "a list of hashes answers wrong");
	CHECK(llabs((int64_t) bloom_hashes_distinct(payload, hdr.bits_set) - n) < n / 40,
		  "distinct count %llu for %lld", (unsigned long long) bloom_hashes_distinct(payload, hdr.bits_set),
		  (long long) n);
	CHECK(bloom_hashes_distinct(payload, 10) == 10 && bloom_hashes_distinct(payload, 0) == 0,
		  "small distinct counts");
	{
		BloomHeader sh;
		uint64_t	bytes;
		uint64_t	cap = bloom_hashes_capacity(&hdr, payload);
		uint8_t    *sp;
		BloomHash	batch[256];
		uint64_t	items = 0;

		CHECK(bloom_scalable_header(&sh, cap, 0.01, 0, 2, &bytes), "no scalable filter for the list");
		sp = calloc(1, bytes);
		bloom_scalable_init(&sh, 2, sp);
		for (uint64_t i = 0; i < hdr.bits_set; i += 256)
		{
			size_t		m = hdr.bits_set - i < 256 ? hdr.bits_set - i : 256;

			for (size_t j = 0; j < m; j++)
				batch[j] = bloom_hashes_get(payload, i + j);
			items = bloom_scalable_take(&sh, sp, batch, m);
		}
		CHECK(sh.nhashes == 1 && items <= (uint64_t) n && items > (uint64_t) n * 99 / 100,
			  "the list became %d sub-filters holding %llu", sh.nhashes, (unsigned long long) items);
		CHECK(bloom_layout_for(BLOOM_LAYOUT_SCALABLE)->fpp(&sh, sp) < 0.01, "the list's filter misses its rate");
		free(sp);
	}
	free(payload);
}

/*
 * Row signatures (core/header.h): every list of up to six codable column
 * types round-trips, the documented example encodes as documented, and
 * malformed signatures are refused by the header check.
 */
static void
test_row_signatures(void)
{
	const uint32_t codable[] = {21, 23, 20, 25, 1043, 1042, 19, 17, 2950, 1700, 700, 701,
		16, 18, 1082, 1083, 1266, 1114, 1184, 1186, 869, 650, 26, 790, 829, 774, 1560,
	1562, 3220};
	const int	ncodable = (int) (sizeof(codable) / sizeof(codable[0]));
	uint32_t	types[BLOOM_ROW_MAX_COLUMNS];
	uint32_t	back[BLOOM_ROW_MAX_COLUMNS];
	uint32_t	example[] = {23, 1082};
	uint32_t	seed = 12345;

	CHECK(bloom_row_key_encode(example, 2) == UINT32_C(0x800001E2),
		  "ROW(integer, date) is 0x%08x", bloom_row_key_encode(example, 2));
	for (int trial = 0; trial < 5000; trial++)
	{
		int			n = 1 + trial % BLOOM_ROW_MAX_COLUMNS;
		uint32_t	key;
		int			m;

		for (int i = 0; i < n; i++)
		{
			seed = seed * 1103515245 + 12345;
			types[i] = codable[(seed >> 8) % ncodable];
		}
		key = bloom_row_key_encode(types, n);
		m = bloom_row_key_decode(key, back);
		CHECK(key != 0 && m == n && bloom_key_type_valid(key), "round trip of %d columns", n);
		for (int i = 0; i < m && i < n; i++)
			CHECK(back[i] == types[i], "column %d", i);
	}
	types[0] = 2249;			/* record: no code */
	CHECK(bloom_row_key_encode(types, 1) == 0, "a record column has no code");
	CHECK(bloom_row_key_encode(codable, 7) == 0, "seven columns have no signature");
	CHECK(bloom_row_key_encode(codable, 0) == 0, "nor do none");
	CHECK(!bloom_key_type_valid(UINT32_C(0x80000000)), "no columns");
	CHECK(!bloom_key_type_valid(UINT32_C(0x8000001F)), "code 31 is no type");
	CHECK(!bloom_key_type_valid(UINT32_C(0x80000001) | (UINT32_C(2) << 10)),
		  "a column after the end");
	CHECK(!bloom_key_type_valid(UINT32_C(0x80000001) | (UINT32_C(1) << 30)),
		  "a bit above the columns");
	CHECK(bloom_key_type_valid(23) && bloom_key_type_valid(0) &&
		  !bloom_key_type_valid(10000), "type OIDs as before");
	CHECK(bloom_key_type_valid(UINT32_C(0x800001E2)) &&
		  bloom_key_type_readable(UINT32_C(0x800001E2)) && bloom_key_type_readable(9999) &&
		  !bloom_key_type_valid(9999), "input takes listed types and rows, a read any below 10000");
}

/*
 * A scalable value from outside: its fill divisor 1, its sub-filters'
 * key types 0.  Values that only a read checks (a stored value) keep
 * working with another divisor, and a layout's finish sets it to 1.
 */
static void
test_scalable_validation(void)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_SCALABLE);
	BloomHeader hdr;
	BloomHeader got;
	uint8_t    *payload = unit_scalable(&hdr, 100, 0, 250);
	size_t		len = bloom_total_bytes(&hdr);
	uint8_t    *value = malloc(len);
	/* prefix at 48, the first sub-filter's count at 64, its header at 72 */
	const size_t divisor_at = BLOOM_HEADER_SIZE + 4;
	const size_t sub_key_at = BLOOM_HEADER_SIZE + 16 + 8 + BLOOM_OFF_KEY_TYPE;

	bloom_header_encode(&hdr, value);
	memcpy(value + BLOOM_HEADER_SIZE, payload, len - BLOOM_HEADER_SIZE);
	CHECK(hdr.nhashes >= 2 && bloom_validate(value, len, &got) == BLOOM_OK,
		  "a grown scalable filter is invalid");
	CHECK(validate_mutated(value, len, divisor_at, 2, len) == BLOOM_BAD_DIVISOR,
		  "fill divisor 2 accepted");
	CHECK(validate_mutated(value, len, divisor_at + 3, 0x80, len) == BLOOM_BAD_DIVISOR,
		  "fill divisor 2^31+1 accepted");
	CHECK(validate_mutated(value, len, divisor_at, 0, len) == BLOOM_BAD_RESERVED,
		  "fill divisor 0 accepted");
	CHECK(validate_mutated(value, len, sub_key_at, 20, len) == BLOOM_BAD_SUB_KEY_TYPE,
		  "a sub-filter's key type accepted");
	CHECK(validate_mutated(value, len, BLOOM_OFF_KEY_TYPE, 20, len) == BLOOM_OK,
		  "a scalable filter of int8 keys refused");
	/* a sub-filter of another layout, with its own hash id: refused as such */
	for (int layout = 2; layout <= 6; layout++)
	{
		static const uint8_t hash_of[] = {0, 0, 2, 2, 2, 3, 4};
		uint8_t    *bad = malloc(len);
		BloomCheck	check;

		memcpy(bad, value, len);
		bad[sub_key_at - BLOOM_OFF_KEY_TYPE + 5] = (uint8_t) layout;
		bad[sub_key_at - BLOOM_OFF_KEY_TYPE + 6] = hash_of[layout];
		check = bloom_validate(bad, len, &got);
		CHECK(check == BLOOM_BAD_LAYOUT, "a sub-filter of layout %d refused as: %s", layout,
			  bloom_check_message(check));
		free(bad);
	}

	/* a stored value with another divisor: finish makes it a plain value */
	value[divisor_at] = 5;
	CHECK(bloom_validate_header(&hdr, len) == BLOOM_OK, "a read refuses a divisor");
	l->finish(&hdr, value + BLOOM_HEADER_SIZE);
	CHECK(bloom_validate(value, len, &got) == BLOOM_OK, "finish leaves the divisor");
	free(value);
	free(payload);
}

/*
 * Layout 6: RedisBloom's hash, pinned (docs/format.md's table), and a chain
 * built through the layout table byte for byte as RedisBloom 2.4.9 built
 * it (BF.RESERVE k3 0.05 3 EXPANSION 1 and seven BF.MADDs; the dump
 * sql/redisbloom.sql pins), its dump read back, and every member present.
 */
static void
test_redisbloom(void)
{
	static const struct
	{
		const char *key;
		uint64_t	a,
					b;
	}			vec[] = {
		{"", UINT64_C(0x1ab11ea5a7b2c56e), UINT64_C(0xbbddcb5ab56dd547)},
		{"1", UINT64_C(0x447dd899fc2bb5ea), UINT64_C(0x6beceac5ee0df626)},
		{"-42", UINT64_C(0x83a1d7ebae665eab), UINT64_C(0x98fc0ad75e8bfd55)},
		{"\xd0\xba\xd0\xbb\xd1\x8e\xd1\x87", UINT64_C(0xc43a53f2f63c8353), UINT64_C(0x624c643129ab114f)},
		{"abcdefghi", UINT64_C(0xa2c004e44bd0a465), UINT64_C(0x28459a22cef68950)},
	};
	static const char *const members[] = {"\x00", "\x00\xff", "\xde\xad\xbe\xef", "",
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff", "ab", "abc\x00"};
	static const size_t lens[] = {1, 2, 4, 0, 9, 2, 4};
	static const uint8_t links[] = {
		0x4d, 0x00, 0x30, 0x60, 0x10, 0x89, 0x8c, 0x02,
		0x08, 0x26, 0x02, 0x11, 0x80, 0x58, 0x75, 0x15,
	0x02, 0x00, 0x28, 0x00, 0x80, 0x0a, 0x00, 0xa0};
	const BloomLayout *layout = bloom_layout_for(BLOOM_LAYOUT_REDISBLOOM);
	BloomHeader hdr,
				back;
	uint64_t	payload_bytes;
	uint8_t    *buf;
	const char *why;

	for (size_t i = 0; i < sizeof(vec) / sizeof(vec[0]); i++)
	{
		BloomHash	h = bloom_redis_hash(vec[i].key, strlen(vec[i].key));

		CHECK(h.h1 == vec[i].a && h.h2 == vec[i].b, "RedisBloom hash of key %zu", i);
	}
	CHECK(bloom_redis_header(&hdr, 3, 0.05, 1, &payload_bytes), "a chain for 3 at 0.05");
	buf = calloc(1, BLOOM_HEADER_SIZE + 4096);
	bloom_redis_init(&hdr, 1, buf + BLOOM_HEADER_SIZE);
	for (size_t i = 0; i < 7; i++)
	{
		BloomHash	h = bloom_redis_hash(members[i], lens[i]);
		size_t		done;

		while ((done = layout->add(&hdr, buf + BLOOM_HEADER_SIZE, &h, 1)) == 0)
		{
			CHECK(layout->grown_bytes(&hdr, buf + BLOOM_HEADER_SIZE) < 4096, "growth fits");
			layout->grow(&hdr, buf + BLOOM_HEADER_SIZE, buf + BLOOM_HEADER_SIZE);
		}
	}
	CHECK(hdr.nhashes == 3 && hdr.nbits == 192, "three links of 64 bits");
	CHECK(memcmp(buf + BLOOM_HEADER_SIZE + bloom_redis_head_bytes(&hdr), links, sizeof(links)) == 0,
		  "the links' bytes are RedisBloom's");
	bloom_header_encode(&hdr, buf);
	CHECK(bloom_validate(buf, BLOOM_HEADER_SIZE + layout->payload_bytes(&hdr), &back) == BLOOM_OK,
		  "the chain validates");
	CHECK(bloom_redis_read_head(buf + BLOOM_HEADER_SIZE, bloom_redis_head_bytes(&hdr), &back, &why) == BLOOM_OK &&
		  back.capacity == 3 && back.error_rate == 0.05 && back.nbits == 192, "its dump's header reads back");
	for (size_t i = 0; i < 7; i++)
		CHECK(bloom_test_payload(layout, &hdr, buf + BLOOM_HEADER_SIZE,
								 bloom_redis_hash(members[i], lens[i])), "member %zu present", i);
	free(buf);
}

/*
 * Every shape of chain RedisBloom's bloom_init and SBChain_Add make, as
 * docs/format.md spells them out ("A new link"), for each option set
 * (NOROUND, what BF.RESERVE makes; rounded to a power of two, what older
 * modules made; ENTS_IS_BITS, which no command sets and which input takes
 * only in a NONSCALING chain), NONSCALING or not, over capacities, rates
 * and growths: each chain reads back (the checks on a link's entries, size
 * and bpe and on the links' succession refuse nothing genuine), and each
 * link with its entries just past what its bits hold, or its size past its
 * entries, is refused with the check that names that field.  Only the
 * chain header is built: the checks read no bits.
 */
#define RBT_LN2		0.693147180559945
#define RBT_LN2SQ	0.480453013918201

typedef struct RbtLink
{
	uint64_t	bytes,
				bits,
				size;
	double		error,
				bpe;
	uint32_t	hashes;
	uint64_t	entries;
	uint8_t		n2;
} RbtLink;

/* bloom_init, from format.md's words; false where it fails or leaves 64 bits of shift */
static bool
rbt_link(RbtLink *l, uint64_t entries, double error, uint32_t options)
{
	uint64_t	bits;

	memset(l, 0, sizeof(*l));
	if (entries < 1 || !(error > 0 && error < 1))
		return false;
	l->error = error;
	l->entries = entries;
	l->bpe = fabs(log(error) / RBT_LN2SQ);
	if (options & 2)
	{
		if (entries > 63)
			return false;
		l->n2 = (uint8_t) entries;
		bits = UINT64_C(1) << l->n2;
		l->entries = (uint64_t) ((double) bits / l->bpe);
	}
	else if (options & 1)
	{
		if ((double) entries * l->bpe >= 1e19)
			return false;
		bits = (uint64_t) ((double) entries * l->bpe);
	}
	else
	{
		double		want = (double) entries * l->bpe;
		double		bn2 = logb(want);

		if (!(bn2 >= 0 && bn2 < 63))
			return false;
		l->n2 = (uint8_t) (bn2 + 1);
		bits = UINT64_C(1) << l->n2;
		l->entries += (uint64_t) ((double) (uint64_t) ((double) bits - want) / l->bpe);
	}
	l->bytes = bits % 64 ? (bits / 64 + 1) * 8 : bits / 8;
	l->bits = l->bytes * 8;
	l->hashes = (uint32_t) ceil(RBT_LN2 * l->bpe);
	return l->bytes > 0 && l->bytes <= BLOOM_MAX_BYTES / 4 && l->hashes <= 2048;
}

static void
rbt_encode(uint8_t *head, uint64_t size, uint32_t n, uint32_t options, uint32_t growth,
		   const RbtLink *links)
{
	bloom_store64le(head, size);
	bloom_store32le(head + 8, n);
	bloom_store32le(head + 12, options);
	bloom_store32le(head + 16, growth);
	for (uint32_t i = 0; i < n; i++)
	{
		uint8_t    *e = head + 20 + 53 * i;
		uint64_t	u;

		bloom_store64le(e, links[i].bytes);
		bloom_store64le(e + 8, links[i].bits);
		bloom_store64le(e + 16, links[i].size);
		memcpy(&u, &links[i].error, 8);
		bloom_store64le(e + 24, u);
		memcpy(&u, &links[i].bpe, 8);
		bloom_store64le(e + 32, u);
		bloom_store32le(e + 40, links[i].hashes);
		bloom_store64le(e + 44, links[i].entries);
		e[52] = links[i].n2;
	}
}

static void
test_redisbloom_shapes(void)
{
	static const uint32_t option_sets[] = {5, 4, 6, 13, 12, 14, 7};
	static const uint32_t growths[] = {1, 2, 3, 4, 7, 100, 1024};
	static const double rates[] = {0.9, 0.5, 0.3, 0.1, 0.05, 0.01, 1e-3, 1e-4, 1e-6, 1e-9, 1e-12, 1e-30};
	RbtLink		links[64];
	uint8_t		head[20 + 53 * 64];
	uint64_t	state = 42;
	long		chains = 0,
				refused = 0,
				forged = 0,
				ents_refused = 0;

	for (size_t o = 0; o < sizeof(option_sets) / sizeof(option_sets[0]); o++)
		for (size_t g = 0; g < sizeof(growths) / sizeof(growths[0]); g++)
			for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]) + 8; r++)
				for (int c = 0; c < 40; c++)
				{
					uint32_t	options = option_sets[o];
					bool		scaling = !(options & 8);
					double		rate;
					uint64_t	capacity,
								total = 0,
								nbits = 0;
					uint32_t	n = 0;
					BloomHeader hdr;
					const char *why;
					BloomCheck	check;

					state = state * 6364136223846793005ULL + 1442695040888963407ULL;
					rate = r < sizeof(rates) / sizeof(rates[0]) ? rates[r] :
						(double) ((state >> 11) | 1) / 9007199254740992.0;
					/* capacities 1, 2, ... and then a spread up to about 2^40 */
					capacity = options & 2 ? (uint64_t) c % 40 + 1 :
						c < 10 ? (uint64_t) c + 1 : (state >> 24) >> (c % 40);
					if (capacity == 0)
						capacity = 1;
					if (!rbt_link(&links[0], capacity, scaling ? rate * 0.5 : rate, options))
						continue;
					/* grow as SBChain_Add does: a link full, the next at entries * growth */
					for (n = 1; scaling && n < 64; n++)
					{
						links[n - 1].size = links[n - 1].entries;
						if (links[n - 1].entries > UINT64_MAX / growths[g] ||
							!rbt_link(&links[n], links[n - 1].entries * growths[g],
									  links[n - 1].error * 0.5, options) ||
							nbits + links[n - 1].bits + links[n].bits > BLOOM_MAX_BYTES * 4)
							break;
						nbits += links[n - 1].bits;
					}
					links[n - 1].size = links[n - 1].entries / 2;
					for (uint32_t i = 0; i < n; i++)
						total += links[i].size;
					/*
					 * A capacity of 0 (ENTS_IS_BITS with few bits at a low
					 * rate) or past int8 is refused as a header, as before.
					 */
					if (links[0].entries == 0 || links[0].entries > (uint64_t) INT64_MAX)
						continue;
					/* a chain of more bytes than a value holds is refused as such */
					nbits = 0;
					for (uint32_t i = 0; i < n; i++)
						nbits += links[i].bits;
					while (n > 1 && nbits / 8 + 20 + 53 * n > BLOOM_MAX_BYTES - 48)
					{
						n--;
						nbits -= links[n].bits;
						total -= links[n].size;
						total += links[n - 1].entries / 2 - links[n - 1].size;
						links[n - 1].size = links[n - 1].entries / 2;
					}
					if (nbits / 8 + 20 + 53 * n > BLOOM_MAX_BYTES - 48)
						continue;
					rbt_encode(head, total, n, options, growths[g], links);
					check = bloom_redis_read_head(head, 20 + 53 * n, &hdr, &why);
					/* ENTS_IS_BITS sizes the next link as 2^(entries * growth) bits */
					if (scaling && (options & 2))
					{
						CHECK(check == BLOOM_BAD_GROWTH, "a scaling ENTS_IS_BITS chain refused as: %s",
							  bloom_check_message(check));
						ents_refused++;
						continue;
					}
					chains++;
					if (check != BLOOM_OK)
						refused++;
					CHECK(check == BLOOM_OK, "genuine chain: options %u growth %u rate %.17g capacity %llu, %u links: %s",
						  options, growths[g], rate, (unsigned long long) capacity, n, why);
					if (check != BLOOM_OK)
						continue;

					/* each link forged: entries just past its bits, size past entries */
					for (uint32_t i = 0; i < n; i++)
					{
						RbtLink		save = links[i];
						double		m = links[i].n2 ? (double) (UINT64_C(1) << links[i].n2) : (double) links[i].bits;
						double		over = ceil((m + 2.0) / links[i].bpe) + 1.0;

						if (over < 1.8e19)
						{
							links[i].entries = (uint64_t) over;
							rbt_encode(head, total, n, options, growths[g], links);
							CHECK(bloom_redis_read_head(head, 20 + 53 * n, &hdr, &why) == BLOOM_BAD_LINK_ENTRIES,
								  "entries past the bits of link %u refused", i);
							forged++;
							links[i] = save;
						}
						links[i].size = links[i].entries + 1;
						rbt_encode(head, total - save.size + links[i].size, n, options, growths[g], links);
						CHECK(bloom_redis_read_head(head, 20 + 53 * n, &hdr, &why) == BLOOM_BAD_LINK_SIZE,
							  "size past entries of link %u refused", i);
						forged++;
						links[i] = save;
					}
				}
	printf("# RedisBloom shapes: %ld genuine chains (%ld refused), %ld forged links refused, "
		   "%ld scaling ENTS_IS_BITS chains refused\n", chains, refused, forged, ents_refused);
	CHECK(chains > 10000, "enough shapes");
}

int
main(void)
{
	test_smhasher_verification();
	test_int_canonical();
	test_layout_pinned();
	test_mask_properties();
	test_byte_order_of_bits();
	test_block_test_hash();
	test_block_add_hash();
	test_header_codec();
	test_validation();
	test_sizing();
	test_measured_fpr();
	test_batch_matches_single();
	test_answer_many_matches_single();
	test_counting_add_matches_walk();
	test_union_intersect();
	test_base64();
	test_readme_recipe();
	test_layout_table();
	test_scalable_damaged_prefix();
	test_scalable_union_overfills();
	test_scalable_directory();
	test_scalable_predicted();
	test_hashes_layout();
	test_row_signatures();
	test_key_types();
	test_scalable_validation();
	test_redisbloom();
	test_redisbloom_shapes();

	printf("%d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
