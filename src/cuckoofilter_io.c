/*-------------------------------------------------------------------------
 *
 * cuckoofilter_io.c
 *	  Text and binary I/O of the cuckoofilter type and its casts to and
 *	  from bytea.
 *
 * As for bloomfilter: the binary form is the stored form without its
 * varlena length word, the text form its base64, and every input path
 * (text, binary receive, the bytea cast) runs the one full validation,
 * cuckoo_validate.
 *
 * src/cuckoofilter_io.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "libpq/pqformat.h"
#include "utils/builtins.h"

#include "bloomfilter_datum.h"
#include "cuckoofilter.h"

PG_FUNCTION_INFO_V1(cuckoofilter_in);
PG_FUNCTION_INFO_V1(cuckoofilter_out);
PG_FUNCTION_INFO_V1(cuckoofilter_recv);
PG_FUNCTION_INFO_V1(cuckoofilter_send);
PG_FUNCTION_INFO_V1(cuckoofilter_from_bytea);

Datum
cuckoofilter_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	Node	   *escontext = fcinfo->context;
	size_t		len;
	struct varlena *result = bloom_literal_decode(str, "cuckoofilter", escontext, &len);
	CuckooView	v;
	CuckooCheck check;

	if (result == NULL)
		PG_RETURN_NULL();
	check = cuckoo_validate((const uint8 *) VARDATA(result), len, &v);
	if (check != CUCKOO_OK)
	{
		bloom_literal_invalid(str, "cuckoofilter", escontext, cuckoo_check_message(check));
		PG_RETURN_NULL();
	}
	SET_VARSIZE(result, VARHDRSZ + len);
	PG_RETURN_POINTER(result);
}

Datum
cuckoofilter_out(PG_FUNCTION_ARGS)
{
	CuckooView	v;

	cf_read(PG_GETARG_DATUM(0), &v);
	PG_RETURN_CSTRING(bloom_literal_encode(v.buf, v.len));
}

Datum
cuckoofilter_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	size_t		len = buf->len - buf->cursor;
	const char *data = pq_getmsgbytes(buf, (int) len);

	PG_RETURN_POINTER(cf_from_bytes((const uint8 *) data, len,
									ERRCODE_INVALID_BINARY_REPRESENTATION));
}

Datum
cuckoofilter_send(PG_FUNCTION_ARGS)
{
	CuckooView	v;
	StringInfoData buf;

	cf_read(PG_GETARG_DATUM(0), &v);
	pq_begintypsend(&buf);
	pq_sendbytes(&buf, (const char *) v.buf, (int) v.len);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

Datum
cuckoofilter_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);

	PG_RETURN_POINTER(cf_from_bytes((const uint8 *) VARDATA_ANY(b),
									VARSIZE_ANY_EXHDR(b),
									ERRCODE_INVALID_BINARY_REPRESENTATION));
}
