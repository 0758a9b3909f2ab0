/*-------------------------------------------------------------------------
 *
 * keytypes.c
 *	  The table of key types, and the checks and row signatures built on it.
 *
 * A filter records the type of its keys (header bytes 12..15 of a
 * bloomfilter, 40..43 of a cuckoofilter) so that a value of another type is
 * converted as SQL compares the two before it is hashed.  A key type is a
 * built-in type OID: stable across releases, dump, restore and pg_upgrade,
 * so a stored value can name one and every client can read it without a
 * server.  The table below is the one list of them.  Each row says:
 *
 *	- its identity: the OID and pg_type's name, and its array type, which is
 *	  a key type too (an array's key type is the array of its element's);
 *	- its canonical form (kind): the bytes its values hash as under hash id
 *	  2, by type/keys/canon.c; equal values, equal bytes;
 *	- its conversion family: which file of type/keys/ turns a value of
 *	  another type into one of it (type/keys/typed.c plans the pair);
 *	- the session settings its input function reads, so that text read into
 *	  it is read under every choice of them (type/keys/datetime.c);
 *	- its code in a row signature (docs/format.md, "Row signatures"): a
 *	  stored format, so codes are appended to only;
 *	- whether the bloomfilter index has an operator class for it
 *	  (`<name>_ops`, in the install scripts; every array goes through
 *	  array_ops, of anyarray);
 *	- which clients read a key of it from its text, as the server's input
 *	  function does (clients/python, clients/java, clients/rust);
 *	- a few literals, from which the server writes the test vectors every
 *	  client's tests read (test/vectors/keys.json: canonical bytes and hashes
 *	  of each literal for each hash id).
 *
 * sql/key_types.sql holds the table to the server's catalog (names, array
 * types, the key type bf_create records for each, the operator classes)
 * and the vectors to test/vectors/keys.json; test/unit_core.c holds its
 * order and codes; test/unit_keytype_toy.c adds a row, as CONTRIBUTING.md's
 * "Adding a key type" says, and follows it through.
 *
 * Rows with a row code come first, at the position of their code (code 1
 * first), so that a signature, which every stored read of a filter of rows
 * checks, decodes without a search.  A new key type takes the next code and
 * goes after the last row that has one.
 *
 * A type whose values filters hash only by their send output under hash id
 * 1 (jsonb, ...) is no key type: a filter of such values stays untyped and
 * answers as release 1.2 did.  Enums are none either, their labels can be
 * renamed.  int2vector and oidvector count as arrays of int2 and oid, so
 * only an array of them is a key type of its own.
 *
 * src/core/keytypes.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/keytypes.h"

#define NUM		BLOOM_FAMILY_NUMBERS
#define TXT		BLOOM_FAMILY_TEXT
#define DT		BLOOM_FAMILY_DATETIME
#define ROWS	BLOOM_FAMILY_ROWS
#define ARR		BLOOM_FAMILY_ARRAYS
#define OTHER	BLOOM_FAMILY_OTHER

#define PY		BLOOM_CLIENT_PYTHON
#define JV		BLOOM_CLIENT_JAVA
#define RS		BLOOM_CLIENT_RUST
#define ALL		(PY | JV | RS)

#define OPC		BLOOM_KT_OPCLASS

#define R_DATE	(BLOOM_READS_DATEORDER | BLOOM_READS_CLOCK)
#define R_TZ	(BLOOM_READS_DATEORDER | BLOOM_READS_TIMEZONE | BLOOM_READS_CLOCK)

const BloomKeyType bloom_key_type_table[] = {
	/* oid, array, name, kind, family, row code, reads, flags, clients, samples */
	{21, 1005, "int2", BLOOM_ELEM_INT2, NUM, 1, 0, OPC, ALL, {"0", "-32768", "32767"}},
	{23, 1007, "int4", BLOOM_ELEM_INT4, NUM, 2, 0, OPC, ALL, {"5", "-2147483648", "2147483647"}},
	{20, 1016, "int8", BLOOM_ELEM_INT8, NUM, 3, 0, OPC, ALL, {"-1", "9223372036854775807", "-9223372036854775808"}},
	{25, 1009, "text", BLOOM_ELEM_TEXT, TXT, 4, 0, OPC, ALL, {"", "a b", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"}},
	{1043, 1015, "varchar", BLOOM_ELEM_TEXT, TXT, 5, 0, OPC, ALL, {"hello", "\xc3\xa9"}},
	/* char(n): trailing blanks are no part of its value */
	{1042, 1014, "bpchar", BLOOM_ELEM_BPCHAR, TXT, 6, 0, OPC, ALL, {"ab  ", "", " x"}},
	/* name: clipped to 63 bytes, at a character's start */
	{19, 1003, "name", BLOOM_ELEM_NAME, TXT, 7, 0, OPC, ALL,
	{"pg_catalog", "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqr",
	"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"}},
	{17, 1001, "bytea", BLOOM_ELEM_TEXT, OTHER, 8, 0, OPC, ALL, {"\\x0102ff", "\\x"}},
	{2950, 2951, "uuid", BLOOM_ELEM_UUID, OTHER, 9, 0, OPC, ALL,
	{"12345678-1234-5678-1234-567812345678", "00000000-0000-0000-0000-000000000000"}},
	{1700, 1231, "numeric", BLOOM_ELEM_NUMERIC, NUM, 10, 0, OPC, ALL,
	{"1.50", "1e3", "123456789012345678901234567890", "NaN"}},
	{700, 1021, "float4", BLOOM_ELEM_FLOAT4, NUM, 11, 0, OPC, ALL, {"1.5", "-0", "3.4028235e38"}},
	{701, 1022, "float8", BLOOM_ELEM_FLOAT8, NUM, 12, 0, OPC, ALL, {"0.1", "-2", "1e300", "NaN"}},
	{16, 1000, "bool", BLOOM_ELEM_SEND, OTHER, 13, 0, OPC, ALL, {"t", "false"}},
	{18, 1002, "char", BLOOM_ELEM_SEND, OTHER, 14, 0, OPC, 0, {"a", "Z"}},
	{1082, 1182, "date", BLOOM_ELEM_SEND, DT, 15, R_DATE, OPC, PY | RS, {"2024-02-29", "1999-12-31"}},
	{1083, 1183, "time", BLOOM_ELEM_SEND, DT, 16, BLOOM_READS_CLOCK, OPC, PY, {"12:34:56.789", "00:00:00"}},
	{1266, 1270, "timetz", BLOOM_ELEM_SEND, DT, 17, R_TZ, OPC, PY, {"12:34:56+05:30", "23:59:59-08"}},
	{1114, 1115, "timestamp", BLOOM_ELEM_SEND, DT, 18, R_DATE, OPC, PY | RS,
	{"2024-01-06 12:34:56.789", "1999-12-31 23:59:59"}},
	{1184, 1185, "timestamptz", BLOOM_ELEM_SEND, DT, 19, R_TZ, OPC, PY | RS,
	{"2024-01-06 12:34:56+05:30", "1999-12-31 23:59:59.5+00"}},
	{1186, 1187, "interval", BLOOM_ELEM_INTERVAL, DT, 20, BLOOM_READS_INTERVAL, OPC, 0, {"1 day 02:00:00", "3 mons"}},
	{869, 1041, "inet", BLOOM_ELEM_INET, OTHER, 21, 0, OPC, PY, {"192.168.0.1/24", "::1"}},
	{650, 651, "cidr", BLOOM_ELEM_INET, OTHER, 22, 0, OPC, PY, {"10.0.0.0/8", "2001:db8::/32"}},
	{26, 1028, "oid", BLOOM_ELEM_SEND, NUM, 23, 0, OPC, PY, {"0", "4294967295"}},
	{790, 791, "money", BLOOM_ELEM_SEND, OTHER, 24, BLOOM_READS_LOCALE, OPC, 0, {"12.34", "-1.00"}},
	{829, 1040, "macaddr", BLOOM_ELEM_SEND, OTHER, 25, 0, OPC, 0, {"08:00:2b:01:02:03"}},
	{774, 775, "macaddr8", BLOOM_ELEM_SEND, OTHER, 26, 0, OPC, 0, {"08:00:2b:01:02:03:04:05"}},
	{1560, 1561, "bit", BLOOM_ELEM_SEND, OTHER, 27, 0, OPC, 0, {"101", "0"}},
	{1562, 1563, "varbit", BLOOM_ELEM_SEND, OTHER, 28, 0, OPC, 0, {"1010", ""}},
	{3220, 3221, "pg_lsn", BLOOM_ELEM_SEND, OTHER, 29, 0, OPC, 0, {"0/0", "16/B374D848"}},
#ifdef BLOOM_TOY_KEY_TYPE
	/* test/unit_keytype_toy.c: the next code, after the last coded row */
	{27, 1010, "tid", BLOOM_ELEM_SEND, OTHER, 30, 0, 0, 0, {"(0,1)", "(4294967295,65535)"}},
#endif
	/* no row code: a row's columns are never rows, int2vector is an array */
	{2249, 2287, "record", BLOOM_ELEM_RECORD, ROWS, 0, 0, 0, 0, {NULL}},
	{22, 1006, "int2vector", BLOOM_ELEM_ARRAY, ARR, 0, 0, BLOOM_KT_ARRAY_ONLY, 0, {NULL}},
	{30, 1013, "oidvector", BLOOM_ELEM_ARRAY, ARR, 0, 0, BLOOM_KT_ARRAY_ONLY, 0, {NULL}},
};

const int	bloom_key_type_count =
(int) (sizeof(bloom_key_type_table) / sizeof(bloom_key_type_table[0]));

/* the row of a row code, which stands at position code - 1; NULL if none */
static inline const BloomKeyType *
bloom_row_code_type(uint32_t code)
{
	if (code == 0 || code > (uint32_t) bloom_key_type_count ||
		bloom_key_type_table[code - 1].row_code != code)
		return NULL;
	return &bloom_key_type_table[code - 1];
}

bool
bloom_key_type_valid(uint32_t key_type)
{
	if (key_type == 0)
		return true;
	if (key_type & BLOOM_KEY_ROW_FLAG)
		return bloom_key_type_readable(key_type);
	for (int i = 0; i < bloom_key_type_count; i++)
	{
		const BloomKeyType *kt = &bloom_key_type_table[i];

		if ((kt->oid == key_type && !(kt->flags & BLOOM_KT_ARRAY_ONLY)) ||
			(kt->array == key_type && key_type != 0))
			return true;
	}
	return false;
}

/* the signature of rows of these column types, or 0 if none describes them */
uint32_t
bloom_row_key_encode(const uint32_t *types, int ncols)
{
	uint32_t	key = BLOOM_KEY_ROW_FLAG;

	if (ncols < 1 || ncols > BLOOM_ROW_MAX_COLUMNS)
		return 0;
	for (int i = 0; i < ncols; i++)
	{
		const BloomKeyType *kt = bloom_key_type_find(types[i]);

		if (kt == NULL || kt->row_code == 0)
			return 0;
		key |= (uint32_t) kt->row_code << (BLOOM_ROW_CODE_BITS * i);
	}
	return key;
}

/*
 * The column types of a row signature into types (BLOOM_ROW_MAX_COLUMNS
 * places); returns their number, or -1 if key_type is not a well-formed
 * signature.
 */
int
bloom_row_key_decode(uint32_t key_type, uint32_t *types)
{
	uint32_t	rest = key_type & ~BLOOM_KEY_ROW_FLAG;
	int			n = 0;

	if (!(key_type & BLOOM_KEY_ROW_FLAG))
		return -1;
	while (n < BLOOM_ROW_MAX_COLUMNS)
	{
		uint32_t	code = rest & ((1u << BLOOM_ROW_CODE_BITS) - 1);
		const BloomKeyType *kt;

		if (code == 0)
			break;
		kt = bloom_row_code_type(code);
		if (kt == NULL)
			return -1;
		types[n++] = kt->oid;
		rest >>= BLOOM_ROW_CODE_BITS;
	}
	/* nothing after the end, and at least one column */
	return (rest == 0 && n > 0) ? n : -1;
}
