/*-------------------------------------------------------------------------
 *
 * info.c
 *	  bf_info and cf_info: a filter's header and shape as a jsonb object,
 *	  which the filter's kind fills through the builder of type/jsonb.c.
 *
 * src/type/info.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "type/jsonb.h"
#include "type/kind.h"
#include "type/kind_bloom.h"
#include "type/kind_cuckoo.h"

PG_FUNCTION_INFO_V1(bloomfilter_info);
PG_FUNCTION_INFO_V1(cuckoofilter_info);

static Datum
bloom_info_kind(FunctionCallInfo fcinfo, const BloomKind *kind)
{
	BloomValue	val;
	BloomJson	js;

	kind->read(PG_GETARG_DATUM(0), &val);
	kind->info(&val, &js);
	PG_RETURN_JSONB_P(bloom_json_end(&js));
}

Datum
bloomfilter_info(PG_FUNCTION_ARGS)
{
	return bloom_info_kind(fcinfo, &bloomfilter_kind);
}

Datum
cuckoofilter_info(PG_FUNCTION_ARGS)
{
	return bloom_info_kind(fcinfo, &cuckoofilter_kind);
}
