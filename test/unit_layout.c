/*-------------------------------------------------------------------------
 *
 * unit_layout.c
 *	  The layout table: every registered entry is complete, and a layout
 *	  added as CONTRIBUTING.md says (one file, test/unit_layout_toy.c, plus
 *	  its id and registry line, built in with BLOOM_TOY_LAYOUT) is reached
 *	  through the table alone: validation, adds, checks, counts, unions and
 *	  intersections, shape comparison, description and bf_info's members.
 *
 * Nothing here names the toy's table or callbacks: what works here works
 * because bloom_layout_for(BLOOM_LAYOUT_TOY) finds the entry.
 *
 * test/unit_layout.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/header.h"

#include <stdlib.h>
#include <string.h>

#include "unit.h"

#define TOY_NBITS		4096
#define TOY_K			3
#define TOY_SEED		7
#define TOY_MEMBERS		300

/* ---- a sink that writes a layout's bf_info members as JSON text ---- */

#define TEXT_MAX_DEPTH	8

typedef struct TextSink
{
	BloomInfoSink sink;
	char		text[1024];
	size_t		len;
	bool		first;			/* nothing written yet in the open container */
	int			depth;
	char		closers[TEXT_MAX_DEPTH];	/* of the containers open */
} TextSink;

static void
text_append(TextSink *ts, const char *s)
{
	size_t		n = strlen(s);

	if (ts->len + n < sizeof(ts->text))
	{
		memcpy(ts->text + ts->len, s, n + 1);
		ts->len += n;
	}
}

static void
text_put(BloomInfoSink *sink, const char *name, BloomInfoKind kind, uint64_t u, double d)
{
	TextSink   *ts = (TextSink *) sink;
	char		item[128];

	if (kind == BLOOM_INFO_END)
	{
		CHECK(ts->depth > 0, "info closes more than it opened");
		if (ts->depth > 0)
		{
			snprintf(item, sizeof(item), "%c", ts->closers[--ts->depth]);
			text_append(ts, item);
		}
		ts->first = false;
		return;
	}
	if (!ts->first)
		text_append(ts, ", ");
	if (name)
	{
		snprintf(item, sizeof(item), "\"%s\": ", name);
		text_append(ts, item);
	}
	ts->first = false;
	if (kind == BLOOM_INFO_UINT)
		snprintf(item, sizeof(item), "%llu", (unsigned long long) u);
	else if (kind == BLOOM_INFO_REAL)
		snprintf(item, sizeof(item), "%.17g", d);
	else
	{
		CHECK(ts->depth < TEXT_MAX_DEPTH, "info nests too deep");
		if (ts->depth < TEXT_MAX_DEPTH)
			ts->closers[ts->depth++] = kind == BLOOM_INFO_LIST ? ']' : '}';
		snprintf(item, sizeof(item), "%c", kind == BLOOM_INFO_LIST ? '[' : '{');
		ts->first = true;
	}
	text_append(ts, item);
}

/* the members of a layout's info, in braces as bf_info would hold them */
static const char *
text_info(TextSink *ts, const BloomLayout *l, const BloomHeader *hdr, const uint8_t *payload)
{
	ts->sink.put = text_put;
	ts->len = 0;
	ts->depth = 0;
	ts->first = true;
	text_append(ts, "{");
	l->info(hdr, payload, &ts->sink);
	text_append(ts, "}");
	CHECK(ts->depth == 0, "info left %d containers open", ts->depth);
	return ts->text;
}

/* ---- the registry ---- */

/*
 * Every id the registry knows has a complete entry under that id, and
 * bloom_layout_problem notices what an incomplete or self-contradicting
 * entry lacks (the server relies on it: it calls what the flags allow).
 */
static void
test_registry(void)
{
	int			known = 0;
	BloomLayout broken;

	for (int id = 0; id <= UINT8_MAX; id++)
	{
		const BloomLayout *l = bloom_layout_for((uint8_t) id);
		const char *problem;

		if (l == NULL)
			continue;
		known++;
		problem = bloom_layout_problem(l);
		CHECK(l->id == id, "layout %s registered under id %d", l->name, id);
		CHECK(problem == NULL, "layout %s: %s", l->name, problem ? problem : "");
	}
	CHECK(known == 6, "%d layouts known, 5 (1-4, 6) and the toy expected", known);

	broken = *bloom_layout_for(BLOOM_LAYOUT_TOY);
	broken.answer = NULL;
	CHECK(bloom_layout_problem(&broken) != NULL, "a layout without answer passes");
	broken = *bloom_layout_for(BLOOM_LAYOUT_TOY);
	broken.grows = true;
	CHECK(bloom_layout_problem(&broken) != NULL, "grows without grow passes");
	broken = *bloom_layout_for(BLOOM_LAYOUT_TOY);
	broken.intersects = false;
	CHECK(bloom_layout_problem(&broken) != NULL, "refusing intersections without saying why passes");
	broken = *bloom_layout_for(BLOOM_LAYOUT_TOY);
	broken.describe = NULL;
	CHECK(bloom_layout_problem(&broken) != NULL, "a layout without describe passes");
	broken = *bloom_layout_for(BLOOM_LAYOUT_TOY);
	broken.removes = true;
	CHECK(bloom_layout_problem(&broken) != NULL, "removes without remove passes");
}

/* ---- the toy layout, through the table ---- */

/* a new toy value's header and zeroed payload, as a constructor makes one */
static uint8_t *
toy_new(BloomHeader *hdr, uint64_t nbits)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_TOY);

	bloom_header_init(hdr, TOY_MEMBERS, 0.01, TOY_SEED, nbits, TOY_K);
	hdr->layout = BLOOM_LAYOUT_TOY;
	CHECK(l->check_header(hdr, l->payload_bytes(hdr)) == BLOOM_OK, "a new toy header is invalid");
	return calloc(1, l->payload_bytes(hdr));
}

static void
toy_add_range(BloomHeader *hdr, uint8_t *payload, int64_t from, int64_t to)
{
	const BloomLayout *l = bloom_layout_for(hdr->layout);

	for (int64_t i = from; i < to; i++)
	{
		BloomHash	h = bloom_hash_int64(i, hdr->seed);

		CHECK(l->add(hdr, payload, &h, 1) == 1, "a fixed-size layout refused an add");
	}
}

/* header and payload as one stored value */
static uint8_t *
toy_value(const BloomHeader *hdr, const uint8_t *payload, size_t *len)
{
	uint8_t    *value;

	*len = bloom_total_bytes(hdr);
	value = malloc(*len);
	bloom_header_encode(hdr, value);
	memcpy(value + BLOOM_HEADER_SIZE, payload, *len - BLOOM_HEADER_SIZE);
	return value;
}

/* stored bytes validate as the toy; damage to its count or length does not */
static void
test_toy_validate(void)
{
	BloomHeader hdr,
				again;
	uint8_t    *payload = toy_new(&hdr, TOY_NBITS);
	uint8_t    *value;
	size_t		len;

	toy_add_range(&hdr, payload, 0, TOY_MEMBERS);
	value = toy_value(&hdr, payload, &len);
	CHECK(len == BLOOM_HEADER_SIZE + TOY_NBITS / 8, "toy value of %zu bytes", len);
	CHECK(bloom_validate(value, len, &again) == BLOOM_OK && again.layout == BLOOM_LAYOUT_TOY &&
		  again.bits_set == hdr.bits_set, "a toy value fails validation");
	CHECK(bloom_validate(value, len - 8, &again) == BLOOM_BAD_LENGTH, "a short toy value validates");
	value[BLOOM_HEADER_SIZE] ^= 1;	/* a bit the count does not know */
	CHECK(bloom_validate(value, len, &again) == BLOOM_BAD_BITS_SET, "a toy value with a flipped bit validates");
	free(value);
	hdr.nbits = TOY_NBITS + 1;
	value = toy_value(&hdr, payload, &len);
	CHECK(bloom_validate(value, len, &again) == BLOOM_BAD_NBITS, "a toy of 4097 bits validates");
	free(value);
	free(payload);
}

/* members test present and count once; a few others pass, as the rate says */
static void
test_toy_checks(void)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_TOY);
	BloomHeader hdr;
	uint8_t    *payload = toy_new(&hdr, TOY_NBITS);
	bool		all = true;
	int			others = 0;
	const int	trials = 100000;

	toy_add_range(&hdr, payload, 0, TOY_MEMBERS);
	for (int64_t i = 0; i < TOY_MEMBERS; i++)
	{
		BloomHash	h = bloom_hash_int64(i, TOY_SEED);

		all &= bloom_test_payload(l, &hdr, payload, h) &&
			bloom_answer_payload(l, &hdr, payload, h, true) == 1;
	}
	CHECK(all, "a member of the toy tests absent");
	for (int64_t i = 0; i < trials; i++)
		others += bloom_test_payload(l, &hdr, payload, bloom_hash_int64(TOY_MEMBERS + i, TOY_SEED));
	CHECK(others < 3 * l->fpp(&hdr, payload) * trials + 50,
		  "%d of %d others pass, the estimate %g", others, trials, l->fpp(&hdr, payload));
	CHECK(l->header_fpp(&hdr) == l->fpp(&hdr, payload), "the header predicts another rate");
	CHECK(l->cardinality(&hdr, payload) > TOY_MEMBERS * 0.9 &&
		  l->cardinality(&hdr, payload) < TOY_MEMBERS * 1.1,
		  "cardinality %g of %d", l->cardinality(&hdr, payload), TOY_MEMBERS);
	free(payload);
}

/*
 * Shapes through bloom_same_shape (the generic fields, then the layout's),
 * union and intersection through combine.
 */
static void
test_toy_combine(void)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_TOY);
	BloomHeader a,
				b,
				c,
				plain;
	uint8_t    *pa = toy_new(&a, TOY_NBITS);
	uint8_t    *pb = toy_new(&b, TOY_NBITS);
	uint8_t    *pc = toy_new(&c, 2 * TOY_NBITS);
	bool		both = true,
				common = true;

	bloom_header_init(&plain, TOY_MEMBERS, 0.01, TOY_SEED, TOY_NBITS, TOY_K);
	CHECK(bloom_same_shape(&a, &b) && !bloom_same_shape(&a, &c) && !bloom_same_shape(&a, &plain),
		  "toy shapes compare wrong");
	toy_add_range(&a, pa, 0, 100);
	toy_add_range(&b, pb, 50, 150);
	CHECK(l->combine(&a, pa, &b, pb, false), "a union of two toys of one shape failed");
	for (int64_t i = 0; i < 150; i++)
		both &= bloom_test_payload(l, &a, pa, bloom_hash_int64(i, TOY_SEED));
	CHECK(both && l->check_payload(&a, pa) == BLOOM_OK, "the union lost a member or its count");
	CHECK(l->intersects && l->combine(&b, pb, &a, pa, true), "an intersection of toys failed");
	for (int64_t i = 50; i < 150; i++)
		common &= bloom_test_payload(l, &b, pb, bloom_hash_int64(i, TOY_SEED));
	CHECK(common && l->check_payload(&b, pb) == BLOOM_OK, "the intersection lost a common member");
	CHECK(!l->combine(&a, pa, &c, pc, false), "toys of two sizes combined");
	free(pa);
	free(pb);
	free(pc);
}

/* what a shape error and bf_info show of it, through describe and info */
static void
test_toy_describe_info(void)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_TOY);
	BloomHeader hdr;
	uint8_t    *payload = toy_new(&hdr, TOY_NBITS);
	char		text[BLOOM_DESCRIBE_MAX];
	char		expected[256];
	TextSink	ts;
	uint64_t	low = 0;

	l->describe(&hdr, text, sizeof(text));
	CHECK(strcmp(text, "4096 bits, 3 hashes, seed 7, layout toy64") == 0, "toy describes itself as %s", text);
	CHECK(strcmp(l->shape_hint, BLOOM_HINT_SAME_SIZING) == 0 && !l->grows && !l->removes &&
		  !l->holds_hashes, "toy facts");
	toy_add_range(&hdr, payload, 0, TOY_MEMBERS);
	for (int i = 0; i < TOY_NBITS / 16; i++)
		low += (uint64_t) bloom_popcount64(payload[i]);
	snprintf(expected, sizeof(expected),
			 "{\"nbits\": 4096, \"nhashes\": 3, \"words\": 64, \"halves\": "
			 "[{\"bits_set\": %llu}, {\"bits_set\": %llu}]}",
			 (unsigned long long) low, (unsigned long long) (hdr.bits_set - low));
	CHECK(strcmp(text_info(&ts, l, &hdr, payload), expected) == 0, "toy info %s", ts.text);
	free(payload);
}

/* the real layouts' info through the same sink: their own members only */
static void
test_real_info(void)
{
	const BloomLayout *l = bloom_layout_for(BLOOM_LAYOUT_BLOCKED512);
	BloomHeader hdr;
	uint8_t    *payload;
	TextSink	ts;

	bloom_header_init(&hdr, 1000, 0.01, 0, 10240, 6);
	payload = calloc(1, l->payload_bytes(&hdr));
	CHECK(strcmp(text_info(&ts, l, &hdr, payload), "{\"nbits\": 10240, \"nhashes\": 6}") == 0,
		  "blocked info %s", ts.text);
	hdr.layout = BLOOM_LAYOUT_COUNTING4;
	l = bloom_layout_for(hdr.layout);
	payload = realloc(payload, l->payload_bytes(&hdr));
	memset(payload, 0, l->payload_bytes(&hdr));
	CHECK(strcmp(text_info(&ts, l, &hdr, payload),
				 "{\"nbits\": 10240, \"nhashes\": 6, \"counter_bits\": 4, \"saturated\": 0}") == 0,
		  "counting info %s", ts.text);
	free(payload);
}

int
main(void)
{
	CHECK(bloom_layout_for(BLOOM_LAYOUT_TOY) != NULL, "the toy's registry line is missing");
	if (bloom_layout_for(BLOOM_LAYOUT_TOY) == NULL)
		return 1;
	test_registry();
	test_toy_validate();
	test_toy_checks();
	test_toy_combine();
	test_toy_describe_info();
	test_real_info();

	printf("unit_layout: %d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
