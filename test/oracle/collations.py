"""The probe's collation, a dimension of the equality oracle (issue 32).

SQL's `=` compares text under the collation the probe brings.  A
nondeterministic collation calls strings of other bytes equal ('alice' and
'Alice' at strength 2, 'José' and 'jose' at strength 1, 'a-b' and 'ab' when
punctuation is shifted), which no filter of the stored bytes can find: each
path must then refuse (0A000), and under a deterministic collation answer as
it does without one.

For the members of every text-like key type (text, varchar, char(n), name,
domains over them, arrays of them, and records with such a field) this
module makes probes under each collation the server offers that differs in
behaviour (C, ICU's root collation, nondeterministic ICU at strengths 1 and
2 and with punctuation shifted), in every way a collation reaches a probe:

    collate   ('...'::U COLLATE c)
    domain    ('...'::U)::a domain over U declared COLLATE c
    param     ($1 COLLATE c), $1 a parameter of type U (PREPARE p(U) AS
              ... $1 COLLATE c)
    column    a column of a probe table declared COLLATE c
    join      the same column, reached by a join on `=` with the member
              table (the join itself compares under c)
    plpgsql   a PL/pgSQL function's parameter, which takes the caller's
              collation; the oracle's `=` and the paths run inside it
    sqlfunc   the same in an SQL function (not inlined)
    row       ROW(a, b) with its text field under c (records)

A probe's form is named coll-<collation>-<form> (coll-ks2-join), one row
each in the oracle's table by form.

U is the member's type or another text-like type SQL compares it with.
The strings are the member's own text and others derived from it (case,
accents, blanks, punctuation); whether one equals the member is left to
SQL's `=`, as everywhere in the oracle.

The module keeps to itself: oracle.py calls setup(), member_probes() and
flush(), and a probe whose form runs inside a function carries a wrapper
(FunctionForm) that makes its statements.
"""

import unicodedata

from forms import Probe
from keys import BASE_PROFILES, lit
from pgrun import Statement

# (tag, SQL name, CREATE COLLATION options or None for a built-in one)
COLLATIONS = [
    ("C", 'pg_catalog."C"', None),
    ("icu", "oracle_coll_icu", "provider = icu, locale = 'und'"),
    ("ks1", "oracle_coll_ks1", "provider = icu, locale = 'und-u-ks-level1', deterministic = false"),
    ("ks2", "oracle_coll_ks2", "provider = icu, locale = 'und-u-ks-level2', deterministic = false"),
    ("shifted", "oracle_coll_shifted", "provider = icu, locale = 'und-u-ka-shifted', deterministic = false"),
]
FORMS = ["collate", "domain", "param", "column", "join", "plpgsql", "sqlfunc"]
# the key types (as format_type names their base type) whose members get probes
TEXT_TYPES = {"text", "character varying", "character", "name"}


class State:
    def __init__(self):
        self.run = None
        self.collations = []        # (tag, SQL name) the server made
        self.specs = {}             # probe types U: tag -> spec
        self.pending = {}           # probe table -> [(k, literal)]
        self.functions = {}         # (language, U, returns, exprs) -> function name
        self.next_k = 0


_state = State()


def _textlike(spec):
    return spec.kind == "scalar" and getattr(spec, "key_regtype", None) in TEXT_TYPES


def applies(spec):
    """Whether members of the key type get collation probes."""
    if spec.kind == "array":
        return _textlike(spec.elem)
    if spec.kind == "record":
        return _textlike(spec.a) or _textlike(spec.b)
    return _textlike(spec)


def setup(run, ctxs, log):
    """The collations the server offers (an ICU one it cannot make, as in a
    server without ICU or a database of an encoding ICU does not take, is
    left out and named), and per probe type U and collation a domain and a
    probe table."""
    st = _state
    st.run = run
    for tag, name, options in COLLATIONS:
        if options is not None:
            r = run.one("CREATE COLLATION IF NOT EXISTS %s (%s)" % (name, options))
            if not r.ok:
                log("  collation %s: %s %s; not asked" % (tag, r.sqlstate, r.message))
                continue
        st.collations.append((tag, name))
    for ctx in ctxs:
        spec = ctx.spec
        if not applies(spec):
            continue
        if spec.kind == "scalar":
            for u in [spec] + [u for u in spec.cross if _textlike(u)]:
                st.specs[u.tag] = u
        elif spec.kind == "array":
            st.specs[spec.tag] = spec
    for u in st.specs.values():
        for ctag, cname in st.collations:
            for sql in ("CREATE DOMAIN %s AS %s COLLATE %s" % (_domain(ctag, u), u.sqltype, cname),
                        "CREATE TABLE %s (k integer PRIMARY KEY, v %s COLLATE %s)"
                        % (_table(ctag, u), u.sqltype, cname)):
                run.must(sql)
    log("oracle: collations %s; probes of %d text-like types through %s"
        % (", ".join(t for t, _ in st.collations), len(st.specs), ", ".join(FORMS)))


def _domain(ctag, u):
    return "oracle_coll_d_%s_%s" % (ctag, u.tag)


def _table(ctag, u):
    return "oracle_coll_p_%s_%s" % (ctag, u.tag)


def _strip_accents(s):
    return unicodedata.normalize("NFC", "".join(ch for ch in unicodedata.normalize("NFD", s)
                                                if not unicodedata.combining(ch)))


def text_variants(t):
    """Strings some collation may call equal to t: itself, other cases,
    without accents, with blanks and punctuation added or removed."""
    out = [t, t.upper(), t.lower(), t.swapcase(), _strip_accents(t), _strip_accents(t).upper(),
           t + " ", t.rstrip(" "), t.replace(" ", "").replace("-", "").replace("_", "")]
    if len(t) > 1:
        out.append(t[0] + "-" + t[1:])
        out.append(t[0] + " " + t[1:].upper())
    return list(dict.fromkeys(out))


def array_variants(t):
    """The same for an array's text, changed only where its syntax allows."""
    return list(dict.fromkeys([t, t.upper(), t.lower(), t.swapcase(), _strip_accents(t)]))


def member_probes(ctx, row, rng):
    """For each collation and form, a probe of a string derived from the
    member (the member's own text in one form of each collation)."""
    st = _state
    spec = ctx.spec
    if not st.collations or not applies(spec):
        return []
    if spec.kind == "record":
        return _record_probes(spec, row, rng)
    t0 = row.text.get(BASE_PROFILES[0].name)
    if t0 is None:
        return []
    if spec.kind == "array":
        types, variants = [spec], array_variants(t0)
    else:
        types = [u for u in [spec] + spec.cross if u.tag in st.specs]
        variants = text_variants(t0)
    # the member's own text in one form, other strings in the rest
    others = [v for v in variants if v != t0] or [t0]
    out = []
    for ctag, cname in st.collations:
        own = rng.choice(FORMS)
        for form in FORMS:
            v = t0 if form == own else rng.choice(others)
            u = spec if form == own else rng.choice(types)
            p = _probe(form, ctag, cname, u, ctx, row, v)
            if p is not None:
                out.append(p)
    return out


def _probe(form, ctag, cname, u, ctx, row, v):
    st = _state
    p0 = BASE_PROFILES[0]
    name = "coll-%s-%s" % (ctag, form)
    note = "%r as %s under %s" % (v, u.sqltype, cname)
    typed = "%s::%s" % (lit(v), u.sqltype)
    if form == "collate":
        return Probe(name, "(%s COLLATE %s)" % (typed, cname), p0, note=note)
    if form == "domain":
        return Probe(name, "(%s)::%s" % (typed, _domain(ctag, u)), p0, note=note)
    if form == "param":
        return Probe(name, "($?0 COLLATE %s)" % cname, p0, [(v.encode(), u.oid, 0)], note=note,
                     ptypes=[u.sqltype])
    if form in ("column", "join"):
        st.next_k += 1
        k = st.next_k
        st.pending.setdefault(_table(ctag, u), []).append((k, typed))
        if form == "column":
            frag = "(SELECT pc.v FROM %s pc WHERE pc.k = %d)" % (_table(ctag, u), k)
        else:
            frag = ("(SELECT pc.v FROM %s q JOIN %s pc ON %s = pc.v WHERE q.id = %d AND pc.k = %d)"
                    % (ctx.names["{M}"], _table(ctag, u), "q.col", row.id, k))
        return Probe(name, frag, p0, note=note)
    lang = "plpgsql" if form == "plpgsql" else "sql"
    p = Probe(name, "(%s COLLATE %s)" % (typed, cname), p0, note=note + ", a parameter of a %s function (its reproduction gives the argument with "
              "COLLATE)" % lang)
    p.wrapper = FunctionForm(lang, u.sqltype)
    return p


def _record_probes(spec, row, rng):
    """ROW(a, b) with its text field under each collation: a row carries
    its fields' collations."""
    st = _state
    fa, fb = row.parts
    out = []
    for ctag, cname in st.collations:
        fields = []
        for f, text in ((spec.a, fa), (spec.b, fb)):
            if text is None:
                fields.append("NULL::" + f.sqltype)
            elif _textlike(f):
                fields.append("(%s COLLATE %s)" % (f.member_sql(rng.choice(text_variants(text))), cname))
            else:
                fields.append(f.member_sql(text))
        frag = "ROW(%s, %s)" % tuple(fields)
        if spec.composite:
            frag += "::" + spec.sqltype
        out.append(Probe("coll-%s-row" % ctag, frag, BASE_PROFILES[0]))
    return out


def flush(run):
    """The probe tables' rows, before the cases are asked."""
    st = _state
    for table, rows in st.pending.items():
        for i in range(0, len(rows), 500):
            batch = rows[i:i + 500]
            r = run.one("INSERT INTO %s (k, v) VALUES %s" % (
                table, ", ".join("(%d, %s)" % kv for kv in batch)))
            if r.ok:
                continue
            if r.sqlstate != "22P05":
                raise RuntimeError("oracle setup failed: %s: %s" % (r.sqlstate, r.message))
            # a string the database's encoding cannot hold (--encoding):
            # the rows one by one, without those; their probes find no row
            for kv in batch:
                r = run.one("INSERT INTO %s (k, v) VALUES (%d, %s)" % ((table,) + kv))
                if not r.ok and r.sqlstate != "22P05":
                    raise RuntimeError("oracle setup failed: %s: %s" % (r.sqlstate, r.message))
    st.pending.clear()


class FunctionForm:
    """A probe given to a function's parameter of type U: the parameter
    takes the collation of the argument, and the oracle's `=` and the paths
    run inside the function.  One function per language, U, build and set
    of expressions, made when first asked; the statement calls it from the
    select list, so that an SQL function is not inlined."""

    W = "oracle_w"

    def __init__(self, lang, utype):
        self.lang = lang
        self.utype = utype

    def _function(self, ctx, build, exprs, types):
        st = _state
        key = (self.lang, self.utype, ctx.tag, build, tuple(exprs), tuple(types))
        name = st.functions.get(key)
        if name is not None:
            return name
        name = "oracle_coll_fn_%d" % len(st.functions)
        cols = ", ".join("oracle_r%d %s" % (i, t) for i, t in enumerate(types))
        query = "SELECT %s FROM %s m, %s f WHERE m.id = oracle_mid AND f.build = %d" % (
            ", ".join(exprs), ctx.names["{M}"], ctx.names["{F}"], build)
        body = "BEGIN RETURN QUERY %s; END" % query if self.lang == "plpgsql" else query
        st.run.must("CREATE FUNCTION %s(%s %s, oracle_mid integer) RETURNS TABLE (%s) LANGUAGE %s "
                    "STABLE AS %s" % (name, self.W, self.utype, cols, self.lang, _dollar(body)))
        st.functions[key] = name
        return name

    def _statement(self, case, exprs, types):
        name = self._function(case.ctx, case.build, exprs, types)
        # a function of one column returns its value, of several a row
        cols = "(x).*" if len(types) > 1 else "x"
        return Statement("SELECT %s FROM (SELECT %s(%s, %d) AS x) s" % (cols, name, case.probe.frag,
                                                                        case.member.id))

    def oracle_statement(self, case):
        """What oracle.oracle_statement asks, with the probe a parameter."""
        ctx = case.ctx
        w = self.W
        exprs = [ctx.sub("coalesce({C} = %s, false)" % w),
                 ctx.sub("EXISTS (SELECT 1 FROM {M} q WHERE {CQ} = %s AND NOT coalesce({CQ} = {C}, false))" % w),
                 "(SELECT coalesce(nullif(t.typbasetype, 0), t.oid)::regtype::text FROM pg_type t "
                 "WHERE t.oid = pg_typeof(%s))" % w,
                 ctx.sub("(SELECT coalesce(nullif(t.typbasetype, 0), t.oid)::regtype::text FROM pg_type t "
                         "WHERE t.oid = pg_typeof({C}))")]
        return self._statement(case, exprs, ["boolean", "boolean", "text", "text"])

    def group_statement(self, case, plist):
        """What oracle.group_statement asks, with the probe a parameter."""
        exprs = [case.ctx.sub(p.expr, case.build).replace("{W}", self.W).replace("{S}", self.W)
                 for p in plist]
        return self._statement(case, exprs, ["boolean"] * len(exprs))


def _dollar(body):
    tag = "$oracle$"
    assert tag not in body
    return tag + body + tag
