/*-------------------------------------------------------------------------
 *
 * unit_cuckoo.c
 *	  Unit tests of the cuckoo filter core (src/core/cuckoo.c): header,
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
#include "core/cuckoo.h"

#include <murmurhash.h>

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
		if (cuckoo_next_sub(&f->v, &n, &fp) != CUCKOO_GROW_OK || !filter_grow(f, n, fp))
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
	CHECK(f.buf[4] == 1 && f.buf[5] == 5, "version 1, hash id 5");
	CHECK(f.buf[6] == 4 && f.buf[7] == 10, "b=4, f=10 at 1%%: %d %d", f.buf[6], f.buf[7]);
	cuckoo_header_decode(f.buf, &h);
	CHECK(h.seed == 42 && h.nsub == 1 && h.max_kicks == 500 && h.capacity == 1000 &&
		  h.error_rate == 0.01 && h.items == 0, "decoded header");
	CHECK(f.v.sub[0].nbuckets == 307 && cuckoo_room(4, 307) >= 1000 && cuckoo_room(4, 306) < 1000,
		  "buckets: the fewest whose room holds 1000, 307, got %llu",
		  (unsigned long long) f.v.sub[0].nbuckets);
	CHECK(f.v.len == 48 + 24 + (307 * 4 * 10 + 7) / 8, "length %zu", f.v.len);
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
		{0.5, 8, 7}, {0.1, 4, 7}, {0.03, 4, 8}, {0.01, 4, 10}, {0.001, 4, 13},
		{1e-4, 4, 17}, {1e-6, 4, 23}, {1e-8, 8, 31},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		int			b,
					f;
		uint64_t	n;

		CHECK(cuckoo_size(1000000, cases[i].rate, &b, &f, &n), "size %g", cases[i].rate);
		CHECK(b == cases[i].b && f == cases[i].f, "rate %g: b=%d f=%d, expected b=%d f=%d",
			  cases[i].rate, b, f, cases[i].b, cases[i].f);
		CHECK(cuckoo_model_fpp(f, 1000000, n) <= 0.9 * cases[i].rate,
			  "model within 90%% of the rate at %g", cases[i].rate);
		CHECK(cuckoo_room(b, n) >= 1000000, "room for the capacity at %g", cases[i].rate);
	}
	{
		int			b,
					f;
		uint64_t	n;

		CHECK(!cuckoo_size(UINT64_C(1) << 40, 0.01, &b, &f, &n), "too large refused");
		CHECK(cuckoo_size(1, 0.01, &b, &f, &n) && n == 1, "one element: one bucket");
		CHECK(cuckoo_size(8, 0.3, &b, &f, &n) && n == 1 && b == 8, "8 elements: one bucket of 8");
		/* room: at least b, never more than the slots, rising with n */
		for (uint64_t m = 1; m < 5000; m++)
			for (int bb = 4; bb <= 8; bb += 4)
				CHECK(cuckoo_room(bb, m) >= (uint64_t) bb && cuckoo_room(bb, m) <= m * bb &&
					  cuckoo_room(bb, m + 1) >= cuckoo_room(bb, m), "room of %llu buckets of %d",
					  (unsigned long long) m, bb);
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

/* distinct keys from a seed: splitmix64, so keys differ between runs */
static int64_t
next_key(uint64_t *x)
{
	uint64_t	z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return (int64_t) (z ^ (z >> 31));
}

/*
 * Every capacity 1..max at several rates and seeds: exactly capacity
 * distinct keys never grow the filter, and the first sub-filter's buckets
 * take their whole room (cuckoo_room, at least the capacity) without a
 * failed kick walk: a header claiming that room is filled to it.  Seed 8
 * is left out: MurmurHash3 of 8-byte keys with seed 8 gives h2 = 1.5 h1,
 * which no filter survives (docs/format.md, Seeds 1 to 8).
 */
static void
test_no_growth(int max_capacity, int seeds)
{
	static const double rates[] = {0.3, 0.1, 0.05, 0.01, 0.001, 1e-6};
	long		filters = 0,
				grown = 0,
				short_room = 0;

	for (int r = 0; r < 6; r++)
		for (int c = 1; c <= max_capacity; c++)
		{
			int			b,
						fp;
			uint64_t	n;
			size_t		len;
			uint8_t    *buf;

			if (!cuckoo_size((uint64_t) c, rates[r], &b, &fp, &n))
				abort();
			len = cuckoo_empty_bytes(b, fp, n);
			buf = malloc(len);
			for (int s = 0; s < seeds; s++)
			{
				uint32_t	seed = (uint32_t) (s * 7919 + c * 31 + r + 9);
				uint64_t	room = cuckoo_room(b, n);
				CuckooView	v;
				uint64_t	x = seed;
				uint64_t	k = 0;

				/* header capacity = the buckets' room: fill all of it */
				cuckoo_init(buf, room, rates[r], seed, b, fp, n);
				cuckoo_open(buf, len, &v);
				while (k < room && cuckoo_add(&v, bloom_hash_int64(next_key(&x), seed)))
				{
					k++;
					/* at the true capacity: one sub-filter, all found */
					if (k == (uint64_t) c)
						grown += v.hdr.nsub != 1;
				}
				short_room += k < room;
				filters++;
			}
			free(buf);
		}
	printf("  capacities 1..%d x 6 rates x %d seeds: %ld filters, %ld grew at capacity, %ld failed a kick walk before their room\n",
		   max_capacity, seeds, filters, grown, short_room);
	CHECK(grown == 0 && short_room == 0, "a filter grew before its capacity");
}

/* the capacity promise through the real sizing and growth path */
static void
test_exact_capacity(void)
{
	static const double rates[] = {0.3, 0.1, 0.05, 0.01, 0.001, 1e-6};
	int			grown = 0;

	for (int r = 0; r < 6; r++)
		for (uint64_t c = 1; c <= 300; c += (c < 60 ? 1 : 7))
			for (uint32_t seed = 100; seed < 110; seed++)
			{
				Filter		f;
				bool		all = true;
				uint64_t	x = seed * 977 + c;
				uint64_t	y = x;

				filter_new(&f, c, rates[r], seed);
				for (uint64_t k = 0; k < c; k++)
					filter_add(&f, bloom_hash_int64(next_key(&x), seed));
				for (uint64_t k = 0; k < c; k++)
					all &= cuckoo_contains(&f.v, bloom_hash_int64(next_key(&y), seed));
				CHECK(all, "lost an element at capacity %llu", (unsigned long long) c);
				grown += f.v.hdr.nsub > 1;
				free(f.buf);
			}
	CHECK(grown == 0, "%d filters grew before capacity", grown);
}

/* far past capacity: sub-filters, no false negatives, each within its share */
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
	CHECK(fp / 1e6 < 0.02 && cuckoo_fpp(&f.v) < 0.02, "rate after growth under 2e: %g", fp / 1e6);
	for (int i = 1; i < f.v.hdr.nsub; i++)
	{
		const CuckooSub *s = &f.v.sub[i];

		/* sub-filter k: room c 2^k, rate at its room within 0.9 e / 2^k */
		CHECK(s->room == (uint64_t) 1000 << i && cuckoo_room(4, s->nbuckets) >= s->room &&
			  s->fp_bits >= CUCKOO_FLOOR_FP_BITS &&
			  cuckoo_model_fpp(s->fp_bits, s->room, s->nbuckets) <= ldexp(0.009, -i),
			  "growth shape of sub-filter %d", i);
	}
	CHECK(cuckoo_validate(f.buf, f.v.len, &f.v) == CUCKOO_OK, "valid after growth");

	/* one element added over and over: 2b copies a sub-filter, until a limit */
	{
		Filter		g;
		uint64_t	nb;
		int			fb;
		int			adds = 0;
		CuckooGrowth why = CUCKOO_GROW_OK;

		filter_new(&g, 10, 0.01, 0);
		while (why == CUCKOO_GROW_OK && g.v.hdr.nsub < 12)
		{
			if (cuckoo_add(&g.v, key(1, 0)))
			{
				adds++;
				continue;
			}
			why = cuckoo_next_sub(&g.v, &nb, &fb);
			if (why == CUCKOO_GROW_OK && !filter_grow(&g, nb, fb))
				abort();
		}
		CHECK(cuckoo_count(&g.v, key(1, 0)) == (uint64_t) adds, "count of copies %d", adds);
		CHECK(adds == 2 * g.v.hdr.bucket_size * (g.v.hdr.nsub - 1),
			  "2b copies per sub-filter: %d adds, %d sub-filters", adds, g.v.hdr.nsub);
		printf("  one element added over and over: %d copies, %d sub-filters, %zu bytes\n",
			   adds, g.v.hdr.nsub, g.v.len);
		free(g.buf);
	}
	free(f.buf);
}

/*
 * The rate at capacity and 10x and 100x past it, measured with 400,000
 * non-members: under 2e, and cf_fpp (the model) never below it by more
 * than the sampling error.  With --bench, every rate bench/RESULTS.md lists.
 */
static void
test_bound(bool bench)
{
	static const double rates[] = {0.1, 0.05, 0.03, 0.01, 0.001};
	const uint64_t capacity = 1000;
	const int	probes = 400000;

	for (int r = 0; r < (bench ? 5 : 3); r++)
	{
		Filter		f;
		uint64_t	x = 4242 + r;
		uint64_t	added = 0;

		filter_new(&f, capacity, rates[r], 17);
		for (int over = 1; over <= 100; over *= 10)
		{
			uint64_t	hits = 0;
			uint64_t	y = 99991 + over;
			double		measured,
						model = 0;

			for (; added < capacity * over; added++)
				filter_add(&f, bloom_hash_int64(next_key(&x), 17));
			for (int k = 0; k < probes; k++)
				hits += cuckoo_contains(&f.v, bloom_hash_int64(next_key(&y) | 1, 17));
			measured = (double) hits / probes;
			model = cuckoo_fpp(&f.v);
			printf("  rate %-5g at %3dx capacity: %2d sub-filters, measured %.4f%%, cf_fpp %.4f%%, %.2f bits/elem\n",
				   rates[r], over, f.v.hdr.nsub, 100 * measured, 100 * model,
				   (double) f.v.len * 8 / (double) added);
			CHECK(measured < 2 * rates[r], "rate %g at %dx: measured %g", rates[r], over, measured);
			CHECK(measured <= model + 3 * sqrt(model / probes), "cf_fpp %g understates %g at %dx",
				  model, measured, over);
		}
		free(f.buf);
	}

	/* at 1e-8 growth stops where a share would need more than 32 bits */
	{
		Filter		f;
		uint64_t	x = 5;
		uint64_t	nb;
		int			fb;
		CuckooGrowth why;

		filter_new(&f, 1, 1e-8, 23);
		for (;;)
		{
			if (cuckoo_add(&f.v, bloom_hash_int64(next_key(&x), 23)))
				continue;
			why = cuckoo_next_sub(&f.v, &nb, &fb);
			if (why != CUCKOO_GROW_OK)
				break;
			filter_grow(&f, nb, fb);
		}
		CHECK(why == CUCKOO_GROW_FP_BITS && f.v.sub[f.v.hdr.nsub - 1].fp_bits <= 32 &&
			  cuckoo_fpp(&f.v) < 2e-8, "1e-8: stopped by %d with %d sub-filters, fpp %g",
			  why, f.v.hdr.nsub, cuckoo_fpp(&f.v));
		printf("  capacity 1 at 1e-8: %llu items in %d sub-filters (last %d bits), then 54000; cf_fpp %.3g\n",
			   (unsigned long long) f.v.hdr.items, f.v.hdr.nsub,
			   f.v.sub[f.v.hdr.nsub - 1].fp_bits, cuckoo_fpp(&f.v));
		free(f.buf);
	}
}

/* a value 1.2 built (cf(100, 0.01, seed 5), keys 0..299, grown to two) */
static const char legacy_300[] =
	"434b4f460102040a050000000200f40164000000000000007b14ae47e17a843f2c010000"
	"0000000000000000000000001b0000000000000068000000000000000a00000000000000"
	"56b1abe4a753e48e45b7ab7fcf0300fc2653fbedf06f8ba557ba8cd1a98433889b90c78b"
	"692beb37ed3e215586318bab3f4ce10385f5fc2c26588792d72956ef1387eff53300b2a2"
	"3ce2ef43335c6284c5761894b985368e4628b2a5853966814bb82453474e8329fdf51562"
	"267d70140a0000a7f99fa0a933d948fe4ce803b7b50d5ce3c86e993600000000000000c4"
	"000000000000000b000000000000000e2a10000090193ef5168e12e0550cd9d6ad275c26"
	"6da7818ff84eceb3a4371a0091ced0f134223ef0ea10e798080100001037ab0858a10a5d"
	"4336924a19bc7836d4f85e5683846de0a6c73ece3c6d6b4e77757770017fa9dba2a9e900"
	"c0cab6c010f9d5c207bc0180dc6948ca3d17f674504842b8c027eb3de7450e31a20b6205"
	"324273dd05a3c4f1943b000000004bad39f9014035b3b666a94555ab1e07e577c058f10d"
	"c9341ecd91b338431d69519ee538000030c290538308228235000060cba6d026ffd66833"
	"d3f2abc4203149ff0e6ab5d801f0c8b2a887a73b1216e94b54289fcd1e001c8f2d1c01a0"
	"4548642629facf1141558144ed0a11009a6e68e42855ed477eaa3c661b76ac016009fb17"
	"16be57ff1b17c57a19450ff5a364c684b95129d7541339a7";

static void
test_legacy(void)
{
	size_t		len = strlen(legacy_300) / 2;
	uint8_t    *buf = malloc(len);
	CuckooView	v;
	bool		all = true;
	int			positives = 0;

	for (size_t i = 0; i < len; i++)
		sscanf(legacy_300 + 2 * i, "%2hhx", &buf[i]);
	CHECK(cuckoo_validate(buf, len, &v) == CUCKOO_OK && v.hdr.nsub == 2, "1.2 value valid");
	for (int k = 0; k < 300; k++)
		all &= cuckoo_contains(&v, key(k, 5));
	for (int k = 300; k < 100300; k++)
		positives += cuckoo_contains(&v, key(k, 5));
	CHECK(all && positives == 1089, "1.2 value answers as in 1.2: %d positives", positives);
	/* deleting half of what was added leaves the rest found */
	for (int k = 1; k < 300; k += 2)
		CHECK(cuckoo_delete(&v, key(k, 5)) != CUCKOO_DELETE_ABSENT, "delete %d", k);
	all = true;
	for (int k = 0; k < 300; k += 2)
		all &= cuckoo_contains(&v, key(k, 5));
	CHECK(all, "1.2 value: deletes took no other element's entry");
	free(buf);
}

/*
 * Add n distinct keys (up to 4x the capacity, so grown too), delete every
 * other one: the rest are all found, over many capacities, rates and seeds.
 * The case: cf(54, 0.1, seed 54), keys 1..54, odd ones deleted.
 */
static void
test_delete_half(void)
{
	static const double rates[] = {0.1, 0.01, 0.001};
	long		lost = 0,
				kept = 0,
				deletes = 0;

	for (int r = 0; r < 3; r++)
		for (uint64_t c = 1; c <= 400; c += (c < 40 ? 1 : 13))
			for (int over = 1; over <= 4; over *= 2)
				for (uint32_t seed = 50; seed < 56; seed++)
				{
					Filter		f;
					uint64_t	n = c * over;

					filter_new(&f, c, rates[r], seed);
					for (uint64_t k = 1; k <= n; k++)
						filter_add(&f, key((int64_t) k, seed));
					for (uint64_t k = 1; k <= n; k += 2, deletes++)
						kept += cuckoo_delete(&f.v, key((int64_t) k, seed)) == CUCKOO_DELETE_KEPT;
					for (uint64_t k = 2; k <= n; k += 2)
						lost += !cuckoo_contains(&f.v, key((int64_t) k, seed));
					if (over == 1)
						CHECK(f.v.hdr.items == n / 2, "not grown: every delete removes");
					free(f.buf);
				}
	printf("  delete half: %ld deletes, %ld kept (matched in two shapes), %ld false negatives\n",
		   deletes, kept, lost);
	CHECK(lost == 0, "%ld false negatives after deleting half", lost);
	{
		Filter		f;
		bool		all = true;

		filter_new(&f, 54, 0.1, 54);
		for (int k = 1; k <= 54; k++)
			filter_add(&f, key(k, 54));
		for (int k = 1; k <= 54; k += 2)
			cuckoo_delete(&f.v, key(k, 54));
		for (int k = 2; k <= 54; k += 2)
			all &= cuckoo_contains(&f.v, key(k, 54));
		CHECK(all && f.v.hdr.nsub == 1, "cf(54, 0.1, 54): 54 present, %d sub-filters", f.v.hdr.nsub);
		free(f.buf);
	}
}

/* never-added keys against cf_fpp: the model may not understate them */
static void
check_fresh_rate(const CuckooView *v, int64_t first, uint32_t seed)
{
	uint64_t	fresh = 0;
	double		model = cuckoo_fpp(v);

	for (int64_t k = 0; k < 400000; k++)
		fresh += cuckoo_contains(v, key(first + k, seed));
	printf("    never-added keys %.3f%%, cf_fpp %.3f%%\n", fresh / 4000.0, 100 * model);
	CHECK(fresh / 400000.0 <= model + 3 * sqrt(model / 400000), "cf_fpp understates after deletes");
}

/* adds and deletes of added elements in any order: no false negatives */
static void
test_deletes(uint64_t capacity)
{
	Filter		f;
	const int	n = 100000;
	int			lost = 0;
	int			kept = 0;
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
			CuckooDelete d = cuckoo_delete(&f.v, key(k, 11));

			live -= d == CUCKOO_DELETE_DONE;
			kept += d == CUCKOO_DELETE_KEPT;
			lost += d == CUCKOO_DELETE_ABSENT;
			copies[k]--;
		}
	}
	CHECK(f.v.hdr.items == live, "items %llu live %llu",
		  (unsigned long long) f.v.hdr.items, (unsigned long long) live);
	live -= kept;
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
	CHECK(all && lost == 0, "no false negatives after adds and deletes");
	CHECK(f.v.hdr.nsub > 1 || kept == 0, "one sub-filter: no delete kept");
	printf("  600k adds/deletes, capacity %llu: %llu live, %d sub-filters, deleted keys still reported %.3f%%, deletes kept (matched in two shapes): %d, lost keys: %d\n",
		   (unsigned long long) capacity, (unsigned long long) live, f.v.hdr.nsub,
		   100.0 * fp / (absent ? absent : 1), kept, lost);
	check_fresh_rate(&f.v, n + 1000, 11);
	CHECK(cuckoo_validate(f.buf, f.v.len, &f.v) == CUCKOO_OK, "valid after deletes");
	(void) cuckoo_delete(&f.v, key(-12345, 11));	/* never added: anything */

	/* delete everything: back to the empty filter's bytes */
	for (int k = 0; k < n; k++)
		for (; copies[k] > 0; copies[k]--)
			cuckoo_delete(&f.v, key(k, 11));
	CHECK(f.v.hdr.nsub > 1 || f.v.hdr.items == 0, "empty after deleting all");
	if (f.v.hdr.nsub > 1)
		printf("  after deleting every copy: %llu entries kept of deletes that matched in two shapes\n",
			   (unsigned long long) f.v.hdr.items);
	free(copies);
	free(f.buf);
}

/*
 * The same adds give the same bytes; pinned checksum of a small filter as
 * 1.3 builds it (1.2 built other bytes, answering the same: test_legacy).
 */
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
	/* pinned with hash id 2, which hashes integers as id 5 does */
	CHECK(a.buf[5] == BLOOM_HASH_MURMUR3_UTF8, "a new filter has hash id 5");
	a.buf[5] = BLOOM_HASH_MURMUR3_EQ;
	printf("  pinned: 300 keys into cf(100, 0.01, seed 5): %d sub-filters, %zu bytes, fnv1a %016llx\n",
		   a.v.hdr.nsub, a.v.len, (unsigned long long) fnv1a(a.buf, a.v.len));
	CHECK(fnv1a(a.buf, a.v.len) == UINT64_C(0x9e84a576fd72c5f2), "pinned bytes changed: %016llx",
		  (unsigned long long) fnv1a(a.buf, a.v.len));
	free(a.buf);
	free(b.buf);
}

/* hashes[0..n-1] through the batch, growing as the server's glue does */
static void
filter_add_batch(Filter *f, const BloomHash *hashes, size_t n)
{
	size_t		done = 0;
	uint64_t	nb;
	int			fp;

	while ((done += cuckoo_add_batch(&f->v, hashes + done, n - done)) < n)
	{
		if (cuckoo_next_sub(&f->v, &nb, &fp) != CUCKOO_GROW_OK || !filter_grow(f, nb, fp))
			abort();
	}
}

/*
 * The batch (buckets and, near the room, kick walks requested ahead; an
 * add that finds no room handed back for growth) makes the bytes of adds
 * one at a time: filters of several capacities, rates and seeds filled in
 * batches of every length to past their capacity (so through the walks
 * near the room, the growth, and adds to grown filters), with repeated
 * keys, each compared with the same adds made singly after every batch.
 */
static void
test_batch_matches_single(void)
{
	static const uint64_t caps[] = {1, 7, 100, 1000, 20000};
	static const double rates[] = {0.01, 0.001, 0.2};
	BloomHash	hashes[300];
	bool		same = true;
	int			grew = 0;
	uint64_t	filters = 0;

	for (int c = 0; c < 5; c++)
		for (int r = 0; r < 3; r++)
			for (uint32_t seed = 0; seed < 40; seed += 13)
			{
				Filter		a,
							b;
				uint64_t	total = caps[c] * 2 + 50;
				uint64_t	k = 0;

				filter_new(&a, caps[c], rates[r], seed + 9);
				filter_new(&b, caps[c], rates[r], seed + 9);
				for (size_t n = 0; k < total && same; n = (n + 37) % 300)
				{
					for (size_t i = 0; i < n; i++)
					{
						/* one key in seven repeats an earlier one */
						hashes[i] = key((int64_t) ((k + i) % 7 == 3 ? (k + i) / 2 : k + i), seed + 9);
						filter_add(&a, hashes[i]);
					}
					filter_add_batch(&b, hashes, n);
					k += n;
					same = a.v.len == b.v.len && memcmp(a.buf, b.buf, a.v.len) == 0;
				}
				grew += b.v.hdr.nsub > 1;
				filters++;
				free(a.buf);
				free(b.buf);
			}
	CHECK(same, "batched cuckoo adds differ from single adds");
	CHECK(grew > 0, "no filter grew: the batch's growth path is not tested");
	printf("  batches against single adds: %llu filters to twice their capacity, %d grew\n",
		   (unsigned long long) filters, grew);
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

/*
 * The answers from spans (what a check of a stored value reads) against
 * the whole value's, key by key, for contains and count; every span inside
 * the payload.  Returns the keys that disagree.
 */
static int
spans_disagree(const uint8_t *buf, size_t len, uint32_t seed, int64_t from, int64_t to)
{
	CuckooView	v;
	BloomDir	dir;
	BloomSpan	next;
	BloomSpan	spans[BLOOM_MAX_SPANS];
	const uint8_t *at[BLOOM_MAX_SPANS];
	const uint8_t *payload = buf + CUCKOO_HEADER_SIZE;
	const uint8_t *piece = NULL;
	int			bad = 0;

	if (cuckoo_open(buf, len, &v) != CUCKOO_OK)
		return -1;
	memset(&dir, 0, sizeof(dir));
	dir.payload_len = len - CUCKOO_HEADER_SIZE;
	while (cuckoo_dir_next(&v.hdr, &dir, piece, &next) == CUCKOO_OK && next.len > 0)
		piece = payload + next.offset;
	if (next.len != 0 || dir.nparts != v.hdr.nsub)
		return -1;
	for (int64_t k = from; k < to; k++)
	{
		BloomHash	h = key(k, seed);
		int			n = cuckoo_spans(&dir, h, spans);

		for (int i = 0; i < n; i++)
		{
			if (spans[i].offset + spans[i].len > dir.payload_len)
				return -1;
			at[i] = payload + spans[i].offset;
		}
		bad += cuckoo_answer(&dir, at, h, false) != (int) cuckoo_contains(&v, h) ||
			(uint64_t) cuckoo_answer(&dir, at, h, true) != cuckoo_count(&v, h);
	}
	return bad;
}

/*
 * Descriptors the walk reads that cuckoo_dir_predict, asked once the first
 * was read, placed elsewhere, and whether its sub-filters were all right.
 */
static int
wrong_predictions(const uint8_t *buf, size_t len, bool *parts_right)
{
	CuckooView	v;
	BloomDir	dir,
				predicted;
	BloomSpan	next,
				pieces[BLOOM_MAX_PARTS];
	const uint8_t *piece = NULL;
	int			npieces = 0,
				wrong = 0;

	if (cuckoo_open(buf, len, &v) != CUCKOO_OK)
		return -1;
	memset(&dir, 0, sizeof(dir));
	dir.payload_len = len - CUCKOO_HEADER_SIZE;
	while (cuckoo_dir_next(&v.hdr, &dir, piece, &next) == CUCKOO_OK && next.len > 0)
	{
		if (dir.nparts == 1)
		{
			predicted = dir;
			npieces = cuckoo_dir_predict(&v.hdr, &predicted, pieces, BLOOM_MAX_PARTS);
		}
		if (dir.nparts >= 1)
			wrong += dir.nparts - 1 >= npieces || pieces[dir.nparts - 1].offset != next.offset;
		piece = buf + CUCKOO_HEADER_SIZE + next.offset;
	}
	*parts_right = memcmp(predicted.part, dir.part, sizeof(BloomPart) * dir.nparts) == 0;
	return wrong;
}

/* spans answer as the whole value does: grown, merged, copies, 1.2's */
static void
test_spans(void)
{
	Filter		f,
				g,
				m;
	size_t		len = strlen(legacy_300) / 2;
	uint8_t    *legacy = malloc(len);
	CuckooView	v;
	BloomDir	dir;
	BloomSpan	next;

	filter_new(&f, 1000, 0.01, 3);
	for (int k = 0; k < 20000; k++)
		filter_add(&f, key(k, 3));
	CHECK(f.v.hdr.nsub >= 4 && spans_disagree(f.buf, f.v.len, 3, 0, 40000) == 0,
		  "spans of a grown filter (%d sub-filters) answer as the whole", f.v.hdr.nsub);
	{
		bool		parts_right = false;

		CHECK(wrong_predictions(f.buf, f.v.len, &parts_right) == 0 && parts_right,
			  "growth's sub-filters predicted right");
	}

	/* b = 8 (small capacity), copies of a few keys: counts from spans */
	filter_new(&g, 10, 0.2, 11);
	for (int k = 0; k < 400; k++)
		filter_add(&g, key(k % 7, 11));
	CHECK(g.v.hdr.bucket_size == 8 && spans_disagree(g.buf, g.v.len, 11, 0, 5000) == 0,
		  "spans count copies as the whole value (b = %d)", g.v.hdr.bucket_size);

	filter_new(&m, 1000, 0.01, 3);
	for (int k = 20000; k < 23000; k++)
		filter_add(&m, key(k, 3));
	filter_merge(&m, &f);
	CHECK(spans_disagree(m.buf, m.v.len, 3, 0, 40000) == 0,
		  "spans of a merged filter (%d sub-filters) answer as the whole", m.v.hdr.nsub);

	for (size_t i = 0; i < len; i++)
		sscanf(legacy_300 + 2 * i, "%2hhx", &legacy[i]);
	CHECK(spans_disagree(legacy, len, 5, 0, 100300) == 0, "spans of a 1.2 value answer as 1.2");

	/* a damaged directory ends the walk: a count, then the length */
	CHECK(cuckoo_open(f.buf, f.v.len, &v) == CUCKOO_OK, "open");
	bloom_store64le(v.sub[1].desc + 8, v.sub[1].count + 1);
	memset(&dir, 0, sizeof(dir));
	dir.payload_len = f.v.len - CUCKOO_HEADER_SIZE;
	{
		const uint8_t *piece = NULL;
		CuckooCheck check;

		while ((check = cuckoo_dir_next(&v.hdr, &dir, piece, &next)) == CUCKOO_OK && next.len > 0)
			piece = f.buf + CUCKOO_HEADER_SIZE + next.offset;
		CHECK(check == CUCKOO_BAD_COUNT, "a count off by one: %d", check);
		memset(&dir, 0, sizeof(dir));
		dir.payload_len = f.v.len - CUCKOO_HEADER_SIZE - 1;
		piece = NULL;
		while ((check = cuckoo_dir_next(&v.hdr, &dir, piece, &next)) == CUCKOO_OK && next.len > 0)
			piece = f.buf + CUCKOO_HEADER_SIZE + next.offset;
		CHECK(check == CUCKOO_BAD_LENGTH, "a value a byte short: %d", check);
	}
	free(f.buf);
	free(g.buf);
	free(m.buf);
	free(legacy);
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
	MUTATE((c[40] = 0x0f, c[41] = 0x27), CUCKOO_BAD_KEY_TYPE);	/* 9999 */
	/* which a read of a value 1.3 stored takes, as it takes any below 10000 */
	memcpy(c, f.buf, len);
	c[40] = 0x0f;
	c[41] = 0x27;
	CHECK(cuckoo_open(c, len, &v) == CUCKOO_OK, "a read refuses key type 9999");
	MUTATE(c[40] = 22, CUCKOO_BAD_KEY_TYPE);	/* int2vector: keys int2[] */
	MUTATE(c[40] = 20, CUCKOO_OK);
	MUTATE((c[40] = 0xc9, c[41] = 0x08), CUCKOO_OK);	/* record */
	/* a capacity the first sub-filter has no slots for */
	MUTATE(c[19] = 1, CUCKOO_BAD_FIRST_SLOTS);
	MUTATE(bloom_store64le(c + 16, bloom_load64le(c + 48) * c[6]), CUCKOO_OK);
	MUTATE(bloom_store64le(c + 16, bloom_load64le(c + 48) * c[6] + 1), CUCKOO_BAD_FIRST_SLOTS);
	MUTATE(c[48 + 23] = 1, CUCKOO_BAD_RESERVED);
	MUTATE(c[48]++, CUCKOO_BAD_LENGTH);
	MUTATE(memset(c + 48, 0, 8), CUCKOO_BAD_NBUCKETS);
	MUTATE((c[32]++, c[56]++), CUCKOO_BAD_COUNT);
	CHECK(cuckoo_validate(f.buf, len - 1, &v) == CUCKOO_BAD_LENGTH, "short");
	CHECK(cuckoo_validate(f.buf, 47, &v) == CUCKOO_BAD_LENGTH, "shorter than a header");
	memcpy(c, f.buf, len);
	c[len] = 0;
	CHECK(cuckoo_validate(c, len + 1, &v) == CUCKOO_BAD_LENGTH, "long");

	/*
	 * A value stored before input checked its capacity against its first
	 * sub-filter (1.3 took this one): it grows as if its capacity were its
	 * slots, not into a sub-filter of hundreds of megabytes.
	 */
	{
		Filter		e;
		uint64_t	nb;
		int			fb;

		filter_new(&e, 1, 0.01, 0);
		bloom_store64le(e.buf + 16, 200000000);
		CHECK(cuckoo_open(e.buf, e.v.len, &e.v) == CUCKOO_OK &&
			  cuckoo_validate(e.buf, e.v.len, &v) == CUCKOO_BAD_FIRST_SLOTS,
			  "capacity past the first sub-filter: read %d, input %d",
			  (int) cuckoo_open(e.buf, e.v.len, &e.v), (int) cuckoo_validate(e.buf, e.v.len, &v));
		for (int k = 0; k < 40; k++)
			filter_add(&e, key(k, 0));
		CHECK(e.v.len < 4096, "a forged capacity grew the value to %zu bytes", e.v.len);
		CHECK(cuckoo_next_sub(&e.v, &nb, &fb) == CUCKOO_GROW_OK && nb < 1000,
			  "the next sub-filter of a forged capacity has %llu buckets",
			  (unsigned long long) nb);
		free(e.buf);
	}

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

/* ---- docs/format.md, followed literally ---- */

/*
 * A cuckoo filter built from docs/format.md's words alone (its sections
 * Sizing, Hash scheme, Inserting and Binary format), with nothing of
 * src/core/cuckoo.c but the MurmurHash3 library and its finaliser fmix64
 * (core/hash.h's copy, which test/unit_hash.c holds to the library):
 * slots unpacked, every search linear.  Its bytes must equal the core's after adds that kick,
 * grow, copy and delete.
 */
typedef struct RSub
{
	uint64_t	n;
	int			f;
	uint64_t	m;
	uint32_t   *slot;
} RSub;

typedef struct RFilter
{
	int			b;
	uint32_t	seed;
	uint64_t	c;
	double		e;
	int			kicks;
	int			nsub;
	uint64_t	items;
	RSub		sub[64];
} RFilter;

static uint64_t
r_high(uint64_t a, uint64_t n)
{
	return (uint64_t) (((unsigned __int128) a * n) >> 64);
}

static uint64_t
r_room(int b, uint64_t n)
{
	uint64_t	S = n * b;
	uint64_t	p = b == 4 ? 930 : b == 8 ? 960 : 800;
	uint64_t	beta = b == 8 ? 3 : 4;
	uint64_t	root = 0;
	int64_t		r;

	while (root * root < beta * beta * S)
		root++;
	r = (int64_t) (p * S / 1000) - (int64_t) root;
	return r < b ? (uint64_t) b : (uint64_t) r;
}

static double
r_rate(int f, uint64_t m, uint64_t n)
{
	double		q = (ldexp(1.0, f) + 2.0) / ldexp(1.0, 2 * f);

	return 2.0 * m * q / n;
}

/* the sub-filter for C entries at rate t with b slots per bucket */
static void
r_shape(uint64_t C, double t, int b, int *f_out, uint64_t *n_out)
{
	uint64_t	n_room = 1;
	uint64_t	best = UINT64_MAX;

	while (r_room(b, n_room) < C)
		n_room++;
	for (int f = 7; f <= 32; f++)
	{
		/* the fewest n >= n_room with rate <= t: jump near it, then step */
		uint64_t	n = (uint64_t) (2.0 * C * ((ldexp(1.0, f) + 2.0) / ldexp(1.0, 2 * f)) / t);

		if (n < n_room)
			n = n_room;
		while (n > n_room && r_rate(f, C, n - 1) <= t)
			n--;
		while (r_rate(f, C, n) > t)
			n++;
		if (n * f < best)
		{
			best = n * f;
			*f_out = f;
			*n_out = n;
		}
	}
}

static void
r_add_sub(RFilter *F, uint64_t n, int f)
{
	RSub	   *s = &F->sub[F->nsub++];

	s->n = n;
	s->f = f;
	s->m = 0;
	s->slot = calloc(n * F->b, sizeof(uint32_t));
}

static void
r_create(RFilter *F, uint64_t c, double e, uint32_t seed)
{
	int			f4,
				f8;
	uint64_t	n4,
				n8;
	double		t = e * 0.9;

	memset(F, 0, sizeof(*F));
	F->seed = seed;
	F->c = c;
	F->e = e;
	F->kicks = 500;
	r_shape(c, t, 4, &f4, &n4);
	r_shape(c, t, 8, &f8, &n8);
	F->b = n8 * 8 * f8 < n4 * 4 * f4 ? 8 : 4;
	r_add_sub(F, F->b == 8 ? n8 : n4, F->b == 8 ? f8 : f4);
}

static void
r_hash(int64_t key, uint32_t seed, uint64_t *h1, uint64_t *h2)
{
	uint8_t		bytes[8];
	uint64_t	out[2];

	for (int i = 0; i < 8; i++)
		bytes[i] = (uint8_t) ((uint64_t) key >> (8 * i));
	lmmh_x64_128(bytes, 8, seed, out);
	*h1 = out[0];
	*h2 = out[1];
}

static uint32_t
r_fp(uint64_t h2, int f)
{
	uint32_t	fp = (uint32_t) (h2 >> (64 - f));

	return fp == 0 ? 1 : fp;
}

static uint64_t
r_alt(uint64_t i, uint32_t fp, uint64_t n)
{
	uint64_t	H = r_high(bloom_fmix64(fp), n);

	return (H + n - i) % n;
}

/* slot index (bucket * b + j) of the first slot of bucket i holding v, or -1 */
static int64_t
r_find(const RFilter *F, const RSub *s, uint64_t i, uint32_t v)
{
	for (int j = 0; j < F->b; j++)
		if (s->slot[i * F->b + j] == v)
			return (int64_t) (i * F->b + j);
	return -1;
}

static int64_t
r_match(const RFilter *F, const RSub *s, uint64_t h1, uint64_t h2)
{
	uint32_t	fp = r_fp(h2, s->f);
	uint64_t	i1 = r_high(h1, s->n);
	int64_t		k = r_find(F, s, i1, fp);

	return k >= 0 ? k : r_find(F, s, r_alt(i1, fp, s->n), fp);
}

static bool
r_place(RFilter *F, RSub *s, uint64_t i1, uint32_t fp)
{
	int64_t		k = r_find(F, s, i1, 0);

	if (k < 0)
		k = r_find(F, s, r_alt(i1, fp, s->n), 0);
	if (k < 0)
		return false;
	s->slot[k] = fp;
	s->m++;
	F->items++;
	return true;
}

static uint64_t
r_next(uint64_t x)
{
	return x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
}

static bool
r_kick(RFilter *F, RSub *s, uint64_t i1, uint32_t fp, uint64_t r)
{
	uint64_t	written[4096];
	uint32_t	hand = fp;
	uint64_t	cur;
	int			done;

	r = r_next(r);
	cur = (r >> 63) ? r_alt(i1, fp, s->n) : i1;
	for (done = 0; done < F->kicks; done++)
	{
		uint64_t	k;
		uint32_t	was;
		int64_t		empty;

		r = r_next(r);
		k = cur * F->b + ((r >> 61) & (uint64_t) (F->b - 1));
		was = s->slot[k];
		s->slot[k] = hand;
		written[done] = k;
		hand = was;
		cur = r_alt(cur, hand, s->n);
		empty = r_find(F, s, cur, 0);
		if (empty >= 0)
		{
			s->slot[empty] = hand;
			s->m++;
			F->items++;
			return true;
		}
	}
	/* undo in reverse: each slot gets back the fingerprint taken from it */
	while (done-- > 0)
	{
		uint32_t	now = s->slot[written[done]];

		s->slot[written[done]] = hand;
		hand = now;
	}
	return false;
}

static uint64_t
r_sub_room(const RFilter *F, int k)
{
	uint64_t	want = F->c << k;
	uint64_t	cap = k == 0 ? F->sub[0].n * F->b : r_room(F->b, F->sub[k].n);

	return want < cap ? want : cap;
}

static void
r_add(RFilter *F, int64_t key)
{
	uint64_t	h1,
				h2;

	r_hash(key, F->seed, &h1, &h2);
	for (;;)
	{
		RSub	   *last = &F->sub[F->nsub - 1];
		int			f;
		uint64_t	n;

		/* 1. the newest sub-filter the element matches */
		for (int k = F->nsub - 1; k >= 0; k--)
		{
			RSub	   *s = &F->sub[k];

			if (r_match(F, s, h1, h2) < 0)
				continue;
			if (r_place(F, s, r_high(h1, s->n), r_fp(h2, s->f)) ||
				r_kick(F, s, r_high(h1, s->n), r_fp(h2, s->f), h2))
				return;
			break;
		}
		/* 2. placing, newest first, where m < room */
		for (int k = F->nsub - 1; k >= 0; k--)
			if (F->sub[k].m < r_sub_room(F, k) &&
				r_place(F, &F->sub[k], r_high(h1, F->sub[k].n), r_fp(h2, F->sub[k].f)))
				return;
		/* 3. the kick walk in the newest */
		if (last->m < r_sub_room(F, F->nsub - 1) &&
			r_kick(F, last, r_high(h1, last->n), r_fp(h2, last->f), h2))
			return;
		/* 4. grow */
		r_shape(F->c << F->nsub, F->e * 0.9 / ldexp(1.0, F->nsub), F->b, &f, &n);
		r_add_sub(F, n, f);
	}
}

static void
r_delete(RFilter *F, int64_t key)
{
	uint64_t	h1,
				h2;
	int			found = -1;

	r_hash(key, F->seed, &h1, &h2);
	for (int k = F->nsub - 1; k >= 0; k--)
	{
		if (r_match(F, &F->sub[k], h1, h2) < 0)
			continue;
		if (found < 0)
			found = k;
		else if (F->sub[k].n != F->sub[found].n || F->sub[k].f != F->sub[found].f)
			return;
	}
	if (found >= 0)
	{
		F->sub[found].slot[r_match(F, &F->sub[found], h1, h2)] = 0;
		F->sub[found].m--;
		F->items--;
	}
}

static void
r_put(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

/* the binary format; returns the length */
static size_t
r_bytes(const RFilter *F, uint8_t *out)
{
	size_t		off = 48;
	uint64_t	rate;

	memset(out, 0, 48);
	memcpy(out, "CKOF", 4);
	out[4] = 1;
	out[5] = 5;
	out[6] = (uint8_t) F->b;
	out[7] = (uint8_t) F->sub[0].f;
	r_put(out + 8, F->seed, 4);
	r_put(out + 12, (uint64_t) F->nsub, 2);
	r_put(out + 14, (uint64_t) F->kicks, 2);
	r_put(out + 16, F->c, 8);
	memcpy(&rate, &F->e, 8);
	r_put(out + 24, rate, 8);
	r_put(out + 32, F->items, 8);
	for (int k = 0; k < F->nsub; k++)
	{
		const RSub *s = &F->sub[k];
		size_t		nbytes = (s->n * F->b * s->f + 7) / 8;

		memset(out + off, 0, 24 + nbytes);
		r_put(out + off, s->n, 8);
		r_put(out + off + 8, s->m, 8);
		out[off + 16] = (uint8_t) s->f;
		off += 24;
		for (uint64_t k2 = 0; k2 < s->n * F->b; k2++)
			for (int bit = 0; bit < s->f; bit++)
				if ((s->slot[k2] >> bit) & 1)
				{
					uint64_t	x = k2 * s->f + bit;

					out[off + (x >> 3)] |= (uint8_t) (1 << (x & 7));
				}
		off += nbytes;
	}
	return off;
}

static void
test_readme_recipe(void)
{
	static const struct
	{
		uint64_t	c;
		double		e;
		uint32_t	seed;
		int			keys;
	}			cases[] = {
		{50, 0.01, 77, 700}, {5, 0.3, 0, 90}, {1000, 0.001, 12345, 9000}, {1, 1e-6, 9, 40},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		RFilter		R;
		Filter		f;
		uint8_t    *mine;
		size_t		len;

		r_create(&R, cases[i].c, cases[i].e, cases[i].seed);
		filter_new(&f, cases[i].c, cases[i].e, cases[i].seed);
		/* distinct keys, then three more copies of ten of them, then deletes */
		for (int k = 0; k < cases[i].keys + 30; k++)
		{
			int64_t		x = k < cases[i].keys ? k : k % 10;

			r_add(&R, x);
			filter_add(&f, key(x, cases[i].seed));
		}
		for (int k = 0; k < cases[i].keys / 2; k += 3)
		{
			r_delete(&R, k);
			cuckoo_delete(&f.v, key(k, cases[i].seed));
		}
		mine = malloc(f.v.len + 4096);
		len = r_bytes(&R, mine);
		CHECK(len == f.v.len && memcmp(mine, f.buf, len) == 0,
			  "format.md recipe, cf(%llu, %g, seed %u) with %d adds: %d sub-filters, %zu bytes against the core's %d, %zu",
			  (unsigned long long) cases[i].c, cases[i].e, cases[i].seed, cases[i].keys,
			  R.nsub, len, f.v.hdr.nsub, f.v.len);
		if (len == f.v.len && memcmp(mine, f.buf, len) == 0)
			printf("  format.md recipe: cf(%llu, %g, seed %u), %d adds and %d deletes: %d sub-filters, b=%d, %zu bytes, the core's bytes\n",
				   (unsigned long long) cases[i].c, cases[i].e, cases[i].seed, cases[i].keys + 30,
				   (cases[i].keys / 2 + 2) / 3, R.nsub, R.b, len);
		for (int k = 0; k < R.nsub; k++)
			free(R.sub[k].slot);
		free(mine);
		free(f.buf);
	}
}

int
main(int argc, char **argv)
{
	bool		bench = argc > 1 && strcmp(argv[1], "--bench") == 0;

	test_header();
	test_sizing();
	test_validation();
	test_determinism();
	test_batch_matches_single();
	test_legacy();
	test_capacity(100000, 0.01, true);
	test_capacity(100000, 0.001, true);
	test_no_growth(2000, 3);
	test_no_growth(200, 100);
	test_exact_capacity();
	test_growth();
	test_bound(bench);
	test_deletes(300000);
	test_deletes(50000);
	test_delete_half();
	test_merge();
	test_spans();
	test_readme_recipe();
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
