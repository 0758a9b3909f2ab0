/*-------------------------------------------------------------------------
 *
 * keytypes.h
 *	  The table of key types: for each type a filter may record as the type
 *	  of its keys, its identity, canonical form, conversion family, row
 *	  signature code, index operator class and the clients that read it.
 *
 * core/keytypes.c has the design notes and the table.
 *
 * src/core/keytypes.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_KEYTYPES_H
#define BLOOM_CORE_KEYTYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Key types are built-in type OIDs, which are stable forever and below
 * this; 0 means untyped (a filter made by 1.2 or earlier, or one that is
 * still empty).  Only the OIDs of the table are valid
 * (bloom_key_type_valid): the core cannot ask a server which OIDs name a
 * type, and the clients must apply the same rule without one.
 */
#define BLOOM_KEY_TYPE_LIMIT	10000

/*
 * A key type with the high bit set is a row signature: the key types of the
 * columns of a filter whose keys are rows, so that a probe row's columns can
 * be converted as SQL compares them with the members' columns (a date
 * member column probed with a timestamp or an untyped literal).  Up to
 * BLOOM_ROW_MAX_COLUMNS columns, five bits each from the low bits up, each
 * the row code of a key type of the table (1..); the first zero code ends
 * the list, and every bit above it (but the flag) is zero.  Rows of more
 * columns, or of columns of other types, have key type record (2249) and
 * no signature.
 */
#define BLOOM_KEY_ROW_FLAG		UINT32_C(0x80000000)
#define BLOOM_ROW_MAX_COLUMNS	6
#define BLOOM_ROW_CODE_BITS		5

/*
 * How an element of one SQL type becomes canonical bytes (type/keys/canon.c),
 * resolved once per call site.  A key type's row gives its own; the kinds
 * of types that are no key type (unknown, enums, types hashed by their send
 * output alone under hash id 1) come from rules the server applies.
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
	BLOOM_ELEM_SEND				/* its binary send output (one per value for
								 * a key type's row) */
} BloomElemKind;

/*
 * How a value of another type becomes a key of this type, by the file of
 * type/keys/ that converts it: numbers from numbers, dates and times from
 * text under every setting, strings by their characters, rows column by
 * column; the other types only from text, by their input function.
 */
typedef enum BloomKeyFamily
{
	BLOOM_FAMILY_NUMBERS,		/* keys/numbers.c */
	BLOOM_FAMILY_TEXT,			/* keys/text.c */
	BLOOM_FAMILY_DATETIME,		/* keys/datetime.c */
	BLOOM_FAMILY_ROWS,			/* keys/rows.c */
	BLOOM_FAMILY_ARRAYS,		/* element by element, as their arrays */
	BLOOM_FAMILY_OTHER			/* from text only */
} BloomKeyFamily;

/*
 * Which session settings a key type's input function reads text under.
 * Filter functions are immutable, so text is read into such a type only
 * when every setting gives the same value (type/keys/datetime.c); money's
 * input follows lc_monetary, which cannot be varied cheaply, and is
 * refused.
 */
#define BLOOM_READS_DATEORDER	0x01
#define BLOOM_READS_TIMEZONE	0x02
#define BLOOM_READS_INTERVAL	0x04
#define BLOOM_READS_CLOCK		0x08	/* 'now', 'today', ... */
#define BLOOM_READS_LOCALE		0x10

/* a row's flags */
#define BLOOM_KT_OPCLASS		0x01	/* the index has <name>_ops for it */
#define BLOOM_KT_ARRAY_ONLY		0x02	/* only its array is a key type: its
										 * own values are keys of its
										 * element's array (int2vector) */

/* the clients whose typed keys read a key of this type from its text */
#define BLOOM_CLIENT_PYTHON		0x01
#define BLOOM_CLIENT_JAVA		0x02
#define BLOOM_CLIENT_RUST		0x04

/* literals of a type, for the test vectors (test/vectors/keys.json) */
#define BLOOM_KEY_SAMPLES		4

typedef struct BloomKeyType
{
	uint32_t	oid;			/* pg_type OID, stable forever */
	uint32_t	array;			/* its array type, a key type too; 0: none */
	const char *name;			/* pg_type.typname */
	uint8_t		kind;			/* BloomElemKind: its canonical bytes */
	uint8_t		family;			/* BloomKeyFamily: how others become it */
	uint8_t		row_code;		/* its code in a row signature; 0: none */
	uint8_t		reads;			/* BLOOM_READS_*: what its input reads */
	uint8_t		flags;			/* BLOOM_KT_* */
	uint8_t		clients;		/* BLOOM_CLIENT_* */
	const char *samples[BLOOM_KEY_SAMPLES];	/* NULL-terminated if fewer */
} BloomKeyType;

extern const BloomKeyType bloom_key_type_table[];
extern const int bloom_key_type_count;

/*
 * The row of a key type (not of an array of one), or NULL.  Inline: a point
 * check asks it of its argument's type at each execution of a prepared
 * statement, and the types asked most stand first.
 */
static inline const BloomKeyType *
bloom_key_type_find(uint32_t oid)
{
	for (int i = 0; i < bloom_key_type_count; i++)
		if (bloom_key_type_table[i].oid == oid)
			return &bloom_key_type_table[i];
	return NULL;
}

/* whether a filter may record key_type: 0, a type filters hash, or a row signature */
extern bool bloom_key_type_valid(uint32_t key_type);

extern uint32_t bloom_row_key_encode(const uint32_t *types, int ncols);
extern int	bloom_row_key_decode(uint32_t key_type, uint32_t *types);

/*
 * A key type a stored value may hold when read: below 10000 (releases before
 * 1.4 took any such), or a row signature.  Inline: every read of a stored
 * value checks its header, and a filter of rows is the only one that needs
 * a call.
 */
static inline bool
bloom_key_type_readable(uint32_t key_type)
{
	uint32_t	types[BLOOM_ROW_MAX_COLUMNS];

	if (key_type & BLOOM_KEY_ROW_FLAG)
		return bloom_row_key_decode(key_type, types) > 0;
	return key_type < BLOOM_KEY_TYPE_LIMIT;
}

#endif							/* BLOOM_CORE_KEYTYPES_H */
