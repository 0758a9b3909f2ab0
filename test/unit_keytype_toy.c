/*-------------------------------------------------------------------------
 *
 * unit_keytype_toy.c
 *	  A key type of the unit tests only, tid: that a key type is one row of
 *	  the table (src/core/keytypes.c), added as CONTRIBUTING.md's "Adding a
 *	  key type" says, and that every rule built on the table takes it.
 *
 * The row is core/keytypes.c's, compiled in only with BLOOM_TOY_KEY_TYPE
 * (as test/unit_keytype builds the core): tid (27) and its array (1010),
 * the next row code (30), no operator class, no client, two literals.  tid
 * suits a toy because its binary output is one per value, so the server's
 * rules would hash it as a key type without a line of conversion code.
 * Nothing below names the row's fields to make a rule work: each check
 * goes through what the server and the clients go through (the validity of
 * a stored key type, a header that records it, row signatures), and what
 * the server builds from the table (the key type bf_create records, the
 * test vectors) is shown the same way by building the extension with
 * PG_CFLAGS=-DBLOOM_TOY_KEY_TYPE and running sql/key_types.sql.
 *
 * test/unit_keytype_toy.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/blocked.h"
#include "core/sizing.h"

#include <stdlib.h>

#include "unit.h"

#ifndef BLOOM_TOY_KEY_TYPE
#error "build with -DBLOOM_TOY_KEY_TYPE, as make unit-keytype does"
#endif

#define TOY_OID		27			/* tid */
#define TOY_ARRAY	1010		/* tid[] */
#define TOY_CODE	30

/* the row, as the server's and the vectors' loops over the table see it */
static void
test_toy_row(void)
{
	const BloomKeyType *toy = bloom_key_type_find(TOY_OID);
	bool		listed = false;

	CHECK(toy != NULL, "the toy's row is not found");
	if (toy == NULL)
		return;
	CHECK(toy->array == TOY_ARRAY && toy->row_code == TOY_CODE &&
		  !(toy->flags & BLOOM_KT_OPCLASS) && toy->clients == 0,
		  "the toy's row: array %u, code %d", toy->array, toy->row_code);
	/* the vectors take a row's literals and their array */
	CHECK(toy->samples[0] != NULL && toy->samples[1] != NULL, "the toy has no literals");
	for (int i = 0; i < bloom_key_type_count; i++)
		listed |= &bloom_key_type_table[i] == toy;
	CHECK(listed, "the toy is not a row the loops over the table see");
	/* codes stay at their positions: the toy's is after the last coded row */
	CHECK(toy == &bloom_key_type_table[TOY_CODE - 1], "the toy is not at its code's position");
}

/* a stored key type: the toy and its array, and no other new one */
static void
test_toy_valid(void)
{
	int			valid = 0;
	int			table_keys = 0;

	CHECK(bloom_key_type_valid(TOY_OID) && bloom_key_type_valid(TOY_ARRAY),
		  "the toy or its array is no key type");
	for (uint32_t oid = 1; oid < BLOOM_KEY_TYPE_LIMIT; oid++)
		valid += bloom_key_type_valid(oid);
	for (int i = 0; i < bloom_key_type_count; i++)
		table_keys += !(bloom_key_type_table[i].flags & BLOOM_KT_ARRAY_ONLY) +
			(bloom_key_type_table[i].array != 0);
	CHECK(valid == table_keys, "%d key types, the table's %d expected", valid, table_keys);
}

/* a filter that records the toy passes the check every input makes */
static void
test_toy_header(void)
{
	BloomHeader h;
	BloomHeader back;
	uint64_t	nbits;
	int			k;
	size_t		len;
	uint8_t    *buf;

	bloom_size(1000, 0.01, &nbits, &k);
	bloom_header_init(&h, 1000, 0.01, 0, nbits, k);
	h.key_type = TOY_OID;
	len = bloom_total_bytes(&h);
	buf = calloc(1, len);
	bloom_header_encode(&h, buf);
	CHECK(bloom_validate(buf, len, &back) == BLOOM_OK && back.key_type == TOY_OID,
		  "a filter of toy keys is refused");
	h.key_type = TOY_ARRAY + 1;
	bloom_header_encode(&h, buf);
	CHECK(bloom_validate(buf, len, &back) == BLOOM_BAD_KEY_TYPE,
		  "a filter of key type %u is taken", TOY_ARRAY + 1);
	free(buf);
}

/* rows with a toy column get a signature; every earlier signature decodes as before */
static void
test_toy_row_signature(void)
{
	const uint32_t cols[] = {23, TOY_OID};
	uint32_t	back[BLOOM_ROW_MAX_COLUMNS];
	uint32_t	sig = bloom_row_key_encode(cols, 2);

	CHECK(sig == (BLOOM_KEY_ROW_FLAG | 2 | (TOY_CODE << BLOOM_ROW_CODE_BITS)),
		  "ROW(integer, tid) is 0x%08x", sig);
	CHECK(bloom_row_key_decode(sig, back) == 2 && back[0] == 23 && back[1] == TOY_OID,
		  "ROW(integer, tid) does not decode");
	CHECK(bloom_key_type_valid(sig), "its signature is refused");
	for (uint32_t code = 1; code < TOY_CODE; code++)
	{
		int			n = bloom_row_key_decode(BLOOM_KEY_ROW_FLAG | code, back);

		CHECK(n == 1 && back[0] == bloom_key_type_table[code - 1].oid,
			  "code %u decodes otherwise", code);
	}
	CHECK(bloom_row_key_decode(BLOOM_KEY_ROW_FLAG | (TOY_CODE + 1), back) < 0,
		  "code %d decodes", TOY_CODE + 1);
}

int
main(void)
{
	test_toy_row();
	test_toy_valid();
	test_toy_header();
	test_toy_row_signature();
	printf("unit_keytype: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
