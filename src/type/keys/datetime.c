/*-------------------------------------------------------------------------
 *
 * datetime.c
 *	  Dates and times: the canonical bytes of an interval, the conversions
 *	  between dates and timestamps, and text read under every setting.
 *
 * Date and time text is read under session settings (DateStyle, TimeZone,
 * IntervalStyle, timezone_abbreviations), while a filter's answer must not
 * depend on the session.  Reading such text once under each choice of the
 * settings it reads, and the table of zone abbreviations that cannot be
 * varied so, is most of this file: the largest single concern of the key
 * conversions, kept apart so the rest reads without it.
 *
 * src/type/keys/datetime.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "miscadmin.h"
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#endif
#include "pgtime.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/datum.h"
#include "utils/formatting.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "utils/tzparser.h"

#include "type/keys/datetime.h"

/*
 * Time zones other than the session's to read text under: UTC and one whose
 * offset is neither whole hours nor the same all year round.
 */
static pg_tz *
bloom_key_zone(int i)
{
	static pg_tz *zones[2];

	if (zones[i] == NULL)
		zones[i] = pg_tzset(i == 0 ? "UTC" : "America/St_Johns");
	return zones[i];
}

/* str read by et's key type under one choice of the settings it reads */
static bool
bloom_key_read_under(BloomElemType *et, char *str, int dateorder, pg_tz *zone,
					 int intervalstyle, Datum *out)
{
	int			save_dateorder = DateOrder;
	pg_tz	   *save_zone = session_timezone;
	int			save_intervalstyle = IntervalStyle;
	bool		ok = false;
	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		DateOrder = dateorder;
		session_timezone = zone;
		IntervalStyle = intervalstyle;
#if PG_VERSION_NUM >= 180000
		/* from 18 its cache of zone abbreviations holds session_timezone's */
		if (zone != save_zone)
			ClearTimeZoneAbbrevCache();
#endif
#if PG_VERSION_NUM >= 160000
		{
			ErrorSaveContext escontext = {T_ErrorSaveContext};

			ok = InputFunctionCallSafe(&et->conv_input, str, et->conv_ioparam, -1,
									   (Node *) &escontext, out);
		}
#else
		/*
		 * Before 16, input functions have no soft errors.  The date and time
		 * inputs raise theirs from plain parsing, holding no lock, buffer or
		 * other resource, so the error can be caught and dropped here.
		 */
		PG_TRY();
		{
			*out = InputFunctionCall(&et->conv_input, str, et->conv_ioparam, -1);
			ok = true;
		}
		PG_CATCH();
		{
			MemoryContextSwitchTo(cxt);
			FlushErrorState();
		}
		PG_END_TRY();
#endif
	}
	PG_FINALLY();
	{
		DateOrder = save_dateorder;
		session_timezone = save_zone;
		IntervalStyle = save_intervalstyle;
#if PG_VERSION_NUM >= 180000
		if (zone != save_zone)
			ClearTimeZoneAbbrevCache();
#endif
	}
	PG_END_TRY();
	(void) cxt;
	return ok;
}

pg_noreturn static void
bloom_key_unsettled(BloomElemType *et, const char *str, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("the text \"%s\" does not name one value of type %s in every session",
					str, format_type_be(et->conv_out->typid)),
			 errdetail("%s", detail),
			 errhint("Write dates and timestamps in ISO 8601 form (2024-01-31, 2024-01-31 12:00:00+00), with an explicit offset for a timestamp with time zone, or cast the value to %s yourself.",
					 format_type_be(et->conv_out->typid))));
}

/* whether str holds a word whose value moves with the clock */
static bool
bloom_key_has_clock_word(const char *str)
{
	static const char *const words[] = {"now", "today", "tomorrow", "yesterday"};
	char	   *lower = asc_tolower(str, strlen(str));
	bool		found = false;

	for (int i = 0; i < lengthof(words) && !found; i++)
		found = strstr(lower, words[i]) != NULL;
	pfree(lower);
	return found;
}

/*
 * Zone abbreviations.  A word of date/time text such as IST or EST is looked
 * up in the session's set of abbreviations (timezone_abbreviations; from
 * PostgreSQL 18 the session's TimeZone first), so its meaning is a setting:
 * IST is +02 in the Default set and +05:30 in India's, EST -05 in Default
 * and +10 in Australia's, and Australia's SAT makes "Sat" a zone rather
 * than a weekday.  A word is let through only if the session and every set
 * PostgreSQL ships (share/timezonesets: Default, Australia, India) read it
 * alike: as no abbreviation (month and day names, "T", ...), or as the same
 * fixed offset (Z, UTC, PST).  Sets an administrator adds are not
 * consulted.  The shipped sets are loaded once per backend.
 */
#define BLOOM_ABBREV_SETS	3

static TimeZoneAbbrevTable *bloom_abbrev_sets[BLOOM_ABBREV_SETS];
static bool bloom_abbrev_sets_loaded = false;

/*
 * A word's reading: its type (UNKNOWN_FIELD: no abbreviation), and its
 * offset, or for a dynamic abbreviation (DYNTZ, whose offset follows a
 * zone's rules at the date read) the zone's name.
 */
typedef struct BloomAbbrev
{
	int			type;
	int			offset;
	const char *zone;
} BloomAbbrev;

static BloomAbbrev
bloom_abbrev_in_set(const TimeZoneAbbrevTable *set, const char *word)
{
	BloomAbbrev r = {UNKNOWN_FIELD, 0, NULL};
	int			lo = 0,
				hi = set->numabbrevs - 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int			cmp = strncmp(word, set->abbrevs[mid].token, TOKMAXLEN);

		if (cmp == 0)
		{
			r.type = set->abbrevs[mid].type;
			r.offset = set->abbrevs[mid].value;
			if (r.type == DYNTZ)
				r.zone = ((const DynamicZoneAbbrev *) ((const char *) set + r.offset))->zone;
			break;
		}
		if (cmp < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return r;
}

static BloomAbbrev
bloom_abbrev_in_session(char *word)
{
	BloomAbbrev r = {UNKNOWN_FIELD, 0, NULL};
	pg_tz	   *tz = NULL;
#if PG_VERSION_NUM >= 160000
	DateTimeErrorExtra extra;

	/* an error: a dynamic abbreviation whose zone is not found (no name) */
	if (DecodeTimezoneAbbrev(0, word, &r.type, &r.offset, &tz, &extra) != 0)
		r.type = DYNTZ;
#else
	r.type = DecodeTimezoneAbbrev(0, word, &r.offset, &tz);
#endif
	if (r.type == DYNTZ && tz != NULL)
		r.zone = pg_get_timezone_name(tz);
	return r;
}

static bool
bloom_abbrev_same(BloomAbbrev a, BloomAbbrev b)
{
	if (a.type != b.type)
		return false;
	if (a.type == DYNTZ)
		return a.zone != NULL && b.zone != NULL && pg_strcasecmp(a.zone, b.zone) == 0;
	return a.type == UNKNOWN_FIELD || a.offset == b.offset;
}

/* the first word of str that names a zone differently by setting, or NULL */
static const char *
bloom_key_abbrev_word(const char *str)
{
	static const char *const names[BLOOM_ABBREV_SETS] = {"Default", "Australia", "India"};

	if (!bloom_abbrev_sets_loaded)
	{
		/* malloc'd by load_tzoffsets, kept for the backend's life */
		for (int i = 0; i < BLOOM_ABBREV_SETS; i++)
			bloom_abbrev_sets[i] = load_tzoffsets(names[i]);
		bloom_abbrev_sets_loaded = true;
	}
	for (const char *p = str; *p != '\0';)
	{
		char		word[TOKMAXLEN + 2];
		int			len = 0;
		BloomAbbrev session;
		bool		settled;

		if (!isalpha((unsigned char) *p))
		{
			p++;
			continue;
		}
		/* An array's text can hold any number of words: answer a cancel. */
		CHECK_FOR_INTERRUPTS();
		/* a run of letters, lower-cased as the date/time parser does */
		for (; isalpha((unsigned char) *p); p++)
			if (len <= TOKMAXLEN)
				word[len++] = pg_tolower((unsigned char) *p);
		word[len] = '\0';
		session = bloom_abbrev_in_session(word);
		/* false only for a dynamic abbreviation whose zone was not found */
		settled = bloom_abbrev_same(session, session);
		/* a set that did not load: only a word that is no abbreviation */
		for (int i = 0; i < BLOOM_ABBREV_SETS && settled; i++)
			settled = bloom_abbrev_sets[i] != NULL ?
				bloom_abbrev_same(session, bloom_abbrev_in_set(bloom_abbrev_sets[i], word)) :
				session.type == UNKNOWN_FIELD;
		if (!settled)
			return pstrdup(word);
	}
	return NULL;
}

/*
 * Date and time text that PostgreSQL's own input refuses for its length or
 * its number of fields, refused before the word scan and the readings
 * below, which take time in proportion to the text.  ParseDateTime is the
 * first step of each of these types' input, independent of any setting,
 * and its buffer here is the largest they give it (timestamp's), so what
 * it refuses here each of them refuses, with this error (the quote cut
 * short: the text can be as long as a text value).  Not interval: its
 * input reads ISO 8601 text that ParseDateTime refuses.
 */
#define BLOOM_KEY_QUOTE		40	/* bytes of the text quoted, as io.c quotes a literal */

static void
bloom_key_datetime_bound(Oid typid, const char *str)
{
	const char *name;
	char		workbuf[MAXDATELEN + MAXDATEFIELDS];
	char	   *field[MAXDATEFIELDS];
	int			ftype[MAXDATEFIELDS];
	int			nf;
	int			len;

	switch (typid)
	{
			/* the names the input functions give in their errors */
		case DATEOID:
			name = "date";
			break;
		case TIMEOID:
			name = "time";
			break;
		case TIMETZOID:
			name = "time with time zone";
			break;
		case TIMESTAMPOID:
			name = "timestamp";
			break;
		case TIMESTAMPTZOID:
			name = "timestamp with time zone";
			break;
		default:
			return;
	}
	if (ParseDateTime(str, workbuf, sizeof(workbuf), field, ftype, MAXDATEFIELDS, &nf) == 0)
		return;
	len = strlen(str);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_DATETIME_FORMAT),
			 errmsg("invalid input syntax for type %s: \"%.*s%s\"", name,
					pg_mbcliplen(str, len, BLOOM_KEY_QUOTE), str,
					len > BLOOM_KEY_QUOTE ? "..." : "")));
}

/*
 * Text read by the key type's input function.  Dates and times read
 * DateStyle's field order, TimeZone and IntervalStyle, while a filter's
 * answer must not depend on the session (its functions are immutable, and
 * a filter built in one session is probed in others).  So text is read
 * again under other choices of each setting the type reads; unless every
 * reading gives the session's value, the call is refused: '01/02/2024'
 * (January or February), '2024-01-01 00:00' as a timestamp with time zone
 * (midnight where?), 'today'.  A zone abbreviation is not read under
 * other settings but looked up (bloom_key_abbrev_word).
 */
Datum
bloom_key_read(BloomElemType *et, char *str)
{
	uint8		reads = et->conv_settings;
	static const int orders[] = {DATEORDER_YMD, DATEORDER_DMY, DATEORDER_MDY};
	static const int styles[] = {INTSTYLE_POSTGRES, INTSTYLE_SQL_STANDARD};
	int			norders = (reads & BLOOM_READS_DATEORDER) ? lengthof(orders) : 1;
	int			nzones = (reads & BLOOM_READS_TIMEZONE) ? 2 : 1;
	int			nstyles = (reads & BLOOM_READS_INTERVAL) ? lengthof(styles) : 1;
	Datum		value;
	bool		session_reads;

	if (reads == 0)
		return InputFunctionCall(&et->conv_input, str, et->conv_ioparam, -1);
	bloom_key_datetime_bound(et->conv_out->typid, str);
	if ((reads & BLOOM_READS_CLOCK) && bloom_key_has_clock_word(str))
		bloom_key_unsettled(et, str, "It names a moment relative to the current time.");
	if (reads & BLOOM_READS_TIMEZONE)
	{
		const char *word = bloom_key_abbrev_word(str);

		if (word != NULL)
			bloom_key_unsettled(et, str,
								psprintf("The word \"%s\" is read as different time zones under the timezone_abbreviations settings Default, Australia and India, or as a zone under some and not others: write a numeric offset (+05:30) or a zone name (Asia/Kolkata) instead.",
										 word));
	}
	session_reads = bloom_key_read_under(et, str, DateOrder, session_timezone,
										 IntervalStyle, &value);
	for (int o = 0; o < norders; o++)
		for (int z = 0; z < nzones; z++)
			for (int i = 0; i < nstyles; i++)
			{
				Datum		other;
				bool		reads_here;

				CHECK_FOR_INTERRUPTS();
				reads_here = bloom_key_read_under(et, str,
												  (reads & BLOOM_READS_DATEORDER) ? orders[o] : DateOrder,
												  (reads & BLOOM_READS_TIMEZONE) ? bloom_key_zone(z) : session_timezone,
												  (reads & BLOOM_READS_INTERVAL) ? styles[i] : IntervalStyle,
												  &other);
				/* text no setting reads: the session's own error below */
				if (!session_reads && !reads_here)
					continue;
				if (!session_reads || !reads_here ||
					!datumIsEqual(value, other, et->conv_out->typbyval,
								  et->conv_out->typlen))
					bloom_key_unsettled(et, str,
										"Under other DateStyle, TimeZone or IntervalStyle settings it names another value, or none.");
			}
	if (!session_reads)
		return InputFunctionCall(&et->conv_input, str, et->conv_ioparam, -1);
	return value;
}

/* the date of a timestamp at midnight; none for any other time */
bool
bloom_key_ts_date(Datum value, Datum *out)
{
	Timestamp	ts = DatumGetTimestamp(value);

	if (TIMESTAMP_IS_NOBEGIN(ts) || TIMESTAMP_IS_NOEND(ts))
	{
		DateADT		d;

		if (TIMESTAMP_IS_NOBEGIN(ts))
			DATE_NOBEGIN(d);
		else
			DATE_NOEND(d);
		*out = DateADTGetDatum(d);
		return true;
	}
	/* both count from 2000-01-01 */
	if (ts % USECS_PER_DAY != 0)
		return false;
	*out = DateADTGetDatum((DateADT) (ts / USECS_PER_DAY));
	return true;
}

/* a date's midnight; none for a date beyond the timestamps */
bool
bloom_key_date_ts(Datum value, Datum *out)
{
#if PG_VERSION_NUM >= 190000
	/* 19 reports the overflow as a soft error (date2timestamp_safe) */
	ErrorSaveContext escontext = {T_ErrorSaveContext};
	Timestamp	ts = date2timestamp_safe(DatumGetDateADT(value), (Node *) &escontext);

	if (escontext.error_occurred)
		return false;
#else
	int			overflow = 0;
	Timestamp	ts = date2timestamp_opt_overflow(DatumGetDateADT(value), &overflow);

	if (overflow != 0)
		return false;
#endif
	*out = TimestampGetDatum(ts);
	return true;
}
