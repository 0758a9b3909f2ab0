/*-------------------------------------------------------------------------
 *
 * unit_cuckoo.c
 *	  Unit tests of the cuckoo filter core (src/bloom_cuckoo.c): header,
 *	  sizing, validation, adds, deletes, growth, merging, determinism, and
 *	  measured false-positive rates, without a server.
 *
 *	  usage: unit_cuckoo [--bench]	(--bench: the size table and rates at
 *									 1M and 10M keys too)
 *
 * The pinned checksum of a small filter is the format contract: if it
 * changes, stored filters would answer differently.
 *
 * test/unit_cuckoo.c
 *
 *-------------------------------------------------------------------------
 */
#include "unit.h"
#include "bloom_cuckoo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>



/* a filter in malloc'd memory that grows as the server's does */
typedef struct Filter
{
	uint8_t    *buf;
	CuckooView	v;
} Filter;

static void
filter_new(Filter *f, uint64_t capacity, double rate, uint32_t seed)
{
	int			b,
				fp;
	uint64_t	n;
	size_t		len;

	if (!cuckoo_size(capacity, rate, &b, &fp, &n))
		abort();
	len = cuckoo_empty_bytes(b, fp, n);
	f->buf = malloc(len);
	cuckoo_init(f->buf, capacity, rate, seed, b, fp, n);
	if (cuckoo_open(f->buf, len, &f->v) != CUCKOO_OK)
		abort();
}

static bool
filter_grow(Filter *f, uint64_t n, int fp)
{
	size_t		len = cuckoo_grown_bytes(&f->v, n, fp);
	uint8_t    *dst;

	if (len == 0)
		return false;
	dst = malloc(len);
	cuckoo_grow(&f->v, dst, n, fp);
	free(f->buf);
	f->buf = dst;
	return true;
}

static void
filter_add(Filter *f, BloomHash h)
{
	uint64_t	n;
	int			fp;

	while (!cuckoo_add(&f->v, h))
	{
		if (!cuckoo_next_shape(&f->v, &n, &fp) || !filter_grow(f, n, fp))
			abort();
	}
}

static void
filter_merge(Filter *dst, const Filter *src)
{
	uint64_t	cursor = 0,
				n;
	int			fp;

	while (!cuckoo_merge(&dst->v, &src->v, &cursor, &n, &fp))
		if (!filter_grow(dst, n, fp))
			abort();
}

static BloomHash
key(int64_t k, uint32_t seed)
{
	return bloom_hash_int64(k, seed);
}

static uint64_t
fnv1a(const uint8_t *p, size_t len)
{
	uint64_t	h = UINT64_C(14695981039346656037);

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * UINT64_C(1099511628211);
	return h;
}

/* the fixed layout of a new filter */
static void
test_header(void)
{
	Filter		f;
	CuckooHeader h;

	filter_new(&f, 1000, 0.01, 42);
	CHECK(memcmp(f.buf, "CKOF", 4) == 0, "magic");
	CHECK(f.buf[4] == 1 && f.buf[5] == 2, "version 1, hash id 2");
	CHECK(f.buf[6] == 4 && f.buf[7] == 10, "b=4, f=10 at 1%%: %d %d", f.buf[6], f.buf[7]);
	cuckoo_header_decode(f.buf, &h);
	CHECK(h.seed == 42 && h.nsub == 1 && h.max_kicks == 500 && h.capacity == 1000 &&
		  h.error_rate == 0.01 && h.items == 0, "decoded header");
	CHECK(f.v.sub[0].nbuckets == 266, "buckets: ceil(1000 / (4 * 0.94)) = 266, got %llu",
		  (unsigned long long) f.v.sub[0].nbuckets);
	CHECK(f.v.len == 48 + 24 + (266 * 4 * 10 + 7) / 8, "length %zu", f.v.len);
	free(f.buf);
}

/* bucket size and fingerprint bits from the rate */
static void
test_sizing(void)
{
	static const struct
	{
		double		rate;
		int			b;
		int			f;
	}			cases[] = {
		{0.5, 2, 3}, {0.1, 2, 5}, {0.03, 2, 7}, {0.01, 4, 10}, {0.001, 4, 13},
		{1e-4, 4, 17}, {1e-6, 4, 23}, {1e-8, 4, 30},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		int			b,
					f;
		uint64_t	n;

		CHECK(cuckoo_size(1000000, cases[i].rate, &b, &f, &n), "size %g", cases[i].rate);
		CHECK(b == cases[i].b && f == cases[i].f, "rate %g: b=%d f=%d, expected b=%d f=%d",
			  cases[i].rate, b, f, cases[i].b, cases[i].f);
		CHECK(cuckoo_model_fpp(b, f, 1000000.0 / ((double) n * b)) <= 0.9 * cases[i].rate,
			  "model within 90%% of the rate at %g", cases[i].rate);
	}
	{
		int			b,
					f;
		uint64_t	n;

		CHECK(!cuckoo_size(UINT64_C(1) << 40, 0.01, &b, &f, &n), "too large refused");
		CHECK(cuckoo_size(1, 0.01, &b, &f, &n) && n == 2, "tiny filter has 2 buckets");
	}
}

/*
 * Fill to capacity: no growth, everything found, the rate measured with
 * non-members within the request.
 */
static void
test_capacity(uint64_t capacity, double rate, bool verbose)
{
	Filter		f;
	uint64_t	fp = 0;
	uint64_t	probes = capacity < 1000000 ? 1000000 : capacity;
	bool		all = true;

	filter_new(&f, capacity, rate, 7);
	for (uint64_t k = 0; k < capacity; k++)
		filter_add(&f, key((int64_t) k, 7));
	CHECK(f.v.hdr.nsub == 1, "capacity %llu at %g grew to %d sub-filters",
		  (unsigned long long) capacity, rate, f.v.hdr.nsub);
	CHECK(f.v.hdr.items == capacity, "items");
	for (uint64_t k = 0; k < capacity; k++)
		all &= cuckoo_contains(&f.v, key((int64_t) k, 7));
	CHECK(all, "no false negatives at capacity %llu", (unsigned long long) capacity);
	for (uint64_t k = 0; k < probes; k++)
		fp += cuckoo_contains(&f.v, key((int64_t) (k + capacity * 4 + 1000), 7));
	CHECK((double) fp / probes <= rate, "rate at capacity %llu: %g > %g",
		  (unsigned long long) capacity, (double) fp / probes, rate);
	CHECK(cuckoo_validate(f.buf, f.v.len, &f.v) == CUCKOO_OK, "valid after fill");
	if (verbose)
	{
		double		opt = -log(rate) / (log(2) * log(2));
		double		bits = (double) (f.v.len - 72) * 8 / capacity;

		printf("  capacity %10llu rate %-6g  b=%d f=%2d  %6.2f bits/elem (optimal Bloom %5.2f, x%.3f)  measured rate %.4f%%  modelled %.4f%%\n",
			   (unsigned long long) capacity, rate, f.v.hdr.bucket_size, f.v.hdr.fp_bits,
			   bits, opt, bits / opt, 100.0 * fp / probes, 100.0 * cuckoo_fpp(&f.v));
	}
	free(f.buf);
}

/* small filters, many seeds: how often does capacity not fit? */
static void
test_small_capacities(void)
{
	static const uint64_t caps[] = {1, 2, 5, 10, 50, 100, 1000, 10000};
	int			grown = 0,
				runs = 0;

	for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++)
		for (uint32_t seed = 0; seed < 50; seed++)
		{
			Filter		f;
			bool		all = true;

			filter_new(&f, caps[c], 0.01, seed);
			for (uint64_t k = 0; k < caps[c]; k++)
				filter_add(&f, key((int64_t) k, seed));
			for (uint64_t k = 0; k < caps[c]; k++)
				all &= cuckoo_contains(&f.v, key((int64_t) k, seed));
			CHECK(all, "small filter lost an element");
			grown += f.v.hdr.nsub > 1;
			runs++;
			free(f.buf);
		}
	printf("  small capacities: %d of %d filters grew before capacity\n", grown, runs);
	CHECK(grown * 10 <= runs, "too many small filters grow: %d of %d", grown, runs);
}

/* far past capacity: sub-filters, no false negatives, rate under 2e */
static void
test_growth(void)
{
	Filter		f;
	bool		all = true;
	uint64_t	fp = 0;
	const int	n = 64000;

	filter_new(&f, 1000, 0.01, 3);
	for (int k = 0; k < n; k++)
		filter_add(&f, key(k, 3));
	CHECK(f.v.hdr.nsub >= 6, "grew to %d sub-filters", f.v.hdr.nsub);
	for (int k = 0; k < n; k++)
		all &= cuckoo_contains(&f.v, key(k, 3));
	CHECK(all, "no false negatives after growth");
	for (int k = 0; k < 1000000; k++)
		fp += cuckoo_contains(&f.v, key(10000000 + k, 3));
	printf("  64x capacity: %d sub-filters, %zu bytes (%.2f bits/elem), rate %.4f%% (modelled %.4f%%)\n",
		   f.v.hdr.nsub, f.v.len, f.v.len * 8.0 / n, fp / 1e4, 100 * cuckoo_fpp(&f.v));
	CHECK(fp / 1e6 < 0.02, "rate after growth under 2e: %g", fp / 1e6);
	for (int i = 1; i < f.v.hdr.nsub; i++)
		CHECK(f.v.sub[i].nbuckets == 2 * f.v.sub[i - 1].nbuckets &&
			  f.v.sub[i].fp_bits == f.v.sub[i - 1].fp_bits + 1, "growth shape");
	CHECK(cuckoo_validate(f.buf, f.v.len, &f.v) == CUCKOO_OK, "valid after growth");

	/* one element added over and over: grows, and the limit is reached */
	{
		Filter		g;
		uint64_t	nb;
		int			fb;
		int			adds = 0;

		filter_new(&g, 10, 0.01, 0);
		while (g.v.hdr.nsub < 12)
		{
			if (cuckoo_add(&g.v, key(1, 0)))
			{
				adds++;
				continue;
			}
			if (!cuckoo_next_shape(&g.v, &nb, &fb) || !filter_grow(&g, nb, fb))
				abort();
		}
		CHECK(cuckoo_count(&g.v, key(1, 0)) == (uint64_t) adds, "count of copies %d", adds);
		CHECK(adds == 8 * (g.v.hdr.nsub - 1),
			  "2b copies per sub-filter: %d adds, %d sub-filters", adds, g.v.hdr.nsub);
		printf("  one element added over and over: %d copies, %d sub-filters, %zu bytes\n",
			   adds, g.v.hdr.nsub, g.v.len);
		free(g.buf);
	}
	free(f.buf);
}

/* adds and deletes of added elements in any order: no false negatives */
static void
test_deletes(uint64_t capacity)
{
	Filter		f;
	const int	n = 100000;
	int			lost = 0;
	int		   *copies = calloc(n, sizeof(int));
	uint64_t	x = 88172645463325252ULL;
	uint64_t	live = 0;
	bool		all = true;
	uint64_t	fp = 0,
				absent = 0;

	filter_new(&f, capacity, 0.01, 11);
	for (int round = 0; round < 600000; round++)
	{
		int			k;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		k = (int) (x % n);
		if ((x >> 40) % 3 != 0 || copies[k] == 0)
		{
			if (copies[k] < 3)
			{
				filter_add(&f, key(k, 11));
				copies[k]++;
				live++;
			}
		}
		else
		{
			if (cuckoo_delete(&f.v, key(k, 11)))
				live--;
			else
				lost++;
			copies[k]--;
		}
	}
	CHECK(f.v.hdr.items == live, "items %llu live %llu",
		  (unsigned long long) f.v.hdr.items, (unsigned long long) live);
	for (int k = 0; k < n; k++)
	{
		if (copies[k] > 0)
		{
			bool		found = cuckoo_contains(&f.v, key(k, 11));

			all &= found;
			lost += !found;
		}
		else
		{
			absent++;
			fp += cuckoo_contains(&f.v, key(k, 11));
		}
	}
	if (f.v.hdr.nsub == 1)
		CHECK(all, "no false negatives after adds and deletes (one sub-filter)");
	printf("  600k adds/deletes, capacity %llu: %llu live, %d sub-filters, absent keys reported %.3f%%, deletes that missed or lost keys: %d\n",
		   (unsigned long long) capacity, (unsigned long long) live, f.v.hdr.nsub,
		   100.0 * fp / (absent ? absent : 1), lost);
	CHECK(cuckoo_validate(f.buf, f.v.len, &f.v) == CUCKOO_OK, "valid after deletes");
	CHECK(!cuckoo_delete(&f.v, key(-12345, 11)) || true, "delete of an absent element");

	/* delete everything: back to the empty filter's bytes */
	for (int k = 0; k < n; k++)
		for (; copies[k] > 0; copies[k]--)
			cuckoo_delete(&f.v, key(k, 11));
	CHECK(f.v.hdr.nsub > 1 || f.v.hdr.items == 0, "empty after deleting all");
	free(copies);
	free(f.buf);
}

/* the same adds give the same bytes; pinned checksum of a small filter */
static void
test_determinism(void)
{
	Filter		a,
				b;

	filter_new(&a, 100, 0.01, 5);
	filter_new(&b, 100, 0.01, 5);
	for (int k = 0; k < 300; k++)
	{
		filter_add(&a, key(k, 5));
		filter_add(&b, key(k, 5));
	}
	CHECK(a.v.len == b.v.len && memcmp(a.buf, b.buf, a.v.len) == 0, "same bytes");
	printf("  pinned: 300 keys into cf(100, 0.01, seed 5): %d sub-filters, %zu bytes, fnv1a %016llx\n",
		   a.v.hdr.nsub, a.v.len, (unsigned long long) fnv1a(a.buf, a.v.len));
	CHECK(fnv1a(a.buf, a.v.len) == UINT64_C(0xc62a1501a72cfebf), "pinned bytes changed: %016llx",
		  (unsigned long long) fnv1a(a.buf, a.v.len));
	free(a.buf);
	free(b.buf);
}

/* merge: same answers as one filter built from both inputs */
static void
test_merge(void)
{
	Filter		a,
				b,
				all;
	int			differ = 0;
	bool		found = true;

	filter_new(&a, 100000, 0.01, 9);
	filter_new(&b, 100000, 0.01, 9);
	filter_new(&all, 100000, 0.01, 9);
	for (int k = 0; k < 90000; k++)
	{
		filter_add(k % 3 ? &a : &b, key(k, 9));
		filter_add(&all, key(k, 9));
	}
	filter_merge(&a, &b);
	CHECK(a.v.hdr.items == 90000, "merged items");
	for (int k = 0; k < 90000; k++)
		found &= cuckoo_contains(&a.v, key(k, 9));
	CHECK(found, "merge keeps everything");
	for (int k = 0; k < 1000000; k++)
		differ += cuckoo_contains(&a.v, key(k, 9)) != cuckoo_contains(&all.v, key(k, 9));
	CHECK(differ == 0 || a.v.hdr.nsub > 1, "merged answers differ from a serial build on %d keys", differ);
	CHECK(cuckoo_validate(a.buf, a.v.len, &a.v) == CUCKOO_OK, "valid after merge");

	/* merging two full filters grows the target */
	{
		Filter		c,
					d;

		filter_new(&c, 1000, 0.01, 1);
		filter_new(&d, 1000, 0.01, 1);
		for (int k = 0; k < 1000; k++)
		{
			filter_add(&c, key(k, 1));
			filter_add(&d, key(k + 1000, 1));
		}
		filter_merge(&c, &d);
		found = true;
		for (int k = 0; k < 2000; k++)
			found &= cuckoo_contains(&c.v, key(k, 1));
		CHECK(found && c.v.hdr.nsub > 1 && c.v.hdr.items == 2000,
			  "merge of full filters grows: %d sub-filters", c.v.hdr.nsub);
		CHECK(cuckoo_validate(c.buf, c.v.len, &c.v) == CUCKOO_OK, "valid after growing merge");
		free(c.buf);
		free(d.buf);
	}
	free(a.buf);
	free(b.buf);
	free(all.buf);
}

/* every refusal of validation */
static void
test_validation(void)
{
	Filter		f;
	CuckooView	v;
	uint8_t    *c;
	size_t		len;

	filter_new(&f, 100, 0.01, 0);
	for (int k = 0; k < 50; k++)
		filter_add(&f, key(k, 0));
	len = f.v.len;
	c = malloc(len + 8);

#define MUTATE(stmt, expect) \
	do { \
		memcpy(c, f.buf, len); \
		stmt; \
		CHECK(cuckoo_validate(c, len, &v) == (expect), "%s: got %s", #stmt, \
			  cuckoo_check_message(cuckoo_validate(c, len, &v))); \
	} while (0)

	MUTATE((void) 0, CUCKOO_OK);
	MUTATE(c[0] = 'X', CUCKOO_BAD_MAGIC);
	MUTATE(c[4] = 2, CUCKOO_BAD_VERSION);
	MUTATE(c[5] = 1, CUCKOO_BAD_HASH);
	MUTATE(c[6] = 3, CUCKOO_BAD_BUCKET_SIZE);
	MUTATE(c[7] = 33, CUCKOO_BAD_FP_BITS);
	MUTATE(c[7] = 11, CUCKOO_BAD_FP_BITS);
	MUTATE(c[12] = 0, CUCKOO_BAD_NSUB);
	MUTATE(c[12] = 2, CUCKOO_BAD_LENGTH);
	MUTATE(c[15] = 0x20, CUCKOO_BAD_KICKS);
	MUTATE(memset(c + 16, 0, 8), CUCKOO_BAD_CAPACITY);
	MUTATE(memset(c + 24, 0, 8), CUCKOO_BAD_ERROR_RATE);
	MUTATE(c[32]++, CUCKOO_BAD_COUNT);
	MUTATE(c[47] = 1, CUCKOO_BAD_RESERVED);
	MUTATE(c[44] = 1, CUCKOO_BAD_RESERVED);
	MUTATE(c[41] = 0x28, CUCKOO_BAD_KEY_TYPE);
	MUTATE(c[43] = 1, CUCKOO_BAD_KEY_TYPE);
	MUTATE(c[40] = 20, CUCKOO_OK);
	MUTATE(c[48 + 23] = 1, CUCKOO_BAD_RESERVED);
	MUTATE(c[48]++, CUCKOO_BAD_LENGTH);
	MUTATE(memset(c + 48, 0, 8), CUCKOO_BAD_NBUCKETS);
	MUTATE((c[32]++, c[56]++), CUCKOO_BAD_COUNT);
	CHECK(cuckoo_validate(f.buf, len - 1, &v) == CUCKOO_BAD_LENGTH, "short");
	CHECK(cuckoo_validate(f.buf, 47, &v) == CUCKOO_BAD_LENGTH, "shorter than a header");
	memcpy(c, f.buf, len);
	c[len] = 0;
	CHECK(cuckoo_validate(c, len + 1, &v) == CUCKOO_BAD_LENGTH, "long");

	/* a slot set in an empty filter: the count is wrong */
	{
		Filter		e;

		filter_new(&e, 100, 0.01, 0);
		e.buf[72] = 1;
		CHECK(cuckoo_validate(e.buf, e.v.len, &v) == CUCKOO_BAD_COUNT, "slot set, count 0");
		free(e.buf);
	}
	{
		Filter		g;
		size_t		gl;

		/* the first capacity whose slots end inside a byte */
		for (uint64_t cap = 1;; cap++)
		{
			filter_new(&g, cap, 0.001, 0);
			if ((g.v.sub[0].nbuckets * 4 * g.v.sub[0].fp_bits) % 8 != 0)
				break;
			free(g.buf);
		}
		gl = g.v.len;
		g.buf[gl - 1] |= 0x80;
		CHECK(cuckoo_validate(g.buf, gl, &v) == CUCKOO_BAD_PADDING, "padding bits");
		free(g.buf);
	}
	free(c);
	free(f.buf);
}

int
main(int argc, char **argv)
{
	bool		bench = argc > 1 && strcmp(argv[1], "--bench") == 0;

	test_header();
	test_sizing();
	test_validation();
	test_determinism();
	test_capacity(100000, 0.01, true);
	test_capacity(100000, 0.001, true);
	test_small_capacities();
	test_growth();
	test_deletes(300000);
	test_deletes(50000);
	test_merge();
	if (bench)
	{
		static const double rates[] = {0.01, 0.001, 0.0001};

		for (int i = 0; i < 3; i++)
			test_capacity(1000000, rates[i], true);
		test_capacity(10000000, 0.01, true);
	}
	printf("unit_cuckoo: %d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
