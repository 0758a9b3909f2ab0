/*-------------------------------------------------------------------------
 *
 * fuzz_text.c
 *	  libFuzzer harness: the fuzz input is a bloomfilter text literal.
 *
 * Mirrors bloomfilter_in: the literal is a C string (it ends at the first
 * NUL), surrounding white space is skipped, the rest must be strict base64
 * decoding into a buffer of bloom_base64_decoded_max bytes, and the bytes
 * must pass bloom_validate.  A value that gets through is put through the
 * operations of fuzz_common.h.
 *
 * The decoder claims every value has exactly one text form, so whenever it
 * accepts a string, encoding the result must give that string back.
 *
 * fuzz/fuzz_text.c
 *
 *-------------------------------------------------------------------------
 */
#include "fuzz_common.h"

#include <ctype.h>

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *str;
	const char *start;
	size_t		len;
	size_t		dmax;
	uint8_t    *buf;
	size_t		buflen = 0;
	BloomHeader hdr;
	BloomCheck	check;

	/* the server hands the input function a NUL-terminated string */
	str = fuzz_alloc(size + 1);
	if (size > 0)
		memcpy(str, data, size);
	str[size] = '\0';

	/* trim white space as bloomfilter_in does */
	start = str;
	while (*start && isspace((unsigned char) *start))
		start++;
	len = strlen(start);
	while (len > 0 && isspace((unsigned char) start[len - 1]))
		len--;

	/* exactly the promised size, so ASan catches any write past it */
	dmax = bloom_base64_decoded_max(len);
	buf = fuzz_alloc(dmax);
	if (!bloom_base64_decode(start, len, buf, &buflen))
	{
		free(buf);
		free(str);
		return 0;
	}

	FUZZ_CHECK(buflen <= dmax, "decoded %zu bytes into room for %zu", buflen, dmax);
	FUZZ_CHECK(len % 4 == 0, "accepted base64 of length %zu", len);
	FUZZ_CHECK(bloom_base64_encoded_len(buflen) == len,
			   "%zu bytes decoded from %zu characters would encode to %zu",
			   buflen, len, bloom_base64_encoded_len(buflen));
	{
		char	   *again = fuzz_alloc(len);

		bloom_base64_encode(buf, buflen, again);
		FUZZ_CHECK(len == 0 || memcmp(again, start, len) == 0,
				   "accepted a non-canonical text form of %zu characters", len);
		free(again);
	}

	check = bloom_validate(buf, buflen, &hdr);
	FUZZ_CHECK(bloom_check_message(check) != NULL, "no message for check %d", (int) check);
	if (check == BLOOM_OK)
		fuzz_exercise(buf, buflen, &hdr, true, false, data, size);

	free(buf);
	free(str);
	return 0;
}
