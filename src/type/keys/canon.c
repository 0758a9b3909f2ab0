/*-------------------------------------------------------------------------
 *
 * canon.c
 *	  Canonical bytes of an element, per SQL type and per hash id, and their
 *	  hash.
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
 *	  type/keys/typed.c);
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
 * src/type/keys/canon.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "common/int128.h"
#include "catalog/pg_enum.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/arrayaccess.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "type/keys/canon.h"
#include "type/keys/datetime.h"
#include "type/keys/numbers.h"
#include "type/keys/rows.h"
#include "type/keys/text.h"

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

/* the 16-byte count of microseconds an interval compares by */
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
void
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

/*
 * The kinds every hash id treats alike: integers as 8 little-endian bytes,
 * the rest as stored, text converted to UTF-8 if recode
 * (bloom_recodes_text).  Returns false for any other kind.  *tofree is
 * what to pfree afterwards, or NULL.
 */
bool
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
	/* The common kinds hash the value's own bytes, copied nowhere first. */
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
 * The bytes bloom_elem_hash_slow hashes for value under hash id 1, 2, 4 or
 * 5, appended to buf (hash id 4's are what a Redis client sends).  Not on
 * any path of a filter: the test vectors (keys/vectors.c) write these
 * beside the hash and hold the two to each other, so the clients can test
 * their encoders byte by byte.
 */
void
bloom_elem_bytes(StringInfo buf, BloomElemType *et, Datum value, uint8 hash_id)
{
	uint64		scratch;
	const char *data;
	size_t		len;
	void	   *tofree;

	if (hash_id == BLOOM_HASH_REDISBLOOM &&
		(et->kind == BLOOM_ELEM_INT2 || et->kind == BLOOM_ELEM_INT4 ||
		 et->kind == BLOOM_ELEM_INT8))
	{
		char		digits[MAXINT8LEN + 1];

		len = pg_lltoa(et->kind == BLOOM_ELEM_INT8 ? DatumGetInt64(value) :
					   et->kind == BLOOM_ELEM_INT4 ? DatumGetInt32(value) :
					   DatumGetInt16(value), digits);
		appendBinaryStringInfo(buf, digits, (int) len);
		return;
	}
	if (bloom_common_bytes(et, value, &scratch, &data, &len, &tofree,
						   bloom_recodes_text(hash_id)))
	{
		appendBinaryStringInfo(buf, data, (int) len);
		if (tofree)
			pfree(tofree);
		return;
	}
	if (hash_id == BLOOM_HASH_MURMUR3_SEND)
		bloom_canon_v1(buf, et, value);
	else
		bloom_canon_v2(buf, et, value, bloom_recodes_text(hash_id));
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
