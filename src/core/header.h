/*-------------------------------------------------------------------------
 *
 * header.h
 *	  Server-independent core of the bloomfilter extension: the stored
 *	  header, hashing, validation, sizing, base64, and the table of layouts
 *	  through which everything that touches a filter's payload goes.
 *
 * Nothing here includes PostgreSQL headers, so the unit tests, fuzzers and
 * benchmarks can link the core on its own.  core/header.c has the design
 * notes; each layout has a file of its own (core/blocked.c for layout 1).
 *
 * src/core/header.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_H
#define BLOOM_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/hash.h"
#include "core/keytypes.h"

/* Stored header: 48 bytes, every field little-endian. */
#define BLOOM_HEADER_SIZE		48
#define BLOOM_MAGIC				0x464D4C42	/* "BLMF" read as LE uint32 */
/*
 * What an empty filter's shape (core/shape.c) has where a filter has its
 * magic, so that neither is ever read as the other.
 */
#define BLOOM_SHAPE_MAGIC		0x534D4C42	/* "BLMS" read as LE uint32 */
#define BLOOM_VERSION			1

/* where each header field starts (the table in core/header.c, docs/format.md) */
#define BLOOM_OFF_MAGIC			0
#define BLOOM_OFF_VERSION		4
#define BLOOM_OFF_LAYOUT		5
#define BLOOM_OFF_HASH_ID		6
#define BLOOM_OFF_NHASHES		7
#define BLOOM_OFF_SEED			8
#define BLOOM_OFF_KEY_TYPE		12
#define BLOOM_OFF_NBITS			16
#define BLOOM_OFF_CAPACITY		24
#define BLOOM_OFF_ERROR_RATE	32
#define BLOOM_OFF_BITS_SET		40

/* layout ids (header byte 5): see bloom_layout_for() */
#define BLOOM_LAYOUT_BLOCKED512	1
#define BLOOM_LAYOUT_COUNTING4	2
#define BLOOM_LAYOUT_SCALABLE	3
#define BLOOM_LAYOUT_HASHES		4	/* an unsized aggregate's hashes */
#define BLOOM_LAYOUT_GUAVA		5	/* Guava's BloomFilter, bit for bit */
#define BLOOM_LAYOUT_REDISBLOOM	6	/* a RedisBloom chain (core/redisbloom.c) */
#ifdef BLOOM_TOY_LAYOUT
#define BLOOM_LAYOUT_TOY		255 /* test/unit_layout_toy.c, unit tests only */
#endif

/*
 * The smallest first sub-filter of the scalable filter that a list of
 * hashes becomes (core/hashlist.c): 1,000 elements, as bf_agg(element) of
 * release 1.2 started, so that a small group's filter can still grow a
 * long way.
 */
#define BLOOM_HASHES_MIN_CAPACITY	1000

/*
 * Hash ids (header byte 6).  All three hash with MurmurHash3 x64_128; they
 * differ in the canonical bytes an element of a given SQL type becomes
 * (type/keys/canon.c).  Id 1 is what releases up to 1.1 wrote; id 2 makes
 * SQL-equal values hash equal (releases 1.2 to 1.4), with text in the
 * encoding of the database the filter was made in; id 5 is id 2 with text
 * as UTF-8 in every database, so that a filter answers the same after a
 * move to a database of another encoding and a client hashes what the
 * server hashes.  New filters get id 5.  In a UTF8 database ids 2 and 5
 * hash every key alike (bloom_hash_ids_alike).
 */
#define BLOOM_HASH_MURMUR3_SEND	1
#define BLOOM_HASH_MURMUR3_EQ	2
#define BLOOM_HASH_MURMUR3_UTF8	5
#define BLOOM_HASH_CURRENT		BLOOM_HASH_MURMUR3_UTF8

/* id 2 or 5: the rules that make SQL-equal values hash equal */
#define BLOOM_HASH_IS_EQ(id) \
	((id) == BLOOM_HASH_MURMUR3_EQ || (id) == BLOOM_HASH_MURMUR3_UTF8)

/*
 * Hash ids of one layout each (BloomLayout.hash_id), another system's
 * hashing: id 3 is MurmurHash3 x64_128 with seed 0 of the bytes Guava's
 * funnels give (core/guava.c, layout 5); id 4 is RedisBloom's
 * MurmurHash64A of the bytes a Redis client sends, twice
 * (core/redisbloom.c, layout 6).  Each layout takes its id only.
 */
#define BLOOM_HASH_GUAVA		3
#define BLOOM_HASH_REDISBLOOM	4

#define BLOOM_MAX_HASHES		64

#define BLOOM_MAX_EXPANSION		1024	/* growth factor of a scalable filter */
#define BLOOM_DEFAULT_SEED		0

/*
 * Largest stored filter (header plus payload).  The text form is base64,
 * 4/3 of this; it has to fit PostgreSQL's 1 GB allocation limit, or pg_dump
 * could not write the filter out.
 */
#define BLOOM_MAX_BYTES			((uint64_t) 767 * 1024 * 1024)

/*
 * Sizing aims the modelled rate at capacity at this fraction of the requested
 * one, so that a measurement (which samples) stays under the request.
 */
#define BLOOM_SIZING_MARGIN		0.9

/* Smallest error rate we size for; below it a 512-bit block cannot deliver. */
#define BLOOM_MIN_ERROR_RATE	1e-10

/* Decoded header, in host byte order. */
typedef struct BloomHeader
{
	uint8_t		version;
	uint8_t		layout;
	uint8_t		hash_id;
	uint8_t		nhashes;
	uint32_t	seed;
	uint32_t	key_type;		/* OID of the key type, 0: untyped */
	uint64_t	nbits;
	uint64_t	capacity;
	double		error_rate;
	uint64_t	bits_set;
} BloomHeader;

/* What validation found wrong; BLOOM_OK when nothing. */
typedef enum BloomCheck
{
	BLOOM_OK = 0,
	BLOOM_BAD_LENGTH,
	BLOOM_BAD_MAGIC,
	BLOOM_BAD_VERSION,
	BLOOM_BAD_LAYOUT,
	BLOOM_BAD_HASH,
	BLOOM_BAD_RESERVED,
	BLOOM_BAD_NBITS,
	BLOOM_BAD_NHASHES,
	BLOOM_BAD_CAPACITY,
	BLOOM_BAD_ERROR_RATE,
	BLOOM_BAD_BITS_SET,
	BLOOM_BAD_SUBFILTER,
	BLOOM_BAD_KEY_TYPE,
	BLOOM_BAD_HASH_LIST,
	BLOOM_BAD_DIVISOR,
	BLOOM_BAD_SUB_KEY_TYPE,
	BLOOM_BAD_LINK_BPE,
	BLOOM_BAD_LINK_ENTRIES,
	BLOOM_BAD_LINK_SIZE,
	BLOOM_BAD_LINK_NEXT,
	BLOOM_BAD_GROWTH,
	BLOOM_IS_SHAPE,
	BLOOM_BAD_SHAPE_MAGIC,
	BLOOM_SHAPE_IS_FILTER,
	BLOOM_BAD_SHAPE_RUNS,
	BLOOM_BAD_SHAPE_ELEMENTS
} BloomCheck;

/* little-endian access and bit counts, shared by the core and the layouts */

/*
 * The core builds without server headers, so it has its own spellings of
 * the server's pg_attribute_always_inline and unlikely, for the per-row
 * build paths.
 */
#if defined(__GNUC__)
#define BLOOM_ALWAYS_INLINE		__attribute__((always_inline)) inline
#define bloom_unlikely(x)		__builtin_expect((x) != 0, 0)
#else
#define BLOOM_ALWAYS_INLINE		inline
#define bloom_unlikely(x)		((x) != 0)
#endif

/*
 * Bit count of a word.  Without -mpopcnt the compiler's builtin is a libgcc
 * call; this is a handful of inline instructions either way.
 */
static inline int
bloom_popcount64(uint64_t x)
{
#ifdef __POPCNT__
	return __builtin_popcountll(x);
#else
	x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
	return (int) ((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

static inline void
bloom_store64le(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, sizeof(v));
}

/* an IEEE 754 double as 8 little-endian bytes (error rates, bits per entry) */
static inline double
bloom_load_double_le(const uint8_t *p)
{
	uint64_t	u = bloom_load64le(p);
	double		d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

static inline void
bloom_store_double_le(uint8_t *p, double d)
{
	uint64_t	u;

	memcpy(&u, &d, sizeof(u));
	bloom_store64le(p, u);
}

static inline uint16_t
bloom_load16le(const uint8_t *p)
{
	return (uint16_t) (p[0] | (p[1] << 8));
}

static inline void
bloom_store16le(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t) v;
	p[1] = (uint8_t) (v >> 8);
}

static inline uint32_t
bloom_load32le(const uint8_t *p)
{
	return (uint32_t) p[0] | ((uint32_t) p[1] << 8) |
		((uint32_t) p[2] << 16) | ((uint32_t) p[3] << 24);
}

static inline void
bloom_store32le(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t) v;
	p[1] = (uint8_t) (v >> 8);
	p[2] = (uint8_t) (v >> 16);
	p[3] = (uint8_t) (v >> 24);
}

/*
 * Long loops over a payload call this every BLOOM_INTERRUPT_BYTES, so that
 * the server can answer a cancel; the core itself cannot know how.  NULL
 * (the default, and what tests and fuzzers leave) means never interrupted.
 */
#define BLOOM_INTERRUPT_BYTES	(1024 * 1024)
extern void (*bloom_interrupt_hook) (void);

static inline void
bloom_check_interrupts(void)
{
	if (bloom_interrupt_hook)
		bloom_interrupt_hook();
}

/* copy n bytes (src not NULL) or zero them, answering interrupts between megabytes */
extern void bloom_fill_chunked(uint8_t *dst, const uint8_t *src, uint64_t n);

/*
 * What a layout shows in bf_info beyond the members every filter has, one
 * member at a time: the core has no JSON of its own, so the server hands a
 * sink that builds its jsonb object from these calls (and the tests one that
 * writes text).  A member is a name and a number: an unsigned integer, or a
 * double written with 17 significant digits (exactly, as releases up to 1.2
 * wrote them).  BLOOM_INFO_LIST opens a named list, BLOOM_INFO_OBJECT an
 * object in a list (no name), BLOOM_INFO_END closes the last one opened.
 */
typedef enum BloomInfoKind
{
	BLOOM_INFO_UINT,
	BLOOM_INFO_REAL,
	BLOOM_INFO_LIST,
	BLOOM_INFO_OBJECT,
	BLOOM_INFO_END
} BloomInfoKind;

typedef struct BloomInfoSink BloomInfoSink;
struct BloomInfoSink
{
	void		(*put) (BloomInfoSink *sink, const char *name, BloomInfoKind kind,
						uint64_t u, double d);
};

static inline void
bloom_info_uint(BloomInfoSink *sink, const char *name, uint64_t value)
{
	sink->put(sink, name, BLOOM_INFO_UINT, value, 0.0);
}

static inline void
bloom_info_real(BloomInfoSink *sink, const char *name, double value)
{
	sink->put(sink, name, BLOOM_INFO_REAL, 0, value);
}

/* kind BLOOM_INFO_LIST (named) or BLOOM_INFO_OBJECT (in a list, name NULL) */
static inline void
bloom_info_open(BloomInfoSink *sink, const char *name, BloomInfoKind kind)
{
	sink->put(sink, name, kind, 0, 0.0);
}

static inline void
bloom_info_close(BloomInfoSink *sink)
{
	sink->put(sink, NULL, BLOOM_INFO_END, 0, 0.0);
}

/* room for a layout's describe text; longer text is cut */
#define BLOOM_DESCRIBE_MAX		256

/* the shape hint of layouts whose shape is their sizing and seed */
#define BLOOM_HINT_SAME_SIZING	"Create both filters with the same capacity, error rate and seed."
#define BLOOM_HINT_HASH_ENCODING	"A filter of hash id 2 was made by bloomfilter 1.4 or earlier and hashed text in its database's encoding; in a database whose encoding is not UTF8 it combines only with others of hash id 2. Rebuild it to combine it with newer filters."

/*
 * What a check reads.  A value's directory lists the parts of its payload
 * that checks look into (a plain filter's cells; each sub-filter of a
 * scalable or cuckoo filter), found from the header and, where parts are
 * laid out one after another with sizes of their own, from pieces of the
 * payload (sub-filter heads and descriptors); a check of one element then
 * reads a few spans of those parts (one block per part; two buckets per
 * cuckoo sub-filter).  Offsets count from the end of the 48-byte header.
 * The same functions answer from a whole value in memory and from the
 * spans alone fetched out of storage, so both give the same answers.
 */
#define BLOOM_MAX_PARTS		64
#define BLOOM_MAX_SPANS		(2 * BLOOM_MAX_PARTS)

typedef struct BloomSpan
{
	uint64_t	offset;
	uint32_t	len;
} BloomSpan;

typedef struct BloomPart
{
	uint64_t	offset;			/* of its cells */
	uint64_t	size;			/* blocks, buckets or hashes */
	uint32_t	width;			/* hashes per element, or fingerprint bits */
} BloomPart;

typedef struct BloomDir
{
	uint64_t	payload_len;	/* set by the caller before the walk */
	uint64_t	walked;			/* the walk's position: where the next part is */
	uint64_t	tally;			/* what the walk sums, to check at its end */
	uint32_t	param;			/* the layout's: slots per bucket (cuckoo),
								 * growth factor (scalable) */
	int			nparts;
	BloomPart	part[BLOOM_MAX_PARTS];
} BloomDir;

typedef int (*BloomSpansFn) (const BloomDir *dir, BloomHash h, BloomSpan *spans);
typedef int (*BloomAnswerFn) (const BloomDir *dir, const uint8_t *const *spans,
							  BloomHash h, bool count);
typedef void (*BloomAnswerManyFn) (const BloomDir *dir, const uint8_t *payload,
								   const BloomHash *hashes, const bool *skip, int n,
								   bool *found);

/*
 * A layout: how the payload after the header is organised, and the one
 * place that adds to, tests, combines and describes it.  The header's
 * layout byte picks the entry (bloom_layout_for); every I/O path,
 * validation, SQL function and fuzzer goes through it, and the server asks
 * the entry what the layout can do and how to show it, not its id (named
 * only where it is the format something makes: scripts/check-layouts.py).  A
 * new layout is a new file defining one of these plus its id and its line
 * in bloom_layouts[] (core/header.c); bloom_layout_problem says what an
 * entry lacks, and test/unit_layout.c adds a layout that way.
 *
 * Shapes are compared by same_shape before combine is called; add, combine
 * and the estimates keep hdr->bits_set (the layout's count of non-zero
 * cells) exact.
 */
typedef struct BloomLayout
{
	uint8_t		id;
	const char *name;			/* as bf_info shows it */

	/*
	 * The payload is a list of element hashes (layout 4): a union with any
	 * filter of the same seed and hash id adds them to it.
	 */
	bool		holds_hashes;

	/*
	 * What the layout can do, for callers to ask rather than test its
	 * callbacks: grows (add may take fewer than n, and then grown_bytes and
	 * grow make room), removes (remove is set), intersects (combine takes
	 * intersect = true).  bloom_layout_problem holds them to the callbacks.
	 */
	bool		grows;
	bool		removes;
	bool		intersects;

	/*
	 * Texts of errors: why an intersection is refused (detail, and a hint
	 * or NULL) for a layout that does not intersect; the hint of a shape
	 * error between two values of the layout (or, for one that holds
	 * hashes, between it and any value).
	 */
	const char *no_intersect_detail;
	const char *no_intersect_hint;
	const char *shape_hint;
	/* optional: the detail of the error when grown_bytes says it cannot grow */
	const char *no_grow_detail;

	/*
	 * The one hash id the layout's values have, for a layout that is the
	 * format of another system (Guava's: 3, RedisBloom's: 4); 0 for the
	 * layouts that hash with MurmurHash3 (ids 1 and 2), which only they
	 * take.
	 */
	uint8_t		hash_id;

	/*
	 * Optional: the key types the layout takes (NULL: any a filter may
	 * record), and the hint of the error that refuses another.
	 */
	bool		(*key_type_ok) (uint32_t key_type);
	const char *key_types_hint;

	/* everything checkable without the payload, against its length */
	BloomCheck	(*check_header) (const BloomHeader *hdr, size_t payload_len);
	/* what needs the payload itself (counts kept in the header) */
	BloomCheck	(*check_payload) (const BloomHeader *hdr, const uint8_t *payload);
	uint64_t	(*payload_bytes) (const BloomHeader *hdr);

	/*
	 * How a check reads the payload, so that a stored value can be checked
	 * by fetching only what it needs (type/probe.c: TOAST chunks).
	 * dir_next walks the value's directory (BloomDir): called first with
	 * piece NULL, then with the bytes of each piece it named in *next, it
	 * records the parts checks look into and names the next piece (next->len
	 * 0: the walk is done); what it finds wrong ends the walk.  spans: the
	 * stretches of the payload a check of h reads (at most two per part of
	 * the directory, so at most BLOOM_MAX_SPANS);
	 * answer: from those bytes, in that order, whether h is present, or
	 * (count) how often it was added, at most (a plain filter: 0 or 1).
	 */
	BloomCheck	(*dir_next) (const BloomHeader *hdr, BloomDir *dir,
						  const uint8_t *piece, BloomSpan *next);
	/*
	 * Optional: complete dir, whose walk stopped at a piece not read yet,
	 * with the parts the layout's own shapes predict from there, and list
	 * the pieces (at most max) the walk would read to confirm them, so that
	 * a stored value's walk fetches those pieces, and the spans of an
	 * element in the predicted parts, together with the piece it lacks.
	 * A wrong prediction costs chunk reads for nothing, never an answer:
	 * the walk still reads each piece where the pieces before it say.
	 */
	int			(*dir_predict) (const BloomHeader *hdr, BloomDir *dir,
								BloomSpan *pieces, int max);
	BloomSpansFn spans;
	BloomAnswerFn answer;
	/*
	 * Optional: whether each of n elements is present, in a payload in
	 * memory of which dir is the walk (found[i] false where skip[i]): a
	 * batch can request its elements' lines before testing them and call
	 * nothing per element.  NULL: spans and answer per element.
	 */
	BloomAnswerManyFn answer_many;

	/*
	 * Add n hashes (a batch lets the layout overlap cache misses); returns
	 * how many were taken.  Fewer than n means the layout must grow first:
	 * grown_bytes gives the payload size after growing (0: it cannot, the
	 * value would exceed BLOOM_MAX_BYTES), grow copies the payload into the
	 * larger buffer and extends it; then the rest are added.  Layouts of a
	 * fixed size take all and leave both NULL.
	 */
	size_t		(*add) (BloomHeader *hdr, uint8_t *payload,
						const BloomHash *hashes, size_t n);
	/*
	 * Optional, for the aggregates' states, whose adds come in batches and
	 * whose count is read once at the end: add_uncounted adds as add does
	 * but leaves hdr->bits_set behind, and recount gives it from the
	 * payload.  A layout that grows decides by its counts, and has neither.
	 */
	void		(*add_uncounted) (const BloomHeader *hdr, uint8_t *payload,
								  const BloomHash *hashes, size_t n);
	uint64_t	(*recount) (const BloomHeader *hdr, const uint8_t *payload);
	uint64_t	(*grown_bytes) (const BloomHeader *hdr, const uint8_t *payload);
	void		(*grow) (BloomHeader *hdr, const uint8_t *payload, uint8_t *grown);
	/* take h out again if it tests present (returns whether); NULL: cannot */
	bool		(*remove) (BloomHeader *hdr, uint8_t *payload, BloomHash h);
	bool		(*same_shape) (const BloomHeader *a, const BloomHeader *b);
	/*
	 * Union or intersection into dst, of two values whose headers are of
	 * the same shape and dst's payload at least as large as src's.  Returns
	 * false if the payloads turn out not to match (a shape error), or if the
	 * layout cannot intersect.
	 */
	bool		(*combine) (BloomHeader *hdr, uint8_t *dst,
							const BloomHeader *src_hdr, const uint8_t *src,
							bool intersect);

	/*
	 * Whether a union of two values of the same shape (dst's payload at
	 * least as large) would hold more than the layout can at its rate:
	 * -1 if not, else the part that would be overfilled, with its
	 * estimated rate after the union and the rate it may have.  NULL: a
	 * union never changes the rate (plain and counting filters: it is the
	 * filter of both inputs' elements).
	 */
	int			(*union_overfills) (const BloomHeader *hdr, const uint8_t *dst,
									const BloomHeader *src_hdr, const uint8_t *src,
									double *fpp, double *limit);
	double		(*cardinality) (const BloomHeader *hdr, const uint8_t *payload);
	double		(*fpp) (const BloomHeader *hdr, const uint8_t *payload);

	/*
	 * The rate the header alone predicts, for the planner, which would
	 * rather not read a payload; NULL if the header's fields cannot tell
	 * (fpp over the payload answers then).
	 */
	double		(*header_fpp) (const BloomHeader *hdr);

	/*
	 * The value's shape as a shape error shows each operand ("The first
	 * filter has ..."): the fields that decide it, seed included, but not
	 * the hash id, which the server adds; written as snprintf would
	 * (returns the length it needs).
	 */
	size_t		(*describe) (const BloomHeader *hdr, char *buf, size_t size);

	/*
	 * bf_info's members that depend on the layout, into sink: the header
	 * fields whose meaning is the layout's (nbits, nhashes) and whatever
	 * else it has to show.
	 */
	void		(*info) (const BloomHeader *hdr, const uint8_t *payload,
						 BloomInfoSink *sink);

	/*
	 * An aggregate's state is about to be built into payload, to be unioned
	 * with at most nparts - 1 others (0 or 1: none); finish: a value leaves
	 * the aggregate, or is changed outside one.  Layouts whose rate depends
	 * on how full their parts are (scalable) use these; NULL for the others.
	 */
	void		(*partial) (BloomHeader *hdr, uint8_t *payload, int nparts);
	void		(*finish) (BloomHeader *hdr, uint8_t *payload);
} BloomLayout;

/*
 * Callers that buffer hashes (the aggregate's state, the index build) hand
 * a layout's add this many at a time.  The add requests the cells of the
 * hash BLOOM_PREFETCH_AHEAD places ahead while it applies the current one,
 * so that cache misses overlap.  In a backend's build, requesting a whole
 * batch before its first add measured fastest (probably because between two
 * batches the scan evicts the filter's lines and page-table entries, so
 * that each add pays a walk as well as a miss, and more of them in flight
 * overlap better): distances of 16, 32 and 48 measured 5-25% slower
 * there (counting builds most, whose elements have four lines each), though
 * in a C loop over hashes alone they were a little faster (bench/RESULTS.md,
 * "Builds, second pass").
 */
#define BLOOM_ADD_BATCH		256
#define BLOOM_PREFETCH_AHEAD	BLOOM_ADD_BATCH

/* NULL for a layout id this build does not know */
extern const BloomLayout *bloom_layout_for(uint8_t id);

/*
 * Blocks.  A blocked filter (layout 1), a counting one's cells and each
 * sub-filter of a scalable one put an element in one block of the payload,
 * chosen from h1; a cuckoo filter picks its buckets and the shards their
 * numbers the same way.
 */

/* one 64-byte (cache line) block per element */
#define BLOOM_BLOCK_BYTES		64
#define BLOOM_BLOCK_BITS		(BLOOM_BLOCK_BYTES * 8)

/* which block an element lives in: high half of h1 * nblocks */
static inline uint64_t
bloom_block_of(uint64_t h1, uint64_t nblocks)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t) (((unsigned __int128) h1 * nblocks) >> 64);
#else
	uint64_t	a_lo = h1 & 0xFFFFFFFF,
				a_hi = h1 >> 32,
				b_lo = nblocks & 0xFFFFFFFF,
				b_hi = nblocks >> 32;
	uint64_t	lo_lo = a_lo * b_lo,
				hi_lo = a_hi * b_lo,
				lo_hi = a_lo * b_hi,
				hi_hi = a_hi * b_hi;
	uint64_t	cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFF) + lo_hi;

	return (cross >> 32) + (hi_lo >> 32) + hi_hi;
#endif
}

/*
 * The spans of the layouts built of blocks (blocked, counting, scalable):
 * the element's block in a directory of one part, of blocks of bytes each
 * (returns 1, the spans named); or in each part, the newest (last) part
 * first (returns how many: one a part).
 */
extern int	bloom_dir_block_span(const BloomDir *dir, uint32_t bytes, BloomHash h,
								 BloomSpan *span);
extern int	bloom_dir_block_spans(const BloomDir *dir, uint32_t bytes, BloomHash h,
								  BloomSpan *spans);

/*
 * The header of a layout built of blocked cells (blocked, counting),
 * cell_bits bits to a cell, against the payload's length.
 */
extern BloomCheck bloom_check_cells(const BloomHeader *hdr, size_t payload_len, int cell_bits);

/* what an entry lacks or contradicts, NULL if nothing (the unit tests ask) */
extern const char *bloom_layout_problem(const BloomLayout *layout);

/*
 * Helpers of layouts whose header fields mean what a blocked filter's do:
 * describe text ("N bits, k hashes, seed S" with cells named as given, or
 * "capacity N at error rate R, seed S", then ", layout NAME" unless name is
 * NULL), the rate fill^k of the header's count of cells set, and bf_info's
 * nbits and nhashes members.
 */
extern size_t bloom_describe_cells(const BloomHeader *hdr, const char *cells,
								   const char *name, char *buf, size_t size);
extern size_t bloom_describe_sized(const BloomHeader *hdr, const char *name,
								   char *buf, size_t size);
extern double bloom_fill_fpp(const BloomHeader *hdr);
extern void bloom_info_cells(const BloomHeader *hdr, BloomInfoSink *sink);

/*
 * The directory of a payload in memory (payload_len bytes, which the header
 * must have been validated against), and a check of it that way: what the
 * unit tests and fuzzers use; the server keeps the directory instead.
 */
extern BloomCheck bloom_dir_read(const BloomLayout *layout, const BloomHeader *hdr,
								 const uint8_t *payload, uint64_t payload_len,
								 BloomDir *dir);
extern int	bloom_answer_payload(const BloomLayout *layout, const BloomHeader *hdr,
								 const uint8_t *payload, BloomHash h, bool count);
/* dir_next of a layout whose payload is one part from its start */
extern BloomCheck bloom_dir_single(BloomDir *dir, uint64_t size, uint32_t width,
								   BloomSpan *next);

static inline bool
bloom_test_payload(const BloomLayout *layout, const BloomHeader *hdr,
				   const uint8_t *payload, BloomHash h)
{
	return bloom_answer_payload(layout, hdr, payload, h, false) != 0;
}

/*
 * Layout 6 (core/redisbloom.c): RedisBloom's hash, its key types, a new
 * chain as BF.RESERVE makes it, and what a dump's chunks are.
 */
extern uint64_t bloom_murmur64a(const void *key, size_t len, uint64_t seed);
extern BloomHash bloom_redis_hash(const void *key, size_t len);
extern bool bloom_redis_key_type_ok(uint32_t key_type);
extern bool bloom_redis_header(BloomHeader *hdr, uint64_t capacity, double error_rate,
							   uint32_t expansion, uint64_t *payload_bytes);
extern void bloom_redis_init(const BloomHeader *hdr, uint32_t expansion, uint8_t *payload);
extern BloomCheck bloom_redis_read_head(const uint8_t *head, size_t len, BloomHeader *hdr,
										const char **why);
extern uint64_t bloom_redis_count_bits(const BloomHeader *hdr, const uint8_t *payload);
extern uint64_t bloom_redis_head_bytes(const BloomHeader *hdr);
extern uint64_t bloom_redis_link_bytes(const uint8_t *payload, uint32_t i);

/* name of a hash id as bf_info shows it; NULL if unknown */
extern const char *bloom_hash_name(uint8_t hash_id);

/*
 * Whether text here is UTF-8 already, so that hash ids 2 and 5 hash alike;
 * the core cannot ask the server, so the glue sets this when it loads
 * (NULL: never alike).
 */
extern bool (*bloom_text_is_utf8) (void);
extern bool bloom_hash_ids_alike(uint8_t a, uint8_t b);

/* header codec */
extern void bloom_header_decode(const uint8_t *buf, BloomHeader *hdr);
extern void bloom_header_encode(const BloomHeader *hdr, uint8_t *buf);
extern void bloom_header_init(BloomHeader *hdr, uint64_t capacity,
							  double error_rate, uint32_t seed,
							  uint64_t nbits, int nhashes);

/* header plus payload; the header must have passed bloom_validate_header */
static inline size_t
bloom_total_bytes(const BloomHeader *hdr)
{
	return BLOOM_HEADER_SIZE +
		(size_t) bloom_layout_for(hdr->layout)->payload_bytes(hdr);
}

/* validation: the one check every path from outside bytes goes through */
extern BloomCheck bloom_validate(const uint8_t *buf, size_t len,
								 BloomHeader *hdr);
extern BloomCheck bloom_validate_header(const BloomHeader *hdr, size_t len);
extern BloomCheck bloom_validate_payload(const BloomHeader *hdr,
										 const uint8_t *payload);
extern const char *bloom_check_message(BloomCheck check);
extern bool bloom_same_shape(const BloomHeader *a, const BloomHeader *b);

/* base64 (RFC 4648, padded, no line breaks) for the text form */
extern size_t bloom_base64_encoded_len(size_t len);
extern void bloom_base64_encode(const uint8_t *src, size_t len, char *dst);
extern bool bloom_base64_decode(const char *src, size_t srclen,
								uint8_t *dst, size_t *dstlen);
extern size_t bloom_base64_decoded_max(size_t srclen);

#endif							/* BLOOM_CORE_H */
