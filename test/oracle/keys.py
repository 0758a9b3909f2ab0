"""Key types, member values and their other representations, and session
settings, for the equality oracle (test/oracle/oracle.py).

Every generator returns literal texts that the type's input function reads
(never a guess at equality): what is equal to what is left to the server,
which the oracle asks with SQL's own `=`.  Variants are other spellings of a
value that the type's input may or may not read as an equal value; those it
reads as unequal (or refuses) are simply not members.
"""

import random
import re
import string

# ---- session settings ----


class Profile:
    """A set of session settings under which texts are written or read."""

    def __init__(self, name, settings, generic=False):
        self.name = name
        self.settings = dict(settings)
        if generic:
            self.settings["plan_cache_mode"] = "force_generic_plan"
        else:
            self.settings["plan_cache_mode"] = "auto"
        self.generic = generic

    def set_sql(self):
        """One statement that applies every setting (set_config, so that it
        runs in an extended-protocol pipeline)."""
        return "SELECT " + ", ".join("set_config(%s, %s, false)" % (lit(k), lit(v))
                                     for k, v in sorted(self.settings.items()))

    def set_line(self):
        """The settings as SET commands, for a reproduction."""
        return " ".join("SET %s = %s;" % (k, lit(v)) for k, v in sorted(self.settings.items())
                        if not (k == "plan_cache_mode" and v == "auto"))

    def __repr__(self):
        return self.name


BASE_PROFILES = [
    Profile("iso-utc", {"DateStyle": "ISO, MDY", "TimeZone": "UTC",
                        "IntervalStyle": "postgres", "extra_float_digits": "1",
                        "timezone_abbreviations": "Default"}),
    # New York's clock with Australia's abbreviations (EST is +10 there)
    Profile("sql-dmy-ny", {"DateStyle": "SQL, DMY", "TimeZone": "America/New_York",
                           "IntervalStyle": "sql_standard", "extra_float_digits": "0",
                           "timezone_abbreviations": "Australia"}),
    Profile("pg-mdy-kolkata", {"DateStyle": "Postgres, MDY", "TimeZone": "Asia/Kolkata",
                               "IntervalStyle": "postgres_verbose", "extra_float_digits": "3",
                               "timezone_abbreviations": "India"}),
    Profile("german-chatham", {"DateStyle": "German, DMY", "TimeZone": "Pacific/Chatham",
                               "IntervalStyle": "iso_8601", "extra_float_digits": "-15",
                               "timezone_abbreviations": "Default"}),
    Profile("sql-mdy-lmt", {"DateStyle": "SQL, MDY", "TimeZone": "Africa/Monrovia",
                            "IntervalStyle": "postgres", "extra_float_digits": "2",
                            "timezone_abbreviations": "Default"}),
]
# the same settings with generic plans for prepared parameters
GENERIC_PROFILES = [Profile(p.name + "+generic", p.settings, generic=True) for p in BASE_PROFILES]
PROFILES = BASE_PROFILES + GENERIC_PROFILES
PROFILE_BY_NAME = {p.name: p for p in PROFILES}
# filters are built under these (filter rows "build" 0 and 1)
BUILD_PROFILES = [BASE_PROFILES[0], BASE_PROFILES[3]]


def lit(s):
    """A standard SQL string literal."""
    return "'" + s.replace("'", "''") + "'"


# ---- generators ----


def _rand_int(rng, bits):
    return rng.randint(-(1 << (bits - 1)), (1 << (bits - 1)) - 1)


def _rand_small_or_big(rng, bits):
    r = rng.random()
    if r < 0.4:
        return rng.randint(-1000, 1000)
    if r < 0.7:
        return rng.randint(-(1 << 31), (1 << 31) - 1) if bits > 32 else _rand_int(rng, bits)
    return _rand_int(rng, bits)


def gen_int(bits):
    edges = {16: ["0", "1", "-1", "32767", "-32768", "255", "256", "5"],
             32: ["0", "1", "-1", "2147483647", "-2147483648", "65536", "32768", "5"],
             64: ["0", "1", "-1", "5", "9223372036854775807", "-9223372036854775808",
                  "9007199254740992", "9007199254740993", "9007199254740991",
                  "-9007199254740993", "2147483648", "-2147483649", "4294967295",
                  "4294967296", "32768"]}[bits]

    def gen(rng, n):
        return edges + [str(_rand_small_or_big(rng, bits)) for _ in range(n)]
    return gen


def variants_int(t):
    out = ["+" + t if not t.startswith("-") else t, " " + t + " ", t + ".0"]
    if not t.startswith("-"):
        out.append("0" + t)
    return out


NUMERIC_EDGES = ["0", "-0", "0.0", "0.00", "1", "1.0", "1.00", "-1", "0.1", "0.10", "123.456",
                 "1e20", "100000000000000000000", "9007199254740992", "9007199254740993",
                 "9223372036854775807", "9223372036854775808", "-9223372036854775809",
                 "NaN", "Infinity", "-Infinity", "0.000000000000000000001", "1.5", "2.5",
                 "4294967295", "32767.0", "5", "-5.000", "0.30000000000000004", "1e-5"]


def gen_numeric(rng, n):
    out = list(NUMERIC_EDGES)
    for _ in range(n):
        whole = str(_rand_small_or_big(rng, 64))
        scale = rng.choice([0, 0, 1, 2, 3, 6, 12])
        if scale:
            frac = "".join(rng.choice(string.digits) for _ in range(scale))
            if rng.random() < 0.3:
                frac = frac[:-1] + "0"
            out.append(whole + "." + frac)
        else:
            out.append(whole)
    return out


def variants_numeric(t):
    if t in ("NaN", "Infinity", "-Infinity"):
        return [t.lower(), t.upper(), "+" + t if t == "Infinity" else t, "inf" if t == "Infinity" else t]
    out = [" " + t + " ", "+" + t if not t.startswith("-") else t]
    if "." in t:
        out += [t + "0", t + "000", t.rstrip("0").rstrip(".") or "0"]
    elif "e" not in t.lower():
        out += [t + ".0", t + ".000", t + "e0", t + "0e-1"]
    return out


FLOAT4_EDGES = ["0", "-0", "1", "-1", "0.1", "1.5", "16777216", "16777217", "3.4028235e+38",
                "-3.4028235e+38", "1e-45", "1.1754944e-38", "NaN", "Infinity", "-Infinity",
                "2147483648", "9.223372e+18", "1e+10", "5", "0.3"]
FLOAT8_EDGES = ["0", "-0", "1", "-1", "0.1", "1.5", "9007199254740992", "9007199254740993",
                "9007199254740991", "1e+20", "1.7976931348623157e+308", "5e-324",
                "2.2250738585072014e-308", "NaN", "Infinity", "-Infinity",
                "-9223372036854775808", "9223372036854775807", "9223372036854775808",
                "1e-07", "123456789.125", "5", "0.30000000000000004", "4294967295"]


def gen_float(edges, digits):
    def gen(rng, n):
        out = list(edges)
        for _ in range(n):
            r = rng.random()
            if r < 0.3:
                out.append(str(rng.randint(-100000, 100000)))
            elif r < 0.6:
                out.append(repr(round(rng.uniform(-1000, 1000), rng.randint(0, 4))))
            else:
                out.append("%.*e" % (digits, rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)))
        return out
    return gen


def variants_float(t):
    low = t.lower()
    if low in ("nan", "infinity", "-infinity"):
        return [low, t.upper(), {"infinity": "inf", "-infinity": "-inf", "nan": "NaN"}[low],
                "+inf" if low == "infinity" else t]
    out = [" " + t + " ", t + "e0" if "e" not in low else t.replace("e", "E")]
    try:
        x = float(t)
        out += [repr(x), "%.17g" % x, "%.9g" % x, "%.3e" % x]
        if x == int(x) and abs(x) < 1e18:
            out.append(str(int(x)) + ".000")
    except (ValueError, OverflowError):
        pass
    return out


def gen_money(rng, n):
    out = ["0", "1", "-1", "1.5", "0.01", "92233720368547758.07", "-92233720368547758.08",
           "1234567.89", "5"]
    out += ["%d.%02d" % (rng.randint(-10 ** 6, 10 ** 6), rng.randint(0, 99)) for _ in range(n)]
    return out


def variants_money(t):
    neg = t.startswith("-")
    body = t[1:] if neg else t
    out = ["$" + t if not neg else "-$" + body, t + ".00" if "." not in t else t + "0", " " + t]
    if "." in body and len(body.split(".")[0]) > 3:
        whole, frac = body.split(".")
        out.append(("-" if neg else "") + "{:,}".format(int(whole)) + "." + frac)
    return out


def gen_oid(rng, n):
    return ["0", "1", "4294967295", "2147483648", "2147483647", "12345", "5"] + \
        [str(rng.randint(0, 4294967295)) for _ in range(n)]


def variants_oid(t):
    v = int(t)
    out = ["+" + t, " " + t + " "]
    if v >= 2 ** 31:
        out.append(str(v - 2 ** 32))
    return out


def gen_bool(rng, n):
    return ["true", "false"]


def variants_bool(t):
    if t in ("true", "t"):
        return ["t", "yes", "on", "1", "TRUE", " true ", "y", "tr"]
    return ["f", "no", "off", "0", "FALSE", " false ", "n", "of"]


TEXT_EDGES = ["", " ", "  ", "a", "abc", "abc ", " abc", "ABC", "Abc", "AB1", "AB1   ", "ä",
              "ÄÖÜß", "日本語", "😀", "it's", "back\\slash", "\t", "tab\tin", "x" * 70,
              "é" * 40, "5", "2024-01-06", "{}", "(a,b)", "NULL", "null", "a\nb", "abcdef",
              "abcdefgh"]


def _rand_word(rng, alphabet=string.ascii_letters + string.digits + " _-", maxlen=12):
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, maxlen)))


# characters of several encodings (LATIN1, WIN1251, EUC_JP, ...), each
# with its upper or lower case where it has one, so that a database of any
# encoding the oracle runs in (--encoding) holds some of them
UNICODE_BITS = "äöüßéñçøåÄÉжЖщЩ日本語中文한국어ひらがなΩπ😀🙂€"


def gen_text(rng, n):
    out = list(TEXT_EDGES)
    for _ in range(n):
        r = rng.random()
        if r < 0.6:
            w = _rand_word(rng)
        elif r < 0.85:
            w = _rand_word(rng, string.ascii_letters + UNICODE_BITS, 8)
        else:
            w = _rand_word(rng, maxlen=4) + " " * rng.randint(1, 3)
        out.append(w)
    return out


def variants_text(t):
    return [t + " ", t.rstrip(" "), t.upper(), t.lower()]


def gen_bpchar(width):
    def gen(rng, n):
        base = ["", " ", "AB1", "AB1   ", "a b", " x", "ä", "  ", "Abc", "abc", "5", "日本"]
        base = [b for b in base if len(b.rstrip(" ")) <= width]
        out = base + [_rand_word(rng, maxlen=width) for _ in range(n)]
        return [w[:width] if len(w.rstrip(" ")) <= width else w[:width] for w in out]
    return gen


def variants_bpchar(t):
    s = t.rstrip(" ")
    return [s, s + " ", s + "      ", s + " " * 12, s.upper(), s + "\t"]


def gen_name(rng, n):
    return ["", "abc", "pg_class", "x" * 63, "y" * 70, "é" * 40, "ABC", "a b ", "5"] + \
        [_rand_word(rng) for _ in range(n)]


def gen_char(rng, n):
    return ["a", "A", "z", "0", " ", "", "\\001", "\\377", "é", "5"] + \
        [rng.choice(string.ascii_letters + string.digits) for _ in range(n)]


def variants_char(t):
    return [t + "bc", t + " ", t.upper()]


def gen_bytea(rng, n):
    out = ["\\x", "\\x00", "\\x0102", "\\xdeadbeef", "\\x20", "\\x616263", "\\x41422031202020"]
    for _ in range(n):
        out.append("\\x" + "".join("%02x" % rng.randrange(256) for _ in range(rng.randint(0, 12))))
    return out


def variants_bytea(t):
    body = t[2:]
    raw = bytes.fromhex(body)
    esc = "".join(chr(b) if 32 <= b < 127 and b != 92 else "\\%03o" % b for b in raw)
    return ["\\x" + body.upper(), esc, "\\X" + body if body else t]


def gen_uuid(rng, n):
    out = ["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
           "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"]
    for _ in range(n):
        h = "%032x" % rng.getrandbits(128)
        out.append("%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:]))
    return out


def variants_uuid(t):
    h = t.replace("-", "")
    return [t.upper(), "{" + t + "}", h, "-".join(h[i:i + 4] for i in range(0, 32, 4)), " " + t]


DATE_EDGES = ["2024-01-06", "2024-02-29", "2000-01-01", "1970-01-01", "0001-01-01",
              "4713-01-01 BC", "5874897-12-31", "infinity", "-infinity", "2024-01-02",
              "2024-02-01", "1999-12-31", "1900-02-28", "2262-04-11", "294276-12-31",
              "294277-01-01"]


def _rand_date(rng):
    return "%04d-%02d-%02d" % (rng.randint(1, 9999), rng.randint(1, 12), rng.randint(1, 28))


def gen_date(rng, n):
    return DATE_EDGES + [_rand_date(rng) for _ in range(n)]


MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def variants_date(t):
    if t in ("infinity", "-infinity"):
        return [t.upper(), "+infinity" if t == "infinity" else t]
    if " " in t or len(t.split("-")) != 3 or not t[:4].isdigit():
        return [t + " 00:00:00"]
    y, m, d = t.split("-")
    yi, mi, di = int(y), int(m), int(d)
    return [y + m + d, "%d-%d-%d" % (yi, mi, di), "%s %d %s" % (MONTHS[mi - 1], di, y),
            "%s/%s/%s" % (m, d, y), "%s/%s/%s" % (d, m, y), "%s.%s.%s" % (d, m, y),
            t + " 00:00:00", t + " 10:00", t + "T00:00:00Z", "%s-%s-%s" % (y, MONTHS[mi - 1], d)]


def gen_time(rng, n):
    out = ["00:00:00", "24:00:00", "23:59:59.999999", "12:34:56.5", "12:00:00", "00:00:00.000001",
           "10:00:00"]
    out += ["%02d:%02d:%02d%s" % (rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59),
                                  rng.choice(["", ".5", ".123456", ".000001"])) for _ in range(n)]
    return out


def variants_time(t):
    out = [t + ".000" if "." not in t else t + "0", t[:5] if t.endswith(":00") and "." not in t else t,
           t.replace(":", "")]
    if t == "00:00:00":
        out += ["allballs", "24:00:00"]
    if t.startswith("12:"):
        out.append(t + " PM")
    return out


# an abbreviation for an offset in the Default set; under Australia's or
# India's some name other offsets (EST, IST), some the same (GMT, PST)
ZONE_ABBREVS = {"+00": "GMT", "-05": "EST", "+05:30": "IST", "+01": "CET", "+13:45": "CHADT",
                "-09:30": "MART", "-08": "PST", "+14": "LINT", "-03:30": "NST"}


def gen_timetz(rng, n):
    out = ["00:00:00+00", "12:34:56+05:30", "24:00:00-15:59", "23:59:59.999999+14", "12:00:00-00:00:01",
           "10:00:00+01", "09:00:00+00"]
    for _ in range(n):
        off = rng.choice(["+00", "-05", "+05:30", "+12:45", "-03:30", "+14", "-12"])
        out.append("%02d:%02d:%02d%s" % (rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59), off))
    return out


def variants_timetz(t):
    out = [t.replace("+00", " UTC") if t.endswith("+00") else t + ":00", t.replace(":", "", 1)]
    abbrev = ZONE_ABBREVS.get(t[-6:] if t[-3] == ":" else t[-3:])
    if abbrev:
        out.append(t[:-6 if t[-3] == ":" else -3] + " " + abbrev)
    return out


def gen_timestamp(rng, n):
    out = ["2024-01-06 00:00:00", "2024-02-29 12:00:00", "2000-01-01 00:00:00", "infinity",
           "-infinity", "294276-12-31 23:59:59.999999", "4713-01-01 00:00:00 BC",
           "2024-01-06 10:00:00", "1970-01-01 00:00:00.000001", "2024-01-02 00:00:00",
           "2024-02-01 00:00:00", "1900-01-01 00:00:00"]
    out += ["%s %02d:%02d:%02d%s" % (_rand_date(rng), rng.randint(0, 23), rng.randint(0, 59),
                                     rng.randint(0, 59), rng.choice(["", ".5", ".123456"]))
            for _ in range(n)]
    out += [_rand_date(rng) + " 00:00:00" for _ in range(max(1, n // 4))]
    return out


def variants_timestamp(t):
    if t in ("infinity", "-infinity"):
        return [t.upper()]
    out = [t.replace(" ", "T", 1), t + ".000" if "." not in t else t + "0"]
    if t.endswith(" 00:00:00"):
        out.append(t[:-9])
    return out


def gen_timestamptz(rng, n):
    out = ["2024-01-06 00:00:00+00", "2024-01-05 19:00:00-05", "2024-11-03 01:30:00-04",
           "2024-11-03 01:30:00-05", "infinity", "-infinity", "2000-01-01 00:00:00+14",
           "1900-01-01 00:00:00+00", "1880-06-01 12:00:00+00", "2024-03-31 02:30:00+02",
           "2024-01-06 00:00:00+05:30", "294276-12-31 23:59:59.999999+00",
           "4713-01-01 00:00:00+00 BC", "1970-01-01 00:00:00.000001+00"]
    out += ["%s %02d:%02d:%02d%s%s" % (_rand_date(rng), rng.randint(0, 23), rng.randint(0, 59),
                                       rng.randint(0, 59), rng.choice(["", ".25", ".999999"]),
                                       rng.choice(["+00", "-05", "+05:30", "+13:45", "-09:30", "+01"]))
            for _ in range(n)]
    return out


def variants_timestamptz(t):
    if t in ("infinity", "-infinity"):
        return [t.upper()]
    out = [t.replace(" ", "T", 1)]
    if t.endswith("+00"):
        out += [t[:-3] + "Z", t[:-3] + " UTC", t[:-3]]
    # a zone abbreviation for the offset: what it means is a setting
    abbrev = ZONE_ABBREVS.get(t[-6:] if t[-3] == ":" else t[-3:])
    if abbrev and not t.endswith(" BC"):
        out.append(t[:-6 if t[-3] == ":" else -3] + " " + abbrev)
    # without its offset: read in the session's TimeZone
    m = re.match(r"^(.*\d)([+-]\d\d(:\d\d)?)( BC)?$", t)
    if m:
        out.append(m.group(1) + (m.group(4) or ""))
    return out


INTERVAL_EDGES = ["0", "1 day", "24:00:00", "1 mon", "30 days", "1 year", "12 mons", "360 days",
                  "-1 days +24:00:00", "+1 day -24:00:00", "00:00:00.000001", "-00:00:00.000001",
                  "178000000 years", "+1 mon -30 days", "2 days", "48:00:00", "720:00:00",
                  "1 year 1 day", "-178000000 years", "01:00:00", "60 days", "-1 mons +1 days"]


def gen_interval(rng, n):
    out = list(INTERVAL_EDGES)
    for _ in range(n):
        # every field signed: under IntervalStyle sql_standard a leading
        # sign applies to the unsigned fields after it, so a member's text
        # must not depend on the session that reads it
        parts = []
        if rng.random() < 0.4:
            parts.append("%+d mons" % rng.randint(-30, 30))
        if rng.random() < 0.5:
            parts.append("%+d days" % rng.randint(-400, 400))
        if rng.random() < 0.6:
            parts.append("%s%02d:%02d:%02d" % (rng.choice("+-"), rng.randint(0, 80), rng.randint(0, 59),
                                                rng.randint(0, 59)))
        out.append(" ".join(parts) or "0")
    return out


def variants_interval(t):
    out = ["@ " + t, t.replace("days", "day") if "days" in t else t + " 0:00"]
    if t == "1 day":
        out += ["P1D", "PT24H", "24 hours", "86400 seconds", "1440 minutes"]
    if t == "1 mon":
        out += ["P1M", "30 days", "P30D"]
    if t == "1 year":
        out += ["P1Y", "12 mons", "360 days", "8640:00:00"]
    if t == "0":
        out += ["00:00:00", "P0D", "1 day -24:00:00", "-0"]
    return out


def gen_inet(rng, n):
    out = ["10.0.0.1", "10.0.0.1/32", "10.0.0.0/8", "192.168.1.5/24", "::1", "::ffff:1.2.3.4",
           "0.0.0.0/0", "::/0", "2001:db8::1/64", "255.255.255.255", "192.168.1.0/24"]
    out += ["%d.%d.%d.%d%s" % (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255),
                               rng.randint(0, 255), rng.choice(["", "/32", "/24", "/16"]))
            for _ in range(n)]
    return out


def variants_inet(t):
    out = [t + "/32" if "/" not in t and "." in t else t.upper(),
           t.split("/")[0] if t.endswith("/32") else t]
    if t == "::1":
        out += ["0:0:0:0:0:0:0:1", "::1/128", "::0001"]
    return out


def gen_cidr(rng, n):
    out = ["10.0.0.0/8", "192.168.1.0/24", "10.0.0.1/32", "::/0", "2001:db8::/32", "0.0.0.0/0",
           "128.0.0.0/1"]
    for _ in range(n):
        bits = rng.choice([8, 16, 24, 32])
        addr = [rng.randint(0, 255) for _ in range(4)]
        for i in range(4):
            if i * 8 >= bits:
                addr[i] = 0
        out.append("%d.%d.%d.%d/%d" % (addr[0], addr[1], addr[2], addr[3], bits))
    return out


def variants_cidr(t):
    addr, _, bits = t.partition("/")
    if "." not in addr:
        return [t.upper()]
    octets = addr.split(".")
    nb = int(bits) // 8
    short = ".".join(octets[:max(1, nb)]) + "/" + bits
    return [short, addr if bits == "32" else t]


def _mac(rng, nbytes):
    return ":".join("%02x" % rng.randrange(256) for _ in range(nbytes))


def gen_macaddr(rng, n):
    return ["08:00:2b:01:02:03", "00:00:00:00:00:00", "ff:ff:ff:ff:ff:ff"] + \
        [_mac(rng, 6) for _ in range(n)]


def variants_macaddr(t):
    h = t.replace(":", "")
    return [t.upper(), t.replace(":", "-"), h[:6] + ":" + h[6:], h[:6] + "-" + h[6:],
            h[:4] + "." + h[4:8] + "." + h[8:], h[:4] + "-" + h[4:8] + "-" + h[8:], h]


def gen_macaddr8(rng, n):
    return ["08:00:2b:01:02:03:04:05", "08:00:2b:ff:fe:01:02:03", "00:00:00:00:00:00:00:00"] + \
        [_mac(rng, 8) for _ in range(n)]


def variants_macaddr8(t):
    h = t.replace(":", "")
    out = [t.upper(), t.replace(":", "-"), h, h[:8] + "." + h[8:]]
    if h[6:10] == "fffe":
        six = h[:6] + h[10:]
        out.append(":".join(six[i:i + 2] for i in range(0, 12, 2)))
    return out


def gen_bits(width):
    def gen(rng, n):
        if width:
            edges = ["0" * width, "1" * width, ("10" * width)[:width]]
            return edges + ["".join(rng.choice("01") for _ in range(width)) for _ in range(n)]
        edges = ["", "0", "1", "1010", "00001", "10100000"]
        return edges + ["".join(rng.choice("01") for _ in range(rng.randint(0, 20))) for _ in range(n)]
    return gen


def variants_bits(t):
    out = ["B" + t if False else t]
    if t and len(t) % 4 == 0:
        out.append("x" + "%0*X" % (len(t) // 4, int(t, 2)))
    out.append(t + "0")
    return out


def gen_pg_lsn(rng, n):
    return ["0/0", "16/B374D848", "FFFFFFFF/FFFFFFFF", "1/0", "0/1"] + \
        ["%X/%X" % (rng.getrandbits(32), rng.getrandbits(32)) for _ in range(n)]


def variants_pg_lsn(t):
    a, b = t.split("/")
    return [t.lower(), "%08X/%08X" % (int(a, 16), int(b, 16))]


def gen_citext(rng, n):
    return ["abc", "ABC", "Abc", "", " ", "abc ", "ÄÖÜ", "straße", "5"] + [_rand_word(rng) for _ in range(n)]


# ---- key type specifications ----


class ScalarSpec:
    """One scalar key type: how to write its members and other spellings."""
    kind = "scalar"

    def __init__(self, tag, sqltype, gen, variants=None, base=None, needs=None, setup=None):
        self.tag = tag                  # table suffix
        self.sqltype = sqltype          # DDL spelling, typmod included
        self.gen = gen                  # (rng, n) -> list of input texts
        self.variants = variants or (lambda t: [])
        self.base = base                # base type name for a domain
        self.needs = needs              # extension this type comes from
        self.setup = setup or []        # SQL run before the table is made
        self.regtype = None             # filled from the server: format_type
        self.oid = None                 # the column's type OID (a param's type)
        self.typsend = None
        self.cross = []                 # other ScalarSpecs U where `col = w::U` parses

    def member_sql(self, text):
        return "%s::%s" % (lit(text), self.sqltype)

    def __repr__(self):
        return self.tag


SCALARS = [
    ScalarSpec("int2", "smallint", gen_int(16), variants_int),
    ScalarSpec("int4", "integer", gen_int(32), variants_int),
    ScalarSpec("int8", "bigint", gen_int(64), variants_int),
    ScalarSpec("numeric", "numeric", gen_numeric, variants_numeric),
    ScalarSpec("numeric10_2", "numeric(10,2)", gen_numeric, variants_numeric),
    ScalarSpec("float4", "real", gen_float(FLOAT4_EDGES, 6), variants_float),
    ScalarSpec("float8", "double precision", gen_float(FLOAT8_EDGES, 15), variants_float),
    ScalarSpec("money", "money", gen_money, variants_money),
    ScalarSpec("oid", "oid", gen_oid, variants_oid),
    ScalarSpec("bool", "boolean", gen_bool, variants_bool),
    ScalarSpec("text", "text", gen_text, variants_text),
    ScalarSpec("varchar", "character varying", gen_text, variants_text),
    ScalarSpec("varchar10", "character varying(10)",
               lambda rng, n: [t for t in gen_text(rng, n) if len(t) <= 10], variants_text),
    ScalarSpec("bpchar6", "character(6)", gen_bpchar(6), variants_bpchar),
    ScalarSpec("bpchar1", "character(1)", gen_bpchar(1), variants_bpchar),
    ScalarSpec("bpchar", "bpchar", gen_text, variants_bpchar),
    ScalarSpec("name", "name", gen_name, variants_text),
    ScalarSpec("char", '"char"', gen_char, variants_char),
    ScalarSpec("bytea", "bytea", gen_bytea, variants_bytea),
    ScalarSpec("uuid", "uuid", gen_uuid, variants_uuid),
    ScalarSpec("date", "date", gen_date, variants_date),
    ScalarSpec("time", "time without time zone", gen_time, variants_time),
    ScalarSpec("timetz", "time with time zone", gen_timetz, variants_timetz),
    ScalarSpec("timestamp", "timestamp without time zone", gen_timestamp, variants_timestamp),
    ScalarSpec("timestamptz", "timestamp with time zone", gen_timestamptz, variants_timestamptz),
    ScalarSpec("timestamptz0", "timestamp(0) with time zone", gen_timestamptz, variants_timestamptz),
    ScalarSpec("time3", "time(3) without time zone", gen_time, variants_time),
    ScalarSpec("interval", "interval", gen_interval, variants_interval),
    ScalarSpec("interval_ds", "interval day to second", gen_interval, variants_interval),
    ScalarSpec("inet", "inet", gen_inet, variants_inet),
    ScalarSpec("cidr", "cidr", gen_cidr, variants_cidr),
    ScalarSpec("macaddr", "macaddr", gen_macaddr, variants_macaddr),
    ScalarSpec("macaddr8", "macaddr8", gen_macaddr8, variants_macaddr8),
    ScalarSpec("bit4", "bit(4)", gen_bits(4), variants_bits),
    ScalarSpec("varbit", "bit varying", gen_bits(0), variants_bits),
    ScalarSpec("pg_lsn", "pg_lsn", gen_pg_lsn, variants_pg_lsn),
    ScalarSpec("citext", "citext", gen_citext, variants_text, needs="citext"),
    ScalarSpec("d_int8", "oracle_d_int8", gen_int(64), variants_int, base="bigint",
               setup=["CREATE DOMAIN oracle_d_int8 AS bigint"]),
    ScalarSpec("d_text", "oracle_d_text", gen_text, variants_text, base="text",
               setup=["CREATE DOMAIN oracle_d_text AS text"]),
    ScalarSpec("d_bpchar4", "oracle_d_bpchar4", gen_bpchar(4), variants_bpchar, base="character(4)",
               setup=["CREATE DOMAIN oracle_d_bpchar4 AS character(4)"]),
    ScalarSpec("d_date", "oracle_d_date", gen_date, variants_date, base="date",
               setup=["CREATE DOMAIN oracle_d_date AS date"]),
]
SCALAR_BY_TAG = {s.tag: s for s in SCALARS}


def array_text(elems):
    """An array's input text from its elements' input texts."""
    def q(e):
        if e is None:
            return "NULL"
        return '"' + e.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return "{" + ",".join(q(e) for e in elems) + "}"


class ArraySpec:
    """Arrays of a scalar key type: members of 0 to 3 elements, NULLs,
    another lower bound, two dimensions."""
    kind = "array"

    def __init__(self, elem):
        self.elem = elem
        self.tag = "arr_" + elem.tag
        self.sqltype = elem.sqltype + "[]"
        self.regtype = None
        self.oid = None
        self.typsend = None
        self.cross = []
        self.needs = elem.needs
        self.setup = []

    def members(self, rng, n):
        """(SQL expression, element texts or None) of each member: the
        element texts let probes build ARRAY[...] from other forms."""
        values = self.elem.gen(rng, max(4, n // 2))
        out = [("'{}'::%s" % self.sqltype, []),
               ("ARRAY[NULL]::%s" % self.sqltype, [None])]
        for _ in range(n):
            k = rng.choice([1, 1, 2, 2, 3])
            elems = [None if rng.random() < 0.12 else rng.choice(values) for _ in range(k)]
            out.append((self.array_sql(elems), elems))
        for _ in range(max(1, n // 8)):
            elems = [rng.choice(values) for _ in range(2)]
            # lower bound 0: equal only to arrays of lower bound 0; written
            # from the elements' input texts, so that no session setting
            # changes it (an array's output text would)
            out.append(("%s::%s" % (lit("[0:1]=" + array_text(elems)), self.sqltype), None))
            elems4 = [rng.choice(values) for _ in range(4)]
            out.append(("ARRAY[%s, %s]::%s" % (self.array_sql(elems4[:2], cast=False),
                                               self.array_sql(elems4[2:], cast=False), self.sqltype),
                        None))
        return out

    def array_sql(self, elems, cast=True):
        inner = ", ".join("NULL" if e is None else self.elem.member_sql(e) for e in elems)
        s = "ARRAY[%s]" % inner
        return s + "::" + self.sqltype if cast else s

    def __repr__(self):
        return self.tag


ARRAY_ELEMS = ["int2", "int4", "int8", "numeric", "float8", "text", "varchar", "bpchar6", "bytea",
               "uuid", "date", "timestamp", "timestamptz", "interval", "bool", "inet", "name", "float4"]
ARRAYS = [ArraySpec(SCALAR_BY_TAG[t]) for t in ARRAY_ELEMS]


class RecordSpec:
    """Records of two fields: either ROW(a, b) of two columns (an anonymous
    record, compared field by field as ROW(...) = ROW(...)) or a column of
    a named composite type (compared by record_eq, where NULL fields are
    equal)."""
    kind = "record"

    def __init__(self, a, b, composite=False):
        self.a = a
        self.b = b
        self.composite = composite
        self.tag = ("comp_" if composite else "row_") + a.tag + "_" + b.tag
        self.typename = "oracle_" + self.tag
        self.sqltype = self.typename if composite else "record"
        self.regtype = None
        self.oid = None
        self.typsend = None
        self.cross = []
        self.needs = a.needs or b.needs
        self.setup = (["CREATE TYPE %s AS (a %s, b %s)" % (self.typename, a.sqltype, b.sqltype)]
                      if composite else [])

    def members(self, rng, n):
        va = self.a.gen(rng, max(4, n // 2))
        vb = self.b.gen(rng, max(4, n // 2))
        out = []
        for _ in range(n):
            fa = None if (self.composite and rng.random() < 0.12) else rng.choice(va)
            fb = None if rng.random() < (0.12 if self.composite else 0.03) else rng.choice(vb)
            out.append((fa, fb))
        return out

    def field_sql(self, spec, text):
        return "NULL::%s" % spec.sqltype if text is None else spec.member_sql(text)

    def __repr__(self):
        return self.tag


RECORD_PAIRS = [("int8", "date"), ("int4", "text"), ("bpchar6", "numeric"), ("timestamptz", "float8"),
                ("text", "int8"), ("date", "timestamp"), ("uuid", "interval"), ("float4", "varchar")]
RECORDS = [RecordSpec(SCALAR_BY_TAG[a], SCALAR_BY_TAG[b]) for a, b in RECORD_PAIRS] + \
    [RecordSpec(SCALAR_BY_TAG[a], SCALAR_BY_TAG[b], composite=True)
     for a, b in [("int8", "date"), ("text", "numeric"), ("bpchar6", "int4")]]


def all_specs():
    return SCALARS + ARRAYS + RECORDS


TEXT_TYPES = ("text", "character varying", "character", "bpchar", "name", "citext")


def holds_text(spec):
    """Whether a key of this spec holds a string: the key types that the
    database encoding reaches (text, varchar, char(n), name, their domains,
    arrays and rows of them)."""
    if spec.kind == "array":
        return holds_text(spec.elem)
    if spec.kind == "record":
        return holds_text(spec.a) or holds_text(spec.b)
    t = (spec.base or spec.sqltype).split("(")[0].strip()
    return t in TEXT_TYPES


def new_rng(seed, *parts):
    return random.Random("%s/%s" % (seed, "/".join(str(p) for p in parts)))
