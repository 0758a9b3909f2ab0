/*-------------------------------------------------------------------------
 *
 * keys.h
 *	  Canonical bytes and hash of an element of any SQL type, for a filter
 *	  of a given hash id.
 *
 * src/type/keys.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_ELEM_H
#define BLOOMFILTER_ELEM_H

#include "postgres.h"

#include "access/htup_details.h"
#include "access/tupdesc.h"
#include "fmgr.h"
#include "catalog/pg_type_d.h"
#include "lib/stringinfo.h"

#include "core/header.h"
#include "type/compat.h"

/*
 * How an element of one SQL type becomes canonical bytes, resolved once per
 * call site (bloom_fn_cache) and kept in fn_extra.
 */
typedef enum BloomElemKind
{
	BLOOM_ELEM_INT2,
	BLOOM_ELEM_INT4,
	BLOOM_ELEM_INT8,
	BLOOM_ELEM_TEXT,			/* text, varchar, bytea: the bytes as stored */
	BLOOM_ELEM_BPCHAR,			/* without trailing blanks */
	BLOOM_ELEM_NAME,
	BLOOM_ELEM_CSTRING,			/* unknown (a literal in a ROW), cstring */
	BLOOM_ELEM_UUID,
	BLOOM_ELEM_NUMERIC,
	BLOOM_ELEM_FLOAT4,
	BLOOM_ELEM_FLOAT8,
	BLOOM_ELEM_ENUM,
	BLOOM_ELEM_INTERVAL,
	BLOOM_ELEM_INET,
	BLOOM_ELEM_ARRAY,
	BLOOM_ELEM_RECORD,
	BLOOM_ELEM_SEND				/* any other type: its binary send output */
} BloomElemKind;

/*
 * How a value of the call site's type becomes a key of a typed filter's key
 * type (type/keys.c), as SQL would compare the two.
 */
typedef enum BloomConv
{
	BLOOM_CONV_NONE,			/* hashed as it is */
	BLOOM_CONV_INPUT,			/* text read by the key type's input function */
	BLOOM_CONV_NUMERIC_INT,		/* a whole numeric: that int8 */
	BLOOM_CONV_FLOAT_INT,		/* a whole float below 2^53: that int8 */
	BLOOM_CONV_TO_FLOAT8,		/* an integer or numeric: cast to float8 */
	BLOOM_CONV_TS_DATE,			/* a timestamp at midnight: that date */
	BLOOM_CONV_DATE_TS,			/* a date: its midnight */
	BLOOM_CONV_INT_OID,			/* int2, int4: the bits as an oid */
	BLOOM_CONV_INT8_OID,		/* int8 in 0 .. 2^32 - 1: that oid */
	BLOOM_CONV_OID_INT4,		/* an oid: the bits as int4 */
	BLOOM_CONV_OID_INT8,		/* an oid: widened unsigned */
	BLOOM_CONV_RTRIM,			/* a string: without trailing blanks (char(n) keys) */
	BLOOM_CONV_ROW,				/* a row: each column to its key type */
	BLOOM_CONV_GUAVA			/* hash id 3: guava_conv, then a funnel's bytes */
} BloomConv;

typedef struct BloomElemType BloomElemType;

struct BloomElemType
{
	Oid			typid;
	Oid			base_typid;		/* typid, or a domain's base type */
	BloomElemKind kind;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Oid			collation;		/* of the call, for text kinds */
	bool		nondeterministic;	/* that collation: refused by hash id 2 */
	bool		send_is_canonical;	/* BLOOM_ELEM_SEND: equal values, equal bytes */
	bool		send_has_text;	/* its send output may hold converted text */
	FmgrInfo	send;			/* for kinds hashed through send */
	MemoryContext mcxt;			/* where the nested types below live */
	BloomElemType *elem;		/* BLOOM_ELEM_ARRAY: the element type */
	/* BLOOM_ELEM_RECORD: the row type seen last, and its columns' types */
	Oid			rec_typid;
	int32		rec_typmod;
	int			rec_natts;
	BloomElemType *rec_cols;
	MemoryContext rec_mcxt;		/* rec_cols and below; reset on a change */

	/* the key type a filter records for this type (type/keys.c) */
	Oid			key_typid;
	/* the plan for filters of key type plan_key and hash id plan_hash_id */
	uint32		plan_key;
	uint8		plan_hash_id;
	BloomConv	conv;
	BloomConv	guava_conv;		/* BLOOM_CONV_GUAVA: the conversion before */
	BloomElemType *conv_out;	/* the type a conversion yields */
	FmgrInfo	conv_input;		/* BLOOM_CONV_INPUT: the key type's input */
	Oid			conv_ioparam;
	/* BLOOM_CONV_INPUT: the settings the key type's input reads (BLOOM_READS_*) */
	uint8		conv_settings;
	/* the plan was made for an add (only the wording of errors differs) */
	bool		plan_add;
	/* a typed filter: enums inside arrays and records are refused too */
	bool		refuse_enum;
	/* a probe of rows whose column types the filter does not record */
	bool		refuse_untyped;
	/* BLOOM_CONV_ROW: the key types of the filter's row columns */
	int			row_nkeys;
	uint32		row_keys[BLOOM_ROW_MAX_COLUMNS];
	/* copied from the backend's memo of that generation (0: not) */
	uint32		memo_gen;
};

/*
 * What hashing an element reads of a filter: the seed, the hash id (which
 * canonical bytes) and the key type (which conversion first).  Each filter
 * type fills it from its own header (bloom_hash_params, cf_hash_params).
 * The inline functions on the per-row path take it by value; their
 * out-of-line slow paths take its fields one by one, which the fast path
 * has in registers already: a struct argument would be packed or stored
 * on every row before the branch (bf_agg measured 3-9% slower so).
 */
typedef struct BloomHashParams
{
	uint32		seed;
	uint32		key_type;		/* OID of the key type, 0: untyped */
	uint8		hash_id;
} BloomHashParams;

static inline BloomHashParams
bloom_hash_params(const BloomHeader *hdr)
{
	BloomHashParams hp;

	hp.seed = hdr->seed;
	hp.key_type = hdr->key_type;
	hp.hash_id = hdr->hash_id;
	return hp;
}

extern void bloom_elem_init(BloomElemType *et, Oid typid, Oid collation,
							MemoryContext mcxt);
extern BloomHash bloom_elem_hash_slow(BloomElemType *et, Datum value,
									  uint32 seed, uint8 hash_id);
extern bool bloom_numeric_as_int64(Datum value, int64 *v);
extern int	bloom_deform_record(HeapTupleHeader td, TupleDesc desc, Datum *values,
								bool *nulls);
pg_noreturn extern void bloom_refuse(BloomElemType *et);
pg_noreturn extern void bloom_key_refuse(BloomElemType *et);

/*
 * The hash of an element; integers, the common case, without a call.  This
 * and the key-type checks below are forced inline: each is on the per-row
 * path of every check and add, and the compiler left them out of line.
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

/* ---- typed filters: the second half of keys.c ---- */

extern Oid	bloom_key_type_of(Oid typid);
extern Oid	bloom_key_type_arg(Oid typid);
extern bool bloom_key_same_bytes(Oid s, Oid key, uint8 hash_id);
extern bool bloom_key_hash_slow(BloomElemType *et, Datum value, uint32 seed,
								uint32 key_type, uint8 hash_id, BloomHash *h);
extern BloomHash bloom_key_hash_add_slow(BloomElemType *et, Datum value, uint32 seed,
										 uint32 key_type, uint8 hash_id);
extern void bloom_key_adopt(BloomElemType *et, uint32 *key_type, Datum value);
extern char *bloom_key_type_name(uint32 key_type);
extern uint32 bloom_key_row_signature(TupleDesc desc);
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
extern void bloom_check_implicit_text(FunctionCallInfo fcinfo, int argno,
									  Oid typid);
extern void bloom_check_shard_text(FunctionCallInfo fcinfo, Oid typid);

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

/* bf_key_type and cf_key_type: a key type as a regtype, NULL if untyped */
static inline Datum
bloom_key_type_result(FunctionCallInfo fcinfo, uint32 key_type)
{
	if (key_type == 0)
		PG_RETURN_NULL();
	/* a row signature: bf_info names the columns' types */
	PG_RETURN_OID((key_type & BLOOM_KEY_ROW_FLAG) ? RECORDOID : (Oid) key_type);
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

/* a key of several columns, hashed as ROW(a, b, ...) (the index AM's) */
extern BloomHash bloom_elem_hash_row(BloomElemType *cols, int ncols,
									 const Datum *values, const bool *nulls,
									 BloomHashParams hp);

#endif							/* BLOOMFILTER_ELEM_H */
