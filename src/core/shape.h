/*-------------------------------------------------------------------------
 *
 * shape.h
 *	  The shape of an empty filter: its header and the few bytes of its
 *	  payload that are not zero, without the zeros (core/shape.c), which
 *	  bf_shape returns as a bytea.
 *
 * src/core/shape.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_SHAPE_H
#define BLOOM_SHAPE_H

#include "core/header.h"

extern size_t bloom_shape_encode(const uint8_t *filter, size_t len, uint8_t *shape);
extern BloomCheck bloom_shape_check(const uint8_t *shape, size_t len, BloomHeader *hdr);
extern BloomCheck bloom_shape_fill(const uint8_t *shape, size_t len,
								   const BloomHeader *hdr, uint8_t *payload);

#endif							/* BLOOM_SHAPE_H */
