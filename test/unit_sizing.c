/*-------------------------------------------------------------------------
 *
 * unit_sizing.c
 *	  The fast sizing of core/sizing.c must give exactly the shapes the
 *	  original exhaustive search gives.
 *
 * Stored filters record their shape, and filters created with the same
 * capacity and rate must keep getting the same shape, or unions with older
 * filters fail.  So for every pair checked, bloom_size_search (and
 * bloom_size, through its cache) must return the same nbits and k as
 * bloom_size_exhaustive, and refuse ("too large") exactly when it refuses:
 *
 *  - a grid of capacities (1, 2, 3, 10, 100, 999, 1000, 1001, 10^4 .. 10^9
 *    and random ones) by rates (0.5 .. 1e-10 and random ones);
 *  - every capacity 1..400 at a few rates, where k and the block count
 *    change at almost every step;
 *  - the largest capacity that still fits, and the next, at several rates;
 *  - random pairs, as many as BLOOM_SIZING_RANDOM (default 60).
 *
 * Underneath, the model values the fast search decides on must be the very
 * doubles bloom_model_fpp returns; that is checked directly, bit for bit.
 *
 * The fast search assumes that "the best k of B blocks meets the target"
 * switches once, from false to true, as B grows.  For a set of pairs the
 * test evaluates that with bloom_model_fpp itself over a window of blocks
 * either side of the answer, to show the switch is clean there.
 *
 * With --bench it times the old and the new search instead.
 *
 * test/unit_sizing.c
 *
 *-------------------------------------------------------------------------
 */
#define _POSIX_C_SOURCE 199309L

#include "unit.h"
#include "core/blocked.h"
#include "core/sizing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long pairs_checked = 0;


static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = UINT64_C(0x853C49E6748FEA9B);

static uint64_t
next_random(void)
{
	uint64_t	z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* uniform in [0, 1) */
static double
next_unit(void)
{
	return (double) (next_random() >> 11) * 0x1.0p-53;
}

/*
 * One pair: the fast search, the cached entry point (twice, the second a
 * cache hit) and the reference must agree.  Returns false on a mismatch.
 */
static bool
compare_pair(uint64_t capacity, double rate, bool quiet)
{
	uint64_t	nb_ref = 0,
				nb_new = 0,
				nb_c1 = 0,
				nb_c2 = 0;
	int			k_ref = 0,
				k_new = 0,
				k_c1 = 0,
				k_c2 = 0;
	bool		ok_ref = bloom_size_exhaustive(capacity, rate, &nb_ref, &k_ref);
	bool		ok_new = bloom_size_search(capacity, rate, &nb_new, &k_new);
	bool		ok_c1 = bloom_size(capacity, rate, &nb_c1, &k_c1);
	bool		ok_c2 = bloom_size(capacity, rate, &nb_c2, &k_c2);
	bool		same;

	pairs_checked++;
	same = ok_ref == ok_new && ok_ref == ok_c1 && ok_ref == ok_c2;
	if (same && ok_ref)
		same = nb_ref == nb_new && k_ref == k_new &&
			nb_ref == nb_c1 && k_ref == k_c1 &&
			nb_ref == nb_c2 && k_ref == k_c2;
	if (!same || !quiet)
		printf("# %s capacity %llu rate %.17g: reference %s %llu bits k %d, "
			   "new %s %llu bits k %d, cached %s %llu/%llu bits k %d/%d\n",
			   same ? "ok" : "MISMATCH",
			   (unsigned long long) capacity, rate,
			   ok_ref ? "fits" : "too large", (unsigned long long) nb_ref, k_ref,
			   ok_new ? "fits" : "too large", (unsigned long long) nb_new, k_new,
			   ok_c1 ? "fits" : "too large", (unsigned long long) nb_c1,
			   (unsigned long long) nb_c2, k_c1, k_c2);
	return same;
}

static void
test_grid(void)
{
	static const double rates[] = {0.5, 0.1, 0.05, 0.01, 0.001, 1e-4, 1e-6, 1e-8, 1e-10};
	static const uint64_t caps[] = {1, 2, 3, 10, 100, 999, 1000, 1001, 10000,
		100000, 1000000, 10000000, 100000000, 1000000000};
	double		rnd_rates[4];
	uint64_t	rnd_caps[4];
	int			bad = 0,
				n = 0;
	int			nr = sizeof(rates) / sizeof(rates[0]);
	int			nc = sizeof(caps) / sizeof(caps[0]);

	/* random rates log-uniform over the accepted range, random capacities */
	for (int i = 0; i < 4; i++)
	{
		rnd_rates[i] = exp(log(BLOOM_MIN_ERROR_RATE) * next_unit());
		rnd_caps[i] = (uint64_t) exp(log(1e9) * next_unit()) + 1;
	}
	for (int r = 0; r < nr + 4; r++)
		for (int c = 0; c < nc + 4; c++)
		{
			double		rate = r < nr ? rates[r] : rnd_rates[r - nr];
			uint64_t	cap = c < nc ? caps[c] : rnd_caps[c - nc];

			/*
			 * The reference takes up to 0.1 s per pair below 1e-6; the
			 * largest capacities there are left to the corners below.
			 */
			if (rate < 1e-7 && cap > 100000000 && c < nc)
				continue;
			bad += !compare_pair(cap, rate, true);
			n++;
		}
	printf("# grid: %d pairs\n", n);
	CHECK(bad == 0, "%d grid pairs differ from the reference", bad);
}

/* every small capacity, where the shape changes at almost every step */
static void
test_small_capacities(void)
{
	static const double rates[] = {0.5, 0.01, 1e-6};
	int			bad = 0,
				n = 0;

	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
		for (uint64_t cap = 1; cap <= 400; cap++)
		{
			bad += !compare_pair(cap, rates[r], true);
			n++;
		}
	printf("# small capacities: %d pairs\n", n);
	CHECK(bad == 0, "%d small-capacity pairs differ from the reference", bad);
}

/*
 * "Too large": the largest capacity that fits, found with the fast search,
 * and the next one must be judged alike by the reference.
 */
static void
test_size_limit(void)
{
	static const double rates[] = {0.5, 0.01, 1e-4, 1e-10};
	int			bad = 0;

	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
	{
		uint64_t	fits = 1,
					over = UINT64_C(1) << 40;
		uint64_t	nb;
		int			k;

		while (over - fits > 1)
		{
			uint64_t	mid = fits + (over - fits) / 2;

			if (bloom_size_search(mid, rates[r], &nb, &k))
				fits = mid;
			else
				over = mid;
		}
		bad += !compare_pair(fits, rates[r], false);
		bad += !compare_pair(over, rates[r], false);
		bad += !compare_pair(over * 2, rates[r], true);
		bad += !compare_pair(over * 64, rates[r], true);
	}
	CHECK(bad == 0, "%d pairs at the size limit differ from the reference", bad);
}

static void
test_random_pairs(void)
{
	const char *env = getenv("BLOOM_SIZING_RANDOM");
	int			count = env ? atoi(env) : 60;
	int			bad = 0;

	for (int i = 0; i < count; i++)
	{
		double		u = next_unit();
		double		rate;
		uint64_t	cap;

		/* mostly the accepted range, sometimes rates up to nearly 1 */
		if (i % 10 == 9)
			rate = 0.5 + 0.4999 * u;
		else
			rate = exp(log(BLOOM_MIN_ERROR_RATE) * u);
		/* the reference is slow for large filters at tiny rates */
		cap = (uint64_t) exp(log(rate < 1e-6 ? 1e7 : 1e9) * next_unit()) + 1;
		bad += !compare_pair(cap, rate, true);
	}
	printf("# random: %d pairs\n", count);
	CHECK(bad == 0, "%d random pairs differ from the reference", bad);
}

/*
 * The tables give bit for bit the doubles bloom_model_fpp computes: random
 * capacities, block counts around every load from half an element to a few
 * thousand per block (past the tables' 1024 terms), every k; and one block
 * holding up to 3000 elements.
 */
static void
test_model_values(void)
{
	int			bad = 0,
				n = 0;

	for (int i = 0; i < 1500; i++)
	{
		double		cap = floor(exp(log(1e9) * next_unit())) + 1;
		double		lambda = exp(log(0.5) + (log(3000.0) - log(0.5)) * next_unit());
		double		b = floor(cap / lambda);
		uint64_t	nblocks = b < 1 ? 1 : b > BLOOM_MAX_BLOCKS ? BLOOM_MAX_BLOCKS : (uint64_t) b;
		int			k = 1 + (int) (next_random() % BLOOM_MAX_HASHES);

		if (i % 50 == 0)
		{
			cap = 1 + (double) (next_random() % 3000);
			nblocks = 1;
		}
		{
			double		ref = bloom_model_fpp(cap, nblocks, k);
			double		fast = bloom_model_fpp_cached(cap, nblocks, k);

			n++;
			if (memcmp(&ref, &fast, sizeof(double)) != 0)
			{
				bad++;
				printf("# model n=%.0f blocks=%llu k=%d: %.17g, tables %.17g\n",
					   cap, (unsigned long long) nblocks, k, ref, fast);
			}
		}
	}
	printf("# model values: %d compared bit for bit\n", n);
	CHECK(bad == 0, "%d model values from the tables differ from bloom_model_fpp", bad);
}

/* the reference's "best k of nblocks meets target", from bloom_model_fpp */
static bool
meets(uint64_t capacity, uint64_t nblocks, double target)
{
	int			k;

	return bloom_best_k((double) capacity, nblocks, &k) <= target;
}

/*
 * The switch from "too few blocks" to "enough" is clean around the answer:
 * WINDOW block counts below it fail, WINDOW from it up meet the target.
 */
#define WINDOW 4

static void
test_switch_is_clean(void)
{
	static const struct
	{
		uint64_t	capacity;
		double		rate;
	}			cases[] = {
		{1000, 0.01}, {1000000, 0.01}, {100000000, 0.01}, {600000000, 0.01},
		{1000000, 0.5}, {1000000, 1e-4}, {10000000, 1e-6}, {100000, 1e-10},
		{12345, 0.05}, {987654321, 0.001}
	};
	int			bad = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		uint64_t	nb;
		int			k;
		uint64_t	blocks;
		double		target = cases[i].rate * BLOOM_SIZING_MARGIN;

		if (!bloom_size_search(cases[i].capacity, cases[i].rate, &nb, &k))
			continue;
		blocks = nb / BLOOM_BLOCK_BITS;
		for (int d = -WINDOW; d < WINDOW; d++)
		{
			uint64_t	b = blocks + d;

			if (b < 1 || b > BLOOM_MAX_BLOCKS)
				continue;
			if (meets(cases[i].capacity, b, target) != (d >= 0))
			{
				bad++;
				printf("# capacity %llu rate %g: %llu blocks %s the target\n",
					   (unsigned long long) cases[i].capacity, cases[i].rate,
					   (unsigned long long) b, d >= 0 ? "misses" : "meets");
			}
		}
	}
	CHECK(bad == 0, "the switch to enough blocks is not clean in %d places", bad);
}

/* ---- timings (--bench) ---- */

static double
time_calls(bool (*fn) (uint64_t, double, uint64_t *, int *),
		   uint64_t capacity, double rate, double min_seconds)
{
	uint64_t	nb;
	int			k;
	long		calls = 0;
	double		t0 = now(),
				t;

	do
	{
		fn(capacity, rate, &nb, &k);
		calls++;
		t = now() - t0;
	} while (t < min_seconds);
	return t / calls;
}

static void
bench(void)
{
	static const double rates[] = {0.01, 1e-6, 1e-10};
	static const uint64_t caps[] = {1000, 1000000, 100000000};
	uint64_t	nb;
	int			k;
	double		t0 = now();

	/* the first call of a process fills the per-k tables */
	bloom_size_search(1000000, 0.01, &nb, &k);
	printf("first call of the process (1e6 at 1%%, tables cold): %.1f us\n",
		   (now() - t0) * 1e6);

	printf("%12s %8s %14s %14s %14s %9s\n", "capacity", "rate", "old (us)",
		   "new (us)", "cached (us)", "speedup");
	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
		for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++)
		{
			double		old_t = time_calls(bloom_size_exhaustive, caps[c], rates[r], 0.3);
			double		new_t = time_calls(bloom_size_search, caps[c], rates[r], 0.3);
			double		cached_t = time_calls(bloom_size, caps[c], rates[r], 0.1);

			printf("%12llu %8g %14.1f %14.2f %14.3f %8.0fx\n",
				   (unsigned long long) caps[c], rates[r], old_t * 1e6,
				   new_t * 1e6, cached_t * 1e6, old_t / new_t);
		}
}

int
main(int argc, char **argv)
{
	double		t0 = now();

	if (argc > 1 && strcmp(argv[1], "--bench") == 0)
	{
		bench();
		return 0;
	}

	test_model_values();
	test_grid();
	test_small_capacities();
	test_size_limit();
	test_random_pairs();
	test_switch_is_clean();

	printf("# %ld pairs compared with the exhaustive search in %.1f s\n",
		   pairs_checked, now() - t0);
	printf("%d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
