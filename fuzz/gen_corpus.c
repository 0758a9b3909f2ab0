/*-------------------------------------------------------------------------
 *
 * gen_corpus.c
 *	  Writes the fuzzers' seed corpus: small valid filters of every layout,
 *	  built with the real sizing and add code, and near misses of every
 *	  rule bloom_validate checks (one seed a rule: the fuzzer makes the
 *	  rest), in binary form; the valid ones, the near misses of the header
 *	  fields 1.3 and 1.4 added (key type, a scalable filter's fill divisor
 *	  and sub-filter key types) and text literals that the strict base64
 *	  decoder must refuse or accept, as text.
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
#include "core/guava.h"
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

/* a near miss in binary only: the text harness decodes to the same check */
static void
emit_binary(const char *name, const uint8_t *buf, size_t len)
{
	write_file("binary", name, buf, len);
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

/* a valid counting filter (layout 2) of nblocks blocks, 0 .. nelems-1 added */
static void
make_counting(GenFilter *f, uint64_t nblocks, int k, int64_t nelems)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_COUNTING4);
	BloomHeader hdr;
	uint8_t    *payload = f->buf + BLOOM_HEADER_SIZE;

	bloom_header_init(&hdr, 100, 0.01, 0, nblocks * BLOOM_BLOCK_BITS, k);
	hdr.layout = BLOOM_LAYOUT_COUNTING4;
	f->len = bloom_total_bytes(&hdr);
	if (f->len > GEN_MAX_BYTES)
		exit(1);
	memset(payload, 0, f->len - BLOOM_HEADER_SIZE);
	for (int64_t v = 0; v < nelems; v++)
	{
		/* each element three times: counters above 1 */
		BloomHash	h = bloom_hash_int64(v % 8, 0);

		if (l->add(&hdr, payload, &h, 1) != 1)
			exit(1);
	}
	bloom_header_encode(&hdr, f->buf);
}

/*
 * A valid scalable filter (layout 3) of capacity at 1% growing by
 * expansion, with 0 .. nelems-1 added, growing as the server grows it.
 */
static void
make_scalable(GenFilter *f, uint64_t capacity, uint32_t expansion, int64_t nelems)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_SCALABLE);
	BloomHeader hdr;
	uint64_t	bytes;
	uint8_t    *payload = f->buf + BLOOM_HEADER_SIZE;

	if (!bloom_scalable_header(&hdr, capacity, 0.01, 0, expansion, &bytes) ||
		BLOOM_HEADER_SIZE + bytes > GEN_MAX_BYTES)
		exit(1);
	bloom_scalable_init(&hdr, expansion, payload);
	for (int64_t v = 0; v < nelems; v++)
	{
		BloomHash	h = bloom_hash_int64(v, 0);

		while (l->add(&hdr, payload, &h, 1) == 0)
		{
			if (BLOOM_HEADER_SIZE + l->grown_bytes(&hdr, payload) > GEN_MAX_BYTES)
				exit(1);
			l->grow(&hdr, payload, payload);
		}
	}
	f->len = bloom_total_bytes(&hdr);
	bloom_header_encode(&hdr, f->buf);
}

/*
 * A valid RedisBloom chain (layout 6) as BF.RESERVE makes it (expansion 0:
 * NONSCALING), with the decimal texts of 0 .. nelems-1 added as BF.ADD adds
 * them, growing as the server grows it.
 */
static void
make_redis(GenFilter *f, uint64_t capacity, double rate, uint32_t expansion, int64_t nelems)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_REDISBLOOM);
	BloomHeader hdr;
	uint64_t	bytes;
	uint8_t    *payload = f->buf + BLOOM_HEADER_SIZE;

	if (!bloom_redis_header(&hdr, capacity, rate, expansion, &bytes) ||
		BLOOM_HEADER_SIZE + bytes > GEN_MAX_BYTES)
		exit(1);
	bloom_redis_init(&hdr, expansion, payload);
	for (int64_t v = 0; v < nelems; v++)
	{
		char		text[24];
		BloomHash	h = bloom_redis_hash(text, (size_t) snprintf(text, sizeof(text), "%lld",
																	(long long) v));

		while (l->add(&hdr, payload, &h, 1) == 0)
		{
			if (BLOOM_HEADER_SIZE + l->grown_bytes(&hdr, payload) > GEN_MAX_BYTES)
				exit(1);
			l->grow(&hdr, payload, payload);
		}
	}
	f->len = bloom_total_bytes(&hdr);
	bloom_header_encode(&hdr, f->buf);
}

/* a valid Guava filter (layout 5) for n at p, 0 .. nelems-1 added as bigint keys */
static void
make_guava(GenFilter *f, int64_t n, double p, int64_t nelems)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_GUAVA);
	BloomHeader hdr;
	uint8_t    *payload = f->buf + BLOOM_HEADER_SIZE;

	if (bloom_guava_header(&hdr, n, p, BLOOM_GUAVA_KEY_INT8) != BLOOM_GUAVA_OK)
		exit(1);
	f->len = bloom_total_bytes(&hdr);
	if (f->len > GEN_MAX_BYTES)
		exit(1);
	memset(payload, 0, f->len - BLOOM_HEADER_SIZE);
	for (int64_t v = 0; v < nelems; v++)
	{
		BloomHash	h = bloom_hash_int64(v, 0);

		l->add(&hdr, payload, &h, 1);
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
	emit_binary(name, m.buf, m.len);
}

/* a value's base64 literal alone */
static void
write_text_of(const char *name, const GenFilter *f)
{
	size_t		tlen;
	char	   *text = to_base64(f->buf, f->len, &tlen);

	write_file("text", name, text, tlen);
	free(text);
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
		{10, 0.01, 0, 10},
		{100, 0.01, 0xDEADBEEF, 100},
		{5, 1e-10, 0, 5},
	};
	static const struct
	{
		uint64_t	nblocks;
		int			k;
		uint32_t	seed;
		int64_t		nelems;
	}			shaped[] = {
		{1, 1, 0, 40},
		{1, 64, 12345, 200},	/* close to full */
		{16, 5, 99, 500},
	};
	/* key types (bytes 12..15): the list's ends and an array's */
	static const uint32_t key_types[] = {16, 1006, 3221};

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
	for (size_t i = 0; i < sizeof(key_types) / sizeof(key_types[0]); i++)
	{
		make_sized(&f, 10, 0.01, 0, 3);
		put32(f.buf + OFF_KEY_TYPE, key_types[i]);
		snprintf(name, sizeof(name), "valid-key-type-%u", key_types[i]);
		check_valid(name, &f);
		emit(name, f.buf, f.len);
	}

	/* counting: a few elements, each three times */
	make_counting(&f, 1, 4, 24);
	check_valid("valid-counting-b1-k4", &f);
	emit("valid-counting-b1-k4", f.buf, f.len);

	/* scalable: empty, grown twice (typed), expansion 1 grown once */
	make_scalable(&f, 10, 2, 0);
	check_valid("valid-scalable-empty", &f);
	emit("valid-scalable-empty", f.buf, f.len);
	make_scalable(&f, 10, 2, 40);
	put32(f.buf + OFF_KEY_TYPE, 20);
	check_valid("valid-scalable-c10-e2-n40-int8", &f);
	emit("valid-scalable-c10-e2-n40-int8", f.buf, f.len);
	make_scalable(&f, 5, 1, 8);
	check_valid("valid-scalable-c5-e1-n8", &f);
	emit("valid-scalable-c5-e1-n8", f.buf, f.len);

	/* lists of hashes: empty and partly used */
	make_hash_list(&f, 1, 0, 0);
	check_valid("valid-hashes-c1-n0", &f);
	emit("valid-hashes-c1-n0", f.buf, f.len);
	make_hash_list(&f, 16, 0, 11);
	check_valid("valid-hashes-c16-n11", &f);
	emit("valid-hashes-c16-n11", f.buf, f.len);

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
}

/* the scalable filters' payload: the prefix, then sub-filter 0's count and header */
#define SCAL_OFF_EXPANSION	(BLOOM_HEADER_SIZE + 0)
#define SCAL_OFF_DIVISOR	(BLOOM_HEADER_SIZE + 4)
#define SCAL_OFF_RESERVED	(BLOOM_HEADER_SIZE + 8)
#define SCAL_OFF_SUB0		(BLOOM_HEADER_SIZE + 16 + 8)

static void
mut_u32_at(GenFilter *f, uint64_t off_value)
{
	/* the offset in the high half, the value in the low */
	put32(f->buf + (off_value >> 32), (uint32_t) off_value);
}

#define AT(off, value)	(((uint64_t) (off) << 32) | (uint32_t) (value))

/*
 * RedisBloom chains whose fields that size later links are forged with the
 * rest kept consistent (issue 32): only the checks of a link's entries,
 * size and bpe, the growth and the links' succession refuse them.  And
 * valid chains at the edges of those checks: expansion 1024, a lone link
 * at the most entries its bits hold.
 */
#define RB_PAY(f)	((f)->buf + BLOOM_HEADER_SIZE)
#define RB_LINK(i)	(20 + 53 * (i))

/* the chain's size, the header's capacity and each link's hashes agree */
static void
rb_make_consistent(GenFilter *f)
{
	uint8_t    *p = RB_PAY(f);
	uint32_t	n = bloom_load32le(p + 8);
	uint64_t	total = 0;

	for (uint32_t i = 0; i < n; i++)
	{
		double		bpe = bloom_load_double_le(p + RB_LINK(i) + 32);

		put32(p + RB_LINK(i) + 40, (uint32_t) ceil(0.693147180559945 * bpe));
		total += bloom_load64le(p + RB_LINK(i) + 16);
	}
	put64(p, total);
	put64(f->buf + OFF_CAPACITY, bloom_load64le(p + RB_LINK(0) + 44));
}

static void
emit_redis_forged(void)
{
	GenFilter	one,
				three,
				m;
	double		bpe;
	uint64_t	most;

	make_redis(&one, 1, 0.01, 2, 0);	/* 129 bytes, one 8-byte link */
	make_redis(&three, 3, 0.05, 1, 7);

	m = one;					/* the value */
	put64(RB_PAY(&m) + RB_LINK(0) + 44, 250000000);
	put64(RB_PAY(&m) + RB_LINK(0) + 16, 250000000);
	rb_make_consistent(&m);
	emit("redis-forged-entries-250m", m.buf, m.len);
	m = one;
	put64(RB_PAY(&m) + RB_LINK(0) + 44, UINT64_C(1000000000000000));
	put64(RB_PAY(&m) + RB_LINK(0) + 16, UINT64_C(1000000000000000));
	rb_make_consistent(&m);
	emit_binary("redis-forged-entries-1e15", m.buf, m.len);
	m = one;
	put32(RB_PAY(&m) + 16, 500000000);
	emit("redis-forged-growth-500m", m.buf, m.len);
	m = one;
	put32(RB_PAY(&m) + 16, UINT32_MAX);
	emit_binary("redis-forged-growth-max", m.buf, m.len);
	m = three;
	put64(RB_PAY(&m) + RB_LINK(2) + 16, bloom_load64le(RB_PAY(&m) + RB_LINK(2) + 44) + 1);
	rb_make_consistent(&m);
	emit_binary("redis-forged-size", m.buf, m.len);
	m = three;
	bpe = bloom_load_double_le(RB_PAY(&m) + RB_LINK(1) + 32) * 2;
	memcpy(&most, &bpe, sizeof(most));
	put64(RB_PAY(&m) + RB_LINK(1) + 32, most);
	rb_make_consistent(&m);
	emit_binary("redis-forged-bpe", m.buf, m.len);
	m = three;
	put32(RB_PAY(&m) + 16, 2);	/* links made with growth 1 */
	emit_binary("redis-forged-next", m.buf, m.len);
	m = three;
	put32(RB_PAY(&m) + 12, bloom_load32le(RB_PAY(&m) + 12) | 8);
	emit_binary("redis-forged-nonscaling-links", m.buf, m.len);

	/* valid: the most entries 64 bits hold at link 0's bpe, and growth 1024 */
	m = one;
	bpe = bloom_load_double_le(RB_PAY(&m) + RB_LINK(0) + 32);
	most = (uint64_t) floor(64.0 / bpe);
	put64(RB_PAY(&m) + RB_LINK(0) + 44, most);
	put64(RB_PAY(&m) + RB_LINK(0) + 16, most);
	rb_make_consistent(&m);
	check_valid("redis-lone-link-most-entries", &m);
	emit("redis-lone-link-most-entries", m.buf, m.len);
	make_redis(&m, 1, 0.5, 1024, 3);
	check_valid("redis-expansion-1024", &m);
	emit("redis-expansion-1024", m.buf, m.len);
}

/*
 * RedisBloom chains: valid ones (one link, three links, NONSCALING full) and
 * a near miss of every field of the chain header and of a link entry, each
 * a byte flipped (the payload starts after the 48-byte header; the chain
 * header is 20 bytes, each link entry 53).
 */
static void
emit_redis_mutants(void)
{
	GenFilter	r;
	char		name[128];
	static const struct
	{
		const char *field;
		uint64_t	off;
	}			fields[] = {
		{"size", 0}, {"nfilters", 8}, {"options", 12}, {"options-force64", 12},
		{"growth", 16}, {"bytes", 20}, {"bits", 28}, {"link-size", 36},
		{"error", 51}, {"bpe", 59}, {"hashes", 60}, {"entries", 64}, {"n2", 72},
		{"link2-bytes", 73}, {"link2-hashes", 113}, {"data", 179},
	};

	make_redis(&r, 100, 0.01, 2, 100);
	check_valid("redis-one-link", &r);
	emit("redis-one-link", r.buf, r.len);
	make_redis(&r, 20, 0.05, 0, 20);
	check_valid("redis-nonscaling-full", &r);
	emit("redis-nonscaling-full", r.buf, r.len);
	make_redis(&r, 3, 0.05, 1, 7);
	check_valid("redis-three-links", &r);
	emit("redis-three-links", r.buf, r.len);
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
	{
		GenFilter	m = r;

		m.buf[BLOOM_HEADER_SIZE + fields[i].off] ^= strcmp(fields[i].field, "options-force64") == 0 ? 0x04 : 0x20;
		snprintf(name, sizeof(name), "redis-bad-%s", fields[i].field);
		emit_binary(name, m.buf, m.len);
	}
	emit_redis_forged();
	emit_mutant("redis-hash-id-2", &r, mut_byte_xor, OFF_HASH);
	emit_mutant("redis-seed", &r, mut_byte_xor, OFF_SEED);
	emit_mutant("redis-key-type", &r, mut_byte_xor, OFF_KEY_TYPE);
	emit_mutant("redis-capacity", &r, mut_byte_xor, OFF_CAPACITY);
	emit_mutant("redis-len-minus-1", &r, mut_len, r.len - 1);
}

static void
emit_mutants(void)
{
	GenFilter	base;
	GenFilter	empty;
	GenFilter	scal;
	GenFilter	list;
	char		name[128];
	static const uint64_t bad_nbits[] = {
		0, 513,
		(BLOOM_MAX_BLOCKS + 1) * BLOOM_BLOCK_BITS,
		/* wraps to a small byte count if anything multiplies carelessly */
		(UINT64_C(1) << 61) + 1024,
	};

	/* two blocks with a few elements: 176 bytes, one '=' of padding */
	make_filter(&base, 2, 7, 0, 20, 0.01, 12);
	check_valid("base", &base);
	make_filter(&empty, 1, 4, 0, 10, 0.01, 0);
	check_valid("empty", &empty);
	make_scalable(&scal, 10, 2, 25);
	check_valid("scalable", &scal);
	make_hash_list(&list, 4, 0, 3);
	check_valid("list", &list);
	emit_redis_mutants();

	/* length */
	emit_mutant("len-0", &base, mut_len, 0);
	emit_mutant("len-header-only", &base, mut_len, BLOOM_HEADER_SIZE);
	emit_mutant("len-minus-1", &base, mut_len, base.len - 1);
	emit_mutant("len-plus-block", &base, mut_len, base.len + BLOOM_BLOCK_BYTES);
	emit_mutant("reshape-3-blocks", &base, mut_reshape, 3);

	/* fixed fields */
	emit_mutant("magic-byte3", &base, mut_byte_xor, 3);
	emit_mutant("version-2", &base, mut_version, 2);
	emit_mutant("layout-5", &base, mut_layout, 5);
	emit_mutant("hash-3", &base, mut_hash, 3);

	/*
	 * Key types: 0 or a type filters hash; not any OID below 10000 (9999
	 * names no type, 22 is int2vector, whose keys are int2[], 3802 is
	 * jsonb), which a read still takes from a value 1.3 stored.
	 */
	emit_mutant("key-type-9999", &base, mut_key_type, 9999);
	emit_mutant("key-type-22", &base, mut_key_type, 22);
	emit_mutant("key-type-3802", &base, mut_key_type, 3802);
	emit_mutant("key-type-10000", &base, mut_key_type, 10000);

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

	/* bits_set */
	emit_mutant("bits-set-plus-1", &base, mut_bits_set_delta, 1);
	emit_mutant("bits-set-nbits-plus-1", &base, mut_bits_set, 2 * BLOOM_BLOCK_BITS + 1);
	emit_mutant("bits-flip-last", &base, mut_flip_bit, 2 * BLOOM_BLOCK_BITS - 1);
	emit_mutant("empty-bits-set-1", &empty, mut_bits_set, 1);

	/* capacity and error rate */
	emit_mutant("capacity-0", &base, mut_capacity, 0);
	emit_mutant("capacity-int64-max-plus-1", &base, mut_capacity, (uint64_t) INT64_MAX + 1);
	emit_mutant("rate-nan", &base, mut_rate_bits, double_bits(NAN));
	emit_mutant("rate-1", &base, mut_rate_bits, double_bits(1.0));
	emit_mutant("rate-neg", &base, mut_rate_bits, double_bits(-0.01));

	/*
	 * A scalable filter: the fill divisor is 1 outside a running aggregate
	 * (a larger one started a sub-filter at every add), the sub-filters'
	 * key types 0, the expansion 1..1024, the rest of the prefix zero.
	 */
	emit_mutant("scalable-divisor-2", &scal, mut_u32_at, AT(SCAL_OFF_DIVISOR, 2));
	emit_mutant("scalable-divisor-max", &scal, mut_u32_at, AT(SCAL_OFF_DIVISOR, UINT32_MAX));
	emit_mutant("scalable-divisor-0", &scal, mut_u32_at, AT(SCAL_OFF_DIVISOR, 0));
	emit_mutant("scalable-sub-key-type-20", &scal, mut_u32_at,
				AT(SCAL_OFF_SUB0 + OFF_KEY_TYPE, 20));
	emit_mutant("scalable-expansion-1025", &scal, mut_u32_at, AT(SCAL_OFF_EXPANSION, 1025));
	emit_mutant("scalable-reserved", &scal, mut_byte_xor, SCAL_OFF_RESERVED + 3);
	emit_mutant("scalable-sub-capacity", &scal, mut_byte_xor, SCAL_OFF_SUB0 + OFF_CAPACITY);
	emit_mutant("scalable-count-3", &scal, mut_nhashes, 3);

	/* a list of hashes: k, capacity, expansion, a free cell, the count */
	emit_mutant("hashes-k-1", &list, mut_nhashes, 1);
	emit_mutant("hashes-capacity-5", &list, mut_capacity, 5);
	emit_mutant("hashes-expansion-8194", &list, mut_byte_xor, BLOOM_HEADER_SIZE + 1);
	emit_mutant("hashes-reserved", &list, mut_byte_xor, BLOOM_HEADER_SIZE + 4);
	emit_mutant("hashes-free-cell", &list, mut_byte_xor, list.len - 1);
	emit_mutant("hashes-count-5", &list, mut_bits_set, 5);
}

/* the new header rules as text literals too: what bloomfilter_in refuses */
static void
emit_text_mutants(void)
{
	GenFilter	m;

	make_filter(&m, 2, 7, 0, 20, 0.01, 12);
	put32(m.buf + OFF_KEY_TYPE, 9999);
	write_text_of("key-type-9999", &m);
	make_scalable(&m, 10, 2, 25);
	put32(m.buf + SCAL_OFF_DIVISOR, 2);
	write_text_of("scalable-divisor-2", &m);
	make_scalable(&m, 10, 2, 25);
	put32(m.buf + SCAL_OFF_SUB0 + OFF_KEY_TYPE, 20);
	write_text_of("scalable-sub-key-type-20", &m);
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

/* layout 5: valid values of several shapes, and each header field wrong */
static void
emit_guava(void)
{
	GenFilter	f;
	GenFilter	base;

	make_guava(&f, 1, 0.5, 3);
	check_valid("guava-1-longs", &f);
	emit("guava-1-longs", f.buf, f.len);
	make_guava(&f, 800, 0.05, 600);
	check_valid("guava-800", &f);
	emit("guava-800", f.buf, f.len);
	make_guava(&f, 5, 1e-60, 5);	/* k 199: checks read the whole payload */
	check_valid("guava-k199", &f);
	emit("guava-k199", f.buf, f.len);

	make_guava(&base, 100, 0.03, 40);
	check_valid("guava-base", &base);
	/* Guava's own bytes of it (bf_from_guava's input), whole and one short */
	{
		BloomHeader hdr;
		uint8_t		ser[GEN_MAX_BYTES];

		bloom_header_decode(base.buf, &hdr);
		bloom_guava_write(&hdr, base.buf + BLOOM_HEADER_SIZE, ser);
		emit_binary("guava-serialized", ser, bloom_guava_serialized_bytes(&hdr));
		emit_binary("guava-serialized-short", ser, bloom_guava_serialized_bytes(&hdr) - 1);
	}
	emit_mutant("guava-hash-2", &base, mut_hash, BLOOM_HASH_MURMUR3_EQ);
	emit_mutant("guava-hash-1", &base, mut_hash, BLOOM_HASH_MURMUR3_SEND);
	emit_mutant("guava-key-type-0", &base, mut_key_type, 0);
	emit_mutant("guava-key-type-uuid", &base, mut_key_type, 2950);
	emit_mutant("guava-key-type-int4", &base, mut_key_type, BLOOM_GUAVA_KEY_INT4); /* valid */
	emit_mutant("guava-k-0", &base, mut_nhashes, 0);
	emit_mutant("guava-k-255", &base, mut_nhashes, 255);	/* valid */
	emit_mutant("guava-nbits-0", &base, mut_nbits, 0);
	emit_mutant("guava-nbits-65", &base, mut_nbits, 65);
	emit_mutant("guava-nbits-huge", &base, mut_nbits, (UINT64_C(1) << 61) + 64);
	emit_mutant("guava-len-minus-8", &base, mut_len, base.len - 8);
	emit_mutant("guava-len-plus-8", &base, mut_len, base.len + 8);
	emit_mutant("guava-blocked-hash-3", &base, mut_layout, BLOOM_LAYOUT_BLOCKED512);
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
	emit_guava();
	emit_mutants();
	emit_text_mutants();
	emit_text_only();

	printf("gen_corpus: wrote %d files, %zu bytes, under %s\n",
		   nwritten, nbytes_written, outdir);
	return 0;
}
