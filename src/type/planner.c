/*-------------------------------------------------------------------------
 *
 * planner.c
 *	  What the planner knows about checks of both filter types: the
 *	  selectivity of bf_contains(filter, x), cf_contains(filter, x),
 *	  filter @> x and x <@ filter, and their cost.
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
 * so nothing about what they are given is assumed.  The filter is the
 * argument whose type is a filter type (bloomfilter, cuckoofilter, or a
 * domain over one, recognized by its input function, not its name) beside
 * one that is not: aliases and functions of the user's with the filter on
 * either side are estimated like ours, by calling them, and a value is
 * only ever read as the type it has.  Anything else (no filter, two
 * filters) gets the default.  A cuckoo filter is estimated as a bloom
 * filter is; its rate is what its sub-filters' fill predicts.
 *
 * The cost of a check is the hash plus the one cache line its block is in
 * (the probe cache holds a stored filter after its first use):
 * BLOOM_CHECK_COST operator costs; a cuckoo filter's check reads two
 * buckets, CUCKOO_CHECK_COST (XXX for one sub-filter: a grown filter reads
 * two more per sub-filter, which the cost does not see).  The one-time
 * read of a stored value is not charged; the planner cannot know its size.
 *
 * src/type/planner.c
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

#include "type/kind.h"
#include "type/kind_bloom.h"
#include "type/kind_cuckoo.h"

PG_FUNCTION_INFO_V1(bloomfilter_support);
PG_FUNCTION_INFO_V1(bloomfilter_contsel);
PG_FUNCTION_INFO_V1(bloomfilter_contjoinsel);

/* the input functions that recognize our types (type/io.c) */
extern PGDLLEXPORT Datum bloomfilter_in(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum cuckoofilter_in(PG_FUNCTION_ARGS);

#define BLOOM_DEFAULT_SELECTIVITY	0.1

/* a hash and one cache line, in units of cpu_operator_cost */
#define BLOOM_CHECK_COST			2.0
/* a hash and the two buckets of a sub-filter, two cache lines */
#define CUCKOO_CHECK_COST			3.0

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
 * A type of filter: the input function that recognizes it (its name and
 * schema are the user's to choose; its input function is ours), the cost
 * of one check, and its kind, which reads a value's facts.
 */
typedef struct FilterKind
{
	PGFunction	input;
	double		check_cost;
	const BloomKind *kind;
} FilterKind;

static const FilterKind filter_kinds[] = {
	{bloomfilter_in, BLOOM_CHECK_COST, &bloomfilter_kind},
	{cuckoofilter_in, CUCKOO_CHECK_COST, &cuckoofilter_kind}
};

/*
 * Whether the column's common values can be checked against the filter as
 * they are: an untyped filter hashes them as they come, a typed one when
 * they hash as its keys do.  Any other column's values would be converted
 * first, and a conversion can raise (text read by the key type's input, a
 * type the filter refuses) where the query itself would not: other clauses
 * may keep such values from ever reaching the check.  Both types hash
 * elements alike (type/keys/canon.c), so one rule serves both.
 */
static bool
bloom_stats_hash_as_is(const BloomFacts *facts, Oid column_type)
{
	return facts->key_type == 0 ||
		bloom_key_same_bytes(bloom_key_type_of(column_type), facts->key_type,
							 facts->hash_id);
}

/* the kind of filter typid (or the base type of a domain over it) is, or NULL */
static const FilterKind *
filter_kind_of(Oid typid)
{
	HeapTuple	tup;
	Oid			typinput;
	FmgrInfo	flinfo;

	if (!OidIsValid(typid))
		return NULL;
	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(getBaseType(typid)));
	if (!HeapTupleIsValid(tup))
		return NULL;
	typinput = ((Form_pg_type) GETSTRUCT(tup))->typinput;
	ReleaseSysCache(tup);
	if (!OidIsValid(typinput))
		return NULL;
	fmgr_info(typinput, &flinfo);
	for (int i = 0; i < lengthof(filter_kinds); i++)
		if (flinfo.fn_addr == filter_kinds[i].input)
			return &filter_kinds[i];
	return NULL;
}

/*
 * Which of a check's arguments is the filter, by their types, not by the
 * function's name or entry point, so that aliases and functions of the
 * user's get estimates too: the one argument of a filter type beside one
 * that is not.  Its kind, with the argument in *filter_arg; NULL for two
 * filters, none, or other than two arguments.
 */
static const FilterKind *
filter_check_args(List *args, int *filter_arg)
{
	const FilterKind *first;
	const FilterKind *second;

	if (list_length(args) != 2)
		return NULL;
	first = filter_kind_of(exprType(linitial(args)));
	second = filter_kind_of(exprType(lsecond(args)));
	if ((first == NULL) == (second == NULL))
		return NULL;
	*filter_arg = first != NULL ? 0 : 1;
	return first != NULL ? first : second;
}

/*
 * Selectivity of funcid(filter, element) (or with the filter second) over
 * the column statistics of the element in vardata: the check, called as
 * the executor would call it, asked about the most common values and the
 * histogram's bounds.
 */
static Selectivity
filter_stats_selectivity(VariableStatData *vardata, Oid funcid, Oid collation,
						 Const *fconst, bool filter_first, double fpp)
{
	FmgrInfo	flinfo;
	List	   *fargs;
	double		mcvsum,
				sumcommon,
				selec,
				nullfrac;
	int			hist_size;

	/*
	 * An expression whose arguments have the filter's and the statistics'
	 * types, so that the element type resolves as at run time.
	 */
	fmgr_info(funcid, &flinfo);
	fargs = list_make2(fconst, makeNullConst(vardata->atttype, vardata->atttypmod,
											 collation));
	if (!filter_first)
		fargs = list_make2(lsecond(fargs), linitial(fargs));
	fmgr_info_set_expr((Node *) makeFuncExpr(funcid, BOOLOID, fargs, InvalidOid,
											 collation, COERCE_EXPLICIT_CALL),
					   &flinfo);

	/* the most common values, exactly */
	mcvsum = mcv_selectivity(vardata, &flinfo, collation, fconst->constvalue,
							 !filter_first, &sumcommon);

	/* the rest, from the histogram's bounds, but no lower than the fpp */
	selec = histogram_selectivity(vardata, &flinfo, collation, fconst->constvalue,
								  !filter_first, BLOOM_MIN_HIST_SIZE, 0, &hist_size);
	selec = Max(bloom_hist_weighted(selec, hist_size), fpp);
	CLAMP_PROBABILITY(selec);

	/* a NULL element is not true either, if the check is strict */
	nullfrac = ((Form_pg_statistic) GETSTRUCT(vardata->statsTuple))->stanullfrac;
	if (!func_strict(funcid))
		nullfrac = 0.0;
	selec = selec * (1.0 - nullfrac - sumcommon) + mcvsum;
	CLAMP_PROBABILITY(selec);
	return selec;
}

/*
 * Selectivity of funcid(args) as a restriction on varRelid (0 for a join
 * clause): BLOOM_DEFAULT_SELECTIVITY unless one argument is a filter the
 * planner can see and the other is not a filter.
 */
static Selectivity
filter_check_selectivity(PlannerInfo *root, Oid funcid, Oid collation,
						 List *args, int varRelid)
{
	const FilterKind *kind;
	int			filter_arg;
	Node	   *filter;
	Const	   *fconst;
	BloomFacts	facts;
	VariableStatData vardata;
	Selectivity selec;

	kind = filter_check_args(args, &filter_arg);
	if (kind == NULL || !OidIsValid(funcid))
		return BLOOM_DEFAULT_SELECTIVITY;
	filter = estimate_expression_value(root, list_nth(args, filter_arg));
	if (!IsA(filter, Const))
		return BLOOM_DEFAULT_SELECTIVITY;
	fconst = (Const *) filter;
	if (fconst->constisnull)	/* a strict check passes nothing */
		return func_strict(funcid) ? 0.0 : BLOOM_DEFAULT_SELECTIVITY;
	kind->kind->facts(fconst->constvalue, &facts);

	examine_variable(root, list_nth(args, 1 - filter_arg), varRelid, &vardata);
	if (!HeapTupleIsValid(vardata.statsTuple) ||
		!bloom_stats_hash_as_is(&facts, vardata.atttype))
		selec = Max(BLOOM_DEFAULT_SELECTIVITY, facts.fpp);
	else
		selec = filter_stats_selectivity(&vardata, funcid, collation, fconst,
										 filter_arg == 0, facts.fpp);
	ReleaseVariableStats(vardata);
	return selec;
}

/* the arguments of the call or operator a cost request is for, if any */
static List *
filter_cost_args(Node *node)
{
	if (node == NULL)
		return NIL;
	if (IsA(node, FuncExpr))
		return ((FuncExpr *) node)->args;
	if (IsA(node, OpExpr))
		return ((OpExpr *) node)->args;
	return NIL;
}

/*
 * Planner support of the checks of both types (and through them of the
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

		req->selectivity = filter_check_selectivity(req->root, req->funcid,
													req->inputcollid, req->args,
													req->is_join ? 0 : req->varRelid);
		PG_RETURN_POINTER(req);
	}
	if (IsA(rawreq, SupportRequestCost))
	{
		SupportRequestCost *req = (SupportRequestCost *) rawreq;
		int			filter_arg;
		const FilterKind *kind = filter_check_args(filter_cost_args(req->node),
												   &filter_arg);

		req->startup = 0;
		req->per_tuple = (kind ? kind->check_cost : BLOOM_CHECK_COST) * cpu_operator_cost;
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

	PG_RETURN_FLOAT8(filter_check_selectivity(root, get_opcode(operator),
											  PG_GET_COLLATION(), args, varRelid));
}

/* JOIN estimator of @> and <@: the filter is another relation's, unknown */
Datum
bloomfilter_contjoinsel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			operator = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);

	PG_RETURN_FLOAT8(filter_check_selectivity(root, get_opcode(operator),
											  PG_GET_COLLATION(), args, 0));
}
