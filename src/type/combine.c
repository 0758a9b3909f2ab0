/*-------------------------------------------------------------------------
 *
 * combine.c
 *	  Unions, intersections and merges of two filters of one kind, and the
 *	  error that operands of different shape raise.
 *
 * One path, generic over the kind (type/kind.h): bf_union,
 * bf_intersect and cf_merge are wrappers that pass theirs.  Operands that
 * cannot be combined are refused from what the kind reads first (headers,
 * or the front of a cuckoo filter), before either is copied whole.  In an
 * aggregate (bf_union_agg's transition, the combine step of a parallel
 * plan) the first operand is the aggregate's state and is changed in
 * place; elsewhere the result is a copy.  The unsized aggregate's lists of
 * hashes are bloomfilter's own special case (type/agg.c).
 *
 * src/type/combine.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "type/agg.h"
#include "type/kind.h"
#include "type/kind_bloom.h"
#include "type/kind_cuckoo.h"

PG_FUNCTION_INFO_V1(bloomfilter_union);
PG_FUNCTION_INFO_V1(bloomfilter_intersect);
PG_FUNCTION_INFO_V1(cuckoofilter_merge);

/*
 * Union-like functions of either filter type ignore a NULL operand, as
 * aggregates ignore NULL rows: the other operand, or NULL if both are.
 * Call when either argument is NULL.
 */
static Datum
bloom_other_operand(FunctionCallInfo fcinfo)
{
	if (PG_ARGISNULL(0) && PG_ARGISNULL(1))
		PG_RETURN_NULL();
	PG_RETURN_DATUM(PG_GETARG_DATUM(PG_ARGISNULL(0) ? 1 : 0));
}

/*
 * Union (merge) or intersection.  Not strict: a NULL operand is ignored, as
 * aggregates ignore NULL rows, so that
 *		UPDATE t SET bf = bf_union(bf, (SELECT bf_agg(...) FROM new_rows))
 * keeps the stored filter when there are no new rows.  Both NULL: NULL.
 * The four views (a cuckoo filter's is about 3.5 kB) stay on the stack: a
 * transition function of bf_union_agg comes here once a row.
 */
static Datum
bloom_combine_kind(FunctionCallInfo fcinfo, const BloomKind *kind, bool intersect)
{
	BloomValue	a,
				b,
				dst,
				src;
	int			dst_arg = 0;
	uint32		key_type;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		return bloom_other_operand(fcinfo);
	kind->look_shape(PG_GETARG_DATUM(0), &a);
	kind->look_shape(PG_GETARG_DATUM(1), &b);
	key_type = kind->check_combine(&a, &b, intersect);
	if (kind->into_second(&a, &b))
		dst_arg = 1;
	if (intersect || dst_arg == 1)
		kind->copy(PG_GETARG_DATUM(dst_arg), &dst);
	else if (bloom_agg_owns(fcinfo, 0))
		kind->adopt((struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0)), &dst);
	else
		kind->copy(PG_GETARG_DATUM(0), &dst);
	kind->read(PG_GETARG_DATUM(1 - dst_arg), &src);
	kind->set_key_type(&dst, key_type);
	if (!kind->combine(&dst, &src, intersect))
		bloom_kind_shape_error(kind, &a, &b, intersect);
	kind->finish(&dst);
	PG_RETURN_DATUM(bloom_value_datum(&dst));
}

/* an unsized aggregate's partial states: hashes, added rather than ORed */
Datum
bloomfilter_union(PG_FUNCTION_ARGS)
{
	if (!PG_ARGISNULL(0) && !PG_ARGISNULL(1) && bloom_union_takes_hashes(fcinfo))
		return bloom_union_hashes(fcinfo);
	return bloom_combine_kind(fcinfo, &bloomfilter_kind, false);
}

Datum
bloomfilter_intersect(PG_FUNCTION_ARGS)
{
	return bloom_combine_kind(fcinfo, &bloomfilter_kind, true);
}

/*
 * cf_merge(a, b): a with b's entries re-inserted at their buckets; cf_agg's
 * combine function.  A grown state is new memory, which the executor
 * copies and adopts.
 */
Datum
cuckoofilter_merge(PG_FUNCTION_ARGS)
{
	return bloom_combine_kind(fcinfo, &cuckoofilter_kind, false);
}
