/*-------------------------------------------------------------------------
 *
 * module.c
 *	  The module: its magic block, what loading it sets up, and the check
 *	  that every filter kind's entry is complete.
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
#include "type/kind.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

static void
bloom_check_interrupts_hook(void)
{
	CHECK_FOR_INTERRUPTS();
}

/* a member an entry must set: its name if it does not */
#define BLOOM_KIND_NEEDS(kind, member) \
	do { if ((kind)->member == NULL) return #member; } while (0)

/*
 * What a kind's entry lacks, NULL if nothing: every member of BloomKind
 * (scripts/check-kinds.py holds this list to the struct).
 */
const char *
bloom_kind_problem(const BloomKind *kind)
{
	BLOOM_KIND_NEEDS(kind, type_name);
	BLOOM_KIND_NEEDS(kind, invalid_value_msg);
	BLOOM_KIND_NEEDS(kind, shape_union_msg);
	BLOOM_KIND_NEEDS(kind, shape_intersect_msg);
	BLOOM_KIND_NEEDS(kind, set_key_type_msg);
	if (kind->create_nstrict < 2 || kind->create_key_arg < kind->create_nstrict)
		return "create_nstrict";
	BLOOM_KIND_NEEDS(kind, open);
	BLOOM_KIND_NEEDS(kind, dir_next);
	BLOOM_KIND_NEEDS(kind, dir_predict);
	BLOOM_KIND_NEEDS(kind, read_bytes);
	BLOOM_KIND_NEEDS(kind, corrupt_length);
	BLOOM_KIND_NEEDS(kind, validate);
	BLOOM_KIND_NEEDS(kind, out_bytes);
	BLOOM_KIND_NEEDS(kind, read);
	BLOOM_KIND_NEEDS(kind, look);
	BLOOM_KIND_NEEDS(kind, copy);
	BLOOM_KIND_NEEDS(kind, adopt);
	BLOOM_KIND_NEEDS(kind, finish);
	BLOOM_KIND_NEEDS(kind, hash_params);
	BLOOM_KIND_NEEDS(kind, is_empty);
	BLOOM_KIND_NEEDS(kind, set_key_type);
	BLOOM_KIND_NEEDS(kind, test);
	BLOOM_KIND_NEEDS(kind, add);
	BLOOM_KIND_NEEDS(kind, check_removable);
	BLOOM_KIND_NEEDS(kind, remove);
	BLOOM_KIND_NEEDS(kind, look_shape);
	BLOOM_KIND_NEEDS(kind, check_combine);
	BLOOM_KIND_NEEDS(kind, into_second);
	BLOOM_KIND_NEEDS(kind, combine);
	BLOOM_KIND_NEEDS(kind, shape_hint);
	BLOOM_KIND_NEEDS(kind, describe);
	BLOOM_KIND_NEEDS(kind, fpp);
	BLOOM_KIND_NEEDS(kind, info);
	BLOOM_KIND_NEEDS(kind, facts);
	BLOOM_KIND_NEEDS(kind, create);
	return NULL;
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
	bloom_probe_define_guc();
}
