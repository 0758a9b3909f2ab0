/*-------------------------------------------------------------------------
 *
 * cuckoo.h
 *	  Server-independent core of the cuckoofilter type: the stored header,
 *	  sub-filters, validation, adds, deletes, checks and merges (sizing:
 *	  core/cuckoo_sizing.h, included here).
 *
 * Nothing here includes PostgreSQL headers, so the unit tests, fuzzers and
 * benchmarks link it alone.  core/cuckoo.c has the design notes.
 *
 * src/core/cuckoo.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CUCKOO_H
#define BLOOM_CUCKOO_H

#include "core/cuckoo_sizing.h"

#define CUCKOO_MAGIC			0x464F4B43	/* "CKOF" read as LE uint32 */
#define CUCKOO_VERSION			1

/* where each header field starts (the table in core/cuckoo.c, docs/format.md) */
#define CUCKOO_OFF_MAGIC		0
#define CUCKOO_OFF_VERSION		4
#define CUCKOO_OFF_HASH_ID		5
#define CUCKOO_OFF_BUCKET_SIZE	6
#define CUCKOO_OFF_FP_BITS		7
#define CUCKOO_OFF_SEED			8
#define CUCKOO_OFF_NSUB			12
#define CUCKOO_OFF_MAX_KICKS	14
#define CUCKOO_OFF_CAPACITY		16
#define CUCKOO_OFF_ERROR_RATE	24
#define CUCKOO_OFF_ITEMS		32
#define CUCKOO_OFF_KEY_TYPE		40
#define CUCKOO_OFF_RESERVED		44
/* and each field of a sub-filter's descriptor; the rest of it is zero */
#define CUCKOO_SUB_OFF_NBUCKETS	0
#define CUCKOO_SUB_OFF_COUNT	8
#define CUCKOO_SUB_OFF_FP_BITS	16

#define CUCKOO_MAX_SUBFILTERS	64
/* kicks per insertion before a sub-filter counts as full */
#define CUCKOO_DEFAULT_MAX_KICKS 500
#define CUCKOO_MAX_KICKS_LIMIT	4096
/*
 * Seeds cf_create refuses: MurmurHash3 of a key of at most 8 bytes whose
 * length equals the seed gives h2 = 1.5 h1, so a fingerprint is a function
 * of its bucket (seed 8 and integer keys: a 77% rate at capacity for 1%).
 */
#define CUCKOO_WEAK_SEED_MAX	8
/* smallest rate cf_create sizes for: fingerprints are at most 32 bits */
#define CUCKOO_MIN_ERROR_RATE	1e-8

/* Decoded header, host byte order. */
typedef struct CuckooHeader
{
	uint8_t		version;
	uint8_t		hash_id;
	uint8_t		bucket_size;	/* slots per bucket: 2, 4 or 8 */
	uint8_t		fp_bits;		/* of the first sub-filter */
	uint32_t	seed;
	uint16_t	nsub;			/* sub-filters, 1 .. CUCKOO_MAX_SUBFILTERS */
	uint16_t	max_kicks;
	uint64_t	capacity;
	double		error_rate;
	uint64_t	items;			/* occupied slots over all sub-filters */
	uint32_t	key_type;		/* as bloomfilter's: bloom_key_type_valid */
	uint32_t	reserved;		/* zero in version 1 */
} CuckooHeader;

/* One sub-filter as found in a value. */
typedef struct CuckooSub
{
	uint64_t	nbuckets;
	uint64_t	count;			/* occupied slots */
	uint8_t		fp_bits;
	uint8_t    *desc;			/* its 24-byte descriptor in the value */
	uint8_t    *slots;			/* packed fingerprints */
	size_t		slot_bytes;
	uint64_t	room;			/* entries adds may put here (cuckoo_room) */
} CuckooSub;

/*
 * A value opened for work: the decoded header and where each sub-filter
 * is.  Adds and deletes write through to the bytes (slots, counts and the
 * header's item count), so the bytes are always a complete value.
 */
typedef struct CuckooView
{
	CuckooHeader hdr;
	uint8_t    *buf;			/* the value, header first */
	size_t		len;
	CuckooSub	sub[CUCKOO_MAX_SUBFILTERS];
} CuckooView;

typedef enum CuckooCheck
{
	CUCKOO_OK = 0,
	CUCKOO_BAD_LENGTH,
	CUCKOO_BAD_MAGIC,
	CUCKOO_BAD_VERSION,
	CUCKOO_BAD_HASH,
	CUCKOO_BAD_RESERVED,
	CUCKOO_BAD_BUCKET_SIZE,
	CUCKOO_BAD_FP_BITS,
	CUCKOO_BAD_NSUB,
	CUCKOO_BAD_KICKS,
	CUCKOO_BAD_CAPACITY,
	CUCKOO_BAD_ERROR_RATE,
	CUCKOO_BAD_NBUCKETS,
	CUCKOO_BAD_COUNT,
	CUCKOO_BAD_PADDING,
	CUCKOO_BAD_KEY_TYPE,
	CUCKOO_BAD_FIRST_SLOTS
} CuckooCheck;

/* write an empty filter into buf (cuckoo_empty_bytes long) */
extern void cuckoo_init(uint8_t *buf, uint64_t capacity, double error_rate,
						uint32_t seed, int bucket_size, int fp_bits,
						uint64_t nbuckets);

extern void cuckoo_header_decode(const uint8_t *buf, CuckooHeader *hdr);
extern void cuckoo_header_encode(const CuckooHeader *hdr, uint8_t *buf);

/*
 * cuckoo_open: the header and the sub-filter directory against the length,
 * O(sub-filters); what every read of a stored value does.  cuckoo_validate:
 * that plus the key type's list, the payload (counts against the slots,
 * zero padding) and the first sub-filter against the capacity; what every
 * input path does.  Both fill *v (which may then be written through if buf
 * is writable).
 */
extern CuckooCheck cuckoo_open(const uint8_t *buf, size_t len, CuckooView *v);
/* the header alone, against the value's length (what cuckoo_open checks first) */
extern CuckooCheck cuckoo_header_check(const uint8_t *buf, size_t len, CuckooHeader *hdr);
extern CuckooCheck cuckoo_validate(const uint8_t *buf, size_t len, CuckooView *v);
extern const char *cuckoo_check_message(CuckooCheck check);

/* same hash id, seed, bucket size and first sub-filter: mergeable */
extern bool cuckoo_same_shape(const CuckooView *a, const CuckooView *b);

extern bool cuckoo_contains(const CuckooView *v, BloomHash h);
extern uint64_t cuckoo_count(const CuckooView *v, BloomHash h);

/*
 * Checks by the spans they read (core/header.h: BloomDir), as the layouts of
 * bloomfilter make them: the directory walk over the sub-filters'
 * descriptors (offsets after the 48-byte header; dir->payload_len set to
 * the value's length less the header), the two buckets of each sub-filter
 * an element maps to, and the answer from them: cuckoo_contains (or
 * cuckoo_count) of the whole value.
 */
extern CuckooCheck cuckoo_dir_next(const CuckooHeader *hdr, BloomDir *dir,
								   const uint8_t *piece, BloomSpan *next);
extern int	cuckoo_dir_predict(const CuckooHeader *hdr, BloomDir *dir,
							   BloomSpan *pieces, int max);
extern int	cuckoo_spans(const BloomDir *dir, BloomHash h, BloomSpan *spans);
extern int	cuckoo_answer(const BloomDir *dir, const uint8_t *const *spans, BloomHash h,
						  bool count);

/*
 * Add: false when no sub-filter has room (below its room, within the kick
 * limit); the value is then exactly as before, and the caller appends the
 * sub-filter cuckoo_next_sub names (cuckoo_grow) and adds again, which
 * succeeds.
 */
extern bool cuckoo_add(CuckooView *v, BloomHash h);
/*
 * hashes[0..n-1] added in order as by cuckoo_add, requesting ahead what
 * later adds will read; returns how many went in (fewer than n: the next
 * found no room, and the value is as before it).
 */
extern size_t cuckoo_add_batch(CuckooView *v, const BloomHash *hashes, size_t n);

typedef enum CuckooDelete
{
	CUCKOO_DELETE_ABSENT = 0,	/* no entry matches: nothing changed */
	CUCKOO_DELETE_DONE,			/* one matching entry removed */
	CUCKOO_DELETE_KEPT			/* matches in sub-filters of different
								 * shapes: which is the element's cannot be
								 * told, so nothing changed */
} CuckooDelete;

/* remove one copy, if that cannot take another element's entry */
extern CuckooDelete cuckoo_delete(CuckooView *v, BloomHash h);

typedef enum CuckooGrowth
{
	CUCKOO_GROW_OK = 0,
	CUCKOO_GROW_SUBFILTERS,		/* already CUCKOO_MAX_SUBFILTERS */
	CUCKOO_GROW_FP_BITS,		/* no f <= 32 meets its share within the
								 * size limit */
	CUCKOO_GROW_SIZE			/* over CUCKOO_MAX_BYTES */
} CuckooGrowth;

/* shape of the sub-filter growth appends, or why there is none */
extern CuckooGrowth cuckoo_next_sub(const CuckooView *v, uint64_t *nbuckets, int *fp_bits);
/* length after appending a sub-filter of that shape; 0 if over the limit */
extern size_t cuckoo_grown_bytes(const CuckooView *v, uint64_t nbuckets, int fp_bits);

/*
 * Append an empty sub-filter: dst (cuckoo_grown_bytes long) gets a copy of
 * v's value plus the new sub-filter, and v is reopened on dst.  dst is
 * either v's buffer itself, reallocated to the grown length (no copy), or
 * does not overlap it.
 */
extern void cuckoo_grow(CuckooView *v, uint8_t *dst, uint64_t nbuckets, int fp_bits);

/*
 * Merge src's fingerprints into dst, each at its own bucket pair in a
 * sub-filter of dst of the same shape.  Resumable: *cursor starts at 0;
 * returns true when done; false when a fingerprint found no room, with
 * the shape to append in *nbuckets and *fp_bits (the caller grows dst and
 * calls again with the same cursor).
 */
extern bool cuckoo_merge(CuckooView *dst, const CuckooView *src, uint64_t *cursor,
						 uint64_t *nbuckets, int *fp_bits);

/* estimated false-positive rate at the current fill, all sub-filters */
extern double cuckoo_fpp(const CuckooView *v);
/* total slots over all sub-filters */
extern uint64_t cuckoo_slots(const CuckooView *v);

#endif							/* BLOOM_CUCKOO_H */
