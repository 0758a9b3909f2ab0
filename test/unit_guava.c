/*-------------------------------------------------------------------------
 *
 * unit_guava.c
 *	  Unit tests of layout 5 (core/guava.c), no server: Guava's hashes and
 *	  sizing pinned from Guava 31.1, the bit recipe of docs/format.md
 *	  followed literally on an array of 64-bit words, the layout's checks
 *	  against it (from the whole payload and from the spans), the
 *	  serialized form and every way a prefix can be wrong.
 *
 * test/unit_guava.c
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/guava.h"
#include "unit.h"

/* splitmix64, for reproducible hashes */
static uint64_t
next_random(uint64_t *state)
{
	uint64_t	z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* a hash as Guava's HashCode.toString shows it: h1 then h2, bytes little-endian */
static void
hash_hex(BloomHash h, char *out)
{
	for (int i = 0; i < 16; i++)
	{
		uint64_t	w = i < 8 ? h.h1 : h.h2;

		sprintf(out + 2 * i, "%02x", (unsigned) ((w >> (8 * (i % 8))) & 0xff));
	}
}

/* Hashing.murmur3_128() of what the four funnels write, printed by Guava */
static void
test_hashes(void)
{
	uint8_t		i8[8] = {42, 0, 0, 0, 0, 0, 0, 0};
	uint8_t		i4[4] = {42, 0, 0, 0};
	const char *text = "h\xc3\xa9llo";
	uint8_t		bytes[3] = {1, 2, 3};
	char		hex[33];

	hash_hex(bloom_hash(i8, 8, 0), hex);
	CHECK(strcmp(hex, "f87dd28999c3acb6802ff296fb17b924") == 0, "hashLong(42): %s", hex);
	hash_hex(bloom_hash_int64(42, 0), hex);
	CHECK(strcmp(hex, "f87dd28999c3acb6802ff296fb17b924") == 0, "inline hashLong(42): %s", hex);
	hash_hex(bloom_hash(i4, 4, 0), hex);
	CHECK(strcmp(hex, "cf346e1ce6486f2816b8bc2b6a3dd2e2") == 0, "hashInt(42): %s", hex);
	hash_hex(bloom_hash(text, strlen(text), 0), hex);
	CHECK(strcmp(hex, "8a5c8572117b314e05bd7394dc339d41") == 0, "hashString(héllo): %s", hex);
	hash_hex(bloom_hash(bytes, 3, 0), hex);
	CHECK(strcmp(hex, "a937130eef3e641a659a233c404a4e49") == 0, "hashBytes(1,2,3): %s", hex);
}

/* BloomFilter.create(funnel, n, p): longs and hash functions, -1 if refused */
static const struct
{
	int64_t		n;
	double		p;
	int64_t		nlongs;
	int			nhashes;
}			guava_sizes[] = {
	{1, 0.5, 1, 1},
	{1, 0.3, 1, 1},
	{3, 0.9, -1, -1},
	{10, 0.1, 1, 3},
	{100, 0.05, 10, 4},
	{1000, 0.01, 150, 7},
	{1000, 0.03, 115, 5},
	{4096, 1.0E-4, 1227, 13},
	{12345, 1.0E-6, 5547, 20},
	{100000, 0.001, 22465, 10},
	{1000000, 0.03, 114039, 5},
	{1000000, 1.0E-9, 673950, 30},
	{5, 1.0E-60, 23, 199},
	{7, 1.0E-30, 16, 100},
};

static void
test_sizing(void)
{
	for (size_t i = 0; i < sizeof(guava_sizes) / sizeof(guava_sizes[0]); i++)
	{
		uint64_t	nlongs = 0;
		int			k = 0;
		BloomGuavaCheck check = bloom_guava_size(guava_sizes[i].n, guava_sizes[i].p, &nlongs, &k);

		if (guava_sizes[i].nlongs < 0)
			CHECK(check != BLOOM_GUAVA_OK, "n %lld p %g: Guava refuses",
				  (long long) guava_sizes[i].n, guava_sizes[i].p);
		else
			CHECK(check == BLOOM_GUAVA_OK && nlongs == (uint64_t) guava_sizes[i].nlongs &&
				  k == guava_sizes[i].nhashes, "n %lld p %g: %llu longs, k %d",
				  (long long) guava_sizes[i].n, guava_sizes[i].p,
				  (unsigned long long) nlongs, k);
	}
	/* what Guava's code does at its edges: n 0 is 1, p 0 is Double.MIN_VALUE */
	CHECK(bloom_guava_optimal_bits(0, 0.5) == 0, "n 0 bits");
	CHECK(bloom_guava_optimal_bits(1, 0.0) == 1549, "p 0 (Double.MIN_VALUE, ln -744.44): %lld bits",
		  (long long) bloom_guava_optimal_bits(1, 0.0));
	CHECK(bloom_guava_optimal_bits(INT64_MAX, 1e-9) == INT64_MAX, "a cast saturates");
	CHECK(bloom_guava_optimal_hashes(1, 0) == 1, "at least one hash function");
	CHECK(bloom_guava_optimal_hashes(1000, 0) == 1, "k of 0 bits");
	{
		uint64_t	nlongs;
		int			k;

		CHECK(bloom_guava_size(0, 0.5, &nlongs, &k) == BLOOM_GUAVA_OK && nlongs == 1,
			  "n 0 sized as n 1");
		CHECK(bloom_guava_size(INT64_C(9000000000), 1e-9, &nlongs, &k) == BLOOM_GUAVA_TOO_LARGE,
			  "too large");
		CHECK(bloom_guava_size(10, 1e-80, &nlongs, &k) == BLOOM_GUAVA_NHASHES && k == 266,
			  "266 hash functions: %d", k);
	}
}

/*
 * The recipe of docs/format.md, literally: Java longs, bit i in long i / 64
 * at 1L << (i % 64), index (combined & Long.MAX_VALUE) % bitSize.
 */
static void
recipe_put(uint64_t *longs, uint64_t nlongs, int k, BloomHash h)
{
	int64_t		combined = (int64_t) h.h1;

	for (int i = 0; i < k; i++)
	{
		uint64_t	index = (uint64_t) (combined & INT64_MAX) % (nlongs * 64);

		longs[index / 64] |= UINT64_C(1) << (index % 64);
		combined = (int64_t) ((uint64_t) combined + h.h2);
	}
}

static bool
recipe_test(const uint64_t *longs, uint64_t nlongs, int k, BloomHash h)
{
	int64_t		combined = (int64_t) h.h1;

	for (int i = 0; i < k; i++)
	{
		uint64_t	index = (uint64_t) (combined & INT64_MAX) % (nlongs * 64);

		if (!(longs[index / 64] & (UINT64_C(1) << (index % 64))))
			return false;
		combined = (int64_t) ((uint64_t) combined + h.h2);
	}
	return true;
}

/* a spans check as a stored value's: only the spans' bytes, copied out */
static int
answer_by_spans(const BloomLayout *layout, const BloomHeader *hdr, const uint8_t *payload,
				BloomHash h)
{
	BloomDir	dir;
	BloomSpan	spans[BLOOM_MAX_SPANS];
	uint8_t    *copies[BLOOM_MAX_SPANS];
	const uint8_t *at[BLOOM_MAX_SPANS];
	int			n,
				answer;

	if (bloom_dir_read(layout, hdr, payload, layout->payload_bytes(hdr), &dir) != BLOOM_OK)
		return -1;
	n = layout->spans(&dir, h, spans);
	for (int i = 0; i < n; i++)
	{
		copies[i] = malloc(spans[i].len);
		memcpy(copies[i], payload + spans[i].offset, spans[i].len);
		at[i] = copies[i];
	}
	answer = layout->answer(&dir, at, h, false);
	for (int i = 0; i < n; i++)
		free(copies[i]);
	return answer;
}

static void
test_bits_one(int64_t n, double p, int nadd, uint64_t seed)
{
	const BloomLayout *layout = bloom_layout_for(BLOOM_LAYOUT_GUAVA);
	BloomHeader hdr;
	uint8_t    *payload;
	uint8_t    *whole;
	uint64_t   *longs;
	uint64_t	nlongs,
				state = seed;
	int			mismatches = 0,
				absent = 0,
				span_mismatches = 0;

	CHECK(bloom_guava_header(&hdr, n, p, BLOOM_GUAVA_KEY_INT8) == BLOOM_GUAVA_OK, "header");
	nlongs = hdr.nbits / 64;
	payload = calloc(nlongs, 8);
	longs = calloc(nlongs, 8);
	for (int i = 0; i < nadd; i++)
	{
		BloomHash	h = {next_random(&state), next_random(&state)};

		layout->add(&hdr, payload, &h, 1);
		recipe_put(longs, nlongs, hdr.nhashes, h);
	}
	for (uint64_t w = 0; w < nlongs; w++)
		mismatches += bloom_load64le(payload + 8 * w) != longs[w];
	CHECK(mismatches == 0, "n %lld p %g: %d words differ from the recipe", (long long) n, p, mismatches);
	CHECK(layout->check_payload(&hdr, payload) == BLOOM_OK, "bits set counted");
	/* members, then as many others, from the payload and from the spans alone */
	state = seed;
	for (int i = 0; i < 2 * nadd; i++)
	{
		BloomHash	h = {next_random(&state), next_random(&state)};
		int			got = bloom_answer_payload(layout, &hdr, payload, h, false);

		if (i < nadd && got != 1)
			absent++;
		if (got != (int) recipe_test(longs, nlongs, hdr.nhashes, h))
			mismatches++;
		if (answer_by_spans(layout, &hdr, payload, h) != got)
			span_mismatches++;
	}
	CHECK(absent == 0, "n %lld p %g: %d members absent", (long long) n, p, absent);
	CHECK(mismatches == 0, "n %lld p %g: %d answers differ from the recipe", (long long) n, p, mismatches);
	CHECK(span_mismatches == 0, "n %lld p %g: %d answers from spans differ", (long long) n, p, span_mismatches);

	/* the serialized form: prefix, then the same words big-endian, and back */
	{
		uint64_t	len = bloom_guava_serialized_bytes(&hdr);
		uint8_t    *ser = malloc(len + 1);
		BloomHeader back;
		int			k;
		uint64_t	nl;
		bool		be = true;

		whole = calloc(nlongs, 8);
		bloom_guava_write(&hdr, payload, ser);
		CHECK(ser[0] == 1 && ser[1] == hdr.nhashes, "prefix");
		for (uint64_t w = 0; w < nlongs && be; w++)
			for (int i = 0; i < 8; i++)
				be &= ser[6 + 8 * w + i] == (uint8_t) (longs[w] >> (8 * (7 - i)));
		CHECK(be, "longs big-endian");
		CHECK(bloom_guava_read_prefix(ser, len, &k, &nl) == BLOOM_GUAVA_OK && k == hdr.nhashes &&
			  nl == nlongs, "prefix read back");
		bloom_guava_read(ser, k, nl, BLOOM_GUAVA_KEY_INT8, &back, whole);
		CHECK(memcmp(whole, payload, nlongs * 8) == 0 && back.bits_set == hdr.bits_set &&
			  back.nbits == hdr.nbits && back.nhashes == hdr.nhashes, "read back");
		CHECK(layout->check_header(&back, nlongs * 8) == BLOOM_OK, "read back header valid");
		/* every shorter length is truncated, one more byte is trailing */
		for (uint64_t l = 0; l < len; l += (len > 4096 ? 97 : 1))
			CHECK(bloom_guava_read_prefix(ser, l, &k, &nl) == BLOOM_GUAVA_TRUNCATED, "len %llu",
				  (unsigned long long) l);
		CHECK(bloom_guava_read_prefix(ser, len + 1, &k, &nl) == BLOOM_GUAVA_TRAILING, "trailing");
		free(ser);
		free(whole);
	}
	free(payload);
	free(longs);
}

static void
test_bits(void)
{
	test_bits_one(1, 0.5, 3, 1);
	test_bits_one(10, 0.1, 10, 2);
	test_bits_one(1000, 0.01, 1000, 3);
	test_bits_one(1000, 0.01, 5000, 4);
	test_bits_one(100000, 1e-6, 100000, 5);
	test_bits_one(50, 1e-60, 50, 6);	/* k 199: the whole payload is the span */
}

static void
test_prefixes(void)
{
	uint8_t		buf[6 + 8] = {1, 3, 0, 0, 0, 1};
	int			k;
	uint64_t	nl;

	CHECK(bloom_guava_read_prefix(buf, sizeof(buf), &k, &nl) == BLOOM_GUAVA_OK, "valid");
	buf[0] = 0;
	CHECK(bloom_guava_read_prefix(buf, sizeof(buf), &k, &nl) == BLOOM_GUAVA_OLD_STRATEGY, "MITZ_32");
	for (int o = 2; o < 256; o++)
	{
		buf[0] = (uint8_t) o;
		CHECK(bloom_guava_read_prefix(buf, sizeof(buf), &k, &nl) == BLOOM_GUAVA_STRATEGY, "ordinal %d", o);
	}
	buf[0] = 1;
	buf[1] = 0;
	CHECK(bloom_guava_read_prefix(buf, sizeof(buf), &k, &nl) == BLOOM_GUAVA_NHASHES, "k 0");
	buf[1] = 255;
	CHECK(bloom_guava_read_prefix(buf, sizeof(buf), &k, &nl) == BLOOM_GUAVA_OK && k == 255, "k 255");
	memcpy(buf + 2, "\x00\x00\x00\x00", 4);
	CHECK(bloom_guava_read_prefix(buf, sizeof(buf), &k, &nl) == BLOOM_GUAVA_NO_BITS, "0 longs");
	memcpy(buf + 2, "\x80\x00\x00\x00", 4);
	CHECK(bloom_guava_read_prefix(buf, sizeof(buf), &k, &nl) == BLOOM_GUAVA_NO_BITS, "negative longs");
	memcpy(buf + 2, "\x7f\xff\xff\xff", 4);
	CHECK(bloom_guava_read_prefix(buf, sizeof(buf), &k, &nl) == BLOOM_GUAVA_TOO_LARGE, "too large");
	memcpy(buf + 2, "\x00\x00\x00\x02", 4);
	CHECK(bloom_guava_read_prefix(buf, sizeof(buf), &k, &nl) == BLOOM_GUAVA_TRUNCATED, "2 longs, 1 there");
}

static void
test_layout_entry(void)
{
	const BloomLayout *layout = bloom_layout_for(BLOOM_LAYOUT_GUAVA);
	BloomHeader hdr;
	const char *problem;

	CHECK(layout != NULL && layout->id == BLOOM_LAYOUT_GUAVA, "registered");
	problem = bloom_layout_problem(layout);
	CHECK(problem == NULL, "entry: %s", problem ? problem : "");
	bloom_guava_header(&hdr, 100, 0.01, BLOOM_GUAVA_KEY_TEXT);
	CHECK(bloom_validate_header(&hdr, BLOOM_HEADER_SIZE + hdr.nbits / 8) == BLOOM_OK, "valid");
	hdr.hash_id = BLOOM_HASH_MURMUR3_EQ;
	CHECK(bloom_validate_header(&hdr, BLOOM_HEADER_SIZE + hdr.nbits / 8) == BLOOM_BAD_HASH,
		  "hash id 2 refused");
	hdr.hash_id = BLOOM_HASH_GUAVA;
	hdr.layout = BLOOM_LAYOUT_BLOCKED512;
	hdr.nbits = 1024;
	CHECK(bloom_validate_header(&hdr, BLOOM_HEADER_SIZE + 128) == BLOOM_BAD_HASH,
		  "a blocked filter of hash id 3 refused");
	CHECK(strcmp(bloom_hash_name(BLOOM_HASH_GUAVA), "murmur3_x64_128_guava") == 0, "hash name");
}

int
main(void)
{
	test_hashes();
	test_sizing();
	test_bits();
	test_prefixes();
	test_layout_entry();
	printf("unit_guava: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
