/*-------------------------------------------------------------------------
 *
 * numbers.h
 *	  Numbers: canonical bytes of numerics and floats, conversions between
 *	  number types (keys/numbers.c).
 *
 * src/type/keys/numbers.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_KEYS_NUMBERS_H
#define BLOOMFILTER_KEYS_NUMBERS_H

#include "type/keys/keytypes.h"

/* v as nbytes little-endian bytes: the integers of every canonical form */
static inline void
bloom_append_le(StringInfo buf, uint64 v, int nbytes)
{
	uint8		b[8];

	for (int i = 0; i < nbytes; i++)
		b[i] = (uint8) (v >> (8 * i));
	appendBinaryStringInfo(buf, (char *) b, nbytes);
}

extern void bloom_append_double(StringInfo buf, double d);
extern bool bloom_double_as_int64(double d, int64 *v);
extern bool bloom_numeric_as_int64(Datum value, int64 *v);
extern void bloom_append_numeric(StringInfo buf, Datum value);
extern int64 bloom_key_int(BloomElemType *et, Datum value);
extern bool bloom_key_float_int(BloomElemType *et, Datum value, Datum *out);

#endif							/* BLOOMFILTER_KEYS_NUMBERS_H */
