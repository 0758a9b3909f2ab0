/*-------------------------------------------------------------------------
 *
 * cache.h
 *	  The element type of a call site, kept in fn_extra and in the backend's
 *	  memo (keys/cache.c).
 *
 * src/type/keys/cache.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_KEYS_CACHE_H
#define BLOOMFILTER_KEYS_CACHE_H

#include "type/keys/keytypes.h"

extern void bloom_elem_memo_replan(BloomElemType *et);

/*
 * Per-call-site cache in fn_extra: a BloomElemType for argument argno (or
 * for its array elements), resolved on the first call, followed by whatever
 * else the caller keeps (size bytes in all, the BloomElemType first).
 */
extern void *bloom_fn_cache_init(FunctionCallInfo fcinfo, int argno,
								 bool array_element, Size size);

static inline void *
bloom_fn_cache(FunctionCallInfo fcinfo, int argno, bool array_element, Size size)
{
	if (likely(fcinfo->flinfo->fn_extra != NULL))
		return fcinfo->flinfo->fn_extra;
	return bloom_fn_cache_init(fcinfo, argno, array_element, size);
}

#endif							/* BLOOMFILTER_KEYS_CACHE_H */
