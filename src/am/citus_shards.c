/*-------------------------------------------------------------------------
 *
 * citus_shards.c
 *	  The bf_index_* functions on a Citus table's index: the shards' indexes
 *	  asked on the nodes that hold them.
 *
 * CREATE INDEX on a distributed, reference or Citus local table builds the
 * index on every shard (named <index>_<shardid>, in the index's schema, on
 * the node of each placement) and on the table's shell, which holds no
 * rows (am/citus.c).  A call on the coordinator (or on a worker that has
 * Citus's metadata) with the shell's index asks the shards instead:
 *
 *	- bf_index_contains and bf_index_contains_all send each shard the keys
 *	  that may be in it: when the index is on the distribution column of a
 *	  hash- or range-distributed table and the key has the column's type
 *	  (or is text, which Citus and the typed-key rules both read with the
 *	  column type's input), only the key's shard, found by Citus's own
 *	  get_shard_id_for_distribution_column; otherwise every shard.  A key is
 *	  present if a shard's index says so.
 *	- bf_index_filter is the union of the shards' filters (bf_union_agg,
 *	  which refuses shards of different shapes with 22000, naming both).
 *	- bf_index_info lists the shards' infos and adds them up, as for a
 *	  partitioned index.
 *
 * How: with SPI, through Citus's catalogs (pg_dist_partition, pg_dist_shard,
 * pg_dist_placement, pg_dist_node) and its UDF master_run_on_worker, which
 * runs one command per placement, in parallel, as the calling user, over
 * Citus's connections; so this library has no link-time dependency on
 * Citus and loads and runs without it.  The shards and placements are read
 * at every call, so calls follow shard moves, splits and rebalances.  One
 * active primary placement per shard is asked (a reference table has one on
 * every node; the one of the lowest group).  Privileges and row-level
 * security are checked on the shell first (am/functions.c), as a query on
 * the table checks them, and again by each node for its shard.
 *
 * XXX A key given as an anonymous row (ROW(a, b) for a multi-column index)
 * has no text form a node could read back, and is refused: cast it to a
 * composite type of the columns.
 *
 * src/am/citus_shards.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"

#include "am/index.h"

/* one shard of the table: its index on the node of one placement */
typedef struct BloomAmShard
{
	int64		shardid;
	char	   *node;
	int32		port;
	char	   *index;			/* the shard's index, qualified and quoted */
} BloomAmShard;

/* the shards and what the calls send them */
typedef struct BloomAmShards
{
	int			nshards;
	BloomAmShard *shards;
	const char *nsp;			/* bloomfilter's schema, quoted */
	MemoryContext cxt;			/* the caller's, where results go */
} BloomAmShards;

/* a command to run through SPI; the caller's memory for the results */
static void
bloom_am_spi(const char *sql, int nargs, Oid *types, Datum *values, int expect)
{
	int			rc = SPI_execute_with_args(sql, nargs, types, values, NULL, false, 0);

	if (rc != SPI_OK_SELECT || (expect >= 0 && SPI_processed != (uint64) expect))
		elog(ERROR, "could not read Citus's metadata: %s", SPI_result_code_string(rc));
}

static char *
bloom_am_spi_text(int row, int col, MemoryContext cxt)
{
	char	   *v = SPI_getvalue(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col);

	return v == NULL ? NULL : MemoryContextStrdup(cxt, v);
}

/* every shard of the table, with the node of one active primary placement */
static void
bloom_am_shards_read(BloomAmShards *s, Relation index, Oid heapoid)
{
	Oid			types[1] = {OIDOID};
	Datum		values[1] = {ObjectIdGetDatum(heapoid)};
	const char *schema = get_namespace_name(RelationGetNamespace(index));

	bloom_am_spi("SELECT s.shardid, pl.nodename, pl.nodeport"
				 " FROM pg_catalog.pg_dist_shard s CROSS JOIN LATERAL"
				 " (SELECT n.nodename, n.nodeport FROM pg_catalog.pg_dist_placement p"
				 "  JOIN pg_catalog.pg_dist_node n ON n.groupid = p.groupid"
				 "  WHERE p.shardid = s.shardid AND n.isactive AND n.noderole = 'primary'"
				 "  ORDER BY n.groupid LIMIT 1) pl"
				 " WHERE s.logicalrelid = $1 ORDER BY s.shardid",
				 1, types, values, -1);
	s->nshards = (int) SPI_processed;
	s->shards = MemoryContextAlloc(s->cxt, sizeof(BloomAmShard) * Max(s->nshards, 1));
	for (int i = 0; i < s->nshards; i++)
	{
		BloomAmShard *sh = &s->shards[i];
		char	   *name;

		sh->shardid = pg_strtoint64(bloom_am_spi_text(i, 1, s->cxt));
		sh->node = bloom_am_spi_text(i, 2, s->cxt);
		sh->port = pg_strtoint32(bloom_am_spi_text(i, 3, s->cxt));
		name = psprintf("%s_" INT64_FORMAT, RelationGetRelationName(index), sh->shardid);
		sh->index = MemoryContextStrdup(s->cxt,
										quote_literal_cstr(quote_qualified_identifier(schema, name)));
	}
}

/*
 * Run one command per shard listed (cmds[i] for s->shards[which[i]]) through
 * master_run_on_worker, in parallel; the results, in order, as text.  A
 * command that failed on its node is reported with the node's message.
 */
static char **
bloom_am_shards_run(BloomAmShards *s, Relation index, int n, const int *which, char **cmds)
{
	Datum	   *nodes = palloc(sizeof(Datum) * Max(n, 1));
	Datum	   *ports = palloc(sizeof(Datum) * Max(n, 1));
	Datum	   *texts = palloc(sizeof(Datum) * Max(n, 1));
	Oid			types[3] = {TEXTARRAYOID, INT4ARRAYOID, TEXTARRAYOID};
	Datum		values[3];
	char	  **results = MemoryContextAlloc(s->cxt, sizeof(char *) * Max(n, 1));

	for (int i = 0; i < n; i++)
	{
		nodes[i] = CStringGetTextDatum(s->shards[which[i]].node);
		ports[i] = Int32GetDatum(s->shards[which[i]].port);
		texts[i] = CStringGetTextDatum(cmds[i]);
	}
	values[0] = PointerGetDatum(construct_array(nodes, n, TEXTOID, -1, false, TYPALIGN_INT));
	values[1] = PointerGetDatum(construct_array(ports, n, INT4OID, 4, true, TYPALIGN_INT));
	values[2] = PointerGetDatum(construct_array(texts, n, TEXTOID, -1, false, TYPALIGN_INT));
	bloom_am_spi("SELECT r.success, r.result FROM pg_catalog.master_run_on_worker($1, $2, $3, true)"
				 " WITH ORDINALITY r(node_name, node_port, success, result, i) ORDER BY r.i",
				 3, types, values, n);
	for (int i = 0; i < n; i++)
	{
		const BloomAmShard *sh = &s->shards[which[i]];
		char	   *ok = bloom_am_spi_text(i, 1, s->cxt);

		results[i] = bloom_am_spi_text(i, 2, s->cxt);
		if (ok == NULL || strcmp(ok, "t") != 0)
		{
			const char *msg = results[i] ? results[i] : "The node returned no result.";

			/* the node's message as Citus passes it on: "ERROR:  ..." */
			if (strncmp(msg, "ERROR:  ", 8) == 0)
				msg += 8;
			ereport(ERROR,
					(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
					 errmsg("shard " INT64_FORMAT " of bloomfilter index \"%s\" could not be asked on node %s:%d",
							sh->shardid, RelationGetRelationName(index), sh->node, sh->port),
					 errdetail("The node reported: %s", msg)));
		}
	}
	return results;
}

static void
bloom_am_shards_begin(BloomAmShards *s, Relation index, Oid heapoid, Oid fnoid)
{
	s->cxt = CurrentMemoryContext;
	s->nsp = quote_identifier(get_namespace_name(get_func_namespace(fnoid)));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	bloom_am_shards_read(s, index, heapoid);
}

/*
 * Whether a key of type keytype can be sent to its shard alone: the index
 * is on the distribution column of a table Citus hashes or ranges by it,
 * and the key has the column's type (a domain over it included) or is
 * text.  Otherwise a key that equals a column value in the typed-key
 * rules (an int4 probe of an int8 column, a numeric) might be read
 * differently by Citus's text round trip, so every shard is asked.
 */
static bool
bloom_am_shards_routable(Relation index, Oid heapoid, Oid keytype)
{
	Oid			types[1] = {OIDOID};
	Datum		values[1] = {ObjectIdGetDatum(heapoid)};
	AttrNumber	attno = index->rd_index->indkey.values[0];
	char	   *method;
	char	   *column;

	if (IndexRelationGetNumberOfKeyAttributes(index) != 1 || attno == 0 ||
		RelationGetIndexPredicate(index) != NIL)
		return false;
	bloom_am_spi("SELECT p.partmethod::text, pg_catalog.column_to_column_name(p.logicalrelid, p.partkey)"
				 " FROM pg_catalog.pg_dist_partition p WHERE p.logicalrelid = $1",
				 1, types, values, 1);
	method = bloom_am_spi_text(0, 1, CurrentMemoryContext);
	column = bloom_am_spi_text(0, 2, CurrentMemoryContext);
	if (method == NULL || column == NULL ||
		(strcmp(method, "h") != 0 && strcmp(method, "r") != 0) ||
		strcmp(column, get_attname(heapoid, attno, false)) != 0)
		return false;
	return getBaseType(keytype) == get_atttype(heapoid, attno) || keytype == TEXTOID;
}

/*
 * The shard of each key to ask (NULL ones not asked): Citus's answer, in
 * the keys' order.  shard_of[i] is an index into s->shards.
 */
static void
bloom_am_shards_route(BloomAmShards *s, Oid heapoid, Oid keytype, int n,
					  const Datum *keys, const bool *ask, int *shard_of)
{
	Oid			types[2] = {OIDOID, get_array_type(keytype)};
	Datum		values[2];
	Datum	   *asked = palloc(sizeof(Datum) * Max(n, 1));
	int			nasked = 0;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	int			row = 0;

	get_typlenbyvalalign(keytype, &typlen, &typbyval, &typalign);
	for (int i = 0; i < n; i++)
		if (ask[i])
			asked[nasked++] = keys[i];
	values[0] = ObjectIdGetDatum(heapoid);
	values[1] = PointerGetDatum(construct_array(asked, nasked, keytype, typlen, typbyval,
												typalign));
	bloom_am_spi("SELECT pg_catalog.get_shard_id_for_distribution_column($1, u.k)"
				 " FROM pg_catalog.unnest($2) WITH ORDINALITY u(k, i) ORDER BY u.i",
				 2, types, values, nasked);
	for (int i = 0; i < n; i++)
	{
		int64		shardid;

		shard_of[i] = -1;
		if (!ask[i])
			continue;
		shardid = pg_strtoint64(bloom_am_spi_text(row++, 1, CurrentMemoryContext));
		for (int j = 0; j < s->nshards; j++)
			if (s->shards[j].shardid == shardid)
				shard_of[i] = j;
		if (shard_of[i] < 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("shard " INT64_FORMAT " of table \"%s\" has no active placement",
							shardid, get_rel_name(heapoid))));
	}
}

/*
 * The command that asks one shard's index for the keys chosen
 * (shard_of[i] == shard, or every asked key for shard -1): one
 * bf_index_contains_all of the keys as an array literal of their type,
 * under the call's collation.  NULL when no key is for this shard.
 */
static char *
bloom_am_shards_command(BloomAmShards *s, int shard, Oid keytype, Oid collation, int n,
						const Datum *keys, const bool *ask, const int *shard_of,
						int ofshard, int *count)
{
	Oid			arraytype = get_array_type(keytype);
	Datum	   *chosen = palloc(sizeof(Datum) * Max(n, 1));
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Oid			outfn;
	bool		varlena;
	StringInfoData cmd;

	*count = 0;
	get_typlenbyvalalign(keytype, &typlen, &typbyval, &typalign);
	for (int i = 0; i < n; i++)
		if (ask[i] && (ofshard < 0 || shard_of[i] == ofshard))
			chosen[(*count)++] = keys[i];
	if (*count == 0)
		return NULL;			/* no key of this shard's */
	getTypeOutputInfo(arraytype, &outfn, &varlena);
	initStringInfo(&cmd);
	appendStringInfo(&cmd, "SELECT %s.bf_index_contains_all(%s::pg_catalog.regclass, (%s::%s",
					 s->nsp, s->shards[shard].index,
					 quote_literal_cstr(OidOutputFunctionCall(outfn,
															  PointerGetDatum(construct_array(chosen, *count, keytype,
																							  typlen, typbyval, typalign)))),
					 format_type_extended(arraytype, -1, FORMAT_TYPE_FORCE_QUALIFY));
	if (OidIsValid(collation) && collation != DEFAULT_COLLATION_OID &&
		type_is_collatable(keytype))
		appendStringInfo(&cmd, " COLLATE %s", generate_collation_name(collation));
	appendStringInfoString(&cmd, "))");
	return cmd.data;
}

/*
 * The answers a shard sent for the keys it was asked ("{t,f,...}", one a
 * key, in order), or-ed into answers[].
 */
static void
bloom_am_shards_answers(const char *result, int n, const bool *ask, const int *shard_of,
						int ofshard, Datum *answers)
{
	const char *p = result;

	if (*p++ != '{')
		elog(ERROR, "unexpected answer from a shard: \"%s\"", result);
	for (int i = 0; i < n; i++)
	{
		if (!ask[i] || (ofshard >= 0 && shard_of[i] != ofshard))
			continue;
		if (*p == 't')
			answers[i] = BoolGetDatum(true);
		else if (*p != 'f')
			elog(ERROR, "unexpected answer from a shard: \"%s\"", result);
		p++;
		if (*p == ',')
			p++;
	}
	if (*p != '}')
		elog(ERROR, "unexpected answer from a shard: \"%s\"", result);
}

/*
 * bf_index_contains(_all) of a Citus table's index (opened, its shell
 * locked): the keys ask[] marks (not NULL, and equal to some value of the
 * column's type) asked of the shards that may hold them; answers[] (false
 * on entry) or-ed with theirs.
 */
void
bloom_am_citus_contains(Relation index, Oid heapoid, Oid fnoid, Oid keytype,
						Oid collation, int n, const Datum *keys, const bool *ask,
						Datum *answers)
{
	BloomAmShards s;
	int		   *shard_of = palloc(sizeof(int) * Max(n, 1));
	int		   *which;
	char	  **cmds;
	int		   *counts;
	int			ncmds = 0;
	bool		routed;
	int			nasked = 0;

	for (int i = 0; i < n; i++)
		nasked += ask[i];
	if (nasked == 0)
		return;
	if (keytype == RECORDOID || !OidIsValid(get_array_type(keytype)))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("a key of type %s cannot be sent to the shards of Citus table \"%s\"",
						format_type_be(keytype), get_rel_name(heapoid)),
				 errhint("Cast a row to a composite type of the index's columns.")));
	bloom_am_shards_begin(&s, index, heapoid, fnoid);
	routed = bloom_am_shards_routable(index, heapoid, keytype);
	if (routed)
		bloom_am_shards_route(&s, heapoid, keytype, n, keys, ask, shard_of);
	which = palloc(sizeof(int) * Max(s.nshards, 1));
	cmds = palloc(sizeof(char *) * Max(s.nshards, 1));
	counts = palloc(sizeof(int) * Max(s.nshards, 1));
	for (int j = 0; j < s.nshards; j++)
	{
		cmds[ncmds] = bloom_am_shards_command(&s, j, keytype, collation, n, keys, ask,
											  shard_of, routed ? j : -1, &counts[ncmds]);
		if (counts[ncmds] == 0)
			continue;
		which[ncmds++] = j;
	}
	{
		char	  **results = bloom_am_shards_run(&s, index, ncmds, which, cmds);

		for (int c = 0; c < ncmds; c++)
			bloom_am_shards_answers(results[c], n, ask, shard_of, routed ? which[c] : -1,
									answers);
	}
	SPI_finish();
}

/* one command per shard: fmt with the bloomfilter schema and the shard's index */
static char **
bloom_am_shards_all(BloomAmShards *s, Relation index, const char *fmt, int **which)
{
	char	  **cmds = palloc(sizeof(char *) * Max(s->nshards, 1));

	*which = palloc(sizeof(int) * Max(s->nshards, 1));
	for (int j = 0; j < s->nshards; j++)
	{
		cmds[j] = psprintf(fmt, s->nsp, s->shards[j].index);
		(*which)[j] = j;
	}
	return bloom_am_shards_run(s, index, s->nshards, *which, cmds);
}

static Datum
bloom_am_texts(char **texts, int n)
{
	Datum	   *d = palloc(sizeof(Datum) * Max(n, 1));

	for (int i = 0; i < n; i++)
		d[i] = CStringGetTextDatum(texts[i]);
	return PointerGetDatum(construct_array(d, n, TEXTOID, -1, false, TYPALIGN_INT));
}

/*
 * bf_index_filter of a Citus table's index: the union of the shards'
 * filters, by bf_union_agg (22000 naming both shapes where two differ).
 */
Datum
bloom_am_citus_filter(Relation index, Oid heapoid, Oid fnoid)
{
	BloomAmShards s;
	int		   *which;
	char	  **results;
	Oid			types[1] = {TEXTARRAYOID};
	Datum		values[1];
	bool		isnull;
	Datum		bf;

	bloom_am_shards_begin(&s, index, heapoid, fnoid);
	if (s.nshards == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("Citus table \"%s\" has no shards", get_rel_name(heapoid))));
	results = bloom_am_shards_all(&s, index,
								  "SELECT %s.bf_index_filter(%s::pg_catalog.regclass)", &which);
	values[0] = bloom_am_texts(results, s.nshards);
	bloom_am_spi(psprintf("SELECT %s.bf_union_agg(u.f::%s.bloomfilter ORDER BY u.i)"
						  " FROM pg_catalog.unnest($1) WITH ORDINALITY u(f, i)", s.nsp, s.nsp),
				 1, types, values, 1);
	bf = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	bf = SPI_datumTransfer(bf, false, -1);
	SPI_finish();
	return bf;
}

/*
 * bf_index_info of a Citus table's index: each shard's info under "leaves"
 * with its shard id and node, and the same totals as a partitioned index
 * gives (am/functions.c): counts summed, fpp the rate at which a key in no
 * shard is reported by at least one, flags or-ed.
 */
Datum
bloom_am_citus_info(Relation index, Oid heapoid, Oid fnoid)
{
	BloomAmShards s;
	int		   *which;
	char	  **results;
	char	  **ids;
	char	  **nodes;
	Oid			types[3] = {TEXTARRAYOID, TEXTARRAYOID, TEXTARRAYOID};
	Datum		values[3];
	bool		isnull;
	Datum		info;

	bloom_am_shards_begin(&s, index, heapoid, fnoid);
	results = bloom_am_shards_all(&s, index, "SELECT %s.bf_index_info(%s::pg_catalog.regclass)",
								  &which);
	ids = palloc(sizeof(char *) * Max(s.nshards, 1));
	nodes = palloc(sizeof(char *) * Max(s.nshards, 1));
	for (int j = 0; j < s.nshards; j++)
	{
		ids[j] = psprintf(INT64_FORMAT, s.shards[j].shardid);
		nodes[j] = psprintf("%s:%d", s.shards[j].node, s.shards[j].port);
	}
	values[0] = bloom_am_texts(results, s.nshards);
	values[1] = bloom_am_texts(ids, s.nshards);
	values[2] = bloom_am_texts(nodes, s.nshards);
	/* unnest of several arrays is FROM-clause syntax, not a function to qualify */
	bloom_am_spi("SELECT pg_catalog.jsonb_build_object("
				 " 'shards', pg_catalog.count(*),"
				 " 'leaves', coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('shard', u.id::int8, 'node', u.node) || u.j ORDER BY u.o), '[]'),"
				 " 'same_shape', pg_catalog.count(*) > 0 AND pg_catalog.count(DISTINCT pg_catalog.jsonb_build_array(u.j->'nbits', u.j->'nhashes', u.j->'seed', u.j->'hash')) = 1,"
				 " 'options', (pg_catalog.array_agg(u.j->'options' ORDER BY u.o))[1],"
				 " 'bits_set', coalesce(pg_catalog.sum((u.j->>'bits_set')::numeric), 0),"
				 " 'cardinality', coalesce(pg_catalog.sum((u.j->>'cardinality')::numeric), 0),"
				 " 'fpp', 1 - coalesce(pg_catalog.exp(pg_catalog.sum(pg_catalog.ln(greatest(1 - (u.j->>'fpp')::float8, 1e-300)))), 1),"
				 " 'rows_at_build', coalesce(pg_catalog.sum((u.j->>'rows_at_build')::numeric), 0),"
				 " 'keys_at_build', coalesce(pg_catalog.sum((u.j->>'keys_at_build')::numeric), 0),"
				 " 'deleted_since_build', coalesce(pg_catalog.sum((u.j->>'deleted_since_build')::numeric), 0),"
				 " 'updated_since_build', coalesce(pg_catalog.sum((u.j->>'updated_since_build')::numeric), 0),"
				 " 'data_pages', coalesce(pg_catalog.sum((u.j->>'data_pages')::numeric), 0),"
				 " 'size_bytes', coalesce(pg_catalog.sum((u.j->>'size_bytes')::numeric), 0),"
				 " 'over_capacity', coalesce(pg_catalog.bool_or((u.j->>'over_capacity')::boolean), false),"
				 " 'reindex_recommended', coalesce(pg_catalog.bool_or((u.j->>'reindex_recommended')::boolean), false))"
				 " FROM (SELECT t.info::jsonb AS j, t.id, t.node, t.o"
				 "       FROM unnest($1, $2, $3) WITH ORDINALITY t(info, id, node, o)) u",
				 3, types, values, 1);
	info = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	info = SPI_datumTransfer(info, false, -1);
	SPI_finish();
	return info;
}
