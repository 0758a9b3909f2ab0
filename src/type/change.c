/*-------------------------------------------------------------------------
 *
 * change.c
 *	  New filters and changes to them, for every filter kind: create, add,
 *	  add unless present, remove, and the forms that take an array.
 *
 * One path per change, generic over the kind (type/kind.h); the SQL
 * functions of both types are wrappers that pass theirs.  A change works
 * on a copy, so arguments are never modified.  Where what the kind looks
 * at first tells that the change would leave the value as it is (an
 * element already present for add_nx, one absent for a removal: a cuckoo
 * filter reads its whole value for that), the argument comes back without
 * a copy.  Hashes are applied in batches, so that the per-element loop
 * makes no call through the table.
 *
 * src/type/change.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/array.h"
#include "utils/arrayaccess.h"

#include "type/kind.h"
#include "type/kind_bloom.h"
#include "type/kind_cuckoo.h"

PG_FUNCTION_INFO_V1(bloomfilter_create);
PG_FUNCTION_INFO_V1(bloomfilter_add);
PG_FUNCTION_INFO_V1(bloomfilter_add_all);
PG_FUNCTION_INFO_V1(bloomfilter_remove);
PG_FUNCTION_INFO_V1(bloomfilter_remove_all);
PG_FUNCTION_INFO_V1(cuckoofilter_create);
PG_FUNCTION_INFO_V1(cuckoofilter_add);
PG_FUNCTION_INFO_V1(cuckoofilter_add_nx);
PG_FUNCTION_INFO_V1(cuckoofilter_add_all);
PG_FUNCTION_INFO_V1(cuckoofilter_delete);
PG_FUNCTION_INFO_V1(cuckoofilter_delete_all);

/*
 * Hashes gathered before one batched pass over the filter: enough for the
 * layout to overlap its cache misses, few enough to answer a cancel soon.
 */
#define BLOOM_ADD_CHUNK 4096

typedef enum BloomChange
{
	BLOOM_CHANGE_ADD,
	BLOOM_CHANGE_ADD_NX,		/* unless present: then unchanged, no copy */
	BLOOM_CHANGE_REMOVE
} BloomChange;

/*
 * bf_create(capacity, error_rate [, seed [, counting, expansion [,
 * key_type]]]) and cf_create(capacity, error_rate [, seed [, key_type]]).
 * Not strict from 1.3 on, for key_type's NULL default: NULL in any other
 * argument gives NULL.  The kind reads its own options and checks the key
 * type where it always has.
 */
static Datum
bloom_create_kind(FunctionCallInfo fcinfo, const BloomKind *kind)
{
	BloomCreateArgs args;
	BloomValue	val;

	for (int i = 0; i < Min(PG_NARGS(), kind->create_nstrict); i++)
		if (PG_ARGISNULL(i))
			PG_RETURN_NULL();
	args.capacity = PG_GETARG_INT64(0);
	args.error_rate = PG_GETARG_FLOAT8(1);
	args.seed = PG_NARGS() > 2 ? PG_GETARG_INT64(2) : BLOOM_DEFAULT_SEED;
	args.key_typid = InvalidOid;
	if (PG_NARGS() > kind->create_key_arg && !PG_ARGISNULL(kind->create_key_arg))
		args.key_typid = PG_GETARG_OID(kind->create_key_arg);
	args.fcinfo = fcinfo;
	kind->create(&args, &val);
	PG_RETURN_DATUM(bloom_value_datum(&val));
}

/*
 * Whether a change of the value opened in val by the element (argument 1)
 * can be skipped: add_nx of an element present, removal of one absent (or
 * that no key of the filter's type equals).  Sets *hp and, where the
 * element hashes, *h for the change itself.
 */
static bool
bloom_change_needless(FunctionCallInfo fcinfo, const BloomKind *kind, BloomChange change,
					  BloomElemType *et, const BloomValue *val, BloomHashParams *hp,
					  BloomHash *h)
{
	*hp = kind->hash_params(val);
	if (change == BLOOM_CHANGE_REMOVE)
		return !bloom_key_hash(et, PG_GETARG_DATUM(1), *hp, h) || kind->test(val, *h) == 0;
	bloom_key_first_add(et, &hp->key_type, kind->is_empty(val), PG_GETARG_DATUM(1));
	*h = bloom_key_hash_add(et, PG_GETARG_DATUM(1), *hp);
	return kind->test(val, *h) == 1;
}

/*
 * bf_add, bf_remove, cf_add, cf_add_nx, cf_delete: not strict, so that a
 * NULL element leaves the stored filter as it is (NULL filter: NULL).  A
 * filter that cannot forget is refused even then.
 */
static Datum
bloom_change_one(FunctionCallInfo fcinfo, const BloomKind *kind, BloomChange change)
{
	BloomElemType *et;
	BloomValue	val;
	BloomHashParams hp;
	BloomHash	h;
	bool		looked = false;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (change == BLOOM_CHANGE_REMOVE)
		looked = kind->check_removable(PG_GETARG_DATUM(0), &val);
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	et = bloom_fn_cache(fcinfo, 1, false, sizeof(BloomElemType));
	if (change != BLOOM_CHANGE_ADD)
	{
		if (!looked)
			kind->look(PG_GETARG_DATUM(0), &val);
		if (bloom_change_needless(fcinfo, kind, change, et, &val, &hp, &h))
			PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	kind->copy(PG_GETARG_DATUM(0), &val);
	if (change == BLOOM_CHANGE_ADD)
	{
		hp = kind->hash_params(&val);
		bloom_key_first_add(et, &hp.key_type, kind->is_empty(&val), PG_GETARG_DATUM(1));
		h = bloom_key_hash_add(et, PG_GETARG_DATUM(1), hp);
	}
	kind->set_key_type(&val, hp.key_type);
	if (change == BLOOM_CHANGE_REMOVE)
		kind->remove(&val, &h, 1);
	else
		kind->add(&val, &h, 1);
	PG_RETURN_DATUM(bloom_value_datum(&val));
}

/*
 * bf_add_all, bf_remove_all, cf_add_all, cf_delete_all: every non-NULL
 * element of the array, hashed in chunks that the kind applies as batches.
 * Removing a value no key of the filter's type equals removes nothing.
 */
static Datum
bloom_change_all(FunctionCallInfo fcinfo, const BloomKind *kind, bool remove)
{
	BloomElemType *et;
	AnyArrayType *arr;
	array_iter	it;
	int			nitems;
	BloomValue	val;
	BloomHashParams hp;
	BloomHash  *hashes;
	int			npending = 0;
	bool		empty;
	bool		typed = false;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (remove)
		(void) kind->check_removable(PG_GETARG_DATUM(0), &val);
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	et = bloom_fn_cache(fcinfo, 1, true, sizeof(BloomElemType));
	arr = PG_GETARG_ANY_ARRAY_P(1);
	nitems = ArrayGetNItems(AARR_NDIM(arr), AARR_DIMS(arr));
	kind->copy(PG_GETARG_DATUM(0), &val);
	hp = kind->hash_params(&val);
	empty = kind->is_empty(&val);

	hashes = palloc(sizeof(BloomHash) * Min(nitems, BLOOM_ADD_CHUNK) + 1);
	BLOOM_ARRAY_ITER_SETUP(&it, arr, et->typlen, et->typbyval, et->typalign);
	for (int i = 0; i <= nitems; i++)
	{
		bool		isnull = true;
		Datum		elem = 0;

		/* also where few elements give a hash (NULLs, or keys never added) */
		if ((i & (BLOOM_INTERRUPT_ELEMS - 1)) == BLOOM_INTERRUPT_ELEMS - 1)
			CHECK_FOR_INTERRUPTS();
		if (i < nitems)
			elem = BLOOM_ARRAY_ITER_NEXT(&it, &isnull, i, et->typlen, et->typbyval, et->typalign);
		/* the key type from the first element (a row's columns need one) */
		if (!remove && !typed && (!isnull || i == nitems))
		{
			bloom_key_first_add(et, &hp.key_type, empty, elem);
			kind->set_key_type(&val, hp.key_type);
			typed = true;
		}
		if (!isnull && !remove)
			hashes[npending++] = bloom_key_hash_add(et, elem, hp);
		else if (!isnull && bloom_key_hash(et, elem, hp, &hashes[npending]))
			npending++;
		if (npending == BLOOM_ADD_CHUNK || (i == nitems && npending > 0))
		{
			CHECK_FOR_INTERRUPTS();
			if (remove)
				kind->remove(&val, hashes, npending);
			else
				kind->add(&val, hashes, npending);
			npending = 0;
		}
	}
	pfree(hashes);
	PG_RETURN_DATUM(bloom_value_datum(&val));
}

/* ---- the SQL functions of both types ---- */

Datum
bloomfilter_create(PG_FUNCTION_ARGS)
{
	return bloom_create_kind(fcinfo, &bloomfilter_kind);
}

Datum
cuckoofilter_create(PG_FUNCTION_ARGS)
{
	return bloom_create_kind(fcinfo, &cuckoofilter_kind);
}

Datum
bloomfilter_add(PG_FUNCTION_ARGS)
{
	return bloom_change_one(fcinfo, &bloomfilter_kind, BLOOM_CHANGE_ADD);
}

/* takes the element out of a filter that can forget (a counting filter) */
Datum
bloomfilter_remove(PG_FUNCTION_ARGS)
{
	return bloom_change_one(fcinfo, &bloomfilter_kind, BLOOM_CHANGE_REMOVE);
}

Datum
cuckoofilter_add(PG_FUNCTION_ARGS)
{
	return bloom_change_one(fcinfo, &cuckoofilter_kind, BLOOM_CHANGE_ADD);
}

Datum
cuckoofilter_add_nx(PG_FUNCTION_ARGS)
{
	return bloom_change_one(fcinfo, &cuckoofilter_kind, BLOOM_CHANGE_ADD_NX);
}

Datum
cuckoofilter_delete(PG_FUNCTION_ARGS)
{
	return bloom_change_one(fcinfo, &cuckoofilter_kind, BLOOM_CHANGE_REMOVE);
}

Datum
bloomfilter_add_all(PG_FUNCTION_ARGS)
{
	return bloom_change_all(fcinfo, &bloomfilter_kind, false);
}

Datum
bloomfilter_remove_all(PG_FUNCTION_ARGS)
{
	return bloom_change_all(fcinfo, &bloomfilter_kind, true);
}

Datum
cuckoofilter_add_all(PG_FUNCTION_ARGS)
{
	return bloom_change_all(fcinfo, &cuckoofilter_kind, false);
}

Datum
cuckoofilter_delete_all(PG_FUNCTION_ARGS)
{
	return bloom_change_all(fcinfo, &cuckoofilter_kind, true);
}
