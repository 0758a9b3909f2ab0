/*-------------------------------------------------------------------------
 *
 * io.c
 *	  Text and binary I/O of both filter types and their casts from bytea.
 *
 * For every kind the binary form is the stored form without its varlena
 * length word, and the text form is its base64.  Every input path (text,
 * binary receive, the bytea cast) runs the kind's one full validation
 * (bloom_validate, cuckoo_validate), so a value that is in a table is
 * always well formed.
 *
 * src/type/io.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "libpq/pqformat.h"
#include "utils/builtins.h"

#include "type/kind.h"
#include "type/kind_bloom.h"
#include "type/kind_cuckoo.h"

PG_FUNCTION_INFO_V1(bloomfilter_in);
PG_FUNCTION_INFO_V1(bloomfilter_out);
PG_FUNCTION_INFO_V1(bloomfilter_recv);
PG_FUNCTION_INFO_V1(bloomfilter_send);
PG_FUNCTION_INFO_V1(bloomfilter_from_bytea);
PG_FUNCTION_INFO_V1(cuckoofilter_in);
PG_FUNCTION_INFO_V1(cuckoofilter_out);
PG_FUNCTION_INFO_V1(cuckoofilter_recv);
PG_FUNCTION_INFO_V1(cuckoofilter_send);
PG_FUNCTION_INFO_V1(cuckoofilter_from_bytea);

/* how much of a bad literal an error message quotes */
#define BLOOM_ERR_QUOTE 40

/*
 * Input functions report through the soft-error context where the server has
 * one (PostgreSQL 16+), so pg_input_is_valid() works; on 15 they throw.
 */
#if PG_VERSION_NUM >= 160000
#define BLOOM_INPUT_ERROR(escontext, ...) errsave(escontext, __VA_ARGS__)
#else
#define BLOOM_INPUT_ERROR(escontext, ...) \
	do { (void) (escontext); ereport(ERROR, __VA_ARGS__); } while (0)
#endif

static void bloom_literal_invalid(const char *str, const char *typname,
								  Node *escontext, const char *detail);

/*
 * A literal of either filter type: the base64 of its binary form, white
 * space around it ignored, decoded behind room for a varlena header (no
 * second copy).  Returns NULL after reporting a soft error.
 */
static struct varlena *
bloom_literal_decode(const char *str, const char *typname, Node *escontext, size_t *len)
{
	const char *start = str;
	size_t		n;
	struct varlena *result;

	while (*start && isspace((unsigned char) *start))
		start++;
	n = strlen(start);
	while (n > 0 && isspace((unsigned char) start[n - 1]))
		n--;
	result = bloom_palloc(CurrentMemoryContext, VARHDRSZ + bloom_base64_decoded_max(n));
	if (!bloom_base64_decode(start, n, (uint8 *) VARDATA(result), len))
	{
		bloom_literal_invalid(str, typname, escontext,
							  psprintf("A %s literal is the base64 encoding of its binary form.",
									   typname));
		return NULL;
	}
	return result;
}

/* the text form of either filter type: the base64 of its binary form */
static char *
bloom_literal_encode(const uint8 *bytes, size_t len)
{
	char	   *out = palloc(bloom_base64_encoded_len(len) + 1);

	bloom_base64_encode(bytes, len, out);
	out[bloom_base64_encoded_len(len)] = '\0';
	return out;
}

/* report a bad literal of the type (soft where the server can) */
static void
bloom_literal_invalid(const char *str, const char *typname, Node *escontext,
					  const char *detail)
{
	BLOOM_INPUT_ERROR(escontext,
					  (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					   errmsg("invalid input syntax for type %s: \"%.*s%s\"",
							  typname, BLOOM_ERR_QUOTE, str,
							  strlen(str) > BLOOM_ERR_QUOTE ? "..." : ""),
					   errdetail_internal("%s", detail)));
}

/* outside bytes (binary input, bytea) as a value of the kind, fully validated */
static struct varlena *
bloom_value_from_bytes(const BloomKind *kind, const uint8 *buf, size_t len, int sqlstate)
{
	const char *problem = kind->validate(buf, len);
	struct varlena *result;

	if (problem != NULL)
		ereport(ERROR,
				(errcode(sqlstate),
				 errmsg("%s", _(kind->invalid_value_msg)),
				 errdetail_internal("%s", problem)));
	result = bloom_palloc(CurrentMemoryContext, VARHDRSZ + len);
	SET_VARSIZE(result, VARHDRSZ + len);
	memcpy(VARDATA(result), buf, len);
	return result;
}

/* ---- the I/O functions of either type ---- */

static Datum
bloom_in_kind(FunctionCallInfo fcinfo, const BloomKind *kind)
{
	char	   *str = PG_GETARG_CSTRING(0);
	Node	   *escontext = fcinfo->context;
	size_t		len;
	struct varlena *result = bloom_literal_decode(str, kind->type_name, escontext, &len);
	const char *problem;

	if (result == NULL)
		PG_RETURN_NULL();
	problem = kind->validate((const uint8 *) VARDATA(result), len);
	if (problem != NULL)
	{
		bloom_literal_invalid(str, kind->type_name, escontext, problem);
		PG_RETURN_NULL();
	}
	SET_VARSIZE(result, VARHDRSZ + len);
	PG_RETURN_POINTER(result);
}

static Datum
bloom_out_kind(FunctionCallInfo fcinfo, const BloomKind *kind)
{
	size_t		len;
	const uint8 *bytes = kind->out_bytes(PG_GETARG_DATUM(0), &len);

	PG_RETURN_CSTRING(bloom_literal_encode(bytes, len));
}

static Datum
bloom_recv_kind(FunctionCallInfo fcinfo, const BloomKind *kind)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	size_t		len = buf->len - buf->cursor;
	const char *data = pq_getmsgbytes(buf, (int) len);

	PG_RETURN_POINTER(bloom_value_from_bytes(kind, (const uint8 *) data, len,
											 ERRCODE_INVALID_BINARY_REPRESENTATION));
}

static Datum
bloom_send_kind(FunctionCallInfo fcinfo, const BloomKind *kind)
{
	size_t		len;
	const uint8 *bytes = kind->out_bytes(PG_GETARG_DATUM(0), &len);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, (const char *) bytes, (int) len);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

static Datum
bloom_from_bytea_kind(FunctionCallInfo fcinfo, const BloomKind *kind)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);

	PG_RETURN_POINTER(bloom_value_from_bytes(kind, (const uint8 *) VARDATA_ANY(b),
											 VARSIZE_ANY_EXHDR(b),
											 ERRCODE_INVALID_BINARY_REPRESENTATION));
}

Datum
bloomfilter_in(PG_FUNCTION_ARGS)
{
	return bloom_in_kind(fcinfo, &bloomfilter_kind);
}

Datum
bloomfilter_out(PG_FUNCTION_ARGS)
{
	return bloom_out_kind(fcinfo, &bloomfilter_kind);
}

Datum
bloomfilter_recv(PG_FUNCTION_ARGS)
{
	return bloom_recv_kind(fcinfo, &bloomfilter_kind);
}

Datum
bloomfilter_send(PG_FUNCTION_ARGS)
{
	return bloom_send_kind(fcinfo, &bloomfilter_kind);
}

Datum
bloomfilter_from_bytea(PG_FUNCTION_ARGS)
{
	return bloom_from_bytea_kind(fcinfo, &bloomfilter_kind);
}

Datum
cuckoofilter_in(PG_FUNCTION_ARGS)
{
	return bloom_in_kind(fcinfo, &cuckoofilter_kind);
}

Datum
cuckoofilter_out(PG_FUNCTION_ARGS)
{
	return bloom_out_kind(fcinfo, &cuckoofilter_kind);
}

Datum
cuckoofilter_recv(PG_FUNCTION_ARGS)
{
	return bloom_recv_kind(fcinfo, &cuckoofilter_kind);
}

Datum
cuckoofilter_send(PG_FUNCTION_ARGS)
{
	return bloom_send_kind(fcinfo, &cuckoofilter_kind);
}

Datum
cuckoofilter_from_bytea(PG_FUNCTION_ARGS)
{
	return bloom_from_bytea_kind(fcinfo, &cuckoofilter_kind);
}
