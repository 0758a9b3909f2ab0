/*-------------------------------------------------------------------------
 *
 * kind_cuckoo.c
 *	  The cuckoofilter kind: its entry in the table of filter kinds
 *	  (type/kind.h), which calls the cuckoo core (core/cuckoo.c),
 *	  and what that needs: the stored reads of checks, reading the forms of
 *	  a value, writable copies, new filters, adds that grow, deletes,
 *	  merges, shape errors, cf_info's members, the planner's facts.
 *
 * A cuckoofilter is flat in every form; cf_agg's state is an expanded
 * object holding the flat value (a flat state of type/value.h, made by
 * type/agg.c), which reads here see through without naming the aggregate.
 * Every read checks the header and the sub-filter directory against the
 * length first (cuckoo_open, O(sub-filters)), so a value damaged since it
 * passed full validation on input raises XX001 instead of sending a read
 * past its end.  A cuckoo filter's view writes through to its bytes, so
 * finish has nothing left to write.
 *
 * src/type/kind_cuckoo.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"

#include "type/jsonb.h"
#include "type/kind.h"
#include "type/kind_cuckoo.h"
#include "type/params.h"
#include "type/value.h"

pg_noreturn static void
cf_report_corrupt(CuckooCheck check)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("cuckoo filter value is corrupt"),
			 errdetail_internal("%s", cuckoo_check_message(check))));
}

/* ---- checks of stored values ---- */

/*
 * A value opened for checks (type/probe.c): its header, checked against
 * len, and the core's functions that find and answer the spans of an
 * element.
 */
static void
cf_kind_open(BloomOpened *o, const uint8 *front, size_t len)
{
	CuckooHeader *hdr = &o->hdr.cuckoo;
	CuckooCheck check = cuckoo_header_check(front, len, hdr);

	if (check != CUCKOO_OK)
		cf_report_corrupt(check);
	o->hash = cf_hash_params(hdr);
	o->layout = NULL;
	o->spans = cuckoo_spans;
	o->answer = cuckoo_answer;
	o->answer_many = NULL;
}

static void
cf_kind_dir_next(BloomOpened *o, const uint8 *piece, BloomSpan *next)
{
	CuckooCheck check = cuckoo_dir_next(&o->hdr.cuckoo, &o->dir, piece, next);

	if (check != CUCKOO_OK)
		cf_report_corrupt(check);
}

static int
cf_kind_dir_predict(const BloomOpened *o, BloomDir *dir, BloomSpan *pieces, int max)
{
	return cuckoo_dir_predict(&o->hdr.cuckoo, dir, pieces, max);
}

static void
cf_kind_corrupt_length(void)
{
	cf_report_corrupt(CUCKOO_BAD_LENGTH);
}

/* ---- the forms of a value ---- */

static void
cf_open(const uint8 *bytes, size_t len, CuckooView *v)
{
	CuckooCheck check = cuckoo_open(bytes, len, v);

	if (check != CUCKOO_OK)
		cf_report_corrupt(check);
}

/*
 * The bytes of any form, read-only: the flat value inside cf_agg's state
 * (a flat state, type/value.h), in line as they are, anything else
 * detoasted into a fresh copy.
 */
static const uint8 *
cf_read_bytes(Datum d, size_t *len)
{
	return bloom_read_bytes(bloom_settled(d), len);
}

void
cf_read(Datum d, CuckooView *v)
{
	size_t		len;
	const uint8 *bytes = cf_read_bytes(d, &len);

	cf_open(bytes, len, v);
}

/* a writable copy in the current memory context, opened into v */
CuckooFilter *
cf_copy(Datum d, CuckooView *v)
{
	CuckooFilter *cf = bloom_value_copy(d);

	cf_open(CUCKOOFILTER_BYTES(cf), VARSIZE(cf) - VARHDRSZ, v);
	return cf;
}

/* write a key type into a writable value opened in v */
void
cf_set_key_type(CuckooView *v, uint32 key_type)
{
	v->hdr.key_type = key_type;
	cuckoo_header_encode(&v->hdr, v->buf);
}

/*
 * What a merge's shape check compares, the header and the first
 * sub-filter's descriptor, read from the front of a value of any form (a
 * slice of a stored one, a partial decompression, the flat value inside
 * cf_agg's result), so that a merge of filters that do not match fails
 * before either is copied whole.  Only those fields of v are set; a value
 * too short for them is corrupt.
 */
static void
cf_read_shape(Datum d, CuckooView *v)
{
	const Size	need = CUCKOO_HEADER_SIZE + CUCKOO_SUB_HEADER_SIZE;
	size_t		len;
	void	   *copy;
	const uint8 *bytes = bloom_read_front(bloom_settled(d), need, &len, &copy);

	if (len < need)
		cf_report_corrupt(CUCKOO_BAD_LENGTH);
	if (bloom_load32le(bytes) != CUCKOO_MAGIC)
		cf_report_corrupt(CUCKOO_BAD_MAGIC);
	memset(v, 0, offsetof(CuckooView, sub) + sizeof(CuckooSub));
	cuckoo_header_decode(bytes, &v->hdr);
	v->sub[0].nbuckets = bloom_load64le(bytes + CUCKOO_HEADER_SIZE + CUCKOO_SUB_OFF_NBUCKETS);
	v->sub[0].fp_bits = bytes[CUCKOO_HEADER_SIZE + CUCKOO_SUB_OFF_FP_BITS];
	if (copy != NULL)
		pfree(copy);
}

/* ---- new filters ---- */

/* a new, empty filter in cxt; its parameters checked with the user's errors */
CuckooFilter *
cf_create(int64 capacity, double error_rate, int64 seed, MemoryContext cxt)
{
	int			b,
				f;
	uint64		n;
	size_t		len;
	CuckooFilter *cf;

	bloom_check_capacity(capacity, &cuckoo_param_rules);
	bloom_check_error_rate(error_rate, &cuckoo_param_rules);
	bloom_check_seed(seed, &cuckoo_param_rules);
	if (seed >= 1 && seed <= CUCKOO_WEAK_SEED_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cuckoo filter seed must not be between 1 and %d", CUCKOO_WEAK_SEED_MAX),
				 errdetail("MurmurHash3 with a seed equal to a key's length in bytes (8 for every integer key) ties the key's fingerprint to its bucket, and the filter would answer \"present\" for most other keys."),
				 errhint("Use seed 0 or any seed above %d.", CUCKOO_WEAK_SEED_MAX)));
	if (!cuckoo_size((uint64) capacity, error_rate, &b, &f, &n))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoo filter for " INT64_FORMAT " elements at error rate %g is too large",
						capacity, error_rate),
				 errdetail("A cuckoo filter value is limited to %llu bytes.",
						   (unsigned long long) CUCKOO_MAX_BYTES)));
	len = cuckoo_empty_bytes(b, f, n);
	cf = bloom_palloc(cxt, VARHDRSZ + len);
	SET_VARSIZE(cf, VARHDRSZ + len);
	cuckoo_init(CUCKOOFILTER_BYTES(cf), (uint64) capacity, error_rate, (uint32) seed, b, f, n);
	return cf;
}

/* the key type is checked after the sizing, as cf_create always has */
static void
cf_kind_create(const BloomCreateArgs *args, BloomValue *val)
{
	CuckooFilter *cf = cf_create(args->capacity, args->error_rate, args->seed,
								 CurrentMemoryContext);

	cf_read(PointerGetDatum(cf), &val->v.cuckoo);
	if (OidIsValid(args->key_typid))
		cf_set_key_type(&val->v.cuckoo, bloom_key_type_arg(args->key_typid));
	val->flat = cf;
	val->owned = true;
}

/* ---- growth ---- */

/* the length of the value in v grown by a sub-filter; 54000 past the limit */
static size_t
cf_grown_len(const CuckooView *v, uint64 nbuckets, int fp_bits)
{
	size_t		len = cuckoo_grown_bytes(v, nbuckets, fp_bits);

	if (len == 0)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoo filter is full"),
				 errdetail("It holds " UINT64_FORMAT " items in %d sub-filters (%zu bytes); another sub-filter of " UINT64_FORMAT " buckets would exceed the limit of %d sub-filters or %llu bytes.",
						   v->hdr.items, v->hdr.nsub, v->len, nbuckets,
						   CUCKOO_MAX_SUBFILTERS, (unsigned long long) CUCKOO_MAX_BYTES),
				 errhint("Create the filter with a larger capacity, or use cf_add_nx to add each element once.")));
	return len;
}

/*
 * Grow *cf (opened in v) by the sub-filter of the given shape.  The size is
 * checked before anything is allocated.  A value of our own (free_old) is
 * reallocated to the grown length, so the old bytes need no copy, and a
 * large one (its own mapping) is extended by the kernel rather than held
 * twice; another's, such as the aggregate's state that the executor frees,
 * is copied into new memory in cxt.
 */
static void
cf_grow(CuckooFilter **cf, CuckooView *v, uint64 nbuckets, int fp_bits,
		MemoryContext cxt, bool free_old)
{
	size_t		len = cf_grown_len(v, nbuckets, fp_bits);
	size_t		oldlen = v->len;
	CuckooFilter *dst;

	CHECK_FOR_INTERRUPTS();
	if (free_old)
	{
		dst = repalloc(*cf, VARHDRSZ + len);
		/* repalloc may have moved the bytes: the view is opened on them again. */
		if (cuckoo_open(CUCKOOFILTER_BYTES(dst), oldlen, v) != CUCKOO_OK)
			elog(ERROR, "cuckoo filter changed while growing");
	}
	else
		dst = bloom_palloc(cxt, VARHDRSZ + len);
	SET_VARSIZE(dst, VARHDRSZ + len);
	cuckoo_grow(v, CUCKOOFILTER_BYTES(dst), nbuckets, fp_bits);
	*cf = dst;
}

/*
 * The shape an add that found no room appends (cf_grow reports the size
 * limit); an error if no sub-filter could keep the rate below twice the
 * requested one.
 */
static void
cf_next_growth(const CuckooView *v, uint64 *n, int *f)
{
	CuckooGrowth growth;

	*n = 0;
	*f = 0;
	growth = cuckoo_next_sub(v, n, f);
	if (growth == CUCKOO_GROW_FP_BITS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoo filter is full"),
				 errdetail("It holds " UINT64_FORMAT " items in %d sub-filters; to keep the rate below twice %g, another sub-filter would need fingerprints of more than %d bits or a size over the limit of %llu bytes.",
						   v->hdr.items, v->hdr.nsub, v->hdr.error_rate, CUCKOO_MAX_FP_BITS,
						   (unsigned long long) CUCKOO_MAX_BYTES),
				 errhint("Create the filter with a larger capacity or a higher error rate, or use cf_add_nx to add each element once.")));
	if (growth != CUCKOO_GROW_OK)
		*n = 0;
	if (*f == 0)
		*f = v->sub[v->hdr.nsub - 1].fp_bits;
}

/*
 * Add one hash, growing as needed: if free_old (the value is ours) it is
 * reallocated in place, else the grown value is new memory in cxt.
 */
static void
cf_add_hash(CuckooFilter **cf, CuckooView *v, BloomHash h, MemoryContext cxt,
			bool free_old)
{
	while (!cuckoo_add(v, h))
	{
		uint64		n;
		int			f;

		cf_next_growth(v, &n, &f);
		cf_grow(cf, v, n, f, cxt, free_old);
		free_old = true;		/* what we grew is ours */
	}
}

/*
 * Add n hashes in order to a value of ours (reallocated in place when it
 * grows), as n calls of cf_add_hash would: the core's batch adds them,
 * requesting ahead what later adds read, up to one that finds no room,
 * which goes in again after the growth cf_add_hash would make.
 */
void
cf_add_hashes(CuckooFilter **cf, CuckooView *v, const BloomHash *hashes, int n,
			  MemoryContext cxt)
{
	size_t		done = 0;

	while ((done += cuckoo_add_batch(v, hashes + done, (size_t) n - done)) < (size_t) n)
	{
		uint64		nbuckets;
		int			f;

		cf_next_growth(v, &nbuckets, &f);
		cf_grow(cf, v, nbuckets, f, cxt, true);
	}
}

/* ---- the kind's operations on an opened value ---- */

static const char *
cf_kind_validate(const uint8 *buf, size_t len)
{
	CuckooView	v;
	CuckooCheck check = cuckoo_validate(buf, len, &v);

	return check == CUCKOO_OK ? NULL : cuckoo_check_message(check);
}

/* output checks the structure first, as every read of a cuckoo filter does */
static const uint8 *
cf_kind_out_bytes(Datum d, size_t *len)
{
	CuckooView	v;

	cf_read(d, &v);
	*len = v.len;
	return v.buf;
}

/* a change reads the whole value: an add_nx or delete may leave it as it is */
static void
cf_kind_read(Datum d, BloomValue *val)
{
	val->flat = NULL;
	val->owned = false;
	cf_read(d, &val->v.cuckoo);
}

static void
cf_kind_copy(Datum d, BloomValue *val)
{
	val->flat = cf_copy(d, &val->v.cuckoo);
	val->owned = true;
}

static void
cf_kind_adopt(struct varlena *flat, BloomValue *val)
{
	cf_read(PointerGetDatum(flat), &val->v.cuckoo);
	val->flat = flat;
	val->owned = false;
}

static void
cf_kind_finish(BloomValue *val)
{
	(void) val;					/* the view wrote through already */
}

static BloomHashParams
cf_kind_hash_params(const BloomValue *val)
{
	return cf_hash_params(&val->v.cuckoo.hdr);
}

static bool
cf_kind_is_empty(const BloomValue *val)
{
	return val->v.cuckoo.hdr.items == 0;
}

static void
cf_kind_set_key_type(BloomValue *val, uint32 key_type)
{
	cf_set_key_type(&val->v.cuckoo, key_type);
}

static int
cf_kind_test(const BloomValue *val, BloomHash h)
{
	return cuckoo_contains(&val->v.cuckoo, h) ? 1 : 0;
}

/* each hash in turn: a cuckoo insertion is its own walk */
static void
cf_kind_add(BloomValue *val, const BloomHash *hashes, size_t n)
{
	CuckooFilter *cf = val->flat;

	for (size_t i = 0; i < n; i++)
	{
		cf_add_hash(&cf, &val->v.cuckoo, hashes[i], CurrentMemoryContext, val->owned);
		val->owned = true;		/* what grew is ours */
	}
	val->flat = cf;
}

/* every cuckoo filter can delete */
static bool
cf_kind_check_removable(Datum d, BloomValue *val)
{
	(void) d;
	(void) val;
	return false;
}

static void
cf_kind_remove(BloomValue *val, const BloomHash *hashes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		(void) cuckoo_delete(&val->v.cuckoo, hashes[i]);
}

/* ---- merging ---- */

static void
cf_kind_look_shape(Datum d, BloomValue *val)
{
	val->flat = NULL;
	val->owned = false;
	cf_read_shape(d, &val->v.cuckoo);
}

/* the shapes, then the key types */
static uint32
cf_kind_check_combine(const BloomValue *a, const BloomValue *b, bool intersect)
{
	const CuckooView *va = &a->v.cuckoo;
	const CuckooView *vb = &b->v.cuckoo;

	if (intersect)
		elog(ERROR, "cuckoo filters do not intersect");
	if (!cuckoo_same_shape(va, vb))
		bloom_kind_shape_error(&cuckoofilter_kind, a, b, false);
	return bloom_key_combine(va->hdr.key_type, va->hdr.items == 0,
							 vb->hdr.key_type, vb->hdr.items == 0,
							 gettext_noop("cannot merge filters of different key types"));
}

static bool
cf_kind_into_second(const BloomValue *a, const BloomValue *b)
{
	(void) a;
	(void) b;
	return false;
}

/* src's entries re-inserted at their buckets in dst, growing it as needed */
static bool
cf_kind_combine(BloomValue *dst, const BloomValue *src, bool intersect)
{
	CuckooFilter *cf = dst->flat;
	CuckooView *dv = &dst->v.cuckoo;
	uint64		cursor = 0;
	uint64		n;
	int			f;

	Assert(!intersect);
	if (!cuckoo_same_shape(dv, &src->v.cuckoo))
		return false;
	while (!cuckoo_merge(dv, &src->v.cuckoo, &cursor, &n, &f))
	{
		cf_grow(&cf, dv, n, f, CurrentMemoryContext, dst->owned);
		dst->owned = true;
	}
	dst->flat = cf;
	return true;
}

static const char *
cf_kind_shape_hint(const BloomValue *a, const BloomValue *b)
{
	if (a->v.cuckoo.hdr.hash_id != b->v.cuckoo.hdr.hash_id)
		return BLOOM_HINT_HASH_ENCODING;
	return BLOOM_HINT_SAME_SIZING;
}

/* ---- showing ---- */

static void
cf_kind_describe(StringInfo buf, const BloomValue *val)
{
	const CuckooView *v = &val->v.cuckoo;

	appendStringInfo(buf, "%d slots per bucket, " UINT64_FORMAT " buckets of %d-bit fingerprints, seed %u",
					 v->hdr.bucket_size, v->sub[0].nbuckets, v->sub[0].fp_bits, v->hdr.seed);
}

static double
cf_kind_fpp(const BloomValue *val)
{
	return cuckoo_fpp(&val->v.cuckoo);
}

/* cf_info: the header, the fill, and each sub-filter's shape */
static void
cf_kind_info(const BloomValue *val, BloomJson *js)
{
	const CuckooView *v = &val->v.cuckoo;
	uint64		slots = cuckoo_slots(v);
	uint64		buckets = 0;

	for (int i = 0; i < v->hdr.nsub; i++)
		buckets += v->sub[i].nbuckets;
	bloom_json_begin_filter(js, v->hdr.version, v->hdr.hash_id, v->hdr.seed, v->hdr.key_type,
							v->hdr.capacity, v->hdr.error_rate, (uint64) VARHDRSZ + v->len);
	bloom_json_uint(js, "bucket_size", v->hdr.bucket_size);
	bloom_json_uint(js, "fingerprint_bits", v->hdr.fp_bits);
	bloom_json_uint(js, "max_kicks", v->hdr.max_kicks);
	bloom_json_uint(js, "items", v->hdr.items);
	bloom_json_uint(js, "buckets", buckets);
	bloom_json_uint(js, "slots", slots);
	bloom_json_float8(js, "load", (double) v->hdr.items / (double) slots);
	bloom_json_float8(js, "fpp", cuckoo_fpp(v));
	bloom_info_open(&js->sink, "subfilters", BLOOM_INFO_LIST);
	for (int i = 0; i < v->hdr.nsub; i++)
	{
		bloom_info_open(&js->sink, NULL, BLOOM_INFO_OBJECT);
		bloom_info_uint(&js->sink, "buckets", v->sub[i].nbuckets);
		bloom_info_uint(&js->sink, "fingerprint_bits", v->sub[i].fp_bits);
		bloom_info_uint(&js->sink, "items", v->sub[i].count);
		bloom_info_close(&js->sink);
	}
	bloom_info_close(&js->sink);
}

/*
 * A cuckoo filter's rate is the sum over its sub-filters of the entries a
 * non-member matches at their fill (cuckoo_fpp), from the directory that
 * opening the value reads anyway.
 */
static void
cf_kind_facts(Datum d, BloomFacts *facts)
{
	CuckooView *v = palloc(sizeof(CuckooView));

	cf_read(d, v);
	facts->fpp = cuckoo_fpp(v);
	facts->key_type = v->hdr.key_type;
	facts->hash_id = v->hdr.hash_id;
	pfree(v);
}

const BloomKind cuckoofilter_kind = {
	.type_name = "cuckoofilter",
	.invalid_value_msg = gettext_noop("invalid cuckoo filter value"),
	.shape_union_msg = gettext_noop("cannot merge cuckoo filters of different shape"),
	/* check_combine refuses an intersection before shapes are compared */
	.shape_intersect_msg = gettext_noop("cannot intersect cuckoo filters of different shape"),
	.set_key_type_msg = gettext_noop("cannot change the key type of a cuckoo filter from %s to %s"),
	.create_nstrict = 3,
	.create_key_arg = 3,
	.open = cf_kind_open,
	.dir_next = cf_kind_dir_next,
	.dir_predict = cf_kind_dir_predict,
	.read_bytes = cf_read_bytes,
	.corrupt_length = cf_kind_corrupt_length,
	.validate = cf_kind_validate,
	.out_bytes = cf_kind_out_bytes,
	.read = cf_kind_read,
	.look = cf_kind_read,
	.copy = cf_kind_copy,
	.adopt = cf_kind_adopt,
	.finish = cf_kind_finish,
	.hash_params = cf_kind_hash_params,
	.is_empty = cf_kind_is_empty,
	.set_key_type = cf_kind_set_key_type,
	.test = cf_kind_test,
	.add = cf_kind_add,
	.check_removable = cf_kind_check_removable,
	.remove = cf_kind_remove,
	.look_shape = cf_kind_look_shape,
	.check_combine = cf_kind_check_combine,
	.into_second = cf_kind_into_second,
	.combine = cf_kind_combine,
	.shape_hint = cf_kind_shape_hint,
	.describe = cf_kind_describe,
	.fpp = cf_kind_fpp,
	.info = cf_kind_info,
	.facts = cf_kind_facts,
	.create = cf_kind_create,
};
