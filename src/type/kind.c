/*-------------------------------------------------------------------------
 *
 * kind.c
 *	  What the table of filter kinds (type/kind.h) offers every caller
 *	  besides the kinds' own operations: the error of operands of different
 *	  shape, which each kind describes, and the check that an entry is
 *	  complete.
 *
 * Nothing here knows a kind: it reaches them through the entry it is
 * handed, so that the kinds (type/kind_bloom.c, type/kind_cuckoo.c) can
 * call it while the generic glue above them calls them.
 *
 * src/type/kind.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "type/kind.h"

/* ---- opening a value for checks ---- */

/* the header from front (BLOOM_HEADER_SIZE bytes of a value of len bytes) */
void
bloom_opened_begin(BloomOpened *o, const BloomKind *kind, const uint8 *front, size_t len)
{
	if (len < BLOOM_HEADER_SIZE)
		kind->corrupt_length();
	o->kind = kind;
	kind->open(o, front, len);
	memset(&o->dir, 0, offsetof(BloomDir, part));
	o->dir.payload_len = len - BLOOM_HEADER_SIZE;
	o->payload = NULL;
}

/* the directory of a value in memory: each piece from the payload itself */
void
bloom_opened_walk_memory(BloomOpened *o, const uint8 *payload)
{
	const uint8 *piece = NULL;
	BloomSpan	next;

	for (;;)
	{
		o->kind->dir_next(o, piece, &next);
		if (next.len == 0)
			break;
		bloom_opened_check_span(o, &next);
		piece = payload + next.offset;
	}
	o->payload = payload;
}

/* ---- errors and entries ---- */

/*
 * The error of operands of different shape, each described by its kind,
 * with the kind's hint.
 */
void
bloom_kind_shape_error(const BloomKind *kind, const BloomValue *a, const BloomValue *b,
					   bool intersect)
{
	StringInfoData da,
				db;

	initStringInfo(&da);
	initStringInfo(&db);
	kind->describe(&da, a);
	kind->describe(&db, b);
	ereport(ERROR,
			(errcode(ERRCODE_DATA_EXCEPTION),
			 errmsg("%s", _(intersect ? kind->shape_intersect_msg : kind->shape_union_msg)),
			 errdetail("The first filter has %s; the second has %s.", da.data, db.data),
			 errhint("%s", kind->shape_hint(a, b))));
	pg_unreachable();
}

/* a member an entry must set: its name if it does not */
#define BLOOM_KIND_NEEDS(kind, member) \
	do { if ((kind)->member == NULL) return #member; } while (0)

/*
 * What a kind's entry lacks, NULL if nothing: every member of BloomKind
 * (scripts/check-kinds.py holds this list to the struct); _PG_init asks.
 */
const char *
bloom_kind_problem(const BloomKind *kind)
{
	BLOOM_KIND_NEEDS(kind, type_name);
	BLOOM_KIND_NEEDS(kind, invalid_value_msg);
	BLOOM_KIND_NEEDS(kind, shape_union_msg);
	BLOOM_KIND_NEEDS(kind, shape_intersect_msg);
	BLOOM_KIND_NEEDS(kind, set_key_type_msg);
	if (kind->create_nstrict < 2 || kind->create_key_arg < kind->create_nstrict)
		return "create_nstrict";
	BLOOM_KIND_NEEDS(kind, open);
	BLOOM_KIND_NEEDS(kind, dir_next);
	BLOOM_KIND_NEEDS(kind, dir_predict);
	BLOOM_KIND_NEEDS(kind, read_bytes);
	BLOOM_KIND_NEEDS(kind, corrupt_length);
	BLOOM_KIND_NEEDS(kind, validate);
	BLOOM_KIND_NEEDS(kind, out_bytes);
	BLOOM_KIND_NEEDS(kind, read);
	BLOOM_KIND_NEEDS(kind, look);
	BLOOM_KIND_NEEDS(kind, copy);
	BLOOM_KIND_NEEDS(kind, adopt);
	BLOOM_KIND_NEEDS(kind, finish);
	BLOOM_KIND_NEEDS(kind, hash_params);
	BLOOM_KIND_NEEDS(kind, is_empty);
	BLOOM_KIND_NEEDS(kind, set_key_type);
	BLOOM_KIND_NEEDS(kind, test);
	BLOOM_KIND_NEEDS(kind, add);
	BLOOM_KIND_NEEDS(kind, check_removable);
	BLOOM_KIND_NEEDS(kind, remove);
	BLOOM_KIND_NEEDS(kind, look_shape);
	BLOOM_KIND_NEEDS(kind, check_combine);
	BLOOM_KIND_NEEDS(kind, into_second);
	BLOOM_KIND_NEEDS(kind, combine);
	BLOOM_KIND_NEEDS(kind, shape_hint);
	BLOOM_KIND_NEEDS(kind, describe);
	BLOOM_KIND_NEEDS(kind, fpp);
	BLOOM_KIND_NEEDS(kind, info);
	BLOOM_KIND_NEEDS(kind, facts);
	BLOOM_KIND_NEEDS(kind, create);
	return NULL;
}
