/*-------------------------------------------------------------------------
 *
 * guava_io.c
 *	  bf_to_guava and bf_from_guava: a Guava-layout bloomfilter as the bytes
 *	  of Guava's BloomFilter.writeTo, and such bytes as a bloomfilter.
 *
 * The layout and the byte conversions are core/guava.c's; this is the SQL
 * side: reading the values, the key type a filter read from Guava gets,
 * and the errors.
 *
 * src/type/guava_io.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"

#include "core/guava.h"
#include "type/keys.h"
#include "type/value.h"

PG_FUNCTION_INFO_V1(bloomfilter_to_guava);
PG_FUNCTION_INFO_V1(bloomfilter_from_guava);

/* bf_to_guava(bloomfilter) -> bytea: what Guava's writeTo writes */
Datum
bloomfilter_to_guava(PG_FUNCTION_ARGS)
{
	BloomView	v;
	uint64		len;
	bytea	   *out;

	bloom_read(PG_GETARG_DATUM(0), &v);
	/* hash id 3 is the Guava layout's own (core/header.c) */
	if (v.hdr.hash_id != BLOOM_HASH_GUAVA)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("only a bloom filter of layout guava has a Guava form"),
				 errdetail("The filter has layout %s.", v.layout->name),
				 errhint("Build the filter with bf_create(capacity, error_rate, layout => 'guava', key_type => ...) or bf_from_guava.")));
	len = bloom_guava_serialized_bytes(&v.hdr);
	out = bloom_palloc(CurrentMemoryContext, VARHDRSZ + len);
	SET_VARSIZE(out, VARHDRSZ + len);
	bloom_guava_write(&v.hdr, v.payload, (uint8 *) VARDATA(out));
	PG_RETURN_BYTEA_P(out);
}

/*
 * bf_from_guava(bytea, key_type regtype) -> bloomfilter: what Guava's
 * readFrom reads, with the funnel named by its key type.
 */
Datum
bloomfilter_from_guava(PG_FUNCTION_ARGS)
{
	bytea	   *in = PG_GETARG_BYTEA_PP(0);
	Oid			typid = PG_GETARG_OID(1);
	uint32		key_type = bloom_key_type_arg(typid);
	const uint8 *bytes = (const uint8 *) VARDATA_ANY(in);
	size_t		len = VARSIZE_ANY_EXHDR(in);
	int			nhashes = 0;
	uint64		nlongs = 0;
	BloomGuavaCheck check;
	BloomHeader hdr;
	BloomFilter *bf;

	if (!bloom_guava_key_type(key_type))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("a Guava filter cannot have keys of type %s", format_type_be(typid)),
				 errhint("Give the type of the funnel the filter was built with: bigint (Funnels.longFunnel), integer (integerFunnel), text (stringFunnel(UTF_8)) or bytea (byteArrayFunnel).")));
	check = bloom_guava_read_prefix(bytes, len, &nhashes, &nlongs);
	if (check == BLOOM_GUAVA_TOO_LARGE)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("Guava filter of " UINT64_FORMAT " longs is too large", nlongs),
				 errdetail("A bloom filter value is limited to %llu bytes.",
						   (unsigned long long) BLOOM_MAX_BYTES)));
	if (check == BLOOM_GUAVA_OLD_STRATEGY)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("Guava filters of strategy MURMUR128_MITZ_32 are not supported"),
				 errdetail("%s", bloom_guava_check_message(check)),
				 errhint("Rebuild the filter with BloomFilter.create, which uses MURMUR128_MITZ_64.")));
	if (check != BLOOM_GUAVA_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid serialized Guava bloom filter"),
				 errdetail("%s", bloom_guava_check_message(check))));
	bf = bloom_palloc(CurrentMemoryContext, BLOOMFILTER_SIZE(nlongs * 8));
	SET_VARSIZE(bf, BLOOMFILTER_SIZE(nlongs * 8));
	bloom_guava_read(bytes, nhashes, nlongs, key_type, &hdr, BLOOMFILTER_PAYLOAD(bf));
	bloom_set_header(bf, &hdr);
	PG_FREE_IF_COPY(in, 0);
	PG_RETURN_POINTER(bf);
}
