/*-------------------------------------------------------------------------
 *
 * probe.h
 *	  Checks of elements against a filter of either type (type/probe.c):
 *	  what loading the module sets up for them.
 *
 * src/type/probe.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_PROBE_H
#define BLOOMFILTER_PROBE_H

/* bloomfilter.cache_memory and bloomfilter.session_cache_memory */
extern void bloom_probe_define_guc(void);

#endif							/* BLOOMFILTER_PROBE_H */
