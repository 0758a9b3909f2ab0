/*-------------------------------------------------------------------------
 *
 * header.c
 *	  Stored header, validation, the table of layouts, what the layouts
 *	  built of blocks share (their spans, their cells' header check), sizing
 *	  and base64 of the bloomfilter type.
 *
 * A bloomfilter value is a 48-byte header followed by a payload whose
 * organisation the header's layout byte names.  Everything here is plain C
 * with no server dependency, so that the same code answers in the backend,
 * in the unit tests and under the fuzzers.
 *
 * Hashing.  The caller reduces each element to canonical bytes (the rules
 * depend on the SQL type and on the filter's hash id: type/keys/canon.c)
 * and hashes them with MurmurHash3 x64_128 from libmurmurhash, seeded with
 * the filter's 32-bit seed.  The two 64-bit output words are h1 and h2.
 * Both are used in full; no step truncates to 32 bits.
 *
 * Header, all little-endian:
 *
 *		0	uint32	magic "BLMF"
 *		4	uint8	version (1)
 *		5	uint8	layout (1 = blocked512, ... 5 = guava)
 *		6	uint8	hash id (1 = canonical bytes of release 1.0,
 *						2 = SQL-equal values hash equal,
 *						3 = Guava's funnel bytes, layout 5 only)
 *		7	uint8	k, cells set per element (1..64)
 *		8	uint32	seed
 *		12	uint32	key type: 0 untyped, else the built-in type OID of the
 *						keys (one of core/keytypes.c's table)
 *		16	uint64	nbits, the payload's cells
 *		24	uint64	capacity the filter was sized for
 *		32	float64 error rate it was sized for (IEEE 754)
 *		40	uint64	number of cells set
 *
 * A stored value is forever: a change to hashing or to the meaning of the
 * payload gets a new hash or layout id, and the old ids keep their code.
 * Layouts plug in through BloomLayout (core/header.h); validation checks the
 * fields every layout shares here and hands the rest to the layout.
 *
 * Sizing lives in core/sizing.c.
 *
 * Limits.  A filter holds at most BLOOM_MAX_BYTES, so that its base64 text
 * form still fits in a 1 GB allocation and pg_dump can write it.  Error rates
 * below BLOOM_MIN_ERROR_RATE are refused by sizing: 512-bit blocks cannot
 * reach them at a sensible size.  Input paths accept any rate in (0, 1) in a
 * header, since the rate is descriptive: answers never depend on it.
 *
 * src/core/header.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/header.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


/* ---- header ---- */

void
bloom_header_decode(const uint8_t *buf, BloomHeader *hdr)
{
	uint64_t	rate_bits = bloom_load64le(buf + BLOOM_OFF_ERROR_RATE);

	hdr->version = buf[BLOOM_OFF_VERSION];
	hdr->layout = buf[BLOOM_OFF_LAYOUT];
	hdr->hash_id = buf[BLOOM_OFF_HASH_ID];
	hdr->nhashes = buf[BLOOM_OFF_NHASHES];
	hdr->seed = bloom_load32le(buf + BLOOM_OFF_SEED);
	hdr->key_type = bloom_load32le(buf + BLOOM_OFF_KEY_TYPE);
	hdr->nbits = bloom_load64le(buf + BLOOM_OFF_NBITS);
	hdr->capacity = bloom_load64le(buf + BLOOM_OFF_CAPACITY);
	memcpy(&hdr->error_rate, &rate_bits, sizeof(double));
	hdr->bits_set = bloom_load64le(buf + BLOOM_OFF_BITS_SET);
}

void
bloom_header_encode(const BloomHeader *hdr, uint8_t *buf)
{
	uint64_t	rate_bits;

	memcpy(&rate_bits, &hdr->error_rate, sizeof(double));
	bloom_store32le(buf + BLOOM_OFF_MAGIC, BLOOM_MAGIC);
	buf[BLOOM_OFF_VERSION] = hdr->version;
	buf[BLOOM_OFF_LAYOUT] = hdr->layout;
	buf[BLOOM_OFF_HASH_ID] = hdr->hash_id;
	buf[BLOOM_OFF_NHASHES] = hdr->nhashes;
	bloom_store32le(buf + BLOOM_OFF_SEED, hdr->seed);
	bloom_store32le(buf + BLOOM_OFF_KEY_TYPE, hdr->key_type);
	bloom_store64le(buf + BLOOM_OFF_NBITS, hdr->nbits);
	bloom_store64le(buf + BLOOM_OFF_CAPACITY, hdr->capacity);
	bloom_store64le(buf + BLOOM_OFF_ERROR_RATE, rate_bits);
	bloom_store64le(buf + BLOOM_OFF_BITS_SET, hdr->bits_set);
}

void
bloom_header_init(BloomHeader *hdr, uint64_t capacity, double error_rate,
				  uint32_t seed, uint64_t nbits, int nhashes)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->version = BLOOM_VERSION;
	hdr->layout = BLOOM_LAYOUT_BLOCKED512;
	hdr->hash_id = BLOOM_HASH_CURRENT;
	hdr->nhashes = (uint8_t) nhashes;
	hdr->seed = seed;
	hdr->nbits = nbits;
	hdr->capacity = capacity;
	hdr->error_rate = error_rate;
}

/* ---- layouts and hash ids ---- */

void		(*bloom_interrupt_hook) (void) = NULL;

/*
 * The registry, indexed by layout id; NULL where no layout has that id.  A
 * layout's table is defined in its own file and named nowhere else but
 * here (scripts/check-layouts.sh), so each layout is its declaration and
 * its entry.  The unit tests build the core with a toy layout as well.
 */
extern const BloomLayout bloom_blocked_layout;	/* core/blocked.c */
extern const BloomLayout bloom_counting_layout; /* core/counting.c */
extern const BloomLayout bloom_scalable_layout; /* core/scalable.c */
extern const BloomLayout bloom_hashes_layout;	/* core/hashlist.c */
extern const BloomLayout bloom_redisbloom_layout;	/* core/redisbloom.c */
extern const BloomLayout bloom_guava_layout;	/* core/guava.c */
#ifdef BLOOM_TOY_LAYOUT
extern const BloomLayout bloom_toy_layout;	/* test/unit_layout_toy.c */
#endif

static const BloomLayout *const bloom_layouts[] = {
	[BLOOM_LAYOUT_BLOCKED512] = &bloom_blocked_layout,
	[BLOOM_LAYOUT_COUNTING4] = &bloom_counting_layout,
	[BLOOM_LAYOUT_SCALABLE] = &bloom_scalable_layout,
	[BLOOM_LAYOUT_HASHES] = &bloom_hashes_layout,
	[BLOOM_LAYOUT_REDISBLOOM] = &bloom_redisbloom_layout,
	[BLOOM_LAYOUT_GUAVA] = &bloom_guava_layout,
#ifdef BLOOM_TOY_LAYOUT
	[BLOOM_LAYOUT_TOY] = &bloom_toy_layout,
#endif
};

static inline void
bloom_part_block_span(const BloomDir *dir, int i, uint32_t bytes, BloomHash h, BloomSpan *span)
{
	const BloomPart *part = &dir->part[i];

	span->offset = part->offset + bloom_block_of(h.h1, part->size) * bytes;
	span->len = bytes;
}

/*
 * Out of line, though short: a layout's spans are called through its
 * table, so an inline copy in each layout would gain nothing.  A single
 * part's is apart from the loop over many, which would cost the check of
 * a plain filter in memory a few percent more instructions.
 */
int
bloom_dir_block_span(const BloomDir *dir, uint32_t bytes, BloomHash h, BloomSpan *span)
{
	bloom_part_block_span(dir, 0, bytes, h, span);
	return 1;
}

int
bloom_dir_block_spans(const BloomDir *dir, uint32_t bytes, BloomHash h, BloomSpan *spans)
{
	for (int i = 0; i < dir->nparts; i++)
		bloom_part_block_span(dir, dir->nparts - 1 - i, bytes, h, &spans[i]);
	return dir->nparts;
}

/*
 * The header of a layout built of blocked cells (blocked, counting),
 * cell_bits bits to a cell, against the payload's length.
 */
BloomCheck
bloom_check_cells(const BloomHeader *hdr, size_t payload_len, int cell_bits)
{
	uint64_t	max_cells = (BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE) * 8 / cell_bits;

	if (hdr->nbits == 0 || hdr->nbits % BLOOM_BLOCK_BITS != 0 || hdr->nbits > max_cells)
		return BLOOM_BAD_NBITS;
	if (payload_len != hdr->nbits / 8 * cell_bits)
		return BLOOM_BAD_LENGTH;
	if (hdr->nhashes == 0 || hdr->nhashes > BLOOM_MAX_HASHES)
		return BLOOM_BAD_NHASHES;
	if (hdr->bits_set > hdr->nbits)
		return BLOOM_BAD_BITS_SET;
	return BLOOM_OK;
}

/*
 * dir_next of a layout whose payload is one part from its start, of size
 * blocks (or hashes) checked width bits (or hashes) at a time: no pieces.
 */
BloomCheck
bloom_dir_single(BloomDir *dir, uint64_t size, uint32_t width, BloomSpan *next)
{
	dir->nparts = 1;
	dir->part[0].offset = 0;
	dir->part[0].size = size;
	dir->part[0].width = width;
	next->len = 0;
	return BLOOM_OK;
}

/*
 * The walk of a directory over a payload in memory.  Every piece a layout
 * names is checked against the payload's length here too, so that a
 * layout's mistake cannot send a read past the end.
 */
BloomCheck
bloom_dir_read(const BloomLayout *layout, const BloomHeader *hdr,
			   const uint8_t *payload, uint64_t payload_len, BloomDir *dir)
{
	const uint8_t *piece = NULL;
	BloomSpan	next;
	BloomCheck	check;

	memset(dir, 0, offsetof(BloomDir, part));
	dir->payload_len = payload_len;
	while ((check = layout->dir_next(hdr, dir, piece, &next)) == BLOOM_OK &&
		   next.len > 0)
	{
		if (next.offset > payload_len || next.len > payload_len - next.offset)
			return BLOOM_BAD_LENGTH;
		piece = payload + next.offset;
	}
	return check;
}

/* h checked against a payload in memory; a damaged payload answers present */
int
bloom_answer_payload(const BloomLayout *layout, const BloomHeader *hdr,
					 const uint8_t *payload, BloomHash h, bool count)
{
	BloomDir	dir;
	BloomSpan	spans[BLOOM_MAX_SPANS];
	const uint8_t *at[BLOOM_MAX_SPANS];
	int			n;

	if (bloom_dir_read(layout, hdr, payload, layout->payload_bytes(hdr), &dir) != BLOOM_OK)
		return 1;
	n = layout->spans(&dir, h, spans);
	for (int i = 0; i < n; i++)
		at[i] = payload + spans[i].offset;
	return layout->answer(&dir, at, h, count);
}

void
bloom_fill_chunked(uint8_t *dst, const uint8_t *src, uint64_t n)
{
	for (uint64_t off = 0; off < n; off += BLOOM_INTERRUPT_BYTES)
	{
		uint64_t	len = n - off < BLOOM_INTERRUPT_BYTES ? n - off : BLOOM_INTERRUPT_BYTES;

		bloom_check_interrupts();
		if (src)
			memcpy(dst + off, src + off, len);
		else
			memset(dst + off, 0, len);
	}
}

const BloomLayout *
bloom_layout_for(uint8_t id)
{
	size_t		nlayouts = sizeof(bloom_layouts) / sizeof(bloom_layouts[0]);

	/* (with the toy's id 255 the table covers every id) */
	if ((size_t) id >= nlayouts)
		return NULL;
	return bloom_layouts[id];
}

/*
 * What a layout's entry lacks or contradicts: the callbacks every layout
 * needs, and the flags against the callbacks they stand for.  The server
 * calls what the flags allow without testing for NULL, so an entry that
 * fails this would crash it; the unit tests check every registered entry.
 */
const char *
bloom_layout_problem(const BloomLayout *l)
{
	if (l->name == NULL || l->check_header == NULL || l->check_payload == NULL ||
		l->payload_bytes == NULL || l->add == NULL || l->same_shape == NULL ||
		l->combine == NULL || l->cardinality == NULL || l->fpp == NULL)
		return "a callback every layout needs is missing";
	if (l->dir_next == NULL || l->spans == NULL || l->answer == NULL)
		return "a check callback (dir_next, spans, answer) is missing";
	if (l->describe == NULL || l->info == NULL || l->shape_hint == NULL)
		return "describe, info or shape_hint is missing";
	if (l->grows != (l->grown_bytes != NULL) || l->grows != (l->grow != NULL))
		return "grows disagrees with grown_bytes and grow";
	if ((l->add_uncounted == NULL) != (l->recount == NULL))
		return "add_uncounted and recount go together";
	if (l->grows && l->add_uncounted != NULL)
		return "a layout that grows counts its adds";
	if (l->removes != (l->remove != NULL))
		return "removes disagrees with remove";
	if (l->intersects != (l->no_intersect_detail == NULL))
		return "a layout that does not intersect needs no_intersect_detail, and only it";
	if (l->no_intersect_hint != NULL && l->no_intersect_detail == NULL)
		return "no_intersect_hint without no_intersect_detail";
	return NULL;
}

size_t
bloom_describe_cells(const BloomHeader *hdr, const char *cells, const char *name,
					 char *buf, size_t size)
{
	return (size_t) snprintf(buf, size, "%llu %s, %d hashes, seed %u%s%s",
							 (unsigned long long) hdr->nbits, cells, hdr->nhashes,
							 hdr->seed, name ? ", layout " : "", name ? name : "");
}

size_t
bloom_describe_sized(const BloomHeader *hdr, const char *name, char *buf, size_t size)
{
	return (size_t) snprintf(buf, size, "capacity %llu at error rate %g, seed %u%s%s",
							 (unsigned long long) hdr->capacity, hdr->error_rate,
							 hdr->seed, name ? ", layout " : "", name ? name : "");
}

double
bloom_fill_fpp(const BloomHeader *hdr)
{
	if (hdr->nbits == 0)
		return 0.0;
	return pow((double) hdr->bits_set / (double) hdr->nbits, hdr->nhashes);
}

void
bloom_info_cells(const BloomHeader *hdr, BloomInfoSink *sink)
{
	bloom_info_uint(sink, "nbits", hdr->nbits);
	bloom_info_uint(sink, "nhashes", hdr->nhashes);
}

const char *
bloom_hash_name(uint8_t hash_id)
{
	switch (hash_id)
	{
		case BLOOM_HASH_MURMUR3_SEND:
			return "murmur3_x64_128";
		case BLOOM_HASH_MURMUR3_EQ:
			return "murmur3_x64_128_sqleq";
		case BLOOM_HASH_MURMUR3_UTF8:
			return "murmur3_x64_128_sqleq_utf8";
		case BLOOM_HASH_REDISBLOOM:
			return "murmur64a_redisbloom";
		case BLOOM_HASH_GUAVA:
			return "murmur3_x64_128_guava";
	}
	return NULL;
}

bool		(*bloom_text_is_utf8) (void) = NULL;

/*
 * Whether filters of hash ids a and b hash every key alike, so that they
 * can be combined: the same id, or ids 2 and 5 where text is UTF-8 anyway.
 */
bool
bloom_hash_ids_alike(uint8_t a, uint8_t b)
{
	if (a == b)
		return true;
	return BLOOM_HASH_IS_EQ(a) && BLOOM_HASH_IS_EQ(b) &&
		bloom_text_is_utf8 != NULL && bloom_text_is_utf8();
}

/* ---- validation ---- */

/*
 * Check a decoded header against the total length of the value (header plus
 * payload): everything that does not need to read the payload.
 */
BloomCheck
bloom_validate_header(const BloomHeader *hdr, size_t len)
{
	const BloomLayout *layout;
	BloomCheck	check;

	if (hdr->version != BLOOM_VERSION)
		return BLOOM_BAD_VERSION;
	layout = bloom_layout_for(hdr->layout);
	if (layout == NULL)
		return BLOOM_BAD_LAYOUT;
	if (bloom_hash_name(hdr->hash_id) == NULL)
		return BLOOM_BAD_HASH;
	/* a layout that is another system's format has that system's hash */
	if (layout->hash_id != 0 ? hdr->hash_id != layout->hash_id :
		!(hdr->hash_id == BLOOM_HASH_MURMUR3_SEND || BLOOM_HASH_IS_EQ(hdr->hash_id)))
		return BLOOM_BAD_HASH;
	/* what a read allows: input takes only bloom_key_type_valid's */
	if (!bloom_key_type_readable(hdr->key_type))
		return BLOOM_BAD_KEY_TYPE;
	if (len < BLOOM_HEADER_SIZE)
		return BLOOM_BAD_LENGTH;
	check = layout->check_header(hdr, len - BLOOM_HEADER_SIZE);
	if (check != BLOOM_OK)
		return check;
	if (hdr->capacity == 0 || hdr->capacity > (uint64_t) INT64_MAX)
		return BLOOM_BAD_CAPACITY;
	if (!(hdr->error_rate > 0.0 && hdr->error_rate < 1.0))
		return BLOOM_BAD_ERROR_RATE;
	return BLOOM_OK;
}

/*
 * Full check of a serialized filter: header fields, exact length, and what
 * the layout keeps in the header about its payload (the count of cells set)
 * against the payload itself.  On success *hdr holds the decoded header.
 *
 * It is stricter than the header check every read of a stored value makes
 * (bloom_validate_header) where releases before 1.4 took more: a key type
 * that is no type filters hash, which a stored value keeps (shown as its
 * number, refused with 42704 where a key must be converted to it, mended
 * by bf_set_key_type), and what the layouts check of their payloads.
 */
BloomCheck
bloom_validate(const uint8_t *buf, size_t len, BloomHeader *hdr)
{
	BloomCheck	check;

	if (len >= 4 && bloom_load32le(buf) == BLOOM_SHAPE_MAGIC)
		return BLOOM_IS_SHAPE;
	if (len < BLOOM_HEADER_SIZE)
		return BLOOM_BAD_LENGTH;
	if (bloom_load32le(buf) != BLOOM_MAGIC)
		return BLOOM_BAD_MAGIC;
	bloom_header_decode(buf, hdr);
	check = bloom_validate_header(hdr, len);
	if (check != BLOOM_OK)
		return check;
	return bloom_validate_payload(hdr, buf + BLOOM_HEADER_SIZE);
}

/*
 * bloom_validate's checks past the header, for a header that passed
 * bloom_validate_header and its payload, wherever that is: after the
 * header, or made again from a shape (core/shape.c).
 */
BloomCheck
bloom_validate_payload(const BloomHeader *hdr, const uint8_t *payload)
{
	if (!bloom_key_type_valid(hdr->key_type))
		return BLOOM_BAD_KEY_TYPE;
	return bloom_layout_for(hdr->layout)->check_payload(hdr, payload);
}

const char *
bloom_check_message(BloomCheck check)
{
	switch (check)
	{
		case BLOOM_OK:
			return "The value is valid.";
		case BLOOM_BAD_LENGTH:
			return "The length does not match the header.";
		case BLOOM_BAD_MAGIC:
			return "The value does not start with the bloomfilter magic number.";
		case BLOOM_BAD_VERSION:
			return "The format version is not supported by this build.";
		case BLOOM_BAD_LAYOUT:
			return "The bit layout is not supported by this build.";
		case BLOOM_BAD_HASH:
			return "The hash function is not supported by this build.";
		case BLOOM_BAD_RESERVED:
			return "Reserved header fields must be zero.";
		case BLOOM_BAD_NBITS:
			return "The number of bits must be a positive multiple of 512 within the size limit.";
		case BLOOM_BAD_NHASHES:
			return "The number of hash functions must be between 1 and 64.";
		case BLOOM_BAD_CAPACITY:
			return "The capacity must be between 1 and 9223372036854775807.";
		case BLOOM_BAD_ERROR_RATE:
			return "The error rate must be greater than 0 and less than 1.";
		case BLOOM_BAD_BITS_SET:
			return "The count of bits set does not match the bits.";
		case BLOOM_BAD_SUBFILTER:
			return "A sub-filter is not sized as its position in the filter requires.";
		case BLOOM_BAD_KEY_TYPE:
			return "The key type must be 0 or the OID of a built-in type that filters hash.";
		case BLOOM_BAD_HASH_LIST:
			return "A list of hashes has k 0, a capacity equal to its cells and zero cells past its count.";
		case BLOOM_BAD_DIVISOR:
			return "The fill divisor of a scalable filter must be 1 outside a running aggregate.";
		case BLOOM_BAD_SUB_KEY_TYPE:
			return "The sub-filters of a scalable filter must have key type 0.";
		case BLOOM_BAD_LINK_BPE:
			return "A RedisBloom link's bpe must be the bits per element its error rate gives, |ln(error)| / ln(2)^2.";
		case BLOOM_BAD_LINK_ENTRIES:
			return "A RedisBloom link's entries must be what its bits hold at its bpe, as RedisBloom sizes a link.";
		case BLOOM_BAD_LINK_SIZE:
			return "A RedisBloom link's size, the elements it counted, must not exceed its entries.";
		case BLOOM_BAD_LINK_NEXT:
			return "Each RedisBloom link after the first must be the one growth made: half the error rate of the link before it and its entries times the growth; a NONSCALING chain has one link.";
		case BLOOM_BAD_GROWTH:
			return "A RedisBloom chain that scales must have a growth between 1 and 1024, and not the option ENTS_IS_BITS (2), with which a link of e entries is followed by one of 2^(e * growth) bits.";
		case BLOOM_IS_SHAPE:
			return "The value is the shape of an empty filter (bf_shape), not a filter: bf_agg(element, shape) makes the filter from it.";
		case BLOOM_BAD_SHAPE_MAGIC:
			return "The value does not start with the magic number of a shape.";
		case BLOOM_SHAPE_IS_FILTER:
			return "The value is a bloomfilter's bytes, not its shape.";
		case BLOOM_BAD_SHAPE_RUNS:
			return "A shape's runs must each have an offset and a length of at least 1, lie within the payload in order without overlapping, and fill the value exactly.";
		case BLOOM_BAD_SHAPE_ELEMENTS:
			return "A shape is that of an empty filter: its count of bits set must be 0.";
	}
	return "The value is invalid.";
}

/*
 * Filters can be combined only if an element maps to the same cells in
 * both: same layout, hash and seed, and whatever the layout adds.  Capacity
 * and error rate do not affect that; a combination keeps the first
 * operand's.
 */
bool
bloom_same_shape(const BloomHeader *a, const BloomHeader *b)
{
	return a->version == b->version && a->layout == b->layout &&
		bloom_hash_ids_alike(a->hash_id, b->hash_id) && a->seed == b->seed &&
		bloom_layout_for(a->layout)->same_shape(a, b);
}

/* ---- sizing: see core/sizing.c ---- */

/* ---- base64 ---- */

static const char b64_alphabet[] =
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t
bloom_base64_encoded_len(size_t len)
{
	return (len + 2) / 3 * 4;
}

size_t
bloom_base64_decoded_max(size_t srclen)
{
	return srclen / 4 * 3;
}

void
bloom_base64_encode(const uint8_t *src, size_t len, char *dst)
{
	size_t		i = 0;

	for (; i + 3 <= len; i += 3)
	{
		uint32_t	v = ((uint32_t) src[i] << 16) | ((uint32_t) src[i + 1] << 8) | src[i + 2];

		/* a value's text is up to a gigabyte: answer interrupts meanwhile */
		if (i % (3 * BLOOM_INTERRUPT_BYTES) == 0)
			bloom_check_interrupts();

		*dst++ = b64_alphabet[(v >> 18) & 63];
		*dst++ = b64_alphabet[(v >> 12) & 63];
		*dst++ = b64_alphabet[(v >> 6) & 63];
		*dst++ = b64_alphabet[v & 63];
	}
	if (i < len)
	{
		uint32_t	v = (uint32_t) src[i] << 16;

		if (i + 1 < len)
			v |= (uint32_t) src[i + 1] << 8;
		*dst++ = b64_alphabet[(v >> 18) & 63];
		*dst++ = b64_alphabet[(v >> 12) & 63];
		*dst++ = (i + 1 < len) ? b64_alphabet[(v >> 6) & 63] : '=';
		*dst++ = '=';
	}
}

static int
b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/*
 * Strict decoder: length a multiple of 4, padding only at the very end, and
 * the unused bits of the last group zero, so every value has exactly one
 * text form.  dst must hold bloom_base64_decoded_max(srclen) bytes.
 */
bool
bloom_base64_decode(const char *src, size_t srclen, uint8_t *dst, size_t *dstlen)
{
	size_t		out = 0;

	if (srclen % 4 != 0)
		return false;
	for (size_t i = 0; i < srclen; i += 4)
	{
		int			v[4];
		int			pad = 0;
		bool		last = (i + 4 == srclen);

		if (i % (4 * BLOOM_INTERRUPT_BYTES) == 0)
			bloom_check_interrupts();
		for (int j = 0; j < 4; j++)
		{
			if (last && j >= 2 && src[i + j] == '=' && (j == 3 || src[i + 3] == '='))
			{
				v[j] = 0;
				pad++;
				continue;
			}
			v[j] = b64_value(src[i + j]);
			if (v[j] < 0)
				return false;
		}
		dst[out++] = (uint8_t) ((v[0] << 2) | (v[1] >> 4));
		if (pad == 2)
		{
			if ((v[1] & 15) != 0)
				return false;
			break;
		}
		dst[out++] = (uint8_t) (((v[1] & 15) << 4) | (v[2] >> 2));
		if (pad == 1)
		{
			if ((v[2] & 3) != 0)
				return false;
			break;
		}
		dst[out++] = (uint8_t) (((v[2] & 3) << 6) | v[3]);
	}
	*dstlen = out;
	return true;
}
