/*-------------------------------------------------------------------------
 *
 * rows.c
 *	  Rows: a record's columns and their types, and the row signature a
 *	  filter of rows records.
 *
 * A record datum names its row type per value, and anonymous records of one
 * column can change shape from row to row; opening one (its type, its
 * columns, and element types for them, cached until the shape changes) and
 * naming its columns' key types (docs/format.md, "Row signatures") is
 * shared by the hashing of rows and by their conversion to a filter's
 * signature.
 *
 * src/type/keys/rows.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/typcache.h"

#include "type/keys/rows.h"

/*
 * The columns' types of the row type seen last, in a memory context of its
 * own that a change of row type resets: they hold more below them (a
 * column's array element or record cache), and a call site that alternates
 * between row types (anonymous records of different shapes in one column)
 * would otherwise keep every set it ever made.  The cache counts only once
 * complete, so an error half-way leaves none.
 */
static void
bloom_record_cache(BloomElemType *et, TupleDesc desc, Oid typid, int32 typmod)
{
	BloomElemType *cols;

	if (et->rec_mcxt == NULL)
		et->rec_mcxt = AllocSetContextCreate(et->mcxt, "bloomfilter record cache",
											 ALLOCSET_SMALL_SIZES);
	else
		MemoryContextReset(et->rec_mcxt);
	et->rec_cols = NULL;
	cols = MemoryContextAllocZero(et->rec_mcxt, Max(desc->natts, 1) * sizeof(BloomElemType));
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (!att->attisdropped)
			bloom_elem_init(&cols[i], att->atttypid, att->attcollation, et->rec_mcxt);
	}
	et->rec_typid = typid;
	et->rec_typmod = typmod;
	et->rec_natts = desc->natts;
	et->rec_cols = cols;
}

/*
 * The columns of a record datum into values and nulls (desc's natts each);
 * returns how many are not dropped, the columns a key of it has.
 */
int
bloom_deform_record(HeapTupleHeader td, TupleDesc desc, Datum *values, bool *nulls)
{
	HeapTupleData tuple;
	int			ncols = 0;

	tuple.t_len = HeapTupleHeaderGetDatumLength(td);
	ItemPointerSetInvalid(&tuple.t_self);
	tuple.t_tableOid = InvalidOid;
	tuple.t_data = td;
	heap_deform_tuple(&tuple, desc, values, nulls);
	for (int i = 0; i < desc->natts; i++)
		ncols += !TupleDescAttr(desc, i)->attisdropped;
	return ncols;
}

/*
 * A record datum's columns, for hashing it as et: its row type (released
 * by bloom_record_close), the columns' types in et's record cache, and the
 * values and nulls; returns how many columns are not dropped.
 */
int
bloom_record_open(BloomElemType *et, Datum value, TupleDesc *desc, Datum **values,
				  bool **nulls)
{
	HeapTupleHeader td = DatumGetHeapTupleHeader(value);
	Oid			typid = HeapTupleHeaderGetTypeId(td);
	int32		typmod = HeapTupleHeaderGetTypMod(td);

	*desc = lookup_rowtype_tupdesc(typid, typmod);
	*values = palloc((*desc)->natts * sizeof(Datum));
	*nulls = palloc((*desc)->natts * sizeof(bool));
	if (et->rec_cols == NULL || et->rec_typid != typid || et->rec_typmod != typmod ||
		et->rec_natts != (*desc)->natts)
		bloom_record_cache(et, *desc, typid, typmod);
	return bloom_deform_record(td, *desc, *values, *nulls);
}

void
bloom_record_close(TupleDesc desc, Datum *values, bool *nulls)
{
	ReleaseTupleDesc(desc);
	pfree(values);
	pfree(nulls);
}

/*
 * The key type of rows of this row type: the signature of its columns' key
 * types, or record if they do not fit one.
 */
uint32
bloom_key_row_signature(TupleDesc desc)
{
	uint32		types[BLOOM_ROW_MAX_COLUMNS];
	uint32		key;
	int			n = 0;

	for (int i = 0; i < desc->natts; i++)
	{
		if (TupleDescAttr(desc, i)->attisdropped)
			continue;
		if (n == BLOOM_ROW_MAX_COLUMNS)
			return RECORDOID;
		types[n++] = bloom_key_type_of(TupleDescAttr(desc, i)->atttypid);
	}
	key = bloom_row_key_encode(types, n);
	return key != 0 ? key : RECORDOID;
}

/* the key type of rows like value (of record type et) */
uint32
bloom_key_row_of(BloomElemType *et, Datum value)
{
	HeapTupleHeader td;
	TupleDesc	desc;
	uint32		key;

	if (et->typid != RECORDOID)
		desc = lookup_rowtype_tupdesc(getBaseType(et->typid), -1);
	else if (value != (Datum) 0)
	{
		td = DatumGetHeapTupleHeader(value);
		desc = lookup_rowtype_tupdesc(HeapTupleHeaderGetTypeId(td),
									  HeapTupleHeaderGetTypMod(td));
	}
	else
		return RECORDOID;
	key = bloom_key_row_signature(desc);
	ReleaseTupleDesc(desc);
	return key;
}
