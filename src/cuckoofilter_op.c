/*-------------------------------------------------------------------------
 *
 * cuckoofilter_op.c
 *	  SQL entry points of the cuckoofilter type: creating, adding,
 *	  deleting, checking, counting, merging and describing.
 *
 * Functions that return a filter work on a copy (cf_copy); an argument is
 * changed in place only when it is the state of the aggregate calling us
 * (cf_merge as cf_agg's combine function).  Element hashing is
 * bloomfilter's (bloomfilter_elem.c), so an element matches in a
 * cuckoofilter exactly when it would in a bloomfilter of hash id 2.
 *
 * src/cuckoofilter_op.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "miscadmin.h"
#include "utils/array.h"
#include "utils/arrayaccess.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"

#include "bloomfilter_datum.h"
#include "bloomfilter_elem.h"
#include "bloomfilter_json.h"
#include "cuckoofilter.h"

PG_FUNCTION_INFO_V1(cuckoofilter_create);
PG_FUNCTION_INFO_V1(cuckoofilter_add);
PG_FUNCTION_INFO_V1(cuckoofilter_add_nx);
PG_FUNCTION_INFO_V1(cuckoofilter_add_all);
PG_FUNCTION_INFO_V1(cuckoofilter_delete);
PG_FUNCTION_INFO_V1(cuckoofilter_delete_all);
PG_FUNCTION_INFO_V1(cuckoofilter_contains);
PG_FUNCTION_INFO_V1(cuckoofilter_contained);
PG_FUNCTION_INFO_V1(cuckoofilter_contains_all);
PG_FUNCTION_INFO_V1(cuckoofilter_count);
PG_FUNCTION_INFO_V1(cuckoofilter_count_int4);
PG_FUNCTION_INFO_V1(cuckoofilter_merge);
PG_FUNCTION_INFO_V1(cuckoofilter_capacity);
PG_FUNCTION_INFO_V1(cuckoofilter_error_rate);
PG_FUNCTION_INFO_V1(cuckoofilter_items);
PG_FUNCTION_INFO_V1(cuckoofilter_fpp);
PG_FUNCTION_INFO_V1(cuckoofilter_info);
PG_FUNCTION_INFO_V1(cuckoofilter_key_type);
PG_FUNCTION_INFO_V1(cuckoofilter_set_key_type);

/*
 * cf_create(capacity, error_rate [, seed [, key_type]]): not strict from
 * 1.3 on, for key_type's NULL default; NULL elsewhere gives NULL.
 */
Datum
cuckoofilter_create(PG_FUNCTION_ARGS)
{
	CuckooFilter *cf;
	CuckooView	v;

	for (int i = 0; i < Min(PG_NARGS(), 3); i++)
		if (PG_ARGISNULL(i))
			PG_RETURN_NULL();
	cf = cf_create(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1),
				   PG_NARGS() > 2 ? PG_GETARG_INT64(2) : BLOOM_DEFAULT_SEED,
				   CurrentMemoryContext);
	if (PG_NARGS() > 3 && !PG_ARGISNULL(3))
	{
		cf_read(PointerGetDatum(cf), &v);
		cf_set_key_type(&v, bloom_key_type_arg(PG_GETARG_OID(3)));
	}
	PG_RETURN_POINTER(cf);
}

/*
 * cf_add, cf_add_nx, cf_delete: not strict, so that a NULL element leaves
 * the stored filter as it is (NULL filter: NULL).
 */
typedef enum CfVerb
{
	CF_ADD,
	CF_ADD_NX,
	CF_DELETE
} CfVerb;

static Datum
cf_change(FunctionCallInfo fcinfo, CfVerb verb)
{
	BloomElemType *et;
	CuckooFilter *cf;
	CuckooView	v;
	BloomHashParams hp;
	BloomHash	h;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	et = bloom_fn_cache(fcinfo, 1, false, sizeof(BloomElemType));
	if (verb != CF_ADD)
	{
		/* unchanged when present (add_nx) or absent (delete): no copy */
		cf_read(PG_GETARG_DATUM(0), &v);
		hp = cf_hash_params(&v.hdr);
		if (verb == CF_DELETE)
		{
			/* a value no key of the filter's type equals was never added */
			if (!bloom_key_hash(et, PG_GETARG_DATUM(1), hp, &h) || !cuckoo_contains(&v, h))
				PG_RETURN_DATUM(PG_GETARG_DATUM(0));
		}
		else
		{
			bloom_key_first_add(et, &hp.key_type, v.hdr.items == 0);
			h = bloom_key_hash_add(et, PG_GETARG_DATUM(1), hp);
			if (cuckoo_contains(&v, h))
				PG_RETURN_DATUM(PG_GETARG_DATUM(0));
		}
	}
	cf = cf_copy(PG_GETARG_DATUM(0), &v);
	if (verb == CF_ADD)
	{
		hp = cf_hash_params(&v.hdr);
		bloom_key_first_add(et, &hp.key_type, v.hdr.items == 0);
		h = bloom_key_hash_add(et, PG_GETARG_DATUM(1), hp);
	}
	cf_set_key_type(&v, hp.key_type);
	if (verb == CF_DELETE)
		(void) cuckoo_delete(&v, h);
	else
		cf_add_hash(&cf, &v, h, CurrentMemoryContext, true);
	PG_RETURN_POINTER(cf);
}

Datum
cuckoofilter_add(PG_FUNCTION_ARGS)
{
	return cf_change(fcinfo, CF_ADD);
}

Datum
cuckoofilter_add_nx(PG_FUNCTION_ARGS)
{
	return cf_change(fcinfo, CF_ADD_NX);
}

Datum
cuckoofilter_delete(PG_FUNCTION_ARGS)
{
	return cf_change(fcinfo, CF_DELETE);
}

/* cf_add_all and cf_delete_all: every non-NULL element of an array */
static Datum
cf_change_all(FunctionCallInfo fcinfo, bool delete)
{
	BloomElemType *et;
	AnyArrayType *arr;
	array_iter	it;
	int			nitems;
	CuckooFilter *cf;
	CuckooView	v;
	BloomHashParams hp;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	et = bloom_fn_cache(fcinfo, 1, true, sizeof(BloomElemType));
	arr = PG_GETARG_ANY_ARRAY_P(1);
	nitems = ArrayGetNItems(AARR_NDIM(arr), AARR_DIMS(arr));
	cf = cf_copy(PG_GETARG_DATUM(0), &v);
	hp = cf_hash_params(&v.hdr);
	if (!delete)
	{
		bloom_key_first_add(et, &hp.key_type, v.hdr.items == 0);
		cf_set_key_type(&v, hp.key_type);
	}

	array_iter_setup(&it, arr);
	for (int i = 0; i < nitems; i++)
	{
		bool		isnull;
		Datum		elem = array_iter_next(&it, &isnull, i, et->typlen, et->typbyval,
										   et->typalign);
		BloomHash	h;

		if ((i & (BLOOM_INTERRUPT_ELEMS - 1)) == BLOOM_INTERRUPT_ELEMS - 1)
			CHECK_FOR_INTERRUPTS();
		if (isnull)
			continue;
		if (!delete)
			cf_add_hash(&cf, &v, bloom_key_hash_add(et, elem, hp), CurrentMemoryContext, true);
		else if (bloom_key_hash(et, elem, hp, &h))
			(void) cuckoo_delete(&v, h);
	}
	PG_RETURN_POINTER(cf);
}

Datum
cuckoofilter_add_all(PG_FUNCTION_ARGS)
{
	return cf_change_all(fcinfo, false);
}

Datum
cuckoofilter_delete_all(PG_FUNCTION_ARGS)
{
	return cf_change_all(fcinfo, true);
}

Datum
cuckoofilter_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cf_probe(fcinfo, 0, 1, false) != 0);
}

/* element <@ filter: the commutator */
Datum
cuckoofilter_contained(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cf_probe(fcinfo, 1, 0, false) != 0);
}

/*
 * cf_contains_all(filter, elements): cf_contains for each element, in the
 * array's shape, NULL for NULL elements; batched as bf_contains_all.
 */
Datum
cuckoofilter_contains_all(PG_FUNCTION_ARGS)
{
	return bloom_contains_all(fcinfo, cf_probe_elem_type(fcinfo, 1, true), cf_probe_many);
}

/*
 * cf_count(filter, element): the entries matching the element, an integer
 * as bf_count's is.  Only the element's two buckets in each sub-filter can
 * match: at most 2 x 8 slots x CUCKOO_MAX_SUBFILTERS (64) = 1024.
 */
Datum
cuckoofilter_count_int4(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) cf_probe(fcinfo, 0, 1, true));
}

/*
 * 1.2's cf_count, bigint: what a 1.2 catalog calls until the upgrade, and
 * the cf_count_1_2 an upgrade keeps for objects that depend on it.
 */
Datum
cuckoofilter_count(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) cf_probe(fcinfo, 0, 1, true));
}

/*
 * cf_merge(a, b): a with b's entries re-inserted at their buckets; cf_agg's
 * combine function.  Not strict: a NULL operand is ignored (both NULL:
 * NULL).  In an aggregate the first operand is the state and is changed in
 * place; a grown state is new memory, which the executor copies and
 * adopts.
 */
Datum
cuckoofilter_merge(PG_FUNCTION_ARGS)
{
	CuckooFilter *a;
	CuckooView	va,
				vb;
	bool		in_place;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		return bloom_other_operand(fcinfo);
	/* filters that do not match fail before either is copied */
	cf_read_shape(PG_GETARG_DATUM(0), &va);
	cf_read_shape(PG_GETARG_DATUM(1), &vb);
	cf_check_shape(&va, &vb);
	in_place = bloom_agg_owns(fcinfo, 0);
	if (in_place)
	{
		a = (CuckooFilter *) DatumGetPointer(PG_GETARG_DATUM(0));
		cf_read(PG_GETARG_DATUM(0), &va);
	}
	else
		a = cf_copy(PG_GETARG_DATUM(0), &va);
	cf_read(PG_GETARG_DATUM(1), &vb);
	cf_set_key_type(&va, bloom_key_combine(va.hdr.key_type, va.hdr.items == 0,
										   vb.hdr.key_type, vb.hdr.items == 0, "merge"));
	cf_merge_into(&a, &va, &vb, CurrentMemoryContext, !in_place);
	PG_RETURN_POINTER(a);
}

/* ---- introspection ---- */

/* the header, after the same structural check every read makes */
static CuckooHeader
cf_arg_header(FunctionCallInfo fcinfo)
{
	CuckooView	v;

	cf_read(PG_GETARG_DATUM(0), &v);
	return v.hdr;
}

Datum
cuckoofilter_capacity(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) cf_arg_header(fcinfo).capacity);
}

Datum
cuckoofilter_error_rate(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(cf_arg_header(fcinfo).error_rate);
}

Datum
cuckoofilter_items(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) cf_arg_header(fcinfo).items);
}

/* cf_key_type(filter): the type of its keys, NULL if untyped */
Datum
cuckoofilter_key_type(PG_FUNCTION_ARGS)
{
	return bloom_key_type_result(fcinfo, cf_arg_header(fcinfo).key_type);
}

/* cf_set_key_type(filter, type): as bf_set_key_type */
Datum
cuckoofilter_set_key_type(PG_FUNCTION_ARGS)
{
	CuckooView	v;
	CuckooFilter *cf = cf_copy(PG_GETARG_DATUM(0), &v);

	cf_set_key_type(&v, bloom_key_reset(v.hdr.key_type, PG_GETARG_OID(1), "cuckoo filter"));
	PG_RETURN_POINTER(cf);
}

Datum
cuckoofilter_fpp(PG_FUNCTION_ARGS)
{
	CuckooView	v;

	cf_read(PG_GETARG_DATUM(0), &v);
	PG_RETURN_FLOAT8(cuckoo_fpp(&v));
}

/* cf_info(filter): the header, the fill, and each sub-filter's shape */
Datum
cuckoofilter_info(PG_FUNCTION_ARGS)
{
	CuckooView	v;
	BloomJson	js;
	uint64		slots;
	uint64		buckets = 0;

	cf_read(PG_GETARG_DATUM(0), &v);
	slots = cuckoo_slots(&v);
	for (int i = 0; i < v.hdr.nsub; i++)
		buckets += v.sub[i].nbuckets;
	bloom_json_begin_filter(&js, v.hdr.version, v.hdr.hash_id, v.hdr.seed, v.hdr.key_type,
							v.hdr.capacity, v.hdr.error_rate, (uint64) VARHDRSZ + v.len);
	bloom_json_uint(&js, "bucket_size", v.hdr.bucket_size);
	bloom_json_uint(&js, "fingerprint_bits", v.hdr.fp_bits);
	bloom_json_uint(&js, "max_kicks", v.hdr.max_kicks);
	bloom_json_uint(&js, "items", v.hdr.items);
	bloom_json_uint(&js, "buckets", buckets);
	bloom_json_uint(&js, "slots", slots);
	bloom_json_float8(&js, "load", (double) v.hdr.items / (double) slots);
	bloom_json_float8(&js, "fpp", cuckoo_fpp(&v));
	bloom_info_open(&js.sink, "subfilters", BLOOM_INFO_LIST);
	for (int i = 0; i < v.hdr.nsub; i++)
	{
		bloom_info_open(&js.sink, NULL, BLOOM_INFO_OBJECT);
		bloom_info_uint(&js.sink, "buckets", v.sub[i].nbuckets);
		bloom_info_uint(&js.sink, "fingerprint_bits", v.sub[i].fp_bits);
		bloom_info_uint(&js.sink, "items", v.sub[i].count);
		bloom_info_close(&js.sink);
	}
	bloom_info_close(&js.sink);
	PG_RETURN_JSONB_P(bloom_json_end(&js));
}
