"""Probes: the forms in which a client or a query may give a member's value
back (test/oracle/oracle.py).

A probe is an SQL fragment, possibly with parameters, and the session
settings it is sent under.  Parameters are written `$?0`, `$?1`, ... in the
fragment and numbered when the fragment is placed in a statement.
"""

import datetime
import decimal
import math
import re
import uuid

from psycopg.adapt import PyFormat

from keys import BASE_PROFILES, PROFILES, lit

TEXT_OID = 25
VARCHAR_OID = 1043
UNKNOWN_OID = 0

_MARK = re.compile(r"\$\?(\d+)")


class Probe:
    __slots__ = ("form", "frag", "params", "profile", "pyval", "pytype", "note", "ptypes", "prepared_under",
                 "untyped", "wrapper")

    def __init__(self, form, frag, profile, params=(), pyval=None, pytype=None, note="", ptypes=None,
                 untyped=None):
        self.form = form            # kind of form, for the summary and causes
        self.frag = frag            # SQL with $?k markers
        self.params = list(params)  # (bytes or None, oid, format) per marker
        self.profile = profile      # keys.Profile the statement runs under
        self.pyval = pyval          # a Python value the clients can check
        self.pytype = pytype        # how psycopg sent it ("text"/"binary")
        self.note = note            # for reproductions: how it was written
        self.ptypes = ptypes        # SQL type names of the params (None: untyped)
        self.prepared_under = None  # keys.Profile a named statement was prepared under
        # an object that makes the probe's statements itself (the probe is
        # a function's parameter, and the paths run inside the function:
        # collations.FunctionForm)
        self.wrapper = None
        # "top": the probe itself is an untyped literal or parameter;
        # "inner": a ROW(...) with an untyped field.  In `col = w` SQL
        # reads such a part as col's type; given to a filter that does not
        # know the member's type (an untyped filter, a record filter,
        # bf_shard) it is text, and text is what was added: those paths
        # are not asked for such probes (paths.UNTYPED_TOP_SKIP)
        if untyped is None:
            untyped = _untyped_of(frag, self.params)
        self.untyped = untyped

    def instantiate(self, start):
        """The fragment with markers numbered from start + 1."""
        if not self.params:
            return self.frag, []
        frag = _MARK.sub(lambda m: "$%d" % (start + 1 + int(m.group(1))), self.frag)
        return frag, list(self.params)

    def describe(self):
        if not self.params:
            return self.frag
        shown = []
        for k, (val, oid, fmt) in enumerate(self.params):
            t = self.ptypes[k] if self.ptypes and self.ptypes[k] else ("unknown" if oid == 0 else "oid %d" % oid)
            if val is None:
                v = "NULL"
            elif fmt == 1:
                v = "binary " + val.hex()
            else:
                v = lit(val.decode("utf-8", "replace"))
            shown.append("$%d %s = %s" % (k + 1, t, v))
        return _MARK.sub(lambda m: "$%d" % (1 + int(m.group(1))), self.frag) + " with " + ", ".join(shown)


def is_untyped_fragment(frag):
    """A bare string literal, NULL, or an untyped parameter marker."""
    return frag == "NULL" or (frag.startswith("'") and frag.endswith("'")) or bool(_MARK.fullmatch(frag))


def _untyped_of(frag, params):
    if frag == "$?0":
        return "top" if params and params[0][1] == 0 else None
    if frag.startswith("'") and frag.endswith("'") and "'::" not in frag:
        return "top"
    return None


def param_probe(form, text, oid, profile, ptype, fmt=0, pyval=None, pytype=None, note=""):
    value = text if isinstance(text, (bytes, bytearray)) else text.encode()
    return Probe(form, "$?0", profile, [(bytes(value), oid, fmt)], pyval=pyval, pytype=pytype,
                 note=note, ptypes=[ptype])


def elem_fragments(spec, text, rng, k=4):
    """A few SQL fragments for one element or field whose input text is
    text: typed, untyped, another spelling, another type."""
    if text is None:
        return ["NULL", "NULL::" + spec.sqltype]
    out = [lit(text) + "::" + spec.sqltype, lit(text)]
    alts = spec.variants(text)
    if alts:
        a = rng.choice(alts)
        out += [lit(a) + "::" + spec.sqltype, lit(a)]
    if spec.cross:
        u = rng.choice(spec.cross)
        out.append(lit(text) + "::" + u.sqltype)
        out.append("CAST(%s AS %s)" % (spec.member_sql(text), u.sqltype))
    rng.shuffle(out)
    return out[:k]


def _texts_forms(spec, row, rng, typed_sql):
    """Untyped and typed literals of the member's output text, written
    under every profile, read under that one and another, and the same as
    parameters (untyped, text, varchar)."""
    out = []
    seen = set()
    for pw in BASE_PROFILES:
        t = row.text[pw.name]
        if t is None:
            continue
        other = rng.choice(BASE_PROFILES)
        for pr in [pw] + ([other] if other is not pw else []):
            if (t, pr.name) in seen:
                continue
            seen.add((t, pr.name))
            note = "output text under %s, read under %s" % (pw.name, pr.name)
            out.append(Probe("literal:untyped", lit(t), pr, note=note))
            if typed_sql:
                out.append(Probe("literal:typed", lit(t) + "::" + typed_sql, pr, note=note))
            prp = rng.choice([pr, next(p for p in PROFILES if p.name == pr.name + "+generic")])
            out.append(param_probe("param:untyped", t, 0, prp, None, note=note))
            out.append(param_probe("param:text", t, TEXT_OID, prp, "text", note=note))
            if rng.random() < 0.3:
                out.append(param_probe("param:varchar", t, VARCHAR_OID, prp, "varchar", note=note))
    return out


def derived_values(val):
    try:
        return _derived_values(val)
    except (ArithmeticError, ValueError, OverflowError):
        return []


def _derived_values(val):
    """Python values a program may hold for the member instead of the one
    psycopg read: the same number as another type, a date as a midnight
    datetime, a string without its blanks, a UUID as text."""
    out = []
    if isinstance(val, bool):
        return out
    if isinstance(val, int):
        out += [float(val), decimal.Decimal(val), str(val)]
    elif isinstance(val, float):
        if math.isfinite(val):
            out.append(decimal.Decimal(repr(val)))
            if val == int(val):
                out.append(int(val))
    elif isinstance(val, decimal.Decimal):
        if val.is_finite():
            out += [float(val), val.normalize(), val.quantize(decimal.Decimal(1).scaleb(min(val.as_tuple().exponent, 0) - 2))]
            if val == val.to_integral_value():
                out.append(int(val))
        else:
            out.append(float(val))
    elif isinstance(val, str):
        out += [val.rstrip(" "), val + " ", val.upper()]
    elif isinstance(val, datetime.datetime):
        if val.tzinfo is None:
            out.append(val.replace(tzinfo=datetime.timezone.utc))
            if val.time() == datetime.time(0):
                out.append(val.date())
        else:
            out += [val.astimezone(datetime.timezone(datetime.timedelta(hours=-5))),
                    val.astimezone(datetime.timezone.utc).replace(tzinfo=None)]
    elif isinstance(val, datetime.date):
        out.append(datetime.datetime(val.year, val.month, val.day))
    elif isinstance(val, datetime.time):
        if val.tzinfo is None:
            out.append(val.replace(tzinfo=datetime.timezone.utc))
    elif isinstance(val, uuid.UUID):
        out += [str(val), val.bytes]
    elif isinstance(val, (bytes, bytearray, memoryview)):
        out.append(bytearray(val))
    elif isinstance(val, list):
        out.append(tuple(val))
    return [v for v in out if not (type(v) is type(val) and v == val and str(v) == str(val))]


def psycopg_forms(row, tx, rng):
    """The member read back through psycopg (text and binary results) and
    sent again as psycopg sends that Python value (text and binary); and
    values derived from it that a program may hold instead."""
    out = []
    seen = set()
    vals = []
    for load in ("text", "binary"):
        if load in row.py:
            vals.append((load, row.py[load]))
            vals += [(load + "+" + type(d).__name__, d) for d in derived_values(row.py[load])]
    for load, val in vals:
        for fmt, fname in ((PyFormat.TEXT, "text"), (PyFormat.BINARY, "binary")):
            try:
                buf = tx.dump_sequence([val], [fmt])[0]
                oid = tx.types[0]
                pfmt = int(tx.formats[0])
            except Exception:
                continue
            key = (None if buf is None else bytes(buf), oid, pfmt)
            if key in seen or buf is None:
                continue
            seen.add(key)
            prof = rng.choice(PROFILES)
            kind = "psycopg" if "+" not in load else "psycopg-derived"
            out.append(Probe("%s:%s->%s" % (kind, load, fname), "$?0", prof, [key], pyval=val,
                             pytype=fname, note="psycopg read the column (%s) and sent %r" % (load, val),
                             ptypes=[None if oid == 0 else "oid:%d" % oid]))
    return out


def scalar_probes(spec, row, rng):
    out = []
    p0 = BASE_PROFILES[0]
    t0 = row.text[p0.name]
    # the member's own literal
    out.append(Probe("typed", spec.member_sql(t0), p0))
    # other spellings of the same type, typed and untyped
    for alt in spec.variants(row.gen_text if row.gen_text is not None else t0):
        out.append(Probe("spelling:typed", lit(alt) + "::" + spec.sqltype, p0))
        out.append(Probe("spelling:untyped", lit(alt), p0))
        if rng.random() < 0.3:
            out.append(param_probe("spelling:param", alt, 0, rng.choice(PROFILES), None))
    if row.gen_text is not None and row.gen_text != t0:
        out.append(Probe("spelling:untyped", lit(row.gen_text), p0, note="generator text"))
    out += _texts_forms(spec, row, rng, spec.sqltype)
    # other types SQL compares it with
    for u in spec.cross:
        prof = rng.choice(BASE_PROFILES)
        t = row.cross.get((prof.name, u.tag))
        if t is not None:
            out.append(Probe("cross:" + u.tag, lit(t) + "::" + u.sqltype, prof,
                             note="the member cast to %s, written under %s" % (u.sqltype, prof.name)))
            pp = rng.choice(PROFILES)
            if pp.settings == prof.settings or pp.name == prof.name + "+generic":
                out.append(param_probe("cross-param:" + u.tag, t, u.oid, pp, u.sqltype))
        if (t is None or t != t0) and rng.random() < 0.5:
            out.append(Probe("cross-spelling:" + u.tag, lit(t0) + "::" + u.sqltype, p0,
                             note="the member's text read as %s" % u.sqltype))
        # other spellings in the other type ('ABC'::citext for 'abc',
        # 'ab   '::character(6) for 'ab')
        alts = u.variants(t if t is not None else t0)
        if alts:
            out.append(Probe("cross-spelling:" + u.tag, lit(rng.choice(alts)) + "::" + u.sqltype, p0,
                             note="another spelling of the member as %s" % u.sqltype))
        b = row.cross_send.get(u.tag)
        if b is not None:
            out.append(Probe("cross-binary:" + u.tag, "$?0", rng.choice(PROFILES), [(b, u.oid, 1)],
                             ptypes=[u.sqltype]))
    # the member's own binary form
    if row.send is not None:
        out.append(Probe("param:binary", "$?0", rng.choice(PROFILES), [(row.send, spec.oid, 1)],
                         ptypes=[spec.sqltype]))
    # inside a scalar subquery and a CASE, where an untyped literal turns text
    out.append(Probe("subquery:untyped", "(SELECT %s)" % lit(t0), p0))
    out.append(Probe("subquery:typed", "(SELECT %s)" % spec.member_sql(t0), p0))
    return out


def array_probes(spec, row, rng):
    out = []
    p0 = BASE_PROFILES[0]
    t0 = row.text[p0.name]
    out.append(Probe("typed", lit(t0) + "::" + spec.sqltype, p0))
    out += _texts_forms(spec, row, rng, spec.sqltype)
    for u in spec.elem.cross:
        if u.tag in spec.cross_elems:
            out.append(Probe("cross-array:" + u.tag, lit(t0) + "::" + u.sqltype + "[]", p0))
    if row.send is not None:
        out.append(Probe("param:binary", "$?0", rng.choice(PROFILES), [(row.send, spec.oid, 1)],
                         ptypes=[spec.sqltype]))
    elems = row.parts
    if elems is not None:
        if not elems:
            out.append(Probe("ARRAY[]", "ARRAY[]::" + spec.sqltype, p0))
            for u in spec.elem.cross[:3]:
                out.append(Probe("ARRAY[]:" + u.tag, "ARRAY[]::%s[]" % u.sqltype, p0))
        else:
            for _ in range(6):
                frags = [rng.choice(elem_fragments(spec.elem, e, rng)) for e in elems]
                out.append(Probe("ARRAY[...]", "ARRAY[%s]" % ", ".join(frags), p0))
            frags = [rng.choice(elem_fragments(spec.elem, e, rng)) for e in elems]
            for u in spec.elem.cross[:2]:
                out.append(Probe("ARRAY[...]::" + u.tag, "ARRAY[%s]::%s[]" % (", ".join(frags), u.sqltype), p0))
            # elements as untyped parameters
            ps = [None if e is None else e.encode() for e in elems]
            out.append(Probe("ARRAY[$n]", "ARRAY[%s]" % ", ".join("$?%d" % i for i in range(len(elems))),
                             rng.choice(PROFILES), [(v, 0, 0) for v in ps], ptypes=[None] * len(elems)))
    return out


def record_probes(spec, row, rng):
    out = []
    p0 = BASE_PROFILES[0]
    fa, fb = row.parts
    for _ in range(10):
        a = rng.choice(elem_fragments(spec.a, fa, rng))
        b = rng.choice(elem_fragments(spec.b, fb, rng))
        inner = "inner" if is_untyped_fragment(a) or is_untyped_fragment(b) else None
        out.append(Probe("ROW(...)", "ROW(%s, %s)" % (a, b), p0, untyped=inner))
    if fa is not None and fb is not None:
        # fields as parameters: untyped, text
        out.append(Probe("ROW($1, $2)", "ROW($?0, $?1)", rng.choice(PROFILES),
                         [(fa.encode(), 0, 0), (fb.encode(), 0, 0)], ptypes=[None, None], untyped="inner"))
        out.append(Probe("ROW($1::text, $2::text)", "ROW($?0, $?1)", rng.choice(PROFILES),
                         [(fa.encode(), TEXT_OID, 0), (fb.encode(), TEXT_OID, 0)], ptypes=["text", "text"]))
        out.append(Probe("ROW($1, typed)", "ROW($?0, %s)" % spec.b.member_sql(fb), rng.choice(PROFILES),
                         [(fa.encode(), 0, 0)], ptypes=[None], untyped="inner"))
    if spec.composite:
        t0 = row.text[p0.name]
        out.append(Probe("typed", lit(t0) + "::" + spec.sqltype, p0))
        out += _texts_forms(spec, row, rng, spec.sqltype)
        if row.send is not None:
            out.append(Probe("param:binary", "$?0", rng.choice(PROFILES), [(row.send, spec.oid, 1)],
                             ptypes=[spec.sqltype]))
    return out


# types whose text input or output depends on DateStyle, TimeZone or
# IntervalStyle: their probes are more often prepared elsewhere
SETTING_TYPES = ("date", "time", "timestamp", "interval")


def prepared_elsewhere(probes, rng, share):
    """Copies of some probes in statements prepared (named, PREPARE) under
    other settings and executed under the probe's own: SQL reads a literal
    when the statement is parsed, a function may read text when it runs."""
    out = []
    for p in probes:
        if rng.random() >= share:
            continue
        other = rng.choice([q for q in BASE_PROFILES if q.settings != p.profile.settings])
        q = Probe("prepared elsewhere:" + p.form, p.frag, p.profile, p.params, pyval=None,
                  note=("prepared under %s, executed under %s" % (other.name, p.profile.name)
                        + ("; " + p.note if p.note else "")), ptypes=p.ptypes, untyped=p.untyped)
        q.prepared_under = other
        out.append(q)
    return out


def member_probes(spec, row, rng, tx):
    if spec.kind == "scalar":
        out = scalar_probes(spec, row, rng)
    elif spec.kind == "array":
        out = array_probes(spec, row, rng)
    else:
        out = record_probes(spec, row, rng)
    out += psycopg_forms(row, tx, rng)
    sensitive = any(t in spec.tag for t in SETTING_TYPES)
    out += prepared_elsewhere(out, rng, 0.35 if sensitive else 0.08)
    return out
