/*-------------------------------------------------------------------------
 *
 * keytypes.c
 *	  The key types: the element kind of a SQL type (how its canonical bytes
 *	  are made), the key type a filter records for it, and the refusals.
 *
 * Everything else in keys/ starts from what is decided here, once per call
 * site: which canonical form a type's values take (its element kind, in a
 * BloomElemType), and which key type a filter of its values records.  A
 * type no filter can hash is refused here too, with the one message each
 * refusal has, whichever path found it.
 *
 * src/type/keys/keytypes.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "type/keys/keytypes.h"

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

/*
 * The kinds of the types that have no row of their own in the key-type
 * table (or whose row is an array's or a record's, which need more than a
 * kind): enums, arrays, composites, and the rest, hashed by their send
 * output by filters of hash id 1 alone.
 */
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
		et->kind = BLOOM_ELEM_SEND;
}

/* the kinds every hash id hashes by their own bytes, never by send output */
static bool
bloom_kind_hashes_own_bytes(BloomElemKind kind)
{
	switch (kind)
	{
		case BLOOM_ELEM_INT2:
		case BLOOM_ELEM_INT4:
		case BLOOM_ELEM_INT8:
		case BLOOM_ELEM_TEXT:
		case BLOOM_ELEM_BPCHAR:
		case BLOOM_ELEM_NAME:
		case BLOOM_ELEM_CSTRING:
		case BLOOM_ELEM_UUID:
			return true;
		default:
			return false;
	}
}

void
bloom_elem_init(BloomElemType *et, Oid typid, Oid collation, MemoryContext mcxt)
{
	Oid			base = getBaseType(typid);
	const BloomKeyType *kt = bloom_key_type_find(base);

	memset(et, 0, sizeof(*et));
	et->typid = typid;
	et->base_typid = base;
	et->mcxt = mcxt;
	et->collation = collation;
	et->nondeterministic = OidIsValid(collation) &&
		!get_collation_isdeterministic(collation);
	get_typlenbyvalalign(typid, &et->typlen, &et->typbyval, &et->typalign);
	et->key_typid = bloom_key_type_of(typid);
	/* No filter has this key type, so the first hash at a call site plans. */
	et->plan_key = PG_UINT32_MAX;

	if (kt != NULL && kt->kind != BLOOM_ELEM_ARRAY && kt->kind != BLOOM_ELEM_RECORD)
	{
		et->kind = (BloomElemKind) kt->kind;
		/* a key type hashed by its send output has one output per value */
		et->send_is_canonical = kt->kind == BLOOM_ELEM_SEND;
	}
	else if (base == UNKNOWNOID || base == CSTRINGOID)
		et->kind = BLOOM_ELEM_CSTRING;	/* a literal inside ROW(): text */
	else
		bloom_elem_init_other(et, base, collation, mcxt);
	/* hash id 1 hashes the other kinds by their send output */
	if (!bloom_kind_hashes_own_bytes(et->kind))
		bloom_elem_init_send(et, typid);
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

/* the settings the input function of key type key reads (BLOOM_READS_*) */
uint8
bloom_key_reads(Oid key)
{
	Oid			elem = get_element_type(key);
	const BloomKeyType *kt;

	if (OidIsValid(elem))
		return bloom_key_reads(elem);
	kt = bloom_key_type_find(key);
	return kt != NULL ? kt->reads : 0;
}
