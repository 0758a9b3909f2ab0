/*-------------------------------------------------------------------------
 *
 * keys.h
 *	  What a SQL value becomes before it is hashed: the door of the keys
 *	  modules (src/type/keys/), for the rest of the glue and the index.
 *
 * A value's canonical bytes and hash (keys/canon.h), the key type a filter
 * records and the conversion of a value of another type to it
 * (keys/typed.h), the element type a call site keeps (keys/cache.h), and
 * what they share (keys/keytypes.h).  Each module's header declares its
 * own functions; this one declares none, so that a caller needs one
 * include and the modules stay apart.
 *
 * src/type/keys.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_ELEM_H
#define BLOOMFILTER_ELEM_H

#include "type/keys/keytypes.h"
#include "type/keys/canon.h"
#include "type/keys/typed.h"
#include "type/keys/cache.h"
#include "type/keys/rows.h"
#include "type/keys/text.h"

#endif							/* BLOOMFILTER_ELEM_H */
