/*-------------------------------------------------------------------------
 *
 * cache.c
 *	  The element type of a call site: resolved on its first call, kept in
 *	  fn_extra, and remembered per backend across executions.
 *
 * A point check costs about as many instructions as resolving its argument's
 * type and planning its key conversion, so neither may happen per row nor,
 * for a prepared statement, per execution: the per-call-site cache and the
 * backend's memo below keep both, and forget them when the catalogs they
 * were read from change.
 *
 * src/type/keys/cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "type/keys/cache.h"
#include "type/keys/text.h"

/*
 * The type of argument argno as the function declares it, or InvalidOid if
 * that is polymorphic.  Distributed engines (Citus's worker_partial_agg)
 * call a transition function through a bare FmgrInfo with no call
 * expression; an overload with a concrete element type still says what it
 * takes.
 */
static Oid
bloom_declared_argtype(FunctionCallInfo fcinfo, int argno)
{
	Oid		   *argtypes;
	int			nargs;
	Oid			typid = InvalidOid;

	if (!OidIsValid(fcinfo->flinfo->fn_oid))
		return InvalidOid;
	(void) get_func_signature(fcinfo->flinfo->fn_oid, &argtypes, &nargs);
	if (argno < nargs && !IsPolymorphicType(argtypes[argno]))
		typid = argtypes[argno];
	pfree(argtypes);
	return typid;
}

/*
 * The backend's memo of element types.  A call site's cache in fn_extra
 * lives as long as its expression state, which for a prepared statement is
 * one execution: without the memo each execution of a point check would
 * look up the element's type (base type, length, element type, row type,
 * send function, collation) and plan its key conversion again, about as
 * many instructions as the rest of the check.  The memo keeps, per (type,
 * collation), the element type bloom_elem_init made and the last plan a
 * check made of it; a call site gets a copy of its own in fn_extra, so
 * nothing a call site holds points into the memo, and forgetting an entry
 * (below) never leaves a query with freed memory.
 *
 * What an entry was made from, and so what forgets it: pg_type (the type,
 * its base type if a domain, its element type, whether it is an enum or a
 * row type, its length, its send and input functions: ALTER TYPE, ALTER
 * DOMAIN, DROP and CREATE of any type, an extension's types), pg_proc (the
 * send function and the key type's input function, which fmgr resolved:
 * CREATE OR REPLACE FUNCTION) and pg_collation (whether the collation is
 * deterministic).  Any invalidation of those catalogs forgets every entry:
 * they change rarely, and an entry costs one lookup to make again.  The
 * typmod does not enter: no plan reads it (a row's is read per value).
 * Session settings that a conversion reads (DateStyle, TimeZone, ...) are
 * read when the text is, not kept.  Rows (their column cache is per value)
 * and plans for rows are not kept.
 */
#define BLOOM_ELEM_MEMO_SIZE	8


typedef struct BloomElemMemo
{
	uint32		gen;			/* valid while it is bloom_elem_memo_gen */
	Oid			typid;
	Oid			collation;
	MemoryContext cxt;			/* et's nested types and functions */
	BloomElemType et;
} BloomElemMemo;

static BloomElemMemo bloom_elem_memo[BLOOM_ELEM_MEMO_SIZE];
static int	bloom_elem_memo_victim;
static uint32 bloom_elem_memo_gen = 1;
static bool bloom_elem_memo_callbacks;

/* pg_type, pg_proc or pg_collation changed: forget every entry */
static void
bloom_elem_memo_forget(Datum arg, int cacheid, uint32 hashvalue)
{
	(void) arg;
	(void) cacheid;
	(void) hashvalue;
	bloom_elem_memo_gen++;
	/* 0 marks a type that did not come from the memo */
	if (bloom_elem_memo_gen == 0)
		bloom_elem_memo_gen = 1;
	for (int i = 0; i < BLOOM_ELEM_MEMO_SIZE; i++)
		bloom_elem_memo[i].gen = 0;
}

/* whether et and its nested types can be copied (rows hold a per-value cache) */
static bool
bloom_elem_copyable(const BloomElemType *et)
{
	if (et == NULL)
		return true;
	if (et->kind == BLOOM_ELEM_RECORD || et->conv == BLOOM_CONV_ROW ||
		et->rec_cols != NULL)
		return false;
	return bloom_elem_copyable(et->elem) && bloom_elem_copyable(et->conv_out);
}

/* src with its nested types and functions copied into mcxt */
static void
bloom_elem_copy(BloomElemType *dst, BloomElemType *src, MemoryContext mcxt)
{
	memcpy(dst, src, sizeof(BloomElemType));
	dst->mcxt = mcxt;
	if (OidIsValid(src->send.fn_oid))
		fmgr_info_copy(&dst->send, &src->send, mcxt);
	if (OidIsValid(src->conv_input.fn_oid))
		fmgr_info_copy(&dst->conv_input, &src->conv_input, mcxt);
	if (src->elem != NULL)
	{
		dst->elem = MemoryContextAlloc(mcxt, sizeof(BloomElemType));
		bloom_elem_copy(dst->elem, src->elem, mcxt);
	}
	if (src->conv_out != NULL)
	{
		dst->conv_out = MemoryContextAlloc(mcxt, sizeof(BloomElemType));
		bloom_elem_copy(dst->conv_out, src->conv_out, mcxt);
	}
}

static BloomElemMemo *
bloom_elem_memo_find(Oid typid, Oid collation)
{
	for (int i = 0; i < BLOOM_ELEM_MEMO_SIZE; i++)
	{
		BloomElemMemo *m = &bloom_elem_memo[i];

		if (m->gen == bloom_elem_memo_gen && m->typid == typid &&
			m->collation == collation)
			return m;
	}
	return NULL;
}

/* keep a copy of et (made now) in the memo, in place of an older entry */
static void
bloom_elem_memo_keep(BloomElemType *et)
{
	BloomElemMemo *m;

	if (!bloom_elem_copyable(et))
		return;
	if (!bloom_elem_memo_callbacks)
	{
		CacheRegisterSyscacheCallback(TYPEOID, bloom_elem_memo_forget, (Datum) 0);
		CacheRegisterSyscacheCallback(PROCOID, bloom_elem_memo_forget, (Datum) 0);
		CacheRegisterSyscacheCallback(COLLOID, bloom_elem_memo_forget, (Datum) 0);
		bloom_elem_memo_callbacks = true;
	}
	m = bloom_elem_memo_find(et->typid, et->collation);
	if (m == NULL)
	{
		m = &bloom_elem_memo[bloom_elem_memo_victim];
		bloom_elem_memo_victim = (bloom_elem_memo_victim + 1) % BLOOM_ELEM_MEMO_SIZE;
	}
	/* not valid until complete: an error below leaves no half-made entry */
	m->gen = 0;
	if (m->cxt == NULL)
		m->cxt = AllocSetContextCreate(TopMemoryContext, "bloomfilter element types",
									   ALLOCSET_SMALL_SIZES);
	else
		MemoryContextReset(m->cxt);
	bloom_elem_copy(&m->et, et, m->cxt);
	m->typid = et->typid;
	m->collation = et->collation;
	m->gen = bloom_elem_memo_gen;
}

/*
 * et (of a call site) has a new plan: keep it in the memo if et came from
 * the memo of this generation, so the call site's next execution starts
 * with it.  Only a check's plans are kept, and none for rows: an add's
 * plan differs only in refusing fewer untyped rows (refuse_untyped), and
 * bloom_key_hash_add takes a check's plan as its own for every other key.
 */
void
bloom_elem_memo_replan(BloomElemType *et)
{
	if (et->memo_gen != bloom_elem_memo_gen || et->plan_add ||
		et->plan_key == RECORDOID || (et->plan_key & BLOOM_KEY_ROW_FLAG))
		return;
	bloom_elem_memo_keep(et);
}

/*
 * et as bloom_elem_init makes it, from the memo when it has the type, with
 * the plan last kept for it.
 */
static void
bloom_elem_init_memo(BloomElemType *et, Oid typid, Oid collation, MemoryContext mcxt)
{
	BloomElemMemo *m = bloom_elem_memo_find(typid, collation);

	if (m != NULL)
		bloom_elem_copy(et, &m->et, mcxt);
	else
	{
		bloom_elem_init(et, typid, collation, mcxt);
		bloom_elem_memo_keep(et);
	}
	et->memo_gen = bloom_elem_memo_gen;
}

/* the slow path of bloom_fn_cache: the first call at a call site */
void *
bloom_fn_cache_init(FunctionCallInfo fcinfo, int argno, bool array_element, Size size)
{
	BloomElemType *et;
	Oid			typid = get_fn_expr_argtype(fcinfo->flinfo, argno);

	if (!OidIsValid(typid))
		typid = bloom_declared_argtype(fcinfo, argno);
	if (!OidIsValid(typid))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("could not determine the element type of a bloom filter argument")));
	if (array_element)
	{
		Oid			elemtype = get_element_type(getBaseType(typid));

		if (!OidIsValid(elemtype))
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("argument of type %s is not an array", format_type_be(typid))));
		typid = elemtype;
	}

	Assert(size >= sizeof(BloomElemType));
	et = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, size);
	bloom_elem_init_memo(et, typid, PG_GET_COLLATION(), fcinfo->flinfo->fn_mcxt);
	/*
	 * Refuse a value that reached a text argument through an implicit cast
	 * before fn_extra keeps its type: later calls find the cache and never
	 * come here.
	 */
	if (!array_element && bloom_is_textlike(et->base_typid))
		bloom_check_implicit_text(fcinfo, argno, typid);
	fcinfo->flinfo->fn_extra = et;
	return et;
}
