/*-------------------------------------------------------------------------
 *
 * gen_cuckoo_corpus.c
 *	  Writes the seed corpus of fuzz_cuckoo: valid cuckoo filters of every
 *	  bucket size, empty, filled, grown and after deletes, built with the
 *	  real sizing and add code, a few near misses, and text literals
 *	  ('T' then base64).  Deterministic.
 *
 *	  usage: gen_cuckoo_corpus DIR		(writes DIR/cuckoo/)
 *
 * fuzz/gen_cuckoo_corpus.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/cuckoo.h"

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
gen(const char *name, int b, int f, uint64_t nbuckets, int nkeys, int ndel)
{
	size_t		len = cuckoo_empty_bytes(b, f, nbuckets);
	uint8_t    *buf = malloc(len);
	CuckooView	v;

	cuckoo_init(buf, 100, 0.01, 7, b, f, nbuckets);
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
	put_both(name, v.buf, v.len);

	/* near misses: the count off by one, a slot changed, one byte short */
	if (v.len > CUCKOO_HEADER_SIZE + CUCKOO_SUB_HEADER_SIZE)
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

int
main(int argc, char **argv)
{
	if (argc != 2)
	{
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	outdir = argv[1];
	gen("b4-empty", 4, 10, 4, 0, 0);
	gen("b4-full", 4, 10, 8, 30, 0);
	gen("b4-grown", 4, 10, 4, 60, 0);
	gen("b4-deleted", 4, 10, 8, 30, 12);
	gen("b2-f5", 2, 5, 16, 20, 3);
	gen("b8-f13", 8, 13, 4, 40, 5);
	gen("b2-f2", 2, 2, 3, 12, 0);
	gen("b4-f32", 4, 32, 3, 10, 2);
	return 0;
}
