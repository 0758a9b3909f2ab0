/*-------------------------------------------------------------------------
 *
 * bloomfilter_io.c
 *	  Text and binary I/O of the bloomfilter type, the bytea cast, and the
 *	  checks every path that builds a filter goes through.
 *
 * The text form is the base64 of the binary form, which is the stored form
 * without its varlena length word.  Every input path (text, binary receive,
 * bytea cast) runs the same full validation, bloom_validate, so a value that
 * is in a table is always well formed; functions that read a stored value
 * still check its header against its length (bloom_open), which costs
 * nothing and keeps a damaged value from sending a read past its end.
 *
 * src/bloomfilter_io.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/mman.h>

#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "bloomfilter.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(bloomfilter_in);
PG_FUNCTION_INFO_V1(bloomfilter_out);
PG_FUNCTION_INFO_V1(bloomfilter_recv);
PG_FUNCTION_INFO_V1(bloomfilter_send);
PG_FUNCTION_INFO_V1(bloomfilter_from_bytea);

/* how much of a bad literal an error message quotes */
#define BLOOM_ERR_QUOTE 40

/*
 * Input functions report through the soft-error context where the server has
 * one (PostgreSQL 16+), so pg_input_is_valid() works; on 15 they throw.
 */
#if PG_VERSION_NUM >= 160000
#define BLOOM_INPUT_ERROR(escontext, ...) ereturn(escontext, (Datum) 0, __VA_ARGS__)
#else
#define BLOOM_INPUT_ERROR(escontext, ...) \
	do { (void) (escontext); ereport(ERROR, __VA_ARGS__); } while (0)
#endif

/*
 * Turn validated serialized bytes into a palloc'd varlena.  sqlstate says how
 * a failure is reported: invalid binary or invalid text.
 */
BloomFilter *
bloom_from_bytes(const uint8 *buf, size_t len, int sqlstate)
{
	BloomHeader hdr;
	BloomFilter *bf;

	bloom_check_serialized(buf, len, &hdr, sqlstate);
	bf = (BloomFilter *) bloom_alloc_bytes(CurrentMemoryContext, VARHDRSZ + len);
	SET_VARSIZE(bf, VARHDRSZ + len);
	memcpy(bf->data, buf, len);
	return bf;
}

void
bloom_check_serialized(const uint8 *buf, size_t len, BloomHeader *hdr,
					   int sqlstate)
{
	BloomCheck	check = bloom_validate(buf, len, hdr);

	if (check != BLOOM_OK)
		ereport(ERROR,
				(errcode(sqlstate),
				 errmsg("invalid bloomfilter value"),
				 errdetail_internal("%s", bloom_check_message(check))));
}

/*
 * Decode and check the header of a filter we are about to read.  The value
 * passed full validation when it came in; this guards against damage since,
 * in O(1).
 */
void
bloom_open(const BloomFilter *bf, BloomHeader *hdr)
{
	size_t		len = VARSIZE_ANY_EXHDR(bf);
	const uint8 *data = (const uint8 *) VARDATA_ANY(bf);
	BloomCheck	check = BLOOM_BAD_LENGTH;

	if (len >= BLOOM_HEADER_SIZE)
	{
		bloom_header_decode(data, hdr);
		check = bloom_validate_header(hdr, len);
	}
	if (check != BLOOM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("bloomfilter value is corrupt"),
				 errdetail_internal("%s", bloom_check_message(check))));
}

/*
 * Copy (src not NULL) or zero n bytes a megabyte at a time, checking for
 * interrupts in between.  Touching fresh memory is the slow part of making
 * a large filter: hundreds of megabytes can take seconds, and a cancel or
 * statement_timeout has to be answered meanwhile.
 */
void
bloom_fill(void *dst, const void *src, size_t n)
{
	for (size_t off = 0; off < n; off += BLOOM_INTERRUPT_BYTES)
	{
		size_t		len = Min(BLOOM_INTERRUPT_BYTES, n - off);

		CHECK_FOR_INTERRUPTS();
		if (src)
			memcpy((char *) dst + off, (const char *) src + off, len);
		else
			memset((char *) dst + off, 0, len);
	}
}

/*
 * Memory for a filter, in cxt.  A large chunk comes straight from mmap and
 * is faulted in page by page when first written; on a virtual machine each
 * 4 kB fault can cost microseconds (12 MB took 32 ms to touch where we
 * measured, more than the whole scan of some queries).  Where the kernel
 * offers transparent huge pages on request (Linux's "madvise" mode, Debian's
 * default), asking for them before the first write turns those thousands
 * of faults into a handful: 1 ms for the same 12 MB.  Only the 2 MB-aligned
 * interior is advised, so nothing outside the chunk is affected; the advice
 * changes neither contents nor semantics, and a kernel that declines it
 * leaves things as they were.
 */
#define BLOOM_HUGE_PAGE		((uintptr_t) 2 * 1024 * 1024)

void *
bloom_alloc_bytes(MemoryContext cxt, Size size)
{
	char	   *p = MemoryContextAlloc(cxt, size);

#ifdef MADV_HUGEPAGE
	if (size >= 2 * BLOOM_HUGE_PAGE)
	{
		uintptr_t	start = TYPEALIGN(BLOOM_HUGE_PAGE, (uintptr_t) p);
		uintptr_t	end = TYPEALIGN_DOWN(BLOOM_HUGE_PAGE, (uintptr_t) p + size);

		if (end > start)
			(void) madvise((void *) start, end - start, MADV_HUGEPAGE);
	}
#endif
	return p;
}

/* a zeroed filter for hdr (whose bits_set must be 0) */
BloomFilter *
bloom_alloc(const BloomHeader *hdr)
{
	Size		size = BLOOMFILTER_SIZE(hdr->nbits);
	BloomFilter *bf = (BloomFilter *) bloom_alloc_bytes(CurrentMemoryContext, size);

	SET_VARSIZE(bf, size);
	bloom_header_encode(hdr, bf->data);
	bloom_fill(BLOOMFILTER_BITS(bf), NULL, size - VARHDRSZ - BLOOM_HEADER_SIZE);
	return bf;
}

/*
 * A private, modifiable copy of a filter argument.  A value that has to be
 * detoasted (or flattened) already arrives as a fresh copy; a plain one is
 * copied here.
 */
BloomFilter *
bloom_copy(Datum d)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);
	BloomFilter *bf;

	if (VARATT_IS_EXTENDED(raw))
		return (BloomFilter *) PG_DETOAST_DATUM(d);
	bf = (BloomFilter *) bloom_alloc_bytes(CurrentMemoryContext, VARSIZE(raw));
	SET_VARSIZE(bf, VARSIZE(raw));
	bloom_fill(bf->data, VARDATA(raw), VARSIZE(raw) - VARHDRSZ);
	return bf;
}

void
bloom_store_header(BloomFilter *bf, const BloomHeader *hdr)
{
	bloom_header_encode(hdr, bf->data);
}

static void
bloom_describe(StringInfo buf, const BloomHeader *h)
{
	appendStringInfo(buf, "%llu bits, %d hashes, seed %u",
					 (unsigned long long) h->nbits, h->nhashes, h->seed);
	if (h->layout != BLOOM_LAYOUT_BLOCKED512)
		appendStringInfo(buf, ", layout %d", h->layout);
	if (h->hash_id != BLOOM_HASH_MURMUR3_X64_128)
		appendStringInfo(buf, ", hash %d", h->hash_id);
}

void
bloom_check_shape(const BloomHeader *a, const BloomHeader *b, const char *operation)
{
	StringInfoData da,
				db;

	if (bloom_same_shape(a, b))
		return;
	initStringInfo(&da);
	initStringInfo(&db);
	bloom_describe(&da, a);
	bloom_describe(&db, b);
	ereport(ERROR,
			(errcode(ERRCODE_DATA_EXCEPTION),
			 errmsg("cannot %s bloom filters of different shape", operation),
			 errdetail("The first filter has %s; the second has %s.", da.data, db.data),
			 errhint("Create both filters with the same capacity, error rate and seed.")));
}

void
bloom_check_params(int64 capacity, double error_rate)
{
	if (capacity <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter capacity must be positive"),
				 errdetail("The capacity given was " INT64_FORMAT ".", capacity)));
	if (!(error_rate > 0.0 && error_rate < 1.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter error rate must be greater than 0 and less than 1"),
				 errdetail("The error rate given was %g.", error_rate)));
	if (error_rate < BLOOM_MIN_ERROR_RATE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter error rate %g is below the supported minimum of %g",
						error_rate, BLOOM_MIN_ERROR_RATE)));
}

void
bloom_size_or_error(int64 capacity, double error_rate, uint64 *nbits, int *nhashes)
{
	bloom_check_params(capacity, error_rate);
	if (!bloom_size((uint64) capacity, error_rate, nbits, nhashes))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom filter for " INT64_FORMAT " elements at error rate %g is too large",
						capacity, error_rate),
				 errdetail("A bloomfilter value is limited to %llu bytes.",
						   (unsigned long long) BLOOM_MAX_BYTES)));
}

Datum
bloomfilter_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	Node	   *escontext = fcinfo->context;
	const char *start = str;
	size_t		len;
	uint8	   *buf;
	size_t		buflen;
	BloomHeader hdr;
	BloomCheck	check;
	BloomFilter *bf;

	/* like most input functions, ignore surrounding white space */
	while (*start && isspace((unsigned char) *start))
		start++;
	len = strlen(start);
	while (len > 0 && isspace((unsigned char) start[len - 1]))
		len--;

	buf = bloom_alloc_bytes(CurrentMemoryContext,
							VARHDRSZ + bloom_base64_decoded_max(len));
	if (!bloom_base64_decode(start, len, buf + VARHDRSZ, &buflen))
		BLOOM_INPUT_ERROR(escontext,
						  (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						   errmsg("invalid input syntax for type %s: \"%.*s%s\"",
								  "bloomfilter", BLOOM_ERR_QUOTE, str,
								  strlen(str) > BLOOM_ERR_QUOTE ? "..." : ""),
						   errdetail("A bloomfilter literal is the base64 encoding of its binary form.")));

	check = bloom_validate(buf + VARHDRSZ, buflen, &hdr);
	if (check != BLOOM_OK)
		BLOOM_INPUT_ERROR(escontext,
						  (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						   errmsg("invalid input syntax for type %s: \"%.*s%s\"",
								  "bloomfilter", BLOOM_ERR_QUOTE, str,
								  strlen(str) > BLOOM_ERR_QUOTE ? "..." : ""),
						   errdetail_internal("%s", bloom_check_message(check))));

	/* decode in place behind room for the length word: no second copy */
	bf = (BloomFilter *) buf;
	SET_VARSIZE(bf, VARHDRSZ + buflen);
	PG_RETURN_BLOOMFILTER_P(bf);
}

Datum
bloomfilter_out(PG_FUNCTION_ARGS)
{
	BloomFilter *bf = PG_GETARG_BLOOMFILTER_P(0);
	size_t		len = VARSIZE_ANY_EXHDR(bf);
	char	   *out = palloc(bloom_base64_encoded_len(len) + 1);

	bloom_base64_encode((const uint8 *) VARDATA_ANY(bf), len, out);
	out[bloom_base64_encoded_len(len)] = '\0';
	PG_RETURN_CSTRING(out);
}

Datum
bloomfilter_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	size_t		len = buf->len - buf->cursor;
	const char *data = pq_getmsgbytes(buf, (int) len);

	PG_RETURN_BLOOMFILTER_P(bloom_from_bytes((const uint8 *) data, len,
											 ERRCODE_INVALID_BINARY_REPRESENTATION));
}

Datum
bloomfilter_send(PG_FUNCTION_ARGS)
{
	BloomFilter *bf = PG_GETARG_BLOOMFILTER_P(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, VARDATA_ANY(bf), VARSIZE_ANY_EXHDR(bf));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

Datum
bloomfilter_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);

	PG_RETURN_BLOOMFILTER_P(bloom_from_bytes((const uint8 *) VARDATA_ANY(b),
											 VARSIZE_ANY_EXHDR(b),
											 ERRCODE_INVALID_BINARY_REPRESENTATION));
}
