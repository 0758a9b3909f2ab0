/*-------------------------------------------------------------------------
 *
 * datetime.h
 *	  Dates and times: interval bytes, date/timestamp conversions, text read
 *	  under every setting (keys/datetime.c).
 *
 * src/type/keys/datetime.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMFILTER_KEYS_DATETIME_H
#define BLOOMFILTER_KEYS_DATETIME_H

#include "type/keys/keytypes.h"

extern bool bloom_key_ts_date(Datum value, Datum *out);
extern bool bloom_key_date_ts(Datum value, Datum *out);
extern Datum bloom_key_read(BloomElemType *et, char *str);

#endif							/* BLOOMFILTER_KEYS_DATETIME_H */
