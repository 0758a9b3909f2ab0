/*-------------------------------------------------------------------------
 *
 * cuckoofilter_agg.c
 *	  cf_agg: building a cuckoo filter from rows.
 *
 * The state type is cuckoofilter itself (not internal), so engines that
 * ship partial aggregates as text (Citus) can run it distributed, and
 * cf_merge is the combine function of parallel plans.  The state is kept
 * flat and changed in place by the transition function: a row costs a
 * hash and one cuckoo insertion.  The open view of the state (header and
 * sub-filter directory) is cached in fn_extra for the state it was made
 * from, so consecutive rows of a group do not decode it again.  A state
 * that grows (a new sub-filter) moves into an expanded object that the
 * executor adopts without a copy and that grows in place from then on
 * (cuckoofilter_datum.c); the cache forgets the old one.
 *
 * src/cuckoofilter_agg.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "bloomfilter_datum.h"
#include "bloomfilter_elem.h"
#include "cuckoofilter.h"

PG_FUNCTION_INFO_V1(cuckoofilter_agg_trans);

/* cf_agg(element, capacity): the rate bf_agg(element, capacity) has too */
#define CF_AGG_DEFAULT_RATE		0.01

typedef struct CfAggCache
{
	BloomElemType elem;			/* first: see bloom_fn_cache */
	CuckooFilter *state;		/* the state view is of, or NULL */
	Size		state_size;
	CuckooView	view;
	BloomHashParams hash;		/* of the state view is of */
} CfAggCache;

/*
 * cuckoofilter_agg_trans(state, element, capacity [, error_rate])
 *
 * Not strict: the first row of a group makes the state from the sizing
 * arguments; NULL elements are skipped.
 */
Datum
cuckoofilter_agg_trans(PG_FUNCTION_ARGS)
{
	CfAggCache *c = bloom_fn_cache(fcinfo, 1, false, sizeof(CfAggCache));
	CuckooFilter *in = PG_ARGISNULL(0) ? NULL : cf_agg_state_value(PG_GETARG_DATUM(0));
	CuckooFilter *st = in;
	BloomHash	h;
	Datum		result;

	if (st == NULL || st != c->state || VARSIZE_ANY(st) != c->state_size)
	{
		/* a group's first row, or another group's state: open it */
		bloom_require_aggregate(fcinfo, NULL, "cuckoofilter_agg_trans", "cf_agg");
		if (st == NULL)
		{
			if (PG_ARGISNULL(2) || (PG_NARGS() > 3 && PG_ARGISNULL(3)))
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("cf_agg capacity and error rate must not be null")));
			st = cf_create(PG_GETARG_INT64(2), PG_NARGS() > 3 ? PG_GETARG_FLOAT8(3) : CF_AGG_DEFAULT_RATE,
						   BLOOM_DEFAULT_SEED, CurrentMemoryContext);
			cf_read(PointerGetDatum(st), &c->view);
		}
		else if (VARATT_IS_EXTENDED(st))
			st = cf_copy(PointerGetDatum(st), &c->view);	/* not ours: a copy */
		else
			cf_read(PointerGetDatum(st), &c->view);
		c->hash = cf_hash_params(&c->view);
	}
	if (!PG_ARGISNULL(1))
	{
		if (unlikely(c->hash.key_type == 0) && c->view.hdr.items == 0)
		{
			bloom_key_first_add(&c->elem, &c->hash.key_type, true);
			cf_set_key_type(&c->view, c->hash.key_type);
		}
		h = bloom_key_hash_add(&c->elem, PG_GETARG_DATUM(1), c->hash);
	}
	result = cf_agg_add_hash(fcinfo, &st, &c->view, PG_ARGISNULL(1) ? NULL : &h, st != in);

	/* the executor copies a state that is not the one it passed in */
	c->state = st == in ? st : NULL;
	c->state_size = st == in ? VARSIZE(st) : 0;
	PG_RETURN_DATUM(result);
}
