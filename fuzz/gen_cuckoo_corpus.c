/*-------------------------------------------------------------------------
 *
 * gen_cuckoo_corpus.c
 *	  Writes the seed corpus of fuzz_cuckoo: valid cuckoo filters of every
 *	  bucket size, empty, filled, grown and after deletes, built with the
 *	  real sizing and add code, near misses of the counts and slots of a
 *	  few and of every header rule of one, and text literals ('T' then
 *	  base64).  Deterministic.
 *
 *	  usage: gen_cuckoo_corpus DIR		(writes DIR/cuckoo/)
 *
 * fuzz/gen_cuckoo_corpus.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/cuckoo.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *outdir;

static void
put(const char *name, const uint8_t *data, size_t len)
{
	char		path[4096];
	FILE	   *f;

	snprintf(path, sizeof(path), "%s/cuckoo/%s", outdir, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0)
	{
		perror(path);
		exit(1);
	}
}

static void
put_both(const char *name, const uint8_t *data, size_t len)
{
	char		tname[256];
	char	   *text = malloc(bloom_base64_encoded_len(len) + 2);

	put(name, data, len);
	text[0] = 'T';
	bloom_base64_encode(data, len, text + 1);
	snprintf(tname, sizeof(tname), "text-%s", name);
	put(tname, (const uint8_t *) text, bloom_base64_encoded_len(len) + 1);
	free(text);
}

/* a filter of b slots per bucket with n keys added (growing), d deleted */
static void
gen(const char *name, int b, int f, uint64_t nbuckets, int nkeys, int ndel,
	bool near_misses)
{
	size_t		len = cuckoo_empty_bytes(b, f, nbuckets);
	uint8_t    *buf = malloc(len);
	CuckooView	v;

	/* a capacity its first sub-filter has slots for, as input requires */
	cuckoo_init(buf, nbuckets * b, 0.01, 7, b, f, nbuckets);
	cuckoo_open(buf, len, &v);
	for (int k = 0; k < nkeys; k++)
	{
		BloomHash	h = bloom_hash_int64(k, 7);

		while (!cuckoo_add(&v, h))
		{
			uint64_t	n;
			int			g;
			uint8_t    *dst;

			if (cuckoo_next_sub(&v, &n, &g) != CUCKOO_GROW_OK)
				abort();
			dst = malloc(cuckoo_grown_bytes(&v, n, g));
			cuckoo_grow(&v, dst, n, g);
			free(buf);
			buf = dst;
		}
	}
	for (int k = 0; k < ndel; k++)
		cuckoo_delete(&v, bloom_hash_int64(k, 7));
	{
		CuckooView	check;

		if (cuckoo_validate(v.buf, v.len, &check) != CUCKOO_OK)
		{
			fprintf(stderr, "gen_cuckoo_corpus: %s is not valid\n", name);
			exit(1);
		}
	}
	put_both(name, v.buf, v.len);

	/* near misses: the count off by one, a slot changed, one byte short */
	if (near_misses && v.len > CUCKOO_HEADER_SIZE + CUCKOO_SUB_HEADER_SIZE)
	{
		char		mname[256];

		v.buf[32]++;
		snprintf(mname, sizeof(mname), "%s-bad-items", name);
		put(mname, v.buf, v.len);
		v.buf[32]--;
		v.buf[v.len - 1] ^= 0x10;
		snprintf(mname, sizeof(mname), "%s-bad-slot", name);
		put(mname, v.buf, v.len);
		snprintf(mname, sizeof(mname), "%s-short", name);
		put(mname, v.buf, v.len - 1);
	}
	free(buf);
}

/* a copy of buf with one little-endian field of width bytes set to value */
static void
put_field(const char *name, const uint8_t *buf, size_t len, size_t off, int width,
		  uint64_t value, bool text)
{
	uint8_t    *m = malloc(len);

	memcpy(m, buf, len);
	for (int i = 0; i < width; i++)
		m[off + i] = (uint8_t) (value >> (8 * i));
	if (text)
		put_both(name, m, len);
	else
		put(name, m, len);
	free(m);
}

/*
 * Near misses of every header rule, on cf_create(100, 0.01) with 60 keys:
 * b = 4, 27 buckets (108 slots) in its one sub-filter.
 */
static void
gen_header_rules(void)
{
	int			b,
				f;
	uint64_t	n;
	size_t		len;
	uint8_t    *buf;
	CuckooView	v;

	if (!cuckoo_size(100, 0.01, &b, &f, &n))
		abort();
	len = cuckoo_empty_bytes(b, f, n);
	buf = malloc(len);
	cuckoo_init(buf, 100, 0.01, 0, b, f, n);
	cuckoo_open(buf, len, &v);
	for (int k = 0; k < 60; k++)
		if (!cuckoo_add(&v, bloom_hash_int64(k, 0)))
			abort();
	if (cuckoo_validate(buf, len, &v) != CUCKOO_OK)
		abort();

	/* key types: 0 or one filters hash (bloomfilter's rule), not any below 10000 */
	put_field("rule-key-type-20", buf, len, CUCKOO_OFF_KEY_TYPE, 4, 20, false);
	put_field("rule-key-type-9999", buf, len, CUCKOO_OFF_KEY_TYPE, 4, 9999, true);
	put_field("rule-key-type-22", buf, len, CUCKOO_OFF_KEY_TYPE, 4, 22, false);
	/* the capacity: the first sub-filter has a slot for each element of it */
	put_field("rule-capacity-slots", buf, len, CUCKOO_OFF_CAPACITY, 8, n * b, false);
	put_field("rule-capacity-slots-plus-1", buf, len, CUCKOO_OFF_CAPACITY, 8, n * b + 1, true);
	put_field("rule-capacity-huge", buf, len, CUCKOO_OFF_CAPACITY, 8, 200000000, false);
	put_field("rule-capacity-0", buf, len, CUCKOO_OFF_CAPACITY, 8, 0, false);
	/* the other fields */
	put_field("rule-version-2", buf, len, CUCKOO_OFF_VERSION, 1, 2, false);
	put_field("rule-hash-id-1", buf, len, CUCKOO_OFF_HASH_ID, 1, 1, false);
	put_field("rule-bucket-size-3", buf, len, CUCKOO_OFF_BUCKET_SIZE, 1, 3, false);
	put_field("rule-fp-bits-mismatch", buf, len, CUCKOO_OFF_FP_BITS, 1, (uint64_t) f + 1, false);
	put_field("rule-nsub-0", buf, len, CUCKOO_OFF_NSUB, 2, 0, false);
	put_field("rule-kicks-4097", buf, len, CUCKOO_OFF_MAX_KICKS, 2, 4097, false);
	put_field("rule-rate-1", buf, len, CUCKOO_OFF_ERROR_RATE, 8, UINT64_C(0x3ff0000000000000), false);
	put_field("rule-reserved", buf, len, CUCKOO_OFF_RESERVED, 4, 1, false);
	put_field("rule-sub-reserved", buf, len, CUCKOO_HEADER_SIZE + CUCKOO_SUB_HEADER_SIZE - 1, 1, 1, false);
	put_field("rule-sub-nbuckets-0", buf, len, CUCKOO_HEADER_SIZE + CUCKOO_SUB_OFF_NBUCKETS, 8, 0, false);
	free(buf);
}

int
main(int argc, char **argv)
{
	if (argc != 2)
	{
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	outdir = argv[1];
	gen("b4-empty", 4, 10, 4, 0, 0, false);
	gen("b4-full", 4, 10, 8, 30, 0, true);
	gen("b4-grown", 4, 10, 4, 60, 0, true);
	gen("b4-deleted", 4, 10, 8, 30, 12, false);
	gen("b2-f5", 2, 5, 16, 20, 3, false);
	gen("b8-f13", 8, 13, 4, 40, 5, true);
	gen("b2-f2", 2, 2, 3, 12, 0, false);
	gen("b4-f32", 4, 32, 3, 10, 2, false);
	gen_header_rules();
	return 0;
}
