/*-------------------------------------------------------------------------
 *
 * bloomfilter_create.c
 *	  New filters from a user's parameters, and the checks of what callers
 *	  pass in (capacity, rate, seed, expansion, shapes of operands), with
 *	  the errors users see.
 *
 * src/bloomfilter_create.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "bloom_blocked.h"
#include "bloom_cuckoo.h"
#include "bloomfilter_datum.h"

/* a new scalable filter: one empty sub-filter, more as elements arrive */
BloomFilter *
bloom_new_scalable(int64 capacity, double error_rate, int64 seed, int32 expansion)
{
	BloomHeader hdr;
	uint64		payload_bytes;
	BloomFilter *bf;

	bloom_check_expansion(expansion);
	if (expansion == 0)
		elog(ERROR, "a scalable bloom filter needs a positive expansion");
	/* the parameter checks and errors of a fixed filter of the same request */
	bloom_header_for(&hdr, capacity, error_rate, seed, BLOOM_LAYOUT_BLOCKED512);
	if (error_rate / 2 < BLOOM_MIN_ERROR_RATE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter error rate %g is too small for a scalable filter", error_rate),
				 errdetail("Its first sub-filter is sized for half the rate, which must be at least %g.",
						   BLOOM_MIN_ERROR_RATE)));
	if (!bloom_scalable_header(&hdr, (uint64) capacity, error_rate, (uint32) seed,
							   (uint32) expansion, &payload_bytes))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("scalable bloom filter for " INT64_FORMAT " elements at error rate %g is too large",
						capacity, error_rate),
				 errdetail("Its first sub-filter, sized for half the rate, exceeds the limit of %llu bytes.",
						   (unsigned long long) BLOOM_MAX_BYTES)));
	bf = bloom_palloc(CurrentMemoryContext, BLOOMFILTER_SIZE(payload_bytes));
	SET_VARSIZE(bf, BLOOMFILTER_SIZE(payload_bytes));
	bloom_scalable_init(&hdr, (uint32) expansion, BLOOMFILTER_PAYLOAD(bf));
	bloom_set_header(bf, &hdr);
	return bf;
}
/* ---- checks of what callers pass in ---- */

/*
 * The parameter checks both filter types share.  Each type's rules name it
 * in the messages, which read as they have since 1.0 ("bloom filter
 * capacity must be positive", "cuckoo filter ..."), and give the smallest
 * error rate its sizing is exact for.
 */
const BloomParamRules bloom_param_rules = {"bloom filter", BLOOM_MIN_ERROR_RATE};
const BloomParamRules cuckoo_param_rules = {"cuckoo filter", CUCKOO_MIN_ERROR_RATE};

void
bloom_check_capacity(int64 capacity, const BloomParamRules *rules)
{
	if (capacity <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s capacity must be positive", rules->type_name),
				 errdetail("The capacity given was " INT64_FORMAT ".", capacity)));
}

void
bloom_check_error_rate(double error_rate, const BloomParamRules *rules)
{
	if (!(error_rate > 0.0 && error_rate < 1.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s error rate must be greater than 0 and less than 1",
						rules->type_name),
				 errdetail("The error rate given was %g.", error_rate)));
	if (error_rate < rules->min_error_rate)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s error rate %g is below the supported minimum of %g",
						rules->type_name, error_rate, rules->min_error_rate)));
}

/* a seed is stored as 32 bits; SQL passes bigint so that all of them fit */
void
bloom_check_seed(int64 seed, const BloomParamRules *rules)
{
	if (seed < 0 || seed > (int64) PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s seed must be between 0 and %u", rules->type_name,
						PG_UINT32_MAX)));
}

/*
 * bf_create's expansion: 0 for a filter of fixed size, else the growth
 * factor of a scalable filter's sub-filters.
 */
void
bloom_check_expansion(int32 expansion)
{
	if (expansion < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter expansion must not be negative"),
				 errhint("Use 0 for a filter of fixed size.")));
	if (expansion > BLOOM_MAX_EXPANSION)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter expansion %d is out of range", expansion),
				 errdetail("A scalable filter grows each sub-filter by a factor between 1 and %d.",
						   BLOOM_MAX_EXPANSION)));
}

/*
 * The header of a new, empty filter of the given layout for capacity
 * elements at error_rate.  Every layout so far sizes its cells as the
 * blocked layout does; a counting filter holds four bits per cell.
 */
void
bloom_header_for(BloomHeader *hdr, int64 capacity, double error_rate, int64 seed,
				 uint8 layout)
{
	uint64		nbits;
	int			nhashes;
	bool		fits;

	bloom_check_capacity(capacity, &bloom_param_rules);
	bloom_check_error_rate(error_rate, &bloom_param_rules);
	bloom_check_seed(seed, &bloom_param_rules);
	fits = bloom_size((uint64) capacity, error_rate, &nbits, &nhashes);
	if (fits)
	{
		bloom_header_init(hdr, (uint64) capacity, error_rate, (uint32) seed, nbits, nhashes);
		hdr->layout = layout;
		fits = bloom_layout_for(layout)->check_header(hdr, bloom_layout_for(layout)->payload_bytes(hdr)) == BLOOM_OK;
	}
	if (!fits)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom filter for " INT64_FORMAT " elements at error rate %g is too large",
						capacity, error_rate),
				 errdetail("A bloom filter value is limited to %llu bytes.",
						   (unsigned long long) BLOOM_MAX_BYTES)));
}

/* a value's shape as its layout describes it, and its hash if not current */
static void
bloom_describe(StringInfo buf, const BloomHeader *h)
{
	char		text[BLOOM_DESCRIBE_MAX];

	bloom_layout_for(h->layout)->describe(h, text, sizeof(text));
	appendStringInfoString(buf, text);
	if (h->hash_id != BLOOM_HASH_CURRENT)
		appendStringInfo(buf, ", hash id %d", h->hash_id);
}

/*
 * The hint of a shape error: a hash id of its own, then a layout that
 * combines with others (a list of hashes), then layouts that differ, then
 * what the layout of both says.
 */
static int
bloom_shape_hint(const BloomHeader *a, const BloomHeader *b)
{
	const BloomLayout *la = bloom_layout_for(a->layout);
	const BloomLayout *lb = bloom_layout_for(b->layout);

	if (a->hash_id != b->hash_id)
		return errhint("Filters made by bloomfilter 1.1 or earlier (hash id 1) combine only with each other; rebuild them with bf_agg to combine them with newer ones.");
	if (la->holds_hashes)
		return errhint("%s", la->shape_hint);
	if (lb->holds_hashes)
		return errhint("%s", lb->shape_hint);
	if (la != lb)
		return errhint("Filters combine only with filters of the same layout.");
	return errhint("%s", la->shape_hint);
}

void
bloom_check_shape(const BloomHeader *a, const BloomHeader *b, bool intersect)
{
	if (!bloom_same_shape(a, b))
		bloom_shape_error(a, b, intersect);
}

/*
 * Refuse a union into dst (dst_payload, which may be the result's copy) of
 * src whose result would not keep the error rate: a scalable filter's
 * sub-filter that would hold more than it was sized for.  Nothing can
 * repair that afterwards, so it is an error, not a silent rise in the rate.
 * 54000, as for a filter that cannot grow: the operands hold more than the
 * value can at its rate; with fewer elements the same union works.
 */
void
bloom_check_union_rate(const BloomView *dst, const uint8 *dst_payload, const BloomView *src)
{
	double		fpp;
	double		limit;
	int			part;

	if (dst->layout->union_overfills == NULL)
		return;
	part = dst->layout->union_overfills(&dst->hdr, dst_payload, &src->hdr, src->payload,
										&fpp, &limit);
	if (part < 0)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("union of %s bloom filters would exceed their error rate", dst->layout->name),
			 errdetail("Sub-filter %d of the union would hold more elements than it was sized for: its estimated false-positive rate would be %.3g, above its share %.3g of the error rate %g.",
					   part, fpp, limit, dst->hdr.error_rate),
			 errhint("Add the elements to one filter instead (bf_add_all(filter, ARRAY(SELECT ...))), build the filter with a single aggregate (bf_agg(element) or bf_agg(element, template)), or use plain filters sized for the total (bf_create(total, error_rate)), whose unions are exact.")));
}

void
bloom_shape_error(const BloomHeader *a, const BloomHeader *b, bool intersect)
{
	StringInfoData da,
				db;

	initStringInfo(&da);
	initStringInfo(&db);
	bloom_describe(&da, a);
	bloom_describe(&db, b);
	if (intersect)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("cannot intersect bloom filters of different shape"),
				 errdetail("The first filter has %s; the second has %s.", da.data, db.data),
				 bloom_shape_hint(a, b)));
	ereport(ERROR,
			(errcode(ERRCODE_DATA_EXCEPTION),
			 errmsg("cannot union bloom filters of different shape"),
			 errdetail("The first filter has %s; the second has %s.", da.data, db.data),
			 bloom_shape_hint(a, b)));
}

