/*-------------------------------------------------------------------------
 *
 * bloomfilter_support.c
 *	  What the planner knows about checks: the selectivity of
 *	  bf_contains(filter, x), filter @> x and x <@ filter, and their cost.
 *
 * A check is true for the elements added to the filter and for a fraction
 * of the others near its false-positive rate.  Which values of a column
 * those are, nothing but the filter itself can say, so when the planner can
 * see the filter (a constant, a bound parameter of a custom plan, a stable
 * expression that estimate_expression_value evaluates) the filter is asked,
 * as PostgreSQL asks operators it cannot reason about
 * (generic_restriction_selectivity): the most common values of the column
 * are checked one by one and weighted by their frequencies, and the rest of
 * the column is represented by its histogram bounds, the fraction of which
 * the filter passes.  Every absent value passes at the filter's
 * false-positive rate, so that rate (from the fill the header records) is a
 * floor under the histogram's part: a hundred bounds cannot see a fraction
 * of 1%, the fill can.
 *
 * When the filter is not known at plan time (a column of another relation
 * in a join, an initplan's result, a parameter of a generic plan), the
 * selectivity is BLOOM_DEFAULT_SELECTIVITY, 0.1.  A check's selectivity
 * lies between the filter's false-positive rate (about 1% for the usual
 * filter: nothing probed is present) and 1 (everything is); 0.1 is the
 * geometric middle of that range, so an estimate from it is off by at most
 * a factor of ten for any data in it, and a guard that rules out 90% of its
 * probes, the use a filter is made for, is estimated right.
 *
 * XXX The default is the weakest part: a join whose probes are mostly
 * present is underestimated up to tenfold.  Knowing better would need the
 * filter at plan time (statistics of a bloomfilter column keep no value
 * over 1 kB).  docs/reference.md (Planner estimates) says how to let the
 * planner see a filter.
 *
 * The estimators can be attached to any operator (CREATE OPERATOR ...
 * RESTRICT = bloomfilter_contsel) and the support function to any function,
 * so nothing about what they are given is assumed: an operator or call that
 * is not one of our checks (recognized by its C entry point, not its name)
 * with a bloomfilter on the side that check reads it from gets the default
 * too, rather than another type's bytes read as a filter.
 *
 * The cost of a check is the hash plus the one cache line its block is in
 * (the probe cache holds a stored filter after its first use):
 * BLOOM_CHECK_COST operator costs.  The one-time read of a stored value is
 * not charged; the planner cannot know its size.
 *
 * src/bloomfilter_support.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"

#include "bloomfilter_datum.h"
#include "bloomfilter_elem.h"

PG_FUNCTION_INFO_V1(bloomfilter_support);
PG_FUNCTION_INFO_V1(bloomfilter_contsel);
PG_FUNCTION_INFO_V1(bloomfilter_contjoinsel);

/* the entry points the estimators recognize (bloomfilter_op.c, bloomfilter_io.c) */
extern PGDLLEXPORT Datum bloomfilter_contains(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum bloomfilter_contained(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum bloomfilter_in(PG_FUNCTION_ARGS);

#define BLOOM_DEFAULT_SELECTIVITY	0.1

/* a hash and one cache line, in units of cpu_operator_cost */
#define BLOOM_CHECK_COST			2.0

/* fewer histogram bounds than this are not worth asking */
#define BLOOM_MIN_HIST_SIZE			10
/* as many bounds as histogram_selectivity needs to be trusted in full */
#define BLOOM_FULL_HIST_SIZE		100

/*
 * A histogram's selectivity selec (negative: none) from hist_size bounds:
 * a short one is trusted in proportion to its length, as PostgreSQL's
 * patternsel does, and the default fills in the rest.
 */
static double
bloom_hist_weighted(double selec, int hist_size)
{
	double		weight = (double) hist_size / BLOOM_FULL_HIST_SIZE;

	if (selec < 0)
		return BLOOM_DEFAULT_SELECTIVITY;
	if (hist_size >= BLOOM_FULL_HIST_SIZE)
		return selec;
	return selec * weight + BLOOM_DEFAULT_SELECTIVITY * (1.0 - weight);
}

/*
 * Whether the column's common values can be checked against the filter as
 * they are: an untyped filter hashes them as they come, a typed one when
 * they hash as its keys do.  Any other column's values would be converted
 * first, and a conversion can raise (text read by the key type's input, a
 * type the filter refuses) where the query itself would not: other clauses
 * may keep such values from ever reaching the check.
 */
static bool
bloom_stats_hash_as_is(const BloomHeader *hdr, Oid column_type)
{
	return hdr->key_type == 0 ||
		bloom_key_same_bytes(bloom_key_type_of(column_type), hdr->key_type,
							 hdr->hash_id);
}

/*
 * The false-positive rate of a filter as the header's count of bits set
 * predicts it: each of k bits set with the probability of the fill (for a
 * scalable filter, the sum its layout estimates over the sub-filters).
 * The header read is left in v.
 */
static double
bloom_header_fpp(Datum filter, BloomView *v)
{
	double		fill;

	bloom_read_header(filter, v);
	if (v->hdr.nbits == 0)
		return 0.0;
	if (v->layout->grow != NULL)
	{
		BloomView	whole;

		/* byte 7 counts sub-filters there: ask the layout, over the value */
		bloom_read(filter, &whole);
		return whole.layout->fpp(&whole.hdr, whole.payload);
	}
	fill = (double) v->hdr.bits_set / (double) v->hdr.nbits;
	return pow(fill, v->hdr.nhashes);
}

/* whether typid (or the base type of a domain over it) is bloomfilter */
static bool
bloom_is_filter_type(Oid typid)
{
	HeapTuple	tup;
	Oid			typinput;
	FmgrInfo	flinfo;

	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(getBaseType(typid)));
	if (!HeapTupleIsValid(tup))
		return false;
	typinput = ((Form_pg_type) GETSTRUCT(tup))->typinput;
	ReleaseSysCache(tup);
	/* the type's name and schema are the user's to choose; its input is ours */
	if (!OidIsValid(typinput))
		return false;
	fmgr_info(typinput, &flinfo);
	return flinfo.fn_addr == bloomfilter_in;
}

/*
 * Which argument of funcid holds the filter: 0 for bf_contains, 1 for
 * bf_contained, -1 for any other function.
 */
static int
bloom_check_filter_arg(Oid funcid)
{
	FmgrInfo	flinfo;

	if (!OidIsValid(funcid))
		return -1;
	fmgr_info(funcid, &flinfo);
	if (flinfo.fn_addr == bloomfilter_contains)
		return 0;
	if (flinfo.fn_addr == bloomfilter_contained)
		return 1;
	return -1;
}

/*
 * The function of operator opno if the operator is one of our checks
 * declared with a bloomfilter on the side the check reads it from, else
 * InvalidOid.
 */
static Oid
bloom_check_operator(Oid opno)
{
	HeapTuple	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));
	Form_pg_operator op;
	Oid			funcid;
	int			filter_arg;

	if (!HeapTupleIsValid(tup))
		return InvalidOid;
	op = (Form_pg_operator) GETSTRUCT(tup);
	funcid = op->oprcode;
	filter_arg = bloom_check_filter_arg(funcid);
	if (filter_arg < 0 ||
		!bloom_is_filter_type(filter_arg == 0 ? op->oprleft : op->oprright))
		funcid = InvalidOid;
	ReleaseSysCache(tup);
	return funcid;
}

/*
 * Selectivity of funcid(args) as a restriction on varRelid (0 for a join
 * clause): BLOOM_DEFAULT_SELECTIVITY unless it is a check of ours
 * (bf_contains: the filter first; bf_contained: the element first) whose
 * filter argument is a bloomfilter the planner can see.
 */
static Selectivity
bloom_check_selectivity(PlannerInfo *root, Oid funcid, Oid collation,
						List *args, int varRelid)
{
	int			filter_arg;
	bool		filter_first;
	Node	   *filter;
	Node	   *elem;
	Const	   *fconst;
	BloomView	fview;		/* its header, read once */
	VariableStatData vardata;
	FmgrInfo	flinfo;
	List	   *fargs;
	double		mcvsum,
				sumcommon,
				selec,
				fpp,
				nullfrac;
	int			hist_size;

	filter_arg = bloom_check_filter_arg(funcid);
	if (filter_arg < 0 || list_length(args) != 2 ||
		!bloom_is_filter_type(exprType(list_nth(args, filter_arg))))
		return BLOOM_DEFAULT_SELECTIVITY;
	filter_first = filter_arg == 0;
	filter = estimate_expression_value(root, filter_first ? linitial(args) : lsecond(args));
	elem = filter_first ? lsecond(args) : linitial(args);
	if (!IsA(filter, Const))
		return BLOOM_DEFAULT_SELECTIVITY;
	fconst = (Const *) filter;
	if (fconst->constisnull)
		return 0.0;				/* strict: a NULL filter passes nothing */
	fpp = bloom_header_fpp(fconst->constvalue, &fview);

	examine_variable(root, elem, varRelid, &vardata);
	if (!HeapTupleIsValid(vardata.statsTuple) ||
		!bloom_stats_hash_as_is(&fview.hdr, vardata.atttype))
	{
		ReleaseVariableStats(vardata);
		return Max(BLOOM_DEFAULT_SELECTIVITY, fpp);
	}

	/*
	 * The check, called as the executor would call it: with an expression
	 * whose arguments have the filter's and the statistics' types, so that
	 * the element type resolves as at run time.
	 */
	fmgr_info(funcid, &flinfo);
	fargs = list_make2(fconst, makeNullConst(vardata.atttype, vardata.atttypmod,
											 collation));
	if (!filter_first)
		fargs = list_make2(lsecond(fargs), linitial(fargs));
	fmgr_info_set_expr((Node *) makeFuncExpr(funcid, BOOLOID, fargs, InvalidOid,
											 collation, COERCE_EXPLICIT_CALL),
					   &flinfo);

	/* the most common values, exactly */
	mcvsum = mcv_selectivity(&vardata, &flinfo, collation, fconst->constvalue,
							 !filter_first, &sumcommon);

	/* the rest, from the histogram's bounds, but no lower than the fpp */
	selec = histogram_selectivity(&vardata, &flinfo, collation, fconst->constvalue,
								  !filter_first, BLOOM_MIN_HIST_SIZE, 0, &hist_size);
	selec = Max(bloom_hist_weighted(selec, hist_size), fpp);
	CLAMP_PROBABILITY(selec);

	/* a NULL element is not true either: the check is strict */
	nullfrac = ((Form_pg_statistic) GETSTRUCT(vardata.statsTuple))->stanullfrac;
	selec = selec * (1.0 - nullfrac - sumcommon) + mcvsum;
	ReleaseVariableStats(vardata);
	CLAMP_PROBABILITY(selec);
	return selec;
}

/*
 * Planner support of bf_contains and bf_contained (and through them of the
 * operators' costs): selectivity when they are called as functions in a
 * WHERE clause, and the cost of a call.
 */
Datum
bloomfilter_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	if (IsA(rawreq, SupportRequestSelectivity))
	{
		SupportRequestSelectivity *req = (SupportRequestSelectivity *) rawreq;

		req->selectivity = bloom_check_selectivity(req->root, req->funcid,
												   req->inputcollid, req->args,
												   req->is_join ? 0 : req->varRelid);
		PG_RETURN_POINTER(req);
	}
	if (IsA(rawreq, SupportRequestCost))
	{
		SupportRequestCost *req = (SupportRequestCost *) rawreq;

		req->startup = 0;
		req->per_tuple = BLOOM_CHECK_COST * cpu_operator_cost;
		PG_RETURN_POINTER(req);
	}
	PG_RETURN_POINTER(NULL);
}

/* RESTRICT estimator of @> and <@ */
Datum
bloomfilter_contsel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			operator = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);

	PG_RETURN_FLOAT8(bloom_check_selectivity(root, bloom_check_operator(operator),
											 PG_GET_COLLATION(), args, varRelid));
}

/* JOIN estimator of @> and <@: the filter is another relation's, unknown */
Datum
bloomfilter_contjoinsel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			operator = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);

	PG_RETURN_FLOAT8(bloom_check_selectivity(root, bloom_check_operator(operator),
											 PG_GET_COLLATION(), args, 0));
}
