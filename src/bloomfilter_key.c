/*-------------------------------------------------------------------------
 *
 * bloomfilter_key.c
 *	  Typed filters: the key type a filter records, and how a value of
 *	  another type is looked up in, added to, removed from or sharded by it.
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
 *
 * src/bloomfilter_key.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "bloomfilter_elem.h"

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
	return et.key_typid;
}

/*
 * Record et's key type in a filter that is untyped and empty.  A type of
 * the server's own (below 10000) that a typed filter could not hash is
 * left unrecorded: a filter of hash id 1 hashes it by its send output, as
 * 1.2 did, and the same untyped (hash id 2 refuses it as it hashes it).
 * Recording it would make a value that input refuses, and so a dump that
 * cannot be restored.
 */
void
bloom_key_adopt(BloomElemType *et, uint32 *key_type)
{
	if (et->key_typid >= BLOOM_KEY_TYPE_LIMIT)
		bloom_key_refuse(et);
	if (bloom_key_type_valid(et->key_typid))
		*key_type = et->key_typid;
}

/*
 * The name of a filter's key type, for messages and bf_info: a stored value
 * can name an OID that is no type (input refuses one since 1.4, but values
 * stored before are read as they are), which format_type_be would report as
 * a "cache lookup failed" internal error.  Such a key type shows as its
 * number, as regtype shows one.
 */
char *
bloom_key_type_name(uint32 key_type)
{
	if (!SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum((Oid) key_type)))
		return psprintf("%u", key_type);
	return format_type_be((Oid) key_type);
}

pg_noreturn static void
bloom_key_mismatch(BloomElemType *et, uint32 key, bool add, const char *hint)
{
	if (hint == NULL)
		hint = psprintf("Cast the value to %s.", format_type_be(key));
	if (add)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot add a value of type %s to a filter of %s keys",
						format_type_be(et->typid), format_type_be(key)),
				 errhint("%s", hint)));
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("cannot look up a value of type %s in a filter of %s keys",
					format_type_be(et->typid), format_type_be(key)),
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

	if (key == s || (bloom_is_int(s) && bloom_is_int(key)) ||
		(bloom_is_textlike(s) && bloom_is_textlike(key)))
		return true;
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

/* the plan for filters of this key type and hash id */
static void
bloom_key_plan(BloomElemType *et, uint32 key, uint8 hash_id, bool add)
{
	Oid			s = et->key_typid;
	BloomConv	conv = BLOOM_CONV_NONE;

	if (key != 0 && !bloom_key_same_bytes(s, key, hash_id))
	{
		if (!SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum(key)))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("filter key type %u is not a type of this server", key),
					 errhint("Give the filter its key type with bf_set_key_type or cf_set_key_type.")));
		if (bloom_is_textlike(s) && key == RECORDOID)
			bloom_key_mismatch(et, key, add,
							   "Anonymous records have no text input: pass a ROW() of the columns' types.");
		else if (bloom_is_textlike(s))
			conv = BLOOM_CONV_INPUT;
		else if (hash_id == BLOOM_HASH_MURMUR3_SEND)
			bloom_key_mismatch(et, key, add,
							   psprintf("Filters made by bloomfilter 1.1 or earlier (hash id 1) convert only text and integers: cast the value to %s.",
										format_type_be(key)));
		else
			conv = bloom_key_conv_for(et, s, key, add);
	}
	if (conv != BLOOM_CONV_NONE)
	{
		et->conv_out = MemoryContextAlloc(et->mcxt, sizeof(BloomElemType));
		bloom_elem_init(et->conv_out, bloom_key_conv_out(conv, key), et->collation,
						et->mcxt);
	}
	if (conv == BLOOM_CONV_INPUT)
	{
		Oid			input;

		getTypeInputInfo(key, &input, &et->conv_ioparam);
		fmgr_info_cxt(input, &et->conv_input, et->mcxt);
	}
	et->conv = conv;
	et->refuse_enum = key != 0;
	et->plan_key = key;
	et->plan_hash_id = hash_id;
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
	int			overflow = 0;
	Timestamp	ts = date2timestamp_opt_overflow(DatumGetDateADT(value), &overflow);

	if (overflow != 0)
		return false;
	*out = TimestampGetDatum(ts);
	return true;
}

/* value as a key of the planned type; false when none equals it */
static bool
bloom_key_convert(BloomElemType *et, Datum value, Datum *out)
{
	int64		i;

	switch (et->conv)
	{
		case BLOOM_CONV_NONE:
			*out = value;
			return true;
		case BLOOM_CONV_INPUT:
			*out = InputFunctionCall(&et->conv_input, bloom_key_cstring(et, value),
									 et->conv_ioparam, -1);
			return true;
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
bloom_key_hash_planned(BloomElemType *et, Datum value, BloomHashParams hp,
					   BloomHash *h)
{
	Datum		key;

	if (!bloom_key_convert(et, value, &key))
		return false;
	*h = bloom_elem_hash(et->conv == BLOOM_CONV_NONE ? et : et->conv_out, key, hp);
	return true;
}

/* bloom_key_hash when the plan is not made yet or converts */
bool
bloom_key_hash_slow(BloomElemType *et, Datum value, uint32 seed, uint32 key_type,
					uint8 hash_id, BloomHash *h)
{
	BloomHashParams hp = {.seed = seed, .key_type = key_type, .hash_id = hash_id};

	if (et->plan_key != hp.key_type || et->plan_hash_id != hp.hash_id)
		bloom_key_plan(et, hp.key_type, hp.hash_id, false);
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
						format_type_be(et->typid), format_type_be(hp.key_type)),
				 errdetail("No value of type %s equals it, so the filter could never find it.",
						   format_type_be(hp.key_type)),
				 errhint("Cast the value to %s yourself, deciding how to round it.",
						 format_type_be(hp.key_type))));
	return h;
}

/*
 * The key type of the union, intersection or merge of two filters: the
 * common one, that of the typed operand if the other is untyped and empty,
 * and untyped (answering as 1.2 did) if either is a value made by 1.2.
 */
uint32
bloom_key_combine(uint32 a, bool a_empty, uint32 b, bool b_empty, const char *what)
{
	if (a == b)
		return a;
	if (a == 0 && a_empty)
		return b;
	if (b == 0 && b_empty)
		return a;
	if (a == 0 || b == 0)
		return 0;
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("cannot %s filters of different key types", what),
			 errdetail("The first filter holds keys of type %s; the second of type %s.",
					   bloom_key_type_name(a), bloom_key_type_name(b)),
			 errhint("Filters of integer keys can be given one integer type with bf_set_key_type or cf_set_key_type; others must be rebuilt.")));
}

/*
 * bf_set_key_type and cf_set_key_type: the key type a filter is given.  An
 * untyped filter takes any (the caller asserts what its keys were), as does
 * one whose key type this server does not know; a typed one changes only
 * among types that hash alike.
 */
uint32
bloom_key_reset(uint32 current, Oid typid, const char *what)
{
	uint32		key = bloom_key_type_arg(typid);

	if (current == 0 || current == key || (bloom_is_int(current) && bloom_is_int(key)) ||
		!SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum(current)))
		return key;
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("cannot change the key type of a %s from %s to %s",
					what, format_type_be(current), format_type_be(key)),
			 errdetail("Its keys were hashed as %s; only smallint, integer and bigint keys hash alike.",
					   format_type_be(current)),
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
