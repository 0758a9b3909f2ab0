/*-------------------------------------------------------------------------
 *
 * fuzz_binary.c
 *	  libFuzzer harness: the fuzz input is the binary form of a bloomfilter.
 *
 * The binary form is what bloomfilter_recv reads off the wire, what the
 * bytea cast takes, and what an aggregate state is once flattened; recv and
 * the cast hand the bytes to bloom_validate.  A value it accepts is put
 * through every operation of fuzz_common.h, union and intersection included.
 *
 * Stored values, and flat aggregate states arriving at bf_agg's transition
 * or combine function, are read through bloom_open, which checks only the
 * header against the length (no magic, no bit count, any key type below
 * 10000, any fill divisor of a scalable filter).  Inputs that pass that
 * check but not bloom_validate are exercised too: the operations must stay
 * inside the value whatever its bits-set count says.
 *
 * fuzz/fuzz_binary.c
 *
 *-------------------------------------------------------------------------
 */
#include "fuzz_common.h"
#include "core/guava.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The same bytes as Guava's serialized form (bf_from_guava): read only if
 * the prefix says exactly this length, and then a valid layout-5 value
 * whose serialized form is the input again.
 */
static void
fuzz_guava_bytes(const uint8_t *data, size_t size)
{
	int			k;
	uint64_t	nlongs;
	BloomHeader hdr;
	uint8_t    *value;
	uint8_t    *again;

	if (bloom_guava_read_prefix(data, size, &k, &nlongs) != BLOOM_GUAVA_OK)
		return;
	FUZZ_CHECK(size == BLOOM_GUAVA_PREFIX + nlongs * 8 && k >= 1 && nlongs >= 1,
			   "Guava prefix of %d hashes, %llu longs accepted for %zu bytes", k,
			   (unsigned long long) nlongs, size);
	value = fuzz_alloc(BLOOM_HEADER_SIZE + nlongs * 8);
	bloom_guava_read(data, k, nlongs, BLOOM_GUAVA_KEY_TEXT, &hdr, value + BLOOM_HEADER_SIZE);
	bloom_header_encode(&hdr, value);
	FUZZ_CHECK(bloom_validate(value, BLOOM_HEADER_SIZE + nlongs * 8, &hdr) == BLOOM_OK,
			   "a filter read from Guava's bytes is not valid");
	again = fuzz_alloc(size);
	bloom_guava_write(&hdr, value + BLOOM_HEADER_SIZE, again);
	FUZZ_CHECK(memcmp(again, data, size) == 0, "Guava's bytes do not come back");
	free(again);
	free(value);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BloomHeader hdr;
	BloomHeader open_hdr;
	BloomCheck	check;
	BloomCheck	open_check = BLOOM_BAD_LENGTH;
	const char *msg;

	/* the input buffer is exactly size bytes, so ASan sees any overread */
	fuzz_guava_bytes(data, size);
	check = bloom_validate(data, size, &hdr);
	msg = bloom_check_message(check);
	FUZZ_CHECK(msg != NULL && msg[0] != '\0', "no message for check %d", (int) check);

	/* what bloom_open would say about the same bytes */
	if (size >= BLOOM_HEADER_SIZE)
	{
		bloom_header_decode(data, &open_hdr);
		open_check = bloom_validate_header(&open_hdr, size);
	}

	if (check == BLOOM_OK)
	{
		FUZZ_CHECK(open_check == BLOOM_OK,
				   "bloom_validate accepts what the header check refuses: %s",
				   bloom_check_message(open_check));
		FUZZ_CHECK(fuzz_same_header(&hdr, &open_hdr), "two decodes of one header differ");
		fuzz_exercise(data, size, &hdr, true, true, data, size);
		return 0;
	}

	/* a value refused on its header is refused by the header check too */
	if (size < BLOOM_HEADER_SIZE)
		FUZZ_CHECK(check == BLOOM_BAD_LENGTH, "short value refused as: %s", msg);
	else if (check == BLOOM_BAD_BITS_SET)
		/* the header check refuses a count the header alone rules out */
		FUZZ_CHECK(open_check == BLOOM_OK || open_check == BLOOM_BAD_BITS_SET,
				   "refused on the bit count, but the header check says: %s",
				   bloom_check_message(open_check));
	else if (open_check == BLOOM_OK && check == BLOOM_BAD_KEY_TYPE)
		/* a key type reads take (1.3 stored it) but input does not */
		FUZZ_CHECK(!bloom_key_type_valid(open_hdr.key_type) &&
				   open_hdr.key_type < BLOOM_KEY_TYPE_LIMIT,
				   "key type %u refused by input only", open_hdr.key_type);
	else if (open_check == BLOOM_OK && check != BLOOM_BAD_MAGIC)
		/* refused on its payload: only layouts that check more than counts */
		FUZZ_CHECK(open_hdr.layout != BLOOM_LAYOUT_BLOCKED512 &&
				   open_hdr.layout != BLOOM_LAYOUT_COUNTING4,
				   "layout %d refused on its payload as: %s", open_hdr.layout, msg);
	else if (check != BLOOM_BAD_MAGIC)
		FUZZ_CHECK(open_check == check, "bloom_validate says \"%s\", header check \"%s\"",
				   msg, bloom_check_message(open_check));

	/* damaged after it was stored: the operations must still hold up */
	if (open_check == BLOOM_OK)
		fuzz_exercise(data, size, &open_hdr, false, true, data, size);
	return 0;
}
