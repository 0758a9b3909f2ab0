/*-------------------------------------------------------------------------
 *
 * fuzz_cuckoo.c
 *	  libFuzzer harness: the fuzz input is the binary form of a
 *	  cuckoofilter (what cuckoofilter_recv, the bytea cast and cf_agg's
 *	  partial states from parallel workers hand to cuckoo_validate), or,
 *	  after a first byte 'T', a text literal (cuckoofilter_in: strict
 *	  base64, then the same validation).
 *
 * A value cuckoo_validate accepts is used the way the server uses one:
 * adds (an added element is always found; counts follow; the value stays
 * valid, growing by a sub-filter when full), add-then-delete restores the
 * bytes when the add did not grow the value, counts, merge with itself,
 * the estimate, the header codec and the base64 round trip.  A value that
 * passes only cuckoo_open (a stored value damaged after input, which the
 * server reads with that check alone) is put through checks, adds and
 * deletes too: they must stay inside it whatever its counts and slots say,
 * and one claiming a capacity its first sub-filter has no slots for (which
 * input refuses, and 1.3 took) must grow as if it claimed only those.
 *
 * fuzz/fuzz_cuckoo.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/cuckoo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* values grown past this are not grown further (memory, not correctness) */
#define FUZZ_MAX_GROWN	(1 << 20)

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void *
fuzz_alloc(size_t n)
{
	void	   *p = malloc(n > 0 ? n : 1);

	if (p == NULL)
		abort();
	return p;
}

/* add h, growing a malloc'd copy when full; false if it would grow too far */
static bool
fuzz_add(uint8_t **buf, CuckooView *v, BloomHash h)
{
	while (!cuckoo_add(v, h))
	{
		uint64_t	n;
		int			f;
		size_t		len;
		uint8_t    *dst;

		if (cuckoo_next_sub(v, &n, &f) != CUCKOO_GROW_OK)
			return false;
		len = cuckoo_grown_bytes(v, n, f);
		if (len == 0 || len > FUZZ_MAX_GROWN)
			return false;
		dst = fuzz_alloc(len);
		cuckoo_grow(v, dst, n, f);
		free(*buf);
		*buf = dst;
	}
	return true;
}

static void
exercise_valid(const uint8_t *data, size_t size, const CuckooView *orig)
{
	uint8_t    *buf = fuzz_alloc(size);
	CuckooView	v;
	CuckooView	check;
	CuckooHeader hdr;
	uint8_t		enc[64];
	char	   *b64;
	uint8_t    *dec;
	size_t		declen;

	memcpy(buf, data, size);
	FUZZ_CHECK(cuckoo_open(buf, size, &v) == CUCKOO_OK, "open after validate");

	/* header codec */
	cuckoo_header_decode(buf, &hdr);
	cuckoo_header_encode(&hdr, enc);
	FUZZ_CHECK(memcmp(enc, buf, CUCKOO_HEADER_SIZE) == 0, "header round trip");

	/* base64 */
	b64 = fuzz_alloc(bloom_base64_encoded_len(size) + 1);
	bloom_base64_encode(buf, size, b64);
	dec = fuzz_alloc(bloom_base64_decoded_max(bloom_base64_encoded_len(size)));
	FUZZ_CHECK(bloom_base64_decode(b64, bloom_base64_encoded_len(size), dec, &declen) &&
			   declen == size && memcmp(dec, buf, size) == 0, "base64 round trip");
	free(b64);
	free(dec);

	{
		double		p = cuckoo_fpp(&v);

		FUZZ_CHECK(p >= 0.0 && p <= 1.0, "fpp %g", p);
	}

	/* adds and deletes of hashes taken from the input */
	for (int i = 0; i < 6; i++)
	{
		BloomHash	h = bloom_hash(data, size > (size_t) i ? size - i : 0, (uint32_t) i);
		uint64_t	before = cuckoo_count(&v, h);
		uint64_t	items = v.hdr.items;
		int			nsub = v.hdr.nsub;

		if (!fuzz_add(&buf, &v, h))
			break;
		FUZZ_CHECK(cuckoo_contains(&v, h), "added element not found");
		FUZZ_CHECK(cuckoo_count(&v, h) >= before + 1, "count after add");
		FUZZ_CHECK(v.hdr.items == items + 1, "items after add");
		FUZZ_CHECK(cuckoo_validate(v.buf, v.len, &check) == CUCKOO_OK,
				   "invalid after add: %s", cuckoo_check_message(cuckoo_validate(v.buf, v.len, &check)));
		if (i % 2 == 1)
		{
			CuckooDelete d = cuckoo_delete(&v, h);

			/* kept only when it also matches in a sub-filter of another shape */
			FUZZ_CHECK(d != CUCKOO_DELETE_ABSENT, "delete of an added element");
			FUZZ_CHECK(v.hdr.items == items + (d == CUCKOO_DELETE_KEPT), "items after delete");
			/* one sub-filter: the entries (so the answers) are as before */
			if (nsub == 1 && v.hdr.nsub == 1)
				FUZZ_CHECK(cuckoo_count(&v, h) == before, "count after add and delete");
		}
	}

	/* merge with an unchanged copy of itself: every entry twice */
	{
		uint8_t    *a = fuzz_alloc(size);
		CuckooView	va;
		uint64_t	cursor = 0,
					n;
		int			f;
		bool		done = false;

		memcpy(a, data, size);
		FUZZ_CHECK(cuckoo_open(a, size, &va) == CUCKOO_OK, "open copy");
		FUZZ_CHECK(cuckoo_same_shape(&va, orig), "same shape as itself");
		while (!(done = cuckoo_merge(&va, orig, &cursor, &n, &f)))
		{
			size_t		len = cuckoo_grown_bytes(&va, n, f);
			uint8_t    *dst;

			if (len == 0 || len > FUZZ_MAX_GROWN)
				break;
			dst = fuzz_alloc(len);
			cuckoo_grow(&va, dst, n, f);
			free(a);
			a = dst;
		}
		if (done)
		{
			FUZZ_CHECK(va.hdr.items == 2 * orig->hdr.items, "merged items");
			FUZZ_CHECK(cuckoo_validate(va.buf, va.len, &check) == CUCKOO_OK, "invalid after merge");
		}
		free(a);
	}
	free(buf);
}

/*
 * What a check of a stored value does (type/probe.c): the walk of
 * the directory and its predictions name pieces inside the payload, the
 * walk accepts exactly what cuckoo_open accepts, and the spans an element
 * maps to lie inside and answer as the whole value.
 */
static void
exercise_spans(const uint8_t *buf, size_t size)
{
	CuckooHeader hdr;
	CuckooView	v;
	CuckooCheck check;
	BloomDir	dir;
	BloomSpan	next;
	BloomSpan	spans[BLOOM_MAX_SPANS];
	const uint8_t *at[BLOOM_MAX_SPANS];
	const uint8_t *piece = NULL;

	if (cuckoo_header_check(buf, size, &hdr) != CUCKOO_OK)
		return;
	memset(&dir, 0, sizeof(dir));
	dir.payload_len = size - CUCKOO_HEADER_SIZE;
	while ((check = cuckoo_dir_next(&hdr, &dir, piece, &next)) == CUCKOO_OK && next.len > 0)
	{
		BloomDir	predicted = dir;
		BloomSpan	pieces[BLOOM_MAX_PARTS];
		int			n = cuckoo_dir_predict(&hdr, &predicted, pieces, BLOOM_MAX_PARTS);

		FUZZ_CHECK(next.offset + next.len <= dir.payload_len, "piece outside the payload");
		for (int i = 0; i < n; i++)
			FUZZ_CHECK(pieces[i].offset + pieces[i].len <= dir.payload_len,
					   "predicted piece outside the payload");
		piece = buf + CUCKOO_HEADER_SIZE + next.offset;
	}
	FUZZ_CHECK((check == CUCKOO_OK) == (cuckoo_open(buf, size, &v) == CUCKOO_OK),
			   "the directory walk and cuckoo_open disagree");
	if (check != CUCKOO_OK)
		return;
	for (int k = 0; k < 4; k++)
	{
		BloomHash	h = bloom_hash(buf, size, (uint32_t) (200 + k));
		int			n = cuckoo_spans(&dir, h, spans);

		for (int i = 0; i < n; i++)
		{
			FUZZ_CHECK(spans[i].offset + spans[i].len <= dir.payload_len, "span outside the payload");
			at[i] = buf + CUCKOO_HEADER_SIZE + spans[i].offset;
		}
		FUZZ_CHECK(cuckoo_answer(&dir, at, h, false) == (int) cuckoo_contains(&v, h) &&
				   (uint64_t) cuckoo_answer(&dir, at, h, true) == cuckoo_count(&v, h),
				   "spans answer otherwise than the whole value");
	}
}

/*
 * What input lets in, read from the documented bytes: a key type filters
 * hash, and a slot in the first sub-filter for every element of the
 * capacity (offset 48: its bucket count; byte 6: slots per bucket).
 */
static void
check_input_rules(const uint8_t *data, size_t size)
{
	uint64_t	capacity = bloom_load64le(data + CUCKOO_OFF_CAPACITY);
	uint64_t	first_slots = bloom_load64le(data + CUCKOO_HEADER_SIZE) * data[CUCKOO_OFF_BUCKET_SIZE];

	FUZZ_CHECK(size >= CUCKOO_HEADER_SIZE + CUCKOO_SUB_HEADER_SIZE, "accepted %zu bytes", size);
	FUZZ_CHECK(bloom_key_type_valid(bloom_load32le(data + CUCKOO_OFF_KEY_TYPE)),
			   "accepted key type %u", bloom_load32le(data + CUCKOO_OFF_KEY_TYPE));
	FUZZ_CHECK(first_slots >= capacity, "accepted capacity %llu on %llu first slots",
			   (unsigned long long) capacity, (unsigned long long) first_slots);
}

/*
 * A stored value that claims a capacity its first sub-filter has no slots
 * for (input refuses one; 1.3 took it) grows exactly as the same value with
 * that capacity cut to those slots, never into a sub-filter sized for the
 * claim.
 */
static void
check_forged_growth(const uint8_t *data, size_t size, const CuckooView *v)
{
	uint64_t	first_slots = v->sub[0].nbuckets * v->hdr.bucket_size;
	uint8_t    *cut;
	CuckooView	cv;
	uint64_t	n1,
				n2;
	int			f1,
				f2;
	CuckooGrowth g1,
				g2;

	if (v->hdr.capacity <= first_slots)
		return;
	cut = fuzz_alloc(size);
	memcpy(cut, data, size);
	bloom_store64le(cut + CUCKOO_OFF_CAPACITY, first_slots);
	FUZZ_CHECK(cuckoo_open(cut, size, &cv) == CUCKOO_OK, "the value with its capacity cut");
	g1 = cuckoo_next_sub(v, &n1, &f1);
	g2 = cuckoo_next_sub(&cv, &n2, &f2);
	FUZZ_CHECK(g1 == g2 && (g1 != CUCKOO_GROW_OK || (n1 == n2 && f1 == f2)),
			   "a claimed capacity grows otherwise than its slots: %llu buckets of %d bits, "
			   "not %llu of %d", (unsigned long long) n1, f1, (unsigned long long) n2, f2);
	free(cut);
}

/* a value that passed cuckoo_open only: every operation stays inside */
static void
exercise_damaged(const uint8_t *data, size_t size)
{
	uint8_t    *buf = fuzz_alloc(size);
	CuckooView	v;

	memcpy(buf, data, size);
	if (cuckoo_open(buf, size, &v) != CUCKOO_OK)
	{
		free(buf);
		return;
	}
	check_forged_growth(data, size, &v);
	for (int i = 0; i < 4; i++)
	{
		BloomHash	h = bloom_hash(data, size, (uint32_t) (100 + i));

		(void) cuckoo_contains(&v, h);
		(void) cuckoo_count(&v, h);
		if (cuckoo_add(&v, h))
			FUZZ_CHECK(cuckoo_contains(&v, h), "added to a damaged value, not found");
		(void) cuckoo_delete(&v, h);
	}
	(void) cuckoo_fpp(&v);
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	CuckooView	v;
	CuckooCheck check;
	const char *msg;

	if (size > 0 && data[0] == 'T')
	{
		/* text: what cuckoofilter_in does after trimming */
		uint8_t    *dec = fuzz_alloc(bloom_base64_decoded_max(size - 1));
		size_t		declen;

		if (bloom_base64_decode((const char *) data + 1, size - 1, dec, &declen))
		{
			check = cuckoo_validate(dec, declen, &v);
			if (check == CUCKOO_OK)
			{
				check_input_rules(dec, declen);
				char	   *enc = fuzz_alloc(bloom_base64_encoded_len(declen) + 1);

				bloom_base64_encode(dec, declen, enc);
				FUZZ_CHECK(bloom_base64_encoded_len(declen) == size - 1 &&
						   memcmp(enc, data + 1, size - 1) == 0,
						   "an accepted literal does not re-encode to itself");
				free(enc);
			}
		}
		free(dec);
		return 0;
	}

	exercise_spans(data, size);
	check = cuckoo_validate(data, size, &v);
	msg = cuckoo_check_message(check);
	FUZZ_CHECK(msg != NULL && msg[0] != '\0', "no message for %d", (int) check);
	if (check == CUCKOO_OK)
	{
		CuckooView	o;

		FUZZ_CHECK(cuckoo_open(data, size, &o) == CUCKOO_OK, "open refuses what validate accepts");
		check_input_rules(data, size);
		exercise_valid(data, size, &v);
	}
	else
		exercise_damaged(data, size);
	return 0;
}
