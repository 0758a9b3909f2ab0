/*-------------------------------------------------------------------------
 *
 * params.h
 *	  The checks of the parameters of new filters of either type (capacity,
 *	  rate, seed, expansion), with the errors users see (type/params.c).
 *
 * src/type/params.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_PARAMS_H
#define BLOOMFILTER_PARAMS_H

#include "postgres.h"

/*
 * A filter type's rules for the parameters both types share: its name in
 * messages and the smallest error rate it sizes for.
 */
typedef struct BloomParamRules
{
	const char *type_name;
	double		min_error_rate;
} BloomParamRules;

extern const BloomParamRules bloom_param_rules;
extern const BloomParamRules cuckoo_param_rules;

extern void bloom_check_capacity(int64 capacity, const BloomParamRules *rules);
extern void bloom_check_error_rate(double error_rate, const BloomParamRules *rules);
extern void bloom_check_seed(int64 seed, const BloomParamRules *rules);
extern void bloom_check_expansion(int32 expansion);

#endif							/* BLOOMFILTER_PARAMS_H */
