/*-------------------------------------------------------------------------
 *
 * cuckoofilter_datum.c
 *	  Reading and writing cuckoofilter values: the forms a datum takes,
 *	  writable copies, growth, merging, and the checks of parameters with
 *	  the errors users see.  Checks of elements go through the probe path
 *	  both filter types share (bloomfilter_probe.c).
 *
 * A cuckoofilter is flat in every form; cf_agg's state is an expanded
 * object holding the flat value (bloomfilter_state.c).  Every read checks
 * the header and the sub-filter directory against the length first
 * (cuckoo_open, O(sub-filters)), so a value damaged since it passed full
 * validation on input raises XX001 instead of sending a read past its end.
 *
 * src/cuckoofilter_datum.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/detoast.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/expandeddatum.h"
#include "utils/memutils.h"

#include "bloomfilter_datum.h"
#include "bloomfilter_elem.h"
#include "cuckoofilter.h"

void
cf_report_corrupt(CuckooCheck check)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("cuckoo filter value is corrupt"),
			 errdetail_internal("%s", cuckoo_check_message(check))));
}

static void
cf_open(const uint8 *bytes, size_t len, CuckooView *v)
{
	CuckooCheck check = cuckoo_open(bytes, len, v);

	if (check != CUCKOO_OK)
		cf_report_corrupt(check);
}

/*
 * The bytes of any form, read-only: the flat value inside cf_agg's state,
 * in line as they are, anything else detoasted into a fresh copy.
 */
const uint8 *
cf_read_bytes(Datum d, size_t *len)
{
	CuckooState *s = cf_state_of(d, false);
	struct varlena *flat = s ? s->flat : PG_DETOAST_DATUM_PACKED(d);

	*len = VARSIZE_ANY_EXHDR(flat);
	return (const uint8 *) VARDATA_ANY(flat);
}

void
cf_read(Datum d, CuckooView *v)
{
	size_t		len;
	const uint8 *bytes = cf_read_bytes(d, &len);

	cf_open(bytes, len, v);
}

CuckooFilter *
cf_copy(Datum d, CuckooView *v)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(d);
	CuckooFilter *cf;

	if (VARATT_IS_EXTENDED(raw))
		cf = PG_DETOAST_DATUM_COPY(d);
	else
	{
		cf = bloom_palloc(CurrentMemoryContext, VARSIZE(raw));
		memcpy(cf, raw, VARSIZE(raw));
	}
	cf_open(CUCKOOFILTER_BYTES(cf), VARSIZE(cf) - VARHDRSZ, v);
	return cf;
}

CuckooFilter *
cf_from_bytes(const uint8 *buf, size_t len, int sqlstate)
{
	CuckooView	v;
	CuckooCheck check = cuckoo_validate(buf, len, &v);
	CuckooFilter *cf;

	if (check != CUCKOO_OK)
		ereport(ERROR,
				(errcode(sqlstate),
				 errmsg("invalid cuckoo filter value"),
				 errdetail_internal("%s", cuckoo_check_message(check))));
	cf = bloom_palloc(CurrentMemoryContext, VARHDRSZ + len);
	SET_VARSIZE(cf, VARHDRSZ + len);
	memcpy(VARDATA(cf), buf, len);
	return cf;
}

CuckooFilter *
cf_create(int64 capacity, double error_rate, int64 seed, MemoryContext cxt)
{
	int			b,
				f;
	uint64		n;
	size_t		len;
	CuckooFilter *cf;

	bloom_check_capacity(capacity, &cuckoo_param_rules);
	bloom_check_error_rate(error_rate, &cuckoo_param_rules);
	bloom_check_seed(seed, &cuckoo_param_rules);
	if (seed >= 1 && seed <= CUCKOO_WEAK_SEED_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cuckoo filter seed must not be between 1 and %d", CUCKOO_WEAK_SEED_MAX),
				 errdetail("MurmurHash3 with a seed equal to a key's length in bytes (8 for every integer key) ties the key's fingerprint to its bucket, and the filter would answer \"present\" for most other keys."),
				 errhint("Use seed 0 or any seed above %d.", CUCKOO_WEAK_SEED_MAX)));
	if (!cuckoo_size((uint64) capacity, error_rate, &b, &f, &n))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoo filter for " INT64_FORMAT " elements at error rate %g is too large",
						capacity, error_rate),
				 errdetail("A cuckoo filter value is limited to %llu bytes.",
						   (unsigned long long) CUCKOO_MAX_BYTES)));
	len = cuckoo_empty_bytes(b, f, n);
	cf = bloom_palloc(cxt, VARHDRSZ + len);
	SET_VARSIZE(cf, VARHDRSZ + len);
	cuckoo_init(CUCKOOFILTER_BYTES(cf), (uint64) capacity, error_rate, (uint32) seed, b, f, n);
	return cf;
}

/* ---- growth and merging ---- */

/* the length of the value in v grown by a sub-filter; 54000 past the limit */
static size_t
cf_grown_len(const CuckooView *v, uint64 nbuckets, int fp_bits)
{
	size_t		len = cuckoo_grown_bytes(v, nbuckets, fp_bits);

	if (len == 0)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoo filter is full"),
				 errdetail("It holds " UINT64_FORMAT " items in %d sub-filters (%zu bytes); another sub-filter of " UINT64_FORMAT " buckets would exceed the limit of %d sub-filters or %llu bytes.",
						   v->hdr.items, v->hdr.nsub, v->len, nbuckets,
						   CUCKOO_MAX_SUBFILTERS, (unsigned long long) CUCKOO_MAX_BYTES),
				 errhint("Create the filter with a larger capacity, or use cf_add_nx to add each element once.")));
	return len;
}

/*
 * The size is checked before anything is allocated.  A value of our own
 * (free_old) is reallocated to the grown length, so the old bytes need no
 * copy, and a large one (its own mapping) is extended by the kernel rather
 * than held twice; another's, such as the aggregate's state that the
 * executor frees, is copied into new memory in cxt.
 */
void
cf_grow(CuckooFilter **cf, CuckooView *v, uint64 nbuckets, int fp_bits,
		MemoryContext cxt, bool free_old)
{
	size_t		len = cf_grown_len(v, nbuckets, fp_bits);
	size_t		oldlen = v->len;
	CuckooFilter *dst;

	CHECK_FOR_INTERRUPTS();
	if (free_old)
	{
		dst = repalloc(*cf, VARHDRSZ + len);
		/* the same bytes, perhaps elsewhere: the view follows them */
		if (cuckoo_open(CUCKOOFILTER_BYTES(dst), oldlen, v) != CUCKOO_OK)
			elog(ERROR, "cuckoo filter changed while growing");
	}
	else
		dst = bloom_palloc(cxt, VARHDRSZ + len);
	SET_VARSIZE(dst, VARHDRSZ + len);
	cuckoo_grow(v, CUCKOOFILTER_BYTES(dst), nbuckets, fp_bits);
	*cf = dst;
}

/*
 * The shape an add that found no room appends (cf_grow reports the size
 * limit); an error if no sub-filter could keep the rate below twice the
 * requested one.
 */
static void
cf_next_growth(const CuckooView *v, uint64 *n, int *f)
{
	CuckooGrowth growth;

	*n = 0;
	*f = 0;
	growth = cuckoo_next_sub(v, n, f);
	if (growth == CUCKOO_GROW_FP_BITS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoo filter is full"),
				 errdetail("It holds " UINT64_FORMAT " items in %d sub-filters; to keep the rate below twice %g, another sub-filter would need fingerprints of more than %d bits or a size over the limit of %llu bytes.",
						   v->hdr.items, v->hdr.nsub, v->hdr.error_rate, CUCKOO_MAX_FP_BITS,
						   (unsigned long long) CUCKOO_MAX_BYTES),
				 errhint("Create the filter with a larger capacity or a higher error rate, or use cf_add_nx to add each element once.")));
	if (growth != CUCKOO_GROW_OK)
		*n = 0;
	if (*f == 0)
		*f = v->sub[v->hdr.nsub - 1].fp_bits;
}

void
cf_add_hash(CuckooFilter **cf, CuckooView *v, BloomHash h, MemoryContext cxt,
			bool free_old)
{
	while (!cuckoo_add(v, h))
	{
		uint64		n;
		int			f;

		cf_next_growth(v, &n, &f);
		cf_grow(cf, v, n, f, cxt, free_old);
		free_old = true;		/* what we grew is ours */
	}
}

static void
cf_describe(StringInfo buf, const CuckooView *v)
{
	appendStringInfo(buf, "%d slots per bucket, " UINT64_FORMAT " buckets of %d-bit fingerprints, seed %u",
					 v->hdr.bucket_size, v->sub[0].nbuckets, v->sub[0].fp_bits, v->hdr.seed);
}

void
cf_check_shape(const CuckooView *a, const CuckooView *b)
{
	StringInfoData da,
				db;

	if (cuckoo_same_shape(a, b))
		return;
	initStringInfo(&da);
	initStringInfo(&db);
	cf_describe(&da, a);
	cf_describe(&db, b);
	ereport(ERROR,
			(errcode(ERRCODE_DATA_EXCEPTION),
			 errmsg("cannot merge cuckoo filters of different shape"),
			 errdetail("The first filter has %s; the second has %s.", da.data, db.data),
			 errhint("Create both filters with the same capacity, error rate and seed.")));
}

/*
 * What cf_check_shape compares, the header and the first sub-filter's
 * descriptor, read from the front of a value of any form (a slice of a
 * stored one, a partial decompression, the flat value inside cf_agg's
 * result), so that a merge of filters that do not match fails before either
 * is copied whole.  Only those fields of v
 * are set; a value too short for them is corrupt.
 */
void
cf_read_shape(Datum d, CuckooView *v)
{
	const Size	need = CUCKOO_HEADER_SIZE + CUCKOO_SUB_HEADER_SIZE;
	CuckooState *s = cf_state_of(d, false);
	struct varlena *raw = s ? s->flat : (struct varlena *) DatumGetPointer(d);
	struct varlena *front = raw;
	const uint8 *bytes;

	if (VARATT_IS_EXTENDED(raw))
		front = detoast_attr_slice(raw, 0, need);
	if (VARSIZE_ANY_EXHDR(front) < need)
		cf_report_corrupt(CUCKOO_BAD_LENGTH);
	bytes = (const uint8 *) VARDATA_ANY(front);
	if (bloom_load32le(bytes) != CUCKOO_MAGIC)
		cf_report_corrupt(CUCKOO_BAD_MAGIC);
	memset(v, 0, offsetof(CuckooView, sub) + sizeof(CuckooSub));
	cuckoo_header_decode(bytes, &v->hdr);
	v->sub[0].nbuckets = bloom_load64le(bytes + CUCKOO_HEADER_SIZE + CUCKOO_SUB_OFF_NBUCKETS);
	v->sub[0].fp_bits = bytes[CUCKOO_HEADER_SIZE + CUCKOO_SUB_OFF_FP_BITS];
	if (front != raw)
		pfree(front);
}

void
cf_merge_into(CuckooFilter **dst, CuckooView *dv, const CuckooView *sv,
			  MemoryContext cxt, bool free_old)
{
	uint64		cursor = 0;
	uint64		n;
	int			f;

	cf_check_shape(dv, sv);
	while (!cuckoo_merge(dv, sv, &cursor, &n, &f))
	{
		cf_grow(dst, dv, n, f, cxt, free_old);
		free_old = true;
	}
}
