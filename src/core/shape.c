/*-------------------------------------------------------------------------
 *
 * shape.c
 *	  The shape of an empty filter (bf_shape, a bytea): the filter less
 *	  the zeros of its payload, from which the filter is made again byte for
 *	  byte.
 *
 * Why.  PostgreSQL sorts every argument of an aggregate with ORDER BY, so
 * bf_agg(k, template ORDER BY i) copies the template into each sorted row:
 * a RedisBloom template of 2.4 MB over 20,000 rows sorts 48 GB.  An empty
 * filter's payload is zeros but for what its layout keeps at the front (a
 * RedisBloom chain's header and link entries, a scalable filter's sub-filter
 * heads, a list's prefix), so its shape is some tens of bytes, and
 * bf_agg(k, bf_shape(template) ORDER BY i) sorts those instead.  The
 * aggregate's first row of a group makes the filter again (zeros, then the
 * runs) and goes on as the template form does, so the result is the same
 * bytes, whatever the layout: the codec knows no layout, and a layout that
 * keeps more at the front, or elsewhere, needs nothing here.
 *
 * Why bytea and not a type of its own: a type costs five catalog objects
 * (the type and its four I/O functions), and a plain install keeps within
 * 200 (issue 24).  So a shape is checked where it is read, on a group's
 * first row, as fully as a filter's input checks a filter: the header and
 * the runs here, then the filter made again by bloom_validate_payload.
 *
 * Format, all little-endian:
 *
 *		0	4 bytes		BLOOM_SHAPE_MAGIC ("BLMS"), where the filter has
 *						BLOOM_MAGIC: so a shape cast to bloomfilter, or a
 *						filter's bytes passed as a shape, is refused as such
 *		4	44 bytes	the rest of the filter's header, as stored (bits
 *						set 0)
 *		48	runs, each:	uint32 offset into the payload, uint32 length (at
 *						least 1), then that many bytes of the payload
 *
 * Runs come in order of offset and do not overlap; payload bytes in no run
 * are zero.  The payload's length is the header's (the layout's
 * payload_bytes).  The encoder starts a new run only past a gap of more
 * zeros than a run's head costs.  Only empty filters have shapes (bits set
 * 0): a shape of a filter that holds elements would carry its cells through
 * the sort again, slowly, so bf_shape refuses one, and the check refuses a
 * shape whose header counts bits.
 *
 * XXX The encoder reads the whole payload, and the aggregate makes the
 * filter again and checks it: both once per value or group, never per row.
 *
 * src/core/shape.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/shape.h"

#define BLOOM_SHAPE_RUN_HEAD	8

/* the first byte at or after i in p[0 .. n) that is not zero (n if none) */
static size_t
bloom_shape_skip_zeros(const uint8_t *p, size_t i, size_t n)
{
	uint64_t	w;

	while (i < n && i % 8 != 0 && p[i] == 0)
		i++;
	/* whole words at a time: a payload is megabytes of zeros */
	while (i + 8 <= n && (memcpy(&w, p + i, 8), w == 0))
	{
		i += 8;
		if (i % BLOOM_INTERRUPT_BYTES == 0)
			bloom_check_interrupts();
	}
	while (i < n && p[i] == 0)
		i++;
	return i;
}

/*
 * The shape of the filter of len bytes (header and payload, validated and
 * empty) into shape, if not NULL; its length either way.
 */
size_t
bloom_shape_encode(const uint8_t *filter, size_t len, uint8_t *shape)
{
	const uint8_t *payload = filter + BLOOM_HEADER_SIZE;
	size_t		n = len - BLOOM_HEADER_SIZE;
	size_t		out = BLOOM_HEADER_SIZE;
	size_t		i = bloom_shape_skip_zeros(payload, 0, n);

	if (shape)
	{
		memcpy(shape, filter, BLOOM_HEADER_SIZE);
		bloom_store32le(shape + BLOOM_OFF_MAGIC, BLOOM_SHAPE_MAGIC);
	}
	while (i < n)
	{
		size_t		start = i,
					end = i;

		/* a run goes on across gaps of zeros no longer than a run's head */
		for (;;)
		{
			while (end < n && payload[end] != 0)
				end++;
			i = bloom_shape_skip_zeros(payload, end, n);
			if (i == n || i - end > BLOOM_SHAPE_RUN_HEAD)
				break;
			end = i;
		}
		if (shape)
		{
			bloom_store32le(shape + out, (uint32_t) start);
			bloom_store32le(shape + out + 4, (uint32_t) (end - start));
			memcpy(shape + out + BLOOM_SHAPE_RUN_HEAD, payload + start, end - start);
		}
		out += BLOOM_SHAPE_RUN_HEAD + end - start;
	}
	return out;
}

/*
 * Check a shape of len bytes: its magic, its header as a filter's of the
 * length the header gives, with no bits set, and its runs within that
 * payload, in order, filling the shape exactly.  Not the payload's own
 * checks: those need the filter made again (bloom_shape_fill).  On success
 * *hdr holds the header.
 */
BloomCheck
bloom_shape_check(const uint8_t *shape, size_t len, BloomHeader *hdr)
{
	const BloomLayout *layout;
	uint64_t	payload_len;
	uint64_t	done = 0;
	size_t		at = BLOOM_HEADER_SIZE;
	BloomCheck	check;

	if (len >= 4 && bloom_load32le(shape) == BLOOM_MAGIC)
		return BLOOM_SHAPE_IS_FILTER;
	if (len < 4 || bloom_load32le(shape) != BLOOM_SHAPE_MAGIC)
		return BLOOM_BAD_SHAPE_MAGIC;
	if (len < BLOOM_HEADER_SIZE)
		return BLOOM_BAD_LENGTH;
	bloom_header_decode(shape, hdr);
	if (hdr->version != BLOOM_VERSION)
		return BLOOM_BAD_VERSION;
	layout = bloom_layout_for(hdr->layout);
	if (layout == NULL)
		return BLOOM_BAD_LAYOUT;
	payload_len = layout->payload_bytes(hdr);
	if (payload_len > BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE)
		return BLOOM_BAD_LENGTH;
	check = bloom_validate_header(hdr, BLOOM_HEADER_SIZE + (size_t) payload_len);
	if (check != BLOOM_OK)
		return check;
	if (hdr->bits_set != 0)
		return BLOOM_BAD_SHAPE_ELEMENTS;
	while (at < len)
	{
		uint64_t	offset,
					run;

		if (len - at < BLOOM_SHAPE_RUN_HEAD)
			return BLOOM_BAD_SHAPE_RUNS;
		offset = bloom_load32le(shape + at);
		run = bloom_load32le(shape + at + 4);
		at += BLOOM_SHAPE_RUN_HEAD;
		if (run == 0 || offset < done || offset > payload_len ||
			run > payload_len - offset || run > len - at)
			return BLOOM_BAD_SHAPE_RUNS;
		done = offset + run;
		at += (size_t) run;
	}
	return BLOOM_OK;
}

/*
 * The filter of a shape of len bytes that passed bloom_shape_check with
 * header hdr, made again: its runs into payload, which holds the header's
 * payload length of zeros, then the checks bloom_validate makes of a
 * filter's payload, so that a shape never makes what a filter's input would
 * refuse.
 */
BloomCheck
bloom_shape_fill(const uint8_t *shape, size_t len, const BloomHeader *hdr,
				 uint8_t *payload)
{
	for (size_t at = BLOOM_HEADER_SIZE; at < len;)
	{
		uint32_t	offset = bloom_load32le(shape + at);
		uint32_t	run = bloom_load32le(shape + at + 4);

		memcpy(payload + offset, shape + at + BLOOM_SHAPE_RUN_HEAD, run);
		at += BLOOM_SHAPE_RUN_HEAD + run;
	}
	return bloom_validate_payload(hdr, payload);
}
