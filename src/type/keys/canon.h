/*-------------------------------------------------------------------------
 *
 * canon.h
 *	  Canonical bytes of an element per hash id, and their hash
 *	  (keys/canon.c).
 *
 * src/type/keys/canon.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_KEYS_CANON_H
#define BLOOMFILTER_KEYS_CANON_H

#include "type/keys/keytypes.h"

extern BloomHash bloom_elem_hash_slow(BloomElemType *et, Datum value,
									  uint32 seed, uint8 hash_id);
extern bool bloom_common_bytes(BloomElemType *et, Datum value, uint64 *scratch,
							   const char **data, size_t *len, void **tofree,
							   bool recode);
extern void bloom_elem_bytes(StringInfo buf, BloomElemType *et, Datum value,
							 uint8 hash_id);
extern void bloom_append_nested(StringInfo buf, BloomElemType *et, Datum value,
								bool isnull, bool recode);

/* a key of several columns, hashed as ROW(a, b, ...) (the index AM's) */
extern BloomHash bloom_elem_hash_row(BloomElemType *cols, int ncols,
									 const Datum *values, const bool *nulls,
									 BloomHashParams hp);

/*
 * The hash of an element; integers, the common case, without a call.  This
 * and the key-type checks of keys/typed.h are forced inline: each is on
 * the per-row path of every check and add, and the compiler left them out
 * of line.
 */
static pg_attribute_always_inline BloomHash
bloom_elem_hash(BloomElemType *et, Datum value, BloomHashParams hp)
{
	/* RedisBloom's hash hashes integers as text (bloom_elem_hash_slow) */
	if (unlikely(hp.hash_id == BLOOM_HASH_REDISBLOOM))
		return bloom_elem_hash_slow(et, value, hp.seed, hp.hash_id);
	switch (et->kind)
	{
		case BLOOM_ELEM_INT8:
			return bloom_hash_int64(DatumGetInt64(value), hp.seed);
		case BLOOM_ELEM_INT4:
			return bloom_hash_int64((int64) DatumGetInt32(value), hp.seed);
		case BLOOM_ELEM_INT2:
			return bloom_hash_int64((int64) DatumGetInt16(value), hp.seed);
		default:
			return bloom_elem_hash_slow(et, value, hp.seed, hp.hash_id);
	}
}

#endif							/* BLOOMFILTER_KEYS_CANON_H */
