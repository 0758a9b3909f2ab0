/*-------------------------------------------------------------------------
 *
 * bloomfilter_io.c
 *	  Text and binary I/O of the bloomfilter type and its casts to and from
 *	  bytea.
 *
 * The binary form is the stored form without its varlena length word; the
 * text form is its base64.  Every input path (text, binary receive, the
 * bytea cast) runs the one full validation, bloom_validate, so a value that
 * is in a table is always well formed.
 *
 * src/bloomfilter_io.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "libpq/pqformat.h"
#include "utils/builtins.h"

#include "bloomfilter_datum.h"

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

Datum
bloomfilter_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	Node	   *escontext = fcinfo->context;
	const char *start = str;
	size_t		len;
	struct varlena *result;
	size_t		buflen;
	BloomHeader hdr;
	BloomCheck	check;

	/* like most input functions, ignore surrounding white space */
	while (*start && isspace((unsigned char) *start))
		start++;
	len = strlen(start);
	while (len > 0 && isspace((unsigned char) start[len - 1]))
		len--;

	/* decode in place behind room for the length word: no second copy */
	result = bloom_palloc(CurrentMemoryContext, VARHDRSZ + bloom_base64_decoded_max(len));
	if (!bloom_base64_decode(start, len, (uint8 *) VARDATA(result), &buflen))
		BLOOM_INPUT_ERROR(escontext,
						  (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						   errmsg("invalid input syntax for type %s: \"%.*s%s\"",
								  "bloomfilter", BLOOM_ERR_QUOTE, str,
								  strlen(str) > BLOOM_ERR_QUOTE ? "..." : ""),
						   errdetail("A bloomfilter literal is the base64 encoding of its binary form.")));

	check = bloom_validate((const uint8 *) VARDATA(result), buflen, &hdr);
	if (check != BLOOM_OK)
		BLOOM_INPUT_ERROR(escontext,
						  (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						   errmsg("invalid input syntax for type %s: \"%.*s%s\"",
								  "bloomfilter", BLOOM_ERR_QUOTE, str,
								  strlen(str) > BLOOM_ERR_QUOTE ? "..." : ""),
						   errdetail_internal("%s", bloom_check_message(check))));

	SET_VARSIZE(result, VARHDRSZ + buflen);
	PG_RETURN_POINTER(result);
}

Datum
bloomfilter_out(PG_FUNCTION_ARGS)
{
	size_t		len;
	const uint8 *bytes = bloom_read_bytes(PG_GETARG_DATUM(0), &len);
	char	   *out = palloc(bloom_base64_encoded_len(len) + 1);

	bloom_base64_encode(bytes, len, out);
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
	size_t		len;
	const uint8 *bytes = bloom_read_bytes(PG_GETARG_DATUM(0), &len);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, (const char *) bytes, (int) len);
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
