/*-------------------------------------------------------------------------
 *
 * cuckoofilter.h
 *	  The cuckoofilter varlena type.
 *
 * On disk a cuckoofilter is the varlena length word followed by the bytes
 * of core/cuckoo.c (48-byte header, then the sub-filters), with no
 * padding; nothing reads it through a struct cast.  The core reads every
 * field byte-wise, so a short (1-byte) varlena header needs no copy.  How
 * a value is read and changed is its kind's business (type/kind_cuckoo.h).
 *
 * src/type/cuckoofilter.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef CUCKOOFILTER_H
#define CUCKOOFILTER_H

#include "postgres.h"

#include "core/cuckoo.h"
#include "type/compat.h"

typedef struct varlena CuckooFilter;

#define CUCKOOFILTER_BYTES(cf)		((uint8 *) VARDATA(cf))

#endif							/* CUCKOOFILTER_H */
