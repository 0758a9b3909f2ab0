/*-------------------------------------------------------------------------
 *
 * typed.c
 *	  Typed filters: the key type a filter records, and the plan that
 *	  converts a value of another type to it.
 *
 * The per-row work is one comparison (keys.h's bloom_key_hash); this file is
 * what happens when it fails: a plan for the pair of types, made once per
 * call site and filter key type, and the conversion it names, which calls
 * into the families (numbers, datetime, text, rows).  The design is below.
 *
 * src/type/keys/typed.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "type/keys/typed.h"
#include "type/keys/cache.h"
#include "type/keys/datetime.h"
#include "type/keys/numbers.h"
#include "type/keys/rows.h"
#include "type/keys/text.h"

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
	/*
	 * A filter of rows that records no column types cannot read a probe
	 * row's untyped column as its column's type, so a check refuses such a
	 * row rather than answer from its text (canon.c); an add hashes it as
	 * release 1.3 did.
	 */
	et->refuse_untyped = key == RECORDOID && !add;
	et->plan_key = key;
	et->plan_hash_id = hash_id;
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

/*
 * The hash of a row as a key of a filter whose rows' columns have key types
 * keys (a row signature, or an index's columns): each column converted to
 * its key type as a key of a typed filter is (bloom_key_column), then
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
