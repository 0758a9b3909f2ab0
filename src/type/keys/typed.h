/*-------------------------------------------------------------------------
 *
 * typed.h
 *	  Typed filters: the key type a filter records, and the conversion of a
 *	  value of another type to it (keys/typed.c).
 *
 * src/type/keys/typed.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_KEYS_TYPED_H
#define BLOOMFILTER_KEYS_TYPED_H

#include "type/keys/canon.h"

extern Oid	bloom_key_type_arg(Oid typid);
extern bool bloom_key_same_bytes(Oid s, Oid key, uint8 hash_id);
extern bool bloom_key_hash_slow(BloomElemType *et, Datum value, uint32 seed,
								uint32 key_type, uint8 hash_id, BloomHash *h);
extern BloomHash bloom_key_hash_add_slow(BloomElemType *et, Datum value, uint32 seed,
										 uint32 key_type, uint8 hash_id);
extern void bloom_key_adopt(BloomElemType *et, uint32 *key_type, Datum value);
extern bool bloom_key_column(BloomElemType *col, Datum value, uint32 key,
							 uint8 hash_id, bool add, Datum *out,
							 BloomElemType **out_et);
extern bool bloom_elem_hash_row_keyed(BloomElemType *et, Datum row,
									  BloomHashParams hp, const uint32 *keys,
									  int nkeys, bool add, BloomHash *h);
extern uint32 bloom_key_combine(uint32 a, bool a_empty, uint32 b, bool b_empty,
								const char *message);
extern uint32 bloom_key_reset(uint32 current, uint8 hash_id, Oid typid,
							  const char *message);

/*
 * The hash of value as a key of the filter whose parameters are hp, converted
 * to the filter's key type first if it has one; false when no key of that
 * type equals the value (the filter rules it out).  The plan is made once
 * per call site and key type; integers against an integer filter go
 * straight to bloom_elem_hash.
 */
static pg_attribute_always_inline bool
bloom_key_hash(BloomElemType *et, Datum value, BloomHashParams hp, BloomHash *h)
{
	if (likely(et->plan_key == hp.key_type && et->plan_hash_id == hp.hash_id &&
			   et->conv == BLOOM_CONV_NONE))
	{
		*h = bloom_elem_hash(et, value, hp);
		return true;
	}
	return bloom_key_hash_slow(et, value, hp.seed, hp.key_type, hp.hash_id, h);
}

/*
 * An add: a filter that is untyped and empty takes the element's key type,
 * and one whose keys are rows of unknown columns (bf_create's key_type
 * record) the column types of the first row.
 */
static inline void
bloom_key_first_add(BloomElemType *et, uint32 *key_type, bool empty, Datum value)
{
	if (unlikely(*key_type == 0 || *key_type == RECORDOID) && empty)
		bloom_key_adopt(et, key_type, value);
}

/* the same for an add: a value no key of the filter's type equals is an error */
static pg_attribute_always_inline BloomHash
bloom_key_hash_add(BloomElemType *et, Datum value, BloomHashParams hp)
{
	if (likely(et->plan_key == hp.key_type && et->plan_hash_id == hp.hash_id &&
			   et->conv == BLOOM_CONV_NONE))
		return bloom_elem_hash(et, value, hp);
	return bloom_key_hash_add_slow(et, value, hp.seed, hp.key_type, hp.hash_id);
}

#endif							/* BLOOMFILTER_KEYS_TYPED_H */
