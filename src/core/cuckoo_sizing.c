/*-------------------------------------------------------------------------
 *
 * cuckoo_sizing.c
 *	  The room of a cuckoo sub-filter, its modelled rate, and the shape
 *	  that takes a capacity at a rate in the fewest bits.
 *
 * What a cuckoo filter holds and how it is read and written is
 * core/cuckoo.c's; how large a sub-filter must be is a question of its own,
 * answered by models and measurements rather than by the format, and every
 * client must answer it in the same integer arithmetic, so it stands here
 * apart, as core/sizing.c does for bloomfilter.  Nothing here reads a value.
 *
 * Rate.  A fingerprint of f bits equals another element's with
 * probability q = (2^f + 2) / 4^f (value 1 stands for 0 too, so it is
 * twice as likely as the others).  A non-member's two buckets hold on
 * average 2 m / n of the m entries of a sub-filter of n buckets, so it
 * matches 2 m q / n of them on average: that expectation is the modelled
 * rate (cuckoo_model_fpp), an upper bound of the chance of a match.
 *
 * Room.  Cuckoo hashing fills a table up to a load that depends on b and
 * scatters about its mean by about sqrt(S) of the S = n b slots, with a
 * long low tail in tables of a few buckets.  Measured with 500 kicks (the
 * first failed walk, random keys): b = 4 reaches 0.955 and more from 1,000
 * to 10M buckets (0.93 with a one-in-20,000 tail at 100 buckets), b = 8
 * 0.984 and more.  A sub-filter's room, the most entries it takes before
 * it counts as full, stays under both: max(b, floor(930 S / 1000) -
 * ceil(sqrt(16 S))) for b = 4, max(b, floor(960 S / 1000) -
 * ceil(sqrt(9 S))) for b = 8 (b = 2, which 1.2 made: 800 and 16).  One
 * bucket always takes b entries, whatever they are.  test/unit_cuckoo.c
 * fills 156,000 first sub-filters (capacities 1..2000, six rates, many
 * seeds) to their rooms without a failed walk.  XXX: that is a margin,
 * not a proof: random hashing can fail earlier with a tiny probability,
 * and keys chosen against a known seed (2b + 1 of them with one
 * fingerprint and bucket pair) always can; the filter then grows, which
 * keeps every answer right (fails safe).
 *
 * Sizing.  A sub-filter for C entries at a modelled rate of at most t,
 * with b slots per bucket: n_room, the fewest buckets whose room holds C;
 * then for each f from 7 to 32, the fewest buckets n >= n_room at which
 * C entries model at most t; of those the (f, n) with the fewest bits n f
 * (the smaller f on a tie).  Fewer bits at more buckets can win, which is
 * why every f is tried.  cf_create takes C = capacity, t = 0.9 e (the
 * margin bloomfilter's sizing uses, so that measurements stay under the
 * request), and b = 4 or 8, whichever needs fewer bits n b f (4 on a
 * tie): b = 8 needs one more fingerprint bit but fills more evenly, so it
 * wins for small capacities.  Fingerprints have at least 7 bits: with few
 * bits the alternate bucket takes few values (2^f), and measured tables
 * then fill badly (b = 2 and 5 bits: 56% at 1M buckets; 3 bits: 15%).
 * That makes b = 4 from about 20% down to 1e-6: 10.8 bits per element at
 * 1% (an optimal Bloom filter: 9.6), 14.1 at 0.1% (14.4), 18.4 at 0.01%
 * (19.2).
 *
 * src/core/cuckoo_sizing.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/cuckoo_sizing.h"

#include <math.h>

/*
 * Room of a sub-filter of n buckets of b slots (S = n b slots): the most
 * entries adds put there.  Cuckoo hashing fills a table up to a load that
 * depends on b (measured with 500 kicks: 0.955 and up for b = 4, 0.984 and
 * up for b = 8, up to 10M buckets) and that scatters about its mean by
 * about sqrt(S) slots, with a long low tail in tables of a few buckets
 * (where one bucket's share matters).  The room stays under both: a load
 * of 0.93 (b = 4) or 0.96 (b = 8), less beta sqrt(S) slots (beta 4 and 3).
 * b slots always take b entries (one bucket holds them whatever they are),
 * so the room is at least b.  Integer arithmetic only, so that every
 * client computes the same room.  b = 2 is only ever read (1.2 made it;
 * its small fingerprints fill badly: see CUCKOO_FLOOR_FP_BITS).
 */
static uint64_t
cuckoo_isqrt_ceil(uint64_t x)
{
	uint64_t	r = (uint64_t) sqrt((double) x);

	while (r * r < x)
		r++;
	while (r > 0 && (r - 1) * (r - 1) >= x)
		r--;
	return r;
}

/* the room model's mean load (per mille of the slots) and spread for b */
static inline uint64_t
cuckoo_room_permille(int b)
{
	return b == 8 ? 960 : b == 4 ? 930 : 800;
}

static inline uint64_t
cuckoo_room_beta(int b)
{
	return b == 8 ? 3 : 4;
}

uint64_t
cuckoo_room(int bucket_size, uint64_t nbuckets)
{
	uint64_t	slots = nbuckets * (uint64_t) bucket_size;
	uint64_t	permille = cuckoo_room_permille(bucket_size);
	uint64_t	beta = cuckoo_room_beta(bucket_size);
	uint64_t	load = slots * permille / 1000;
	uint64_t	spread = cuckoo_isqrt_ceil(beta * beta * slots);

	if (load <= spread || load - spread < (uint64_t) bucket_size)
		return (uint64_t) bucket_size;
	return load - spread;
}

/*
 * A fingerprint of f bits matches another element's with probability
 * q = sum over values of P(value)^2 = (2^f + 2) / 4^f (value 1 also stands
 * for 0, so it is twice as likely).  A non-member's two buckets hold on
 * average 2 items / n entries of the sub-filter, so it matches 2 items q / n
 * of them on average: the rate, and an upper bound of the probability.
 */
double
cuckoo_model_fpp(int fp_bits, uint64_t items, uint64_t nbuckets)
{
	double		q = (ldexp(1.0, fp_bits) + 2.0) / ldexp(1.0, 2 * fp_bits);

	return 2.0 * (double) items * q / (double) nbuckets;
}

/* the fewest buckets whose room holds capacity; false past the size limit */
static bool
cuckoo_room_buckets(uint64_t capacity, int b, uint64_t max_n, uint64_t *nbuckets)
{
	double		load = cuckoo_room_permille(b) / 1000.0;
	double		beta = (double) cuckoo_room_beta(b);
	double		guess = ((double) capacity + beta * sqrt((double) capacity / load)) / (b * load);
	uint64_t	n;

	/* near the answer (the room is about load S - beta sqrt(S)); then exact */
	if (guess > (double) max_n)
		return false;
	n = guess > 1.0 ? (uint64_t) guess : 1;
	while (n > 1 && cuckoo_room(b, n - 1) >= capacity)
		n--;
	while (cuckoo_room(b, n) < capacity)
		if (++n > max_n)
			return false;
	*nbuckets = n;
	return true;
}

/*
 * The sub-filter for capacity entries at a modelled rate of at most target
 * with b slots per bucket, in the fewest bits.  Its buckets must give room
 * for capacity (so that it never fills before it); each f from the floor
 * to 32 then needs enough buckets that capacity entries in them stay
 * within target, and the f with the fewest bits wins (the smallest on a
 * tie).  A sub-filter takes capacity entries and no more, so its rate
 * never passes target.  False if no f up to 32 fits within the size limit.
 */
bool
cuckoo_shape(uint64_t capacity, double target, int b, int *fp_bits, uint64_t *nbuckets)
{
	uint64_t	max_n = (uint64_t) CUCKOO_MAX_BYTES * 8 / ((uint64_t) b * CUCKOO_FLOOR_FP_BITS);
	uint64_t	n_room;
	double		best = INFINITY;

	/*
	 * A rate that underflowed to 0 (a stored rate near the smallest double,
	 * halved once per sub-filter) is met by no f; the division below would
	 * otherwise divide by zero.
	 */
	if (!(target > 0.0) || !cuckoo_room_buckets(capacity, b, max_n, &n_room))
		return false;
	for (int f = CUCKOO_FLOOR_FP_BITS; f <= CUCKOO_MAX_FP_BITS; f++)
	{
		double		need = cuckoo_model_fpp(f, capacity, 1) / target;
		uint64_t	n;

		if (!(need <= (double) max_n))
			continue;
		n = need > (double) n_room ? (uint64_t) ceil(need) : n_room;
		/* exact in the model's own arithmetic, whatever ceil rounded */
		while (n > n_room && cuckoo_model_fpp(f, capacity, n - 1) <= target)
			n--;
		while (cuckoo_model_fpp(f, capacity, n) > target)
			n++;
		if (cuckoo_empty_bytes(b, f, n) != 0 && (double) n * f < best)
		{
			best = (double) n * f;
			*fp_bits = f;
			*nbuckets = n;
		}
	}
	return best != INFINITY;
}

/*
 * b = 4 or b = 8, whichever needs fewer bits (b = 4 on a tie): b = 8 needs
 * one more fingerprint bit for the same rate but fills more reliably, so
 * it wins for small capacities, where the room's margin is most of it.
 */
bool
cuckoo_size(uint64_t capacity, double error_rate, int *bucket_size,
			int *fp_bits, uint64_t *nbuckets)
{
	static const int sizes[] = {4, 8};
	double		target = error_rate * BLOOM_SIZING_MARGIN;
	double		best = INFINITY;

	for (int i = 0; i < 2; i++)
	{
		int			f;
		uint64_t	n;
		double		bits;

		if (!cuckoo_shape(capacity, target, sizes[i], &f, &n))
			continue;
		bits = (double) n * sizes[i] * f;
		if (bits < best)
		{
			best = bits;
			*bucket_size = sizes[i];
			*fp_bits = f;
			*nbuckets = n;
		}
	}
	return best != INFINITY;
}
