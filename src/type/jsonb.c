/*-------------------------------------------------------------------------
 *
 * jsonb.c
 *	  The jsonb object that bf_info and cf_info return (type/info.c), which
 *	  a filter's kind fills (type/kind.h), and the sink through which a
 *	  layout (core code, no server headers) adds its own members.
 *
 * Numbers become numerics from the same text jsonb_in would have parsed
 * (float8out's for the server's doubles, 17 significant digits for a
 * layout's), so the objects are those of releases that built them as
 * text; jsonb orders an object's keys itself.
 *
 * src/type/jsonb.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/numeric.h"

#include "type/jsonb.h"
#include "type/keys.h"

/* "%.17g" of a double: enough digits to give back the same double */
#define BLOOM_JSON_REAL_DIGITS	17

static void bloom_json_sink_put(BloomInfoSink *sink, const char *name,
								BloomInfoKind kind, uint64_t u, double d);

void
bloom_json_begin(BloomJson *js)
{
	js->sink.put = bloom_json_sink_put;
	memset(&js->state, 0, sizeof(js->state));
	js->depth = 0;
	pushJsonbValue(&js->state, WJB_BEGIN_OBJECT, NULL);
}

/*
 * An object that starts with the members bf_info and cf_info share, from
 * their headers and the value's size.
 */
void
bloom_json_begin_filter(BloomJson *js, uint8 version, uint8 hash_id, uint32 seed,
						uint32 key_type, uint64 capacity, double error_rate,
						uint64 size_bytes)
{
	bloom_json_begin(js);
	bloom_json_uint(js, "version", version);
	bloom_json_string(js, "hash", bloom_hash_name(hash_id));
	bloom_json_uint(js, "hash_id", hash_id);
	bloom_json_uint(js, "seed", seed);
	bloom_json_uint(js, "capacity", capacity);
	bloom_json_float8(js, "error_rate", error_rate);
	bloom_json_uint(js, "size_bytes", size_bytes);
	bloom_json_string(js, "key_type", key_type == 0 ? NULL : bloom_key_type_name(key_type));
}

Jsonb *
bloom_json_end(BloomJson *js)
{
	if (js->depth != 0)
		elog(ERROR, "bloom filter info left %d lists or objects open", js->depth);
	return JsonbValueToJsonb(BLOOM_JSONB_CLOSE(&js->state, WJB_END_OBJECT));
}

static void
bloom_json_key(BloomJson *js, const char *name)
{
	JsonbValue	key;

	key.type = jbvString;
	key.val.string.val = (char *) name;
	key.val.string.len = strlen(name);
	pushJsonbValue(&js->state, WJB_KEY, &key);
}

/* a member of the object open now, or an element of the list open now */
static void
bloom_json_put(BloomJson *js, const char *name, JsonbValue *value)
{
	if (BLOOM_JSONB_OPEN(&js->state)->contVal.type == jbvArray)
	{
		if (name != NULL)
			elog(ERROR, "bloom filter info member \"%s\" in a list", name);
		pushJsonbValue(&js->state, WJB_ELEM, value);
		return;
	}
	if (name == NULL)
		elog(ERROR, "bloom filter info member without a name");
	bloom_json_key(js, name);
	pushJsonbValue(&js->state, WJB_VALUE, value);
}

static void
bloom_json_number(BloomJson *js, const char *name, const char *text)
{
	JsonbValue	v;

	v.type = jbvNumeric;
	v.val.numeric = DatumGetNumeric(DirectFunctionCall3(numeric_in,
														CStringGetDatum(text),
														ObjectIdGetDatum(InvalidOid),
														Int32GetDatum(-1)));
	bloom_json_put(js, name, &v);
}

void
bloom_json_int(BloomJson *js, const char *name, int64 value)
{
	bloom_json_number(js, name, psprintf(INT64_FORMAT, value));
}

void
bloom_json_uint(BloomJson *js, const char *name, uint64 value)
{
	bloom_json_number(js, name, psprintf(UINT64_FORMAT, value));
}

/* JSON has no NaN or infinity; no estimate is either */
static void
bloom_json_check_finite(const char *name, double value)
{
	if (!isfinite(value))
		elog(ERROR, "bloom filter info member \"%s\" is not a finite number", name);
}

/* as float8out writes it: the shortest text that reads back the same */
void
bloom_json_float8(BloomJson *js, const char *name, double value)
{
	bloom_json_check_finite(name, value);
	bloom_json_number(js, name, float8out_internal(value));
}

/* NULL: JSON null */
void
bloom_json_string(BloomJson *js, const char *name, const char *value)
{
	JsonbValue	v;

	if (value == NULL)
		v.type = jbvNull;
	else
	{
		v.type = jbvString;
		v.val.string.val = (char *) value;
		v.val.string.len = strlen(value);
	}
	bloom_json_put(js, name, &v);
}

/* a list or object a layout opens or closes */
static void
bloom_json_container(BloomJson *js, const char *name, BloomInfoKind kind)
{
	bool		in_list = BLOOM_JSONB_OPEN(&js->state)->contVal.type == jbvArray;

	if (kind == BLOOM_INFO_END)
	{
		if (js->depth == 0)
			elog(ERROR, "bloom filter info closes more than it opened");
		js->depth--;
		pushJsonbValue(&js->state, in_list ? WJB_END_ARRAY : WJB_END_OBJECT, NULL);
		return;
	}
	if ((kind == BLOOM_INFO_OBJECT) != in_list || (name == NULL) != in_list)
		elog(ERROR, "bloom filter info opens a list or object out of place");
	if (!in_list)
		bloom_json_key(js, name);
	js->depth++;
	pushJsonbValue(&js->state, kind == BLOOM_INFO_LIST ? WJB_BEGIN_ARRAY : WJB_BEGIN_OBJECT,
				   NULL);
}

static void
bloom_json_sink_put(BloomInfoSink *sink, const char *name, BloomInfoKind kind,
					uint64_t u, double d)
{
	BloomJson  *js = (BloomJson *) sink;

	switch (kind)
	{
		case BLOOM_INFO_UINT:
			bloom_json_uint(js, name, u);
			return;
		case BLOOM_INFO_REAL:
			bloom_json_check_finite(name ? name : "(list element)", d);
			bloom_json_number(js, name, psprintf("%.*g", BLOOM_JSON_REAL_DIGITS, d));
			return;
		case BLOOM_INFO_LIST:
		case BLOOM_INFO_OBJECT:
		case BLOOM_INFO_END:
			bloom_json_container(js, name, kind);
			return;
	}
	elog(ERROR, "unknown bloom filter info kind %d", (int) kind);
}
