/*-------------------------------------------------------------------------
 *
 * redisbloom.c
 *	  Layout 6, "redisbloom": a scalable Bloom filter laid out and hashed as
 *	  RedisBloom 2.x keeps one, so that a value built here answers in Redis
 *	  exactly as here, and one dumped from Redis answers here as it did
 *	  there.
 *
 * What RedisBloom does (and so what this file does, written from its
 * documented behaviour and checked against the module, RedisBloom 2.4.9):
 *
 * Hashing (hash id 4).  An element is the bytes a Redis client sends for
 * it (type/keys/canon.c: the decimal text of an integer, the UTF-8 bytes of a
 * text, the bytes of a bytea).  They are hashed twice with MurmurHash64A
 * (Austin Appleby's 64-bit MurmurHash2 for 64-bit hosts, input read as
 * little-endian words): a with seed 0xc6a4a7935bd1e995, b with seed a.
 * The bit positions of an element in a link are x_i = (a + i*b) mod M for
 * i = 0 .. hashes-1, computed in unsigned 64-bit arithmetic (wrapping), M
 * being the link's bit count, or 2^n2 for a link whose n2 is not zero
 * (links sized to a power of two; BF.RESERVE never makes them, older
 * modules did).  Bit x is bit x % 8 of byte x / 8.  Only chains whose
 * options include FORCE64 hash this way; older chains hashed with 32-bit
 * MurmurHash2, which this layout does not implement (refused at input).
 *
 * Links.  A chain is a list of plain Bloom filters ("links").  A link
 * sized for n entries at error rate e has bpe = |ln e| / ln(2)^2 bits per
 * entry, hashes = ceil(ln 2 * bpe), and, with the NOROUND option that
 * BF.RESERVE and BF.ADD always set, bits = floor(n * bpe) rounded up to a
 * whole number of 64-bit words (one word more if it is not one already);
 * without it the bit count is rounded up to a power of two and the link
 * takes as many more entries as the spare bits hold (rb_link_init has
 * every branch).  The first link gets half the requested rate (the
 * "tightening" ratio 0.5), or the whole rate for a NONSCALING chain.
 *
 * Adds (BF.ADD).  An element that tests present in any link is not added
 * and does not count.  Otherwise, if the last link holds as many elements
 * as its entries, a NONSCALING chain refuses the add, and any other gets a
 * new link for entries * growth elements at half the last link's rate;
 * then the element's bits are set in the last link, and it counts (in the
 * link and in the chain) only if at least one bit was clear.  A check
 * tests the links newest first; present in any is present.
 *
 * The payload is the chain exactly as BF.SCANDUMP hands it out: its first
 * chunk (the chain header), then each link's bytes in order, so that the
 * dump is slices of the payload and a dump read back is the bytes
 * concatenated.  All little-endian, packed:
 *
 *		chain header, 20 bytes:
 *			0	uint64	size, elements counted over all links
 *			8	uint32	nfilters, the number of links (1..64 here)
 *			12	uint32	options: 1 NOROUND, 2 ENTS_IS_BITS, 4 FORCE64,
 *						8 NO_SCALING
 *			16	uint32	growth, the expansion
 *		then per link, 53 bytes:
 *			0	uint64	bytes
 *			8	uint64	bits (bytes * 8)
 *			16	uint64	size, elements counted in the link
 *			24	float64 error
 *			32	float64 bpe
 *			40	uint32	hashes
 *			44	uint64	entries
 *			52	uint8	n2
 *		then the links' bytes.
 *
 * The 48-byte header's fields mean, for this layout: k (byte 7) the number
 * of links, nbits the sum of their bits, capacity the first link's
 * entries, error rate the first link's rate over the tightening ratio
 * (its rate itself for NONSCALING), seed 0, bits set the bits set over
 * all links.  They follow from the payload, and validation holds them to
 * it.  A link must pass what RedisBloom checks when it loads a chain
 * (error in (0, 1), bits = 8 * bytes, bits at least 2^n2, hashes as bpe
 * gives them, the links' sizes summing to the chain's), and more: at least
 * one byte, n2 below 64, at most RB_MAX_HASHES hashes, FORCE64 set, only
 * known options; and what RedisBloom never checks but every link and chain
 * it makes holds, because those fields size later growth (rb_link_check,
 * rb_link_follows): bpe as the error rate gives it, entries what the bits
 * hold, size at most entries, a growth of 1 .. BLOOM_MAX_EXPANSION and no
 * ENTS_IS_BITS in a chain that scales, each link after the first at half
 * the rate and entries * growth.
 *
 * Limits and knowing imperfections.  XXX A check of a stored value reads
 * each link whole (the bits of an element are spread over the link), so a
 * point check of a large stored chain fetches all of its TOAST chunks; a
 * value in memory is unaffected.  XXX A union (of two chains of the same
 * request, the longer first) ORs the links and adds the counts, as if the
 * elements of both were distinct (up to each link's entries); it does not
 * check that a link stays within its rate, and its bytes are not those
 * BF.MADD of the elements would give (so a parallel bf_agg's are not
 * either).
 * Chains of more than 64 links (BLOOM_MAX_PARTS) are refused.
 *
 * src/core/redisbloom.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/header.h"

#include <math.h>

/* the chain header */
#define RB_CHAIN_HEAD		20
#define RB_OFF_SIZE			0
#define RB_OFF_NFILTERS		8
#define RB_OFF_OPTIONS		12
#define RB_OFF_GROWTH		16

/* a link's entry in it */
#define RB_LINK_ENTRY		53
#define RB_L_BYTES			0
#define RB_L_BITS			8
#define RB_L_SIZE			16
#define RB_L_ERROR			24
#define RB_L_BPE			32
#define RB_L_HASHES			40
#define RB_L_ENTRIES		44
#define RB_L_N2				52

/* RedisBloom's options (deps/bloom/bloom.h there) */
#define RB_OPT_NOROUND		1
#define RB_OPT_ENTS_IS_BITS 2
#define RB_OPT_FORCE64		4
#define RB_OPT_NO_SCALING	8
#define RB_OPT_KNOWN		(RB_OPT_NOROUND | RB_OPT_ENTS_IS_BITS | RB_OPT_FORCE64 | RB_OPT_NO_SCALING)

/* the constants RedisBloom sizes with, as it writes them */
#define RB_LN2				0.693147180559945
#define RB_LN2_SQUARED		0.480453013918201
#define RB_TIGHTENING		0.5
#define RB_HASH_SEED		UINT64_C(0xc6a4a7935bd1e995)
#define RB_MURMUR_M			UINT64_C(0xc6a4a7935bd1e995)
#define RB_MURMUR_R			47

/*
 * More hashes than any rate a double can hold needs (ln of the smallest
 * double gives about 1075): a bound on the work of one check.
 */
#define RB_MAX_HASHES		2048
#define RB_MAX_LINKS		BLOOM_MAX_PARTS
/* a part's width packs the hashes (low 16 bits) and n2 (above) */
#define RB_WIDTH_N2_SHIFT	16

typedef struct RbLink
{
	uint64_t	bytes;
	uint64_t	bits;
	uint64_t	size;
	double		error;
	double		bpe;
	uint32_t	hashes;
	uint64_t	entries;
	uint8_t		n2;
} RbLink;

typedef struct RbChain
{
	uint64_t	size;
	uint32_t	nfilters;
	uint32_t	options;
	uint32_t	growth;
} RbChain;

/* ---- MurmurHash64A ---- */

uint64_t
bloom_murmur64a(const void *key, size_t len, uint64_t seed)
{
	const uint8_t *p = key;
	const uint8_t *end = p + (len & ~(size_t) 7);
	uint64_t	h = seed ^ ((uint64_t) len * RB_MURMUR_M);
	uint64_t	tail = 0;

	for (; p != end; p += 8)
	{
		uint64_t	k = bloom_load64le(p);

		k *= RB_MURMUR_M;
		k ^= k >> RB_MURMUR_R;
		k *= RB_MURMUR_M;
		h ^= k;
		h *= RB_MURMUR_M;
	}
	/* the last 1..7 bytes, as the low bytes of one more word */
	if (len & 7)
	{
		for (size_t i = 0; i < (len & 7); i++)
			tail |= (uint64_t) p[i] << (8 * i);
		h ^= tail;
		h *= RB_MURMUR_M;
	}
	h ^= h >> RB_MURMUR_R;
	h *= RB_MURMUR_M;
	h ^= h >> RB_MURMUR_R;
	return h;
}

BloomHash
bloom_redis_hash(const void *key, size_t len)
{
	BloomHash	h;

	h.h1 = bloom_murmur64a(key, len, RB_HASH_SEED);
	h.h2 = bloom_murmur64a(key, len, h.h1);
	return h;
}

/* ---- the chain header and its links ---- */

static void
rb_chain_read(const uint8_t *payload, RbChain *c)
{
	c->size = bloom_load64le(payload + RB_OFF_SIZE);
	c->nfilters = bloom_load32le(payload + RB_OFF_NFILTERS);
	c->options = bloom_load32le(payload + RB_OFF_OPTIONS);
	c->growth = bloom_load32le(payload + RB_OFF_GROWTH);
}

static void
rb_chain_write(uint8_t *payload, const RbChain *c)
{
	bloom_store64le(payload + RB_OFF_SIZE, c->size);
	bloom_store32le(payload + RB_OFF_NFILTERS, c->nfilters);
	bloom_store32le(payload + RB_OFF_OPTIONS, c->options);
	bloom_store32le(payload + RB_OFF_GROWTH, c->growth);
}

static void
rb_link_decode(const uint8_t *e, RbLink *l)
{
	l->bytes = bloom_load64le(e + RB_L_BYTES);
	l->bits = bloom_load64le(e + RB_L_BITS);
	l->size = bloom_load64le(e + RB_L_SIZE);
	l->error = bloom_load_double_le(e + RB_L_ERROR);
	l->bpe = bloom_load_double_le(e + RB_L_BPE);
	l->hashes = bloom_load32le(e + RB_L_HASHES);
	l->entries = bloom_load64le(e + RB_L_ENTRIES);
	l->n2 = e[RB_L_N2];
}

static void
rb_link_encode(uint8_t *e, const RbLink *l)
{
	bloom_store64le(e + RB_L_BYTES, l->bytes);
	bloom_store64le(e + RB_L_BITS, l->bits);
	bloom_store64le(e + RB_L_SIZE, l->size);
	bloom_store_double_le(e + RB_L_ERROR, l->error);
	bloom_store_double_le(e + RB_L_BPE, l->bpe);
	bloom_store32le(e + RB_L_HASHES, l->hashes);
	bloom_store64le(e + RB_L_ENTRIES, l->entries);
	e[RB_L_N2] = l->n2;
}

static inline uint8_t *
rb_entry(const uint8_t *payload, uint32_t i)
{
	return (uint8_t *) payload + RB_CHAIN_HEAD + (size_t) i * RB_LINK_ENTRY;
}

static inline uint64_t
rb_head_bytes(uint32_t nfilters)
{
	return RB_CHAIN_HEAD + (uint64_t) nfilters * RB_LINK_ENTRY;
}

/*
 * How far a link's bpe may stray from the one its error rate gives, and
 * its entries times bpe from its bits, relatively: the same sizing on
 * another C library's log() may differ in the last bits of a double.
 */
#define RB_REL_SLACK		1e-9

static double
rb_bpe(double error)
{
	double		bpe = -(log(error) / RB_LN2_SQUARED);

	return bpe < 0 ? -bpe : bpe;
}

/*
 * A link as RedisBloom checks one it loads (bloom_validate_integrity), and
 * what this layout adds so that no field can send a check astray: a byte
 * at least, n2 a shift a 64-bit word allows, a finite bpe whose hashes
 * are bounded.  BLOOM_BAD_SUBFILTER for those.
 *
 * RedisBloom checks nothing more, but a link it made (bloom_init) always
 * holds more, and what it holds is what sizes later growth: the next link
 * is made for entries * growth elements.  Unchecked, a link of 8 bytes
 * claiming 250,000,000 entries grows a 129-byte value to 779 MB at one
 * add.  So the rest of bloom_init's sizing is checked too, with x =
 * entries * bpe (in double, as bloom_init computes it):
 *
 *	- bpe is |ln(error)| / ln(2)^2, the bits per element of the rate;
 *	- with n2 = 0 (NOROUND, what BF.RESERVE makes), bits is floor(x)
 *	  rounded up to whole 64-bit words, so bits - 64 < x < bits + 1;
 *	- with n2 > 0 (rounded to 2^n2 bits; ENTS_IS_BITS), the link was made
 *	  for at least half its 2^n2 bits and given the entries its spare bits
 *	  hold, no more: 2^n2 / 2 - bpe - 1 <= x <= 2^n2;
 *	- size, the elements it counted, is at most entries (an add past them
 *	  starts a link instead).
 *
 * The bounds are widened by RB_REL_SLACK so that no genuine link is
 * refused; the upper bound is what keeps a link's entries within what its
 * bytes could hold, and the lower one is checked because every genuine
 * link holds it too.
 */
static BloomCheck
rb_link_check(const RbLink *l)
{
	double		k,
				x,
				m,
				slack;

	if (!(l->error > 0.0 && l->error < 1.0))
		return BLOOM_BAD_SUBFILTER;
	if (l->bytes == 0 || l->bytes > BLOOM_MAX_BYTES || l->bits != l->bytes * 8)
		return BLOOM_BAD_SUBFILTER;
	if (l->n2 > 63 || (l->n2 != 0 && l->bits < (UINT64_C(1) << l->n2)))
		return BLOOM_BAD_SUBFILTER;
	k = RB_LN2 * l->bpe;
	if (!(k > 0.0 && k <= RB_MAX_HASHES))
		return BLOOM_BAD_SUBFILTER;
	if (l->hashes != (uint32_t) (int) ceil(k))
		return BLOOM_BAD_SUBFILTER;

	if (!(fabs(l->bpe - rb_bpe(l->error)) <= RB_REL_SLACK * l->bpe))
		return BLOOM_BAD_LINK_BPE;
	x = (double) l->entries * l->bpe;
	if (l->n2 == 0)
	{
		m = (double) l->bits;
		slack = m * RB_REL_SLACK;
		if (!(x < m + 1.0 + slack && x > m - 64.0 - slack))
			return BLOOM_BAD_LINK_ENTRIES;
	}
	else
	{
		m = (double) (UINT64_C(1) << l->n2);
		slack = m * RB_REL_SLACK;
		if (!(x <= m + slack && x >= m / 2.0 - l->bpe - 1.0 - slack))
			return BLOOM_BAD_LINK_ENTRIES;
	}
	if (l->size > l->entries)
		return BLOOM_BAD_LINK_SIZE;
	return BLOOM_OK;
}

static bool
rb_link_ok(const RbLink *l)
{
	return rb_link_check(l) == BLOOM_OK;
}

/*
 * A new link for entries elements at error, as RedisBloom's bloom_init
 * sizes it under options; false where that fails, and where it would make
 * a link this layout refuses (no bits, n2 of 64, a shift of a negative
 * exponent, a size beyond the limit).
 */
static bool
rb_link_init(RbLink *l, uint64_t entries, double error, uint32_t options)
{
	uint64_t	bits;

	memset(l, 0, sizeof(*l));
	if (entries < 1 || !(error > 0.0 && error < 1.0))
		return false;
	l->error = error;
	l->entries = entries;
	l->bpe = rb_bpe(error);
	if (options & RB_OPT_ENTS_IS_BITS)
	{
		if (entries > 63)
			return false;
		l->n2 = (uint8_t) entries;
		bits = UINT64_C(1) << l->n2;
		l->entries = (uint64_t) ((double) bits / l->bpe);
	}
	else if (options & RB_OPT_NOROUND)
	{
		double		want = (double) entries * l->bpe;

		if (!(want < 18446744073709551616.0))
			return false;
		bits = (uint64_t) want;
	}
	else
	{
		double		want = (double) entries * l->bpe;
		double		bn2 = logb(want);

		if (!(bn2 >= 0.0 && bn2 < 63.0))
			return false;
		l->n2 = (uint8_t) (bn2 + 1);
		bits = UINT64_C(1) << l->n2;
		/* the spare bits of the rounding take more entries */
		l->entries += (uint64_t) ((double) (uint64_t) ((double) bits - want) / l->bpe);
	}
	if (bits == 0 || bits / 8 > BLOOM_MAX_BYTES)
		return false;
	l->bytes = bits % 64 ? (bits / 64 + 1) * 8 : bits / 8;
	l->bits = l->bytes * 8;
	l->hashes = (uint32_t) (int) ceil(RB_LN2 * l->bpe);
	return rb_link_ok(l);
}

/*
 * The next link a chain whose last link is last starts.  Input holds the
 * growth to 1 .. BLOOM_MAX_EXPANSION, without ENTS_IS_BITS; both are
 * checked here again because a link this makes is sized from them.
 */
static bool
rb_next_link(const RbChain *c, const RbLink *last, RbLink *next)
{
	if ((c->options & (RB_OPT_NO_SCALING | RB_OPT_ENTS_IS_BITS)) || c->growth == 0 ||
		c->growth > BLOOM_MAX_EXPANSION || last->entries > UINT64_MAX / c->growth)
		return false;
	return rb_link_init(next, last->entries * c->growth,
						last->error * RB_TIGHTENING, c->options);
}

/*
 * Whether link l can follow link prev in chain c, as SBChain_Add makes the
 * next link: never in a NONSCALING chain; at half prev's error rate
 * (exactly: the product is exact, and what RedisBloom stored); for
 * entries * growth entries, which NOROUND keeps as they are and rounding to
 * a power of two only raises.  (A chain that scales has no ENTS_IS_BITS.)
 */
static bool
rb_link_follows(const RbChain *c, const RbLink *prev, const RbLink *l)
{
	uint64_t	want;

	if (c->options & RB_OPT_NO_SCALING)
		return false;
	if (l->error != prev->error * RB_TIGHTENING)
		return false;
	if (prev->entries > UINT64_MAX / c->growth)
		return false;
	want = prev->entries * c->growth;
	return (c->options & RB_OPT_NOROUND) ? l->entries == want : l->entries >= want;
}

/* ---- bits ---- */

static inline uint64_t
rb_modulus(uint64_t bits, uint8_t n2)
{
	return n2 != 0 ? UINT64_C(1) << n2 : bits;
}

static bool
rb_test(const uint8_t *bits, uint64_t mod, uint32_t hashes, BloomHash h)
{
	for (uint32_t i = 0; i < hashes; i++)
	{
		uint64_t	x = (h.h1 + (uint64_t) i * h.h2) % mod;

		if (!(bits[x >> 3] & (1u << (x & 7))))
			return false;
	}
	return true;
}

/* set the element's bits; returns how many were clear */
static uint64_t
rb_set(uint8_t *bits, uint64_t mod, uint32_t hashes, BloomHash h)
{
	uint64_t	set = 0;

	for (uint32_t i = 0; i < hashes; i++)
	{
		uint64_t	x = (h.h1 + (uint64_t) i * h.h2) % mod;
		uint8_t		mask = (uint8_t) (1u << (x & 7));

		if (!(bits[x >> 3] & mask))
		{
			bits[x >> 3] |= mask;
			set++;
		}
	}
	return set;
}

static uint64_t
rb_popcount(const uint8_t *p, uint64_t n)
{
	uint64_t	count = 0;
	uint64_t	i = 0;

	for (; i + 8 <= n; i += 8)
	{
		if (i % BLOOM_INTERRUPT_BYTES == 0)
			bloom_check_interrupts();
		count += (uint64_t) bloom_popcount64(bloom_load64le(p + i));
	}
	for (; i < n; i++)
		count += (uint64_t) bloom_popcount64(p[i]);
	return count;
}

/*
 * The links of a payload whose header passed check_header (n of them), and
 * where each one's bytes start; false if an entry fails a link's checks or
 * the sizes do not add up.  A stored value is read with its header's
 * checks only, so every reader of links comes through here.
 */
static bool
rb_links(const BloomHeader *hdr, const uint8_t *payload, RbLink *links, uint8_t **bits)
{
	uint64_t	off = rb_head_bytes(hdr->nhashes);
	uint64_t	end = off + hdr->nbits / 8;

	for (uint32_t i = 0; i < hdr->nhashes; i++)
	{
		rb_link_decode(rb_entry(payload, i), &links[i]);
		if (!rb_link_ok(&links[i]) || links[i].bytes > end - off)
			return false;
		bits[i] = (uint8_t *) payload + off;
		off += links[i].bytes;
	}
	return off == end;
}

/* ---- the layout's checks ---- */

static uint64_t
rb_payload_bytes(const BloomHeader *hdr)
{
	return rb_head_bytes(hdr->nhashes) + hdr->nbits / 8;
}

bool
bloom_redis_key_type_ok(uint32_t key_type)
{
	switch (key_type)
	{
		case 0:					/* untyped */
		case 17:				/* bytea */
		case 20:				/* bigint */
		case 21:				/* smallint */
		case 23:				/* integer */
		case 25:				/* text */
		case 1042:				/* char(n) */
		case 1043:				/* varchar */
			return true;
	}
	return false;
}

static BloomCheck
rb_check_header(const BloomHeader *hdr, size_t payload_len)
{
	if (hdr->seed != 0)
		return BLOOM_BAD_RESERVED;
	if (hdr->nhashes == 0 || hdr->nhashes > RB_MAX_LINKS)
		return BLOOM_BAD_NHASHES;
	if (hdr->nbits == 0 || hdr->nbits % 8 != 0 || hdr->nbits / 8 > BLOOM_MAX_BYTES)
		return BLOOM_BAD_NBITS;
	if (payload_len != rb_payload_bytes(hdr) ||
		payload_len > BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE)
		return BLOOM_BAD_LENGTH;
	if (hdr->bits_set > hdr->nbits)
		return BLOOM_BAD_BITS_SET;
	if (!bloom_redis_key_type_ok(hdr->key_type))
		return BLOOM_BAD_KEY_TYPE;
	return BLOOM_OK;
}

/* what the chain header alone says, against the top header's count of links */
static BloomCheck
rb_check_chain(const RbChain *c, uint32_t nlinks)
{
	if (c->nfilters != nlinks)
		return BLOOM_BAD_NHASHES;
	if (c->options & ~RB_OPT_KNOWN)
		return BLOOM_BAD_RESERVED;
	if (!(c->options & RB_OPT_FORCE64))
		return BLOOM_BAD_HASH;
	return BLOOM_OK;
}

/*
 * The chain header's own fields: the number of links against the length,
 * the options, and the growth.  On failure *why says what is wrong.
 */
static BloomCheck
rb_head_check_chain(const RbChain *c, size_t len, const char **why)
{
	*why = "A chain must have 1 to 64 links.";
	if (c->nfilters == 0 || c->nfilters > RB_MAX_LINKS)
		return BLOOM_BAD_NHASHES;
	*why = "The chain header must be 20 bytes and 53 more per link.";
	if (len != rb_head_bytes(c->nfilters))
		return BLOOM_BAD_LENGTH;
	*why = "The chain's options include one RedisBloom does not know.";
	if (c->options & ~RB_OPT_KNOWN)
		return BLOOM_BAD_RESERVED;
	*why = "The chain hashes with 32-bit MurmurHash2 (its options lack FORCE64, 4), which this build does not implement.";
	if (!(c->options & RB_OPT_FORCE64))
		return BLOOM_BAD_HASH;
	/*
	 * The growth sizes every later link (entries * growth): held to
	 * bf_create's bounds, as a scalable filter's expansion is.  With
	 * ENTS_IS_BITS, bloom_init takes entries * growth as the next link's n2,
	 * so that a chain of a few bytes whose link holds one entry grows to
	 * 2^growth bits (512 MB at growth 32); no RedisBloom command sets that
	 * option, so a chain that scales may not have it.  A NONSCALING chain
	 * never grows, and Redis writes what it was given there (BF.INSERT ...
	 * NONSCALING EXPANSION n), so neither is checked for one.
	 */
	*why = bloom_check_message(BLOOM_BAD_GROWTH);
	if (!(c->options & RB_OPT_NO_SCALING) &&
		(c->growth < 1 || c->growth > BLOOM_MAX_EXPANSION || (c->options & RB_OPT_ENTS_IS_BITS)))
		return BLOOM_BAD_GROWTH;
	return BLOOM_OK;
}

/*
 * The chain header (what BF.SCANDUMP hands out first) on its own: what
 * RedisBloom checks when BF.LOADCHUNK reads one, and this layout's limits;
 * on success hdr is the top header of the value it makes (bits set 0, key
 * type 0), else *why says what is wrong, in a sentence.  The server reads
 * dumps through this.
 */
BloomCheck
bloom_redis_read_head(const uint8_t *head, size_t len, BloomHeader *hdr, const char **why)
{
	RbChain		c;
	RbLink		l,
				prev = {0};
	uint64_t	nbits = 0,
				total = 0;
	BloomCheck	check;

	*why = "The chain header must be 20 bytes and 53 more per link.";
	if (len < RB_CHAIN_HEAD)
		return BLOOM_BAD_LENGTH;
	rb_chain_read(head, &c);
	check = rb_head_check_chain(&c, len, why);
	if (check != BLOOM_OK)
		return check;
	for (uint32_t i = 0; i < c.nfilters; i++)
	{
		rb_link_decode(rb_entry(head, i), &l);
		check = rb_link_check(&l);
		if (check == BLOOM_BAD_SUBFILTER)
			*why = "A link fails RedisBloom's checks: its error rate must be in (0, 1), its bits 8 times its bytes (at least one), its hashes ceil(ln 2 * bpe), and n2 below 64 and within its bits.";
		else
			*why = bloom_check_message(check);
		if (check != BLOOM_OK)
			return check;
		*why = bloom_check_message(BLOOM_BAD_LINK_NEXT);
		if (i > 0 && !rb_link_follows(&c, &prev, &l))
			return BLOOM_BAD_LINK_NEXT;
		prev = l;
		*why = "The links' sizes do not add up to the chain's size.";
		if (l.size > UINT64_MAX - total)
			return BLOOM_BAD_SUBFILTER;
		total += l.size;
		nbits += l.bits;
		*why = "The links exceed the size limit of a bloom filter value.";
		if (nbits / 8 > BLOOM_MAX_BYTES)
			return BLOOM_BAD_NBITS;
	}
	*why = "The links' sizes do not add up to the chain's size.";
	if (total != c.size)
		return BLOOM_BAD_SUBFILTER;
	rb_link_decode(rb_entry(head, 0), &l);
	bloom_header_init(hdr, l.entries,
					  (c.options & RB_OPT_NO_SCALING) ? l.error : l.error / RB_TIGHTENING,
					  0, nbits, (int) c.nfilters);
	hdr->layout = BLOOM_LAYOUT_REDISBLOOM;
	hdr->hash_id = BLOOM_HASH_REDISBLOOM;
	*why = "The links exceed the size limit of a bloom filter value.";
	if (rb_payload_bytes(hdr) > BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE)
		return BLOOM_BAD_LENGTH;
	*why = "The first link's entries and error rate make no valid capacity and rate.";
	if (hdr->capacity == 0 || hdr->capacity > (uint64_t) INT64_MAX ||
		!(hdr->error_rate > 0.0 && hdr->error_rate < 1.0))
		return BLOOM_BAD_CAPACITY;
	*why = NULL;
	return BLOOM_OK;
}

static BloomCheck
rb_check_payload(const BloomHeader *hdr, const uint8_t *payload)
{
	BloomHeader want;
	BloomCheck	check;
	uint64_t	bits_set = 0;
	RbLink		links[RB_MAX_LINKS];
	uint8_t    *bits[RB_MAX_LINKS];
	const char *why;

	check = bloom_redis_read_head(payload, rb_head_bytes(hdr->nhashes), &want, &why);
	if (check != BLOOM_OK)
		return check;
	if (want.nbits != hdr->nbits || !rb_links(hdr, payload, links, bits))
		return BLOOM_BAD_NBITS;
	if (want.capacity != hdr->capacity)
		return BLOOM_BAD_CAPACITY;
	if (want.error_rate != hdr->error_rate)
		return BLOOM_BAD_ERROR_RATE;
	for (uint32_t i = 0; i < hdr->nhashes; i++)
		bits_set += rb_popcount(bits[i], links[i].bytes);
	if (bits_set != hdr->bits_set)
		return BLOOM_BAD_BITS_SET;
	return BLOOM_OK;
}

/* the bits set over all links, for a value just assembled from a dump */
uint64_t
bloom_redis_count_bits(const BloomHeader *hdr, const uint8_t *payload)
{
	return rb_popcount(payload + rb_head_bytes(hdr->nhashes), hdr->nbits / 8);
}

/* ---- checks ---- */

/*
 * The directory: the chain header, then the links' entries, whose sizes
 * give where each link's bytes lie; one part per link, its size in bytes
 * and its width the hashes with n2 above them.
 */
static BloomCheck
rb_dir_next(const BloomHeader *hdr, BloomDir *dir, const uint8_t *piece,
			BloomSpan *next)
{
	uint64_t	end = dir->payload_len;

	next->len = 0;
	if (piece == NULL)
	{
		dir->walked = 0;
		next->offset = 0;
		next->len = RB_CHAIN_HEAD;
		return end < RB_CHAIN_HEAD ? BLOOM_BAD_LENGTH : BLOOM_OK;
	}
	if (dir->walked == 0)
	{
		RbChain		c;
		BloomCheck	check;

		rb_chain_read(piece, &c);
		check = rb_check_chain(&c, hdr->nhashes);
		if (check != BLOOM_OK)
			return check;
		dir->walked = RB_CHAIN_HEAD;
		next->offset = RB_CHAIN_HEAD;
		next->len = (uint32_t) (rb_head_bytes(hdr->nhashes) - RB_CHAIN_HEAD);
		return next->offset + next->len > end ? BLOOM_BAD_LENGTH : BLOOM_OK;
	}
	dir->walked = rb_head_bytes(hdr->nhashes);
	for (uint32_t i = 0; i < hdr->nhashes; i++)
	{
		RbLink		l;
		BloomPart  *part = &dir->part[i];

		rb_link_decode(piece + (size_t) i * RB_LINK_ENTRY, &l);
		if (!rb_link_ok(&l) || l.bytes > end - dir->walked || l.bytes > UINT32_MAX)
			return BLOOM_BAD_SUBFILTER;
		part->offset = dir->walked;
		part->size = l.bytes;
		part->width = l.hashes | ((uint32_t) l.n2 << RB_WIDTH_N2_SHIFT);
		dir->walked += l.bytes;
	}
	dir->nparts = hdr->nhashes;
	return dir->walked != end ? BLOOM_BAD_LENGTH : BLOOM_OK;
}

/* each link whole, newest first: an element's bits lie anywhere in it */
static int
rb_spans(const BloomDir *dir, BloomHash h, BloomSpan *spans)
{
	(void) h;
	for (int i = 0; i < dir->nparts; i++)
	{
		const BloomPart *part = &dir->part[dir->nparts - 1 - i];

		spans[i].offset = part->offset;
		spans[i].len = (uint32_t) part->size;
	}
	return dir->nparts;
}

static int
rb_answer(const BloomDir *dir, const uint8_t *const *spans, BloomHash h, bool count)
{
	(void) count;				/* links do not count: 0 or 1 */
	for (int i = 0; i < dir->nparts; i++)
	{
		const BloomPart *part = &dir->part[dir->nparts - 1 - i];
		uint8_t		n2 = (uint8_t) (part->width >> RB_WIDTH_N2_SHIFT);
		uint32_t	hashes = part->width & ((UINT32_C(1) << RB_WIDTH_N2_SHIFT) - 1);

		if (rb_test(spans[i], rb_modulus(part->size * 8, n2), hashes, h))
			return 1;
	}
	return 0;
}

/* ---- adds and growth ---- */

/*
 * BF.ADD of each hash in turn; stops (returning how many were handled) at
 * one that needs a new link, which grow adds, or that a NONSCALING chain
 * cannot take, which grown_bytes refuses.
 */
static size_t
rb_add(BloomHeader *hdr, uint8_t *payload, const BloomHash *hashes, size_t n)
{
	RbChain		c;
	RbLink		links[RB_MAX_LINKS];
	uint8_t    *bits[RB_MAX_LINKS];
	RbLink	   *last;
	size_t		i;
	int			nl = hdr->nhashes;

	if (!rb_links(hdr, payload, links, bits))
		return n;				/* damaged; reads say so */
	rb_chain_read(payload, &c);
	last = &links[nl - 1];
	for (i = 0; i < n; i++)
	{
		bool		present = false;
		uint64_t	set;

		if (i % 1024 == 1023)
			bloom_check_interrupts();
		for (int j = nl - 1; j >= 0 && !present; j--)
			present = rb_test(bits[j], rb_modulus(links[j].bits, links[j].n2),
							  links[j].hashes, hashes[i]);
		if (present)
			continue;
		if (last->size >= last->entries)
			break;
		set = rb_set(bits[nl - 1], rb_modulus(last->bits, last->n2), last->hashes, hashes[i]);
		if (set == 0)
			continue;
		hdr->bits_set += set;
		last->size++;
		c.size++;
	}
	bloom_store64le(rb_entry(payload, (uint32_t) (nl - 1)) + RB_L_SIZE, last->size);
	rb_chain_write(payload, &c);
	return i;
}

static uint64_t
rb_grown_bytes(const BloomHeader *hdr, const uint8_t *payload)
{
	RbChain		c;
	RbLink		last,
				next;
	uint64_t	bytes;

	rb_chain_read(payload, &c);
	if (hdr->nhashes >= RB_MAX_LINKS)
		return 0;
	rb_link_decode(rb_entry(payload, hdr->nhashes - 1), &last);
	if (!rb_next_link(&c, &last, &next))
		return 0;
	bytes = rb_payload_bytes(hdr) + RB_LINK_ENTRY + next.bytes;
	return bytes > BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE ? 0 : bytes;
}

/*
 * One more, empty link: its entry goes after the last entry, so the links'
 * bytes move up by one entry (grown may be payload itself, enlarged).
 */
static void
rb_grow(BloomHeader *hdr, const uint8_t *payload, uint8_t *grown)
{
	RbChain		c;
	RbLink		last,
				next;
	uint64_t	head = rb_head_bytes(hdr->nhashes);
	uint64_t	data = hdr->nbits / 8;

	rb_chain_read(payload, &c);
	rb_link_decode(rb_entry(payload, hdr->nhashes - 1), &last);
	rb_next_link(&c, &last, &next);
	memmove(grown + head + RB_LINK_ENTRY, payload + head, data);
	if (grown != payload)
		memcpy(grown, payload, head);
	rb_link_encode(grown + head, &next);
	c.nfilters++;
	rb_chain_write(grown, &c);
	bloom_fill_chunked(grown + head + RB_LINK_ENTRY + data, NULL, next.bytes);
	hdr->nhashes++;
	hdr->nbits += next.bits;
}

/* ---- unions, estimates, description ---- */

/*
 * Chains of the same request; combine then holds their links to each other
 * (their shapes follow from the request, so they agree link for link).
 */
static bool
rb_same_shape(const BloomHeader *a, const BloomHeader *b)
{
	return a->capacity == b->capacity && a->error_rate == b->error_rate;
}

static bool
rb_same_link(const RbLink *a, const RbLink *b)
{
	return a->bytes == b->bytes && a->bits == b->bits && a->error == b->error &&
		a->bpe == b->bpe && a->hashes == b->hashes && a->entries == b->entries &&
		a->n2 == b->n2;
}

static uint64_t
rb_sum_saturated(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * Union into dst, the longer chain (the server unions into the larger
 * value): src's links ORed into dst's first ones, which must be of the
 * same shapes, and their counts added as if all were distinct, up to each
 * link's entries; dst's further links stay as they are.  What parallel
 * workers' partial chains of one bf_agg become.
 */
static bool
rb_combine(BloomHeader *hdr, uint8_t *dst, const BloomHeader *shdr,
		   const uint8_t *src, bool intersect)
{
	RbChain		dc,
				sc;
	RbLink		dl[RB_MAX_LINKS],
				sl[RB_MAX_LINKS];
	uint8_t    *db[RB_MAX_LINKS],
			   *sb[RB_MAX_LINKS];

	rb_chain_read(dst, &dc);
	rb_chain_read(src, &sc);
	if (intersect || shdr->nhashes > hdr->nhashes || dc.options != sc.options ||
		dc.growth != sc.growth || !rb_links(hdr, dst, dl, db) || !rb_links(shdr, src, sl, sb))
		return false;
	for (uint32_t i = 0; i < shdr->nhashes; i++)
		if (!rb_same_link(&dl[i], &sl[i]))
			return false;
	hdr->bits_set = 0;
	dc.size = 0;
	for (uint32_t i = 0; i < hdr->nhashes; i++)
	{
		if (i < shdr->nhashes)
		{
			for (uint64_t off = 0; off < dl[i].bytes; off++)
			{
				if (off % BLOOM_INTERRUPT_BYTES == 0)
					bloom_check_interrupts();
				db[i][off] |= sb[i][off];
			}
			/*
			 * No more than the link's entries: a link never counts more
			 * (an add past them starts a link), and input holds a link to
			 * that.  A full link stays full either way.
			 */
			dl[i].size = rb_sum_saturated(dl[i].size, sl[i].size);
			if (dl[i].size > dl[i].entries)
				dl[i].size = dl[i].entries;
			bloom_store64le(rb_entry(dst, i) + RB_L_SIZE, dl[i].size);
		}
		hdr->bits_set += rb_popcount(db[i], dl[i].bytes);
		dc.size = rb_sum_saturated(dc.size, dl[i].size);
	}
	rb_chain_write(dst, &dc);
	return true;
}

/* fill of a link's bits in use (2^n2 of them for a rounded link) */
static double
rb_fill(const RbLink *l, const uint8_t *bits, double *m)
{
	uint64_t	mod = rb_modulus(l->bits, l->n2);

	*m = (double) mod;
	return (double) rb_popcount(bits, (mod + 7) / 8) / *m;
}

static double
rb_estimate(const BloomHeader *hdr, const uint8_t *payload, bool fpp)
{
	RbLink		links[RB_MAX_LINKS];
	uint8_t    *bits[RB_MAX_LINKS];
	double		total = 0.0,
				absent = 1.0;

	if (!rb_links(hdr, payload, links, bits))
		return 0.0;
	for (uint32_t i = 0; i < hdr->nhashes; i++)
	{
		double		m;
		double		fill = rb_fill(&links[i], bits[i], &m);

		if (fpp)
			absent *= 1.0 - pow(fill, links[i].hashes);
		else if (fill >= 1.0)
			total += m / links[i].hashes;
		else
			total += -(m / links[i].hashes) * log1p(-fill);
	}
	return fpp ? 1.0 - absent : total;
}

static double
rb_cardinality(const BloomHeader *hdr, const uint8_t *payload)
{
	return rb_estimate(hdr, payload, false);
}

static double
rb_fpp(const BloomHeader *hdr, const uint8_t *payload)
{
	return rb_estimate(hdr, payload, true);
}

static size_t
rb_describe(const BloomHeader *hdr, char *buf, size_t size)
{
	return bloom_describe_sized(hdr, "redisbloom", buf, size);
}

/* nbits is the links' bits and nhashes their number; then each link */
static void
rb_info(const BloomHeader *hdr, const uint8_t *payload, BloomInfoSink *sink)
{
	RbChain		c;
	RbLink		links[RB_MAX_LINKS];
	uint8_t    *bits[RB_MAX_LINKS];

	rb_chain_read(payload, &c);
	bloom_info_cells(hdr, sink);
	bloom_info_uint(sink, "expansion", c.growth);
	bloom_info_uint(sink, "options", c.options);
	bloom_info_uint(sink, "items", c.size);
	if (!rb_links(hdr, payload, links, bits))
		return;
	bloom_info_open(sink, "links", BLOOM_INFO_LIST);
	for (uint32_t i = 0; i < hdr->nhashes; i++)
	{
		double		m;

		bloom_info_open(sink, NULL, BLOOM_INFO_OBJECT);
		bloom_info_uint(sink, "bytes", links[i].bytes);
		bloom_info_uint(sink, "bits", links[i].bits);
		bloom_info_uint(sink, "size", links[i].size);
		bloom_info_real(sink, "error", links[i].error);
		bloom_info_real(sink, "bpe", links[i].bpe);
		bloom_info_uint(sink, "hashes", links[i].hashes);
		bloom_info_uint(sink, "entries", links[i].entries);
		bloom_info_uint(sink, "n2", links[i].n2);
		bloom_info_real(sink, "fill", rb_fill(&links[i], bits[i], &m));
		bloom_info_close(sink);
	}
	bloom_info_close(sink);
}

/* ---- new chains and dumps ---- */

/*
 * A new chain as BF.RESERVE key error_rate capacity [EXPANSION expansion]
 * makes it (expansion 0: NONSCALING), with FORCE64 and NOROUND as BF.RESERVE
 * always sets them; false if RedisBloom could not make its first link or
 * the value would exceed the limit.  bloom_redis_init writes the payload.
 */
bool
bloom_redis_header(BloomHeader *hdr, uint64_t capacity, double error_rate,
				   uint32_t expansion, uint64_t *payload_bytes)
{
	RbLink		first;
	uint32_t	options = RB_OPT_FORCE64 | RB_OPT_NOROUND |
		(expansion == 0 ? RB_OPT_NO_SCALING : 0);

	if (!rb_link_init(&first, capacity,
					  expansion == 0 ? error_rate : error_rate * RB_TIGHTENING, options))
		return false;
	bloom_header_init(hdr, capacity, error_rate, 0, first.bits, 1);
	hdr->layout = BLOOM_LAYOUT_REDISBLOOM;
	hdr->hash_id = BLOOM_HASH_REDISBLOOM;
	*payload_bytes = rb_payload_bytes(hdr);
	return *payload_bytes <= BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE;
}

void
bloom_redis_init(const BloomHeader *hdr, uint32_t expansion, uint8_t *payload)
{
	RbLink		first;
	RbChain		c = {
		.size = 0,
		.nfilters = 1,
		.options = RB_OPT_FORCE64 | RB_OPT_NOROUND | (expansion == 0 ? RB_OPT_NO_SCALING : 0),
		/* BF.RESERVE ... NONSCALING keeps the default growth, 2 */
		.growth = expansion == 0 ? 2 : expansion,
	};

	rb_link_init(&first, hdr->capacity,
				 expansion == 0 ? hdr->error_rate : hdr->error_rate * RB_TIGHTENING, c.options);
	rb_chain_write(payload, &c);
	rb_link_encode(rb_entry(payload, 0), &first);
	bloom_fill_chunked(payload + rb_head_bytes(1), NULL, first.bytes);
}

/* the chain header's length (BF.SCANDUMP's first chunk) and a link's bytes */
uint64_t
bloom_redis_head_bytes(const BloomHeader *hdr)
{
	return rb_head_bytes(hdr->nhashes);
}

uint64_t
bloom_redis_link_bytes(const uint8_t *payload, uint32_t i)
{
	return bloom_load64le(rb_entry(payload, i) + RB_L_BYTES);
}

/* declared for -Wmissing-variable-declarations; core/header.c registers it */
extern const BloomLayout bloom_redisbloom_layout;

const BloomLayout bloom_redisbloom_layout = {
	.id = BLOOM_LAYOUT_REDISBLOOM,
	.name = "redisbloom",
	.grows = true,
	.no_intersect_detail = "An element both filters hold can sit in different links of each.",
	.shape_hint = "Create both filters with the same capacity, error rate and expansion.",
	.hash_id = BLOOM_HASH_REDISBLOOM,
	.key_type_ok = bloom_redis_key_type_ok,
	.key_types_hint = "Use keys of type bigint, integer, smallint, text, varchar, char(n) or bytea.",
	.no_grow_detail = "A RedisBloom filter made without expansion (NONSCALING) takes no element past its capacity, as Redis refuses them; one that scales is limited to 64 links and the size limit of a bloom filter value.",
	.check_header = rb_check_header,
	.check_payload = rb_check_payload,
	.payload_bytes = rb_payload_bytes,
	.dir_next = rb_dir_next,
	.dir_predict = NULL,
	.spans = rb_spans,
	.answer = rb_answer,
	.add = rb_add,
	.grown_bytes = rb_grown_bytes,
	.grow = rb_grow,
	.remove = NULL,
	.same_shape = rb_same_shape,
	.combine = rb_combine,
	.union_overfills = NULL,
	.cardinality = rb_cardinality,
	.fpp = rb_fpp,
	.header_fpp = NULL,			/* k counts links: fpp reads them */
	.describe = rb_describe,
	.info = rb_info,
	.partial = NULL,
	.finish = NULL,
};
