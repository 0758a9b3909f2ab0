/*-------------------------------------------------------------------------
 *
 * bloomfilter_elem.c
 *	  Canonical bytes of an element, per SQL type.
 *
 * The hash of an element must not depend on the build, the platform or the
 * session, or a stored filter would start answering "absent" for elements it
 * holds.  So every type is reduced to bytes that are defined independently
 * of memory layout:
 *
 *	- int2, int4, int8: widened to int8, 8 bytes little-endian, so a column
 *	  of one width can be probed with a value of another;
 *	- text, varchar, bytea: the bytes of the value (text in the database
 *	  encoding);
 *	- bpchar: the bytes without trailing blanks, as bpchar comparison treats
 *	  them;
 *	- name: the bytes up to the terminating NUL;
 *	- uuid: its 16 bytes;
 *	- anything else: the output of its binary send function, which
 *	  PostgreSQL keeps stable across platforms and versions for COPY BINARY.
 *	  Text inside such values (enum labels, json, arrays of text) is taken in
 *	  the database encoding whatever the session's client_encoding.
 *
 * Domains hash as their base type.  The lookup happens once per call site;
 * the result lives in fn_extra.
 *
 * src/bloomfilter_elem.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/uuid.h"

#include "bloomfilter.h"

void
bloom_elem_init(BloomElemType *et, Oid typid, MemoryContext mcxt)
{
	Oid			base = getBaseType(typid);

	memset(et, 0, sizeof(*et));
	et->typid = typid;
	get_typlenbyvalalign(typid, &et->typlen, &et->typbyval, &et->typalign);

	switch (base)
	{
		case INT2OID:
			et->kind = BLOOM_ELEM_INT2;
			break;
		case INT4OID:
			et->kind = BLOOM_ELEM_INT4;
			break;
		case INT8OID:
			et->kind = BLOOM_ELEM_INT8;
			break;
		case TEXTOID:
		case VARCHAROID:
		case BYTEAOID:
			et->kind = BLOOM_ELEM_TEXT;
			break;
		case BPCHAROID:
			et->kind = BLOOM_ELEM_BPCHAR;
			break;
		case NAMEOID:
			et->kind = BLOOM_ELEM_NAME;
			break;
		case UUIDOID:
			et->kind = BLOOM_ELEM_UUID;
			break;
		default:
			{
				Oid			sendfn;
				bool		isvarlena;

				getTypeBinaryOutputInfo(typid, &sendfn, &isvarlena);
				fmgr_info_cxt(sendfn, &et->send, mcxt);
				et->kind = BLOOM_ELEM_SEND;
			}
			break;
	}
}

/*
 * Binary send converts text to the client encoding; hash in the database
 * encoding instead, so the session's client_encoding cannot change a hash.
 */
static bytea *
bloom_send_in_db_encoding(FmgrInfo *send, Datum value)
{
	int			client = pg_get_client_encoding();
	bytea	   *result;

	if (client == GetDatabaseEncoding())
		return SendFunctionCall(send, value);

	if (SetClientEncoding(GetDatabaseEncoding()) < 0)
		elog(ERROR, "could not switch client encoding for hashing");
	PG_TRY();
	{
		result = SendFunctionCall(send, value);
	}
	PG_FINALLY();
	{
		if (SetClientEncoding(client) < 0)
			elog(ERROR, "could not restore client encoding after hashing");
	}
	PG_END_TRY();
	return result;
}

BloomHash
bloom_elem_hash_bytes(BloomElemType *et, Datum value, uint32 seed)
{
	switch (et->kind)
	{
		case BLOOM_ELEM_INT2:
			return bloom_hash_int64((int64) DatumGetInt16(value), seed);
		case BLOOM_ELEM_INT4:
			return bloom_hash_int64((int64) DatumGetInt32(value), seed);
		case BLOOM_ELEM_INT8:
			return bloom_hash_int64(DatumGetInt64(value), seed);
		case BLOOM_ELEM_TEXT:
			{
				struct varlena *v = PG_DETOAST_DATUM_PACKED(value);
				BloomHash	h = bloom_hash(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), seed);

				if ((Pointer) v != DatumGetPointer(value))
					pfree(v);
				return h;
			}
		case BLOOM_ELEM_BPCHAR:
			{
				BpChar	   *v = DatumGetBpCharPP(value);
				BloomHash	h = bloom_hash(VARDATA_ANY(v), bpchartruelen(VARDATA_ANY(v),
																		 VARSIZE_ANY_EXHDR(v)),
										  seed);

				if ((Pointer) v != DatumGetPointer(value))
					pfree(v);
				return h;
			}
		case BLOOM_ELEM_NAME:
			{
				const char *s = NameStr(*DatumGetName(value));

				return bloom_hash(s, strnlen(s, NAMEDATALEN), seed);
			}
		case BLOOM_ELEM_UUID:
			return bloom_hash(DatumGetUUIDP(value)->data, UUID_LEN, seed);
		case BLOOM_ELEM_SEND:
			{
				bytea	   *b = bloom_send_in_db_encoding(&et->send, value);
				BloomHash	h = bloom_hash(VARDATA(b), VARSIZE(b) - VARHDRSZ, seed);

				pfree(b);
				return h;
			}
	}
	elog(ERROR, "unexpected bloomfilter element kind %d", (int) et->kind);
	pg_unreachable();
}

/*
 * The type of argument argno as the function declares it, or InvalidOid if
 * that is polymorphic.  Distributed engines (Citus's worker_partial_agg)
 * call a transition function through a bare FmgrInfo with no call
 * expression; an overload with a concrete element type still says what it
 * takes.
 */
static Oid
bloom_declared_argtype(FunctionCallInfo fcinfo, int argno)
{
	Oid		   *argtypes;
	int			nargs;
	Oid			typid = InvalidOid;

	if (!OidIsValid(fcinfo->flinfo->fn_oid))
		return InvalidOid;
	(void) get_func_signature(fcinfo->flinfo->fn_oid, &argtypes, &nargs);
	if (argno < nargs && !IsPolymorphicType(argtypes[argno]))
		typid = argtypes[argno];
	pfree(argtypes);
	return typid;
}

/* the slow path of bloom_fn_cache: the first call at a call site */
void *
bloom_fn_cache_init(FunctionCallInfo fcinfo, int argno, bool array_element, Size size)
{
	BloomElemType *et;
	Oid			typid;

	typid = get_fn_expr_argtype(fcinfo->flinfo, argno);
	if (!OidIsValid(typid))
		typid = bloom_declared_argtype(fcinfo, argno);
	if (!OidIsValid(typid))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("could not determine the element type of a bloomfilter argument")));
	if (array_element)
	{
		Oid			elemtype = get_element_type(getBaseType(typid));

		if (!OidIsValid(elemtype))
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("argument of type %s is not an array", format_type_be(typid))));
		typid = elemtype;
	}

	Assert(size >= sizeof(BloomElemType));
	et = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, size);
	bloom_elem_init(et, typid, fcinfo->flinfo->fn_mcxt);
	fcinfo->flinfo->fn_extra = et;
	return et;
}
