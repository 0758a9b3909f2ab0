/*-------------------------------------------------------------------------
 *
 * vectors.c
 *	  The key-type table as the tests read it: its rows, and the test
 *	  vectors the server writes from it for the clients.
 *
 * Each client (Python, Java, Rust) encodes keys as the server does, in its
 * own language, and used to keep its own list of key types and its own
 * expected bytes.  Instead the server writes, from core/keytypes.c's table,
 * each literal of each key type (and the array of them), with its
 * canonical bytes and hash under every hash id a layout hashes that key
 * type with: test/vectors/keys.json, which the clients' tests read and
 * sql/key_types.sql holds to what this server writes.  The bytes are
 * written beside the hash the filters' own path gives (bloom_key_hash, for
 * a value of the key type and for its text, as a text probe is converted),
 * and refused unless they hash to it, so the file cannot drift from the
 * code that hashes.
 *
 * Neither function is part of the extension's SQL surface: a test binds
 * them with CREATE FUNCTION ... AS '$libdir/bloomfilter', as it would a C
 * function of its own.
 *
 * src/type/keys/vectors.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"

#include "core/guava.h"
#include "type/keys/numbers.h"
#include "type/keys/typed.h"

PG_FUNCTION_INFO_V1(bloomfilter_key_types);
PG_FUNCTION_INFO_V1(bloomfilter_key_vectors);

/* the seed of every vector: the default, which the clients' filters use */
#define BLOOM_VECTOR_SEED	0

static const char *const bloom_kind_names[] = {
	[BLOOM_ELEM_INT2] = "int2",
	[BLOOM_ELEM_INT4] = "int4",
	[BLOOM_ELEM_INT8] = "int8",
	[BLOOM_ELEM_TEXT] = "bytes",
	[BLOOM_ELEM_BPCHAR] = "bpchar",
	[BLOOM_ELEM_NAME] = "name",
	[BLOOM_ELEM_CSTRING] = "cstring",
	[BLOOM_ELEM_UUID] = "uuid",
	[BLOOM_ELEM_NUMERIC] = "numeric",
	[BLOOM_ELEM_FLOAT4] = "float4",
	[BLOOM_ELEM_FLOAT8] = "float8",
	[BLOOM_ELEM_ENUM] = "enum",
	[BLOOM_ELEM_INTERVAL] = "interval",
	[BLOOM_ELEM_INET] = "inet",
	[BLOOM_ELEM_ARRAY] = "array",
	[BLOOM_ELEM_RECORD] = "record",
	[BLOOM_ELEM_SEND] = "send",
};

static const char *const bloom_family_names[] = {
	[BLOOM_FAMILY_NUMBERS] = "numbers",
	[BLOOM_FAMILY_TEXT] = "text",
	[BLOOM_FAMILY_DATETIME] = "datetime",
	[BLOOM_FAMILY_ROWS] = "rows",
	[BLOOM_FAMILY_ARRAYS] = "arrays",
	[BLOOM_FAMILY_OTHER] = "other",
};

static const struct
{
	uint8		flag;
	const char *name;
}			bloom_client_names[] = {
	{BLOOM_CLIENT_JAVA, "java"},
	{BLOOM_CLIENT_PYTHON, "python"},
	{BLOOM_CLIENT_RUST, "rust"},
};

/* the hash ids the vectors cover, and which key types each hashes */
static bool
bloom_vector_hash_takes(uint8 hash_id, uint32 key_type)
{
	switch (hash_id)
	{
		case BLOOM_HASH_GUAVA:
			return bloom_guava_key_type(key_type);
		case BLOOM_HASH_REDISBLOOM:
			return bloom_redis_key_type_ok(key_type);
		default:
			return true;
	}
}

static const uint8 bloom_vector_hash_ids[] = {
	BLOOM_HASH_MURMUR3_SEND, BLOOM_HASH_MURMUR3_EQ, BLOOM_HASH_GUAVA,
	BLOOM_HASH_REDISBLOOM, BLOOM_HASH_MURMUR3_UTF8
};

static Datum
bloom_clients_array(uint8 clients)
{
	Datum		names[lengthof(bloom_client_names)];
	int			n = 0;

	for (int i = 0; i < lengthof(bloom_client_names); i++)
		if (clients & bloom_client_names[i].flag)
			names[n++] = CStringGetTextDatum(bloom_client_names[i].name);
	return PointerGetDatum(construct_array(names, n, TEXTOID, -1, false, TYPALIGN_INT));
}

/*
 * bloomfilter_key_types(): the rows of the key-type table, as
 * (oid, array, name, kind, family, row_code, reads, opclass, array_only,
 * clients, samples).
 */
Datum
bloomfilter_key_types(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < bloom_key_type_count; i++)
	{
		const BloomKeyType *kt = &bloom_key_type_table[i];
		Datum		values[11];
		bool		nulls[11] = {0};
		Datum		samples[BLOOM_KEY_SAMPLES];
		int			nsamples = 0;

		while (nsamples < BLOOM_KEY_SAMPLES && kt->samples[nsamples] != NULL)
		{
			samples[nsamples] = CStringGetTextDatum(kt->samples[nsamples]);
			nsamples++;
		}
		values[0] = ObjectIdGetDatum(kt->oid);
		values[1] = ObjectIdGetDatum(kt->array);
		values[2] = CStringGetTextDatum(kt->name);
		values[3] = CStringGetTextDatum(bloom_kind_names[kt->kind]);
		values[4] = CStringGetTextDatum(bloom_family_names[kt->family]);
		values[5] = Int32GetDatum(kt->row_code);
		values[6] = Int32GetDatum(kt->reads);
		values[7] = BoolGetDatum((kt->flags & BLOOM_KT_OPCLASS) != 0);
		values[8] = BoolGetDatum((kt->flags & BLOOM_KT_ARRAY_ONLY) != 0);
		values[9] = bloom_clients_array(kt->clients);
		values[10] = PointerGetDatum(construct_array(samples, nsamples, TEXTOID, -1,
													 false, TYPALIGN_INT));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* ---- the vectors ---- */

static void
bloom_vector_string(StringInfo buf, const char *s)
{
	appendStringInfoChar(buf, '"');
	for (const unsigned char *p = (const unsigned char *) s; *p; p++)
	{
		if (*p == '"' || *p == '\\')
			appendStringInfo(buf, "\\%c", *p);
		else if (*p < 0x20)
			appendStringInfo(buf, "\\u%04x", *p);
		else
			appendStringInfoChar(buf, (char) *p);
	}
	appendStringInfoChar(buf, '"');
}

static void
bloom_vector_hex(StringInfo buf, const char *data, size_t len)
{
	appendStringInfoChar(buf, '"');
	for (size_t i = 0; i < len; i++)
		appendStringInfo(buf, "%02x", (unsigned char) data[i]);
	appendStringInfoChar(buf, '"');
}

/*
 * Guava's funnel bytes (hash id 3) of a value of key type key_type, as
 * typed.c's bloom_key_hash_guava hashes them: an integer in its key type's
 * width, little-endian; text and bytea as their bytes.
 */
static void
bloom_guava_bytes(StringInfo buf, BloomElemType *et, Datum value, uint32 key_type)
{
	if (key_type == INT4OID)
		bloom_append_le(buf, (uint64) (int64) DatumGetInt32(value), 4);
	else if (key_type == INT8OID)
		bloom_append_le(buf, (uint64) DatumGetInt64(value), 8);
	else
		bloom_elem_bytes(buf, et, value, BLOOM_HASH_MURMUR3_EQ);
}

/* the hash of value as a key of a filter of key type key_type and hash id */
static BloomHash
bloom_vector_hash(BloomElemType *et, Datum value, uint32 key_type, uint8 hash_id)
{
	BloomHashParams hp = {.seed = BLOOM_VECTOR_SEED, .key_type = key_type,.hash_id = hash_id};
	BloomHash	h;

	if (!bloom_key_hash(et, value, hp, &h))
		elog(ERROR, "a test vector of key type %u equals no key of its own type", key_type);
	return h;
}

/*
 * One vector: text read as key type key_type (value), hashed under hash_id
 * as a filter of that key type hashes it, and as a text probe of such a
 * filter is hashed; both, and the bytes, must agree.
 */
static void
bloom_vector(StringInfo out, uint32 key_type, const char *text, Datum value,
			 uint8 hash_id, bool text_probes, MemoryContext cxt)
{
	BloomElemType et,
				tet;
	BloomHash	h;
	BloomHash	from_bytes;
	StringInfoData bytes;

	bloom_elem_init(&et, key_type, InvalidOid, cxt);
	h = bloom_vector_hash(&et, value, key_type, hash_id);
	if (text_probes)
	{
		BloomHash	th;

		bloom_elem_init(&tet, TEXTOID, DEFAULT_COLLATION_OID, cxt);
		th = bloom_vector_hash(&tet, CStringGetTextDatum(text), key_type, hash_id);
		if (th.h1 != h.h1 || th.h2 != h.h2)
			elog(ERROR, "the text \"%s\" hashes apart from its value of key type %u",
				 text, key_type);
	}
	initStringInfo(&bytes);
	if (hash_id == BLOOM_HASH_GUAVA)
		bloom_guava_bytes(&bytes, &et, value, key_type);
	else
		bloom_elem_bytes(&bytes, &et, value, hash_id);
	from_bytes = hash_id == BLOOM_HASH_REDISBLOOM ?
		bloom_redis_hash(bytes.data, bytes.len) :
		bloom_hash(bytes.data, bytes.len, BLOOM_VECTOR_SEED);
	if (from_bytes.h1 != h.h1 || from_bytes.h2 != h.h2)
		elog(ERROR, "the canonical bytes of \"%s\" as key type %u do not give its hash under hash id %d",
			 text, key_type, hash_id);

	/* the text last: line readers find every other field before it */
	appendStringInfo(out, ",\n{\"key_type\": %u, \"hash_id\": %d, \"bytes\": ", key_type, hash_id);
	bloom_vector_hex(out, bytes.data, bytes.len);
	appendStringInfo(out, ", \"h1\": \"%016llx\", \"h2\": \"%016llx\", \"text_hex\": ",
					 (unsigned long long) h.h1, (unsigned long long) h.h2);
	bloom_vector_hex(out, text, strlen(text));
	appendStringInfoString(out, ", \"text\": ");
	bloom_vector_string(out, text);
	appendStringInfoChar(out, '}');
	pfree(bytes.data);
}

/* every hash id's vector of one value of key type key_type */
static void
bloom_vectors_of(StringInfo out, uint32 key_type, const char *text, Datum value,
				 bool text_probes, MemoryContext cxt)
{
	for (int i = 0; i < lengthof(bloom_vector_hash_ids); i++)
		if (bloom_vector_hash_takes(bloom_vector_hash_ids[i], key_type))
			bloom_vector(out, key_type, text, value, bloom_vector_hash_ids[i],
						 text_probes, cxt);
}

/*
 * The text of the array of a row's first n literals: each quoted, which
 * array_in reads on every server, where array_out's text would follow the
 * server's output of the element type (19 writes pg_lsn 0/0 as 0/00000000).
 */
static char *
bloom_vector_array_text(const BloomKeyType *kt, int n)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (int i = 0; i < n; i++)
	{
		appendStringInfoString(&buf, i > 0 ? ",\"" : "\"");
		for (const char *p = kt->samples[i]; *p; p++)
		{
			if (*p == '"' || *p == '\\')
				appendStringInfoChar(&buf, '\\');
			appendStringInfoChar(&buf, *p);
		}
		appendStringInfoChar(&buf, '"');
	}
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

/* the vectors of one row of the table: each literal, then their array */
static void
bloom_vectors_of_row(StringInfo out, const BloomKeyType *kt, MemoryContext cxt)
{
	Datum		values[BLOOM_KEY_SAMPLES];
	int			n = 0;
	Oid			input;
	Oid			ioparam;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	/* money's text depends on lc_monetary: a text probe of it is refused */
	bool		text_probes = !(kt->reads & BLOOM_READS_LOCALE);

	getTypeInputInfo(kt->oid, &input, &ioparam);
	get_typlenbyvalalign(kt->oid, &typlen, &typbyval, &typalign);
	for (; n < BLOOM_KEY_SAMPLES && kt->samples[n] != NULL; n++)
	{
		values[n] = OidInputFunctionCall(input, (char *) kt->samples[n], ioparam, -1);
		bloom_vectors_of(out, kt->oid, kt->samples[n], values[n], text_probes, cxt);
	}
	if (n > 0 && kt->array != 0)
	{
		ArrayType  *arr = construct_array(values, n, kt->oid, typlen, typbyval, typalign);

		bloom_vectors_of(out, kt->array, bloom_vector_array_text(kt, n),
						 PointerGetDatum(arr), text_probes, cxt);
	}
}

static void
bloom_vector_key_type(StringInfo out, const BloomKeyType *kt, bool first)
{
	bool		any = false;

	appendStringInfo(out, "%s\n{\"oid\": %u, \"array\": %u, \"name\": ",
					 first ? "" : ",", kt->oid, kt->array);
	bloom_vector_string(out, kt->name);
	appendStringInfo(out, ", \"kind\": \"%s\", \"family\": \"%s\", \"row_code\": %d, "
					 "\"opclass\": %s, \"array_only\": %s, \"clients\": [",
					 bloom_kind_names[kt->kind], bloom_family_names[kt->family],
					 kt->row_code, (kt->flags & BLOOM_KT_OPCLASS) ? "true" : "false",
					 (kt->flags & BLOOM_KT_ARRAY_ONLY) ? "true" : "false");
	for (int i = 0; i < lengthof(bloom_client_names); i++)
		if (kt->clients & bloom_client_names[i].flag)
		{
			appendStringInfo(out, "%s\"%s\"", any ? ", " : "", bloom_client_names[i].name);
			any = true;
		}
	appendStringInfoString(out, "]}");
}

/* the key types a filter may record, ascending */
static void
bloom_vector_valid(StringInfo out)
{
	bool		first = true;

	appendStringInfoString(out, "\"valid\": [");
	for (uint32 oid = 1; oid < BLOOM_KEY_TYPE_LIMIT; oid++)
		if (bloom_key_type_valid(oid))
		{
			appendStringInfo(out, "%s%u", first ? "" : ", ", oid);
			first = false;
		}
	appendStringInfoString(out, "],\n");
}

/*
 * The settings the literals are read and the arrays written under, so that
 * the vectors are the same in every session: the function's own, undone
 * when it returns (as ri_triggers.c sets its own).
 */
static int
bloom_vector_settings(void)
{
	static const char *const settings[][2] = {
		{"DateStyle", "ISO, YMD"}, {"TimeZone", "UTC"}, {"IntervalStyle", "postgres"},
		{"extra_float_digits", "1"}, {"bytea_output", "hex"}, {"lc_monetary", "C"},
	};
	int			level = NewGUCNestLevel();

	for (int i = 0; i < lengthof(settings); i++)
		(void) set_config_option(settings[i][0], settings[i][1], PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_SAVE, true, 0, false);
	return level;
}

/*
 * bloomfilter_key_vectors(): test/vectors/keys.json, one JSON document
 * with one key type or one vector a line.  A UTF8 database's: text keys
 * are hashed in the database encoding.
 */
Datum
bloomfilter_key_vectors(PG_FUNCTION_ARGS)
{
	StringInfoData out;
	StringInfoData vectors;
	MemoryContext cxt = CurrentMemoryContext;
	int			level;

	if (GetDatabaseEncoding() != PG_UTF8)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the key vectors are written in a UTF8 database only"),
				 errdetail("Text keys are hashed in the database encoding, and the clients hash UTF-8.")));
	initStringInfo(&out);
	appendStringInfoString(&out, "{\"about\": \"Written by the server from the key-type table "
						   "(src/core/keytypes.c) in sql/key_types.sql: do not edit. For each "
						   "literal of a key type, and the array of them, its canonical bytes and "
						   "hash (h1, h2: MurmurHash3 x64_128, seed 0; hash id 4: RedisBloom's) "
						   "under each hash id a layout hashes that key type with.\",\n");
	appendStringInfo(&out, "\"seed\": %d,\n", BLOOM_VECTOR_SEED);
	bloom_vector_valid(&out);
	appendStringInfoString(&out, "\"row_codes\": [0");
	for (int i = 0; i < bloom_key_type_count && bloom_key_type_table[i].row_code == i + 1; i++)
		appendStringInfo(&out, ", %u", bloom_key_type_table[i].oid);
	appendStringInfoString(&out, "],\n\"key_types\": [");
	for (int i = 0; i < bloom_key_type_count; i++)
		bloom_vector_key_type(&out, &bloom_key_type_table[i], i == 0);
	appendStringInfoString(&out, "],\n\"vectors\": [");
	/* each vector comes with the comma before it: the first's is dropped */
	initStringInfo(&vectors);
	level = bloom_vector_settings();
	for (int i = 0; i < bloom_key_type_count; i++)
		bloom_vectors_of_row(&vectors, &bloom_key_type_table[i], cxt);
	AtEOXact_GUC(true, level);
	appendStringInfo(&out, "%s\n]}", vectors.len > 0 ? vectors.data + 1 : "");
	PG_RETURN_TEXT_P(cstring_to_text(out.data));
}
