/*-------------------------------------------------------------------------
 *
 * keytypes.h
 *	  The element type of a call site (BloomElemType), what hashing reads of a
 *	  filter (BloomHashParams), and the key types (keys/keytypes.c).
 *
 * src/type/keys/keytypes.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_KEYS_KEYTYPES_H
#define BLOOMFILTER_KEYS_KEYTYPES_H

#include "access/htup_details.h"
#include "access/tupdesc.h"
#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "lib/stringinfo.h"

#include "core/header.h"
#include "type/compat.h"

/*
 * How a value of the call site's type becomes a key of a typed filter's key
 * type (keys/typed.c), as SQL would compare the two.
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

	/* the key type a filter records for this type (bloom_key_type_of) */
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
extern Oid	bloom_key_type_of(Oid typid);
extern char *bloom_key_type_name(uint32 key_type);
extern uint8 bloom_key_reads(Oid key);
pg_noreturn extern void bloom_refuse(BloomElemType *et);
pg_noreturn extern void bloom_key_refuse(BloomElemType *et);

/* smallint, integer, bigint: their canonical bytes agree for equal values */
static inline bool
bloom_is_int(Oid t)
{
	const BloomKeyType *kt = bloom_key_type_find(t);

	return kt != NULL && (kt->kind == BLOOM_ELEM_INT2 || kt->kind == BLOOM_ELEM_INT4 ||
						  kt->kind == BLOOM_ELEM_INT8);
}

static inline bool
bloom_is_float(Oid t)
{
	const BloomKeyType *kt = bloom_key_type_find(t);

	return kt != NULL && (kt->kind == BLOOM_ELEM_FLOAT4 || kt->kind == BLOOM_ELEM_FLOAT8);
}

/* types whose canonical bytes are their characters, compared as such */
static inline bool
bloom_is_textlike(Oid t)
{
	const BloomKeyType *kt = bloom_key_type_find(t);

	return kt != NULL && kt->family == BLOOM_FAMILY_TEXT;
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

#endif							/* BLOOMFILTER_KEYS_KEYTYPES_H */
