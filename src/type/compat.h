/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  What differs between the PostgreSQL major versions bloomfilter builds
 *	  against (15 to 19), in one place.
 *
 * Include it after postgres.h.  The code is written in the newest server's
 * terms; each entry here supplies them to older servers, naming the release
 * that changed.  `make check-versions` builds and tests every version.
 *
 * src/type/compat.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_COMPAT_H
#define BLOOM_COMPAT_H

#if PG_VERSION_NUM < 150000
#error "bloomfilter needs PostgreSQL 15 or later"
#endif

/*
 * 16 moved the varlena macros (VARSIZE, VARATT_IS_*, struct varatt_external)
 * from postgres.h into varatt.h.  postgres.h still includes it on 16 to 18;
 * naming it keeps us building if a release stops doing so.
 */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * 18 replaced the postfix pg_attribute_noreturn() with pg_noreturn, written
 * before the declaration (C11 _Noreturn).  Before 18, GCC and Clang take the
 * attribute in front as well; other compilers get nothing, as they did.
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

/*
 * 18 replaced init_toast_snapshot(), which fills a caller's SnapshotData,
 * with get_toast_snapshot(), which returns one.  BLOOM_TOAST_SNAPSHOT(space)
 * is the snapshot to read TOAST chunks with (access/toast_internals.h),
 * space a SnapshotData that older servers fill.
 */
#if PG_VERSION_NUM >= 180000
#define BLOOM_TOAST_SNAPSHOT(space)	((void) (space), get_toast_snapshot())
#else
#define BLOOM_TOAST_SNAPSHOT(space)	(init_toast_snapshot(space), (Snapshot) (space))
#endif

/*
 * 16 renamed a relation's RelFileNode (rd_node) to RelFileLocator
 * (rd_locator), which ReadRecentBuffer takes.
 */
#if PG_VERSION_NUM >= 160000
#define BLOOM_REL_LOCATOR(rel)	((rel)->rd_locator)
#else
#define BLOOM_REL_LOCATOR(rel)	((rel)->rd_node)
#endif

/*
 * 19 moved an array element type's length, by-value flag and alignment from
 * array_iter_next() to array_iter_setup() (utils/arrayaccess.h), which now
 * works the alignment out once.  The callers give them to both macros; each
 * server gets them where it takes them.
 */
#if PG_VERSION_NUM >= 190000
#define BLOOM_ARRAY_ITER_SETUP(it, arr, len, byval, align) \
	array_iter_setup((it), (arr), (len), (byval), (align))
#define BLOOM_ARRAY_ITER_NEXT(it, isnull, i, len, byval, align) \
	array_iter_next((it), (isnull), (i))
#else
#define BLOOM_ARRAY_ITER_SETUP(it, arr, len, byval, align) \
	array_iter_setup((it), (arr))
#define BLOOM_ARRAY_ITER_NEXT(it, isnull, i, len, byval, align) \
	array_iter_next((it), (isnull), (i), (len), (byval), (align))
#endif

/*
 * 19 gave pushJsonbValue() a JsonbInState (utils/jsonb.h), which holds the
 * stack of open containers and, once the outermost is closed, the result;
 * before, it took that stack (JsonbParseState **) and returned the value
 * each push completed.  A jsonb object being built is a BloomJsonbBuild,
 * zeroed, passed by address to pushJsonbValue on every server:
 * BLOOM_JSONB_OPEN(b) is the innermost open container's state (its contVal
 * says whether it is a list), BLOOM_JSONB_CLOSE(b, tok) closes the
 * outermost with tok and is the finished JsonbValue.
 */
#if PG_VERSION_NUM >= 190000
typedef struct JsonbInState BloomJsonbBuild;
#define BLOOM_JSONB_OPEN(b)			((b)->parseState)
#define BLOOM_JSONB_CLOSE(b, tok)	(pushJsonbValue((b), (tok), NULL), (b)->result)
#else
typedef struct JsonbParseState *BloomJsonbBuild;
#define BLOOM_JSONB_OPEN(b)			(*(b))
#define BLOOM_JSONB_CLOSE(b, tok)	pushJsonbValue((b), (tok), NULL)
#endif

/*
 * 16's soft input errors are handled where they are reported:
 * BLOOM_INPUT_ERROR in type/io.c (errsave on 16+, ereport on 15).
 */

#endif							/* BLOOM_COMPAT_H */
