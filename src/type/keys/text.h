/*-------------------------------------------------------------------------
 *
 * text.h
 *	  Text: collations, UTF-8 for hash id 5, a string's characters, text
 *	  arguments that hide another type (keys/text.c).
 *
 * src/type/keys/text.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_KEYS_TEXT_H
#define BLOOMFILTER_KEYS_TEXT_H

#include "mb/pg_wchar.h"

#include "type/keys/keytypes.h"

/*
 * Whether a filter of this hash id hashes text converted to UTF-8 here: id
 * 5 in a database of another encoding.  A SQL_ASCII database's text has no
 * known encoding, so its bytes are hashed as they are (PostgreSQL would
 * only check that they are valid UTF-8, and refuse those that are not).
 */
static inline bool
bloom_recodes_text(uint8 hash_id)
{
	int			db;

	if (hash_id != BLOOM_HASH_MURMUR3_UTF8)
		return false;
	db = GetDatabaseEncoding();
	return db != PG_UTF8 && db != PG_SQL_ASCII;
}

extern void bloom_check_collation(BloomElemType *et);
extern void bloom_text_to_utf8(const char **data, size_t *len, void **tofree);
extern char *bloom_key_cstring(BloomElemType *et, Datum value);
extern void bloom_check_implicit_text(FunctionCallInfo fcinfo, int argno,
									  Oid typid);
extern void bloom_check_shard_text(FunctionCallInfo fcinfo, Oid typid);

#endif							/* BLOOMFILTER_KEYS_TEXT_H */
