/*-------------------------------------------------------------------------
 *
 * agg_cuckoo.c
 *	  cf_agg: building a cuckoo filter from rows.
 *
 * The state type is cuckoofilter itself (not internal), so engines that
 * ship partial aggregates as text (Citus) can run it distributed, and
 * cf_merge is the combine function of parallel plans.  From a group's
 * first row the state is an expanded object (type/agg_state.c, as
 * bf_agg's) holding the flat value and its open view: the executor keeps
 * it without a copy, a row costs a hash and one cuckoo insertion, and
 * growth (a new sub-filter) reallocates the value in place.  The final
 * function hands the result over flat, so that what reads it (a table, a
 * second use in the query, a sort, a client) does not flatten it again.
 *
 * src/type/agg_cuckoo.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "type/value.h"
#include "type/keys.h"
#include "type/cuckoofilter.h"

PG_FUNCTION_INFO_V1(cuckoofilter_agg_trans);
PG_FUNCTION_INFO_V1(cuckoofilter_agg_final);

/* cf_agg(element, capacity): the rate bf_agg(element, capacity) has too */
#define CF_AGG_DEFAULT_RATE		0.01

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
	CuckooState *s = PG_ARGISNULL(0) ? NULL : cf_state_of(PG_GETARG_DATUM(0), true);

	if (unlikely(s == NULL))
	{
		MemoryContext aggcxt;

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
	}
	if (!PG_ARGISNULL(1))
	{
		if (unlikely(s->hash.key_type == 0 || s->hash.key_type == RECORDOID) &&
			s->view.hdr.items == 0)
		{
			bloom_key_first_add(et, &s->hash.key_type, true, PG_GETARG_DATUM(1));
			cf_set_key_type(&s->view, s->hash.key_type);
		}
		cf_state_add(s, bloom_key_hash_add(et, PG_GETARG_DATUM(1), s->hash));
	}
	PG_RETURN_DATUM(EOHPGetRWDatum(&s->eoh));
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
