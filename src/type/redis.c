/*-------------------------------------------------------------------------
 *
 * redis.c
 *	  A RedisBloom filter's dump: bf_to_redisbloom and bf_from_redisbloom.
 *
 * Redis moves a Bloom filter in chunks: BF.SCANDUMP key iter hands out
 * (iter, chunk) pairs, BF.LOADCHUNK key iter chunk takes them back.  The
 * first pair is (1, the chain header); each further chunk is a slice of
 * one link's bytes, at most RB_SCANDUMP_MAX bytes, whose iter is one more
 * than the offset just past it in the links' bytes laid end to end (a
 * chunk never spans two links); SCANDUMP ends with (0, empty).  A value of
 * layout 6 holds the chain header and then the links' bytes
 * (core/redisbloom.c), so a dump is slices of it and a dump read back is
 * its pieces put in place.
 *
 * Reading a dump refuses (22P03) what BF.LOADCHUNK would refuse, and what
 * it would take but leave a filter that answers otherwise: a header
 * RedisBloom or this layout rejects, a chunk outside the links or across
 * two, bytes given twice or never, anything after the last link.
 *
 * src/type/redis.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "type/keys.h"
#include "type/kind_bloom.h"
#include "type/value.h"

PG_FUNCTION_INFO_V1(bloomfilter_to_redisbloom);
PG_FUNCTION_INFO_V1(bloomfilter_from_redisbloom);

/* BF.SCANDUMP's largest chunk in RedisBloom 2.4 (MAX_SCANDUMP_SIZE) */
#define RB_SCANDUMP_MAX		(16 * 1024 * 1024)

/* the header chunk's iter, and the end of a dump */
#define RB_ITER_HEAD		1
#define RB_ITER_DONE		0

/* one chunk of a dump to hand out: where it lies in the payload */
typedef struct RbChunkOut
{
	int64		iter;
	uint64		offset;
	uint64		len;
} RbChunkOut;

typedef struct RbDumpState
{
	const uint8 *payload;
	RbChunkOut *chunks;
	int			nchunks;
} RbDumpState;

pg_noreturn static void
rb_not_redis(const char *fname)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s takes a filter of layout redisbloom", fname),
			 errhint("Make one with bf_create(capacity, error_rate, layout => 'redisbloom') or read one with bf_from_redisbloom.")));
}

/* the chunks BF.SCANDUMP would hand out for the value in v */
static RbDumpState *
rb_dump_plan(const BloomView *v)
{
	RbDumpState *st = palloc0(sizeof(RbDumpState));
	uint64		head = bloom_redis_head_bytes(&v->hdr);
	uint64		data = 0;
	int			max = 1;

	for (int i = 0; i < v->hdr.nhashes; i++)
		max += (int) ((bloom_redis_link_bytes(v->payload, i) + RB_SCANDUMP_MAX - 1) /
					  RB_SCANDUMP_MAX);
	st->payload = v->payload;
	st->chunks = palloc(sizeof(RbChunkOut) * max);
	st->chunks[st->nchunks++] = (RbChunkOut)
	{
		RB_ITER_HEAD, 0, head
	};
	for (int i = 0; i < v->hdr.nhashes; i++)
	{
		uint64		link_end = data + bloom_redis_link_bytes(v->payload, i);

		while (data < link_end)
		{
			uint64		len = Min(link_end - data, (uint64) RB_SCANDUMP_MAX);

			st->chunks[st->nchunks++] = (RbChunkOut)
			{
				(int64) (RB_ITER_HEAD + data + len), head + data, len
			};
			data += len;
		}
	}
	return st;
}

/*
 * bf_to_redisbloom(filter): the (iter, chunk) rows that BF.LOADCHUNK takes,
 * in order, to make the same filter in Redis; the rows BF.SCANDUMP of that
 * filter hands out, but its final (0, empty).
 */
Datum
bloomfilter_to_redisbloom(PG_FUNCTION_ARGS)
{
	FuncCallContext *fctx;
	RbDumpState *st;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext old;
		TupleDesc	desc;
		BloomView	v;

		fctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(fctx->multi_call_memory_ctx);
		bloom_read(PG_GETARG_DATUM(0), &v);
		if (v.hdr.layout != BLOOM_LAYOUT_REDISBLOOM)
			rb_not_redis("bf_to_redisbloom");
		if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "bf_to_redisbloom must return a row type");
		fctx->tuple_desc = BlessTupleDesc(desc);
		fctx->user_fctx = rb_dump_plan(&v);
		MemoryContextSwitchTo(old);
	}
	fctx = SRF_PERCALL_SETUP();
	st = fctx->user_fctx;
	if (fctx->call_cntr < (uint64) st->nchunks)
	{
		const RbChunkOut *c = &st->chunks[fctx->call_cntr];
		bytea	   *chunk = palloc(VARHDRSZ + c->len);
		Datum		values[2];
		bool		nulls[2] = {false, false};

		SET_VARSIZE(chunk, VARHDRSZ + c->len);
		memcpy(VARDATA(chunk), st->payload + c->offset, c->len);
		values[0] = Int64GetDatum(c->iter);
		values[1] = PointerGetDatum(chunk);
		SRF_RETURN_NEXT(fctx, HeapTupleGetDatum(heap_form_tuple(fctx->tuple_desc,
																values, nulls)));
	}
	SRF_RETURN_DONE(fctx);
}

/* ---- reading a dump ---- */

pg_noreturn static void
rb_bad_dump(const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg("invalid RedisBloom dump"),
			 errdetail_internal("%s", detail)));
}

typedef struct RbChunkIn
{
	int64		iter;
	bytea	   *chunk;
} RbChunkIn;

static int
rb_chunk_cmp(const void *a, const void *b, void *arg)
{
	int64		x = ((const RbChunkIn *) a)->iter;
	int64		y = ((const RbChunkIn *) b)->iter;

	(void) arg;
	return x < y ? -1 : x > y;
}

/* the pairs of the two arrays, in order of iter; NULLs and strays refused */
static RbChunkIn *
rb_dump_pairs(ArrayType *iters, ArrayType *chunks, int *n)
{
	Datum	   *iv,
			   *cv;
	bool	   *in,
			   *cn;
	int			ni,
				nc;
	RbChunkIn  *pairs;

	deconstruct_array(iters, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &iv, &in, &ni);
	deconstruct_array(chunks, BYTEAOID, -1, false, TYPALIGN_INT, &cv, &cn, &nc);
	if (ni != nc)
		rb_bad_dump(psprintf("There are %d iters and %d chunks; a dump pairs each iter with one chunk.",
							 ni, nc));
	pairs = palloc(sizeof(RbChunkIn) * Max(ni, 1));
	*n = 0;
	for (int i = 0; i < ni; i++)
	{
		bytea	   *chunk;

		CHECK_FOR_INTERRUPTS();
		if (in[i] || cn[i])
			rb_bad_dump("An iter or a chunk is NULL.");
		chunk = DatumGetByteaPP(cv[i]);
		/* the (0, empty) pair that ends BF.SCANDUMP's replies carries nothing */
		if (DatumGetInt64(iv[i]) == RB_ITER_DONE && VARSIZE_ANY_EXHDR(chunk) == 0)
			continue;
		if (DatumGetInt64(iv[i]) < RB_ITER_HEAD)
			rb_bad_dump("An iter is below 1 and is not the end of a dump, (0, empty).");
		pairs[*n].iter = DatumGetInt64(iv[i]);
		pairs[(*n)++].chunk = chunk;
	}
	qsort_interruptible(pairs, *n, sizeof(RbChunkIn), rb_chunk_cmp, NULL);
	return pairs;
}

/*
 * The links' bytes from the data chunks pairs[1..n-1] into the payload
 * after its chain header: each chunk where its iter puts it, within one
 * link, the chunks together covering every byte exactly once.
 */
static void
rb_dump_fill(const BloomHeader *hdr, uint8 *payload, const RbChunkIn *pairs, int n)
{
	uint64		head = bloom_redis_head_bytes(hdr);
	uint64		total = hdr->nbits / 8;
	uint64		at = 0;
	uint64		link_end = 0;
	int			link = -1;

	for (int i = 1; i < n; i++)
	{
		uint64		len = VARSIZE_ANY_EXHDR(pairs[i].chunk);
		uint64		start;

		if (len == 0)
			rb_bad_dump("A data chunk is empty.");
		if ((uint64) pairs[i].iter - RB_ITER_HEAD < len)
			rb_bad_dump(psprintf("The chunk of iter " INT64_FORMAT " is longer than its iter allows.",
								 pairs[i].iter));
		start = (uint64) pairs[i].iter - RB_ITER_HEAD - len;
		if (start < at)
			rb_bad_dump(psprintf("The chunk of iter " INT64_FORMAT " overlaps the one before it.",
								 pairs[i].iter));
		if (start > at)
			rb_bad_dump(psprintf("Bytes %llu to %llu of the links are in no chunk.",
								 (unsigned long long) at, (unsigned long long) start - 1));
		if (start + len > total)
			rb_bad_dump(psprintf("The chunk of iter " INT64_FORMAT " ends past the last link.",
								 pairs[i].iter));
		while (start >= link_end)
			link_end += bloom_redis_link_bytes(payload, (uint32) ++link);
		if (start + len > link_end)
			rb_bad_dump(psprintf("The chunk of iter " INT64_FORMAT " spans two links.",
								 pairs[i].iter));
		memcpy(payload + head + start, VARDATA_ANY(pairs[i].chunk), len);
		at = start + len;
		CHECK_FOR_INTERRUPTS();
	}
	if (at != total)
		rb_bad_dump(psprintf("The chunks hold %llu of the %llu bytes of the links.",
							 (unsigned long long) at, (unsigned long long) total));
}

/*
 * bf_from_redisbloom(iters, chunks [, key_type]): the filter whose dump
 * BF.SCANDUMP handed out as these (iter, chunk) pairs, in any order, its
 * final (0, empty) pair optional; of key type key_type (NULL: untyped).
 */
Datum
bloomfilter_from_redisbloom(PG_FUNCTION_ARGS)
{
	RbChunkIn  *pairs;
	int			n;
	BloomHeader hdr;
	BloomCheck	check;
	BloomFilter *bf;
	uint64		payload_bytes;
	size_t		head_len;
	const char *why;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	pairs = rb_dump_pairs(PG_GETARG_ARRAYTYPE_P(0), PG_GETARG_ARRAYTYPE_P(1), &n);
	if (n == 0 || pairs[0].iter != RB_ITER_HEAD)
		rb_bad_dump("The dump has no header chunk (iter 1).");
	head_len = VARSIZE_ANY_EXHDR(pairs[0].chunk);
	check = bloom_redis_read_head((const uint8 *) VARDATA_ANY(pairs[0].chunk), head_len, &hdr, &why);
	if (check != BLOOM_OK)
		rb_bad_dump(why);
	if (PG_NARGS() > 2 && !PG_ARGISNULL(2))
	{
		hdr.key_type = bloom_key_type_arg(PG_GETARG_OID(2));
		bloom_check_layout_key_type(&hdr, hdr.key_type);
	}
	payload_bytes = bloom_total_bytes(&hdr) - BLOOM_HEADER_SIZE;
	bf = bloom_palloc(CurrentMemoryContext, BLOOMFILTER_SIZE(payload_bytes));
	SET_VARSIZE(bf, BLOOMFILTER_SIZE(payload_bytes));
	memcpy(BLOOMFILTER_PAYLOAD(bf), VARDATA_ANY(pairs[0].chunk), head_len);
	rb_dump_fill(&hdr, BLOOMFILTER_PAYLOAD(bf), pairs, n);
	hdr.bits_set = bloom_redis_count_bits(&hdr, BLOOMFILTER_PAYLOAD(bf));
	bloom_set_header(bf, &hdr);
	check = bloom_validate(bf->data, VARSIZE(bf) - VARHDRSZ, &hdr);
	if (check != BLOOM_OK)
		rb_bad_dump(bloom_check_message(check));
	PG_RETURN_BLOOMFILTER_P(bf);
}
