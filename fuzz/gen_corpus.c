/*-------------------------------------------------------------------------
 *
 * gen_corpus.c
 *	  Writes the fuzzers' seed corpus: small valid filters, built with the
 *	  real sizing and add code, and near misses of every kind bloom_validate
 *	  refuses, each in binary form and as a base64 text literal, plus text
 *	  literals that the strict base64 decoder must refuse or accept.
 *
 *	  usage: gen_corpus DIR		(writes DIR/binary/ and DIR/text/)
 *
 * Build it against the core, as fuzz/run.sh does when asked to regenerate:
 *
 *	  cc -O2 -Isrc -o gen_corpus fuzz/gen_corpus.c src/bloom_*.c \
 *		  -lmurmurhash -lm
 *
 * The output is deterministic, so regenerating gives the checked-in files.
 *
 * fuzz/gen_corpus.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/blocked.h"
#include "core/sizing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the longest seed; fuzz/run.sh passes a -max_len above it */
#define GEN_MAX_BYTES	(BLOOM_HEADER_SIZE + 16 * BLOOM_BLOCK_BYTES)

/* header field offsets (see core/header.c) */
#define OFF_MAGIC		0
#define OFF_VERSION		4
#define OFF_LAYOUT		5
#define OFF_HASH		6
#define OFF_NHASHES		7
#define OFF_SEED		8
#define OFF_KEY_TYPE		12
#define OFF_NBITS		16
#define OFF_CAPACITY	24
#define OFF_RATE		32
#define OFF_BITS_SET	40

static const char *outdir;
static int	nwritten = 0;
static size_t nbytes_written = 0;

/* a filter under construction: the serialized bytes */
typedef struct GenFilter
{
	uint8_t		buf[GEN_MAX_BYTES + BLOOM_BLOCK_BYTES];
	size_t		len;
} GenFilter;

static void
write_file(const char *kind, const char *name, const void *data, size_t len)
{
	char		path[4096];
	FILE	   *f;

	snprintf(path, sizeof(path), "%s/%s/%s", outdir, kind, name);
	f = fopen(path, "wb");
	if (f == NULL || (len > 0 && fwrite(data, 1, len, f) != len) || fclose(f) != 0)
	{
		fprintf(stderr, "gen_corpus: cannot write %s\n", path);
		exit(1);
	}
	nwritten++;
	nbytes_written += len;
}

static char *
to_base64(const uint8_t *buf, size_t len, size_t *tlen)
{
	char	   *text = malloc(bloom_base64_encoded_len(len) + 1);

	if (text == NULL)
		exit(1);
	bloom_base64_encode(buf, len, text);
	*tlen = bloom_base64_encoded_len(len);
	text[*tlen] = '\0';
	return text;
}

/* write a value both as binary and as its base64 literal */
static void
emit(const char *name, const uint8_t *buf, size_t len)
{
	size_t		tlen;
	char	   *text = to_base64(buf, len, &tlen);

	write_file("binary", name, buf, len);
	write_file("text", name, text, tlen);
	free(text);
}

static void
put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

static void
put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

/*
 * A valid filter of nblocks blocks and k bits per element, with the integers
 * 0 .. nelems-1 added the way bf_add adds an int8, bits_set kept as bf_add
 * keeps it.
 */
static void
make_filter(GenFilter *f, uint64_t nblocks, int k, uint32_t seed,
			uint64_t capacity, double rate, int64_t nelems)
{
	BloomHeader hdr;
	uint8_t    *bits = f->buf + BLOOM_HEADER_SIZE;

	bloom_header_init(&hdr, capacity, rate, seed, nblocks * BLOOM_BLOCK_BITS, k);
	f->len = bloom_total_bytes(&hdr);
	if (f->len > GEN_MAX_BYTES)
	{
		fprintf(stderr, "gen_corpus: %llu blocks is too big for a seed\n",
				(unsigned long long) nblocks);
		exit(1);
	}
	memset(bits, 0, f->len - BLOOM_HEADER_SIZE);
	for (int64_t v = 0; v < nelems; v++)
		hdr.bits_set += bloom_add(bits, nblocks, k, bloom_hash_int64(v, seed));
	bloom_header_encode(&hdr, f->buf);
}

/* as make_filter, sized by bloom_size as bf_new sizes it */
static void
make_sized(GenFilter *f, uint64_t capacity, double rate, uint32_t seed,
		   int64_t nelems)
{
	uint64_t	nbits;
	int			k;

	if (!bloom_size(capacity, rate, &nbits, &k))
		exit(1);
	make_filter(f, nbits / BLOOM_BLOCK_BITS, k, seed, capacity, rate, nelems);
}

/*
 * A valid list of hashes (layout 4, an unsized aggregate's partial state)
 * of cells cells, the integers 0 .. nelems-1 in the first of them.
 */
static void
make_hash_list(GenFilter *f, uint64_t cells, uint32_t seed, int64_t nelems)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_HASHES);
	BloomHeader hdr;
	uint8_t    *payload = f->buf + BLOOM_HEADER_SIZE;

	bloom_hashes_header(&hdr, 0.01, seed, cells);
	f->len = bloom_total_bytes(&hdr);
	if (f->len > GEN_MAX_BYTES)
		exit(1);
	bloom_hashes_init(&hdr, 2, payload);
	for (int64_t v = 0; v < nelems; v++)
	{
		BloomHash	h = bloom_hash_int64(v, seed);

		if (l->add(&hdr, payload, &h, 1) != 1)
			exit(1);
	}
	bloom_header_encode(&hdr, f->buf);
}

static void
check_valid(const char *name, const GenFilter *f)
{
	BloomHeader hdr;
	BloomCheck	check = bloom_validate(f->buf, f->len, &hdr);

	if (check != BLOOM_OK)
	{
		fprintf(stderr, "gen_corpus: seed %s is not valid: %s\n", name,
				bloom_check_message(check));
		exit(1);
	}
}

/* emit a copy of base with one change made by the caller's function */
typedef void (*GenMutation) (GenFilter *f, uint64_t arg);

static void
emit_mutant(const char *name, const GenFilter *base, GenMutation mutate,
			uint64_t arg)
{
	GenFilter	m = *base;

	mutate(&m, arg);
	emit(name, m.buf, m.len);
}

static void
mut_len(GenFilter *f, uint64_t newlen)
{
	if (newlen > f->len)
		memset(f->buf + f->len, 0, newlen - f->len);
	f->len = newlen;
}

static void
mut_byte_xor(GenFilter *f, uint64_t off)
{
	f->buf[off] ^= 0x20;
}

static void
mut_version(GenFilter *f, uint64_t v)
{
	f->buf[OFF_VERSION] = (uint8_t) v;
}

static void
mut_layout(GenFilter *f, uint64_t v)
{
	f->buf[OFF_LAYOUT] = (uint8_t) v;
}

static void
mut_hash(GenFilter *f, uint64_t v)
{
	f->buf[OFF_HASH] = (uint8_t) v;
}

static void
mut_nhashes(GenFilter *f, uint64_t v)
{
	f->buf[OFF_NHASHES] = (uint8_t) v;
}

static void
mut_key_type(GenFilter *f, uint64_t v)
{
	put32(f->buf + OFF_KEY_TYPE, (uint32_t) v);
}

static void
mut_nbits(GenFilter *f, uint64_t v)
{
	put64(f->buf + OFF_NBITS, v);
}

static void
mut_capacity(GenFilter *f, uint64_t v)
{
	put64(f->buf + OFF_CAPACITY, v);
}

static void
mut_rate_bits(GenFilter *f, uint64_t v)
{
	put64(f->buf + OFF_RATE, v);
}

static void
mut_bits_set(GenFilter *f, uint64_t v)
{
	put64(f->buf + OFF_BITS_SET, v);
}

static void
mut_bits_set_delta(GenFilter *f, uint64_t delta)
{
	BloomHeader hdr;

	bloom_header_decode(f->buf, &hdr);
	put64(f->buf + OFF_BITS_SET, hdr.bits_set + delta);
}

/* flip one bit of the bit area without fixing the count */
static void
mut_flip_bit(GenFilter *f, uint64_t bit)
{
	f->buf[BLOOM_HEADER_SIZE + bit / 8] ^= (uint8_t) (1u << (bit % 8));
}

/* grow or shrink to nblocks blocks with the header telling the truth */
static void
mut_reshape(GenFilter *f, uint64_t nblocks)
{
	size_t		newlen = BLOOM_HEADER_SIZE + nblocks * BLOOM_BLOCK_BYTES;
	BloomHeader hdr;

	mut_len(f, newlen);
	bloom_header_decode(f->buf, &hdr);
	hdr.nbits = nblocks * BLOOM_BLOCK_BITS;
	hdr.bits_set = bloom_popcount(f->buf + BLOOM_HEADER_SIZE, newlen - BLOOM_HEADER_SIZE);
	bloom_header_encode(&hdr, f->buf);
}

static uint64_t
double_bits(double d)
{
	uint64_t	v;

	memcpy(&v, &d, sizeof(v));
	return v;
}

static void
emit_valid_seeds(void)
{
	GenFilter	f;
	char		name[128];
	static const struct
	{
		uint64_t	capacity;
		double		rate;
		uint32_t	seed;
		int64_t		nelems;
	}			sized[] = {
		{1, 0.5, 0, 0},
		{1, 0.01, 0, 1},
		{10, 0.01, 0, 10},
		{50, 0.05, 1, 25},
		{100, 0.01, 0xDEADBEEF, 100},
		{100, 0.01, 0, 300},
		{20, 1e-6, 7, 20},
		{200, 0.1, UINT32_MAX, 150},
		{5, 1e-10, 0, 5},
	};
	static const struct
	{
		uint64_t	nblocks;
		int			k;
		uint32_t	seed;
		int64_t		nelems;
	}			shaped[] = {
		{1, 1, 0, 0},
		{1, 1, 0, 40},
		{1, 64, 0, 3},
		{1, 64, 12345, 200},	/* close to full */
		{2, 7, 0, 30},
		{3, 13, 42, 17},
		{3, 2, 0, 1},
		{8, 8, 0, 64},
		{16, 5, 99, 500},
	};

	for (size_t i = 0; i < sizeof(sized) / sizeof(sized[0]); i++)
	{
		make_sized(&f, sized[i].capacity, sized[i].rate, sized[i].seed,
				   sized[i].nelems);
		snprintf(name, sizeof(name), "valid-sized-c%llu-r%g-s%u-n%lld",
				 (unsigned long long) sized[i].capacity, sized[i].rate,
				 sized[i].seed, (long long) sized[i].nelems);
		check_valid(name, &f);
		emit(name, f.buf, f.len);
	}
	for (size_t i = 0; i < sizeof(shaped) / sizeof(shaped[0]); i++)
	{
		make_filter(&f, shaped[i].nblocks, shaped[i].k, shaped[i].seed,
					1000, 0.01, shaped[i].nelems);
		snprintf(name, sizeof(name), "valid-b%llu-k%d-s%u-n%lld",
				 (unsigned long long) shaped[i].nblocks, shaped[i].k,
				 shaped[i].seed, (long long) shaped[i].nelems);
		check_valid(name, &f);
		emit(name, f.buf, f.len);
	}

	/* lists of hashes: empty, partly and wholly used */
	{
		static const struct
		{
			uint64_t	cells;
			int64_t		nelems;
		}			lists[] = {{1, 0}, {4, 3}, {16, 16}};

		for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		{
			make_hash_list(&f, lists[i].cells, 0, lists[i].nelems);
			snprintf(name, sizeof(name), "valid-hashes-c%llu-n%lld",
					 (unsigned long long) lists[i].cells, (long long) lists[i].nelems);
			check_valid(name, &f);
			emit(name, f.buf, f.len);
		}
	}

	/* every bit set: the estimates' top end */
	make_filter(&f, 2, 64, 0, 1, 0.99, 0);
	memset(f.buf + BLOOM_HEADER_SIZE, 0xFF, f.len - BLOOM_HEADER_SIZE);
	put64(f.buf + OFF_BITS_SET, 2 * BLOOM_BLOCK_BITS);
	check_valid("valid-full", &f);
	emit("valid-full", f.buf, f.len);

	/* extreme but legal header values */
	make_filter(&f, 1, 3, 0, (uint64_t) INT64_MAX, 0x1p-1074, 5);
	check_valid("valid-extremes", &f);
	emit("valid-extremes", f.buf, f.len);
	make_filter(&f, 1, 3, 0, 1, nextafter(1.0, 0.0), 5);
	check_valid("valid-rate-below-1", &f);
	emit("valid-rate-below-1", f.buf, f.len);
}

static void
emit_mutants(void)
{
	GenFilter	base;
	GenFilter	empty;
	char		name[128];
	static const uint64_t bad_nbits[] = {
		0, 1, 8, 511, 513, 1000, 1024 + 8,
		UINT64_C(1) << 63, UINT64_MAX, UINT64_MAX - 511,
		BLOOM_MAX_BLOCKS * BLOOM_BLOCK_BITS,
		(BLOOM_MAX_BLOCKS + 1) * BLOOM_BLOCK_BITS,
		/* wraps to a small byte count if anything multiplies carelessly */
		(UINT64_C(1) << 61) + 1024,
	};

	/* two blocks with a few elements: 176 bytes, one '=' of padding */
	make_filter(&base, 2, 7, 0, 20, 0.01, 12);
	check_valid("base", &base);
	make_filter(&empty, 1, 4, 0, 10, 0.01, 0);
	check_valid("empty", &empty);

	/* length */
	emit_mutant("len-0", &base, mut_len, 0);
	emit_mutant("len-1", &base, mut_len, 1);
	emit_mutant("len-header-minus-1", &base, mut_len, BLOOM_HEADER_SIZE - 1);
	emit_mutant("len-header-only", &base, mut_len, BLOOM_HEADER_SIZE);
	emit_mutant("len-minus-1", &base, mut_len, base.len - 1);
	emit_mutant("len-minus-block", &base, mut_len, base.len - BLOOM_BLOCK_BYTES);
	emit_mutant("len-plus-1", &base, mut_len, base.len + 1);
	emit_mutant("len-plus-block", &base, mut_len, base.len + BLOOM_BLOCK_BYTES);
	emit_mutant("reshape-1-block", &base, mut_reshape, 1);
	emit_mutant("reshape-3-blocks", &base, mut_reshape, 3);

	/* fixed fields */
	emit_mutant("magic-byte0", &base, mut_byte_xor, 0);
	emit_mutant("magic-byte3", &base, mut_byte_xor, 3);
	emit_mutant("version-0", &base, mut_version, 0);
	emit_mutant("version-2", &base, mut_version, 2);
	emit_mutant("version-255", &base, mut_version, 255);
	emit_mutant("layout-0", &base, mut_layout, 0);
	emit_mutant("layout-2", &base, mut_layout, 2);
	emit_mutant("hash-0", &base, mut_hash, 0);
	emit_mutant("hash-2", &base, mut_hash, 2);
	emit_mutant("key-type-int8", &base, mut_key_type, 20);
	emit_mutant("key-type-10000", &base, mut_key_type, 10000);
	emit_mutant("key-type-top", &base, mut_key_type, UINT32_C(0x80000000));

	/* nbits */
	for (size_t i = 0; i < sizeof(bad_nbits) / sizeof(bad_nbits[0]); i++)
	{
		snprintf(name, sizeof(name), "nbits-%llu", (unsigned long long) bad_nbits[i]);
		emit_mutant(name, &base, mut_nbits, bad_nbits[i]);
	}

	/* k */
	emit_mutant("k-0", &base, mut_nhashes, 0);
	emit_mutant("k-64", &base, mut_nhashes, 64);	/* valid: other bits */
	emit_mutant("k-65", &base, mut_nhashes, 65);
	emit_mutant("k-255", &base, mut_nhashes, 255);

	/* bits_set */
	emit_mutant("bits-set-plus-1", &base, mut_bits_set_delta, 1);
	emit_mutant("bits-set-minus-1", &base, mut_bits_set_delta, UINT64_MAX);
	emit_mutant("bits-set-0", &base, mut_bits_set, 0);
	emit_mutant("bits-set-nbits", &base, mut_bits_set, 2 * BLOOM_BLOCK_BITS);
	emit_mutant("bits-set-nbits-plus-1", &base, mut_bits_set, 2 * BLOOM_BLOCK_BITS + 1);
	emit_mutant("bits-set-max", &base, mut_bits_set, UINT64_MAX);
	emit_mutant("bits-flip-first", &base, mut_flip_bit, 0);
	emit_mutant("bits-flip-last", &base, mut_flip_bit, 2 * BLOOM_BLOCK_BITS - 1);
	emit_mutant("empty-bits-set-1", &empty, mut_bits_set, 1);

	/* error rate */
	emit_mutant("rate-nan", &base, mut_rate_bits, double_bits(NAN));
	emit_mutant("rate-neg-nan", &base, mut_rate_bits, double_bits(-NAN));
	emit_mutant("rate-0", &base, mut_rate_bits, double_bits(0.0));
	emit_mutant("rate-neg-0", &base, mut_rate_bits, double_bits(-0.0));
	emit_mutant("rate-1", &base, mut_rate_bits, double_bits(1.0));
	emit_mutant("rate-above-1", &base, mut_rate_bits, double_bits(nextafter(1.0, 2.0)));
	emit_mutant("rate-inf", &base, mut_rate_bits, double_bits(INFINITY));
	emit_mutant("rate-neg-inf", &base, mut_rate_bits, double_bits(-INFINITY));
	emit_mutant("rate-neg", &base, mut_rate_bits, double_bits(-0.01));

	/* a list of hashes: k, capacity, expansion, a free cell, the count */
	{
		GenFilter	list;

		make_hash_list(&list, 4, 0, 3);
		emit_mutant("hashes-k-1", &list, mut_nhashes, 1);
		emit_mutant("hashes-capacity-5", &list, mut_capacity, 5);
		emit_mutant("hashes-expansion-8194", &list, mut_byte_xor, BLOOM_HEADER_SIZE + 1);
		emit_mutant("hashes-reserved", &list, mut_byte_xor, BLOOM_HEADER_SIZE + 4);
		emit_mutant("hashes-free-cell", &list, mut_byte_xor, list.len - 1);
		emit_mutant("hashes-count-5", &list, mut_bits_set, 5);
		emit_mutant("hashes-len-minus-cell", &list, mut_len, list.len - 16);
	}

	/* capacity */
	emit_mutant("capacity-0", &base, mut_capacity, 0);
	emit_mutant("capacity-int64-max-plus-1", &base, mut_capacity, (uint64_t) INT64_MAX + 1);
	emit_mutant("capacity-max", &base, mut_capacity, UINT64_MAX);
}

/* text literals: white space, padding and alphabet cases for the decoder */
static void
emit_text_only(void)
{
	GenFilter	f1,
				f2,
				f3;
	size_t		l1,
				l2,
				l3;
	char	   *t1,
			   *t2,
			   *t3;
	char		tmp[GEN_MAX_BYTES * 2];

	/* 1, 2 and 3 blocks: "==", "=" and no padding */
	make_filter(&f1, 1, 5, 0, 10, 0.01, 4);
	make_filter(&f2, 2, 7, 0, 20, 0.01, 12);
	make_filter(&f3, 3, 9, 3, 30, 0.01, 20);
	t1 = to_base64(f1.buf, f1.len, &l1);
	t2 = to_base64(f2.buf, f2.len, &l2);
	t3 = to_base64(f3.buf, f3.len, &l3);

	write_file("text", "pad2-valid", t1, l1);
	write_file("text", "pad1-valid", t2, l2);
	write_file("text", "pad0-valid", t3, l3);

	/* surrounding white space is ignored */
	snprintf(tmp, sizeof(tmp), "  \t\n%s\r\n\v\f ", t1);
	write_file("text", "ws-around-valid", tmp, strlen(tmp));
	/* inside it is not */
	snprintf(tmp, sizeof(tmp), "%.8s %s", t2, t2 + 8);
	write_file("text", "ws-inside", tmp, strlen(tmp));
	snprintf(tmp, sizeof(tmp), "%.76s\n%s", t3, t3 + 76);
	write_file("text", "line-break", tmp, strlen(tmp));

	/* padding mistakes */
	write_file("text", "pad2-missing", t1, l1 - 2);
	write_file("text", "pad2-one-missing", t1, l1 - 1);
	write_file("text", "pad1-missing", t2, l2 - 1);
	snprintf(tmp, sizeof(tmp), "%s=", t2);
	write_file("text", "pad-extra", tmp, strlen(tmp));
	snprintf(tmp, sizeof(tmp), "%s====", t3);
	write_file("text", "pad-group", tmp, strlen(tmp));
	snprintf(tmp, sizeof(tmp), "%.8s====%s", t3, t3 + 8);
	write_file("text", "pad-middle", tmp, strlen(tmp));
	memcpy(tmp, t1, l1);
	tmp[l1 - 2] = 'A';
	write_file("text", "pad2-as-x=", tmp, l1);

	/* nonzero unused bits in the last group: a second spelling */
	memcpy(tmp, t1, l1);
	tmp[l1 - 3] = (char) (tmp[l1 - 3] == 'A' ? 'B' : tmp[l1 - 3] + 1);
	write_file("text", "pad2-noncanonical", tmp, l1);
	memcpy(tmp, t2, l2);
	tmp[l2 - 2] = (char) (tmp[l2 - 2] == 'A' ? 'B' : tmp[l2 - 2] + 1);
	write_file("text", "pad1-noncanonical", tmp, l2);

	/* alphabet */
	memcpy(tmp, t3, l3);
	tmp[20] = '-';
	write_file("text", "urlsafe-minus", tmp, l3);
	memcpy(tmp, t3, l3);
	tmp[21] = '_';
	write_file("text", "urlsafe-underscore", tmp, l3);
	memcpy(tmp, t3, l3);
	tmp[22] = '\x80';
	write_file("text", "high-byte", tmp, l3);
	memcpy(tmp, t3, l3);
	tmp[23] = '\0';
	write_file("text", "embedded-nul", tmp, l3);

	/* empty and white space only */
	write_file("text", "empty", "", 0);
	write_file("text", "spaces", "   \t ", 5);
	write_file("text", "pad-only", "====", 4);
	write_file("text", "short", "QkxNRg==", 8);

	free(t1);
	free(t2);
	free(t3);
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

	emit_valid_seeds();
	emit_mutants();
	emit_text_only();

	printf("gen_corpus: wrote %d files, %zu bytes, under %s\n",
		   nwritten, nbytes_written, outdir);
	return 0;
}
