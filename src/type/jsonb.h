/*-------------------------------------------------------------------------
 *
 * jsonb.h
 *	  bf_info and cf_info as jsonb values, built member by member
 *	  (pushJsonbValue), never formatted as text and parsed back.
 *
 * src/type/jsonb.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_JSONB_H
#define BLOOM_JSONB_H

#include "postgres.h"

#include "utils/jsonb.h"

#include "core/header.h"
#include "type/compat.h"

/*
 * An object being built.  sink comes first, so that a layout's info
 * callback, which knows only the core's sink, adds its members here.
 */
typedef struct BloomJson
{
	BloomInfoSink sink;
	BloomJsonbBuild state;		/* pushJsonbValue's (type/compat.h) */
	int			depth;			/* lists and objects open inside the object */
} BloomJson;

extern void bloom_json_begin(BloomJson *js);
/* what bf_info and cf_info both show first; key_type 0 is untyped (null) */
extern void bloom_json_begin_filter(BloomJson *js, uint8 version, uint8 hash_id,
									uint32 seed, uint32 key_type, uint64 capacity,
									double error_rate, uint64 size_bytes);
extern Jsonb *bloom_json_end(BloomJson *js);
extern void bloom_json_int(BloomJson *js, const char *name, int64 value);
extern void bloom_json_uint(BloomJson *js, const char *name, uint64 value);
extern void bloom_json_float8(BloomJson *js, const char *name, double value);
extern void bloom_json_string(BloomJson *js, const char *name, const char *value);

#endif							/* BLOOM_JSONB_H */
