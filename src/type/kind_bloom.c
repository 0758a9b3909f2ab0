/*-------------------------------------------------------------------------
 *
 * kind_bloom.c
 *	  The bloomfilter kind: its entry in the table of filter kinds
 *	  (type/kind.h), which goes on through the layout table of
 *	  core/header.h, and what that needs: the stored reads of checks, new
 *	  values of each layout, adds that grow, removals, unions and
 *	  intersections, shape errors and their text, bf_info's members, the
 *	  planner's facts.
 *
 * A bloomfilter's opened header is written back into its value by the
 * changes and by finish; a change that has no hash to apply leaves the
 * bytes as they were.  The aggregate's state (type/agg.c) calls this
 * file, never the other way round.
 *
 * src/type/kind_bloom.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "utils/builtins.h"

#include "core/blocked.h"
#include "core/guava.h"
#include "core/sizing.h"
#include "type/jsonb.h"
#include "type/kind.h"
#include "type/kind_bloom.h"
#include "type/params.h"
#include "type/value.h"

/* ---- checks of stored values ---- */

/*
 * A value opened for checks (type/probe.c): its header, from the first
 * BLOOM_HEADER_SIZE bytes of a value of len bytes, and the layout's
 * callbacks that find and answer the spans of an element.
 */
static void
bloom_kind_open(BloomOpened *o, const uint8 *front, size_t len)
{
	BloomView	v;

	bloom_view_init(&v, front, BLOOM_HEADER_SIZE, len);
	o->hdr.bloom = v.hdr;
	o->layout = v.layout;
	o->hash = bloom_hash_params(&v.hdr);
	o->spans = v.layout->spans;
	o->answer = v.layout->answer;
	o->answer_many = v.layout->answer_many;
}

static void
bloom_kind_dir_next(BloomOpened *o, const uint8 *piece, BloomSpan *next)
{
	BloomCheck	check = o->layout->dir_next(&o->hdr.bloom, &o->dir, piece, next);

	if (check != BLOOM_OK)
		bloom_report_corrupt(check);
}

static int
bloom_kind_dir_predict(const BloomOpened *o, BloomDir *dir, BloomSpan *pieces, int max)
{
	if (o->layout->dir_predict == NULL)
		return 0;
	return o->layout->dir_predict(&o->hdr.bloom, dir, pieces, max);
}

static void
bloom_kind_corrupt_length(void)
{
	bloom_report_corrupt(BLOOM_BAD_LENGTH);
}

/* ---- new values ---- */

/* how large a value must grow to take more; an error if it cannot */
uint64
bloom_grown_bytes(const BloomHeader *hdr, const BloomLayout *layout, const uint8 *payload)
{
	uint64		bytes = layout->grown_bytes(hdr, payload);

	if (bytes == 0)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s bloom filter cannot grow any further", layout->name),
				 layout->no_grow_detail ? errdetail_internal("%s", layout->no_grow_detail) :
				 errdetail("A bloom filter value is limited to %llu bytes, and a sub-filter's error rate to at least %g.",
						   (unsigned long long) BLOOM_MAX_BYTES, BLOOM_MIN_ERROR_RATE)));
	return bytes;
}

/* a new, empty filter for hdr (whose count of cells set must be 0) */
static BloomFilter *
bloom_new(const BloomHeader *hdr)
{
	Size		size = BLOOMFILTER_SIZE(bloom_layout_for(hdr->layout)->payload_bytes(hdr));
	BloomFilter *bf = bloom_palloc(CurrentMemoryContext, size);

	SET_VARSIZE(bf, size);
	bloom_set_header(bf, hdr);
	bloom_fill_chunked(BLOOMFILTER_PAYLOAD(bf), NULL, size - VARHDRSZ - BLOOM_HEADER_SIZE);
	return bf;
}

/*
 * The header of a new, empty filter of the given layout for capacity
 * elements at error_rate.  Every layout so far sizes its cells as the
 * blocked layout does; a counting filter holds four bits per cell.
 */
void
bloom_header_for(BloomHeader *hdr, int64 capacity, double error_rate, int64 seed,
				 uint8 layout)
{
	uint64		nbits;
	int			nhashes;
	bool		fits;

	bloom_check_capacity(capacity, &bloom_param_rules);
	bloom_check_error_rate(error_rate, &bloom_param_rules);
	bloom_check_seed(seed, &bloom_param_rules);
	fits = bloom_size((uint64) capacity, error_rate, &nbits, &nhashes);
	if (fits)
	{
		bloom_header_init(hdr, (uint64) capacity, error_rate, (uint32) seed, nbits, nhashes);
		hdr->layout = layout;
		fits = bloom_layout_for(layout)->check_header(hdr, bloom_layout_for(layout)->payload_bytes(hdr)) == BLOOM_OK;
	}
	if (!fits)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom filter for " INT64_FORMAT " elements at error rate %g is too large",
						capacity, error_rate),
				 errdetail("A bloom filter value is limited to %llu bytes.",
						   (unsigned long long) BLOOM_MAX_BYTES)));
}

/* a new scalable filter: one empty sub-filter, more as elements arrive */
static BloomFilter *
bloom_new_scalable(int64 capacity, double error_rate, int64 seed, int32 expansion)
{
	BloomHeader hdr;
	uint64		payload_bytes;
	BloomFilter *bf;

	bloom_check_expansion(expansion);
	if (expansion == 0)
		elog(ERROR, "a scalable bloom filter needs a positive expansion");
	/* the parameter checks and errors of a fixed filter of the same request */
	bloom_header_for(&hdr, capacity, error_rate, seed, BLOOM_LAYOUT_BLOCKED512);
	if (error_rate / 2 < BLOOM_MIN_ERROR_RATE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter error rate %g is too small for a scalable filter", error_rate),
				 errdetail("Its first sub-filter is sized for half the rate, which must be at least %g.",
						   BLOOM_MIN_ERROR_RATE)));
	if (!bloom_scalable_header(&hdr, (uint64) capacity, error_rate, (uint32) seed,
							   (uint32) expansion, &payload_bytes))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("scalable bloom filter for " INT64_FORMAT " elements at error rate %g is too large",
						capacity, error_rate),
				 errdetail("Its first sub-filter, sized for half the rate, exceeds the limit of %llu bytes.",
						   (unsigned long long) BLOOM_MAX_BYTES)));
	bf = bloom_palloc(CurrentMemoryContext, BLOOMFILTER_SIZE(payload_bytes));
	SET_VARSIZE(bf, BLOOMFILTER_SIZE(payload_bytes));
	bloom_scalable_init(&hdr, (uint32) expansion, BLOOMFILTER_PAYLOAD(bf));
	bloom_set_header(bf, &hdr);
	return bf;
}

/*
 * A new RedisBloom chain, as BF.RESERVE key error_rate capacity makes it:
 * EXPANSION expansion, or NONSCALING for expansion 0 (bf_create's fixed
 * size).  RedisBloom takes any rate in (0, 1) and has no seed.
 */
static BloomFilter *
bloom_new_redis(int64 capacity, double error_rate, int64 seed, int32 expansion)
{
	BloomHeader hdr;
	uint64		payload_bytes;
	BloomFilter *bf;

	bloom_check_expansion(expansion);
	if (capacity < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("RedisBloom filter capacity must be at least 1")));
	if (!(error_rate > 0.0 && error_rate < 1.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("RedisBloom filter error rate must be greater than 0 and less than 1")));
	if (seed != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("RedisBloom filters have no seed"),
				 errdetail("RedisBloom hashes every element with the same seed, so its filters take seed 0 only.")));
	if (!bloom_redis_header(&hdr, (uint64) capacity, error_rate, (uint32) expansion,
							&payload_bytes))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("RedisBloom filter for " INT64_FORMAT " elements at error rate %g cannot be made",
						capacity, error_rate),
				 errdetail("Its first link would have no bits or exceed the limit of %llu bytes.",
						   (unsigned long long) BLOOM_MAX_BYTES)));
	bf = bloom_palloc(CurrentMemoryContext, BLOOMFILTER_SIZE(payload_bytes));
	SET_VARSIZE(bf, BLOOMFILTER_SIZE(payload_bytes));
	bloom_redis_init(&hdr, (uint32) expansion, BLOOMFILTER_PAYLOAD(bf));
	bloom_set_header(bf, &hdr);
	return bf;
}

/*
 * bf_create's layout names (1.5): layouts that are the format of another
 * system, chosen by name since no sizing of ours picks them, each with
 * the function that makes one from bf_create's capacity, error rate, seed
 * and expansion.
 */
typedef BloomFilter *(*BloomNamedMaker) (int64 capacity, double error_rate,
										 int64 seed, int32 expansion);

typedef struct BloomLayoutName
{
	const char *name;
	BloomNamedMaker make;
} BloomLayoutName;

static const BloomLayoutName bloom_layout_names[] = {
	{"redisbloom", bloom_new_redis},
};

static BloomNamedMaker
bloom_layout_named(const char *name)
{
	for (size_t i = 0; i < lengthof(bloom_layout_names); i++)
		if (strcmp(name, bloom_layout_names[i].name) == 0)
			return bloom_layout_names[i].make;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("unknown bloom filter layout \"%s\"", name),
			 errhint("Give layout => 'blocked512' (the default), 'guava' or 'redisbloom'; counting => true and expansion => n make the counting and scalable layouts.")));
}

/* arguments of bf_create from 1.5 on */
#define BLOOM_CREATE_ARG_LAYOUT	6

/*
 * bf_create's filter but its key type: the forms of 1.0 make a plain
 * filter; 1.2's counting and expansion arguments choose the layout, and
 * 1.5's layout argument one by name.
 */
static BloomFilter *
bloom_create_untyped(const BloomCreateArgs *args)
{
	FunctionCallInfo fcinfo = args->fcinfo;
	BloomHeader hdr;
	uint8		layout = BLOOM_LAYOUT_BLOCKED512;

	if (PG_NARGS() > BLOOM_CREATE_ARG_LAYOUT && !PG_ARGISNULL(BLOOM_CREATE_ARG_LAYOUT) &&
		strcmp(text_to_cstring(PG_GETARG_TEXT_PP(BLOOM_CREATE_ARG_LAYOUT)), "blocked512") != 0)
	{
		char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(BLOOM_CREATE_ARG_LAYOUT));
		BloomNamedMaker make = bloom_layout_named(name);

		if (PG_GETARG_BOOL(3))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("a %s bloom filter cannot be counting", name)));
		return make(args->capacity, args->error_rate, args->seed, PG_GETARG_INT32(4));
	}
	if (PG_NARGS() > 3)
	{
		bool		counting = PG_GETARG_BOOL(3);
		int32		expansion = PG_GETARG_INT32(4);

		bloom_check_expansion(expansion);
		if (counting && expansion > 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("a bloom filter cannot be both counting and scalable")));
		if (expansion > 0)
			return bloom_new_scalable(args->capacity, args->error_rate, args->seed,
									  expansion);
		if (counting)
			layout = BLOOM_LAYOUT_COUNTING4;
	}
	bloom_header_for(&hdr, args->capacity, args->error_rate, args->seed, layout);
	return bloom_new(&hdr);
}

/*
 * A layout that takes only some key types (RedisBloom's: what a Redis
 * client sends in one agreed form) refuses the others when a filter is
 * made with one.
 */
void
bloom_check_layout_key_type(const BloomHeader *hdr, uint32 key_type)
{
	const BloomLayout *layout = bloom_layout_for(hdr->layout);

	if (layout->key_type_ok != NULL && !layout->key_type_ok(key_type))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloom filters of layout %s cannot hold keys of type %s",
						layout->name, bloom_key_type_name(key_type)),
				 layout->key_types_hint ? errhint("%s", layout->key_types_hint) : 0));
}

/*
 * bf_create(..., layout => 'guava', key_type => t): Guava's
 * BloomFilter.create(funnel, capacity, error_rate), refused where Guava
 * refuses it, and for what has no funnel or no place in Guava's filter.
 */
static BloomFilter *
bloom_create_guava(const BloomCreateArgs *args, uint32 key_type)
{
	FunctionCallInfo fcinfo = args->fcinfo;
	BloomHeader hdr;
	BloomGuavaCheck check;

	if (key_type == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a Guava filter needs a key type"),
				 errdetail("A Guava filter hashes its keys as the funnel of its key type does."),
				 errhint("Give key_type => bigint, integer, text or bytea (Funnels.longFunnel, integerFunnel, stringFunnel(UTF_8), byteArrayFunnel).")));
	if (!bloom_guava_key_type(key_type))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("a Guava filter cannot have keys of type %s",
						bloom_key_type_name(key_type)),
				 errhint("Give key_type => bigint, integer, text or bytea (Funnels.longFunnel, integerFunnel, stringFunnel(UTF_8), byteArrayFunnel).")));
	if (PG_GETARG_BOOL(3) || PG_GETARG_INT32(4) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("a Guava filter cannot be counting or scalable")));
	if (args->seed != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a Guava filter has no seed"),
				 errdetail("Guava hashes with MurmurHash3 seeded with 0; the seed given was " INT64_FORMAT ".",
						   args->seed)));
	bloom_check_capacity(args->capacity, &bloom_param_rules);
	if (!(args->error_rate > 0.0 && args->error_rate < 1.0))
		bloom_check_error_rate(args->error_rate, &bloom_param_rules);
	check = bloom_guava_header(&hdr, args->capacity, args->error_rate, key_type);
	if (check == BLOOM_GUAVA_TOO_LARGE)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom filter for " INT64_FORMAT " elements at error rate %g is too large",
						args->capacity, args->error_rate),
				 errdetail("A bloom filter value is limited to %llu bytes.",
						   (unsigned long long) BLOOM_MAX_BYTES)));
	if (check != BLOOM_GUAVA_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("Guava cannot size a filter for " INT64_FORMAT " elements at error rate %g",
						args->capacity, args->error_rate),
				 errdetail("%s", check == BLOOM_GUAVA_NO_BITS ?
						   "Its sizing gives 0 bits, which BloomFilter.create refuses." :
						   "Its sizing gives more than 255 hash functions, which BloomFilter.create refuses.")));
	return bloom_new(&hdr);
}

/* bf_create's layout argument (1.5) names guava */
static bool
bloom_create_wants_guava(const BloomCreateArgs *args)
{
	FunctionCallInfo fcinfo = args->fcinfo;

	if (PG_NARGS() <= BLOOM_CREATE_ARG_LAYOUT || PG_ARGISNULL(BLOOM_CREATE_ARG_LAYOUT))
		return false;
	return strcmp(text_to_cstring(PG_GETARG_TEXT_PP(BLOOM_CREATE_ARG_LAYOUT)), "guava") == 0;
}

/* the key type is checked before the sizing, as bf_create always has */
static void
bloom_kind_create(const BloomCreateArgs *args, BloomValue *val)
{
	uint32		key_type = 0;
	BloomFilter *bf;

	if (OidIsValid(args->key_typid))
		key_type = bloom_key_type_arg(args->key_typid);
	if (bloom_create_wants_guava(args))
	{
		val->flat = (struct varlena *) bloom_create_guava(args, key_type);
		val->owned = true;
		bloom_header_decode(((BloomFilter *) val->flat)->data, &val->v.bloom.hdr);
		return;
	}
	bf = bloom_create_untyped(args);
	bloom_header_decode(bf->data, &val->v.bloom.hdr);
	bloom_check_layout_key_type(&val->v.bloom.hdr, key_type);
	val->v.bloom.hdr.key_type = key_type;
	bloom_set_header(bf, &val->v.bloom.hdr);
	val->flat = (struct varlena *) bf;
	val->owned = true;
}

/* ---- opening and writing values ---- */

static const char *
bloom_kind_validate(const uint8 *buf, size_t len)
{
	BloomHeader hdr;
	BloomCheck	check = bloom_validate(buf, len, &hdr);

	return check == BLOOM_OK ? NULL : bloom_check_message(check);
}

static void
bloom_kind_read(Datum d, BloomValue *val)
{
	val->flat = NULL;
	val->owned = false;
	bloom_read(d, &val->v.bloom);
}

/* a change decides by the header alone: its cells are read when copied */
static void
bloom_kind_look(Datum d, BloomValue *val)
{
	val->flat = NULL;
	val->owned = false;
	bloom_read_header(d, &val->v.bloom);
}

static void
bloom_kind_copy(Datum d, BloomValue *val)
{
	BloomFilter *bf = bloom_copy(d, &val->v.bloom);

	val->flat = (struct varlena *) bf;
	val->owned = true;

	/*
	 * A copy is changed outside any aggregate's state, so it is made what a
	 * value leaving an aggregate is: a scalable filter stored with a fill
	 * divisor above 1 (input refuses one since 1.4) would otherwise start a
	 * sub-filter at every add.
	 */
	if (val->v.bloom.layout->finish)
		val->v.bloom.layout->finish(&val->v.bloom.hdr, BLOOMFILTER_PAYLOAD(bf));
}

static void
bloom_kind_adopt(struct varlena *flat, BloomValue *val)
{
	BloomFilter *bf = (BloomFilter *) flat;

	bloom_view_init(&val->v.bloom, bf->data, VARSIZE(bf) - VARHDRSZ, VARSIZE(bf) - VARHDRSZ);
	val->v.bloom.payload = BLOOMFILTER_PAYLOAD(bf);
	val->flat = flat;
	val->owned = false;
}

static void
bloom_kind_finish(BloomValue *val)
{
	bloom_set_header((BloomFilter *) val->flat, &val->v.bloom.hdr);
}

static BloomHashParams
bloom_kind_hash_params(const BloomValue *val)
{
	return bloom_hash_params(&val->v.bloom.hdr);
}

static bool
bloom_kind_is_empty(const BloomValue *val)
{
	return val->v.bloom.hdr.bits_set == 0;
}

static void
bloom_kind_set_key_type(BloomValue *val, uint32 key_type)
{
	val->v.bloom.hdr.key_type = key_type;
}

/* ---- changes ---- */

static int
bloom_kind_test(const BloomValue *val, BloomHash h)
{
	const BloomView *v = &val->v.bloom;

	if (v->payload == NULL)
		return -1;
	return bloom_test_payload(v->layout, &v->hdr, v->payload, h) ? 1 : 0;
}

/*
 * Add hashes to bf (a private copy opened into v), growing it into a new
 * value when its layout must; returns the value to use from then on, with
 * its header written.
 */
BloomFilter *
bloom_add_hashes(BloomFilter *bf, BloomView *v, const BloomHash *hashes, size_t n)
{
	size_t		done = 0;

	while ((done += v->layout->add(&v->hdr, BLOOMFILTER_PAYLOAD(bf), hashes + done,
								   n - done)) < n)
	{
		Size		size = BLOOMFILTER_SIZE(bloom_grown_bytes(&v->hdr, v->layout,
															  BLOOMFILTER_PAYLOAD(bf)));
		BloomFilter *grown = bloom_palloc(CurrentMemoryContext, size);

		SET_VARSIZE(grown, size);
		v->layout->grow(&v->hdr, BLOOMFILTER_PAYLOAD(bf), BLOOMFILTER_PAYLOAD(grown));
		pfree(bf);
		bf = grown;
	}
	v->payload = BLOOMFILTER_PAYLOAD(bf);
	bloom_set_header(bf, &v->hdr);
	return bf;
}

/* a value that grows is replaced by its grown copy: only our own can be */
static void
bloom_kind_add(BloomValue *val, const BloomHash *hashes, size_t n)
{
	Assert(val->owned);
	val->flat = (struct varlena *) bloom_add_hashes((BloomFilter *) val->flat,
													&val->v.bloom, hashes, n);
}

/* a layout that cannot forget: the error of bf_remove and bf_remove_all */
static bool
bloom_kind_check_removable(Datum d, BloomValue *val)
{
	const BloomLayout *layout;

	bloom_kind_look(d, val);
	layout = val->v.bloom.layout;
	if (!layout->removes)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot remove an element from a bloom filter of layout %s",
						layout->name),
				 errdetail("Only a counting filter can forget an element."),
				 errhint("Create the filter with bf_create(capacity, error_rate, counting => true).")));
	return true;
}

static void
bloom_kind_remove(BloomValue *val, const BloomHash *hashes, size_t n)
{
	BloomView  *v = &val->v.bloom;
	BloomFilter *bf = (BloomFilter *) val->flat;

	for (size_t i = 0; i < n; i++)
		(void) v->layout->remove(&v->hdr, BLOOMFILTER_PAYLOAD(bf), hashes[i]);
	bloom_set_header(bf, &v->hdr);
}

/* ---- combining two values ---- */

/*
 * A layout that cannot intersect, as either operand: refused before the
 * shapes are compared, so that the error says why rather than that the
 * shapes differ.
 */
static void
bloom_check_intersectable(const BloomLayout *layout)
{
	if (!layout->intersects)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot intersect a bloom filter of layout %s", layout->name),
				 errdetail("%s", layout->no_intersect_detail),
				 layout->no_intersect_hint ? errhint("%s", layout->no_intersect_hint) : 0));
}

/* what cannot intersect, then the key types, then the shapes */
static uint32
bloom_kind_check_combine(const BloomValue *a, const BloomValue *b, bool intersect)
{
	const BloomView *va = &a->v.bloom;
	const BloomView *vb = &b->v.bloom;
	uint32		key_type;

	if (intersect)
	{
		bloom_check_intersectable(va->layout);
		bloom_check_intersectable(vb->layout);
	}
	key_type = bloom_key_combine(va->hdr.key_type, va->hdr.bits_set == 0,
								 vb->hdr.key_type, vb->hdr.bits_set == 0,
								 intersect ?
								 gettext_noop("cannot intersect filters of different key types") :
								 gettext_noop("cannot union filters of different key types"));
	bloom_check_shape(&va->hdr, &vb->hdr, intersect);
	return key_type;
}

/* into the larger (a scalable filter may have more sub-filters) */
static bool
bloom_kind_into_second(const BloomValue *a, const BloomValue *b)
{
	const BloomLayout *layout = a->v.bloom.layout;

	return layout->payload_bytes(&b->v.bloom.hdr) > layout->payload_bytes(&a->v.bloom.hdr);
}

static bool
bloom_kind_combine(BloomValue *dst, const BloomValue *src, bool intersect)
{
	BloomView  *dv = &dst->v.bloom;
	uint8	   *payload = BLOOMFILTER_PAYLOAD((BloomFilter *) dst->flat);

	if (!intersect)
		bloom_check_union_rate(dv, payload, &src->v.bloom);
	return dv->layout->combine(&dv->hdr, payload, &src->v.bloom.hdr, src->v.bloom.payload,
							   intersect);
}

/*
 * Refuse a union into dst (dst_payload, which may be the result's copy) of
 * src whose result would not keep the error rate: a scalable filter's
 * sub-filter that would hold more than it was sized for.  Nothing can
 * repair that afterwards, so it is an error, not a silent rise in the rate.
 * 54000, as for a filter that cannot grow: the operands hold more than the
 * value can at its rate; with fewer elements the same union works.
 */
void
bloom_check_union_rate(const BloomView *dst, const uint8 *dst_payload, const BloomView *src)
{
	double		fpp;
	double		limit;
	int			part;

	if (dst->layout->union_overfills == NULL)
		return;
	part = dst->layout->union_overfills(&dst->hdr, dst_payload, &src->hdr, src->payload,
										&fpp, &limit);
	if (part < 0)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("union of %s bloom filters would exceed their error rate", dst->layout->name),
			 errdetail("Sub-filter %d of the union would hold more elements than it was sized for: its estimated false-positive rate would be %.3g, above its share %.3g of the error rate %g.",
					   part, fpp, limit, dst->hdr.error_rate),
			 errhint("Add the elements to one filter instead (bf_add_all(filter, ARRAY(SELECT ...))), build the filter with a single aggregate (bf_agg(element) or bf_agg(element, template)), or use plain filters sized for the total (bf_create(total, error_rate)), whose unions are exact.")));
}

/*
 * The hint of a shape error: a hash id of its own, then a layout that
 * combines with others (a list of hashes), then layouts that differ, then
 * what the layout of both says.
 */
static const char *
bloom_kind_shape_hint(const BloomValue *a, const BloomValue *b)
{
	const BloomHeader *ha = &a->v.bloom.hdr;
	const BloomHeader *hb = &b->v.bloom.hdr;
	const BloomLayout *la = bloom_layout_for(ha->layout);
	const BloomLayout *lb = bloom_layout_for(hb->layout);

	if (la != lb && (la->hash_id != 0 || lb->hash_id != 0))
		return "Filters combine only with filters of the same layout.";
	if (BLOOM_HASH_IS_EQ(ha->hash_id) && BLOOM_HASH_IS_EQ(hb->hash_id) &&
		ha->hash_id != hb->hash_id)
		return BLOOM_HINT_HASH_ENCODING;
	if (ha->hash_id != hb->hash_id)
		return "Filters made by bloomfilter 1.1 or earlier (hash id 1) combine only with each other; rebuild them with bf_agg to combine them with newer ones.";
	if (la->holds_hashes)
		return la->shape_hint;
	if (lb->holds_hashes)
		return lb->shape_hint;
	if (la != lb)
		return "Filters combine only with filters of the same layout.";
	return la->shape_hint;
}

void
bloom_check_shape(const BloomHeader *a, const BloomHeader *b, bool intersect)
{
	if (!bloom_same_shape(a, b))
		bloom_shape_error(a, b, intersect);
}

/* the shape error of two headers (the header alone is what it shows) */
void
bloom_shape_error(const BloomHeader *a, const BloomHeader *b, bool intersect)
{
	BloomValue	va,
				vb;

	va.v.bloom.hdr = *a;
	vb.v.bloom.hdr = *b;
	bloom_kind_shape_error(&bloomfilter_kind, &va, &vb, intersect);
}

/* ---- showing ---- */

/* a value's shape as its layout describes it, and its hash if not current */
static void
bloom_kind_describe(StringInfo buf, const BloomValue *val)
{
	const BloomHeader *h = &val->v.bloom.hdr;
	char		text[BLOOM_DESCRIBE_MAX];

	bloom_layout_for(h->layout)->describe(h, text, sizeof(text));
	appendStringInfoString(buf, text);
	if (h->hash_id != BLOOM_HASH_CURRENT)
		appendStringInfo(buf, ", hash id %d", h->hash_id);
}

static double
bloom_kind_fpp(const BloomValue *val)
{
	const BloomView *v = &val->v.bloom;

	return v->layout->fpp(&v->hdr, v->payload);
}

/* bf_cardinality's estimate, of a value read whole */
double
bloom_cardinality(const BloomView *v)
{
	return v->layout->cardinality(&v->hdr, v->payload);
}

/*
 * bf_info: what every filter has, then what its layout shows (the header
 * fields whose meaning is the layout's among them).
 */
static void
bloom_kind_info(const BloomValue *val, BloomJson *js)
{
	const BloomView *v = &val->v.bloom;

	bloom_json_begin_filter(js, v->hdr.version, v->hdr.hash_id, v->hdr.seed, v->hdr.key_type,
							v->hdr.capacity, v->hdr.error_rate,
							(uint64) VARHDRSZ + bloom_total_bytes(&v->hdr));
	bloom_json_string(js, "layout", v->layout->name);
	bloom_json_uint(js, "bits_set", v->hdr.bits_set);
	bloom_json_int(js, "cardinality", llround(bloom_cardinality(v)));
	bloom_json_float8(js, "fpp", v->layout->fpp(&v->hdr, v->payload));
	v->layout->info(&v->hdr, v->payload, &js->sink);
}

/*
 * The false-positive rate of a filter as its layout predicts it from the
 * header (a plain filter: each of k bits set with the probability of the
 * fill), or, where the header cannot tell, from the whole value (a
 * scalable filter: the sum its layout estimates over the sub-filters).
 */
static void
bloom_kind_facts(Datum d, BloomFacts *facts)
{
	BloomView	v;

	bloom_read_header(d, &v);
	facts->key_type = v.hdr.key_type;
	facts->hash_id = v.hdr.hash_id;
	if (v.layout->header_fpp == NULL)
	{
		BloomView	whole;

		/* the header cannot tell (a scalable one's k counts sub-filters) */
		bloom_read(d, &whole);
		facts->fpp = whole.layout->fpp(&whole.hdr, whole.payload);
		return;
	}
	facts->fpp = v.layout->header_fpp(&v.hdr);
}

const BloomKind bloomfilter_kind = {
	.type_name = "bloomfilter",
	.invalid_value_msg = gettext_noop("invalid bloom filter value"),
	.shape_union_msg = gettext_noop("cannot union bloom filters of different shape"),
	.shape_intersect_msg = gettext_noop("cannot intersect bloom filters of different shape"),
	.set_key_type_msg = gettext_noop("cannot change the key type of a bloom filter from %s to %s"),
	.create_nstrict = 5,
	.create_key_arg = 5,
	.open = bloom_kind_open,
	.dir_next = bloom_kind_dir_next,
	.dir_predict = bloom_kind_dir_predict,
	.read_bytes = bloom_read_bytes,
	.corrupt_length = bloom_kind_corrupt_length,
	.validate = bloom_kind_validate,
	.out_bytes = bloom_read_bytes,
	.read = bloom_kind_read,
	.look = bloom_kind_look,
	.copy = bloom_kind_copy,
	.adopt = bloom_kind_adopt,
	.finish = bloom_kind_finish,
	.hash_params = bloom_kind_hash_params,
	.is_empty = bloom_kind_is_empty,
	.set_key_type = bloom_kind_set_key_type,
	.test = bloom_kind_test,
	.add = bloom_kind_add,
	.check_removable = bloom_kind_check_removable,
	.remove = bloom_kind_remove,
	.look_shape = bloom_kind_look,
	.check_combine = bloom_kind_check_combine,
	.into_second = bloom_kind_into_second,
	.combine = bloom_kind_combine,
	.shape_hint = bloom_kind_shape_hint,
	.describe = bloom_kind_describe,
	.fpp = bloom_kind_fpp,
	.info = bloom_kind_info,
	.facts = bloom_kind_facts,
	.create = bloom_kind_create,
};
