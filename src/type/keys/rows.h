/*-------------------------------------------------------------------------
 *
 * rows.h
 *	  Rows: a record's columns and their types, row signatures
 *	  (keys/rows.c).
 *
 * src/type/keys/rows.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_KEYS_ROWS_H
#define BLOOMFILTER_KEYS_ROWS_H

#include "type/keys/keytypes.h"

extern int	bloom_deform_record(HeapTupleHeader td, TupleDesc desc, Datum *values,
								bool *nulls);
extern int	bloom_record_open(BloomElemType *et, Datum value, TupleDesc *desc,
							  Datum **values, bool **nulls);
extern void bloom_record_close(TupleDesc desc, Datum *values, bool *nulls);
extern uint32 bloom_key_row_signature(TupleDesc desc);
extern uint32 bloom_key_row_of(BloomElemType *et, Datum value);

#endif							/* BLOOMFILTER_KEYS_ROWS_H */
