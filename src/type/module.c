/*-------------------------------------------------------------------------
 *
 * module.c
 *	  The module: its magic block, and what loading it sets up (each
 *	  filter kind's entry checked complete, the core's hooks, the
 *	  settings).
 *
 * src/type/module.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"

#include "core/header.h"
#include "type/agg.h"
#include "type/kind.h"
#include "type/kind_bloom.h"
#include "type/kind_cuckoo.h"
#include "type/held.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

static void
bloom_check_interrupts_hook(void)
{
	CHECK_FOR_INTERRUPTS();
}

static void
bloom_check_kind(const BloomKind *kind)
{
	const char *problem = bloom_kind_problem(kind);

	if (problem != NULL)
		elog(ERROR, "filter kind %s lacks %s", kind->type_name, problem);
}

/* core/header.h: whether this database's text is UTF-8 already */
static bool
bloom_database_is_utf8(void)
{
	return GetDatabaseEncoding() == PG_UTF8;
}

void
_PG_init(void)
{
	/* a kind without one of its operations would crash where it is called */
	bloom_check_kind(&bloomfilter_kind);
	bloom_check_kind(&cuckoofilter_kind);
	/* the core's long loops answer a cancel through this */
	bloom_interrupt_hook = bloom_check_interrupts_hook;
	bloom_text_is_utf8 = bloom_database_is_utf8;
	bloom_hashes_define_guc();
	bloom_held_define_guc();
}
