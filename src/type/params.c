/*-------------------------------------------------------------------------
 *
 * params.c
 *	  The checks of the parameters of new filters of either type (capacity,
 *	  rate, seed, expansion), with the errors users see.  Each kind sizes
 *	  and makes its filters itself (type/kind_bloom.c,
 *	  type/kind_cuckoo.c).
 *
 * src/type/params.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "core/cuckoo.h"
#include "core/header.h"
#include "type/params.h"

/*
 * The parameter checks both filter types share.  Each type's rules name it
 * in the messages, which read as they have since 1.0 ("bloom filter
 * capacity must be positive", "cuckoo filter ..."), and give the smallest
 * error rate its sizing is exact for.
 */
const BloomParamRules bloom_param_rules = {"bloom filter", BLOOM_MIN_ERROR_RATE};
const BloomParamRules cuckoo_param_rules = {"cuckoo filter", CUCKOO_MIN_ERROR_RATE};

void
bloom_check_capacity(int64 capacity, const BloomParamRules *rules)
{
	if (capacity <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s capacity must be positive", rules->type_name),
				 errdetail("The capacity given was " INT64_FORMAT ".", capacity)));
}

void
bloom_check_error_rate(double error_rate, const BloomParamRules *rules)
{
	if (!(error_rate > 0.0 && error_rate < 1.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s error rate must be greater than 0 and less than 1",
						rules->type_name),
				 errdetail("The error rate given was %g.", error_rate)));
	if (error_rate < rules->min_error_rate)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s error rate %g is below the supported minimum of %g",
						rules->type_name, error_rate, rules->min_error_rate)));
}

/* a seed is stored as 32 bits; SQL passes bigint so that all of them fit */
void
bloom_check_seed(int64 seed, const BloomParamRules *rules)
{
	if (seed < 0 || seed > (int64) PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s seed must be between 0 and %u", rules->type_name,
						PG_UINT32_MAX)));
}

/*
 * bf_create's expansion: 0 for a filter of fixed size, else the growth
 * factor of a scalable filter's sub-filters.
 */
void
bloom_check_expansion(int32 expansion)
{
	if (expansion < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter expansion must not be negative"),
				 errhint("Use 0 for a filter of fixed size.")));
	if (expansion > BLOOM_MAX_EXPANSION)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter expansion %d is out of range", expansion),
				 errdetail("A scalable filter grows each sub-filter by a factor between 1 and %d.",
						   BLOOM_MAX_EXPANSION)));
}
