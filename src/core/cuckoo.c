/*-------------------------------------------------------------------------
 *
 * cuckoo.c
 *	  The cuckoofilter type's core: a cuckoo filter (Fan, Andersen, Kaminsky
 *	  and Mitzenmacher, "Cuckoo Filter: Practically Better Than Bloom",
 *	  CoNEXT 2014) that grows by sub-filters, in plain C.
 *
 * A cuckoo filter keeps a short fingerprint of each element in one of two
 * buckets of a table.  Unlike a Bloom filter it can delete (remove one copy
 * of a fingerprint) and count copies; like one, it answers "certainly not"
 * or "possibly".
 *
 * Hashing.  Elements become canonical bytes exactly as for bloomfilter
 * (type/keys.c, hash id 2) and are hashed with MurmurHash3 x64_128
 * seeded with the filter's seed: h1 and h2.  In a sub-filter of n buckets
 * and f-bit fingerprints:
 *
 *		bucket		i1 = (h1 * n) >> 64		(128-bit product: "fastrange")
 *		fingerprint fp = h2 >> (64 - f), and 1 if that is 0 (0 marks an
 *					empty slot)
 *		alternate	alt(i) = (H - i) mod n, H = (fmix64(fp) * n) >> 64
 *
 * alt is partial-key cuckoo hashing: a fingerprint's other bucket is
 * computed from the bucket it is in and the fingerprint alone, so entries
 * can move (and sub-filters can be merged) without the element.  The paper
 * uses i XOR hash(fp), which needs n to be a power of two; (H - i) mod n
 * is an involution for any n (alt(alt(i)) = H - (H - i) = i), so a table
 * is exactly as large as the capacity needs instead of up to twice that.
 * i1 = alt(i1) happens (when 2 i1 = H mod n); the element then has one
 * bucket, which costs nothing but choice.  Since alt depends on fp and the
 * bucket only, an element x and a stored entry with x's fingerprint in one
 * of x's buckets always have the same pair of buckets: the answers of a
 * filter are a function of the multiset of (fingerprint, bucket pair) it
 * holds, not of where kicks happened to put each entry.
 *
 * Layout.  A 48-byte header, then each sub-filter: a 24-byte descriptor
 * (uint64 buckets, uint64 occupied slots, uint8 fingerprint bits, 7 zero
 * bytes) and its slots, bucket after bucket, b slots each, each slot f bits
 * packed little-endian: slot k of the sub-filter is bits k*f .. k*f+f-1,
 * bit x being bit (x & 7) of byte (x >> 3); the unused bits of the last
 * byte are zero.  All integers little-endian.
 *
 *		0	uint32	magic "CKOF"
 *		4	uint8	version (1)
 *		5	uint8	hash id (2, as bloomfilter's)
 *		6	uint8	slots per bucket b (2, 4 or 8)
 *		7	uint8	fingerprint bits of the first sub-filter (2..32)
 *		8	uint32	seed
 *		12	uint16	number of sub-filters (1..64)
 *		14	uint16	kicks per insertion (0..4096; 500 from cf_create)
 *		16	uint64	capacity it was sized for
 *		24	float64 error rate it was sized for
 *		32	uint64	items: occupied slots of all sub-filters
 *		40	uint32	key type, as bloomfilter's (0 untyped, else bloom_key_type_valid)
 *		44	uint32	reserved, zero
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
 * Insertion.  First, the newest sub-filter in which the element already
 * matches an entry: an empty slot of its buckets there, else the kick walk
 * there, whatever its fill.  Copies of an element so stay in one
 * sub-filter, which is what lets deletes remove them (below); and a copy
 * of an entry (same fingerprint, same buckets) does not change which
 * non-members match.  Else, newest sub-filter first, the first empty slot
 * of either bucket in a sub-filter below its room (the first sub-filter's
 * room is the capacity, sub-filter k's c 2^k, each at most its buckets'
 * room); else the kick walk in the newest sub-filter, if it is below its
 * room.  The walk puts the fingerprint in a slot of one of its buckets,
 * takes the one that was there to that one's other bucket, and so on, up
 * to max_kicks times; the slot and the starting bucket come from a linear
 * congruential sequence seeded with h2 (for merges, with the fingerprint
 * and bucket), never from a random source: the same filter and the same
 * element always give the same bytes.  If the walk finds no empty slot it
 * is undone, so the value is unchanged.  Failing all that, the filter
 * grows and the add starts again.
 *
 * Growth.  Sub-filter k is sized for C = c 2^k at t = 0.9 e / 2^k with the
 * header's b: each doubles the room, and since a sub-filter takes no new
 * entries past its room (copies aside, which match no new non-member),
 * their modelled rates sum to less than 0.9 e (1 + 1/2 + 1/4 + ...) <
 * 1.8 e however far the filter grows.  Where no fingerprint of at most
 * 32 bits meets a share within CUCKOO_MAX_BYTES (at tiny rates a share
 * then needs ever more buckets per element) growth stops instead, as at
 * CUCKOO_MAX_BYTES or 64 sub-filters: the SQL layer raises 54000.  Checks and deletes look at every sub-filter (two
 * buckets each).  Adding one element more than 2 b times fills its pair
 * of buckets in every sub-filter, so every further copy grows the filter:
 * use cf_add_nx for sets.
 *
 * Deletion removes one entry with the element's fingerprint from one of
 * its buckets.  Deleting an element that was never added can remove
 * another element's entry, a false negative for that one.  Deleting what
 * was added never does: any entry matching the element in a sub-filter
 * has the element's fingerprint and bucket pair there, so which of them
 * goes makes no difference, and the same holds over sub-filters of one
 * shape (merges make such).  When the element matches in sub-filters of
 * two shapes, one match may be another element's entry (as often as a
 * false positive there), and which is the element's own cannot be told:
 * then nothing is removed, the element stays possibly present, and
 * cf_items keeps counting it.  XXX: such kept entries are a leak; with
 * sets (each element once) about 0.2% of deletes past capacity, but with
 * many copies of elements churned far past capacity many more
 * (test/unit_cuckoo.c counts both).  Size filters that see deletes for
 * their peak: one that never grew keeps none.
 *
 * Merging (the aggregate's combine step) re-inserts each entry of the
 * other filter at its own bucket pair in a sub-filter of the same shape,
 * appending one of that shape when none has room.  The entry keeps its
 * pair, so the merged filter answers as if both filters' adds had been
 * made to it (same shapes), though its bytes differ from a serial build.
 *
 * MurmurHash3 of a key of at most 8 bytes with the seed equal to its
 * length gives h2 = 1.5 h1 (mod 2^64), so fingerprint and bucket are one
 * function: seed 8 with integer keys fills a filter to about half, grows
 * it, and answers "present" for 77% of non-members at 1%.  The hash is the
 * format's, so new filters may not take seeds 1 to 8 (cf_create refuses
 * them); stored values with such a seed answer as they always did.
 *
 * src/core/cuckoo.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/cuckoo.h"

#include <math.h>
#include <string.h>

/* sub-filter k of a merge cursor: cursor >> CUCKOO_CURSOR_SHIFT */
#define CUCKOO_CURSOR_SHIFT 40

/*
 * A merge's kick walk is seeded by the fingerprint above the bucket: a
 * bucket index stays below 2^33 at the size limit, so distinct pairs seed
 * distinct walks.
 */
#define CUCKOO_MERGE_SEED_SHIFT 40

/*
 * A bucket whose slots span at most this many bits is read with one
 * 64-bit load: its first bit may sit up to 7 bits into the first byte.
 */
#define CUCKOO_ONE_LOAD_BITS	(64 - 7)

/* the kick sequence's LCG: Knuth's MMIX multiplier and increment */
#define CUCKOO_LCG_MUL			UINT64_C(6364136223846793005)
#define CUCKOO_LCG_INC			UINT64_C(1442695040888963407)

/*
 * Long loops check for a cancel every this many slots: counting one is a
 * few instructions (validation); moving one in a merge may be a kick walk.
 */
#define CUCKOO_INTERRUPT_SLOTS	(UINT64_C(1) << 20)
#define CUCKOO_MERGE_INTERRUPT_SLOTS (UINT64_C(1) << 16)

/* high 64 bits of x * n: the blocked layout's portable computation */
static inline uint64_t
cuckoo_fastrange(uint64_t x, uint64_t n)
{
	return bloom_block_of(x, n);
}

/* ---- slots ---- */

static inline uint64_t
cuckoo_mask(int f)
{
	return (UINT64_C(1) << f) - 1;
}

/*
 * Bits of slot k start at bit k*f; with f <= 32 and a shift of at most 7,
 * one 64-bit little-endian word at its first byte holds the slot.  Near
 * the end of the slots fewer bytes remain; those are read one by one.
 */
static inline uint64_t
cuckoo_word(const CuckooSub *s, size_t byte)
{
	uint64_t	w = 0;

	if (byte + 8 <= s->slot_bytes)
		return bloom_load64le(s->slots + byte);
	for (size_t i = 0; byte + i < s->slot_bytes; i++)
		w |= (uint64_t) s->slots[byte + i] << (8 * i);
	return w;
}

static inline uint32_t
cuckoo_get(const CuckooSub *s, uint64_t k)
{
	uint64_t	bit = k * s->fp_bits;

	return (uint32_t) ((cuckoo_word(s, (size_t) (bit >> 3)) >> (bit & 7)) & cuckoo_mask(s->fp_bits));
}

static inline void
cuckoo_set(CuckooSub *s, uint64_t k, uint32_t fp)
{
	uint64_t	bit = k * s->fp_bits;
	size_t		byte = (size_t) (bit >> 3);
	int			shift = (int) (bit & 7);
	uint64_t	w = cuckoo_word(s, byte);

	w &= ~(cuckoo_mask(s->fp_bits) << shift);
	w |= (uint64_t) fp << shift;
	if (byte + 8 <= s->slot_bytes)
		bloom_store64le(s->slots + byte, w);
	else
		for (size_t i = 0; byte + i < s->slot_bytes; i++)
			s->slots[byte + i] = (uint8_t) (w >> (8 * i));
}

static inline uint32_t
cuckoo_fingerprint(uint64_t h2, int f)
{
	uint32_t	fp = (uint32_t) (h2 >> (64 - f));

	return fp != 0 ? fp : 1;
}

static inline uint64_t
cuckoo_alt(uint64_t bucket, uint32_t fp, uint64_t n)
{
	uint64_t	H = cuckoo_fastrange(bloom_fmix64(fp), n);

	return H >= bucket ? H - bucket : H + n - bucket;
}

/*
 * Slot of bucket holding fp, or -1.  When the bucket's slots fit in one
 * word after the shift (b * f <= CUCKOO_ONE_LOAD_BITS: b = 4 up to 14-bit fingerprints), a
 * single load reads them all.
 */
static inline int
cuckoo_find(const CuckooSub *s, int b, uint64_t bucket, uint32_t fp)
{
	int			f = s->fp_bits;

	if (b * f <= CUCKOO_ONE_LOAD_BITS)
	{
		uint64_t	bit = bucket * b * f;
		uint64_t	w = cuckoo_word(s, (size_t) (bit >> 3)) >> (bit & 7);
		uint64_t	m = cuckoo_mask(f);

		for (int j = 0; j < b; j++, w >>= f)
			if ((w & m) == fp)
				return j;
		return -1;
	}
	for (int j = 0; j < b; j++)
		if (cuckoo_get(s, bucket * b + j) == fp)
			return j;
	return -1;
}

/* ask for a bucket's first line ahead of reading it */
static inline void
cuckoo_prefetch(const CuckooSub *s, int b, uint64_t bucket)
{
	__builtin_prefetch(s->slots + ((bucket * b * s->fp_bits) >> 3));
}

static inline void
cuckoo_set_count(CuckooView *v, CuckooSub *s, int64_t delta)
{
	s->count += delta;
	v->hdr.items += delta;
	bloom_store64le(s->desc + CUCKOO_SUB_OFF_COUNT, s->count);
	bloom_store64le(v->buf + CUCKOO_OFF_ITEMS, v->hdr.items);
}

/* the kick sequence: a 64-bit LCG, its top bits used */
static inline uint64_t
cuckoo_next(uint64_t r)
{
	return r * CUCKOO_LCG_MUL + CUCKOO_LCG_INC;
}

/*
 * Put fp in an empty slot of bucket or its alternate; no kicks.
 */
static bool
cuckoo_place(CuckooView *v, CuckooSub *s, uint64_t bucket, uint32_t fp)
{
	int			b = v->hdr.bucket_size;
	uint64_t	buckets[2];

	buckets[0] = bucket;
	buckets[1] = cuckoo_alt(bucket, fp, s->nbuckets);
	cuckoo_prefetch(s, b, buckets[1]);
	for (int i = 0; i < 2; i++)
	{
		int			j = cuckoo_find(s, b, buckets[i], 0);

		if (j >= 0)
		{
			cuckoo_set(s, buckets[i] * b + j, fp);
			cuckoo_set_count(v, s, 1);
			return true;
		}
	}
	return false;
}

/*
 * The kick walk in s from bucket (or its alternate) for fp; r seeds the
 * sequence.  Undone if it finds no empty slot within max_kicks.
 */
static bool
cuckoo_kick(CuckooView *v, CuckooSub *s, uint64_t bucket, uint32_t fp, uint64_t r)
{
	int			b = v->hdr.bucket_size;
	int			kicks = v->hdr.max_kicks;
	uint64_t	path[CUCKOO_MAX_KICKS_LIMIT];
	uint32_t	hand = fp;
	uint64_t	cur;
	int			done;

	r = cuckoo_next(r);
	cur = (r >> 63) ? cuckoo_alt(bucket, fp, s->nbuckets) : bucket;
	for (done = 0; done < kicks; done++)
	{
		int			j;
		uint64_t	k;
		uint32_t	victim;

		r = cuckoo_next(r);
		j = (int) (r >> 61) & (b - 1);
		k = cur * b + j;
		victim = cuckoo_get(s, k);
		cuckoo_set(s, k, hand);
		path[done] = k;
		hand = victim;
		cur = cuckoo_alt(cur, hand, s->nbuckets);
		j = cuckoo_find(s, b, cur, 0);
		if (j >= 0)
		{
			cuckoo_set(s, cur * b + j, hand);
			cuckoo_set_count(v, s, 1);
			return true;
		}
	}
	/* undo: walk back, each slot gets back what was taken from it */
	while (done-- > 0)
	{
		uint32_t	taken = cuckoo_get(s, path[done]);

		cuckoo_set(s, path[done], hand);
		hand = taken;
	}
	return false;
}

/* ---- sizing ---- */

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

static size_t
cuckoo_sub_slot_bytes(uint64_t nbuckets, int b, int f)
{
	return (size_t) ((nbuckets * (uint64_t) b * (uint64_t) f + 7) / 8);
}

/* nbuckets small enough that the slot bit count cannot overflow */
static bool
cuckoo_nbuckets_ok(uint64_t nbuckets, int b, int f)
{
	return nbuckets >= 1 &&
		nbuckets <= (uint64_t) CUCKOO_MAX_BYTES * 8 / ((uint64_t) b * f);
}

size_t
cuckoo_empty_bytes(int bucket_size, int fp_bits, uint64_t nbuckets)
{
	size_t		len;

	if (!cuckoo_nbuckets_ok(nbuckets, bucket_size, fp_bits))
		return 0;
	len = CUCKOO_HEADER_SIZE + CUCKOO_SUB_HEADER_SIZE +
		cuckoo_sub_slot_bytes(nbuckets, bucket_size, fp_bits);
	return len <= CUCKOO_MAX_BYTES ? len : 0;
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
static bool
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

/*
 * Entries adds put in sub-filter i: the first takes the capacity, sub-filter
 * k the capacity times 2^k, each at most the room of its buckets (values
 * of 1.2 and merges can have sub-filters sized otherwise) and of its slots.
 */
static uint64_t
cuckoo_sub_room(const CuckooHeader *hdr, int i, uint64_t nbuckets)
{
	uint64_t	slots = nbuckets * hdr->bucket_size;
	uint64_t	want = hdr->capacity > (UINT64_MAX >> i) ? UINT64_MAX : hdr->capacity << i;
	uint64_t	room = i == 0 ? slots : cuckoo_room(hdr->bucket_size, nbuckets);

	return want < room ? want : room;
}

/* ---- header ---- */

void
cuckoo_header_decode(const uint8_t *buf, CuckooHeader *hdr)
{
	uint64_t	rate_bits = bloom_load64le(buf + CUCKOO_OFF_ERROR_RATE);

	hdr->version = buf[CUCKOO_OFF_VERSION];
	hdr->hash_id = buf[CUCKOO_OFF_HASH_ID];
	hdr->bucket_size = buf[CUCKOO_OFF_BUCKET_SIZE];
	hdr->fp_bits = buf[CUCKOO_OFF_FP_BITS];
	hdr->seed = bloom_load32le(buf + CUCKOO_OFF_SEED);
	hdr->nsub = bloom_load16le(buf + CUCKOO_OFF_NSUB);
	hdr->max_kicks = bloom_load16le(buf + CUCKOO_OFF_MAX_KICKS);
	hdr->capacity = bloom_load64le(buf + CUCKOO_OFF_CAPACITY);
	memcpy(&hdr->error_rate, &rate_bits, sizeof(double));
	hdr->items = bloom_load64le(buf + CUCKOO_OFF_ITEMS);
	hdr->key_type = bloom_load32le(buf + CUCKOO_OFF_KEY_TYPE);
	hdr->reserved = bloom_load32le(buf + CUCKOO_OFF_RESERVED);
}

void
cuckoo_header_encode(const CuckooHeader *hdr, uint8_t *buf)
{
	uint64_t	rate_bits;

	memcpy(&rate_bits, &hdr->error_rate, sizeof(double));
	bloom_store32le(buf + CUCKOO_OFF_MAGIC, CUCKOO_MAGIC);
	buf[CUCKOO_OFF_VERSION] = hdr->version;
	buf[CUCKOO_OFF_HASH_ID] = hdr->hash_id;
	buf[CUCKOO_OFF_BUCKET_SIZE] = hdr->bucket_size;
	buf[CUCKOO_OFF_FP_BITS] = hdr->fp_bits;
	bloom_store32le(buf + CUCKOO_OFF_SEED, hdr->seed);
	bloom_store16le(buf + CUCKOO_OFF_NSUB, hdr->nsub);
	bloom_store16le(buf + CUCKOO_OFF_MAX_KICKS, hdr->max_kicks);
	bloom_store64le(buf + CUCKOO_OFF_CAPACITY, hdr->capacity);
	bloom_store64le(buf + CUCKOO_OFF_ERROR_RATE, rate_bits);
	bloom_store64le(buf + CUCKOO_OFF_ITEMS, hdr->items);
	bloom_store32le(buf + CUCKOO_OFF_KEY_TYPE, hdr->key_type);
	bloom_store32le(buf + CUCKOO_OFF_RESERVED, hdr->reserved);
}

static void
cuckoo_sub_init(uint8_t *desc, uint64_t nbuckets, int b, int f)
{
	memset(desc, 0, CUCKOO_SUB_HEADER_SIZE + cuckoo_sub_slot_bytes(nbuckets, b, f));
	bloom_store64le(desc + CUCKOO_SUB_OFF_NBUCKETS, nbuckets);
	desc[CUCKOO_SUB_OFF_FP_BITS] = (uint8_t) f;
}

void
cuckoo_init(uint8_t *buf, uint64_t capacity, double error_rate, uint32_t seed,
			int bucket_size, int fp_bits, uint64_t nbuckets)
{
	CuckooHeader hdr;

	memset(&hdr, 0, sizeof(hdr));
	hdr.version = CUCKOO_VERSION;
	hdr.hash_id = BLOOM_HASH_CURRENT;
	hdr.bucket_size = (uint8_t) bucket_size;
	hdr.fp_bits = (uint8_t) fp_bits;
	hdr.seed = seed;
	hdr.nsub = 1;
	hdr.max_kicks = CUCKOO_DEFAULT_MAX_KICKS;
	hdr.capacity = capacity;
	hdr.error_rate = error_rate;
	cuckoo_header_encode(&hdr, buf);
	cuckoo_sub_init(buf + CUCKOO_HEADER_SIZE, nbuckets, bucket_size, fp_bits);
}

/* ---- validation ---- */

/*
 * Sub-filter i's descriptor, with room bytes of the value from its start:
 * its shape into s (nbuckets, count, fp_bits, slot_bytes), checked against
 * the header and the room; what cuckoo_open and the directory walk of a
 * stored value (cuckoo_dir_next) both check.
 */
static CuckooCheck
cuckoo_sub_check(const CuckooHeader *hdr, int i, const uint8_t *desc, size_t room,
				 CuckooSub *s)
{
	int			b = hdr->bucket_size;

	if (room < CUCKOO_SUB_HEADER_SIZE)
		return CUCKOO_BAD_LENGTH;
	s->nbuckets = bloom_load64le(desc + CUCKOO_SUB_OFF_NBUCKETS);
	s->count = bloom_load64le(desc + CUCKOO_SUB_OFF_COUNT);
	s->fp_bits = desc[CUCKOO_SUB_OFF_FP_BITS];
	for (int j = CUCKOO_SUB_OFF_FP_BITS + 1; j < CUCKOO_SUB_HEADER_SIZE; j++)
		if (desc[j] != 0)
			return CUCKOO_BAD_RESERVED;
	if (s->fp_bits < CUCKOO_MIN_FP_BITS || s->fp_bits > CUCKOO_MAX_FP_BITS ||
		(i == 0 && s->fp_bits != hdr->fp_bits))
		return CUCKOO_BAD_FP_BITS;
	if (!cuckoo_nbuckets_ok(s->nbuckets, b, s->fp_bits))
		return CUCKOO_BAD_NBUCKETS;
	if (s->count > s->nbuckets * b)
		return CUCKOO_BAD_COUNT;
	s->slot_bytes = cuckoo_sub_slot_bytes(s->nbuckets, b, s->fp_bits);
	if (room - CUCKOO_SUB_HEADER_SIZE < s->slot_bytes)
		return CUCKOO_BAD_LENGTH;
	return CUCKOO_OK;
}

CuckooCheck
cuckoo_header_check(const uint8_t *buf, size_t len, CuckooHeader *hdr)
{
	int			b;

	if (len < CUCKOO_HEADER_SIZE || len > CUCKOO_MAX_BYTES)
		return CUCKOO_BAD_LENGTH;
	if (bloom_load32le(buf) != CUCKOO_MAGIC)
		return CUCKOO_BAD_MAGIC;
	cuckoo_header_decode(buf, hdr);
	if (hdr->version != CUCKOO_VERSION)
		return CUCKOO_BAD_VERSION;
	if (!BLOOM_HASH_IS_EQ(hdr->hash_id))
		return CUCKOO_BAD_HASH;
	if (hdr->reserved != 0)
		return CUCKOO_BAD_RESERVED;
	/* what a read allows: input takes only bloom_key_type_valid's */
	if (!bloom_key_type_readable(hdr->key_type))
		return CUCKOO_BAD_KEY_TYPE;
	b = hdr->bucket_size;
	if (b != 2 && b != 4 && b != 8)
		return CUCKOO_BAD_BUCKET_SIZE;
	if (hdr->fp_bits < CUCKOO_MIN_FP_BITS || hdr->fp_bits > CUCKOO_MAX_FP_BITS)
		return CUCKOO_BAD_FP_BITS;
	if (hdr->nsub < 1 || hdr->nsub > CUCKOO_MAX_SUBFILTERS)
		return CUCKOO_BAD_NSUB;
	if (hdr->max_kicks > CUCKOO_MAX_KICKS_LIMIT)
		return CUCKOO_BAD_KICKS;
	if (hdr->capacity == 0 || hdr->capacity > (uint64_t) INT64_MAX)
		return CUCKOO_BAD_CAPACITY;
	if (!(hdr->error_rate > 0.0 && hdr->error_rate < 1.0))
		return CUCKOO_BAD_ERROR_RATE;
	return CUCKOO_OK;
}

CuckooCheck
cuckoo_open(const uint8_t *buf, size_t len, CuckooView *v)
{
	CuckooHeader *hdr = &v->hdr;
	size_t		off = CUCKOO_HEADER_SIZE;
	uint64_t	items = 0;
	CuckooCheck hcheck = cuckoo_header_check(buf, len, hdr);

	if (hcheck != CUCKOO_OK)
		return hcheck;
	v->buf = (uint8_t *) buf;
	v->len = len;
	for (int i = 0; i < hdr->nsub; i++)
	{
		CuckooSub  *s = &v->sub[i];
		CuckooCheck check = cuckoo_sub_check(hdr, i, buf + off, len - off, s);

		if (check != CUCKOO_OK)
			return check;
		s->desc = (uint8_t *) buf + off;
		off += CUCKOO_SUB_HEADER_SIZE;
		s->slots = (uint8_t *) buf + off;
		off += s->slot_bytes;
		items += s->count;
		s->room = cuckoo_sub_room(hdr, i, s->nbuckets);
	}
	if (off != len)
		return CUCKOO_BAD_LENGTH;
	if (items != hdr->items)
		return CUCKOO_BAD_COUNT;
	return CUCKOO_OK;
}

/*
 * The full check of a value from outside.  Beyond what a read checks, the
 * key type must be one filters hash (bloom_key_type_valid; a stored value
 * of 1.3 can have another, which reads keep taking), and the first
 * sub-filter must have a slot for every element of the capacity, as the
 * sizing of every release made it (1.2's took capacity / (b * load)
 * buckets, 1.3's at least the room for the capacity) and as merges and
 * growth keep it.  The capacity sizes every later sub-filter, so without
 * that a 76-byte value claiming a capacity of 200,000,000 grew to 590 MB
 * at the add that filled its four slots.
 */
CuckooCheck
cuckoo_validate(const uint8_t *buf, size_t len, CuckooView *v)
{
	CuckooCheck check = cuckoo_open(buf, len, v);

	if (check != CUCKOO_OK)
		return check;
	if (!bloom_key_type_valid(v->hdr.key_type))
		return CUCKOO_BAD_KEY_TYPE;
	if (v->sub[0].nbuckets * v->hdr.bucket_size < v->hdr.capacity)
		return CUCKOO_BAD_FIRST_SLOTS;
	for (int i = 0; i < v->hdr.nsub; i++)
	{
		const CuckooSub *s = &v->sub[i];
		uint64_t	nslots = s->nbuckets * v->hdr.bucket_size;
		uint64_t	used = 0;
		uint64_t	pad = (uint64_t) s->slot_bytes * 8 - nslots * s->fp_bits;

		for (uint64_t k = 0; k < nslots; k++)
		{
			used += cuckoo_get(s, k) != 0;
			if ((k & (CUCKOO_INTERRUPT_SLOTS - 1)) == CUCKOO_INTERRUPT_SLOTS - 1)
				bloom_check_interrupts();
		}
		if (used != s->count)
			return CUCKOO_BAD_COUNT;
		if (pad > 0 && (s->slots[s->slot_bytes - 1] >> (8 - pad)) != 0)
			return CUCKOO_BAD_PADDING;
	}
	return CUCKOO_OK;
}

const char *
cuckoo_check_message(CuckooCheck check)
{
	switch (check)
	{
		case CUCKOO_OK:
			return "The value is valid.";
		case CUCKOO_BAD_LENGTH:
			return "The length does not match the header and sub-filters.";
		case CUCKOO_BAD_MAGIC:
			return "The value does not start with the cuckoofilter magic number.";
		case CUCKOO_BAD_VERSION:
			return "The format version is not supported by this build.";
		case CUCKOO_BAD_HASH:
			return "The hash id must be 2 or 5.";
		case CUCKOO_BAD_RESERVED:
			return "Reserved fields must be zero.";
		case CUCKOO_BAD_BUCKET_SIZE:
			return "The bucket size must be 2, 4 or 8.";
		case CUCKOO_BAD_FP_BITS:
			return "Fingerprint bits must be between 2 and 32, the same in the header as in the first sub-filter.";
		case CUCKOO_BAD_NSUB:
			return "The number of sub-filters must be between 1 and 64.";
		case CUCKOO_BAD_KICKS:
			return "The kick limit must be at most 4096.";
		case CUCKOO_BAD_CAPACITY:
			return "The capacity must be between 1 and 9223372036854775807.";
		case CUCKOO_BAD_ERROR_RATE:
			return "The error rate must be greater than 0 and less than 1.";
		case CUCKOO_BAD_NBUCKETS:
			return "The number of buckets of a sub-filter must be positive and within the size limit.";
		case CUCKOO_BAD_COUNT:
			return "The item counts do not match the slots.";
		case CUCKOO_BAD_PADDING:
			return "The unused bits after the last slot must be zero.";
		case CUCKOO_BAD_KEY_TYPE:
			return "The key type must be 0 or the OID of a built-in type that filters hash.";
		case CUCKOO_BAD_FIRST_SLOTS:
			return "The first sub-filter must have at least as many slots as the capacity.";
	}
	return "The value is invalid.";
}

bool
cuckoo_same_shape(const CuckooView *a, const CuckooView *b)
{
	return bloom_hash_ids_alike(a->hdr.hash_id, b->hdr.hash_id) &&
		a->hdr.seed == b->hdr.seed &&
		a->hdr.bucket_size == b->hdr.bucket_size &&
		a->sub[0].nbuckets == b->sub[0].nbuckets &&
		a->sub[0].fp_bits == b->sub[0].fp_bits;
}

/* ---- checks, adds, deletes ---- */

uint64_t
cuckoo_count(const CuckooView *v, BloomHash h)
{
	int			b = v->hdr.bucket_size;
	uint64_t	n = 0;

	for (int i = 0; i < v->hdr.nsub; i++)
	{
		const CuckooSub *s = &v->sub[i];
		uint32_t	fp = cuckoo_fingerprint(h.h2, s->fp_bits);
		uint64_t	i1 = cuckoo_fastrange(h.h1, s->nbuckets);
		uint64_t	i2 = cuckoo_alt(i1, fp, s->nbuckets);

		for (int j = 0; j < b; j++)
		{
			n += cuckoo_get(s, i1 * b + j) == fp;
			if (i2 != i1)
				n += cuckoo_get(s, i2 * b + j) == fp;
		}
	}
	return n;
}

bool
cuckoo_contains(const CuckooView *v, BloomHash h)
{
	int			b = v->hdr.bucket_size;

	for (int i = 0; i < v->hdr.nsub; i++)
	{
		const CuckooSub *s = &v->sub[i];
		uint32_t	fp = cuckoo_fingerprint(h.h2, s->fp_bits);
		uint64_t	i1 = cuckoo_fastrange(h.h1, s->nbuckets);
		uint64_t	i2 = cuckoo_alt(i1, fp, s->nbuckets);

		cuckoo_prefetch(s, b, i2);
		if (cuckoo_find(s, b, i1, fp) >= 0 || cuckoo_find(s, b, i2, fp) >= 0)
			return true;
	}
	return false;
}

/* ---- checks of a stored value by spans (type/probe.c) ---- */

/*
 * The directory: each sub-filter's descriptor, whose place the sizes of
 * those before it give.  It checks what cuckoo_open checks, the sizes
 * adding up to the payload and the counts to the header's included.
 */
CuckooCheck
cuckoo_dir_next(const CuckooHeader *hdr, BloomDir *dir, const uint8_t *piece,
				BloomSpan *next)
{
	if (piece == NULL)
		dir->param = hdr->bucket_size;
	else
	{
		CuckooSub	s;
		CuckooCheck check = cuckoo_sub_check(hdr, dir->nparts, piece,
											 dir->payload_len - dir->walked, &s);

		if (check != CUCKOO_OK)
			return check;
		dir->part[dir->nparts].offset = dir->walked + CUCKOO_SUB_HEADER_SIZE;
		dir->part[dir->nparts].size = s.nbuckets;
		dir->part[dir->nparts].width = s.fp_bits;
		dir->nparts++;
		dir->walked += CUCKOO_SUB_HEADER_SIZE + s.slot_bytes;
		dir->tally += s.count;
	}
	next->offset = dir->walked;
	next->len = CUCKOO_SUB_HEADER_SIZE;
	if (dir->nparts < hdr->nsub)
		return dir->payload_len - dir->walked < CUCKOO_SUB_HEADER_SIZE ?
			CUCKOO_BAD_LENGTH : CUCKOO_OK;
	next->len = 0;
	if (dir->walked != dir->payload_len)
		return CUCKOO_BAD_LENGTH;
	return dir->tally == hdr->items ? CUCKOO_OK : CUCKOO_BAD_COUNT;
}

/*
 * The sub-filters from the next descriptor on, where the growth of this
 * release puts them (cuckoo_next_sub's shapes).  Values 1.2 grew, or merges
 * made, can have other shapes: their walks then read piece by piece.
 */
int
cuckoo_dir_predict(const CuckooHeader *hdr, BloomDir *dir, BloomSpan *pieces, int max)
{
	double		target = hdr->error_rate * BLOOM_SIZING_MARGIN;
	int			b = hdr->bucket_size;
	int			n = 0;

	while (dir->nparts < hdr->nsub && n < max)
	{
		int			k = dir->nparts;
		BloomPart  *part = &dir->part[k];
		int			f;
		uint64_t	nbuckets;
		size_t		bytes;

		if (hdr->capacity > (UINT64_MAX >> k) ||
			!cuckoo_shape(hdr->capacity << k, ldexp(target, -k), b, &f, &nbuckets))
			break;
		bytes = cuckoo_sub_slot_bytes(nbuckets, b, f);
		if (dir->payload_len - dir->walked < CUCKOO_SUB_HEADER_SIZE + bytes)
			break;
		pieces[n].offset = dir->walked;
		pieces[n++].len = CUCKOO_SUB_HEADER_SIZE;
		part->offset = dir->walked + CUCKOO_SUB_HEADER_SIZE;
		part->size = nbuckets;
		part->width = f;
		dir->walked = part->offset + bytes;
		dir->nparts++;
	}
	return n;
}

/* the bytes a bucket's slots take: from its first bit's byte to its last's */
static inline void
cuckoo_bucket_span(const BloomPart *part, int b, uint64_t bucket, BloomSpan *span)
{
	uint64_t	first = bucket * b * part->width;

	span->offset = part->offset + (first >> 3);
	span->len = (uint32_t) (((first + (uint64_t) b * part->width + 7) >> 3) - (first >> 3));
}

/* the element's two buckets in each sub-filter, oldest first */
int
cuckoo_spans(const BloomDir *dir, BloomHash h, BloomSpan *spans)
{
	int			b = (int) dir->param;

	for (int i = 0; i < dir->nparts; i++)
	{
		const BloomPart *part = &dir->part[i];
		uint32_t	fp = cuckoo_fingerprint(h.h2, (int) part->width);
		uint64_t	i1 = cuckoo_fastrange(h.h1, part->size);

		cuckoo_bucket_span(part, b, i1, &spans[2 * i]);
		cuckoo_bucket_span(part, b, cuckoo_alt(i1, fp, part->size), &spans[2 * i + 1]);
	}
	return 2 * dir->nparts;
}

/*
 * Slots of the bucket at bucket of a sub-filter equal to fp (count: how
 * many; else 1 at the first), from its span (cuckoo_bucket_span).  A bucket
 * whose span is at most 8 bytes (b f <= 57, as cuckoo_find reads in one load:
 * b = 4 up to 14-bit fingerprints) is gathered into one word first.
 */
static int
cuckoo_span_matches(const uint8_t *span, uint64_t bucket, int b, int f,
					uint32_t fp, bool count)
{
	uint64_t	first = bucket * b * f;
	uint32_t	len = (uint32_t) (((first & 7) + (uint64_t) b * f + 7) >> 3);
	uint64_t	m = cuckoo_mask(f);
	int			n = 0;

	if (len <= 8)
	{
		uint64_t	w = 0;

		for (uint32_t k = 0; k < len; k++)
			w |= (uint64_t) span[k] << (8 * k);
		w >>= first & 7;
		for (int j = 0; j < b && (count || n == 0); j++, w >>= f)
			n += (w & m) == fp;
		return n;
	}
	for (int j = 0; j < b; j++)
	{
		uint64_t	bit = (first & 7) + (uint64_t) j * f;
		uint32_t	byte = (uint32_t) (bit >> 3);
		uint64_t	w = 0;

		/* a slot of at most 32 bits at a shift below 8 lies in 5 bytes */
		for (uint32_t k = byte; k < len && k < byte + 5; k++)
			w |= (uint64_t) span[k] << (8 * (k - byte));
		n += ((w >> (bit & 7)) & m) == fp;
		if (n > 0 && !count)
			break;
	}
	return n;
}

/* as cuckoo_contains (count: cuckoo_count), from the spans cuckoo_spans named */
int
cuckoo_answer(const BloomDir *dir, const uint8_t *const *spans, BloomHash h, bool count)
{
	int			b = (int) dir->param;
	int			n = 0;

	for (int i = 0; i < dir->nparts; i++)
	{
		const BloomPart *part = &dir->part[i];
		int			f = (int) part->width;
		uint32_t	fp = cuckoo_fingerprint(h.h2, f);
		uint64_t	i1 = cuckoo_fastrange(h.h1, part->size);
		uint64_t	i2 = cuckoo_alt(i1, fp, part->size);

		n += cuckoo_span_matches(spans[2 * i], i1, b, f, fp, count);
		if (i2 != i1 && (count || n == 0))
			n += cuckoo_span_matches(spans[2 * i + 1], i2, b, f, fp, count);
		if (n > 0 && !count)
			return 1;
	}
	return n;
}

/* bucket of sub-filter s holding the element's fingerprint, or -1 */
static int64_t
cuckoo_match(const CuckooView *v, const CuckooSub *s, uint64_t h1, uint64_t h2, int *slot)
{
	int			b = v->hdr.bucket_size;
	uint32_t	fp = cuckoo_fingerprint(h2, s->fp_bits);
	uint64_t	bucket = cuckoo_fastrange(h1, s->nbuckets);

	for (int pass = 0; pass < 2; pass++)
	{
		*slot = cuckoo_find(s, b, bucket, fp);
		if (*slot >= 0)
			return (int64_t) bucket;
		bucket = cuckoo_alt(bucket, fp, s->nbuckets);
	}
	return -1;
}

/*
 * First, the newest sub-filter where the element already matches an
 * entry: an empty slot of either bucket there, else the kick walk there,
 * whatever that sub-filter's fill: copies of an element then stay in one
 * sub-filter, which is what lets cuckoo_delete remove them, and an entry
 * equal to one there (same fingerprint, same buckets) does not change
 * which non-members match, so the rate stays as it was.  Else, newest
 * sub-filter first, the first empty slot of either bucket in one below its
 * room; else the kick walk in the newest, if below its room.
 */
static bool
cuckoo_add_steps(CuckooView *v, uint64_t h1, uint64_t h2)
{
	int			last = v->hdr.nsub - 1;
	CuckooSub  *s;

	for (int i = last; i >= 0; i--)
	{
		int			j;

		s = &v->sub[i];
		if (cuckoo_match(v, s, h1, h2, &j) < 0)
			continue;
		if (cuckoo_place(v, s, cuckoo_fastrange(h1, s->nbuckets),
						 cuckoo_fingerprint(h2, s->fp_bits)) ||
			cuckoo_kick(v, s, cuckoo_fastrange(h1, s->nbuckets),
						cuckoo_fingerprint(h2, s->fp_bits), h2))
			return true;
		break;
	}
	for (int i = last; i >= 0; i--)
	{
		s = &v->sub[i];
		if (s->count < s->room &&
			cuckoo_place(v, s, cuckoo_fastrange(h1, s->nbuckets),
						 cuckoo_fingerprint(h2, s->fp_bits)))
			return true;
	}
	s = &v->sub[last];
	if (s->count >= s->room)
		return false;
	return cuckoo_kick(v, s, cuckoo_fastrange(h1, s->nbuckets),
					   cuckoo_fingerprint(h2, s->fp_bits), h2);
}

/*
 * One sub-filter below its room, the common case: whether the element
 * matches or not, the steps come to placing, then kicking, there; so no
 * probe first.  Static so that the batch below runs it without a call
 * through the PLT (as every exported function is, from inside the shared
 * library).
 */
static inline bool
cuckoo_add_one(CuckooView *v, BloomHash h)
{
	CuckooSub  *s = &v->sub[0];
	uint64_t	bucket;
	uint32_t	fp;

	if (v->hdr.nsub != 1 || s->count >= s->room)
		return cuckoo_add_steps(v, h.h1, h.h2);
	bucket = cuckoo_fastrange(h.h1, s->nbuckets);
	fp = cuckoo_fingerprint(h.h2, s->fp_bits);
	return cuckoo_place(v, s, bucket, fp) || cuckoo_kick(v, s, bucket, fp, h.h2);
}

bool
cuckoo_add(CuckooView *v, BloomHash h)
{
	return cuckoo_add_one(v, h);
}

/*
 * Ask for the lines an add of h will read in the sub-filter it goes to
 * first (the last), both buckets, without reading them: the batch below
 * does this for an element some places ahead of the one it adds, so that
 * the cache misses of a large filter overlap instead of queueing.  Only a
 * hint: the filter is not read or changed.
 */
static BLOOM_ALWAYS_INLINE void
cuckoo_prefetch_buckets(const CuckooView *v, BloomHash h)
{
	const CuckooSub *s = &v->sub[v->hdr.nsub - 1];
	uint64_t	bucket = cuckoo_fastrange(h.h1, s->nbuckets);
	int			b = v->hdr.bucket_size;

	cuckoo_prefetch(s, b, bucket);
	cuckoo_prefetch(s, b, cuckoo_alt(bucket, cuckoo_fingerprint(h.h2, s->fp_bits),
									 s->nbuckets));
}

/*
 * Ask for the bucket the steps-th kick of h's add would move an entry to,
 * if the filter stays as it is until then: cuckoo_kick's walk followed
 * without changing anything, reading the buckets of the earlier steps,
 * which a call with fewer steps some places before requested.  Only in the
 * common case (one sub-filter below its room: cuckoo_add_one's shortcut).
 * A wrong guess (an add in between changed a bucket) costs a useless
 * request, never a wrong answer: nothing is written.
 *
 * This and cuckoo_prefetch_buckets are forced inline: a function whose only
 * effect is a prefetch is one GCC's interprocedural analysis finds to have
 * none, and then drops every call to it.
 */
static BLOOM_ALWAYS_INLINE void
cuckoo_prefetch_walk(const CuckooView *v, BloomHash h, int steps)
{
	const CuckooSub *s = &v->sub[0];
	int			b = v->hdr.bucket_size;
	uint64_t	bucket = cuckoo_fastrange(h.h1, s->nbuckets);
	uint32_t	hand = cuckoo_fingerprint(h.h2, s->fp_bits);
	uint64_t	other = cuckoo_alt(bucket, hand, s->nbuckets);
	uint64_t	r = h.h2;

	if (cuckoo_find(s, b, bucket, 0) >= 0 || cuckoo_find(s, b, other, 0) >= 0)
		return;					/* placed without a kick */
	r = cuckoo_next(r);
	bucket = (r >> 63) ? other : bucket;
	for (int step = 1; step <= steps; step++)
	{
		r = cuckoo_next(r);
		hand = cuckoo_get(s, bucket * b + ((int) (r >> 61) & (b - 1)));
		bucket = cuckoo_alt(bucket, hand, s->nbuckets);
		if (step == steps)
			cuckoo_prefetch(s, b, bucket);
		else if (cuckoo_find(s, b, bucket, 0) >= 0)
			return;				/* the walk ends there */
	}
}

/*
 * Add hashes[0..n-1] in order, as n calls of cuckoo_add would, and return
 * how many went in: fewer than n when one found no room (the value is then
 * as that add left it, exactly as before it: the caller grows the filter
 * and calls again from that hash).
 *
 * A large filter misses cache on every add: the buckets of the hash
 * CUCKOO_PREFETCH_AHEAD places on are requested while the current one goes
 * in.  Near its room a sub-filter kicks on most adds, and each kick reads a
 * bucket known only from the one before, a miss no distance ahead can start
 * early; so there the walks of the next few adds are also followed ahead,
 * one step further each time an add comes closer (the first kick of the
 * hash CUCKOO_WALK_AHEAD places on, the second of the one half as far,
 * ...), and their first kicks come from cache.  Below that fill walks are
 * rare and following them costs more than they save (bench/RESULTS.md,
 * "Builds, second pass").
 */
#define CUCKOO_PREFETCH_AHEAD	16
#define CUCKOO_WALK_AHEAD		8
#define CUCKOO_WALK_STEPS		3
/* a sub-filter kicks often past this share of its room: 7/8 */
#define CUCKOO_WALK_FILL(room)	((room) - (room) / 8)

size_t
cuckoo_add_batch(CuckooView *v, const BloomHash *hashes, size_t n)
{
	const CuckooSub *s = &v->sub[0];
	bool		walks = v->hdr.nsub == 1 && s->count >= CUCKOO_WALK_FILL(s->room);

	for (size_t i = 0; i < n && i < CUCKOO_PREFETCH_AHEAD; i++)
		cuckoo_prefetch_buckets(v, hashes[i]);
	for (size_t i = 0; i < n; i++)
	{
		if (i + CUCKOO_PREFETCH_AHEAD < n)
			cuckoo_prefetch_buckets(v, hashes[i + CUCKOO_PREFETCH_AHEAD]);
		/* the walks are followed only below the room, where adds kick */
		if (walks && s->count < s->room)
		{
			size_t		ahead = CUCKOO_WALK_AHEAD;

			for (int steps = 1; steps <= CUCKOO_WALK_STEPS && ahead > 0; steps++, ahead /= 2)
				if (i + ahead < n)
					cuckoo_prefetch_walk(v, hashes[i + ahead], steps);
		}
		if (!cuckoo_add_one(v, hashes[i]))
			return i;
	}
	return n;
}

/*
 * In one sub-filter every entry matching an added element has its
 * fingerprint and bucket pair, so removing any of them leaves the same
 * answers; likewise across sub-filters of one shape.  Entries matching in
 * sub-filters of two shapes cannot be told apart (one may be another
 * element's, matching by chance), so then nothing is removed: the element
 * stays possibly present, and no other element becomes absent.
 */
CuckooDelete
cuckoo_delete(CuckooView *v, BloomHash h)
{
	int			found = -1;
	int64_t		bucket = -1;
	int			slot = -1;

	for (int i = v->hdr.nsub - 1; i >= 0; i--)
	{
		const CuckooSub *s = &v->sub[i];
		int			j;
		int64_t		at = cuckoo_match(v, s, h.h1, h.h2, &j);

		if (at < 0)
			continue;
		if (found < 0)
		{
			found = i;
			bucket = at;
			slot = j;
		}
		else if (s->nbuckets != v->sub[found].nbuckets ||
				 s->fp_bits != v->sub[found].fp_bits)
			return CUCKOO_DELETE_KEPT;
	}
	if (found < 0)
		return CUCKOO_DELETE_ABSENT;
	cuckoo_set(&v->sub[found], (uint64_t) bucket * v->hdr.bucket_size + slot, 0);
	cuckoo_set_count(v, &v->sub[found], -1);
	return CUCKOO_DELETE_DONE;
}

/* ---- growth and merging ---- */

/*
 * Sub-filter k (k >= 1) is sized as cf_create sizes one for capacity
 * c 2^k at rate e / 2^k, with the filter's b: each doubles the room, and
 * their modelled rates at their rooms sum to less than 0.9 e (1 + 1/2 +
 * 1/4 + ...) < 2 e however far the filter grows.  Where no f up to 32
 * meets the share within the size limit growth stops instead.
 */
CuckooGrowth
cuckoo_next_sub(const CuckooView *v, uint64_t *nbuckets, int *fp_bits)
{
	int			k = v->hdr.nsub;
	double		target = v->hdr.error_rate * BLOOM_SIZING_MARGIN;
	uint64_t	capacity = v->hdr.capacity;
	uint64_t	first_slots = v->sub[0].nbuckets * v->hdr.bucket_size;

	/*
	 * Every value input takes has a slot in its first sub-filter for each
	 * element of the capacity (cuckoo_validate); one stored before input
	 * checked that grows as if its capacity were those slots, not into a
	 * sub-filter sized for a capacity it only claims.
	 */
	if (capacity > first_slots)
		capacity = first_slots;
	if (k >= CUCKOO_MAX_SUBFILTERS)
		return CUCKOO_GROW_SUBFILTERS;
	if (capacity > (UINT64_MAX >> k))
		return CUCKOO_GROW_SIZE;
	if (!cuckoo_shape(capacity << k, ldexp(target, -k), v->hdr.bucket_size,
					  fp_bits, nbuckets))
	{
		/* the same capacity at the floor's rate: if that fits, bits ran out */
		int			f;
		uint64_t	n;

		if (cuckoo_shape(capacity << k, 1.0, v->hdr.bucket_size, &f, &n))
			return CUCKOO_GROW_FP_BITS;
		return CUCKOO_GROW_SIZE;
	}
	if (cuckoo_grown_bytes(v, *nbuckets, *fp_bits) == 0)
		return CUCKOO_GROW_SIZE;
	return CUCKOO_GROW_OK;
}

size_t
cuckoo_grown_bytes(const CuckooView *v, uint64_t nbuckets, int fp_bits)
{
	int			b = v->hdr.bucket_size;
	size_t		add;

	if (v->hdr.nsub >= CUCKOO_MAX_SUBFILTERS || !cuckoo_nbuckets_ok(nbuckets, b, fp_bits))
		return 0;
	add = CUCKOO_SUB_HEADER_SIZE + cuckoo_sub_slot_bytes(nbuckets, b, fp_bits);
	if (add > CUCKOO_MAX_BYTES - v->len)
		return 0;
	return v->len + add;
}

void
cuckoo_grow(CuckooView *v, uint8_t *dst, uint64_t nbuckets, int fp_bits)
{
	size_t		oldlen = v->len;
	size_t		newlen = cuckoo_grown_bytes(v, nbuckets, fp_bits);

	if (dst != v->buf)
		memcpy(dst, v->buf, oldlen);
	cuckoo_sub_init(dst + oldlen, nbuckets, v->hdr.bucket_size, fp_bits);
	v->hdr.nsub++;
	bloom_store16le(dst + CUCKOO_OFF_NSUB, v->hdr.nsub);
	(void) cuckoo_open(dst, newlen, v);
}

bool
cuckoo_merge(CuckooView *dst, const CuckooView *src, uint64_t *cursor,
			 uint64_t *nbuckets, int *fp_bits)
{
	int			b = src->hdr.bucket_size;

	for (int i = (int) (*cursor >> CUCKOO_CURSOR_SHIFT); i < src->hdr.nsub; i++)
	{
		const CuckooSub *from = &src->sub[i];
		uint64_t	nslots = from->nbuckets * b;
		uint64_t	k = *cursor & ((UINT64_C(1) << CUCKOO_CURSOR_SHIFT) - 1);

		for (; k < nslots; k++)
		{
			uint32_t	fp = cuckoo_get(from, k);
			uint64_t	bucket = k / b;
			int			last = -1;
			bool		placed = false;

			if ((k & (CUCKOO_MERGE_INTERRUPT_SLOTS - 1)) == CUCKOO_MERGE_INTERRUPT_SLOTS - 1)
				bloom_check_interrupts();
			if (fp == 0)
				continue;
			for (int d = 0; d < dst->hdr.nsub && !placed; d++)
			{
				CuckooSub  *s = &dst->sub[d];

				if (s->nbuckets != from->nbuckets || s->fp_bits != from->fp_bits)
					continue;
				last = d;
				placed = cuckoo_place(dst, s, bucket, fp);
			}
			if (!placed && last >= 0)
				placed = cuckoo_kick(dst, &dst->sub[last], bucket, fp,
									 bloom_fmix64(((uint64_t) fp << CUCKOO_MERGE_SEED_SHIFT) ^ bucket));
			if (!placed)
			{
				*cursor = ((uint64_t) i << CUCKOO_CURSOR_SHIFT) | k;
				*nbuckets = from->nbuckets;
				*fp_bits = from->fp_bits;
				return false;
			}
		}
		*cursor = (uint64_t) (i + 1) << CUCKOO_CURSOR_SHIFT;
	}
	return true;
}

/* ---- estimates ---- */

/* the sum of the sub-filters' modelled rates: never below the chance */
double
cuckoo_fpp(const CuckooView *v)
{
	double		sum = 0.0;

	for (int i = 0; i < v->hdr.nsub; i++)
		sum += cuckoo_model_fpp(v->sub[i].fp_bits, v->sub[i].count, v->sub[i].nbuckets);
	return sum < 1.0 ? sum : 1.0;
}

uint64_t
cuckoo_slots(const CuckooView *v)
{
	uint64_t	n = 0;

	for (int i = 0; i < v->hdr.nsub; i++)
		n += v->sub[i].nbuckets * v->hdr.bucket_size;
	return n;
}
