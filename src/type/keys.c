/*-------------------------------------------------------------------------
 *
 * keys.c
 *	  Canonical bytes of an element, per SQL type and per hash id, and the
 *	  key type a filter records (typed filters, in the second half).
 *
 * The hash of an element must not depend on the build, the platform or the
 * session, or a stored filter would start answering "absent" for elements it
 * holds.  So every type is reduced to bytes defined independently of memory
 * layout, and those bytes are hashed (core/header.h).  Two sets of rules
 * exist, chosen by the filter's hash id; both share the common cases:
 *
 *	- int2, int4, int8: widened to int8, 8 bytes little-endian, so a column
 *	  of one width can be probed with a value of another;
 *	- text, varchar, bytea: the bytes of the value (text in the database
 *	  encoding); bpchar without trailing blanks, as its comparison treats
 *	  them; name, unknown (a literal inside ROW()) and cstring up to the NUL;
 *	- uuid: its 16 bytes;
 *	- domains: as their base type.
 *
 * Hash id 1 (filters made by releases up to 1.1) hashes every other type by
 * the output of its binary send function, in the database encoding.  Equal
 * values can have different send output (1.0 and 1.00 as numeric, 0.0 and
 * -0.0 as float), so such a filter can say "absent" for a value equal to one
 * it holds.  Those filters keep their rules forever.
 *
 * Hash id 2 (new filters) makes SQL-equal values hash equal:
 *	- numeric, float4 and float8 values that are whole numbers within int8
 *	  hash as that int8 (so 2, 2.0::numeric and 2.0::float8 all match the
 *	  integer 2); other numerics as the ASCII of the value with trailing
 *	  fractional zeros removed ("1.5", "NaN", "Infinity"); other floats as
 *	  the 8 little-endian bytes of the float8 (float4 widened first), every
 *	  NaN as 0x7FF8000000000000;
 *	- enums: the label's bytes (only in untyped filters, made by 1.2: a
 *	  typed filter refuses enums, whose labels can be renamed;
 *	  type/keys.c);
 *	- interval: the 16-byte little-endian count of microseconds its
 *	  comparison uses (a month is 30 days, a day 24 hours);
 *	- inet and cidr: the send output with the is-cidr byte zeroed;
 *	- bool, "char", date, time, timetz, timestamp, timestamptz, oid, money,
 *	  macaddr, macaddr8, bit, varbit, pg_lsn: the send output, which is one
 *	  per value for these;
 *	- arrays: int32 ndim, then each dimension's length and lower bound
 *	  (int32), then each element as an int32 length (-1 for NULL) and its
 *	  canonical bytes, all little-endian; records likewise, as int32 column
 *	  count and each column as length and canonical bytes;
 *	- any other type (citext, jsonb, ranges, json, ...) is refused with an
 *	  error, as is text under a nondeterministic collation: their equal
 *	  values do not share one form, and a silent mismatch would be a false
 *	  negative.
 *
 * Nothing here changes session state: text inside send output would be
 * converted to the client encoding, so for hash id 1 a type whose send
 * output can hold text is hashed through send only when no conversion
 * happens (the client encoding is the database's, or either is SQL_ASCII);
 * enums are hashed by their label directly, and other text-carrying types
 * raise an error asking for the database's encoding rather than hash bytes
 * that would change with the session.
 *
 * src/type/keys.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/tupdesc.h"
#include "catalog/pg_enum.h"
#include "catalog/pg_type.h"
#include "common/int128.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "nodes/primnodes.h"
#include "pgtime.h"
#include "utils/array.h"
#include "utils/arrayaccess.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/datum.h"
#include "utils/float.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/inval.h"
#include "utils/formatting.h"
#include "utils/inet.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "utils/tzparser.h"
#include "utils/uuid.h"

#include "type/keys.h"

/* types whose send output is one per value: equal values, equal bytes */
static const Oid canonical_send_types[] = {
	BOOLOID, CHAROID, DATEOID, TIMEOID, TIMETZOID, TIMESTAMPOID,
	TIMESTAMPTZOID, OIDOID, MONEYOID, MACADDROID, MACADDR8OID, BITOID,
	VARBITOID, PG_LSNOID
};

/* built-in send functions whose output can hold text (or nested values) */
static const Oid text_send_functions[] = {
	F_TEXTSEND, F_BPCHARSEND, F_VARCHARSEND, F_NAMESEND, F_UNKNOWNSEND,
	F_CSTRING_SEND, F_JSON_SEND, F_JSONB_SEND, F_JSONPATH_SEND, F_XML_SEND,
	F_TSVECTORSEND, F_TSQUERYSEND, F_ENUM_SEND, F_RECORD_SEND, F_ARRAY_SEND,
	F_RANGE_SEND, F_MULTIRANGE_SEND
};

static bool
oid_in(Oid oid, const Oid *list, int n)
{
	for (int i = 0; i < n; i++)
		if (list[i] == oid)
			return true;
	return false;
}

static void
bloom_elem_init_send(BloomElemType *et, Oid typid)
{
	Oid			sendfn;
	bool		isvarlena;

	getTypeBinaryOutputInfo(typid, &sendfn, &isvarlena);
	fmgr_info_cxt(sendfn, &et->send, et->mcxt);
	/* a send function we do not know could write text: assume it does */
	et->send_has_text = sendfn >= FirstGenbkiObjectId ||
		oid_in(sendfn, text_send_functions, lengthof(text_send_functions));
}

/* the kinds bloom_elem_init does not name: enums, arrays, records, the rest */
static void
bloom_elem_init_other(BloomElemType *et, Oid base, Oid collation, MemoryContext mcxt)
{
	if (type_is_enum(base))
		et->kind = BLOOM_ELEM_ENUM;
	else if (OidIsValid(get_element_type(base)))
	{
		et->kind = BLOOM_ELEM_ARRAY;
		et->elem = MemoryContextAlloc(mcxt, sizeof(BloomElemType));
		bloom_elem_init(et->elem, get_element_type(base), collation, mcxt);
	}
	else if (type_is_rowtype(base))
		et->kind = BLOOM_ELEM_RECORD;
	else
	{
		et->kind = BLOOM_ELEM_SEND;
		et->send_is_canonical = oid_in(base, canonical_send_types,
									   lengthof(canonical_send_types));
	}
}

void
bloom_elem_init(BloomElemType *et, Oid typid, Oid collation, MemoryContext mcxt)
{
	Oid			base = getBaseType(typid);

	memset(et, 0, sizeof(*et));
	et->typid = typid;
	et->base_typid = base;
	et->mcxt = mcxt;
	et->collation = collation;
	et->nondeterministic = OidIsValid(collation) &&
		!get_collation_isdeterministic(collation);
	get_typlenbyvalalign(typid, &et->typlen, &et->typbyval, &et->typalign);
	/* no plan yet for any filter (no key type is this) */
	et->key_typid = bloom_key_type_of(typid);
	et->plan_key = PG_UINT32_MAX;

	switch (base)
	{
		case INT2OID:
			et->kind = BLOOM_ELEM_INT2;
			return;
		case INT4OID:
			et->kind = BLOOM_ELEM_INT4;
			return;
		case INT8OID:
			et->kind = BLOOM_ELEM_INT8;
			return;
		case TEXTOID:
		case VARCHAROID:
		case BYTEAOID:
			et->kind = BLOOM_ELEM_TEXT;
			return;
		case BPCHAROID:
			et->kind = BLOOM_ELEM_BPCHAR;
			return;
		case NAMEOID:
			et->kind = BLOOM_ELEM_NAME;
			return;
		case UNKNOWNOID:
		case CSTRINGOID:
			et->kind = BLOOM_ELEM_CSTRING;
			return;
		case UUIDOID:
			et->kind = BLOOM_ELEM_UUID;
			return;
		case NUMERICOID:
			et->kind = BLOOM_ELEM_NUMERIC;
			break;
		case FLOAT4OID:
			et->kind = BLOOM_ELEM_FLOAT4;
			break;
		case FLOAT8OID:
			et->kind = BLOOM_ELEM_FLOAT8;
			break;
		case INTERVALOID:
			et->kind = BLOOM_ELEM_INTERVAL;
			break;
		case INETOID:
		case CIDROID:
			et->kind = BLOOM_ELEM_INET;
			break;
		default:
			bloom_elem_init_other(et, base, collation, mcxt);
			break;
	}
	/* hash id 1 hashes all of these by their send output */
	bloom_elem_init_send(et, typid);
}

/* ---- hash id 1: send output in the database encoding ---- */

static bool
bloom_send_converts_text(void)
{
	int			client = pg_get_client_encoding();
	int			db = GetDatabaseEncoding();

	return client != db && client != PG_SQL_ASCII && db != PG_SQL_ASCII;
}

static void
bloom_append_enum_label(StringInfo buf, Datum value)
{
	HeapTuple	tup = SearchSysCache1(ENUMOID, value);

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for enum value %u", DatumGetObjectId(value));
	appendStringInfoString(buf, NameStr(((Form_pg_enum) GETSTRUCT(tup))->enumlabel));
	ReleaseSysCache(tup);
}

static void
bloom_append_send(StringInfo buf, BloomElemType *et, Datum value)
{
	bytea	   *b = SendFunctionCall(&et->send, value);

	appendBinaryStringInfo(buf, VARDATA(b), VARSIZE(b) - VARHDRSZ);
	pfree(b);
}

static void
bloom_canon_v1(StringInfo buf, BloomElemType *et, Datum value)
{
	if (et->kind == BLOOM_ELEM_ENUM)
	{
		/* enum_send's output in the database encoding */
		bloom_append_enum_label(buf, value);
		return;
	}
	if (et->send_has_text && bloom_send_converts_text())
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot hash a value of type %s for a bloom filter of hash id 1 while client_encoding differs from the database encoding",
						format_type_be(et->typid)),
				 errdetail("Filters made by bloomfilter 1.1 or earlier hash this type by its binary output in the database encoding, %s.",
						   GetDatabaseEncodingName()),
				 errhint("Set client_encoding to %s, or rebuild the filter with this version.",
						 GetDatabaseEncodingName())));
	bloom_append_send(buf, et, value);
}

/* ---- hash id 2: SQL-equal values, equal bytes ---- */

static void
bloom_append_le(StringInfo buf, uint64 v, int nbytes)
{
	uint8		b[8];

	for (int i = 0; i < nbytes; i++)
		b[i] = (uint8) (v >> (8 * i));
	appendBinaryStringInfo(buf, (char *) b, nbytes);
}

static void
bloom_append_double(StringInfo buf, double d)
{
	uint64		bits;

	if (isnan(d))
		bits = UINT64CONST(0x7FF8000000000000);
	else
		memcpy(&bits, &d, sizeof(bits));
	bloom_append_le(buf, bits, 8);
}

/* a whole number within int8, as an integer hashes; false otherwise */
static bool
bloom_double_as_int64(double d, int64 *v)
{
	if (!isfinite(d) || d != trunc(d) ||
		d < -9223372036854775808.0 || d >= 9223372036854775808.0)
		return false;
	*v = (int64) d;				/* -0.0 becomes 0 */
	return true;
}

/* the text of a numeric without trailing fractional zeros */
static char *
bloom_numeric_text(Datum value)
{
	return DatumGetCString(DirectFunctionCall1(numeric_out,
											   DirectFunctionCall1(numeric_trim_scale, value)));
}

/* a whole number within int8 from that text; false otherwise */
static bool
bloom_numeric_text_int64(const char *s, int64 *v)
{
	char	   *end;
	long long	l;

	/* after trim_scale a whole number has no decimal point */
	errno = 0;
	l = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || end == s)
		return false;
	*v = (int64) l;
	return true;
}

/* a numeric that is a whole number within int8, as that int8; else false */
bool
bloom_numeric_as_int64(Datum value, int64 *v)
{
	char	   *s = bloom_numeric_text(value);
	bool		whole = bloom_numeric_text_int64(s, v);

	pfree(s);
	return whole;
}

static void
bloom_append_numeric(StringInfo buf, Datum value)
{
	char	   *s = bloom_numeric_text(value);
	int64		v;

	if (bloom_numeric_text_int64(s, &v))
		bloom_append_le(buf, (uint64) v, 8);
	else
		appendStringInfoString(buf, s);
	pfree(s);
}

static void
bloom_append_interval(StringInfo buf, Datum value)
{
	Interval   *iv = DatumGetIntervalP(value);
	INT128		span = int64_to_int128(iv->time);

	/* exact on every platform, native 128-bit integers or not */
	int128_add_int64_mul_int64(&span, iv->day, USECS_PER_DAY);
	int128_add_int64_mul_int64(&span, iv->month, DAYS_PER_MONTH * USECS_PER_DAY);
#if USE_NATIVE_INT128
	bloom_append_le(buf, (uint64) span, 8);
	bloom_append_le(buf, (uint64) (span >> 64), 8);
#else
	bloom_append_le(buf, span.lo, 8);
	bloom_append_le(buf, (uint64) span.hi, 8);
#endif
}

static void bloom_canon_v2(StringInfo buf, BloomElemType *et, Datum value,
						   bool recode);

/* a nested value: int32 length, or -1 for NULL, then its bytes */
static void
bloom_append_nested(StringInfo buf, BloomElemType *et, Datum value, bool isnull,
					bool recode)
{
	int			lenpos = buf->len;

	bloom_append_le(buf, (uint32) -1, 4);
	if (isnull)
		return;
	bloom_canon_v2(buf, et, value, recode);
	for (int i = 0; i < 4; i++)
		buf->data[lenpos + i] = (char) ((uint32) (buf->len - lenpos - 4) >> (8 * i));
}

static void
bloom_append_array(StringInfo buf, BloomElemType *et, Datum value, bool recode)
{
	AnyArrayType *arr = DatumGetAnyArrayP(value);
	int			ndim = AARR_NDIM(arr);
	int			nitems = ArrayGetNItems(ndim, AARR_DIMS(arr));
	array_iter	it;

	et->elem->refuse_enum = et->refuse_enum;
	et->elem->refuse_untyped = et->refuse_untyped;
	bloom_append_le(buf, (uint32) ndim, 4);
	for (int d = 0; d < ndim; d++)
	{
		bloom_append_le(buf, (uint32) AARR_DIMS(arr)[d], 4);
		bloom_append_le(buf, (uint32) AARR_LBOUND(arr)[d], 4);
	}
	BLOOM_ARRAY_ITER_SETUP(&it, arr, et->elem->typlen, et->elem->typbyval,
						   et->elem->typalign);
	for (int i = 0; i < nitems; i++)
	{
		bool		isnull;
		Datum		v = BLOOM_ARRAY_ITER_NEXT(&it, &isnull, i, et->elem->typlen,
											  et->elem->typbyval, et->elem->typalign);

		CHECK_FOR_INTERRUPTS();
		bloom_append_nested(buf, et->elem, v, isnull, recode);
	}
}

/*
 * The columns' types of the row type seen last, in a memory context of its
 * own that a change of row type resets: they hold more below them (a
 * column's array element or record cache), and a call site that alternates
 * between row types (anonymous records of different shapes in one column)
 * would otherwise keep every set it ever made.  The cache counts only once
 * complete, so an error half-way leaves none.
 */
static void
bloom_record_cache(BloomElemType *et, TupleDesc desc, Oid typid, int32 typmod)
{
	BloomElemType *cols;

	if (et->rec_mcxt == NULL)
		et->rec_mcxt = AllocSetContextCreate(et->mcxt, "bloomfilter record cache",
											 ALLOCSET_SMALL_SIZES);
	else
		MemoryContextReset(et->rec_mcxt);
	et->rec_cols = NULL;
	cols = MemoryContextAllocZero(et->rec_mcxt, Max(desc->natts, 1) * sizeof(BloomElemType));
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (!att->attisdropped)
			bloom_elem_init(&cols[i], att->atttypid, att->attcollation, et->rec_mcxt);
	}
	et->rec_typid = typid;
	et->rec_typmod = typmod;
	et->rec_natts = desc->natts;
	et->rec_cols = cols;
}

/*
 * The columns of a record datum into values and nulls (desc's natts each);
 * returns how many are not dropped, the columns a key of it has.
 */
int
bloom_deform_record(HeapTupleHeader td, TupleDesc desc, Datum *values, bool *nulls)
{
	HeapTupleData tuple;
	int			ncols = 0;

	tuple.t_len = HeapTupleHeaderGetDatumLength(td);
	ItemPointerSetInvalid(&tuple.t_self);
	tuple.t_tableOid = InvalidOid;
	tuple.t_data = td;
	heap_deform_tuple(&tuple, desc, values, nulls);
	for (int i = 0; i < desc->natts; i++)
		ncols += !TupleDescAttr(desc, i)->attisdropped;
	return ncols;
}

/*
 * A record datum's columns, for hashing it as et: its row type (released
 * by bloom_record_close), the columns' types in et's record cache, and the
 * values and nulls; returns how many columns are not dropped.
 */
static int
bloom_record_open(BloomElemType *et, Datum value, TupleDesc *desc, Datum **values,
				  bool **nulls)
{
	HeapTupleHeader td = DatumGetHeapTupleHeader(value);
	Oid			typid = HeapTupleHeaderGetTypeId(td);
	int32		typmod = HeapTupleHeaderGetTypMod(td);

	*desc = lookup_rowtype_tupdesc(typid, typmod);
	*values = palloc((*desc)->natts * sizeof(Datum));
	*nulls = palloc((*desc)->natts * sizeof(bool));
	if (et->rec_cols == NULL || et->rec_typid != typid || et->rec_typmod != typmod ||
		et->rec_natts != (*desc)->natts)
		bloom_record_cache(et, *desc, typid, typmod);
	return bloom_deform_record(td, *desc, *values, *nulls);
}

static void
bloom_record_close(TupleDesc desc, Datum *values, bool *nulls)
{
	ReleaseTupleDesc(desc);
	pfree(values);
	pfree(nulls);
}

static void
bloom_append_record(StringInfo buf, BloomElemType *et, Datum value, bool recode)
{
	TupleDesc	desc;
	Datum	   *values;
	bool	   *nulls;
	int			ncols = bloom_record_open(et, value, &desc, &values, &nulls);

	bloom_append_le(buf, (uint32) ncols, 4);
	for (int i = 0; i < desc->natts; i++)
	{
		if (!TupleDescAttr(desc, i)->attisdropped)
		{
			et->rec_cols[i].refuse_enum = et->refuse_enum;
			et->rec_cols[i].refuse_untyped = et->refuse_untyped;
			bloom_append_nested(buf, &et->rec_cols[i], values[i], nulls[i], recode);
		}
	}
	bloom_record_close(desc, values, nulls);
}

void
bloom_refuse(BloomElemType *et)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("bloom filters cannot hash values of type %s",
					format_type_be(et->typid)),
			 errdetail("Equal values of this type do not all have the same binary form, so a filter could miss a value equal to one it holds."),
			 errhint("Cast the elements to a type whose equal values are identical, such as text after normalizing them.")));
}

static void
bloom_check_collation(BloomElemType *et)
{
	if (et->nondeterministic)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloom filters cannot hash text under the nondeterministic collation \"%s\"",
						get_collation_name(et->collation)),
				 errdetail("Strings that such a collation calls equal can differ in their bytes, so a filter could miss one."),
				 errhint("Normalize the text (for example with lower()) and use a deterministic collation such as \"C\".")));
}

/*
 * Whether a filter of this hash id hashes text converted to UTF-8 here: id
 * 5 in a database of another encoding.  A SQL_ASCII database's text has no
 * known encoding, so its bytes are hashed as they are (PostgreSQL would
 * only check that they are valid UTF-8, and refuse those that are not).
 */
static inline bool
bloom_recodes_text(uint8 hash_id)
{
	int			db;

	if (hash_id != BLOOM_HASH_MURMUR3_UTF8)
		return false;
	db = GetDatabaseEncoding();
	return db != PG_UTF8 && db != PG_SQL_ASCII;
}

/*
 * Text of the database's encoding as UTF-8, for hash id 5: the bytes in
 * *data and *len replaced by the converted string, which *tofree then
 * owns.  ASCII is the same in every server encoding, so only text with a
 * byte above 127 is converted.
 */
static void
bloom_text_to_utf8(const char **data, size_t *len, void **tofree)
{
	char	   *utf8;
	size_t		i;

	for (i = 0; i < *len; i++)
		if (IS_HIGHBIT_SET((*data)[i]))
			break;
	if (i == *len)
		return;
	utf8 = pg_server_to_any(*data, (int) *len, PG_UTF8);
	if (utf8 == *data)
		return;
	if (*tofree)
		pfree(*tofree);
	*tofree = utf8;
	*data = utf8;
	*len = strlen(utf8);
}

/*
 * The kinds every hash id treats alike: integers as 8 little-endian bytes,
 * the rest as stored, text converted to UTF-8 if recode
 * (bloom_recodes_text).  Returns false for any other kind.  *tofree is
 * what to pfree afterwards, or NULL.
 */
static bool
bloom_common_bytes(BloomElemType *et, Datum value, uint64 *scratch,
				   const char **data, size_t *len, void **tofree, bool recode)
{
	*tofree = NULL;
	switch (et->kind)
	{
		case BLOOM_ELEM_INT2:
		case BLOOM_ELEM_INT4:
		case BLOOM_ELEM_INT8:
			{
				int64		v = et->kind == BLOOM_ELEM_INT8 ? DatumGetInt64(value) :
					et->kind == BLOOM_ELEM_INT4 ? DatumGetInt32(value) :
					DatumGetInt16(value);
				uint8	   *b = (uint8 *) scratch;

				for (int i = 0; i < 8; i++)
					b[i] = (uint8) ((uint64) v >> (8 * i));
				*data = (const char *) b;
				*len = 8;
				return true;
			}
		case BLOOM_ELEM_TEXT:
		case BLOOM_ELEM_BPCHAR:
			{
				struct varlena *v = PG_DETOAST_DATUM_PACKED(value);

				if ((Pointer) v != DatumGetPointer(value))
					*tofree = v;
				*data = VARDATA_ANY(v);
				*len = VARSIZE_ANY_EXHDR(v);
				if (et->kind == BLOOM_ELEM_BPCHAR)
					*len = bpchartruelen(VARDATA_ANY(v), (int) *len);
				if (recode && et->base_typid != BYTEAOID)
					bloom_text_to_utf8(data, len, tofree);
				return true;
			}
		case BLOOM_ELEM_NAME:
			*data = NameStr(*DatumGetName(value));
			*len = strnlen(*data, NAMEDATALEN);
			if (recode)
				bloom_text_to_utf8(data, len, tofree);
			return true;
		case BLOOM_ELEM_CSTRING:
			*data = DatumGetCString(value);
			*len = strlen(*data);
			if (recode)
				bloom_text_to_utf8(data, len, tofree);
			return true;
		case BLOOM_ELEM_UUID:
			*data = (const char *) DatumGetUUIDP(value)->data;
			*len = UUID_LEN;
			return true;
		default:
			return false;
	}
}

static bool
bloom_append_common(StringInfo buf, BloomElemType *et, Datum value, bool recode)
{
	uint64		scratch;
	const char *data;
	size_t		len;
	void	   *tofree;

	if (!bloom_common_bytes(et, value, &scratch, &data, &len, &tofree, recode))
		return false;
	appendBinaryStringInfo(buf, data, (int) len);
	if (tofree)
		pfree(tofree);
	return true;
}

static void
bloom_canon_v2(StringInfo buf, BloomElemType *et, Datum value, bool recode)
{
	int64		i;

	check_stack_depth();		/* arrays of records of arrays ... */
	bloom_check_collation(et);
	if (et->refuse_untyped && et->kind == BLOOM_ELEM_CSTRING)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot look up a row with an untyped column in a filter that does not record its rows' column types"),
				 errdetail("The filter holds rows of type record, made by bloomfilter 1.3 or of more than %d columns or columns of other types, so an untyped literal cannot be read as its column's type.",
						   BLOOM_ROW_MAX_COLUMNS),
				 errhint("Cast each column to the type of the filter's rows: ROW(5, '2024-01-06'::date).")));
	if (bloom_append_common(buf, et, value, recode))
		return;
	switch (et->kind)
	{
		case BLOOM_ELEM_NUMERIC:
			bloom_append_numeric(buf, value);
			break;
		case BLOOM_ELEM_FLOAT4:
		case BLOOM_ELEM_FLOAT8:
			{
				double		d = et->kind == BLOOM_ELEM_FLOAT4 ?
					(double) DatumGetFloat4(value) : DatumGetFloat8(value);

				if (bloom_double_as_int64(d, &i))
					bloom_append_le(buf, (uint64) i, 8);
				else
					bloom_append_double(buf, d);
			}
			break;
		case BLOOM_ELEM_ENUM:
			/* a label can be renamed: only filters made by 1.2 hash one */
			if (et->refuse_enum)
				bloom_key_refuse(et);
			bloom_append_enum_label(buf, value);
			break;
		case BLOOM_ELEM_INTERVAL:
			bloom_append_interval(buf, value);
			break;
		case BLOOM_ELEM_INET:
			{
				int			start = buf->len;

				/* family, bits, is_cidr, nb, address: a cidr cast to inet keeps is_cidr */
				bloom_append_send(buf, et, value);
				if (buf->len > start + 2)
					buf->data[start + 2] = 0;
			}
			break;
		case BLOOM_ELEM_ARRAY:
			bloom_append_array(buf, et, value, recode);
			break;
		case BLOOM_ELEM_RECORD:
			bloom_append_record(buf, et, value, recode);
			break;
		default:
			if (!et->send_is_canonical)
				bloom_refuse(et);
			bloom_append_send(buf, et, value);
			break;
	}
}

/*
 * Hash id 4 (RedisBloom, layout 6): the bytes a Redis client sends for the
 * value, hashed as RedisBloom hashes them.  An integer is its decimal
 * text ("-42"), as redis-py and redis-cli send one; text is its UTF-8
 * bytes (char(n) without its trailing blanks, as keys of char(n) are
 * everywhere here), so it needs a UTF-8 database; bytea is its bytes.
 * Nothing else has a form every client sends alike, so nothing else is
 * taken.
 */
static BloomHash
bloom_redis_elem_hash(BloomElemType *et, Datum value)
{
	char		digits[MAXINT8LEN + 1];
	uint64		scratch;
	const char *data;
	size_t		len;
	void	   *tofree;
	BloomHash	h;

	switch (et->kind)
	{
		case BLOOM_ELEM_INT2:
		case BLOOM_ELEM_INT4:
		case BLOOM_ELEM_INT8:
			len = pg_lltoa(et->kind == BLOOM_ELEM_INT8 ? DatumGetInt64(value) :
						   et->kind == BLOOM_ELEM_INT4 ? DatumGetInt32(value) :
						   DatumGetInt16(value), digits);
			return bloom_redis_hash(digits, len);
		case BLOOM_ELEM_TEXT:
		case BLOOM_ELEM_BPCHAR:
			if (getBaseType(et->typid) != BYTEAOID)
			{
				if (et->nondeterministic)
					bloom_check_collation(et);
				if (GetDatabaseEncoding() != PG_UTF8)
					ereport(ERROR,
							(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
							 errmsg("RedisBloom filters hold text keys only in a UTF-8 database"),
							 errdetail("A Redis client sends text as UTF-8, and this database encodes text as %s.",
									   GetDatabaseEncodingName()),
							 errhint("Add the text as bytea, convert_to(t, 'UTF8'), to a filter of bytea keys.")));
			}
			(void) bloom_common_bytes(et, value, &scratch, &data, &len, &tofree, false);
			h = bloom_redis_hash(data, len);
			if (tofree)
				pfree(tofree);
			return h;
		default:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("RedisBloom filters cannot hold keys of type %s",
							format_type_be(et->typid)),
					 errdetail("A RedisBloom filter hashes the bytes a Redis client sends, which only integers, text and bytea have in one agreed form."),
					 errhint("Use keys of type bigint, integer, smallint, text or bytea, or cast the keys to text.")));
	}
	pg_unreachable();
}

/* everything but the integers bloom_elem_hash handles inline */
BloomHash
bloom_elem_hash_slow(BloomElemType *et, Datum value, uint32 seed, uint8 hash_id)
{
	StringInfoData buf;
	BloomHash	h;
	uint64		scratch;
	const char *data;
	size_t		len;
	void	   *tofree;

	if (hash_id == BLOOM_HASH_REDISBLOOM)
		return bloom_redis_elem_hash(et, value);
	if (hash_id != BLOOM_HASH_MURMUR3_SEND && et->nondeterministic)
		bloom_check_collation(et);
	if (et->kind == BLOOM_ELEM_UUID)
		return bloom_hash_16(DatumGetUUIDP(value)->data, seed);
	/* the common kinds hash straight from the value */
	if (bloom_common_bytes(et, value, &scratch, &data, &len, &tofree,
						   bloom_recodes_text(hash_id)))
	{
		h = bloom_hash(data, len, seed);
		if (tofree)
			pfree(tofree);
		return h;
	}
	initStringInfo(&buf);
	if (hash_id == BLOOM_HASH_MURMUR3_SEND)
		bloom_canon_v1(&buf, et, value);
	else
		bloom_canon_v2(&buf, et, value, bloom_recodes_text(hash_id));
	h = bloom_hash(buf.data, buf.len, seed);
	pfree(buf.data);
	return h;
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

/*
 * The backend's memo of element types.  A call site's cache in fn_extra
 * lives as long as its expression state, which for a prepared statement is
 * one execution: without the memo each execution of a point check would
 * look up the element's type (base type, length, element type, row type,
 * send function, collation) and plan its key conversion again, about as
 * many instructions as the rest of the check.  The memo keeps, per (type,
 * collation), the element type bloom_elem_init made and the last plan a
 * check made of it; a call site gets a copy of its own in fn_extra, so
 * nothing a call site holds points into the memo, and forgetting an entry
 * (below) never leaves a query with freed memory.
 *
 * What an entry was made from, and so what forgets it: pg_type (the type,
 * its base type if a domain, its element type, whether it is an enum or a
 * row type, its length, its send and input functions: ALTER TYPE, ALTER
 * DOMAIN, DROP and CREATE of any type, an extension's types), pg_proc (the
 * send function and the key type's input function, which fmgr resolved:
 * CREATE OR REPLACE FUNCTION) and pg_collation (whether the collation is
 * deterministic).  Any invalidation of those catalogs forgets every entry:
 * they change rarely, and an entry costs one lookup to make again.  The
 * typmod does not enter: no plan reads it (a row's is read per value).
 * Session settings that a conversion reads (DateStyle, TimeZone, ...) are
 * read when the text is, not kept.  Rows (their column cache is per value)
 * and plans for rows are not kept.
 */
#define BLOOM_ELEM_MEMO_SIZE	8

static bool bloom_is_textlike(Oid t);

typedef struct BloomElemMemo
{
	uint32		gen;			/* valid while it is bloom_elem_memo_gen */
	Oid			typid;
	Oid			collation;
	MemoryContext cxt;			/* et's nested types and functions */
	BloomElemType et;
} BloomElemMemo;

static BloomElemMemo bloom_elem_memo[BLOOM_ELEM_MEMO_SIZE];
static int	bloom_elem_memo_victim;
static uint32 bloom_elem_memo_gen = 1;
static bool bloom_elem_memo_callbacks;

/* pg_type, pg_proc or pg_collation changed: forget every entry */
static void
bloom_elem_memo_forget(Datum arg, int cacheid, uint32 hashvalue)
{
	(void) arg;
	(void) cacheid;
	(void) hashvalue;
	bloom_elem_memo_gen++;
	/* 0 marks a type that did not come from the memo */
	if (bloom_elem_memo_gen == 0)
		bloom_elem_memo_gen = 1;
	for (int i = 0; i < BLOOM_ELEM_MEMO_SIZE; i++)
		bloom_elem_memo[i].gen = 0;
}

/* whether et and its nested types can be copied (rows hold a per-value cache) */
static bool
bloom_elem_copyable(const BloomElemType *et)
{
	if (et == NULL)
		return true;
	if (et->kind == BLOOM_ELEM_RECORD || et->conv == BLOOM_CONV_ROW ||
		et->rec_cols != NULL)
		return false;
	return bloom_elem_copyable(et->elem) && bloom_elem_copyable(et->conv_out);
}

/* src with its nested types and functions copied into mcxt */
static void
bloom_elem_copy(BloomElemType *dst, BloomElemType *src, MemoryContext mcxt)
{
	memcpy(dst, src, sizeof(BloomElemType));
	dst->mcxt = mcxt;
	if (OidIsValid(src->send.fn_oid))
		fmgr_info_copy(&dst->send, &src->send, mcxt);
	if (OidIsValid(src->conv_input.fn_oid))
		fmgr_info_copy(&dst->conv_input, &src->conv_input, mcxt);
	if (src->elem != NULL)
	{
		dst->elem = MemoryContextAlloc(mcxt, sizeof(BloomElemType));
		bloom_elem_copy(dst->elem, src->elem, mcxt);
	}
	if (src->conv_out != NULL)
	{
		dst->conv_out = MemoryContextAlloc(mcxt, sizeof(BloomElemType));
		bloom_elem_copy(dst->conv_out, src->conv_out, mcxt);
	}
}

static BloomElemMemo *
bloom_elem_memo_find(Oid typid, Oid collation)
{
	for (int i = 0; i < BLOOM_ELEM_MEMO_SIZE; i++)
	{
		BloomElemMemo *m = &bloom_elem_memo[i];

		if (m->gen == bloom_elem_memo_gen && m->typid == typid &&
			m->collation == collation)
			return m;
	}
	return NULL;
}

/* keep a copy of et (made now) in the memo, in place of an older entry */
static void
bloom_elem_memo_keep(BloomElemType *et)
{
	BloomElemMemo *m;

	if (!bloom_elem_copyable(et))
		return;
	if (!bloom_elem_memo_callbacks)
	{
		CacheRegisterSyscacheCallback(TYPEOID, bloom_elem_memo_forget, (Datum) 0);
		CacheRegisterSyscacheCallback(PROCOID, bloom_elem_memo_forget, (Datum) 0);
		CacheRegisterSyscacheCallback(COLLOID, bloom_elem_memo_forget, (Datum) 0);
		bloom_elem_memo_callbacks = true;
	}
	m = bloom_elem_memo_find(et->typid, et->collation);
	if (m == NULL)
	{
		m = &bloom_elem_memo[bloom_elem_memo_victim];
		bloom_elem_memo_victim = (bloom_elem_memo_victim + 1) % BLOOM_ELEM_MEMO_SIZE;
	}
	/* not valid until complete: an error below leaves no half-made entry */
	m->gen = 0;
	if (m->cxt == NULL)
		m->cxt = AllocSetContextCreate(TopMemoryContext, "bloomfilter element types",
									   ALLOCSET_SMALL_SIZES);
	else
		MemoryContextReset(m->cxt);
	bloom_elem_copy(&m->et, et, m->cxt);
	m->typid = et->typid;
	m->collation = et->collation;
	m->gen = bloom_elem_memo_gen;
}

/*
 * et (of a call site) has a new plan: keep it in the memo if et came from
 * the memo of this generation, so the call site's next execution starts
 * with it.  Only a check's plans are kept, and none for rows: an add's
 * plan differs only in refusing fewer untyped rows (refuse_untyped), and
 * bloom_key_hash_add takes a check's plan as its own for every other key.
 */
static void
bloom_elem_memo_replan(BloomElemType *et)
{
	if (et->memo_gen != bloom_elem_memo_gen || et->plan_add ||
		et->plan_key == RECORDOID || (et->plan_key & BLOOM_KEY_ROW_FLAG))
		return;
	bloom_elem_memo_keep(et);
}

/*
 * et as bloom_elem_init makes it, from the memo when it has the type, with
 * the plan last kept for it.
 */
static void
bloom_elem_init_memo(BloomElemType *et, Oid typid, Oid collation, MemoryContext mcxt)
{
	BloomElemMemo *m = bloom_elem_memo_find(typid, collation);

	if (m != NULL)
		bloom_elem_copy(et, &m->et, mcxt);
	else
	{
		bloom_elem_init(et, typid, collation, mcxt);
		bloom_elem_memo_keep(et);
	}
	et->memo_gen = bloom_elem_memo_gen;
}

/* the slow path of bloom_fn_cache: the first call at a call site */
void *
bloom_fn_cache_init(FunctionCallInfo fcinfo, int argno, bool array_element, Size size)
{
	BloomElemType *et;
	Oid			typid = get_fn_expr_argtype(fcinfo->flinfo, argno);

	if (!OidIsValid(typid))
		typid = bloom_declared_argtype(fcinfo, argno);
	if (!OidIsValid(typid))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("could not determine the element type of a bloom filter argument")));
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
	bloom_elem_init_memo(et, typid, PG_GET_COLLATION(), fcinfo->flinfo->fn_mcxt);
	/* refused before fn_extra keeps it, or the next call would not be */
	if (!array_element && bloom_is_textlike(et->base_typid))
		bloom_check_implicit_text(fcinfo, argno, typid);
	fcinfo->flinfo->fn_extra = et;
	return et;
}

/*
 * The hash of a key of ncols columns, exactly as a record of those columns
 * hashes under hash id 2 (bloom_append_record): the bloomfilter index
 * access method's multi-column keys, so that a snapshot of such an index
 * answers bf_contains(snapshot, ROW(a, b)).
 */
BloomHash
bloom_elem_hash_row(BloomElemType *cols, int ncols, const Datum *values,
					const bool *nulls, BloomHashParams hp)
{
	StringInfoData buf;
	BloomHash	h;

	bool		recode = bloom_recodes_text(hp.hash_id);

	Assert(BLOOM_HASH_IS_EQ(hp.hash_id));
	initStringInfo(&buf);
	bloom_append_le(&buf, (uint32) ncols, 4);
	for (int i = 0; i < ncols; i++)
		bloom_append_nested(&buf, &cols[i], values[i], nulls[i], recode);
	h = bloom_hash(buf.data, buf.len, hp.seed);
	pfree(buf.data);
	return h;
}

/*
 * The hash of a row as a key of a filter whose rows' columns have key types
 * keys (a row signature, or an index's columns): each column converted to
 * its key type as a key of a typed filter is (type/keys.c), then
 * hashed as a record of those columns is.  False when some column equals no
 * key of its type; a row of another number of columns is refused.
 */
bool
bloom_elem_hash_row_keyed(BloomElemType *et, Datum row, BloomHashParams hp,
						  const uint32 *keys, int nkeys, bool add, BloomHash *h)
{
	TupleDesc	desc;
	Datum	   *values;
	bool	   *nulls;
	int			ncols = bloom_record_open(et, row, &desc, &values, &nulls);
	StringInfoData buf;
	bool		found = true;
	bool		recode = bloom_recodes_text(hp.hash_id);
	int			k = 0;

	if (ncols != nkeys)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("a row of %d columns cannot be a key among rows of %d columns",
						ncols, nkeys)));
	initStringInfo(&buf);
	bloom_append_le(&buf, (uint32) ncols, 4);
	for (int i = 0; i < desc->natts && found; i++)
	{
		Datum		v;
		BloomElemType *vet;

		if (TupleDescAttr(desc, i)->attisdropped)
			continue;
		if (nulls[i])
			bloom_append_nested(&buf, NULL, (Datum) 0, true, false);
		else if (bloom_key_column(&et->rec_cols[i], values[i], keys[k], hp.hash_id,
								  add, &v, &vet))
			bloom_append_nested(&buf, vet, v, false, recode);
		else
			found = false;
		k++;
	}
	bloom_record_close(desc, values, nulls);
	if (found)
		*h = bloom_hash(buf.data, buf.len, hp.seed);
	pfree(buf.data);
	return found;
}


/*
 * ---- Typed filters ----
 *
 * The key type a filter records, and how a value of another type is
 * looked up in, added to, removed from or sharded by it.
 *
 * Which overload the parser picks must not change an answer.  An untyped
 * literal or parameter resolves to the text overloads, a citext value
 * reaches them through an implicit binary cast, and values SQL calls equal
 * across types (a date and a timestamp at its midnight, an oid and an int4
 * of the same bits) do not share canonical bytes.  So a filter records the
 * type of its keys (header bytes 12..15 of a bloomfilter, 40..43 of a
 * cuckoofilter): a built-in type OID, stable across dump, restore and
 * pg_upgrade.  The key type of a value of type T is T's, with domains
 * replaced by their base type, arrays by the array of their element's key
 * type, and every composite or record by record.  Enums are refused: a
 * label can be renamed, and a filter hashing labels would then miss
 * members while its functions claim to be immutable.
 *
 * A filter of key type 0 that holds nothing takes the key type of the
 * first element added.  One of key type 0 that holds something was made by
 * 1.2 or earlier and is hashed exactly as then; bf_set_key_type gives it a
 * key type when the user knows what its keys were.
 *
 * A value of type S checked against a filter of key type K is converted as
 * SQL compares S with K.  Types whose canonical bytes already agree for
 * equal values (the integers; text, varchar, bpchar and name; and under
 * hash id 2 numeric with the integers, float4 with float8, inet with cidr)
 * are hashed as they are.  Text (and so every untyped literal or
 * parameter) is read by K's input function.  Numerics, floats, dates,
 * timestamps and oids are converted to the one value of K they can equal,
 * or found absent when none does.  Where equality depends on the session
 * (timestamptz against date or timestamp, time against timetz) or maps many
 * values of K to one of S (numeric against float), and for every pair SQL
 * cannot compare, the call raises 42804 instead of answering "absent".
 *
 * The plan for a pair (S, K) is made on the first call at a call site and
 * kept with the element type in fn_extra; S = K costs one comparison.
 */

static uint32 bloom_key_row_of(BloomElemType *et, Datum value);

/* floats whose integers are all exact: |f| < 2^53 */
#define BLOOM_FLOAT_EXACT	9007199254740992.0
/* beyond 2^63 no int8 converts to the float */
#define BLOOM_FLOAT_INT8	9223372036854775808.0

static bool
bloom_is_int(Oid t)
{
	return t == INT2OID || t == INT4OID || t == INT8OID;
}

static bool
bloom_is_float(Oid t)
{
	return t == FLOAT4OID || t == FLOAT8OID;
}

/* types whose canonical bytes are their characters, compared as such */
static bool
bloom_is_textlike(Oid t)
{
	return t == TEXTOID || t == VARCHAROID || t == BPCHAROID || t == NAMEOID;
}

/* the key type a filter records for values of type typid */
Oid
bloom_key_type_of(Oid typid)
{
	Oid			base = getBaseType(typid);
	Oid			elem;

	if (base == UNKNOWNOID || base == CSTRINGOID)
		return TEXTOID;			/* a literal inside ROW() is text */
	elem = get_element_type(base);
	if (OidIsValid(elem))
	{
		Oid			arr = get_array_type(bloom_key_type_of(elem));

		return OidIsValid(arr) ? arr : base;
	}
	if (type_is_rowtype(base))
		return RECORDOID;
	return base;
}

/* a key type no filter may record: an enum, or a type it cannot hash */
void
bloom_key_refuse(BloomElemType *et)
{
	BloomElemType *inner = et->kind == BLOOM_ELEM_ARRAY ? et->elem : et;

	if (inner->kind == BLOOM_ELEM_ENUM)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("filters cannot hold keys of the enum type %s",
						format_type_be(inner->typid)),
				 errdetail("A filter would hash an enum value by its label, and a label can be renamed (ALTER TYPE ... RENAME VALUE), after which members would test absent."),
				 errhint("Add the label explicitly (e::text) and look keys up as text.")));
	bloom_refuse(et);
}

/*
 * The key type given as a regtype argument (bf_create, bf_set_key_type,
 * bf_shard): that of the type, which must be one filters can hash.
 */
Oid
bloom_key_type_arg(Oid typid)
{
	BloomElemType et;

	bloom_elem_init(&et, typid, InvalidOid, CurrentMemoryContext);
	if (et.key_typid >= BLOOM_KEY_TYPE_LIMIT)
		bloom_key_refuse(&et);
	for (BloomElemType *e = &et; e != NULL; e = e->elem)
		if (e->kind == BLOOM_ELEM_SEND && !e->send_is_canonical)
			bloom_refuse(e);
	/* what input accepts is what these rules give: never record another */
	if (!bloom_key_type_valid(et.key_typid))
		bloom_refuse(&et);
	/* a composite type names its columns' types */
	if (et.kind == BLOOM_ELEM_RECORD)
		return bloom_key_row_of(&et, (Datum) 0);
	return et.key_typid;
}

/*
 * The key type of rows of this row type: the signature of its columns' key
 * types, or record if they do not fit one.
 */
uint32
bloom_key_row_signature(TupleDesc desc)
{
	uint32		types[BLOOM_ROW_MAX_COLUMNS];
	uint32		key;
	int			n = 0;

	for (int i = 0; i < desc->natts; i++)
	{
		if (TupleDescAttr(desc, i)->attisdropped)
			continue;
		if (n == BLOOM_ROW_MAX_COLUMNS)
			return RECORDOID;
		types[n++] = bloom_key_type_of(TupleDescAttr(desc, i)->atttypid);
	}
	key = bloom_row_key_encode(types, n);
	return key != 0 ? key : RECORDOID;
}

/* the key type of rows like value (of record type et) */
static uint32
bloom_key_row_of(BloomElemType *et, Datum value)
{
	HeapTupleHeader td;
	TupleDesc	desc;
	uint32		key;

	if (et->typid != RECORDOID)
		desc = lookup_rowtype_tupdesc(getBaseType(et->typid), -1);
	else if (value != (Datum) 0)
	{
		td = DatumGetHeapTupleHeader(value);
		desc = lookup_rowtype_tupdesc(HeapTupleHeaderGetTypeId(td),
									  HeapTupleHeaderGetTypMod(td));
	}
	else
		return RECORDOID;
	key = bloom_key_row_signature(desc);
	ReleaseTupleDesc(desc);
	return key;
}

/*
 * Record et's key type in a filter that is untyped and empty, or the
 * columns' types of value in one whose keys are rows of unknown columns.
 */
void
bloom_key_adopt(BloomElemType *et, uint32 *key_type, Datum value)
{
	if (*key_type == RECORDOID && et->kind != BLOOM_ELEM_RECORD)
		return;					/* the plan refuses the value */
	if (et->key_typid >= BLOOM_KEY_TYPE_LIMIT)
		bloom_key_refuse(et);

	/*
	 * A type of the server's own (below 10000) that a typed filter could not
	 * hash is left unrecorded: a filter of hash id 1 hashes it by its send
	 * output, as 1.2 did, and the same untyped.  Recording it would make a
	 * value that input refuses, and so a dump that cannot be restored.
	 */
	if (!bloom_key_type_valid(et->key_typid))
		return;
	*key_type = et->key_typid == RECORDOID ? bloom_key_row_of(et, value) : et->key_typid;
}

/*
 * A key type for messages and bf_info: a type's name, a row signature as
 * record(integer, date), or the number of a type this server lacks.
 */
char *
bloom_key_type_name(uint32 key_type)
{
	uint32		types[BLOOM_ROW_MAX_COLUMNS];
	int			n = bloom_row_key_decode(key_type, types);
	StringInfoData buf;

	/*
	 * A stored value can name an OID that is no type (input refuses one
	 * since 1.4, but values stored before are read as they are), which
	 * format_type_be would report as "cache lookup failed": such a key type
	 * shows as its number, as regtype shows one.
	 */
	if (n < 0 && !SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum((Oid) key_type)))
		return psprintf("%u", key_type);
	if (n < 0)
		return format_type_be((Oid) key_type);
	initStringInfo(&buf);
	appendStringInfoString(&buf, "record(");
	for (int i = 0; i < n; i++)
		appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "", format_type_be(types[i]));
	appendStringInfoChar(&buf, ')');
	return buf.data;
}


pg_noreturn static void
bloom_key_mismatch(BloomElemType *et, uint32 key, bool add, const char *hint)
{
	if (hint == NULL)
		hint = psprintf("Cast the value to %s.", bloom_key_type_name(key));
	if (add)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot add a value of type %s to a filter of %s keys",
						format_type_be(et->typid), bloom_key_type_name(key)),
				 errhint("%s", hint)));
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("cannot look up a value of type %s in a filter of %s keys",
					format_type_be(et->typid), bloom_key_type_name(key)),
			 errhint("%s", hint)));
}

/*
 * Pairs hashed as they are: their canonical bytes agree for equal values.
 * Arrays agree when their elements do (SQL casts one array to the other's
 * type to compare them).
 */
bool
bloom_key_same_bytes(Oid s, Oid key, uint8 hash_id)
{
	Oid			s_elem = get_element_type(s);
	Oid			key_elem = get_element_type(key);

	if (key == s || (bloom_is_int(s) && bloom_is_int(key)))
		return true;

	/*
	 * Strings compare as text, but a char(n) against a char(n), a varchar or
	 * an untyped literal compares as char(n), ignoring trailing blanks: keys
	 * of char(n) lost theirs (BLOOM_CONV_RTRIM strips a probe's), and a
	 * char(n) probe of varchar keys is refused (bloom_key_conv_text).  An
	 * untyped literal compared with a name is read as a name, clipped to
	 * NAMEDATALEN - 1 bytes, as name keys were: so is a string probe.
	 */
	if (bloom_is_textlike(s) && bloom_is_textlike(key))
		return !(key == BPCHAROID && s != BPCHAROID) &&
			!(key == VARCHAROID && s == BPCHAROID) &&
			!(key == NAMEOID && s != NAMEOID);
	if (OidIsValid(s_elem) && OidIsValid(key_elem))
		return bloom_key_same_bytes(s_elem, key_elem, hash_id);
	/* hash id 1 hashes these by their binary output, which differs */
	if (hash_id == BLOOM_HASH_MURMUR3_SEND)
		return false;
	return (key == NUMERICOID && bloom_is_int(s)) ||
		(bloom_is_float(key) && bloom_is_float(s)) ||
		((key == INETOID || key == CIDROID) && (s == INETOID || s == CIDROID));
}

/* the conversion of a value of key type s to key type key (both hash id 2) */
static BloomConv
bloom_key_conv_for(BloomElemType *et, Oid s, Oid key, bool add)
{
	if (bloom_is_int(key) && s == NUMERICOID)
		return BLOOM_CONV_NUMERIC_INT;
	if (bloom_is_int(key) && bloom_is_float(s))
		return BLOOM_CONV_FLOAT_INT;
	if (bloom_is_int(key) && s == OIDOID)
		return key == INT8OID ? BLOOM_CONV_OID_INT8 : BLOOM_CONV_OID_INT4;
	if (bloom_is_float(key) && (bloom_is_int(s) || s == NUMERICOID))
		return BLOOM_CONV_TO_FLOAT8;
	if (key == DATEOID && s == TIMESTAMPOID)
		return BLOOM_CONV_TS_DATE;
	if (key == TIMESTAMPOID && s == DATEOID)
		return BLOOM_CONV_DATE_TS;
	if (key == OIDOID && (s == INT2OID || s == INT4OID))
		return BLOOM_CONV_INT_OID;
	if (key == OIDOID && s == INT8OID)
		return BLOOM_CONV_INT8_OID;
	if (key == NUMERICOID && bloom_is_float(s))
		bloom_key_mismatch(et, key, add,
						   "SQL compares numeric with float as float8, which many numerics share: cast the value to numeric.");
	if ((key == TIMESTAMPTZOID && (s == DATEOID || s == TIMESTAMPOID)) ||
		(s == TIMESTAMPTZOID && (key == DATEOID || key == TIMESTAMPOID)) ||
		(key == TIMEOID && s == TIMETZOID) || (key == TIMETZOID && s == TIMEOID))
		bloom_key_mismatch(et, key, add,
						   psprintf("Comparing %s with %s depends on the session's TimeZone, while filter functions are immutable: convert explicitly, for example with AT TIME ZONE 'UTC', then cast to %s.",
									format_type_be(s), format_type_be(key),
									format_type_be(key)));
	bloom_key_mismatch(et, key, add, NULL);
}

/* the type a conversion yields, hashed in place of the value */
static Oid
bloom_key_conv_out(BloomConv conv, Oid key)
{
	switch (conv)
	{
		case BLOOM_CONV_NUMERIC_INT:
		case BLOOM_CONV_FLOAT_INT:
		case BLOOM_CONV_OID_INT8:
			return INT8OID;
		case BLOOM_CONV_TO_FLOAT8:
			return FLOAT8OID;
		case BLOOM_CONV_TS_DATE:
			return DATEOID;
		case BLOOM_CONV_DATE_TS:
			return TIMESTAMPOID;
		case BLOOM_CONV_INT_OID:
		case BLOOM_CONV_INT8_OID:
			return OIDOID;
		case BLOOM_CONV_OID_INT4:
			return INT4OID;
		default:
			return key;
	}
}

/*
 * Which session settings the input function of key type key reads text
 * under.  Filter functions are immutable, so text is read into such a type
 * only when every setting gives the same value (bloom_key_read); money's
 * input follows lc_monetary, which cannot be varied cheaply, and is refused.
 */
#define BLOOM_READS_DATEORDER	0x01
#define BLOOM_READS_TIMEZONE	0x02
#define BLOOM_READS_INTERVAL	0x04
#define BLOOM_READS_CLOCK		0x08	/* 'now', 'today', ... */
#define BLOOM_READS_LOCALE		0x10

static uint8
bloom_key_reads(Oid key)
{
	Oid			elem = get_element_type(key);

	if (OidIsValid(elem))
		return bloom_key_reads(elem);
	switch (key)
	{
		case DATEOID:
		case TIMESTAMPOID:
			return BLOOM_READS_DATEORDER | BLOOM_READS_CLOCK;
		case TIMESTAMPTZOID:
		case TIMETZOID:
			return BLOOM_READS_DATEORDER | BLOOM_READS_TIMEZONE | BLOOM_READS_CLOCK;
		case TIMEOID:
			return BLOOM_READS_CLOCK;
		case INTERVALOID:
			return BLOOM_READS_INTERVAL;
		case MONEYOID:
			return BLOOM_READS_LOCALE;
		default:
			return 0;
	}
}

/* text against a filter of key type key: how it becomes a key */
static BloomConv
bloom_key_conv_text(BloomElemType *et, Oid s, uint32 key, bool add)
{
	if (key == RECORDOID || (key & BLOOM_KEY_ROW_FLAG))
		bloom_key_mismatch(et, key, add,
						   "Anonymous records have no text input: pass a ROW() of the columns' types.");
	if (key == BPCHAROID)
		return BLOOM_CONV_RTRIM;
	if (key == NAMEOID && s != NAMEOID)
		return BLOOM_CONV_INPUT;	/* name's input clips to NAMEDATALEN - 1 */
	if (key == VARCHAROID && s == BPCHAROID)
		bloom_key_mismatch(et, key, add,
						   "SQL compares character varying with character as character, ignoring trailing blanks, so one value equals keys with any number of them: cast the value to character varying or text to compare exactly.");
	if (bloom_is_textlike(key))
		return BLOOM_CONV_NONE;
	if (bloom_key_reads(key) & BLOOM_READS_LOCALE)
		bloom_key_mismatch(et, key, add,
						   psprintf("Text is read as %s under the session's lc_monetary, while filter functions are immutable: cast the value to %s.",
									format_type_be(key), format_type_be(key)));
	return BLOOM_CONV_INPUT;
}

/* the plan for filters of this key type and hash id */
static void
bloom_key_plan(BloomElemType *et, uint32 key, uint8 hash_id, bool add)
{
	Oid			s = et->key_typid;
	BloomConv	conv = BLOOM_CONV_NONE;
	bool		row = (key & BLOOM_KEY_ROW_FLAG) != 0;

	if (key != 0 && !bloom_key_same_bytes(s, key, hash_id))
	{
		if (!row && !SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum(key)))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("filter key type %u is not a type of this server", key),
					 errhint("Give the filter its key type with bf_set_key_type or cf_set_key_type.")));
		if (bloom_is_textlike(s))
			conv = bloom_key_conv_text(et, s, key, add);
		else if (hash_id == BLOOM_HASH_MURMUR3_SEND)
			bloom_key_mismatch(et, key, add,
							   psprintf("Filters made by bloomfilter 1.1 or earlier (hash id 1) convert only text and integers: cast the value to %s.",
										bloom_key_type_name(key)));
		else if (et->kind == BLOOM_ELEM_ENUM ||
				 (et->kind == BLOOM_ELEM_SEND && !et->send_is_canonical))
			bloom_key_refuse(et);	/* citext, jsonb, ...: no equal form */
		else if (row && et->kind == BLOOM_ELEM_RECORD)
		{
			conv = BLOOM_CONV_ROW;
			et->row_nkeys = bloom_row_key_decode(key, et->row_keys);
		}
		else
			conv = bloom_key_conv_for(et, s, key, add);
	}
	if (conv != BLOOM_CONV_NONE && conv != BLOOM_CONV_ROW)
	{
		et->conv_out = MemoryContextAlloc(et->mcxt, sizeof(BloomElemType));
		bloom_elem_init(et->conv_out,
						conv == BLOOM_CONV_RTRIM ? BPCHAROID : bloom_key_conv_out(conv, key),
						et->collation, et->mcxt);
	}
	if (conv == BLOOM_CONV_INPUT)
	{
		Oid			input;

		getTypeInputInfo(key, &input, &et->conv_ioparam);
		fmgr_info_cxt(input, &et->conv_input, et->mcxt);
		et->conv_settings = bloom_key_reads(key);
	}
	et->conv = conv;
	/*
	 * Hash id 3: after the same conversions, bigint, bytea and (in a UTF8
	 * database) text keys become the bytes hash id 2 gives them, which are
	 * their funnels' (inline for integers); integer keys are 4 bytes, and
	 * text elsewhere must be checked, by the funnel path.
	 */
	if (hash_id == BLOOM_HASH_GUAVA &&
		(key == INT4OID || (key == TEXTOID && GetDatabaseEncoding() != PG_UTF8)))
	{
		et->guava_conv = conv;
		et->conv = BLOOM_CONV_GUAVA;
	}
	et->plan_add = add;
	et->refuse_enum = key != 0;
	/* rows of a filter that does not record their columns' types */
	et->refuse_untyped = key == RECORDOID && !add;
	et->plan_key = key;
	et->plan_hash_id = hash_id;
}

/*
 * Time zones other than the session's to read text under: UTC and one whose
 * offset is neither whole hours nor the same all year round.
 */
static pg_tz *
bloom_key_zone(int i)
{
	static pg_tz *zones[2];

	if (zones[i] == NULL)
		zones[i] = pg_tzset(i == 0 ? "UTC" : "America/St_Johns");
	return zones[i];
}

/* str read by et's key type under one choice of the settings it reads */
static bool
bloom_key_read_under(BloomElemType *et, char *str, int dateorder, pg_tz *zone,
					 int intervalstyle, Datum *out)
{
	int			save_dateorder = DateOrder;
	pg_tz	   *save_zone = session_timezone;
	int			save_intervalstyle = IntervalStyle;
	bool		ok = false;
	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		DateOrder = dateorder;
		session_timezone = zone;
		IntervalStyle = intervalstyle;
#if PG_VERSION_NUM >= 180000
		/* from 18 its cache of zone abbreviations holds session_timezone's */
		if (zone != save_zone)
			ClearTimeZoneAbbrevCache();
#endif
#if PG_VERSION_NUM >= 160000
		{
			ErrorSaveContext escontext = {T_ErrorSaveContext};

			ok = InputFunctionCallSafe(&et->conv_input, str, et->conv_ioparam, -1,
									   (Node *) &escontext, out);
		}
#else
		/*
		 * Before 16, input functions have no soft errors.  The date and time
		 * inputs raise theirs from plain parsing, holding no lock, buffer or
		 * other resource, so the error can be caught and dropped here.
		 */
		PG_TRY();
		{
			*out = InputFunctionCall(&et->conv_input, str, et->conv_ioparam, -1);
			ok = true;
		}
		PG_CATCH();
		{
			MemoryContextSwitchTo(cxt);
			FlushErrorState();
		}
		PG_END_TRY();
#endif
	}
	PG_FINALLY();
	{
		DateOrder = save_dateorder;
		session_timezone = save_zone;
		IntervalStyle = save_intervalstyle;
#if PG_VERSION_NUM >= 180000
		if (zone != save_zone)
			ClearTimeZoneAbbrevCache();
#endif
	}
	PG_END_TRY();
	(void) cxt;
	return ok;
}

pg_noreturn static void
bloom_key_unsettled(BloomElemType *et, const char *str, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("the text \"%s\" does not name one value of type %s in every session",
					str, format_type_be(et->conv_out->typid)),
			 errdetail("%s", detail),
			 errhint("Write dates and timestamps in ISO 8601 form (2024-01-31, 2024-01-31 12:00:00+00), with an explicit offset for a timestamp with time zone, or cast the value to %s yourself.",
					 format_type_be(et->conv_out->typid))));
}

/* whether str holds a word whose value moves with the clock */
static bool
bloom_key_has_clock_word(const char *str)
{
	static const char *const words[] = {"now", "today", "tomorrow", "yesterday"};
	char	   *lower = asc_tolower(str, strlen(str));
	bool		found = false;

	for (int i = 0; i < lengthof(words) && !found; i++)
		found = strstr(lower, words[i]) != NULL;
	pfree(lower);
	return found;
}

/*
 * Zone abbreviations.  A word of date/time text such as IST or EST is looked
 * up in the session's set of abbreviations (timezone_abbreviations; from
 * PostgreSQL 18 the session's TimeZone first), so its meaning is a setting:
 * IST is +02 in the Default set and +05:30 in India's, EST -05 in Default
 * and +10 in Australia's, and Australia's SAT makes "Sat" a zone rather
 * than a weekday.  A word is let through only if the session and every set
 * PostgreSQL ships (share/timezonesets: Default, Australia, India) read it
 * alike: as no abbreviation (month and day names, "T", ...), or as the same
 * fixed offset (Z, UTC, PST).  Sets an administrator adds are not
 * consulted.  The shipped sets are loaded once per backend.
 */
#define BLOOM_ABBREV_SETS	3

static TimeZoneAbbrevTable *bloom_abbrev_sets[BLOOM_ABBREV_SETS];
static bool bloom_abbrev_sets_loaded = false;

/*
 * A word's reading: its type (UNKNOWN_FIELD: no abbreviation), and its
 * offset, or for a dynamic abbreviation (DYNTZ, whose offset follows a
 * zone's rules at the date read) the zone's name.
 */
typedef struct BloomAbbrev
{
	int			type;
	int			offset;
	const char *zone;
} BloomAbbrev;

static BloomAbbrev
bloom_abbrev_in_set(const TimeZoneAbbrevTable *set, const char *word)
{
	BloomAbbrev r = {UNKNOWN_FIELD, 0, NULL};
	int			lo = 0,
				hi = set->numabbrevs - 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int			cmp = strncmp(word, set->abbrevs[mid].token, TOKMAXLEN);

		if (cmp == 0)
		{
			r.type = set->abbrevs[mid].type;
			r.offset = set->abbrevs[mid].value;
			if (r.type == DYNTZ)
				r.zone = ((const DynamicZoneAbbrev *) ((const char *) set + r.offset))->zone;
			break;
		}
		if (cmp < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return r;
}

static BloomAbbrev
bloom_abbrev_in_session(char *word)
{
	BloomAbbrev r = {UNKNOWN_FIELD, 0, NULL};
	pg_tz	   *tz = NULL;
#if PG_VERSION_NUM >= 160000
	DateTimeErrorExtra extra;

	/* an error: a dynamic abbreviation whose zone is not found (no name) */
	if (DecodeTimezoneAbbrev(0, word, &r.type, &r.offset, &tz, &extra) != 0)
		r.type = DYNTZ;
#else
	r.type = DecodeTimezoneAbbrev(0, word, &r.offset, &tz);
#endif
	if (r.type == DYNTZ && tz != NULL)
		r.zone = pg_get_timezone_name(tz);
	return r;
}

static bool
bloom_abbrev_same(BloomAbbrev a, BloomAbbrev b)
{
	if (a.type != b.type)
		return false;
	if (a.type == DYNTZ)
		return a.zone != NULL && b.zone != NULL && pg_strcasecmp(a.zone, b.zone) == 0;
	return a.type == UNKNOWN_FIELD || a.offset == b.offset;
}

/* the first word of str that names a zone differently by setting, or NULL */
static const char *
bloom_key_abbrev_word(const char *str)
{
	static const char *const names[BLOOM_ABBREV_SETS] = {"Default", "Australia", "India"};

	if (!bloom_abbrev_sets_loaded)
	{
		/* malloc'd by load_tzoffsets, kept for the backend's life */
		for (int i = 0; i < BLOOM_ABBREV_SETS; i++)
			bloom_abbrev_sets[i] = load_tzoffsets(names[i]);
		bloom_abbrev_sets_loaded = true;
	}
	for (const char *p = str; *p != '\0';)
	{
		char		word[TOKMAXLEN + 2];
		int			len = 0;
		BloomAbbrev session;
		bool		settled;

		if (!isalpha((unsigned char) *p))
		{
			p++;
			continue;
		}
		/* an array's text has no bound on its words */
		CHECK_FOR_INTERRUPTS();
		/* a run of letters, lower-cased as the date/time parser does */
		for (; isalpha((unsigned char) *p); p++)
			if (len <= TOKMAXLEN)
				word[len++] = pg_tolower((unsigned char) *p);
		word[len] = '\0';
		session = bloom_abbrev_in_session(word);
		/* false only for a dynamic abbreviation whose zone was not found */
		settled = bloom_abbrev_same(session, session);
		/* a set that did not load: only a word that is no abbreviation */
		for (int i = 0; i < BLOOM_ABBREV_SETS && settled; i++)
			settled = bloom_abbrev_sets[i] != NULL ?
				bloom_abbrev_same(session, bloom_abbrev_in_set(bloom_abbrev_sets[i], word)) :
				session.type == UNKNOWN_FIELD;
		if (!settled)
			return pstrdup(word);
	}
	return NULL;
}

/*
 * Date and time text that PostgreSQL's own input refuses for its length or
 * its number of fields, refused before the word scan and the readings
 * below, which take time in proportion to the text.  ParseDateTime is the
 * first step of each of these types' input, independent of any setting,
 * and its buffer here is the largest they give it (timestamp's), so what
 * it refuses here each of them refuses, with this error (the quote cut
 * short: the text can be as long as a text value).  Not interval: its
 * input reads ISO 8601 text that ParseDateTime refuses.
 */
#define BLOOM_KEY_QUOTE		40	/* bytes of the text quoted, as io.c quotes a literal */

static void
bloom_key_datetime_bound(Oid typid, const char *str)
{
	const char *name;
	char		workbuf[MAXDATELEN + MAXDATEFIELDS];
	char	   *field[MAXDATEFIELDS];
	int			ftype[MAXDATEFIELDS];
	int			nf;
	int			len;

	switch (typid)
	{
			/* the names the input functions give in their errors */
		case DATEOID:
			name = "date";
			break;
		case TIMEOID:
			name = "time";
			break;
		case TIMETZOID:
			name = "time with time zone";
			break;
		case TIMESTAMPOID:
			name = "timestamp";
			break;
		case TIMESTAMPTZOID:
			name = "timestamp with time zone";
			break;
		default:
			return;
	}
	if (ParseDateTime(str, workbuf, sizeof(workbuf), field, ftype, MAXDATEFIELDS, &nf) == 0)
		return;
	len = strlen(str);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_DATETIME_FORMAT),
			 errmsg("invalid input syntax for type %s: \"%.*s%s\"", name,
					pg_mbcliplen(str, len, BLOOM_KEY_QUOTE), str,
					len > BLOOM_KEY_QUOTE ? "..." : "")));
}

/*
 * Text read by the key type's input function.  Dates and times read
 * DateStyle's field order, TimeZone and IntervalStyle, while a filter's
 * answer must not depend on the session (its functions are immutable, and
 * a filter built in one session is probed in others).  So text is read
 * again under other choices of each setting the type reads; unless every
 * reading gives the session's value, the call is refused: '01/02/2024'
 * (January or February), '2024-01-01 00:00' as a timestamp with time zone
 * (midnight where?), 'today'.  A zone abbreviation is not read under
 * other settings but looked up (bloom_key_abbrev_word).
 */
static Datum
bloom_key_read(BloomElemType *et, char *str)
{
	uint8		reads = et->conv_settings;
	static const int orders[] = {DATEORDER_YMD, DATEORDER_DMY, DATEORDER_MDY};
	static const int styles[] = {INTSTYLE_POSTGRES, INTSTYLE_SQL_STANDARD};
	int			norders = (reads & BLOOM_READS_DATEORDER) ? lengthof(orders) : 1;
	int			nzones = (reads & BLOOM_READS_TIMEZONE) ? 2 : 1;
	int			nstyles = (reads & BLOOM_READS_INTERVAL) ? lengthof(styles) : 1;
	Datum		value;
	bool		session_reads;

	if (reads == 0)
		return InputFunctionCall(&et->conv_input, str, et->conv_ioparam, -1);
	bloom_key_datetime_bound(et->conv_out->typid, str);
	if ((reads & BLOOM_READS_CLOCK) && bloom_key_has_clock_word(str))
		bloom_key_unsettled(et, str, "It names a moment relative to the current time.");
	if (reads & BLOOM_READS_TIMEZONE)
	{
		const char *word = bloom_key_abbrev_word(str);

		if (word != NULL)
			bloom_key_unsettled(et, str,
								psprintf("The word \"%s\" is read as different time zones under the timezone_abbreviations settings Default, Australia and India, or as a zone under some and not others: write a numeric offset (+05:30) or a zone name (Asia/Kolkata) instead.",
										 word));
	}
	session_reads = bloom_key_read_under(et, str, DateOrder, session_timezone,
										 IntervalStyle, &value);
	for (int o = 0; o < norders; o++)
		for (int z = 0; z < nzones; z++)
			for (int i = 0; i < nstyles; i++)
			{
				Datum		other;
				bool		reads_here;

				CHECK_FOR_INTERRUPTS();
				reads_here = bloom_key_read_under(et, str,
												  (reads & BLOOM_READS_DATEORDER) ? orders[o] : DateOrder,
												  (reads & BLOOM_READS_TIMEZONE) ? bloom_key_zone(z) : session_timezone,
												  (reads & BLOOM_READS_INTERVAL) ? styles[i] : IntervalStyle,
												  &other);
				/* text no setting reads: the session's own error below */
				if (!session_reads && !reads_here)
					continue;
				if (!session_reads || !reads_here ||
					!datumIsEqual(value, other, et->conv_out->typbyval,
								  et->conv_out->typlen))
					bloom_key_unsettled(et, str,
										"Under other DateStyle, TimeZone or IntervalStyle settings it names another value, or none.");
			}
	if (!session_reads)
		return InputFunctionCall(&et->conv_input, str, et->conv_ioparam, -1);
	return value;
}

/* the characters of a text-like value, for an input function */
static char *
bloom_key_cstring(BloomElemType *et, Datum value)
{
	switch (et->kind)
	{
		case BLOOM_ELEM_NAME:
			return NameStr(*DatumGetName(value));
		case BLOOM_ELEM_CSTRING:
			return DatumGetCString(value);
		case BLOOM_ELEM_BPCHAR:
			{
				/* without its padding, as its cast to text drops it */
				text	   *t = DatumGetTextPP(value);

				return pnstrdup(VARDATA_ANY(t),
								bpchartruelen(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t)));
			}
		default:
			return text_to_cstring(DatumGetTextPP(value));
	}
}

static int64
bloom_key_int(BloomElemType *et, Datum value)
{
	switch (et->kind)
	{
		case BLOOM_ELEM_INT2:
			return DatumGetInt16(value);
		case BLOOM_ELEM_INT4:
			return DatumGetInt32(value);
		default:
			return DatumGetInt64(value);
	}
}

/*
 * A float against integer keys: SQL compares the two as float8, so a whole
 * float below 2^53 equals exactly one integer, a fraction, NaN or an
 * infinity none, and a whole float from 2^53 to 2^63 several (an error:
 * no one hash finds them all); beyond, none.
 */
static bool
bloom_key_float_int(BloomElemType *et, Datum value, Datum *out)
{
	double		d = et->kind == BLOOM_ELEM_FLOAT4 ?
		(double) DatumGetFloat4(value) : DatumGetFloat8(value);

	if (!isfinite(d) || d != trunc(d) || fabs(d) > BLOOM_FLOAT_INT8)
		return false;
	if (fabs(d) >= BLOOM_FLOAT_EXACT)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot look up the %s value %s among integer keys",
						format_type_be(et->typid), float8out_internal(d)),
				 errdetail("SQL compares integers with floats as float8, and from 2^53 on several integers equal the same float."),
				 errhint("Cast the value to the filter's integer type, or to numeric.")));
	*out = Int64GetDatum((int64) d);	/* -0.0 becomes 0 */
	return true;
}

/* the date of a timestamp at midnight; none for any other time */
static bool
bloom_key_ts_date(Datum value, Datum *out)
{
	Timestamp	ts = DatumGetTimestamp(value);

	if (TIMESTAMP_IS_NOBEGIN(ts) || TIMESTAMP_IS_NOEND(ts))
	{
		DateADT		d;

		if (TIMESTAMP_IS_NOBEGIN(ts))
			DATE_NOBEGIN(d);
		else
			DATE_NOEND(d);
		*out = DateADTGetDatum(d);
		return true;
	}
	/* both count from 2000-01-01 */
	if (ts % USECS_PER_DAY != 0)
		return false;
	*out = DateADTGetDatum((DateADT) (ts / USECS_PER_DAY));
	return true;
}

/* a date's midnight; none for a date beyond the timestamps */
static bool
bloom_key_date_ts(Datum value, Datum *out)
{
#if PG_VERSION_NUM >= 190000
	/* 19 reports the overflow as a soft error (date2timestamp_safe) */
	ErrorSaveContext escontext = {T_ErrorSaveContext};
	Timestamp	ts = date2timestamp_safe(DatumGetDateADT(value), (Node *) &escontext);

	if (escontext.error_occurred)
		return false;
#else
	int			overflow = 0;
	Timestamp	ts = date2timestamp_opt_overflow(DatumGetDateADT(value), &overflow);

	if (overflow != 0)
		return false;
#endif
	*out = TimestampGetDatum(ts);
	return true;
}

/* value as a key of the planned type; false when none equals it */
static bool
bloom_key_convert_as(BloomElemType *et, BloomConv conv, Datum value, Datum *out)
{
	int64		i;

	switch (conv)
	{
		case BLOOM_CONV_GUAVA:
			return bloom_key_convert_as(et, et->guava_conv, value, out);
		case BLOOM_CONV_NONE:
			*out = value;
			return true;
		case BLOOM_CONV_INPUT:
			*out = bloom_key_read(et, bloom_key_cstring(et, value));
			return true;
		case BLOOM_CONV_RTRIM:
			*out = et->kind == BLOOM_ELEM_TEXT ? value :
				CStringGetTextDatum(bloom_key_cstring(et, value));
			return true;
		case BLOOM_CONV_ROW:
			break;				/* bloom_key_hash_planned hashes rows */
		case BLOOM_CONV_NUMERIC_INT:
			if (!bloom_numeric_as_int64(value, &i))
				return false;
			*out = Int64GetDatum(i);
			return true;
		case BLOOM_CONV_FLOAT_INT:
			return bloom_key_float_int(et, value, out);
		case BLOOM_CONV_TO_FLOAT8:
			*out = et->kind == BLOOM_ELEM_NUMERIC ?
				DirectFunctionCall1(numeric_float8, value) :
				Float8GetDatum((double) bloom_key_int(et, value));
			return true;
		case BLOOM_CONV_TS_DATE:
			return bloom_key_ts_date(value, out);
		case BLOOM_CONV_DATE_TS:
			return bloom_key_date_ts(value, out);
		case BLOOM_CONV_INT_OID:
			*out = ObjectIdGetDatum((Oid) (uint32) bloom_key_int(et, value));
			return true;
		case BLOOM_CONV_INT8_OID:
			i = bloom_key_int(et, value);
			*out = ObjectIdGetDatum((Oid) i);
			return i >= 0 && i <= (int64) PG_UINT32_MAX;
		case BLOOM_CONV_OID_INT4:
			*out = Int32GetDatum((int32) DatumGetObjectId(value));
			return true;
		case BLOOM_CONV_OID_INT8:
			*out = Int64GetDatum((int64) DatumGetObjectId(value));
			return true;
	}
	return false;
}

static bool
bloom_key_convert(BloomElemType *et, Datum value, Datum *out)
{
	return bloom_key_convert_as(et, et->conv, value, out);
}

/*
 * The bytes of Guava's funnel for the key type (core/guava.c): integers
 * little-endian in the key type's width, text as UTF-8, bytea as it is
 * (what bloom_key_plan does not leave to hash id 2's bytes, which are the
 * same for bigint, bytea and UTF-8 text).
 * false when the value is out of an integer key type's range.  Text in a
 * database of another encoding would need converting: only ASCII is taken
 * there, which is the same in every server encoding.
 */
static bool
bloom_key_hash_guava(BloomElemType *et, Datum key, BloomHashParams hp, BloomHash *h)
{
	uint64		scratch;
	const char *data;
	size_t		len;
	void	   *tofree;

	if (hp.key_type == INT8OID || hp.key_type == INT4OID)
	{
		int64		v = bloom_key_int(et, key);
		uint8		b[sizeof(int32)];

		if (hp.key_type == INT8OID)
		{
			*h = bloom_hash_int64(v, hp.seed);
			return true;
		}
		if (v < PG_INT32_MIN || v > PG_INT32_MAX)
			return false;
		for (int i = 0; i < (int) sizeof(b); i++)
			b[i] = (uint8) ((uint64) v >> (8 * i));
		*h = bloom_hash(b, sizeof(b), hp.seed);
		return true;
	}
	bloom_check_collation(et);
	if (!bloom_common_bytes(et, key, &scratch, &data, &len, &tofree, false))
		elog(ERROR, "a key of a Guava filter of type %u has no funnel bytes", hp.key_type);
	if (hp.key_type == TEXTOID && GetDatabaseEncoding() != PG_UTF8)
		for (size_t i = 0; i < len; i++)
			if (IS_HIGHBIT_SET(data[i]))
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("text keys of a Guava filter must be ASCII in a database whose encoding is not UTF8"),
						 errdetail("Guava hashes the UTF-8 bytes of a string, and the database encoding is %s.",
								   GetDatabaseEncodingName()),
						 errhint("Use a UTF8 database, or hash the text's bytes as a bytea key (convert_to(value, 'UTF8')).")));
	*h = bloom_hash(data, len, hp.seed);
	if (tofree)
		pfree(tofree);
	return true;
}

static bool
bloom_key_hash_planned(BloomElemType *et, Datum value, BloomHashParams hp,
					   BloomHash *h)
{
	Datum		key;

	if (et->conv == BLOOM_CONV_GUAVA)
		return bloom_key_convert(et, value, &key) &&
			bloom_key_hash_guava(et->guava_conv == BLOOM_CONV_NONE ? et : et->conv_out,
								 key, hp, h);
	if (et->conv == BLOOM_CONV_ROW)
		return bloom_elem_hash_row_keyed(et, value, hp, et->row_keys, et->row_nkeys,
										 et->plan_add, h);
	if (!bloom_key_convert(et, value, &key))
		return false;
	*h = bloom_elem_hash(et->conv == BLOOM_CONV_NONE ? et : et->conv_out, key, hp);
	return true;
}

/*
 * One column of a row as a key of type key (a filter's row column, or an
 * index column): the value to hash into *out, and the type that hashes it
 * into *out_et; false when no key of that type equals it.  col keeps the
 * plan, as a call site's element type does.
 */
bool
bloom_key_column(BloomElemType *col, Datum value, uint32 key, uint8 hash_id,
				 bool add, Datum *out, BloomElemType **out_et)
{
	if (col->plan_key != key || col->plan_hash_id != hash_id)
		bloom_key_plan(col, key, hash_id, add);
	*out_et = col->conv == BLOOM_CONV_NONE ? col : col->conv_out;
	return bloom_key_convert(col, value, out);
}

/* bloom_key_hash when the plan is not made yet or converts */
bool
bloom_key_hash_slow(BloomElemType *et, Datum value, uint32 seed, uint32 key_type,
					uint8 hash_id, BloomHash *h)
{
	BloomHashParams hp = {.seed = seed, .key_type = key_type, .hash_id = hash_id};

	if (et->plan_key != hp.key_type || et->plan_hash_id != hp.hash_id)
	{
		bloom_key_plan(et, hp.key_type, hp.hash_id, false);
		bloom_elem_memo_replan(et);
	}
	return bloom_key_hash_planned(et, value, hp, h);
}

/* bloom_key_hash_add when the plan is not made yet or converts */
BloomHash
bloom_key_hash_add_slow(BloomElemType *et, Datum value, uint32 seed, uint32 key_type,
						uint8 hash_id)
{
	BloomHashParams hp = {.seed = seed, .key_type = key_type, .hash_id = hash_id};
	BloomHash	h;

	if (et->plan_key != hp.key_type || et->plan_hash_id != hp.hash_id)
		bloom_key_plan(et, hp.key_type, hp.hash_id, true);
	if (!bloom_key_hash_planned(et, value, hp, &h))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot add this value of type %s to a filter of %s keys",
						format_type_be(et->typid), bloom_key_type_name(hp.key_type)),
				 errdetail("No value of type %s equals it, so the filter could never find it.",
						   bloom_key_type_name(hp.key_type)),
				 errhint("Cast the value to %s yourself, deciding how to round it.",
						 bloom_key_type_name(hp.key_type))));
	return h;
}

/*
 * The key type of the union, intersection or merge of two filters: the
 * common one, that of the typed operand if the other is untyped and empty,
 * and untyped (answering as 1.2 did) if either is a value made by 1.2.
 * message is the whole error for two typed filters, as the caller names the
 * operation ("cannot union filters of different key types").
 */
uint32
bloom_key_combine(uint32 a, bool a_empty, uint32 b, bool b_empty, const char *message)
{
	if (a == b)
		return a;
	/* an empty filter of rows of unknown columns takes the other's */
	if ((a == 0 || (a == RECORDOID && (b & BLOOM_KEY_ROW_FLAG))) && a_empty)
		return b;
	if ((b == 0 || (b == RECORDOID && (a & BLOOM_KEY_ROW_FLAG))) && b_empty)
		return a;
	if (a == 0 || b == 0)
		return 0;
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("%s", _(message)),
			 errdetail("The first filter holds keys of type %s; the second of type %s.",
					   bloom_key_type_name(a), bloom_key_type_name(b)),
			 errhint("Filters of integer keys can be given one integer type with bf_set_key_type or cf_set_key_type; others must be rebuilt.")));
}

/*
 * bf_set_key_type and cf_set_key_type: the key type a filter is given.  An
 * untyped filter takes any (the caller asserts what its keys were), as does
 * one whose key type this server does not know; a typed one changes only
 * among types that hash alike.  message is the error, which names the
 * filter's kind, with a %s for each key type.
 */
uint32
bloom_key_reset(uint32 current, uint8 hash_id, Oid typid, const char *message)
{
	uint32		key = bloom_key_type_arg(typid);

	/* hash id 3 hashes each integer width as its own funnel does */
	if (hash_id == BLOOM_HASH_GUAVA && current != key)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg(message, bloom_key_type_name(current), bloom_key_type_name(key)),
				 errdetail("A Guava filter hashes its keys as the funnel of its key type %s does.",
						   bloom_key_type_name(current)),
				 errhint("Rebuild the filter from its keys.")));
	if (current == 0 || current == key || (bloom_is_int(current) && bloom_is_int(key)) ||
		(current == RECORDOID && (key & BLOOM_KEY_ROW_FLAG)) ||
		((current & BLOOM_KEY_ROW_FLAG) && key == RECORDOID) ||
		(!(current & BLOOM_KEY_ROW_FLAG) &&
		 !SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum(current))))
		return key;
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg(message, bloom_key_type_name(current), bloom_key_type_name(key)),
			 errdetail("Its keys were hashed as %s; only smallint, integer and bigint keys hash alike.",
					   bloom_key_type_name(current)),
			 errhint("Rebuild the filter from its keys.")));
}

/* the expression of argument argno of the call, or NULL if unknown */
static Node *
bloom_call_arg(FunctionCallInfo fcinfo, int argno)
{
	Node	   *expr = fcinfo->flinfo->fn_expr;
	Aggref	   *aggref = AggGetAggref(fcinfo);
	List	   *args;

	/* a transition function: its argument argno is the aggregate's argno - 1 */
	if (aggref != NULL)
	{
		if (argno < 1 || argno > list_length(aggref->args))
			return NULL;
		return (Node *) ((TargetEntry *) list_nth(aggref->args, argno - 1))->expr;
	}
	if (expr == NULL)
		return NULL;
	if (IsA(expr, FuncExpr))
		args = ((FuncExpr *) expr)->args;
	else if (IsA(expr, OpExpr))
		args = ((OpExpr *) expr)->args;
	else
		return NULL;
	return argno < list_length(args) ? list_nth(args, argno) : NULL;
}

/*
 * A text argument that is a value of another type (citext, ...) relabelled
 * as text by an implicit binary cast: refused.  Its type's equality is not
 * that of text, so hashing the characters would miss equal values.
 */
void
bloom_check_implicit_text(FunctionCallInfo fcinfo, int argno, Oid typid)
{
	Node	   *arg;
	Oid			inner;

	if (!bloom_is_textlike(getBaseType(typid)))
		return;
	arg = bloom_call_arg(fcinfo, argno);
	if (arg == NULL || !IsA(arg, RelabelType) ||
		((RelabelType *) arg)->relabelformat != COERCE_IMPLICIT_CAST)
		return;
	inner = getBaseType(exprType((Node *) ((RelabelType *) arg)->arg));
	if (bloom_is_textlike(inner) || inner == UNKNOWNOID)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("bloom filters cannot hash values of type %s", format_type_be(inner)),
			 errdetail("The value reached a text argument through an implicit cast, and values its type calls equal can differ as text, so a filter could miss one."),
			 errhint("Cast the value to text explicitly after normalizing it, for example lower(x)::text.")));
}

/*
 * bf_shard(element, nshards) given a string that is a constant or a
 * parameter: refused.  An untyped parameter takes its type from its first
 * use in the statement, so in "bf_contains(bf, $1) ... bf_shard($1, 8)" the
 * filter check makes it text and the shard would hash the text '5' where
 * the table was sharded by the bigint 5; a custom plan then shows it as a
 * text constant, no different from one the user wrote.  Naming the key
 * type (bf_shard($1, 8, 'bigint'), or 'text' for text keys) settles it.
 */
void
bloom_check_shard_text(FunctionCallInfo fcinfo, Oid typid)
{
	Node	   *arg;

	if (!bloom_is_textlike(bloom_key_type_of(typid)))
		return;
	arg = bloom_call_arg(fcinfo, 0);
	while (arg != NULL && IsA(arg, RelabelType))
		arg = (Node *) ((RelabelType *) arg)->arg;
	if (arg == NULL ||
		!(IsA(arg, Const) || (IsA(arg, Param) && ((Param *) arg)->paramkind == PARAM_EXTERN)))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("bf_shard needs the key type of a string constant or parameter"),
			 errdetail("A parameter's type can come from another use of it in the statement, such as bf_contains(bf, $1), which makes it text even where the shards hold bigint keys."),
			 errhint("Name the key type: bf_shard($1, 8, 'bigint'), or bf_shard($1, 8, 'text') for text keys.")));
}
