/*-------------------------------------------------------------------------
 *
 * sizing.h
 *	  Sizing of a blocked Bloom filter: the exact false-positive model and
 *	  the choice of blocks and k for a capacity and an error rate.
 *
 * Plain C without server headers, like core/header.h.  See core/sizing.c.
 *
 * src/core/sizing.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_SIZING_H
#define BLOOM_SIZING_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Size a filter for capacity elements at error_rate: the fewest bits, and
 * the k for them, whose modelled rate at capacity is at most
 * BLOOM_SIZING_MARGIN of the request.  Returns false when that would exceed
 * BLOOM_MAX_BYTES.  The caller has checked capacity >= 1 and
 * BLOOM_MIN_ERROR_RATE <= error_rate < 1.  Remembers recent answers.
 */
extern bool bloom_size(uint64_t capacity, double error_rate,
					   uint64_t *nbits, int *nhashes);

/* the same search without the cache of recent answers */
extern bool bloom_size_search(uint64_t capacity, double error_rate,
							  uint64_t *nbits, int *nhashes);

/*
 * The original search (bisection over blocks, the model evaluated from
 * scratch for every probe): the reference bloom_size must agree with on
 * every input, kept for the tests (and slow: it is the reference).
 */
extern bool bloom_size_exhaustive(uint64_t capacity, double error_rate,
								  uint64_t *nbits, int *nhashes);

/* the k with the lowest modelled rate for nblocks blocks, and that rate */
extern double bloom_best_k(double n, uint64_t nblocks, int *best_k);

/* modelled false-positive rate of nblocks blocks holding n elements */
extern double bloom_model_fpp(double n, uint64_t nblocks, int nhashes);

/* the same double as bloom_model_fpp, from bloom_size's tables (tests) */
extern double bloom_model_fpp_cached(double n, uint64_t nblocks, int nhashes);

#endif							/* BLOOM_SIZING_H */
