/*-------------------------------------------------------------------------
 *
 * bloomfilter_elem.c
 *	  Canonical bytes of an element, per SQL type and per hash id.
 *
 * The hash of an element must not depend on the build, the platform or the
 * session, or a stored filter would start answering "absent" for elements it
 * holds.  So every type is reduced to bytes defined independently of memory
 * layout, and those bytes are hashed (bloom_core.h).  Two sets of rules
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
 *	  bloomfilter_key.c);
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
 * src/bloomfilter_elem.c
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
#include "utils/array.h"
#include "utils/arrayaccess.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/inet.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
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

static void bloom_canon_v2(StringInfo buf, BloomElemType *et, Datum value);

/* a nested value: int32 length, or -1 for NULL, then its bytes */
static void
bloom_append_nested(StringInfo buf, BloomElemType *et, Datum value, bool isnull)
{
	int			lenpos = buf->len;

	bloom_append_le(buf, (uint32) -1, 4);
	if (isnull)
		return;
	bloom_canon_v2(buf, et, value);
	for (int i = 0; i < 4; i++)
		buf->data[lenpos + i] = (char) ((uint32) (buf->len - lenpos - 4) >> (8 * i));
}

static void
bloom_append_array(StringInfo buf, BloomElemType *et, Datum value)
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
	array_iter_setup(&it, arr);
	for (int i = 0; i < nitems; i++)
	{
		bool		isnull;
		Datum		v = array_iter_next(&it, &isnull, i, et->elem->typlen,
										et->elem->typbyval, et->elem->typalign);

		bloom_append_nested(buf, et->elem, v, isnull);
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

static void
bloom_append_record(StringInfo buf, BloomElemType *et, Datum value)
{
	HeapTupleHeader td = DatumGetHeapTupleHeader(value);
	Oid			typid = HeapTupleHeaderGetTypeId(td);
	int32		typmod = HeapTupleHeaderGetTypMod(td);
	TupleDesc	desc = lookup_rowtype_tupdesc(typid, typmod);
	Datum	   *values = palloc(desc->natts * sizeof(Datum));
	bool	   *nulls = palloc(desc->natts * sizeof(bool));
	int			ncols;

	if (et->rec_cols == NULL || et->rec_typid != typid || et->rec_typmod != typmod ||
		et->rec_natts != desc->natts)
		bloom_record_cache(et, desc, typid, typmod);

	ncols = bloom_deform_record(td, desc, values, nulls);
	bloom_append_le(buf, (uint32) ncols, 4);
	for (int i = 0; i < desc->natts; i++)
	{
		if (!TupleDescAttr(desc, i)->attisdropped)
		{
			et->rec_cols[i].refuse_enum = et->refuse_enum;
			et->rec_cols[i].refuse_untyped = et->refuse_untyped;
			bloom_append_nested(buf, &et->rec_cols[i], values[i], nulls[i]);
		}
	}
	ReleaseTupleDesc(desc);
	pfree(values);
	pfree(nulls);
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
 * The kinds every hash id treats alike: integers as 8 little-endian bytes,
 * the rest as stored.  Returns false for any other kind.  *tofree is what
 * to pfree afterwards, or NULL.
 */
static bool
bloom_common_bytes(BloomElemType *et, Datum value, uint64 *scratch,
				   const char **data, size_t *len, void **tofree)
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
				return true;
			}
		case BLOOM_ELEM_NAME:
			*data = NameStr(*DatumGetName(value));
			*len = strnlen(*data, NAMEDATALEN);
			return true;
		case BLOOM_ELEM_CSTRING:
			*data = DatumGetCString(value);
			*len = strlen(*data);
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
bloom_append_common(StringInfo buf, BloomElemType *et, Datum value)
{
	uint64		scratch;
	const char *data;
	size_t		len;
	void	   *tofree;

	if (!bloom_common_bytes(et, value, &scratch, &data, &len, &tofree))
		return false;
	appendBinaryStringInfo(buf, data, (int) len);
	if (tofree)
		pfree(tofree);
	return true;
}

static void
bloom_canon_v2(StringInfo buf, BloomElemType *et, Datum value)
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
	if (bloom_append_common(buf, et, value))
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
			bloom_append_array(buf, et, value);
			break;
		case BLOOM_ELEM_RECORD:
			bloom_append_record(buf, et, value);
			break;
		default:
			if (!et->send_is_canonical)
				bloom_refuse(et);
			bloom_append_send(buf, et, value);
			break;
	}
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

	if (hash_id != BLOOM_HASH_MURMUR3_SEND && et->nondeterministic)
		bloom_check_collation(et);
	if (et->kind == BLOOM_ELEM_UUID)
		return bloom_hash_16(DatumGetUUIDP(value)->data, seed);
	/* the common kinds hash straight from the value */
	if (bloom_common_bytes(et, value, &scratch, &data, &len, &tofree))
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
		bloom_canon_v2(&buf, et, value);
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
	else
		bloom_check_implicit_text(fcinfo, argno, typid);

	Assert(size >= sizeof(BloomElemType));
	et = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, size);
	bloom_elem_init(et, typid, PG_GET_COLLATION(), fcinfo->flinfo->fn_mcxt);
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

	Assert(hp.hash_id == BLOOM_HASH_MURMUR3_EQ);
	initStringInfo(&buf);
	bloom_append_le(&buf, (uint32) ncols, 4);
	for (int i = 0; i < ncols; i++)
		bloom_append_nested(&buf, &cols[i], values[i], nulls[i]);
	h = bloom_hash(buf.data, buf.len, hp.seed);
	pfree(buf.data);
	return h;
}

/*
 * The hash of a row as a key of a filter whose rows' columns have key types
 * keys (a row signature, or an index's columns): each column converted to
 * its key type as a key of a typed filter is (bloomfilter_key.c), then
 * hashed as a record of those columns is.  False when some column equals no
 * key of its type; a row of another number of columns is refused.
 */
bool
bloom_elem_hash_row_keyed(BloomElemType *et, Datum row, BloomHashParams hp,
						  const uint32 *keys, int nkeys, bool add, BloomHash *h)
{
	HeapTupleHeader td = DatumGetHeapTupleHeader(row);
	Oid			typid = HeapTupleHeaderGetTypeId(td);
	int32		typmod = HeapTupleHeaderGetTypMod(td);
	TupleDesc	desc = lookup_rowtype_tupdesc(typid, typmod);
	Datum	   *values = palloc(desc->natts * sizeof(Datum));
	bool	   *nulls = palloc(desc->natts * sizeof(bool));
	StringInfoData buf;
	bool		found = true;
	int			ncols;
	int			k = 0;

	if (et->rec_cols == NULL || et->rec_typid != typid || et->rec_typmod != typmod ||
		et->rec_natts != desc->natts)
		bloom_record_cache(et, desc, typid, typmod);
	ncols = bloom_deform_record(td, desc, values, nulls);
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
			bloom_append_nested(&buf, NULL, (Datum) 0, true);
		else if (bloom_key_column(&et->rec_cols[i], values[i], keys[k], hp.hash_id,
								  add, &v, &vet))
			bloom_append_nested(&buf, vet, v, false);
		else
			found = false;
		k++;
	}
	ReleaseTupleDesc(desc);
	if (found)
		*h = bloom_hash(buf.data, buf.len, hp.seed);
	pfree(buf.data);
	pfree(values);
	pfree(nulls);
	return found;
}
