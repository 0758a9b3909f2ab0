/*-------------------------------------------------------------------------
 *
 * bloomfilter.c
 *	  The module: its magic block and what loading it sets up.
 *
 * src/bloomfilter.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"

#include "bloom_core.h"
#include "bloomfilter_datum.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

static void
bloom_check_interrupts_hook(void)
{
	CHECK_FOR_INTERRUPTS();
}

void
_PG_init(void)
{
	/* the core's long loops answer a cancel through this */
	bloom_interrupt_hook = bloom_check_interrupts_hook;
	bloom_hashes_define_guc();
}
