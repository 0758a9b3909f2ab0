/*-------------------------------------------------------------------------
 *
 * unit.h
 *	  What every C unit test shares: the tally of checks and CHECK, which
 *	  counts a condition and prints where it failed.
 *
 * Each test program is one translation unit and includes this once.
 *
 * test/unit.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdio.h>

static int	passed = 0;
static int	failed = 0;

#define CHECK(cond, ...) \
	do { \
		if (cond) \
			passed++; \
		else \
		{ \
			failed++; \
			printf("FAIL %s:%d: ", __FILE__, __LINE__); \
			printf(__VA_ARGS__); \
			printf("\n"); \
		} \
	} while (0)

#endif							/* UNIT_H */
