/*-------------------------------------------------------------------------
 *
 * kind.h
 *	  The table of operations every filter kind implements (BloomKind), the
 *	  handle of a value opened through it (BloomValue), and what the table
 *	  offers every caller besides (type/kind.c).
 *
 * A kind is a filter type: bloomfilter, whose entry (type/kind_bloom.c)
 * goes on through the layout table of core/header.h, and cuckoofilter,
 * whose entry (type/kind_cuckoo.c) calls the cuckoo core.  The generic glue
 * above them (changes, combining, I/O, checks, info and introspection of
 * both types) asks the table, and the SQL functions of both types are thin
 * wrappers that pass their kind.
 *
 * src/type/kind.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_KIND_H
#define BLOOMFILTER_KIND_H

#include "postgres.h"

#include "fmgr.h"
#include "lib/stringinfo.h"

#include "core/cuckoo.h"
#include "type/keys.h"
#include "type/value.h"

typedef struct BloomKind BloomKind;
struct BloomJson;				/* type/jsonb.h */

/*
 * Loops that hash or look up an element a step check for a cancel every
 * this many steps (a power of 2): a few thousand such steps take well
 * under a millisecond.
 */
#define BLOOM_INTERRUPT_ELEMS	4096

/*
 * A value opened through its kind: read-only (flat NULL), or a writable
 * value (flat: a copy of our own, or an aggregate's state it owns) that the
 * kind's changes keep complete, growing it into new memory when they must
 * (flat then follows).  The view is the
 * kind's own: a bloomfilter's header and payload, or a cuckoo filter's
 * header and sub-filters (about 3.5 kB, fine on the stack).
 */
typedef struct BloomValue
{
	struct varlena *flat;
	bool		owned;			/* flat is ours: growth may reallocate it */
	union
	{
		BloomView	bloom;
		CuckooView	cuckoo;
	}			v;
} BloomValue;

/* A value opened for checks (type/probe.c). */
typedef struct BloomOpened
{
	const BloomKind *kind;
	union
	{
		BloomHeader bloom;
		CuckooHeader cuckoo;
	}			hdr;
	const BloomLayout *layout;	/* a bloomfilter's */
	BloomHashParams hash;		/* what hashing an element reads */
	BloomSpansFn spans;
	BloomAnswerFn answer;
	BloomAnswerManyFn answer_many;	/* optional: NULL, answer per element */
	BloomDir	dir;
	const uint8 *payload;		/* in memory, after the header; or NULL */
} BloomOpened;

/* what bf_create and cf_create pass a kind's create */
typedef struct BloomCreateArgs
{
	int64		capacity;
	double		error_rate;
	int64		seed;
	Oid			key_typid;		/* as given, not checked yet; InvalidOid: none */
	FunctionCallInfo fcinfo;	/* for the kind's own options */
} BloomCreateArgs;

/* what the planner knows of a filter (type/planner.c) */
typedef struct BloomFacts
{
	double		fpp;			/* false-positive rate at its fill */
	uint32		key_type;
	uint8		hash_id;
} BloomFacts;

/*
 * What a filter kind implements.  Every member is required: bloom_kind_problem
 * names one that is missing, and _PG_init refuses to load with it.
 */
struct BloomKind
{
	const char *type_name;		/* the SQL type, in literal errors */

	/*
	 * Messages that name the kind, each a whole sentence (gettext_noop in
	 * the entry), because a translator cannot inflect a noun or a verb put
	 * in with %s: a value that fails validation; operands of different
	 * shape, of a union (what the kind calls one: bloomfilter's union,
	 * cuckoofilter's merge) and of an intersection; and a refused change of
	 * key type, whose two %s are the key types.
	 */
	const char *invalid_value_msg;
	const char *shape_union_msg;
	const char *shape_intersect_msg;
	const char *set_key_type_msg;

	/*
	 * bf_create and cf_create: NULL in their first create_nstrict arguments
	 * gives NULL; argument create_key_arg is the key type
	 */
	int			create_nstrict;
	int			create_key_arg;

	/*
	 * ---- checks of stored values (type/probe.c) ----
	 *
	 * open: decode the header (the first BLOOM_HEADER_SIZE bytes at front)
	 * and check it against len, the value's length; set o's header, hashing
	 * parameters, spans and answer.  Raises XX001 if the header is wrong.
	 * dir_next: a step of the directory walk (BloomLayout.dir_next); raises
	 * if wrong.  dir_predict: the rest of dir predicted, and its pieces
	 * (BloomLayout.dir_predict; 0 where the kind cannot).  read_bytes: the
	 * bytes of a value of any form, read-only.  corrupt_length: raise XX001
	 * for a value too short for what it says.
	 */
	void		(*open) (BloomOpened *o, const uint8 *front, size_t len);
	void		(*dir_next) (BloomOpened *o, const uint8 *piece, BloomSpan *next);
	int			(*dir_predict) (const BloomOpened *o, BloomDir *dir, BloomSpan *pieces,
								int max);
	const uint8 *(*read_bytes) (Datum d, size_t *len);
	void		(*corrupt_length) (void);

	/*
	 * ---- opening and writing values ----
	 *
	 * validate: NULL if buf holds a valid value, else what is wrong (every
	 * input path).  out_bytes: the bytes output and send show, after the
	 * checks the kind makes of a value it reads.  read: the whole value,
	 * read-only.  look: what a change decides by before it copies (at least
	 * the header).  copy: a private writable copy.  adopt: a flat value the
	 * calling aggregate owns, to be changed in place.  finish: the opened
	 * header written into the writable value.
	 */
	const char *(*validate) (const uint8 *buf, size_t len);
	const uint8 *(*out_bytes) (Datum d, size_t *len);
	void		(*read) (Datum d, BloomValue *val);
	void		(*look) (Datum d, BloomValue *val);
	void		(*copy) (Datum d, BloomValue *val);
	void		(*adopt) (struct varlena *flat, BloomValue *val);
	void		(*finish) (BloomValue *val);

	/* hashing parameters, emptiness (for a first add's key type), key type */
	BloomHashParams (*hash_params) (const BloomValue *val);
	bool		(*is_empty) (const BloomValue *val);
	/* into the opened header; in the value from the next change or finish */
	void		(*set_key_type) (BloomValue *val, uint32 key_type);

	/*
	 * ---- changes ----
	 *
	 * test: whether h is present in what look or read opened (1 or 0), or -1
	 * if that cannot tell (the header alone).  add: n hashes, growing the
	 * value as the kind grows.  check_removable: refuse, with the user's
	 * error, a value that cannot forget; true if it opened val's look on the
	 * way.  remove: n hashes taken out again where present.
	 */
	int			(*test) (const BloomValue *val, BloomHash h);
	void		(*add) (BloomValue *val, const BloomHash *hashes, size_t n);
	bool		(*check_removable) (Datum d, BloomValue *val);
	void		(*remove) (BloomValue *val, const BloomHash *hashes, size_t n);

	/*
	 * ---- combining two values ----
	 *
	 * look_shape: what check_combine compares, reading as little as the
	 * kind can.  check_combine: refuse operands that cannot be combined
	 * (with the user's errors, in the kind's order); returns the result's
	 * key type.  into_second: whether the result is made from a copy of b
	 * (the larger) rather than of a.  combine: src into dst; false if their
	 * payloads turn out not to match (then shape_error with the operands as
	 * looked at).  shape_hint: the hint of a shape error.
	 */
	void		(*look_shape) (Datum d, BloomValue *val);
	uint32		(*check_combine) (const BloomValue *a, const BloomValue *b, bool intersect);
	bool		(*into_second) (const BloomValue *a, const BloomValue *b);
	bool		(*combine) (BloomValue *dst, const BloomValue *src, bool intersect);
	const char *(*shape_hint) (const BloomValue *a, const BloomValue *b);

	/*
	 * ---- showing ----
	 *
	 * describe: the shape a shape error shows.  fpp: the estimated rate of
	 * a value read whole.  info: its members in an object begun, those
	 * every filter has first (bloom_json_begin_filter).  facts: what the
	 * planner needs, reading as little as the kind can.
	 */
	void		(*describe) (StringInfo buf, const BloomValue *val);
	double		(*fpp) (const BloomValue *val);
	void		(*info) (const BloomValue *val, struct BloomJson *js);
	void		(*facts) (Datum d, BloomFacts *facts);

	/* a new, empty filter (flat) from the arguments of bf_create or cf_create */
	void		(*create) (const BloomCreateArgs *args, BloomValue *val);
};

/*
 * Opening a value for checks (type/kind.c): its header from front (the
 * first BLOOM_HEADER_SIZE bytes of a value of len bytes), then its
 * directory from the payload of a value in memory.
 */
extern void bloom_opened_begin(BloomOpened *o, const BloomKind *kind, const uint8 *front,
							   size_t len);
extern void bloom_opened_walk_memory(BloomOpened *o, const uint8 *payload);

/* a piece or span a kind named must lie in the payload */
static inline void
bloom_opened_check_span(const BloomOpened *o, const BloomSpan *s)
{
	if (s->offset > o->dir.payload_len || s->len > o->dir.payload_len - s->offset)
		o->kind->corrupt_length();
}

/* what an entry lacks, NULL if nothing (_PG_init asks) */
extern const char *bloom_kind_problem(const BloomKind *kind);

/* the datum of a writable value */
static inline Datum
bloom_value_datum(const BloomValue *val)
{
	return PointerGetDatum(val->flat);
}

/* the error of operands of different shape, each described by its kind */
pg_noreturn extern void bloom_kind_shape_error(const BloomKind *kind, const BloomValue *a,
											   const BloomValue *b, bool intersect);

#endif							/* BLOOMFILTER_KIND_H */
