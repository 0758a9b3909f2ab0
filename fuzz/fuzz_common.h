/*-------------------------------------------------------------------------
 *
 * fuzz_common.h
 *	  What the bloomfilter fuzz harnesses do with a value once it has been
 *	  accepted: the operations the server runs on a stored filter, each
 *	  checked against the others and against plain bit counting.
 *
 * Both harnesses (fuzz_text.c, fuzz_binary.c) include this file; it holds
 * static functions only, so each harness is one translation unit plus
 * src/bloom_*.c.  Every check that fails prints what went wrong and
 * aborts, which libFuzzer reports as a crash with the input saved.
 *
 * fuzz/fuzz_common.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include "core/blocked.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* at most this many element hashes are tried on one value */
#define FUZZ_MAX_HASHES		10

#define FUZZ_CHECK(cond, ...) \
	do { \
		if (!(cond)) \
		{ \
			fprintf(stderr, "fuzz check failed at %s:%d: %s\n", \
					__FILE__, __LINE__, #cond); \
			fprintf(stderr, "  " __VA_ARGS__); \
			fprintf(stderr, "\n"); \
			abort(); \
		} \
	} while (0)

/* an element hash, and whether MurmurHash3 made it (or the input did) */
typedef struct FuzzHash
{
	BloomHash	h;
	bool		real;
} FuzzHash;

/* malloc that cannot return NULL, and never for zero bytes */
static void *
fuzz_alloc(size_t n)
{
	void	   *p = malloc(n > 0 ? n : 1);

	if (p == NULL)
	{
		fprintf(stderr, "out of memory allocating %zu bytes\n", n);
		abort();
	}
	return p;
}

static void *
fuzz_dup(const void *src, size_t n)
{
	void	   *p = fuzz_alloc(n);

	if (n > 0)
		memcpy(p, src, n);
	return p;
}

static uint64_t
fuzz_load64(const uint8_t *p)
{
	uint64_t	v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t) p[i] << (8 * i);
	return v;
}

/* field by field: the struct has padding */
static inline bool
fuzz_same_header(const BloomHeader *a, const BloomHeader *b)
{
	return a->version == b->version && a->layout == b->layout &&
		a->hash_id == b->hash_id && a->nhashes == b->nhashes &&
		a->seed == b->seed && a->key_type == b->key_type &&
		a->nbits == b->nbits && a->capacity == b->capacity &&
		memcmp(&a->error_rate, &b->error_rate, sizeof(double)) == 0 &&
		a->bits_set == b->bits_set;
}

static int
fuzz_mask_bits(const BloomMask *mask)
{
	int			n = 0;

	for (int i = 0; i < BLOOM_BLOCK_BYTES / 8; i++)
		n += __builtin_popcountll(mask->w[i]);
	return n;
}

/*
 * The in-block bit sequence as core/blocked.c's header comment specifies it,
 * written out again from the text: x(0) = h2, x(i+1) = x(i) * A + (h1 | 1),
 * bit number = top nine bits of x, repeats skipped, at most 16 * 64 draws.
 * Bit b is bit (b & 7) of byte (b >> 3).  The core must agree bit for bit.
 */
static void
fuzz_spec_mask(BloomHash h, int k, uint8_t *block_bits)
{
	uint64_t	x = h.h2;
	uint64_t	c = h.h1 | 1;
	int			got = 0;

	memset(block_bits, 0, BLOOM_BLOCK_BYTES);
	for (int draw = 0; draw < 16 * BLOOM_MAX_HASHES && got < k; draw++)
	{
		unsigned	b;

		x = x * UINT64_C(6364136223846793005) + c;
		b = (unsigned) (x >> 55);
		if (block_bits[b >> 3] & (1u << (b & 7)))
			continue;
		block_bits[b >> 3] |= (uint8_t) (1u << (b & 7));
		got++;
	}
}

/* the block: high 64 bits of the 128-bit product h1 * nblocks */
static uint64_t
fuzz_spec_block(uint64_t h1, uint64_t nblocks)
{
	return (uint64_t) (((unsigned __int128) h1 * nblocks) >> 64);
}

/*
 * Element hashes for one run, derived from the fuzz input: some are real
 * MurmurHash3 outputs under the filter's seed, the way the server hashes an
 * element; others take h1 and h2 straight from the input bytes, or are the
 * extreme values, so that block selection and the bit sequence also see
 * words no hash would be likely to produce.
 */
static int
fuzz_make_hashes(const uint8_t *data, size_t size, uint32_t seed,
				 FuzzHash *out)
{
	int			n = 0;
	int64_t		word = 0;

	if (size >= 8)
		word = (int64_t) fuzz_load64(data);

	out[n].h = bloom_hash(data, size, seed);
	out[n++].real = true;
	out[n].h = bloom_hash(data, size / 2, seed);
	out[n++].real = true;
	out[n].h = bloom_hash_int64((int64_t) size, seed);
	out[n++].real = true;
	out[n].h = bloom_hash_int64(word, seed);
	out[n++].real = true;
	if (size >= 16)
	{
		out[n].h.h1 = fuzz_load64(data);
		out[n].h.h2 = fuzz_load64(data + 8);
		out[n++].real = false;
		out[n].h.h1 = fuzz_load64(data + size - 16);
		out[n].h.h2 = fuzz_load64(data + size - 8);
		out[n++].real = false;
	}
	out[n].h.h1 = 0;
	out[n].h.h2 = 0;
	out[n++].real = false;
	out[n].h.h1 = UINT64_MAX;
	out[n].h.h2 = UINT64_MAX;
	out[n++].real = false;
	out[n].h.h1 = UINT64_MAX;
	out[n].h.h2 = 0;
	out[n++].real = false;
	return n;
}

/*
 * The text form of a value must decode back to the same bytes, at the
 * length the encoder promises.
 */
static void
fuzz_check_base64_round_trip(const uint8_t *buf, size_t len)
{
	size_t		elen = bloom_base64_encoded_len(len);
	char	   *text = fuzz_alloc(elen);
	size_t		dmax = bloom_base64_decoded_max(elen);
	uint8_t    *back = fuzz_alloc(dmax);
	size_t		blen = 0;

	FUZZ_CHECK(elen % 4 == 0, "encoded length %zu of %zu bytes", elen, len);
	bloom_base64_encode(buf, len, text);
	FUZZ_CHECK(dmax >= len, "decoded_max %zu < %zu", dmax, len);
	FUZZ_CHECK(bloom_base64_decode(text, elen, back, &blen),
			   "own encoding of %zu bytes does not decode", len);
	FUZZ_CHECK(blen == len, "round trip length %zu, expected %zu", blen, len);
	FUZZ_CHECK(len == 0 || memcmp(back, buf, len) == 0,
			   "round trip of %zu bytes changed them", len);
	free(text);
	free(back);
}

/* the estimates must be numbers in range, exact at the extremes */
static void
fuzz_check_estimates(const uint8_t *bits, uint64_t nblocks, int nhashes,
					 uint64_t pop, double *fpp, double *card)
{
	uint64_t	nbits = nblocks * BLOOM_BLOCK_BITS;

	*fpp = bloom_estimate_fpp(bits, nblocks, nhashes);
	*card = bloom_estimate_cardinality(bits, nblocks, nhashes);

	FUZZ_CHECK(isfinite(*fpp) && *fpp >= 0.0 && *fpp <= 1.0 + 1e-12,
			   "estimated fpp %.17g out of range (k %d, %llu blocks)",
			   *fpp, nhashes, (unsigned long long) nblocks);
	FUZZ_CHECK(isfinite(*card) && *card >= 0.0,
			   "estimated cardinality %.17g out of range (k %d, %llu blocks)",
			   *card, nhashes, (unsigned long long) nblocks);
	if (pop == 0)
		FUZZ_CHECK(*fpp == 0.0 && *card == 0.0,
				   "empty filter estimates fpp %.17g, cardinality %.17g",
				   *fpp, *card);
	if (pop == nbits)
		FUZZ_CHECK(*fpp == 1.0, "full filter estimates fpp %.17g", *fpp);
	if (pop > 0)
		FUZZ_CHECK(*card > 0.0, "filter with %llu bits set estimates no elements",
				   (unsigned long long) pop);
}

/*
 * Union and intersection of a filter with itself, with a superset of itself
 * and with the empty filter, as bf_union and bf_intersect run them.
 */
static void
fuzz_check_combine(const uint8_t *bits, uint64_t pop,
				   const uint8_t *more, uint64_t pop_more, size_t nbytes)
{
	uint8_t    *tmp = fuzz_alloc(nbytes);
	uint8_t    *zero = fuzz_alloc(nbytes);
	uint64_t	count;

	memset(zero, 0, nbytes);

	memcpy(tmp, bits, nbytes);
	count = bloom_union_into(tmp, bits, nbytes);
	FUZZ_CHECK(count == pop, "self-union counts %llu bits, popcount %llu",
			   (unsigned long long) count, (unsigned long long) pop);
	FUZZ_CHECK(memcmp(tmp, bits, nbytes) == 0, "self-union changed the bits");

	count = bloom_intersect_into(tmp, bits, nbytes);
	FUZZ_CHECK(count == pop, "self-intersection counts %llu bits, popcount %llu",
			   (unsigned long long) count, (unsigned long long) pop);
	FUZZ_CHECK(memcmp(tmp, bits, nbytes) == 0, "self-intersection changed the bits");

	/* more is bits with elements added: a superset */
	count = bloom_union_into(tmp, more, nbytes);
	FUZZ_CHECK(count == pop_more, "union with superset counts %llu, expected %llu",
			   (unsigned long long) count, (unsigned long long) pop_more);
	FUZZ_CHECK(memcmp(tmp, more, nbytes) == 0, "union with superset is not the superset");

	count = bloom_intersect_into(tmp, bits, nbytes);
	FUZZ_CHECK(count == pop, "intersection with subset counts %llu, expected %llu",
			   (unsigned long long) count, (unsigned long long) pop);
	FUZZ_CHECK(memcmp(tmp, bits, nbytes) == 0, "intersection with subset is not the subset");

	count = bloom_union_into(tmp, zero, nbytes);
	FUZZ_CHECK(count == pop && memcmp(tmp, bits, nbytes) == 0,
			   "union with the empty filter changed the bits");

	count = bloom_intersect_into(tmp, zero, nbytes);
	FUZZ_CHECK(count == 0 && memcmp(tmp, zero, nbytes) == 0,
			   "intersection with the empty filter left %llu bits",
			   (unsigned long long) count);
	FUZZ_CHECK(bloom_popcount(tmp, nbytes) == 0, "popcount of an empty result");

	free(tmp);
	free(zero);
}

/*
 * What a check of a stored value reads: the directory walk of a valid
 * payload (full: it passed bloom_validate) completes, that of any other
 * ends inside it, and every span named for h lies inside the payload.
 */
static void
fuzz_check_spans(const BloomLayout *layout, const BloomHeader *hdr,
				 const uint8_t *payload, uint64_t plen, BloomHash h, bool full)
{
	BloomDir	dir;
	BloomSpan	spans[BLOOM_MAX_SPANS];
	BloomCheck	check = bloom_dir_read(layout, hdr, payload, plen, &dir);
	int			n;

	FUZZ_CHECK(check == BLOOM_OK || !full,
			   "layout %s: the directory of a valid payload does not read", layout->name);
	if (check != BLOOM_OK)
		return;
	n = layout->spans(&dir, h, spans);
	FUZZ_CHECK(n >= 1 && n <= BLOOM_MAX_SPANS, "layout %s: %d spans", layout->name, n);
	for (int i = 0; i < n; i++)
		FUZZ_CHECK(spans[i].offset + spans[i].len <= plen, "span at %llu outside the payload",
				   (unsigned long long) spans[i].offset);
}

/*
 * The server reaches a payload only through the layout table: every entry
 * point of the value's layout must agree with the blocked primitives the
 * checks above hold to the specification.  bits is the value's payload (at
 * bits_set cells set), added the payload after the adds of hashes[0..nh).
 */
static void
fuzz_check_layout(const BloomHeader *hdr, const uint8_t *bits, uint64_t bits_set,
				  const uint8_t *added, const BloomHash *hashes, int nh)
{
	const BloomLayout *layout = bloom_layout_for(hdr->layout);
	uint64_t	nblocks = bloom_nblocks(hdr);
	size_t		nbytes = (size_t) (hdr->nbits / 8);
	BloomHeader lh = *hdr;
	uint8_t    *copy;

	FUZZ_CHECK(layout != NULL && layout->id == hdr->layout, "no layout for id %d", hdr->layout);
	FUZZ_CHECK(layout->payload_bytes(hdr) == nbytes, "layout payload of %llu bytes, %zu expected",
			   (unsigned long long) layout->payload_bytes(hdr), nbytes);
	FUZZ_CHECK(layout->check_header(hdr, nbytes) == BLOOM_OK, "layout refuses an accepted header");

	/* add through the table: same bits and count as the batch form */
	copy = fuzz_dup(bits, nbytes);
	lh.bits_set = bits_set;
	FUZZ_CHECK(layout->add(&lh, copy, hashes, (size_t) nh) == (size_t) nh, "layout add took fewer");
	FUZZ_CHECK(memcmp(copy, added, nbytes) == 0, "layout add sets other bits");
	FUZZ_CHECK(lh.bits_set == bloom_popcount(added, nbytes),
			   "layout add counts %llu bits set", (unsigned long long) lh.bits_set);
	FUZZ_CHECK(layout->check_payload(&lh, copy) == BLOOM_OK, "layout add breaks the count");

	for (int i = 0; i < nh; i++)
	{
		fuzz_check_spans(layout, hdr, bits, nbytes, hashes[i], true);
		FUZZ_CHECK(bloom_test_payload(layout, hdr, bits, hashes[i]) ==
				   bloom_test((uint8_t *) bits, nblocks, hdr->nhashes, hashes[i]),
				   "hash %d: layout test and bloom_test disagree", i);
		FUZZ_CHECK(bloom_test_payload(layout, hdr, added, hashes[i]),
				   "hash %d: added element fails the layout test", i);
	}

	/* combine through the table: OR with the added bits gives them back */
	memcpy(copy, bits, nbytes);
	lh = *hdr;
	FUZZ_CHECK(layout->combine(&lh, copy, hdr, added, false), "layout union refused");
	FUZZ_CHECK(memcmp(copy, added, nbytes) == 0, "layout union differs from the superset");
	FUZZ_CHECK(lh.bits_set == bloom_popcount(added, nbytes), "layout union miscounts");
	FUZZ_CHECK(layout->combine(&lh, copy, hdr, bits, true), "layout intersection refused");
	FUZZ_CHECK(memcmp(copy, bits, nbytes) == 0, "layout intersection differs from the subset");
	FUZZ_CHECK(lh.bits_set == bloom_popcount(bits, nbytes), "layout intersection miscounts");

	FUZZ_CHECK(layout->fpp(hdr, bits) == bloom_estimate_fpp(bits, nblocks, hdr->nhashes),
			   "layout fpp differs");
	FUZZ_CHECK(layout->cardinality(hdr, bits) ==
			   bloom_estimate_cardinality(bits, nblocks, hdr->nhashes),
			   "layout cardinality differs");
	FUZZ_CHECK(layout->same_shape(hdr, hdr), "layout: a filter differs in shape from itself");
	free(copy);
}

/*
 * The other layouts, through the table alone: checks and counts agree and
 * stay inside the value; with a fully validated value, adds (growing where
 * the layout grows), removals and a union with itself keep every added
 * element present and the value valid.
 */
#define FUZZ_MAX_GROWN	(16 * 1024 * 1024)

/* a sink for a layout's bf_info members that checks they are well formed */
typedef struct FuzzInfo
{
	BloomInfoSink sink;
	int			members;
	int			depth;
	bool		ok;				/* every container closed that was opened */
	int			nonfinite;		/* reals that JSON cannot hold */
} FuzzInfo;

static void
fuzz_info_put(BloomInfoSink *sink, const char *name, BloomInfoKind kind, uint64_t u, double d)
{
	FuzzInfo   *info = (FuzzInfo *) sink;

	(void) name;
	(void) u;
	info->members++;
	if (kind == BLOOM_INFO_END)
		info->ok &= --info->depth >= 0;
	else if (kind == BLOOM_INFO_LIST || kind == BLOOM_INFO_OBJECT)
		info->depth++;
	else if (kind == BLOOM_INFO_REAL && !isfinite(d))
		info->nonfinite++;
}

/*
 * A scalable filter's sub-filters read from the documented bytes, not the
 * layout's code: the fill divisor, and for sub-filter i its count of
 * elements, its capacity and its key type.  Returns how many sub-filters
 * lie inside the payload.
 */
typedef struct FuzzSub
{
	uint64_t	items;
	uint64_t	capacity;
	uint32_t	key_type;
} FuzzSub;

static int
fuzz_scalable_subs(const uint8_t *payload, size_t plen, int nsubs, uint32_t *divisor,
				   FuzzSub *subs)
{
	size_t		off = 16;
	int			n = 0;

	*divisor = bloom_load32le(payload + 4);
	for (; n < nsubs && plen - off >= 8 + BLOOM_HEADER_SIZE; n++)
	{
		const uint8_t *head = payload + off + 8;
		uint64_t	nbits = bloom_load64le(head + BLOOM_OFF_NBITS);

		subs[n].items = bloom_load64le(payload + off);
		subs[n].capacity = bloom_load64le(head + BLOOM_OFF_CAPACITY);
		subs[n].key_type = bloom_load32le(head + BLOOM_OFF_KEY_TYPE);
		if (nbits / 8 > plen - off - 8 - BLOOM_HEADER_SIZE)
			break;
		off += 8 + BLOOM_HEADER_SIZE + nbits / 8;
	}
	return n;
}

/*
 * A RedisBloom chain input took, read from the bytes at format.md's
 * offsets (chain header at 0, link i at 20 + 53 i): what sizes later links
 * is what RedisBloom makes (issue 32).  A scaling chain's growth is 1 ..
 * 1024, without ENTS_IS_BITS, and a NONSCALING chain has one link; each link counts at most its
 * entries, and its entries times its bpe (the bpe of its rate) lie within
 * its bits; each later link has half the rate of the one before.
 */
static void
fuzz_check_redis_rules(const uint8_t *payload, const BloomHeader *hdr)
{
	uint32_t	n = bloom_load32le(payload + 8);
	uint32_t	options = bloom_load32le(payload + 12);
	uint32_t	growth = bloom_load32le(payload + 16);

	FUZZ_CHECK(n == hdr->nhashes, "a chain of %u links, header %d", n, hdr->nhashes);
	if (options & 8)
		FUZZ_CHECK(n == 1, "a NONSCALING chain of %u links accepted", n);
	else
	{
		FUZZ_CHECK(growth >= 1 && growth <= 1024, "growth %u accepted", growth);
		/* links of 2^(entries * growth) bits */
		FUZZ_CHECK(!(options & 2), "a scaling chain with ENTS_IS_BITS accepted");
	}
	for (uint32_t i = 0; i < n; i++)
	{
		const uint8_t *e = payload + 20 + 53 * (size_t) i;
		uint64_t	bits = bloom_load64le(e + 8);
		uint64_t	size = bloom_load64le(e + 16);
		double		error = bloom_load_double_le(e + 24);
		double		bpe = bloom_load_double_le(e + 32);
		uint64_t	entries = bloom_load64le(e + 44);
		uint8_t		n2 = e[52];
		double		m = n2 ? ldexp(1.0, n2) : (double) bits;

		FUZZ_CHECK(size <= entries, "link %u: size %llu past entries %llu accepted", i,
				   (unsigned long long) size, (unsigned long long) entries);
		FUZZ_CHECK(fabs(bpe - fabs(log(error) / 0.480453013918201)) <= 1e-6 * bpe,
				   "link %u: bpe %g for rate %g accepted", i, bpe, error);
		FUZZ_CHECK((double) entries * bpe <= m * (1 + 1e-6) + 1.0,
				   "link %u: %llu entries at bpe %g in %g bits accepted", i,
				   (unsigned long long) entries, bpe, m);
		if (i > 0)
			FUZZ_CHECK(error == bloom_load_double_le(e - 53 + 24) * 0.5,
					   "link %u: rate %g after %g accepted", i, error, bloom_load_double_le(e - 53 + 24));
	}
}

/*
 * What input lets in, read from the bytes: a key type filters hash, and
 * for a scalable filter a fill divisor of 1 and sub-filters of key type 0
 * (a larger divisor, or a capacity claimed without the slots for it, let
 * a small value grow without bound at a few adds).
 */
static void
fuzz_check_input_rules(const uint8_t *buf, size_t len, const BloomHeader *hdr)
{
	FuzzSub		subs[BLOOM_MAX_HASHES];
	uint32_t	divisor;
	int			n;

	FUZZ_CHECK(bloom_key_type_valid(bloom_load32le(buf + BLOOM_OFF_KEY_TYPE)),
			   "accepted key type %u", bloom_load32le(buf + BLOOM_OFF_KEY_TYPE));
	if (hdr->layout == BLOOM_LAYOUT_REDISBLOOM)
		fuzz_check_redis_rules(buf + BLOOM_HEADER_SIZE, hdr);
	if (hdr->layout != BLOOM_LAYOUT_SCALABLE)
		return;
	n = fuzz_scalable_subs(buf + BLOOM_HEADER_SIZE, len - BLOOM_HEADER_SIZE, hdr->nhashes,
						   &divisor, subs);
	FUZZ_CHECK(n == hdr->nhashes, "accepted %d of %d sub-filters", n, hdr->nhashes);
	FUZZ_CHECK(divisor == 1, "accepted a fill divisor of %u", divisor);
	for (int i = 0; i < n; i++)
		FUZZ_CHECK(subs[i].key_type == 0, "sub-filter %d of key type %u accepted", i,
				   subs[i].key_type);
}

/*
 * Growth of a value input took: a scalable filter starts a sub-filter only
 * when its last one holds its capacity (a fill divisor other than 1 made
 * it start one at every add).
 */
/*
 * A RedisBloom chain grows only when its last link holds its entries, and
 * by no more than growth times what that link's bits hold at half its
 * rate (a bpe ln 2 / ln(2)^2 = 1.4427 higher; twice that in a chain
 * without NOROUND, whose links are rounded up to a power of two), plus a
 * word and the link's 53-byte entry: a small value cannot make a large
 * one.
 */
static void
fuzz_check_redis_growth(const BloomHeader *hdr, const uint8_t *payload, uint64_t grown_len)
{
	const uint8_t *e = payload + 20 + 53 * (size_t) (hdr->nhashes - 1);
	uint64_t	bits = bloom_load64le(e + 8);
	double		bpe = bloom_load_double_le(e + 32);
	uint8_t		n2 = e[52];
	double		m = n2 ? ldexp(1.0, n2) : (double) bits;
	double		growth = (double) bloom_load32le(payload + 16);
	uint32_t	options = bloom_load32le(payload + 12);
	double		most = growth * (m + 1.0) * (1.0 + 1.4427 / bpe) * ((options & 1) ? 1.0 : 2.0) *
		(1 + 1e-6) + 64.0;
	uint64_t	plen = 20 + 53 * (uint64_t) hdr->nhashes + hdr->nbits / 8;

	FUZZ_CHECK(bloom_load64le(e + 16) >= bloom_load64le(e + 44),
			   "grows with %llu of %llu entries in its last link",
			   (unsigned long long) bloom_load64le(e + 16), (unsigned long long) bloom_load64le(e + 44));
	FUZZ_CHECK((double) (grown_len - plen - 53) * 8.0 <= most,
			   "a link of %llu bytes after one of %llu bits at growth %g",
			   (unsigned long long) (grown_len - plen - 53), (unsigned long long) bits, growth);
}

static void
fuzz_check_growth(const BloomHeader *hdr, const uint8_t *payload, size_t plen, uint64_t grown_len)
{
	FuzzSub		subs[BLOOM_MAX_HASHES];
	uint32_t	divisor;
	int			n;

	if (hdr->layout == BLOOM_LAYOUT_REDISBLOOM)
	{
		fuzz_check_redis_growth(hdr, payload, grown_len);
		return;
	}
	if (hdr->layout != BLOOM_LAYOUT_SCALABLE)
		return;
	n = fuzz_scalable_subs(payload, plen, hdr->nhashes, &divisor, subs);
	FUZZ_CHECK(n == hdr->nhashes && n > 0, "a growing value of %d sub-filters", n);
	FUZZ_CHECK(subs[n - 1].items >= subs[n - 1].capacity,
			   "grows with %llu elements in a last sub-filter of capacity %llu",
			   (unsigned long long) subs[n - 1].items,
			   (unsigned long long) subs[n - 1].capacity);
}

static void
fuzz_exercise_layout(const uint8_t *buf, size_t len, const BloomHeader *hdr,
					 bool full, const uint8_t *data, size_t size)
{
	const BloomLayout *layout = bloom_layout_for(hdr->layout);
	size_t		plen = len - BLOOM_HEADER_SIZE;
	uint8_t    *payload = fuzz_dup(buf + BLOOM_HEADER_SIZE, plen);
	BloomHeader h = *hdr;
	FuzzHash	fh[FUZZ_MAX_HASHES];
	BloomHash	hashes[FUZZ_MAX_HASHES];
	int			nh = fuzz_make_hashes(data, size, hdr->seed, fh);
	size_t		done = 0;
	FuzzInfo	info = {{fuzz_info_put}, 0, 0, true, 0};
	char		text[BLOOM_DESCRIBE_MAX];

	FUZZ_CHECK(layout->payload_bytes(hdr) == plen, "layout %s: payload of %zu bytes, %llu expected",
			   layout->name, plen, (unsigned long long) layout->payload_bytes(hdr));
	for (int i = 0; i < nh; i++)
	{
		bool		t = bloom_test_payload(layout, hdr, payload, fh[i].h);

		hashes[i] = fh[i].h;
		fuzz_check_spans(layout, hdr, payload, plen, fh[i].h, full);
		FUZZ_CHECK((bloom_answer_payload(layout, hdr, payload, fh[i].h, true) > 0) == t,
				   "hash %d: count and test disagree", i);
	}
	(void) layout->fpp(hdr, payload);
	(void) layout->cardinality(hdr, payload);
	layout->info(hdr, payload, &info.sink);
	FUZZ_CHECK(info.members > 0 && info.depth == 0 && info.ok,
			   "layout %s: info of %d members, %d left open, well formed %d",
			   layout->name, info.members, info.depth, (int) info.ok);
	/* bf_info refuses a non-finite number; a validated value has none */
	FUZZ_CHECK(!full || info.nonfinite == 0, "layout %s: %d non-finite info numbers",
			   layout->name, info.nonfinite);
	FUZZ_CHECK(layout->describe(hdr, text, sizeof(text)) > 0, "layout %s: empty description",
			   layout->name);
	if (layout->union_overfills)
	{
		double		fpp,
					limit;

		/* with itself the union's cells are its own: never overfilled */
		FUZZ_CHECK(layout->union_overfills(hdr, payload, hdr, payload, &fpp, &limit) == -1,
				   "layout %s: a union with itself overfills", layout->name);
	}
	if (!full)
	{
		free(payload);
		return;
	}

	while ((done += layout->add(&h, payload, hashes + done, (size_t) nh - done)) < (size_t) nh)
	{
		uint64_t	grown_len = layout->grown_bytes(&h, payload);
		uint8_t    *grown;

		if (grown_len == 0)
			break;
		FUZZ_CHECK(layout->grows && grown_len > plen, "layout %s stopped adding", layout->name);
		/* how much a value may grow is checked even where it is not grown here */
		fuzz_check_growth(&h, payload, plen, grown_len);
		if (grown_len > FUZZ_MAX_GROWN)
			break;
		grown = fuzz_alloc(grown_len);
		layout->grow(&h, payload, grown);
		free(payload);
		payload = grown;
		plen = grown_len;
		FUZZ_CHECK(layout->payload_bytes(&h) == plen, "grown header and payload disagree");
	}
	for (size_t i = 0; i < done; i++)
		FUZZ_CHECK(bloom_test_payload(layout, &h, payload, hashes[i]),
				   "hash %zu: added element tests false", i);
	{
		uint8_t    *whole = fuzz_alloc(BLOOM_HEADER_SIZE + plen);
		BloomHeader again;
		BloomCheck	check;
		uint8_t    *copy = fuzz_dup(payload, plen);
		BloomHeader ch = h;

		bloom_header_encode(&h, whole);
		memcpy(whole + BLOOM_HEADER_SIZE, payload, plen);
		check = bloom_validate(whole, BLOOM_HEADER_SIZE + plen, &again);
		FUZZ_CHECK(check == BLOOM_OK, "layout %s: value after adds fails validation: %s",
				   layout->name, bloom_check_message(check));
		free(whole);

		/* a union with itself changes no answer */
		FUZZ_CHECK(layout->combine(&ch, copy, &h, payload, false), "union with itself refused");
		for (size_t i = 0; i < done; i++)
			FUZZ_CHECK(bloom_test_payload(layout, &ch, copy, hashes[i]),
					   "hash %zu: lost in a union with itself", i);
		free(copy);
	}
	if (layout->remove)
	{
		/* each added element can be taken out once, leaving the value valid */
		for (size_t i = 0; i < done; i++)
			(void) layout->remove(&h, payload, hashes[i]);
		FUZZ_CHECK(layout->check_payload(&h, payload) == BLOOM_OK, "removals break the count");
	}
	free(payload);
}

/*
 * Run the operations of a stored filter over buf (len bytes, header decoded
 * into *hdr, bloom_validate_header passed for len).
 *
 * full: the value passed bloom_validate, so the bits-set count and magic are
 * right too.  Otherwise it passed only the header check that bloom_open
 * makes on a stored value, and whatever the count says, the operations must
 * still stay inside the value and agree with each other.
 *
 * combine: also run union and intersection.
 *
 * data and size are the fuzz input, which the element hashes come from.
 */
static void
fuzz_exercise(const uint8_t *buf, size_t len, const BloomHeader *hdr,
			  bool full, bool combine, const uint8_t *data, size_t size)
{
	uint64_t	nblocks = bloom_nblocks(hdr);
	size_t		nbytes = (size_t) (hdr->nbits / 8);
	int			k = hdr->nhashes;
	const uint8_t *bits = buf + BLOOM_HEADER_SIZE;
	uint8_t		hbuf[BLOOM_HEADER_SIZE];
	FuzzHash	fh[FUZZ_MAX_HASHES];
	BloomHash	plain[FUZZ_MAX_HASHES];
	int			nh;
	uint8_t    *work;
	uint8_t    *wbits;
	uint8_t    *ref;
	uint8_t    *batch;
	uint8_t    *prev;
	uint64_t	pop0,
				pop1,
				total_added = 0,
				batch_added;
	double		fpp0,
				card0,
				fpp1,
				card1;
	BloomHeader after;
	BloomHeader again;
	BloomCheck	check;

	if (full)
		fuzz_check_input_rules(buf, len, hdr);
	if (hdr->layout != BLOOM_LAYOUT_BLOCKED512)
	{
		fuzz_exercise_layout(buf, len, hdr, full, data, size);
		return;
	}
	FUZZ_CHECK(nblocks >= 1 && nblocks <= BLOOM_MAX_BLOCKS,
			   "accepted %llu blocks", (unsigned long long) nblocks);
	FUZZ_CHECK(k >= 1 && k <= BLOOM_MAX_HASHES, "accepted k %d", k);
	FUZZ_CHECK(len == bloom_total_bytes(hdr) && len == BLOOM_HEADER_SIZE + nbytes,
			   "accepted length %zu for %llu bits", len,
			   (unsigned long long) hdr->nbits);
	FUZZ_CHECK(nbytes % BLOOM_BLOCK_BYTES == 0, "bit area of %zu bytes", nbytes);

	/* the header codec gives back the bytes it read */
	bloom_header_encode(hdr, hbuf);
	if (full)
		FUZZ_CHECK(memcmp(hbuf, buf, BLOOM_HEADER_SIZE) == 0,
				   "header does not encode back to the same bytes");
	else
		FUZZ_CHECK(memcmp(hbuf + 4, buf + 4, BLOOM_HEADER_SIZE - 4) == 0,
				   "header fields do not encode back to the same bytes");

	pop0 = bloom_popcount(bits, nbytes);
	if (full)
		FUZZ_CHECK(pop0 == hdr->bits_set, "validated value has %llu bits set, header says %llu",
				   (unsigned long long) pop0, (unsigned long long) hdr->bits_set);
	FUZZ_CHECK(pop0 <= hdr->nbits, "popcount beyond nbits");

	fuzz_check_estimates(bits, nblocks, k, pop0, &fpp0, &card0);
	fuzz_check_base64_round_trip(buf, len);

	/* adds and point checks on private copies; ref uses the mask form */
	work = fuzz_dup(buf, len);
	wbits = work + BLOOM_HEADER_SIZE;
	ref = fuzz_dup(bits, nbytes);
	batch = fuzz_dup(bits, nbytes);
	prev = fuzz_alloc(nbytes);

	nh = fuzz_make_hashes(data, size, hdr->seed, fh);
	for (int i = 0; i < nh; i++)
	{
		BloomHash	h = fh[i].h;
		uint64_t	blockno = bloom_block_of(h.h1, nblocks);
		uint8_t    *wblock;
		BloomMask	mask;
		uint8_t		spec[BLOOM_BLOCK_BYTES];
		int			mbits;
		bool		was;
		int			added;
		int			radded;
		uint64_t	before;

		plain[i] = h;
		FUZZ_CHECK(blockno < nblocks, "block %llu of %llu",
				   (unsigned long long) blockno, (unsigned long long) nblocks);
		wblock = wbits + blockno * BLOOM_BLOCK_BYTES;

		FUZZ_CHECK(blockno == fuzz_spec_block(h.h1, nblocks),
				   "hash %d: block %llu, the specification says %llu", i,
				   (unsigned long long) blockno,
				   (unsigned long long) fuzz_spec_block(h.h1, nblocks));

		bloom_mask(h, k, &mask);
		mbits = fuzz_mask_bits(&mask);
		fuzz_spec_mask(h, k, spec);
		for (int w = 0; w < BLOOM_BLOCK_BYTES / 8; w++)
			FUZZ_CHECK(mask.w[w] == fuzz_load64(spec + 8 * w),
					   "hash %d: mask word %d is %016llx, the specification says %016llx",
					   i, w, (unsigned long long) mask.w[w],
					   (unsigned long long) fuzz_load64(spec + 8 * w));
		/*
		 * k distinct bits, whatever the hash: with the increment forced odd
		 * the sequence has full period, so the draw bound is never reached.
		 */
		FUZZ_CHECK(mbits == k, "hash %d (%s): mask of %d bits for k %d", i,
				   fh[i].real ? "murmur" : "raw", mbits, k);

		was = bloom_test(wbits, nblocks, k, h);
		FUZZ_CHECK(was == bloom_block_test(wblock, &mask),
				   "hash %d: bloom_test and the mask disagree", i);
		FUZZ_CHECK(was == bloom_block_test_hash(wblock, h, k),
				   "hash %d: bloom_test and bloom_block_test_hash disagree", i);

		memcpy(prev, wbits, nbytes);
		before = bloom_popcount(wbits, nbytes);
		added = bloom_add(wbits, nblocks, k, h);
		FUZZ_CHECK(added >= 0 && added <= mbits, "hash %d: added %d of %d", i, added, mbits);
		FUZZ_CHECK((added == 0) == was,
				   "hash %d: added %d bits to an element that tested %d", i, added, was);
		FUZZ_CHECK(bloom_popcount(wbits, nbytes) == before + (uint64_t) added,
				   "hash %d: popcount %llu after adding %d to %llu", i,
				   (unsigned long long) bloom_popcount(wbits, nbytes), added,
				   (unsigned long long) before);
		/* only the element's block may change */
		FUZZ_CHECK(memcmp(prev, wbits, blockno * BLOOM_BLOCK_BYTES) == 0 &&
				   memcmp(prev + (blockno + 1) * BLOOM_BLOCK_BYTES,
						  wbits + (blockno + 1) * BLOOM_BLOCK_BYTES,
						  nbytes - (blockno + 1) * BLOOM_BLOCK_BYTES) == 0,
				   "hash %d: add touched a block other than %llu", i,
				   (unsigned long long) blockno);

		FUZZ_CHECK(bloom_test(wbits, nblocks, k, h), "hash %d: added element tests false", i);
		FUZZ_CHECK(bloom_block_test(wblock, &mask), "hash %d: added mask tests false", i);
		FUZZ_CHECK(bloom_add(wbits, nblocks, k, h) == 0, "hash %d: second add set bits", i);

		radded = bloom_block_add(ref + blockno * BLOOM_BLOCK_BYTES, &mask);
		FUZZ_CHECK(radded == added, "hash %d: mask add set %d, bloom_add %d", i, radded, added);
		FUZZ_CHECK(memcmp(ref + blockno * BLOOM_BLOCK_BYTES, wblock, BLOOM_BLOCK_BYTES) == 0,
				   "hash %d: mask add and bloom_add set different bits", i);

		total_added += (uint64_t) added;
	}

	/* the batch form sets the same bits as one add at a time */
	batch_added = bloom_add_batch(batch, nblocks, k, plain, (size_t) nh);
	FUZZ_CHECK(batch_added == total_added, "batch added %llu, single adds %llu",
			   (unsigned long long) batch_added, (unsigned long long) total_added);
	FUZZ_CHECK(memcmp(batch, wbits, nbytes) == 0, "batch and single adds differ");
	FUZZ_CHECK(memcmp(ref, wbits, nbytes) == 0, "mask adds and bloom_add differ");
	FUZZ_CHECK(bloom_add_batch(batch, nblocks, k, plain, (size_t) nh) == 0,
			   "repeating the batch set bits");

	pop1 = bloom_popcount(wbits, nbytes);
	FUZZ_CHECK(pop1 == pop0 + total_added, "popcount %llu after adding %llu to %llu",
			   (unsigned long long) pop1, (unsigned long long) total_added,
			   (unsigned long long) pop0);
	for (int i = 0; i < nh; i++)
		FUZZ_CHECK(bloom_test(wbits, nblocks, k, plain[i]),
				   "hash %d no longer tests true after later adds", i);

	/* bookkeeping as bf_add keeps it; the result must be a valid value */
	after = *hdr;
	after.bits_set = (full ? hdr->bits_set : pop0) + total_added;
	bloom_header_encode(&after, work);
	check = bloom_validate(work, len, &again);
	/* a key type a read takes and input does not (1.3 stored it) stays */
	if (!full && check == BLOOM_BAD_KEY_TYPE && !bloom_key_type_valid(hdr->key_type))
	{
		memset(work + BLOOM_OFF_KEY_TYPE, 0, 4);
		check = bloom_validate(work, len, &again);
		again.key_type = hdr->key_type;
	}
	FUZZ_CHECK(check == BLOOM_OK, "value after adds fails validation: %s",
			   bloom_check_message(check));
	FUZZ_CHECK(again.bits_set == pop1, "header of value after adds says %llu bits",
			   (unsigned long long) again.bits_set);
	FUZZ_CHECK(bloom_same_shape(hdr, &again), "adds changed the shape");
	fuzz_check_base64_round_trip(work, len);

	/* estimates never go down when bits are added */
	fuzz_check_estimates(wbits, nblocks, k, pop1, &fpp1, &card1);
	FUZZ_CHECK(fpp1 >= fpp0, "fpp went down after adds: %.17g -> %.17g", fpp0, fpp1);
	FUZZ_CHECK(card1 >= card0 - 1e-9 * (1.0 + card0),
			   "cardinality went down after adds: %.17g -> %.17g", card0, card1);
	if (total_added == 0)
		FUZZ_CHECK(fpp1 == fpp0 && card1 == card0, "estimates changed without new bits");

	fuzz_check_layout(hdr, bits, pop0, wbits, plain, nh);

	if (combine)
	{
		BloomHeader other = *hdr;

		fuzz_check_combine(bits, pop0, wbits, pop1, nbytes);
		FUZZ_CHECK(bloom_same_shape(hdr, hdr), "a filter differs in shape from itself");
		other.nhashes = (uint8_t) (k == 1 ? 2 : k - 1);
		FUZZ_CHECK(!bloom_same_shape(hdr, &other), "k does not count in the shape");
		other = *hdr;
		other.seed ^= 1;
		FUZZ_CHECK(!bloom_same_shape(hdr, &other), "the seed does not count in the shape");
		other = *hdr;
		other.nbits += BLOOM_BLOCK_BITS;
		FUZZ_CHECK(!bloom_same_shape(hdr, &other), "nbits does not count in the shape");
	}

	free(work);
	free(ref);
	free(batch);
	free(prev);
}

#endif							/* FUZZ_COMMON_H */
