/*-------------------------------------------------------------------------
 *
 * scalable.c
 *	  Layout 3, "scalable": a chain of plain filters that grows as elements
 *	  arrive, keeping the compound false-positive rate under the request.
 *
 * Sub-filter i is a complete blocked filter (layout 1, core/blocked.c)
 * sized for capacity * expansion^i elements at error_rate / 2^(i+1), so
 * that however many sub-filters there are, their rates sum to less than
 * error_rate.  Elements go into the last sub-filter; when it holds its
 * capacity, the next one is started.  An element that already tests
 * present in any sub-filter is not added again and does not count, as in
 * RedisBloom, so repeated adds do not fill the chain.  A check tests every
 * sub-filter, newest first.
 *
 * The top header's fields mean, for this layout: capacity and error rate as
 * requested, nbits the sum of the sub-filters' bits, bits_set the sum of
 * their bits set, and k (byte 7) the number of sub-filters (1..64).  The
 * payload is a 16-byte prefix (uint32 expansion 1..1024, uint32 fill
 * divisor, 8 reserved zero bytes) and then, per sub-filter, a uint64 count
 * of the elements it took, followed by the sub-filter's own 48-byte header
 * (same seed and hash id as the top one, key type 0) and its bits.  All
 * little-endian.
 *
 * The fill divisor is 1 in every value that has left an aggregate.  While a
 * parallel plan builds partial results that will be unioned, each partial
 * starts its next sub-filter after capacity / divisor elements, so that the
 * union of up to divisor partials, which ORs sub-filter i of each, holds at
 * most the capacity of each sub-filter.  Partial results pass from workers
 * to the leader as flat values, never through input: the aggregates' state
 * type is bloomfilter itself, with no serial or deserial function, and
 * Citus's worker_partial_agg runs the transition function as a plain
 * aggregate's (no divisor) before it writes the state as text.  So input
 * refuses any divisor but 1: a larger one makes every add start a
 * sub-filter sized for expansion times more, and a value of 1.6 kB grew to
 * tens of megabytes in a dozen adds.  The aggregates set it afresh on
 * every state they make (scalable_partial), and a copy made for a change
 * outside an aggregate sets it to 1 (scalable_finish), so a value stored
 * before input checked it cannot grow that way either.
 *
 * A union of two scalable filters of the same capacity, rate and expansion
 * ORs sub-filter i of each and adds their counts; its rate stays within
 * error_rate as long as, for each i, sub-filter i of the union is no
 * fuller than its capacity makes it.  The union checks that first
 * (scalable_union_overfills, from the cells set, not the counts alone) and
 * the server refuses a union that would not keep the rate: a sub-filter's
 * bits cannot be moved to another one, so no union can repair an
 * overfilled one.  There is no intersection: an element both hold can sit
 * in different sub-filters of each.
 *
 * src/core/scalable.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/blocked.h"
#include "core/sizing.h"

#include <math.h>

#define SCALABLE_PREFIX		16
/* where the prefix's fields start (the reserved 8 bytes end it) */
#define SCALABLE_OFF_EXPANSION	0
#define SCALABLE_OFF_DIVISOR	4
#define SCALABLE_OFF_RESERVED	8
/* a sub-filter: its count, its header, its bits */
#define SCALABLE_SUB_COUNT_BYTES	8
#define SCALABLE_SUB_HEAD	(SCALABLE_SUB_COUNT_BYTES + BLOOM_HEADER_SIZE)
#define SCALABLE_MAX_SUBS	BLOOM_MAX_HASHES
#define SCALABLE_MAX_EXPANSION BLOOM_MAX_EXPANSION
/*
 * An add tests the element against every older sub-filter first (up to 64
 * cache misses), so its loop checks for a cancel more often than others.
 */
#define SCALABLE_INTERRUPT_ADDS	1024

/* one sub-filter, decoded */
typedef struct ScalableSub
{
	uint64_t	items;
	BloomHeader hdr;
	uint8_t    *items_at;		/* where its count is stored */
	uint8_t    *bits;
} ScalableSub;

/* the growth factor of each next sub-filter, from the payload's prefix */
static inline uint32_t
scalable_expansion(const uint8_t *payload)
{
	return bloom_load32le(payload + SCALABLE_OFF_EXPANSION);
}

static uint64_t
scalable_payload_bytes(const BloomHeader *hdr)
{
	return SCALABLE_PREFIX + (uint64_t) hdr->nhashes * SCALABLE_SUB_HEAD + hdr->nbits / 8;
}

/*
 * Where a chain's sub-filters lay, remembered for predictions.  A stored
 * check of a scalable filter fetches the heads of its further sub-filters
 * together with the element's blocks, at the places their shapes predict
 * (scalable_dir_predict); sizing those shapes again on every check cost
 * more than the rest of the check.  So the shapes are remembered per chain
 * (its top header's request and growth factor) as the heads a walk reads
 * show them and as sizing gives them here, per process (no locking), for
 * the few chains seen last, the oldest giving way.  Every valid value has
 * sizing's shapes, so a prediction from them is exact; one from a damaged
 * value's heads costs the next check a scan, never an answer, and nothing
 * but predictions reads these (validation and growth size afresh).  A
 * chain no head or sizing in this process has shown is not predicted: its
 * first check reads head after head.
 */
#define SCALABLE_MEMO_CHAINS	4

typedef struct ScalableMemo
{
	uint64_t	capacity;
	uint64_t	rate_bits;		/* the error rate's bits: compared exactly */
	uint32_t	expansion;
	uint64_t	known;			/* bit i: sub-filter i's shape is below */
	uint64_t	nbits[SCALABLE_MAX_SUBS];
	uint8_t		nhashes[SCALABLE_MAX_SUBS];
} ScalableMemo;

static ScalableMemo scalable_memo[SCALABLE_MEMO_CHAINS];
static int	scalable_memo_next;

/* the chain top heads, NULL if not remembered (or, if add, made so) */
static ScalableMemo *
scalable_memo_chain(const BloomHeader *top, uint32_t expansion, bool add)
{
	uint64_t	rate_bits;
	ScalableMemo *m;

	memcpy(&rate_bits, &top->error_rate, sizeof(rate_bits));
	for (int i = 0; i < SCALABLE_MEMO_CHAINS; i++)
	{
		m = &scalable_memo[i];
		if (m->known != 0 && m->capacity == top->capacity &&
			m->rate_bits == rate_bits && m->expansion == expansion)
			return m;
	}
	if (!add)
		return NULL;
	m = &scalable_memo[scalable_memo_next];
	scalable_memo_next = (scalable_memo_next + 1) % SCALABLE_MEMO_CHAINS;
	m->capacity = top->capacity;
	m->rate_bits = rate_bits;
	m->expansion = expansion;
	m->known = 0;
	return m;
}

/* sub-filter i of top's chain has shape sub */
static void
scalable_memo_learn(const BloomHeader *top, uint32_t expansion, int i,
					const BloomHeader *sub)
{
	ScalableMemo *m;

	if (i < 0 || i >= SCALABLE_MAX_SUBS)
		return;
	m = scalable_memo_chain(top, expansion, true);
	m->nbits[i] = sub->nbits;
	m->nhashes[i] = sub->nhashes;
	m->known |= UINT64_C(1) << i;
}

/* the shape of sub-filter i of top's chain, if remembered (nbits, nhashes) */
static bool
scalable_memo_recall(const BloomHeader *top, uint32_t expansion, int i,
					 BloomHeader *sub)
{
	ScalableMemo *m = scalable_memo_chain(top, expansion, false);

	if (m == NULL || i < 0 || i >= SCALABLE_MAX_SUBS ||
		(m->known & (UINT64_C(1) << i)) == 0)
		return false;
	sub->nbits = m->nbits[i];
	sub->nhashes = m->nhashes[i];
	return true;
}

/*
 * The capacity and rate of sub-filter i, and its size; false if it cannot
 * exist (capacity overflow, a rate below what sizing accepts, too large).
 */
static bool
scalable_sub_shape(const BloomHeader *top, uint32_t expansion, int i,
				   BloomHeader *sub)
{
	uint64_t	capacity = top->capacity;
	double		rate = ldexp(top->error_rate, -(i + 1));
	uint64_t	nbits;
	int			k;

	if (expansion == 0)
		return false;
	for (int j = 0; j < i; j++)
	{
		if (capacity > (uint64_t) INT64_MAX / expansion)
			return false;
		capacity *= expansion;
	}
	if (rate < BLOOM_MIN_ERROR_RATE || !bloom_size(capacity, rate, &nbits, &k))
		return false;
	bloom_header_init(sub, capacity, rate, top->seed, nbits, k);
	sub->hash_id = top->hash_id;
	scalable_memo_learn(top, expansion, i, sub);
	return true;
}

/*
 * Decode the sub-filters, trusting only what the top header says about the
 * payload's length: a damaged value ends the walk instead of sending it
 * past the end.  Returns how many were decoded; fewer than the header's
 * count only for a damaged value.
 */
static bool
scalable_prefix_ok(const uint8_t *payload)
{
	uint32_t	expansion = scalable_expansion(payload);

	return expansion >= 1 && expansion <= SCALABLE_MAX_EXPANSION &&
		bloom_load32le(payload + SCALABLE_OFF_DIVISOR) >= 1 &&
		bloom_load64le(payload + SCALABLE_OFF_RESERVED) == 0;
}

static int
scalable_subs(const BloomHeader *top, const uint8_t *payload, ScalableSub *subs)
{
	uint64_t	end = scalable_payload_bytes(top);
	uint64_t	off = SCALABLE_PREFIX;
	int			n = 0;

	/* a damaged prefix (a zero expansion, say) makes the value unusable */
	if (!scalable_prefix_ok(payload))
		return 0;

	for (; n < top->nhashes; n++)
	{
		ScalableSub *sub = &subs[n];

		if (off + SCALABLE_SUB_HEAD > end)
			break;
		bloom_header_decode(payload + off + SCALABLE_SUB_COUNT_BYTES, &sub->hdr);
		if (sub->hdr.nbits % BLOOM_BLOCK_BITS != 0 || sub->hdr.nbits == 0 ||
			sub->hdr.nbits / 8 > end - off - SCALABLE_SUB_HEAD ||
			sub->hdr.nhashes == 0 || sub->hdr.nhashes > BLOOM_MAX_HASHES)
			break;
		sub->items_at = (uint8_t *) payload + off;
		sub->items = bloom_load64le(payload + off);
		sub->bits = (uint8_t *) payload + off + SCALABLE_SUB_HEAD;
		off += SCALABLE_SUB_HEAD + sub->hdr.nbits / 8;
	}
	return n;
}

/* newest first: it holds the most elements */
static bool
scalable_test_subs(const ScalableSub *subs, int n, BloomHash h)
{
	for (int i = n - 1; i >= 0; i--)
		if (bloom_test(subs[i].bits, bloom_nblocks(&subs[i].hdr), subs[i].hdr.nhashes, h))
			return true;
	return false;
}

static void
scalable_sub_store(ScalableSub *sub)
{
	bloom_store64le(sub->items_at, sub->items);
	bloom_header_encode(&sub->hdr, sub->items_at + SCALABLE_SUB_COUNT_BYTES);
}

static BloomCheck
scalable_check_header(const BloomHeader *hdr, size_t payload_len)
{
	if (hdr->nhashes == 0 || hdr->nhashes > SCALABLE_MAX_SUBS)
		return BLOOM_BAD_NHASHES;
	if (hdr->nbits == 0 || hdr->nbits % BLOOM_BLOCK_BITS != 0 ||
		hdr->nbits / 8 > BLOOM_MAX_BYTES)
		return BLOOM_BAD_NBITS;
	if (payload_len != scalable_payload_bytes(hdr) ||
		payload_len > BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE)
		return BLOOM_BAD_LENGTH;
	if (hdr->bits_set > hdr->nbits)
		return BLOOM_BAD_BITS_SET;
	return BLOOM_OK;
}

/* every sub-filter valid, of the shape its position gives, sums matching */
static BloomCheck
scalable_check_payload(const BloomHeader *hdr, const uint8_t *payload)
{
	uint32_t	expansion = scalable_expansion(payload);
	uint64_t	nbits = 0,
				bits_set = 0;
	ScalableSub subs[SCALABLE_MAX_SUBS];

	if (!scalable_prefix_ok(payload))
		return BLOOM_BAD_RESERVED;
	if (bloom_load32le(payload + SCALABLE_OFF_DIVISOR) != 1)
		return BLOOM_BAD_DIVISOR;
	if (scalable_subs(hdr, payload, subs) != hdr->nhashes)
		return BLOOM_BAD_NBITS;
	for (int i = 0; i < hdr->nhashes; i++)
	{
		BloomHeader want;
		BloomHeader got;
		BloomCheck	check;

		if (!scalable_sub_shape(hdr, expansion, i, &want))
			return BLOOM_BAD_NBITS;
		/*
		 * A sub-filter is a blocked filter: any other layout is refused as
		 * such before the sub-filter is validated, since another layout's
		 * own rules (a Guava filter names its key type) would otherwise
		 * report a field of the sub-filter as the value's.
		 */
		if (subs[i].hdr.layout != BLOOM_LAYOUT_BLOCKED512)
			return BLOOM_BAD_LAYOUT;
		/* the top header records the key type; a sub-filter's is unused */
		if (subs[i].hdr.key_type != 0)
			return BLOOM_BAD_SUB_KEY_TYPE;
		check = bloom_validate(subs[i].items_at + SCALABLE_SUB_COUNT_BYTES, BLOOM_HEADER_SIZE + subs[i].hdr.nbits / 8, &got);
		if (check != BLOOM_OK)
			return check;
		if (got.layout != BLOOM_LAYOUT_BLOCKED512)
			return BLOOM_BAD_LAYOUT;
		if (got.seed != hdr->seed || got.hash_id != hdr->hash_id)
			return BLOOM_BAD_HASH;
		if (got.capacity != want.capacity)
			return BLOOM_BAD_CAPACITY;
		if (got.error_rate != want.error_rate)
			return BLOOM_BAD_ERROR_RATE;
		/* the sizing of that capacity and rate, so that shapes compare */
		if (got.nbits != want.nbits || got.nhashes != want.nhashes)
			return BLOOM_BAD_SUBFILTER;
		nbits += got.nbits;
		bits_set += got.bits_set;
	}
	if (nbits != hdr->nbits)
		return BLOOM_BAD_NBITS;
	if (bits_set != hdr->bits_set)
		return BLOOM_BAD_BITS_SET;
	return BLOOM_OK;
}

/*
 * The directory: the prefix with the first sub-filter's head, then each
 * further sub-filter's head, whose place the sizes before it give.  The
 * same bounds as scalable_subs, and the sizes must add up to the payload:
 * a damaged value ends the walk.
 */
static BloomCheck
scalable_dir_next(const BloomHeader *hdr, BloomDir *dir, const uint8_t *piece,
				  BloomSpan *next)
{
	uint64_t	end = dir->payload_len;
	BloomHeader sub;
	BloomPart  *part = &dir->part[dir->nparts];

	if (piece == NULL)
		dir->walked = SCALABLE_PREFIX;
	else
	{
		if (dir->nparts == 0)
		{
			if (!scalable_prefix_ok(piece))
				return BLOOM_BAD_RESERVED;
			dir->param = bloom_load32le(piece);
			piece += SCALABLE_PREFIX;
		}
		bloom_header_decode(piece + 8, &sub);
		if (sub.nbits % BLOOM_BLOCK_BITS != 0 || sub.nbits == 0 ||
			sub.nbits / 8 > end - dir->walked - SCALABLE_SUB_HEAD ||
			sub.nhashes == 0 || sub.nhashes > BLOOM_MAX_HASHES)
			return BLOOM_BAD_SUBFILTER;
		scalable_memo_learn(hdr, dir->param, dir->nparts, &sub);
		part->offset = dir->walked + SCALABLE_SUB_HEAD;
		part->size = bloom_nblocks(&sub);
		part->width = sub.nhashes;
		dir->walked = part->offset + sub.nbits / 8;
		dir->nparts++;
	}
	next->offset = dir->walked;
	next->len = SCALABLE_SUB_HEAD;
	if (dir->nparts == 0)
	{
		next->offset = 0;
		next->len = SCALABLE_PREFIX + SCALABLE_SUB_HEAD;
	}
	else if (dir->nparts == hdr->nhashes)
		next->len = 0;
	if (next->len == 0 ? dir->walked != end : next->offset + next->len > end)
		return BLOOM_BAD_SUBFILTER;
	return BLOOM_OK;
}

/*
 * The sub-filters from the next head on, where the shapes remembered for
 * the chain put them (scalable_memo_recall; as far as they are known).
 */
static int
scalable_dir_predict(const BloomHeader *hdr, BloomDir *dir, BloomSpan *pieces, int max)
{
	int			n = 0;

	/* the growth factor comes with the first piece */
	if (dir->nparts == 0)
		return 0;
	while (dir->nparts < hdr->nhashes && n < max)
	{
		BloomPart  *part = &dir->part[dir->nparts];
		BloomHeader sub;

		if (!scalable_memo_recall(hdr, dir->param, dir->nparts, &sub) ||
			sub.nbits / 8 > dir->payload_len - dir->walked - SCALABLE_SUB_HEAD)
			break;
		pieces[n].offset = dir->walked;
		pieces[n++].len = SCALABLE_SUB_HEAD;
		part->offset = dir->walked + SCALABLE_SUB_HEAD;
		part->size = bloom_nblocks(&sub);
		part->width = sub.nhashes;
		dir->walked = part->offset + sub.nbits / 8;
		dir->nparts++;
	}
	return n;
}

/* one block of each sub-filter, newest first: it holds the most elements */
static int
scalable_spans(const BloomDir *dir, BloomHash h, BloomSpan *spans)
{
	return bloom_dir_block_spans(dir, BLOOM_BLOCK_BYTES, h, spans);
}

static int
scalable_answer(const BloomDir *dir, const uint8_t *const *spans, BloomHash h, bool count)
{
	(void) count;				/* sub-filters do not count: 0 or 1 */
	for (int i = 0; i < dir->nparts; i++)
		if (bloom_block_test_hash(spans[i], h, (int) dir->part[dir->nparts - 1 - i].width))
			return 1;
	return 0;
}

/* the last sub-filter holds as many elements as it may */
static bool
scalable_full(const uint8_t *payload, const ScalableSub *last)
{
	uint32_t	divisor = bloom_load32le(payload + SCALABLE_OFF_DIVISOR);

	uint64_t	share = last->hdr.capacity / divisor;

	/* rounded down: divisor shares together never exceed the capacity */
	return last->items >= (share > 0 ? share : 1);
}

/*
 * Add to the last sub-filter, skipping what tests present anywhere, until
 * it is full (unless take_all); returns how many of the n were handled.
 */
static size_t
scalable_add_last(BloomHeader *hdr, uint8_t *payload, const BloomHash *hashes,
				  size_t n, bool take_all)
{
	ScalableSub subs[SCALABLE_MAX_SUBS];
	int			nsub = scalable_subs(hdr, payload, subs);
	ScalableSub *last;

	if (nsub == 0 || nsub < hdr->nhashes)
		return n;				/* damaged; reads say so */
	last = &subs[nsub - 1];
	/* as bloom_add_batch: the last sub-filter's blocks requested ahead */
	for (size_t i = 0; i < n && i < BLOOM_ADD_BATCH; i++)
		__builtin_prefetch(last->bits + bloom_block_of(hashes[i].h1, bloom_nblocks(&last->hdr)) *
						   BLOOM_BLOCK_BYTES, 1);
	for (size_t i = 0; i < n; i++)
	{
		uint64_t	added;

		if (i % SCALABLE_INTERRUPT_ADDS == SCALABLE_INTERRUPT_ADDS - 1)
			bloom_check_interrupts();
		if (i + BLOOM_ADD_BATCH < n)
			__builtin_prefetch(last->bits +
							   bloom_block_of(hashes[i + BLOOM_ADD_BATCH].h1,
											  bloom_nblocks(&last->hdr)) * BLOOM_BLOCK_BYTES, 1);
		if (scalable_test_subs(subs, nsub - 1, hashes[i]))
			continue;
		if (!take_all && scalable_full(payload, last))
		{
			if (bloom_test(last->bits, bloom_nblocks(&last->hdr), last->hdr.nhashes, hashes[i]))
				continue;
			scalable_sub_store(last);
			return i;
		}

		/*
		 * An element the last sub-filter holds sets no bit there: adding is
		 * its test, and it counts only if it set one.
		 */
		added = (uint64_t) bloom_add(last->bits, bloom_nblocks(&last->hdr),
									 last->hdr.nhashes, hashes[i]);
		if (added == 0)
			continue;
		last->hdr.bits_set += added;
		hdr->bits_set += added;
		last->items++;
	}
	scalable_sub_store(last);
	return n;
}

static size_t
scalable_add(BloomHeader *hdr, uint8_t *payload, const BloomHash *hashes, size_t n)
{
	return scalable_add_last(hdr, payload, hashes, n, false);
}

/*
 * Every one of n hashes into the last sub-filter, however full it gets;
 * returns the items it holds then.  For a filter whose first sub-filter
 * was sized for an estimate of how many distinct elements are coming (a
 * list of hashes becoming a filter, core/hashlist.c): the caller checks the
 * count against the capacity, since the estimate can be a little short.
 */
uint64_t
bloom_scalable_take(BloomHeader *hdr, uint8_t *payload, const BloomHash *hashes, size_t n)
{
	ScalableSub subs[SCALABLE_MAX_SUBS];
	int			nsub;

	scalable_add_last(hdr, payload, hashes, n, true);
	nsub = scalable_subs(hdr, payload, subs);
	return nsub > 0 ? subs[nsub - 1].items : 0;
}

static uint64_t
scalable_grown_bytes(const BloomHeader *hdr, const uint8_t *payload)
{
	BloomHeader next;
	uint64_t	bytes;

	if (hdr->nhashes >= SCALABLE_MAX_SUBS || !scalable_prefix_ok(payload) ||
		!scalable_sub_shape(hdr, scalable_expansion(payload), hdr->nhashes, &next))
		return 0;
	bytes = scalable_payload_bytes(hdr) + SCALABLE_SUB_HEAD + next.nbits / 8;
	return bytes > BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE ? 0 : bytes;
}

/* the payload with one more, empty sub-filter; grown_bytes said it fits */
static void
scalable_grow(BloomHeader *hdr, const uint8_t *payload, uint8_t *grown)
{
	uint64_t	old = scalable_payload_bytes(hdr);
	BloomHeader next;
	uint8_t    *p = grown + old;

	scalable_sub_shape(hdr, scalable_expansion(payload), hdr->nhashes, &next);
	if (grown != payload)
		bloom_fill_chunked(grown, payload, old);
	bloom_store64le(p, 0);
	bloom_header_encode(&next, p + SCALABLE_SUB_COUNT_BYTES);
	bloom_fill_chunked(p + SCALABLE_SUB_HEAD, NULL, next.nbits / 8);
	hdr->nhashes++;
	hdr->nbits += next.nbits;
}

/* capacity and rate are the header's; expansion is the payload's */
static bool
scalable_same_shape(const BloomHeader *a, const BloomHeader *b)
{
	return a->capacity == b->capacity && a->error_rate == b->error_rate;
}

/* union: sub-filter i of src ORed into sub-filter i of dst, counts added */
static bool
scalable_combine(BloomHeader *hdr, uint8_t *dst, const BloomHeader *shdr,
				 const uint8_t *src, bool intersect)
{
	ScalableSub d[SCALABLE_MAX_SUBS];
	ScalableSub s[SCALABLE_MAX_SUBS];
	int			nd = scalable_subs(hdr, dst, d);
	int			ns = scalable_subs(shdr, src, s);

	if (intersect || scalable_expansion(dst) != scalable_expansion(src) || nd != hdr->nhashes ||
		ns != shdr->nhashes || ns > nd)
		return false;
	hdr->bits_set = 0;
	for (int i = 0; i < nd; i++)
	{
		if (i < ns)
		{
			if (s[i].hdr.nbits != d[i].hdr.nbits || s[i].hdr.nhashes != d[i].hdr.nhashes)
				return false;
			d[i].hdr.bits_set = 0;
			for (uint64_t off = 0; off < d[i].hdr.nbits / 8; off += BLOOM_INTERRUPT_BYTES)
			{
				uint64_t	len = d[i].hdr.nbits / 8 - off;

				bloom_check_interrupts();
				if (len > BLOOM_INTERRUPT_BYTES)
					len = BLOOM_INTERRUPT_BYTES;
				d[i].hdr.bits_set += bloom_union_into(d[i].bits + off, s[i].bits + off, len);
			}
			d[i].items += s[i].items;
			scalable_sub_store(&d[i]);
		}
		hdr->bits_set += d[i].hdr.bits_set;
	}
	bloom_store32le(dst + SCALABLE_OFF_DIVISOR, 1);
	return true;
}

/*
 * The estimated rate of sub-filter d ORed with s, from the fill of each
 * block of the union; *grows says whether the union has more cells set than
 * the fuller of the two (else one holds the other, and the union is it).
 */
static double
scalable_union_fpp(const ScalableSub *d, const ScalableSub *s, bool *grows)
{
	double		table[BLOOM_BLOCK_BITS + 1];
	double		total = 0.0;
	uint64_t	nblocks = bloom_nblocks(&d->hdr);
	uint64_t	pop_d = 0,
				pop_s = 0,
				pop_u = 0;

	bloom_fpp_table(d->hdr.nhashes, table);
	for (uint64_t b = 0; b < nblocks; b++)
	{
		const uint8_t *bd = d->bits + b * BLOOM_BLOCK_BYTES;
		const uint8_t *bs = s->bits + b * BLOOM_BLOCK_BYTES;
		int			u = 0;

		if (b % (BLOOM_INTERRUPT_BYTES / BLOOM_BLOCK_BYTES) == 0)
			bloom_check_interrupts();
		for (int w = 0; w < BLOOM_BLOCK_BYTES; w += 8)
		{
			uint64_t	x = bloom_load64le(bd + w);
			uint64_t	y = bloom_load64le(bs + w);

			pop_d += bloom_popcount64(x);
			pop_s += bloom_popcount64(y);
			u += bloom_popcount64(x | y);
		}
		pop_u += u;
		total += table[u];
	}
	*grows = pop_u > (pop_d > pop_s ? pop_d : pop_s);
	return total / (double) nblocks;
}

/*
 * A union keeps the rate if every sub-filter of it does: sub-filter i is
 * fine if the two counts fit its capacity, or if one operand's cells hold
 * the other's, or if the rate estimated from the union's fill (the cells
 * set, block by block) is within the sub-filter's own, error_rate /
 * 2^(i+1).  Counts alone would refuse unions of overlapping filters (a
 * filter with itself) and trust damaged counts; the fill decides.
 */
static int
scalable_union_overfills(const BloomHeader *hdr, const uint8_t *dst,
						 const BloomHeader *shdr, const uint8_t *src,
						 double *fpp, double *limit)
{
	ScalableSub d[SCALABLE_MAX_SUBS];
	ScalableSub s[SCALABLE_MAX_SUBS];
	int			nd = scalable_subs(hdr, dst, d);
	int			ns = scalable_subs(shdr, src, s);

	for (int i = 0; i < ns && i < nd; i++)
	{
		bool		grows;

		/* a mismatch is combine's to report, as a difference of shape */
		if (s[i].hdr.nbits != d[i].hdr.nbits || s[i].hdr.nhashes != d[i].hdr.nhashes)
			return -1;
		if (s[i].items <= d[i].hdr.capacity &&
			d[i].items <= d[i].hdr.capacity - s[i].items)
			continue;
		*fpp = scalable_union_fpp(&d[i], &s[i], &grows);
		*limit = d[i].hdr.error_rate;
		if (grows && *fpp > *limit)
			return i;
	}
	return -1;
}

static double
scalable_estimate(const BloomHeader *hdr, const uint8_t *payload, bool fpp)
{
	ScalableSub subs[SCALABLE_MAX_SUBS];
	int			n = scalable_subs(hdr, payload, subs);
	double		total = 0.0;

	for (int i = 0; i < n; i++)
		total += fpp ?
			bloom_estimate_fpp(subs[i].bits, bloom_nblocks(&subs[i].hdr), subs[i].hdr.nhashes) :
			bloom_estimate_cardinality(subs[i].bits, bloom_nblocks(&subs[i].hdr),
									   subs[i].hdr.nhashes);
	/* sub-filters' rates add up: a probe is a false positive if any says so */
	return fpp ? (total < 1.0 ? total : 1.0) : total;
}

static double
scalable_cardinality(const BloomHeader *hdr, const uint8_t *payload)
{
	return scalable_estimate(hdr, payload, false);
}

static double
scalable_fpp(const BloomHeader *hdr, const uint8_t *payload)
{
	return scalable_estimate(hdr, payload, true);
}

static size_t
scalable_describe(const BloomHeader *hdr, char *buf, size_t size)
{
	return bloom_describe_sized(hdr, "scalable", buf, size);
}

/*
 * nbits is the sum of the sub-filters' bits and nhashes their number, as
 * releases up to 1.2 showed them; the list shows each sub-filter.
 */
static void
scalable_info(const BloomHeader *hdr, const uint8_t *payload, BloomInfoSink *sink)
{
	ScalableSub subs[SCALABLE_MAX_SUBS];
	int			n = scalable_subs(hdr, payload, subs);
	uint64_t	items = 0;

	for (int i = 0; i < n; i++)
		items += subs[i].items;
	bloom_info_cells(hdr, sink);
	bloom_info_uint(sink, "expansion", scalable_expansion(payload));
	bloom_info_uint(sink, "items", items);
	bloom_info_open(sink, "subfilters", BLOOM_INFO_LIST);
	for (int i = 0; i < n; i++)
	{
		bloom_info_open(sink, NULL, BLOOM_INFO_OBJECT);
		bloom_info_uint(sink, "capacity", subs[i].hdr.capacity);
		bloom_info_real(sink, "error_rate", subs[i].hdr.error_rate);
		bloom_info_cells(&subs[i].hdr, sink);
		bloom_info_uint(sink, "bits_set", subs[i].hdr.bits_set);
		bloom_info_uint(sink, "items", subs[i].items);
		bloom_info_real(sink, "fpp", bloom_estimate_fpp(subs[i].bits, bloom_nblocks(&subs[i].hdr),
														subs[i].hdr.nhashes));
		bloom_info_close(sink);
	}
	bloom_info_close(sink);
}

static void
scalable_partial(BloomHeader *hdr, uint8_t *payload, int nparts)
{
	(void) hdr;
	bloom_store32le(payload + SCALABLE_OFF_DIVISOR, nparts > 1 ? (uint32_t) nparts : 1);
}

static void
scalable_finish(BloomHeader *hdr, uint8_t *payload)
{
	(void) hdr;
	bloom_store32le(payload + SCALABLE_OFF_DIVISOR, 1);
}

/*
 * A new scalable filter's header and the size of its payload with one,
 * empty sub-filter; false if even that does not fit.  bloom_scalable_init
 * then writes the payload.
 */
bool
bloom_scalable_header(BloomHeader *hdr, uint64_t capacity, double error_rate,
					  uint32_t seed, uint32_t expansion, uint64_t *payload_bytes)
{
	BloomHeader first;

	bloom_header_init(hdr, capacity, error_rate, seed, 0, 0);
	hdr->layout = BLOOM_LAYOUT_SCALABLE;
	if (expansion == 0 || expansion > SCALABLE_MAX_EXPANSION ||
		!scalable_sub_shape(hdr, expansion, 0, &first))
		return false;
	*payload_bytes = SCALABLE_PREFIX + SCALABLE_SUB_HEAD + first.nbits / 8;
	return *payload_bytes <= BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE;
}

void
bloom_scalable_init(BloomHeader *hdr, uint32_t expansion, uint8_t *payload)
{
	uint8_t		prefix[SCALABLE_PREFIX] = {0};

	bloom_store32le(prefix + SCALABLE_OFF_EXPANSION, expansion);
	bloom_store32le(prefix + SCALABLE_OFF_DIVISOR, 1);
	memcpy(payload, prefix, SCALABLE_PREFIX);
	scalable_grow(hdr, payload, payload);
}

/* declared for -Wmissing-variable-declarations; core/header.c registers it */
extern const BloomLayout bloom_scalable_layout;

const BloomLayout bloom_scalable_layout = {
	.id = BLOOM_LAYOUT_SCALABLE,
	.name = "scalable",
	.grows = true,
	.no_intersect_detail = "An element both filters hold can sit in different sub-filters of each.",
	.shape_hint = "Create both filters with the same capacity, error rate, expansion and seed; to combine the elements of filters built apart, add them to one filter (bf_add_all) or build it with one aggregate.",
	.check_header = scalable_check_header,
	.check_payload = scalable_check_payload,
	.payload_bytes = scalable_payload_bytes,
	.dir_next = scalable_dir_next,
	.dir_predict = scalable_dir_predict,
	.spans = scalable_spans,
	.answer = scalable_answer,
	.add = scalable_add,
	.grown_bytes = scalable_grown_bytes,
	.grow = scalable_grow,
	.remove = NULL,
	.same_shape = scalable_same_shape,
	.combine = scalable_combine,
	.union_overfills = scalable_union_overfills,
	.cardinality = scalable_cardinality,
	.fpp = scalable_fpp,
	.header_fpp = NULL,			/* k counts sub-filters: fpp reads them */
	.describe = scalable_describe,
	.info = scalable_info,
	.partial = scalable_partial,
	.finish = scalable_finish,
};
