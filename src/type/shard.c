/*-------------------------------------------------------------------------
 *
 * shard.c
 *	  Sharded filters: which shard an element belongs to, how many shards a
 *	  capacity needs, and the capacity each shard is built for.
 *
 * A filter is at most BLOOM_MAX_BYTES (about 630 million elements at 1%).
 * Past that, or well before it when whole-value operations (a trigger's
 * update, a union, pg_dump) should stay cheap, the keys are split over a
 * table of filters, one row per shard:
 *
 *		CREATE TABLE t_bf (shard int PRIMARY KEY, bf bloomfilter);
 *		INSERT INTO t_bf
 *			SELECT bf_shard(id, 8), bf_agg(id, bf_shard_capacity(1e9, 8), 0.01)
 *			FROM t GROUP BY 1;
 *		SELECT bf_contains(bf, $1) FROM t_bf WHERE shard = bf_shard($1, 8, 'bigint');
 *
 * The key_type form converts the key as a filter of that key type converts
 * a probe (type/keys/typed.c), so an untyped parameter ('5') lands in the
 * shard of the key it names.  1.2's bf_shard(text, integer) hashed such a
 * parameter as text; 1.3 renames it, so that an untyped key without a
 * key_type is an error asking for a cast.
 *
 * A check reads the index, the row and one block of one shard.
 *
 * The shard hash.  An element becomes the same canonical bytes as for a new
 * filter (hash id 2, so SQL-equal values land in the same shard, as they
 * hash equal inside it) and is hashed with MurmurHash3 x64_128 under a fixed
 * seed of its own, BLOOM_SHARD_SEED; the shard is the high 64 bits of the
 * 128-bit product h2 * nshards.  The shard's filter hashes the same bytes
 * under its own seed (0 unless the user picks one), which is a different
 * function: which shard an element goes to says nothing about where it
 * lands in that shard's filter, so every shard's elements spread over its
 * blocks as a single filter's do, and each shard keeps the sized rate.  If a
 * user does pick BLOOM_SHARD_SEED as a filter seed, the two hashes are the
 * same, and then it matters that the shard comes from h2 while the block
 * comes from h1: the block choice stays independent of the shard.
 * XXX: in that one case the bit positions inside a block start from h2 and
 * so are not strictly independent of the shard; the multiply in the bit
 * sequence spreads them, but only a different seed makes the claim exact.
 *
 * Multiply-shift (rather than h2 % nshards) has no modulo bias and nests:
 * shard s of n shards is exactly shards 2s and 2s + 1 of 2n shards, so a
 * table that grows by doubling can be rebuilt one old shard at a time.
 *
 * The shard of a value is a contract like the filter's hash: a stored table
 * of shards is only right while bf_shard gives the same numbers.  It pins
 * hash id 2 and the seed (not BLOOM_HASH_CURRENT, which a later release may
 * move on); sql/shard.sql pins values.
 *
 * src/type/shard.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "miscadmin.h"

#include "core/blocked.h"
#include "core/sizing.h"
#include "type/keys.h"
#include "type/params.h"

PG_FUNCTION_INFO_V1(bloomfilter_shard);
PG_FUNCTION_INFO_V1(bloomfilter_shard_capacity);
PG_FUNCTION_INFO_V1(bloomfilter_shards_for);

/* "SHRD" read as a little-endian uint32; filters default to seed 0 */
#define BLOOM_SHARD_SEED		UINT32_C(0x44524853)

/*
 * At most 65536 shards: enough for 2^16 full-size filters, far past any
 * table we can build, and it keeps a shard table small enough to cache.
 */
#define BLOOM_MAX_SHARDS		65536

/*
 * Shard capacities carry this many standard deviations of the binomial
 * count of elements a shard gets, so that a shard that draws more than its
 * average share is still within capacity.  Six is a one-in-a-billion excess
 * per shard; at a billion elements in 8 shards it costs 0.05%.
 */
#define BLOOM_SHARD_SIGMAS		6.0

static const BloomHashParams bloom_shard_hash = {
	.seed = BLOOM_SHARD_SEED,
	.hash_id = BLOOM_HASH_MURMUR3_EQ,
};

static void
bloom_check_nshards(int32 nshards)
{
	if (nshards < 1 || nshards > BLOOM_MAX_SHARDS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of shards must be between 1 and %d", BLOOM_MAX_SHARDS),
				 errdetail("The number given was %d.", nshards)));
}

/* the capacity to build each of nshards shards with */
static uint64
bloom_shard_capacity(uint64 capacity, uint32 nshards)
{
	double		p = 1.0 / nshards;
	double		mean = (double) capacity * p;
	double		want = ceil(mean + BLOOM_SHARD_SIGMAS *
							sqrt((double) capacity * p * (1.0 - p)));

	/* a shard never gets more than every element */
	if (want >= (double) capacity)
		return capacity;
	return Max((uint64) want, 1);
}

/* fn_extra of bf_shard: the element's type, the key type given last */
typedef struct BloomShardCache
{
	BloomElemType elem;			/* first: see bloom_fn_cache */
	Oid			given;			/* the key_type argument, or InvalidOid */
	BloomHashParams hash;		/* bloom_shard_hash with its key type */
} BloomShardCache;

/*
 * bf_shard(element, nshards [, key_type]): 0 .. nshards - 1.  With a key
 * type the element is converted to it first, as a probe of a filter of
 * that key type is, so that an untyped parameter ('5' as text) lands in
 * the shard of the key it names.  A value no key of that type equals is in
 * no shard's filter; any shard answers "absent" for it, and it gets 0.
 */
Datum
bloomfilter_shard(PG_FUNCTION_ARGS)
{
	BloomShardCache *c = bloom_fn_cache(fcinfo, 0, false, sizeof(BloomShardCache));
	int32		nshards = PG_GETARG_INT32(1);
	Oid			given = PG_NARGS() > 2 ? PG_GETARG_OID(2) : InvalidOid;
	BloomHash	h;

	bloom_check_nshards(nshards);
	if (!c->hash.seed || c->given != given)
	{
		if (!OidIsValid(given))
			bloom_check_shard_text(fcinfo, c->elem.typid);
		c->hash = bloom_shard_hash;
		c->hash.key_type = OidIsValid(given) ? bloom_key_type_arg(given) : 0;
		/* rows of unknown columns: nothing to convert a probe row's to */
		if (c->hash.key_type == RECORDOID)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("bf_shard cannot convert a key to type record"),
					 errdetail("A row's columns are converted to the key type's columns, and record names none."),
					 errhint("Name a composite type with the columns' types, or pass rows of exactly those types without key_type.")));
		c->given = given;
	}
	if (!bloom_key_hash(&c->elem, PG_GETARG_DATUM(0), c->hash, &h))
		PG_RETURN_INT32(0);
	/* the same multiply-shift that picks a block, on the other word */
	PG_RETURN_INT32((int32) bloom_block_of(h.h2, (uint64) nshards));
}

/* bf_shard_capacity(capacity, nshards): what to build each shard for */
Datum
bloomfilter_shard_capacity(PG_FUNCTION_ARGS)
{
	int64		capacity = PG_GETARG_INT64(0);
	int32		nshards = PG_GETARG_INT32(1);

	bloom_check_capacity(capacity, &bloom_param_rules);
	bloom_check_nshards(nshards);
	PG_RETURN_INT64((int64) bloom_shard_capacity((uint64) capacity, (uint32) nshards));
}

/*
 * bf_shards_for(capacity, error_rate, shard_bytes): the smallest power of
 * two n for which a shard built for bf_shard_capacity(capacity, n) at
 * error_rate is at most shard_bytes stored.  Powers of two so that a table
 * grows by doubling (see the nesting above) and rarely.
 */
Datum
bloomfilter_shards_for(PG_FUNCTION_ARGS)
{
	int64		capacity = PG_GETARG_INT64(0);
	double		error_rate = PG_GETARG_FLOAT8(1);
	int64		shard_bytes = PG_GETARG_INT64(2);

	bloom_check_capacity(capacity, &bloom_param_rules);
	bloom_check_error_rate(error_rate, &bloom_param_rules);
	if (shard_bytes <= 0 || (uint64) shard_bytes > BLOOM_MAX_BYTES + VARHDRSZ)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shard size must be between 1 and %llu bytes",
						(unsigned long long) (BLOOM_MAX_BYTES + VARHDRSZ)),
				 errdetail("The size given was " INT64_FORMAT ".", shard_bytes)));

	for (uint32 n = 1; n <= BLOOM_MAX_SHARDS; n *= 2)
	{
		uint64		nbits;
		int			nhashes;

		/* the stored size, as bf_info's size_bytes and pg_column_size say */
		if (bloom_size(bloom_shard_capacity((uint64) capacity, n), error_rate,
					   &nbits, &nhashes) &&
			VARHDRSZ + BLOOM_HEADER_SIZE + nbits / 8 <= (uint64) shard_bytes)
			PG_RETURN_INT32((int32) n);
		CHECK_FOR_INTERRUPTS();
	}
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("no number of shards up to %d keeps " INT64_FORMAT " elements at error rate %g within " INT64_FORMAT " bytes a shard",
					BLOOM_MAX_SHARDS, capacity, error_rate, shard_bytes)));
}
