/*-------------------------------------------------------------------------
 *
 * aggregates.c
 *	  bf_agg and cf_agg: building a filter of either type from rows.
 *
 * The aggregate's state type is bloomfilter itself, not internal, so that
 * engines which ship partial aggregates between nodes as text (Citus) can
 * run it distributed, and so that bf_union can serve as the combine
 * function of parallel plans.  Inside one backend the state is the expanded
 * object of type/agg.h, which batches the adds.
 *
 * bf_shape makes the bytea that bf_agg's shape form takes in place of a
 * template (core/shape.c), and the shape form checks it.
 *
 * src/type/aggregates.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "core/shape.h"
#include "type/agg.h"
#include "type/keys.h"
#include "type/kind_bloom.h"
#include "type/kind_cuckoo.h"
#include "type/value.h"

PG_FUNCTION_INFO_V1(bloomfilter_agg_trans);
PG_FUNCTION_INFO_V1(bloomfilter_agg_trans_template);
PG_FUNCTION_INFO_V1(bloomfilter_agg_trans_shape);
PG_FUNCTION_INFO_V1(bloomfilter_shape);
PG_FUNCTION_INFO_V1(bloomfilter_agg_final);

/* fn_extra of the transition function: the sizing of the last group */
typedef struct BloomAggCache
{
	BloomElemType elem;			/* first: see bloom_fn_cache */
	bool		sized;
	int64		capacity;
	double		error_rate;
	BloomHeader hdr;
} BloomAggCache;

/*
 * bf_agg(element) with no sizing: the elements' hashes, then a scalable
 * filter at 1% sized for them that doubles if it grows afterwards
 * (type/agg.c).
 */
#define BLOOM_AGG_DEFAULT_RATE		0.01
#define BLOOM_AGG_DEFAULT_EXPANSION	2

/* a group's first row: a new state from the sizing arguments */
static BloomState *
bloom_agg_start(FunctionCallInfo fcinfo, BloomAggCache *cache, MemoryContext aggcxt)
{
	int64		capacity;
	double		error_rate = BLOOM_AGG_DEFAULT_RATE;

	if (PG_NARGS() == 2)
		return bloom_state_new_hashes(fcinfo, aggcxt, BLOOM_AGG_DEFAULT_RATE,
									  BLOOM_AGG_DEFAULT_EXPANSION);

	if (PG_ARGISNULL(2) || (PG_NARGS() > 3 && PG_ARGISNULL(3)))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bf_agg capacity and error rate must not be null")));
	capacity = PG_GETARG_INT64(2);
	if (PG_NARGS() > 3)
		error_rate = PG_GETARG_FLOAT8(3);

	/* sizing costs a little; groups usually share their arguments */
	if (!cache->sized || cache->capacity != capacity || cache->error_rate != error_rate)
	{
		bloom_header_for(&cache->hdr, capacity, error_rate, BLOOM_DEFAULT_SEED,
						 BLOOM_LAYOUT_BLOCKED512);
		cache->capacity = capacity;
		cache->error_rate = error_rate;
		cache->sized = true;
	}
	return bloom_state_new(aggcxt, &cache->hdr, NULL);
}

/*
 * A group's first row, or a state that is not ours: the state made by
 * start, or a private expanded copy of a flat state.  Out of line, so that
 * the per-row path keeps no frame for it (a view on the stack, the stack
 * protector's check).
 */
static pg_noinline BloomState *
bloom_agg_first(FunctionCallInfo fcinfo, BloomAggCache *cache,
				BloomState *(*start) (FunctionCallInfo, BloomAggCache *, MemoryContext))
{
	MemoryContext aggcxt;
	BloomView	v;

	bloom_require_aggregate(fcinfo, &aggcxt, "bloomfilter_agg_trans", "bf_agg");
	if (PG_ARGISNULL(0))
		return start(fcinfo, cache, aggcxt);
	/* a flat state (not one we made): a private expanded copy */
	bloom_read(PG_GETARG_DATUM(0), &v);
	return bloom_state_new(aggcxt, &v.hdr, v.payload);
}

/*
 * One row: the state (made on a group's first row by start), the element
 * added unless NULL.  Every row but a group's first finds the state it
 * made, passed read-write, and needs no checks.
 */
static pg_attribute_always_inline Datum
bloom_agg_step(FunctionCallInfo fcinfo,
			   BloomState *(*start) (FunctionCallInfo, BloomAggCache *, MemoryContext))
{
	BloomAggCache *cache = bloom_fn_cache(fcinfo, 1, false, sizeof(BloomAggCache));
	BloomState *s = PG_ARGISNULL(0) ? NULL : bloom_state_of(PG_GETARG_DATUM(0));

	if (unlikely(s == NULL))
		s = bloom_agg_first(fcinfo, cache, start);
	if (!PG_ARGISNULL(1))
	{
		bloom_key_first_add(&cache->elem, &s->hdr.key_type,
							s->hdr.bits_set == 0 && s->npending == 0 && !s->uncounted,
							PG_GETARG_DATUM(1));
		bloom_state_add(s, bloom_key_hash_add(&cache->elem, PG_GETARG_DATUM(1), bloom_hash_params(&s->hdr)));
	}
	PG_RETURN_DATUM(bloom_state_datum(s));
}

/*
 * bloomfilter_agg_trans(state, element [, capacity [, error_rate]])
 *
 * Not strict: the first call creates the state from the sizing arguments,
 * NULL elements are skipped.
 */
Datum
bloomfilter_agg_trans(PG_FUNCTION_ARGS)
{
	return bloom_agg_step(fcinfo, bloom_agg_start);
}

/* a group's first row: a new state, a copy of the template */
static BloomState *
bloom_agg_start_template(FunctionCallInfo fcinfo, BloomAggCache *cache,
						 MemoryContext aggcxt)
{
	(void) cache;
	if (PG_ARGISNULL(2))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bf_agg template must not be null")));
	return bloom_state_from(fcinfo, aggcxt, PG_GETARG_DATUM(2));
}

/* bloomfilter_agg_trans(state, element, template): any layout, as the template is */
Datum
bloomfilter_agg_trans_template(PG_FUNCTION_ARGS)
{
	return bloom_agg_step(fcinfo, bloom_agg_start_template);
}

/*
 * A shape that bloom_shape_check or bloom_shape_fill refused.  It is a
 * bytea (so that it costs no type of its own: core/shape.c), so this is
 * where it is first read.
 */
static pg_noinline void
bloom_report_bad_shape(BloomCheck check)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg("invalid bloom filter shape"),
			 errdetail_internal("%s", bloom_check_message(check)),
			 check == BLOOM_SHAPE_IS_FILTER ?
			 errhint("Pass bf_shape(template), or the template itself as a bloomfilter.") :
			 errhint("A shape is the bytea bf_shape(template) returns for an empty template.")));
}

/*
 * A group's first row: a new state from the shape of an empty template
 * (core/shape.c), the template made again (zeros, then the shape's runs),
 * checked as a filter's input checks it, and then as the template form's.
 * Rows after the first never read the shape, so a row costs what it costs
 * in the template form.
 */
static BloomState *
bloom_agg_start_shape(FunctionCallInfo fcinfo, BloomAggCache *cache,
					  MemoryContext aggcxt)
{
	bytea	   *shape;
	const uint8 *bytes;
	size_t		len;
	BloomHeader hdr;
	BloomCheck	check;
	BloomState *s;

	(void) cache;
	if (PG_ARGISNULL(2))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bf_agg shape must not be null")));
	shape = PG_GETARG_BYTEA_PP(2);
	bytes = (const uint8 *) VARDATA_ANY(shape);
	len = VARSIZE_ANY_EXHDR(shape);
	check = bloom_shape_check(bytes, len, &hdr);
	if (check != BLOOM_OK)
		bloom_report_bad_shape(check);
	s = bloom_state_new(aggcxt, &hdr, NULL);
	check = bloom_shape_fill(bytes, len, &hdr, s->payload);
	if (check != BLOOM_OK)
		bloom_report_bad_shape(check);
	bloom_state_partial(fcinfo, s);
	return s;
}

/*
 * bloomfilter_agg_trans(state, element, shape): the template form for the
 * shape of an empty template, which an ORDER BY sorts with every row in
 * place of the template's payload
 */
Datum
bloomfilter_agg_trans_shape(PG_FUNCTION_ARGS)
{
	return bloom_agg_step(fcinfo, bloom_agg_start_shape);
}

/*
 * bf_shape(template): the shape of an empty filter, as a bytea.  One of a
 * filter that holds elements would carry them through a sort again, so it
 * is refused.
 */
Datum
bloomfilter_shape(PG_FUNCTION_ARGS)
{
	size_t		len;
	const uint8 *bytes = bloom_read_bytes(PG_GETARG_DATUM(0), &len);
	BloomView	v;
	size_t		n;
	bytea	   *shape;

	bloom_view_init(&v, bytes, len, len);
	if (v.hdr.bits_set != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bf_shape needs an empty bloom filter"),
				 errdetail("A shape is the header of a filter that holds no elements, without its payload."),
				 errhint("To add rows in order to a filter that holds elements, use bf_add_all(filter, array_agg(element ORDER BY ...)).")));
	n = bloom_shape_encode(bytes, len, NULL);
	shape = palloc(VARHDRSZ + n);
	SET_VARSIZE(shape, VARHDRSZ + n);
	bloom_shape_encode(bytes, len, (uint8 *) VARDATA(shape));
	PG_RETURN_BYTEA_P(shape);
}

/*
 * bloomfilter_agg_final(state): the result, flat, in the memory the executor keeps it
 * in.  Without a final function the executor would flatten the state into
 * memory of its own and copy it again; writing the flat form here, in the
 * current context (the executor's output context), saves that copy.  The
 * state is left as it was, so this also serves window aggregates.
 */
Datum
bloomfilter_agg_final(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOMFILTER_P(bloom_agg_result(PG_GETARG_DATUM(0)));
}

/*
 * ---- cf_agg: building a cuckoo filter from rows ----
 *
 * The state type is cuckoofilter itself (not internal), so engines that
 * ship partial aggregates as text (Citus) can run it distributed, and
 * cf_merge is the combine function of parallel plans.  From a group's
 * first row the state is an expanded object (type/agg.c, as
 * bf_agg's) holding the flat value and its open view: the executor keeps
 * it without a copy, a row costs a hash and one cuckoo insertion, and
 * growth (a new sub-filter) reallocates the value in place.  The final
 * function hands the result over flat, so that what reads it (a table, a
 * second use in the query, a sort, a client) does not flatten it again.
 */

PG_FUNCTION_INFO_V1(cuckoofilter_agg_trans);
PG_FUNCTION_INFO_V1(cuckoofilter_agg_final);

/* cf_agg(element, capacity): the rate bf_agg(element, capacity) has too */
#define CF_AGG_DEFAULT_RATE		0.01

/* a group's first row, or a state that is not ours: out of line, as bf_agg's */
static pg_noinline CuckooState *
cf_agg_first(FunctionCallInfo fcinfo)
{
	MemoryContext aggcxt;
	CuckooState *s;

	bloom_require_aggregate(fcinfo, &aggcxt, "cuckoofilter_agg_trans", "cf_agg");
	if (PG_ARGISNULL(0) &&
		(PG_ARGISNULL(2) || (PG_NARGS() > 3 && PG_ARGISNULL(3))))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("cf_agg capacity and error rate must not be null")));
	s = cf_state_new(aggcxt, PG_ARGISNULL(0) ? (Datum) 0 : PG_GETARG_DATUM(0),
					 PG_ARGISNULL(0) ? PG_GETARG_INT64(2) : 0,
					 PG_ARGISNULL(0) && PG_NARGS() > 3 ? PG_GETARG_FLOAT8(3) : CF_AGG_DEFAULT_RATE);
	s->hash = cf_hash_params(&s->view.hdr);
	return s;
}

/*
 * cuckoofilter_agg_trans(state, element, capacity [, error_rate])
 *
 * Not strict: the first row of a group makes the state from the sizing
 * arguments; NULL elements are skipped.  A state that is not ours (NULL, or
 * a value some other path put there) becomes one by a copy.
 */
Datum
cuckoofilter_agg_trans(PG_FUNCTION_ARGS)
{
	BloomElemType *et = bloom_fn_cache(fcinfo, 1, false, sizeof(BloomElemType));
	CuckooState *s = PG_ARGISNULL(0) ? NULL :
		cf_state_of(PG_GETARG_DATUM(0));

	if (unlikely(s == NULL))
		s = cf_agg_first(fcinfo);
	if (!PG_ARGISNULL(1))
	{
		if (unlikely(s->hash.key_type == 0 || s->hash.key_type == RECORDOID) &&
			s->view.hdr.items == 0 && s->npending == 0)
		{
			bloom_key_first_add(et, &s->hash.key_type, true, PG_GETARG_DATUM(1));
			cf_set_key_type(&s->view, s->hash.key_type);
		}
		cf_state_add(s, bloom_key_hash_add(et, PG_GETARG_DATUM(1), s->hash));
	}
	PG_RETURN_DATUM(cf_state_datum(s));
}

/*
 * cuckoofilter_agg_final(state): the result, flat, in the current memory
 * context (the executor's for the result), as bloomfilter_agg_final.  A
 * grown state is an expanded object: without this the executor would hand
 * it over as one, and each consumer would flatten its own copy.  The state
 * is left as it was (FINALFUNC_MODIFY = READ_ONLY), so a window aggregate
 * may go on adding to it; the copy is also what keeps the result apart
 * from a state the transition function changes in place.
 */
Datum
cuckoofilter_agg_final(PG_FUNCTION_ARGS)
{
	CuckooView	v;

	PG_RETURN_POINTER(cf_copy(PG_GETARG_DATUM(0), &v));
}
