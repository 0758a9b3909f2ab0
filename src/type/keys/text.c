/*-------------------------------------------------------------------------
 *
 * text.c
 *	  Text: collations, the UTF-8 form of hash id 5, the characters of a
 *	  string for an input function, and text arguments that hide another type.
 *
 * Strings are the keys most often converted: a literal or parameter reaches
 * the text overloads whatever type the user meant, and a citext value
 * reaches them through an implicit cast.  The checks that keep such calls
 * honest, and the encoding and collation rules of text keys, live here.
 *
 * src/type/keys/text.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "nodes/nodeFuncs.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "type/keys/text.h"

void
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
 * Text of the database's encoding as UTF-8, for hash id 5: the bytes in
 * *data and *len replaced by the converted string, which *tofree then
 * owns.  ASCII is the same in every server encoding, so only text with a
 * byte above 127 is converted.
 */
void
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

/* the characters of a text-like value, for an input function */
char *
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
