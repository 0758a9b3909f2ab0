/*-------------------------------------------------------------------------
 *
 * bloomfilter_am_func.c
 *	  SQL functions that read a bloomfilter index: bf_index_contains,
 *	  bf_index_contains_all, bf_index_filter and bf_index_info.
 *
 * The planner never scans a bloomfilter index (bloomfilter_am.c), so these
 * are how a query asks it.  Each opens the index as an index scan would
 * (the table locked first, then the index, both AccessShareLock) after
 * checking that the caller may read the table: a filter reveals which keys
 * the table holds.  A point check reads the metapage from the relcache and
 * one data page.
 *
 * A probe key of a one-column index is converted to the column's type by
 * the typed-key rules (bloomfilter_key.c), as a filter of that key type
 * converts it; each column of a row for a multi-column index by the
 * simpler rules of bloom_am_key_datum.
 *
 * src/bloomfilter_am_func.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "catalog/index.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/arrayaccess.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/typcache.h"

#include "bloomfilter_am.h"
#include "bloomfilter_datum.h"
#include "bloomfilter_elem.h"

PG_FUNCTION_INFO_V1(bloomfilter_index_contains);
PG_FUNCTION_INFO_V1(bloomfilter_index_contains_all);
PG_FUNCTION_INFO_V1(bloomfilter_index_filter);
PG_FUNCTION_INFO_V1(bloomfilter_index_info);

/* a REINDEX would pay once this share of the build's keys has gone stale */
#define BLOOM_AM_STALE_SHARE	0.1

/* fn_extra of the functions taking keys: the index the call site saw last */
typedef struct BloomAmProbe
{
	Oid			indexoid;
	Oid			heapoid;
	int			natts;
	Oid			coltypes[INDEX_MAX_KEYS];
	Oid			colcollations[INDEX_MAX_KEYS];
	/* the key type of each column, as a filter of the same keys records it */
	uint32		colkeys[INDEX_MAX_KEYS];
	/* the probe's type, converted by the typed-key rules (a row's column by column) */
	Oid			probe_type;
	BloomElemType probe_et;
} BloomAmProbe;

/* ---- opening an index ---- */

static bool
bloom_am_may_read(Oid heapoid, Oid indexoid)
{
	if (pg_class_aclcheck(heapoid, GetUserId(), ACL_SELECT) == ACLCHECK_OK)
		return true;
#if PG_VERSION_NUM >= 160000
	return object_ownercheck(RelationRelationId, indexoid, GetUserId());
#else
	return pg_class_ownercheck(indexoid, GetUserId());
#endif
}

/*
 * The index argument, opened; its table's OID in *heapoid.  The caller's
 * right to read the table is checked before anything is locked or read.
 */
static Relation
bloom_am_open(Oid indexoid, Oid *heapoid)
{
	Relation	index;

	*heapoid = IndexGetRelation(indexoid, true);
	if (!OidIsValid(*heapoid))
	{
		char	   *name = get_rel_name(indexoid);

		if (name == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("relation with OID %u does not exist", indexoid)));
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not an index", name)));
	}
	if (!bloom_am_may_read(*heapoid, indexoid))
		aclcheck_error(ACLCHECK_NO_PRIV, OBJECT_TABLE, get_rel_name(*heapoid));

	/* table first, then index, as every reader of an index locks them */
	LockRelationOid(*heapoid, AccessShareLock);
	index = index_open(indexoid, AccessShareLock);
	if (index->rd_rel->relkind == RELKIND_PARTITIONED_INDEX)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("cannot read partitioned index \"%s\"", RelationGetRelationName(index)),
				 errhint("Ask the index of each partition.")));
	if (!bloom_am_is_ours(index))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("index \"%s\" is not a bloomfilter index", RelationGetRelationName(index))));
	/* one being built concurrently may not hold every row yet */
	if (!index->rd_index->indisvalid)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("bloomfilter index \"%s\" is not valid", RelationGetRelationName(index)),
				 errdetail("An index whose concurrent build failed or is under way may lack keys."),
				 errhint("REINDEX it, or wait for CREATE INDEX CONCURRENTLY to finish.")));
	return index;
}

static void
bloom_am_close(Relation index, Oid heapoid)
{
	index_close(index, AccessShareLock);
	UnlockRelationOid(heapoid, AccessShareLock);
}

/* ---- keys ---- */

/* the call site's cache, for the index about to be read */
static BloomAmProbe *
bloom_am_probe(FunctionCallInfo fcinfo, Relation index, Oid heapoid)
{
	BloomAmProbe *p = (BloomAmProbe *) fcinfo->flinfo->fn_extra;

	if (p == NULL)
		p = fcinfo->flinfo->fn_extra =
			MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(BloomAmProbe));
	if (p->indexoid != RelationGetRelid(index))
	{
		memset(p, 0, sizeof(*p));
		p->natts = IndexRelationGetNumberOfKeyAttributes(index);
		for (int i = 0; i < p->natts; i++)
		{
			p->coltypes[i] = TupleDescAttr(RelationGetDescr(index), i)->atttypid;
			p->colcollations[i] = index->rd_indcollation[i];
			p->colkeys[i] = bloom_key_type_of(p->coltypes[i]);
		}
		p->heapoid = heapoid;
		p->indexoid = RelationGetRelid(index);
	}
	return p;
}

/*
 * The hash of a probe key of type keytype, as the build hashed keys; false
 * when no key of the column's type equals it.  The key is converted as a
 * filter whose key type is the column's converts it (bloomfilter_key.c:
 * text read by the column type's input, integers, numerics and floats,
 * dates and timestamps, oids as SQL compares them; 42804 where that is
 * ambiguous or session-dependent); a row for several columns column by
 * column, as a filter of such rows converts a probe row.
 */
static bool
bloom_am_probe_hash(BloomAmProbe *p, Oid keytype, Datum key,
					const BloomHeader *hdr, MemoryContext mcxt, BloomHash *h)
{
	BloomHashParams hp = bloom_hash_params(hdr);

	if (p->natts > 1 && !type_is_rowtype(getBaseType(keytype)))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("a key of type %s cannot be checked against an index of %d columns",
						format_type_be(keytype), p->natts),
				 errhint("Give the key as a row: ROW(a, b).")));
	if (p->probe_type != keytype)
	{
		p->probe_type = InvalidOid;
		bloom_elem_init(&p->probe_et, keytype, p->colcollations[0], mcxt);
		p->probe_type = keytype;
	}
	if (p->natts > 1)
		return bloom_elem_hash_row_keyed(&p->probe_et, key, hp, p->colkeys, p->natts,
										 false, h);
	hp.key_type = p->colkeys[0];
	return bloom_key_hash(&p->probe_et, key, hp, h);
}

/* whether the filter's block for h has all of h's bits: one page read */
static bool
bloom_am_test(Relation index, const BloomHeader *hdr, BloomHash h)
{
	uint8	   *block;
	Buffer		buf = bloom_am_lock_block(index, hdr, h, BUFFER_LOCK_SHARE, &block);
	bool		found = bloom_block_test_hash(block, h, hdr->nhashes);

	UnlockReleaseBuffer(buf);
	return found;
}

/* ---- the functions ---- */

/* bf_index_contains(index regclass, key anyelement | text) */
Datum
bloomfilter_index_contains(PG_FUNCTION_ARGS)
{
	Oid			heapoid;
	Relation	index = bloom_am_open(PG_GETARG_OID(0), &heapoid);
	const BloomAmMetaCache *mc = bloom_am_meta(index);
	BloomAmProbe *p = bloom_am_probe(fcinfo, index, heapoid);
	BloomHash	h;
	bool		found;

	bloom_check_implicit_text(fcinfo, 1, get_fn_expr_argtype(fcinfo->flinfo, 1));
	found = bloom_am_probe_hash(p, get_fn_expr_argtype(fcinfo->flinfo, 1),
								PG_GETARG_DATUM(1), &mc->hdr, fcinfo->flinfo->fn_mcxt, &h) &&
		bloom_am_test(index, &mc->hdr, h);
	bloom_am_close(index, heapoid);
	PG_RETURN_BOOL(found);
}

/*
 * bf_index_contains_all(index regclass, keys anyarray | text[]): an answer
 * per element, in the array's shape, NULL for a NULL element.
 */
Datum
bloomfilter_index_contains_all(PG_FUNCTION_ARGS)
{
	Oid			heapoid;
	Relation	index = bloom_am_open(PG_GETARG_OID(0), &heapoid);
	const BloomAmMetaCache *mc = bloom_am_meta(index);
	BloomAmProbe *p = bloom_am_probe(fcinfo, index, heapoid);
	AnyArrayType *arr = PG_GETARG_ANY_ARRAY_P(1);
	Oid			elemtype = AARR_ELEMTYPE(arr);
	int			nitems = ArrayGetNItems(AARR_NDIM(arr), AARR_DIMS(arr));
	BloomHash	h;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Datum	   *answers = palloc(Max(nitems, 1) * sizeof(Datum));
	bool	   *nulls = palloc(Max(nitems, 1) * sizeof(bool));
	array_iter	it;
	ArrayType  *result;

	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	array_iter_setup(&it, arr);
	for (int i = 0; i < nitems; i++)
	{
		Datum		elem = array_iter_next(&it, &nulls[i], i, typlen, typbyval, typalign);

		if (i % BLOOM_AM_INTERRUPT_KEYS == 0)
			CHECK_FOR_INTERRUPTS();
		answers[i] = nulls[i] ? (Datum) 0 :
			BoolGetDatum(bloom_am_probe_hash(p, elemtype, elem, &mc->hdr,
											 fcinfo->flinfo->fn_mcxt, &h) &&
						 bloom_am_test(index, &mc->hdr, h));
	}
	bloom_am_close(index, heapoid);
	result = construct_md_array(answers, nulls, AARR_NDIM(arr), AARR_DIMS(arr),
								AARR_LBOUND(arr), BOOLOID, 1, true, TYPALIGN_CHAR);
	PG_RETURN_ARRAYTYPE_P(result);
}

/*
 * The key type a filter of the index's keys records: its column's, or for
 * several columns the signature of their types (record if none fits).
 */
static uint32
bloom_am_key_type(Relation index)
{
	TupleDesc	desc = RelationGetDescr(index);
	uint32		types[BLOOM_ROW_MAX_COLUMNS];
	uint32		key;

	if (desc->natts == 1)
		return bloom_key_type_of(TupleDescAttr(desc, 0)->atttypid);
	if (desc->natts > BLOOM_ROW_MAX_COLUMNS)
		return RECORDOID;
	for (int i = 0; i < desc->natts; i++)
		types[i] = bloom_key_type_of(TupleDescAttr(desc, i)->atttypid);
	key = bloom_row_key_encode(types, desc->natts);
	return key != 0 ? key : RECORDOID;
}

/*
 * The filter as a bloomfilter value, read a page at a time under share
 * locks: every key committed before the call is in it.
 */
static BloomFilter *
bloom_am_snapshot(Relation index)
{
	const BloomAmMetaCache *mc = bloom_am_meta(index);
	BloomHeader hdr = mc->hdr;
	uint64		nblocks = bloom_nblocks(&hdr);
	Size		size = BLOOMFILTER_SIZE(nblocks * BLOOM_BLOCK_BYTES);
	BloomFilter *bf = bloom_palloc(CurrentMemoryContext, size);
	uint8	   *payload = BLOOMFILTER_PAYLOAD(bf);

	SET_VARSIZE(bf, size);
	for (uint32 p = 0; p < mc->meta.ndatapages; p++)
	{
		uint64		first = (uint64) p * BLOOM_AM_BLOCKS_PER_PAGE;
		uint64		n = Min(BLOOM_AM_BLOCKS_PER_PAGE, nblocks - first);
		Buffer		buf = ReadBuffer(index, p + 1);
		Page		page;

		CHECK_FOR_INTERRUPTS();
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		bloom_am_check_data_page(index, page, p + 1);
		memcpy(payload + first * BLOOM_BLOCK_BYTES, bloom_am_block_in_page(page, first),
			   n * BLOOM_BLOCK_BYTES);
		UnlockReleaseBuffer(buf);
	}
	hdr.bits_set = bloom_popcount(payload, nblocks * BLOOM_BLOCK_BYTES);

	/* the key type a filter of the same keys records (bloomfilter_key.c) */
	hdr.key_type = bloom_am_key_type(index);
	bloom_set_header(bf, &hdr);
	return bf;
}

/* bf_index_filter(index regclass): a snapshot of the filter */
Datum
bloomfilter_index_filter(PG_FUNCTION_ARGS)
{
	Oid			heapoid;
	Relation	index = bloom_am_open(PG_GETARG_OID(0), &heapoid);
	BloomFilter *bf = bloom_am_snapshot(index);

	bloom_am_close(index, heapoid);
	PG_RETURN_BLOOMFILTER_P(bf);
}

/* ---- bf_index_info ---- */

static void
bloom_am_json_key(JsonbParseState **st, const char *key)
{
	JsonbValue	k;

	k.type = jbvString;
	k.val.string.val = (char *) key;
	k.val.string.len = strlen(key);
	pushJsonbValue(st, WJB_KEY, &k);
}

static void
bloom_am_json_numeric(JsonbParseState **st, const char *key, Numeric num)
{
	JsonbValue	v;

	bloom_am_json_key(st, key);
	v.type = jbvNumeric;
	v.val.numeric = num;
	pushJsonbValue(st, WJB_VALUE, &v);
}

static void
bloom_am_json_int(JsonbParseState **st, const char *key, int64 value)
{
	bloom_am_json_numeric(st, key, int64_to_numeric(value));
}

static void
bloom_am_json_float(JsonbParseState **st, const char *key, double value)
{
	bloom_am_json_numeric(st, key,
						  DatumGetNumeric(DirectFunctionCall1(float8_numeric,
															  Float8GetDatum(value))));
}

static void
bloom_am_json_scalar(JsonbParseState **st, const char *key, const char *str,
					 int boolean)
{
	JsonbValue	v;

	bloom_am_json_key(st, key);
	if (str != NULL)
	{
		v.type = jbvString;
		v.val.string.val = (char *) str;
		v.val.string.len = strlen(str);
	}
	else if (boolean >= 0)
	{
		v.type = jbvBool;
		v.val.boolean = boolean != 0;
	}
	else
		v.type = jbvNull;
	pushJsonbValue(st, WJB_VALUE, &v);
}

static int64
bloom_am_stat(PGFunction fn, Oid relid)
{
	return DatumGetInt64(DirectFunctionCall1(fn, ObjectIdGetDatum(relid)));
}

/* the filter's shape and fill, as bf_info gives a value's */
static void
bloom_am_info_filter(JsonbParseState **st, const BloomFilter *bf,
					 double *cardinality)
{
	BloomHeader hdr;

	bloom_header_decode(bf->data, &hdr);
	*cardinality = bloom_estimate_cardinality(BLOOMFILTER_PAYLOAD(bf),
											  bloom_nblocks(&hdr), hdr.nhashes);
	bloom_am_json_scalar(st, "layout", bloom_layout_for(hdr.layout)->name, -1);
	bloom_am_json_scalar(st, "hash", bloom_hash_name(hdr.hash_id), -1);
	bloom_am_json_int(st, "seed", hdr.seed);
	bloom_am_json_int(st, "nbits", (int64) hdr.nbits);
	bloom_am_json_int(st, "nhashes", hdr.nhashes);
	bloom_am_json_int(st, "capacity", (int64) hdr.capacity);
	bloom_am_json_float(st, "error_rate", hdr.error_rate);
	bloom_am_json_int(st, "bits_set", (int64) hdr.bits_set);
	bloom_am_json_float(st, "cardinality", *cardinality);
	bloom_am_json_float(st, "fpp", bloom_estimate_fpp(BLOOMFILTER_PAYLOAD(bf),
													  bloom_nblocks(&hdr), hdr.nhashes));
}

/*
 * What the build chose and why, and whether a REINDEX would pay: the
 * filter is over its capacity, or rows deleted or updated (not HOT) since
 * the build left many stale keys.
 */
static void
bloom_am_info_build(JsonbParseState **st, Relation index, Oid heapoid,
					const BloomAmMetaCache *mc, double cardinality)
{
	const BloomAmMeta *m = &mc->meta;
	int64		deleted = Max(0, bloom_am_stat(pg_stat_get_tuples_deleted, heapoid) -
							  m->deleted_at_build);
	int64		updated = Max(0, bloom_am_stat(pg_stat_get_tuples_updated, heapoid) -
							  bloom_am_stat(pg_stat_get_tuples_hot_updated, heapoid) -
							  m->updated_at_build);
	bool		over = cardinality > (double) mc->hdr.capacity;
	bool		stale = (double) (deleted + updated) >
		BLOOM_AM_STALE_SHARE * Max(m->keys_added, 1.0);

	bloom_am_json_scalar(st, "sized_from", m->capacity_option > 0 ? "options" : "table", -1);
	bloom_am_json_key(st, "options");
	pushJsonbValue(st, WJB_BEGIN_OBJECT, NULL);
	if (m->capacity_option > 0)
		bloom_am_json_int(st, "capacity", m->capacity_option);
	else
		bloom_am_json_scalar(st, "capacity", NULL, -1);
	bloom_am_json_float(st, "error_rate", m->error_rate_option);
	pushJsonbValue(st, WJB_END_OBJECT, NULL);
	bloom_am_json_float(st, "table_rows_estimated", m->table_rows);
	bloom_am_json_float(st, "rows_at_build", m->heap_tuples);
	bloom_am_json_float(st, "keys_at_build", m->keys_added);
	bloom_am_json_int(st, "deleted_since_build", deleted);
	bloom_am_json_int(st, "updated_since_build", updated);
	bloom_am_json_int(st, "columns", m->natts);
	bloom_am_json_int(st, "data_pages", m->ndatapages);
	bloom_am_json_int(st, "size_bytes",
					  (int64) RelationGetNumberOfBlocks(index) * BLCKSZ);
	bloom_am_json_scalar(st, "over_capacity", NULL, over);
	bloom_am_json_scalar(st, "reindex_recommended", NULL, over || stale);
}

/* bf_index_info(index regclass) */
Datum
bloomfilter_index_info(PG_FUNCTION_ARGS)
{
	Oid			heapoid;
	Relation	index = bloom_am_open(PG_GETARG_OID(0), &heapoid);
	const BloomAmMetaCache *mc = bloom_am_meta(index);
	BloomFilter *bf = bloom_am_snapshot(index);
	JsonbParseState *st = NULL;
	JsonbValue *res;
	double		cardinality;

	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	bloom_am_info_filter(&st, bf, &cardinality);
	bloom_am_info_build(&st, index, heapoid, mc, cardinality);
	res = pushJsonbValue(&st, WJB_END_OBJECT, NULL);
	bloom_am_close(index, heapoid);
	pfree(bf);
	PG_RETURN_POINTER(JsonbValueToJsonb(res));
}
