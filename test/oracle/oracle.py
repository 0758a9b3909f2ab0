#!/usr/bin/python3
"""The equality oracle (issue 23, item 1): every way the extension is asked
about a key must answer "present" for every probe that SQL's own `=` finds
equal to a member, or refuse with an error; a "false" is a silent absence,
the one thing a filter must never say.

For every key type the extension accepts (asked of the server), it stores
generated members (random and edge values) in a table, builds filters from
the column in every way (bf_agg sized, unsized, counting, scalable, from a
template's shape, with a key type, bf_add_all, bf_add one at a time, cf_agg,
cf_add_all, cf_add; two build sessions of different settings), indexes it
with the bloomfilter access method (built by inserts, by CREATE INDEX, on an
expression, on two columns, and on an empty shell whose rows live
elsewhere, as a Citus table's do) and shards it; then for each member v it
generates probes w that SQL may call equal (other spellings, other types,
untyped literals of its
output under other DateStyle/TimeZone/IntervalStyle/extra_float_digits,
text, untyped and binary parameters, psycopg's round trip, ROW(...) and
ARRAY[...] around it, generic plans, and for text-like types other
strings under every collation through every form that carries one:
collations.py), asks PostgreSQL whether
`col = w` finds v's row, and for those it does, asks every path.  The
Python and Java clients answer the same probes from the fetched filters.

    test/oracle/oracle.py [--triples N] [--seed S]      (see --help)

Exit status 1 if any silent absence was found.  See CONTRIBUTING.md, "The
equality oracle".
"""

import argparse
import collections
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from psycopg import pq  # noqa: E402
from psycopg.adapt import Transformer  # noqa: E402

import collations  # noqa: E402
import forms  # noqa: E402
import keys  # noqa: E402
import paths  # noqa: E402
import pgrun  # noqa: E402
from keys import BASE_PROFILES, BUILD_PROFILES, lit  # noqa: E402
from pgrun import Statement  # noqa: E402

REFUSALS = ("42804", "0A000", "22P02")
# cases whose oracle and paths are sent in one round of pipelines
BATCH = 400


def log(*a):
    print(*a, flush=True)


# ---- per key type: the members, the filters, the indexes ----


class Member:
    __slots__ = ("id", "sql", "gen_text", "parts", "text", "cross", "cross_send", "send", "py", "shard")

    def __init__(self, id, sql, gen_text=None, parts=None):
        self.id = id
        self.sql = sql
        self.gen_text = gen_text
        self.parts = parts
        self.text = {}
        self.cross = {}
        self.cross_send = {}
        self.send = None
        self.py = {}
        self.shard = None


class Ctx:
    """One key type's tables, filters and indexes in the oracle database."""

    def __init__(self, spec):
        self.spec = spec
        tag = spec.tag
        self.tag = tag
        self.names = {"{M}": "m_" + tag, "{F}": "f_" + tag, "{SH}": "s_" + tag,
                      "{II}": lit("ii_" + tag), "{IB}": lit("ib_" + tag),
                      "{IE}": lit("ie_" + tag), "{IM}": lit("im_" + tag),
                      "{IS}": lit("is_" + tag)}
        self.anon = spec.kind == "record" and not spec.composite
        self.C = "ROW(m.a, m.b)" if self.anon else "m.col"
        self.CP = "ROW(p.a, p.b)" if self.anon else "p.col"
        self.CQ = "ROW(q.a, q.b)" if self.anon else "q.col"
        self.T = lit("record" if spec.kind == "record" else spec.sqltype)
        # the key type as the Python client's shard(key_type=...) takes it
        self.key_type_name = "record" if spec.kind == "record" else getattr(spec, "key_regtype", None)
        self.available = set()
        self.problems = []           # (what, sqlstate, message) of what could not be built
        self.consts = {}             # build -> text of bf_sized
        self.members = []
        self.client_bytes = {}       # (build, kind) -> bytes
        self.refused_values = 0
        self.cf_grown = False

    def sub(self, expr, build=None):
        for k, v in self.names.items():
            expr = expr.replace(k, v)
        expr = expr.replace("{C}", self.C).replace("{CP}", self.CP).replace("{CQ}", self.CQ)
        expr = expr.replace("{T}", self.T)
        if build is not None and "{K}" in expr:
            expr = expr.replace("{K}", lit(self.consts[build]))
        return expr


# whether the stand-in of Citus's catalog was made (setup_rows_elsewhere)
ROWS_ELSEWHERE = False


def setup_rows_elsewhere(run):
    """Where a relation's rows live: a stand-in of Citus's catalog
    pg_catalog.pg_dist_partition (its name, its logicalrelid column, its
    index), so that the index of a table listed there stands for the index
    of a Citus table's shell, whose rows live elsewhere (here, in the
    members table, standing for the shards); every bf_index_* call on it
    must refuse.  make check-citus asks the same of Citus itself.  Not made
    where Citus's own catalog is, or by a role that may not make it."""
    global ROWS_ELSEWHERE
    if run.must("SELECT to_regclass('pg_catalog.pg_dist_partition') IS NULL")[0][0] != "t":
        log("oracle: pg_dist_partition exists (Citus?): the rows-elsewhere index is not made")
        return
    r = run.one("SET allow_system_table_mods = on")
    for sql in ("CREATE TABLE pg_catalog.pg_dist_partition (logicalrelid regclass NOT NULL, "
                "partmethod \"char\" NOT NULL)",
                "CREATE UNIQUE INDEX pg_dist_partition_logical_relid_index "
                "ON pg_catalog.pg_dist_partition (logicalrelid)"):
        if r.ok:
            r = run.one(sql)
    run.one("RESET allow_system_table_mods")
    if r.ok:
        ROWS_ELSEWHERE = True
    else:
        log("oracle: no stand-in of pg_dist_partition (%s %s): the rows-elsewhere index is not made"
            % (r.sqlstate, r.message))


def setup_db(run, have_citext):
    run.must("CREATE EXTENSION IF NOT EXISTS bloomfilter")
    if have_citext:
        run.must("CREATE EXTENSION IF NOT EXISTS citext")
    run.must("""CREATE FUNCTION oracle_cast_text(v anyelement, t text) RETURNS text
        LANGUAGE plpgsql AS $$
        DECLARE r text;
        BEGIN
            EXECUTE format('SELECT format(''%%s'', $1::%s)', t) INTO r USING v;
            RETURN r;
        EXCEPTION WHEN others THEN RETURN NULL;
        END $$""")
    run.must("""CREATE FUNCTION oracle_cast_send(v anyelement, t text, send text) RETURNS bytea
        LANGUAGE plpgsql AS $$
        DECLARE r bytea;
        BEGIN
            EXECUTE format('SELECT %s(($1)::%s)', send, t) INTO r USING v;
            RETURN r;
        EXCEPTION WHEN others THEN RETURN NULL;
        END $$""")
    run.must("""CREATE FUNCTION oracle_try_key_type(t regtype) RETURNS text LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM bf_create(10, key_type => t);
            RETURN 'ok';
        EXCEPTION WHEN others THEN RETURN SQLSTATE;
        END $$""")


def discover(run, specs):
    """Which types the server takes as keys, against what the oracle
    generates: the bloomfilter index's operator classes, and every built-in
    type with an equality operator that bf_create(key_type => ...) takes."""
    opclasses = run.must("""SELECT c.opcintype::regtype::text FROM pg_opclass c
        JOIN pg_am a ON a.oid = c.opcmethod WHERE a.amname = 'bloomfilter' ORDER BY 1""")
    accepted = run.must("""SELECT t.oid::regtype::text FROM pg_type t
        WHERE t.oid < 16384 AND t.typtype IN ('b', 'r', 'm', 'e') AND t.typcategory <> 'A'
          AND t.typisdefined
          AND EXISTS (SELECT 1 FROM pg_operator o WHERE o.oprname = '='
                      AND o.oprleft = t.oid AND o.oprright = t.oid)
          AND oracle_try_key_type(t.oid) = 'ok' ORDER BY 1""")
    generated = set()
    for s in specs:
        if s.kind == "scalar" and s.regtype:
            generated.add(s.regtype)
    opc = [r[0] for r in opclasses]
    acc = [r[0] for r in accepted]
    missing = sorted((set(opc) | set(acc)) - generated - {"anyarray"})
    log("key types: %d operator classes of the bloomfilter index, %d built-in types bf_create's "
        "key_type takes; %d scalar key types generated (with domains, typmods, citext), %d array, "
        "%d record" % (len(opc), len(acc), sum(1 for s in specs if s.kind == "scalar"),
                       sum(1 for s in specs if s.kind == "array"),
                       sum(1 for s in specs if s.kind == "record")))
    if missing:
        log("  accepted but not generated: " + ", ".join(missing))
    return missing


def resolve_types(run, specs):
    """Type names, OIDs and send functions from the server; which specs
    it cannot make (an extension missing) are dropped."""
    out = []
    for s in specs:
        ok = True
        for sql in s.setup:
            r = run.one(sql)
            if not r.ok:
                log("  %s: %s (%s); skipped" % (s.tag, r.message, sql))
                ok = False
        if not ok:
            continue
        if s.kind == "record" and not s.composite:
            s.regtype, s.oid, s.typsend = "record", 2249, "record_send"
        else:
            r = run.one("SELECT format_type(t.oid, NULL), t.oid, t.typsend::text, "
                        "format_type(CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END, NULL) "
                        "FROM pg_type t WHERE t.oid = %s::regtype" % lit(s.sqltype))
            if not r.ok:
                log("  %s: %s; skipped" % (s.tag, r.message))
                continue
            s.regtype, s.oid, s.typsend = r.rows[0][0], int(r.rows[0][1]), r.rows[0][2]
            s.key_regtype = r.rows[0][3]
        out.append(s)
    return out


def find_cross_types(run, specs):
    """For each scalar T, every other scalar type U with `T = U` parsed by
    SQL (an operator, or implicit casts, as the parser resolves them); for
    arrays, the element types U with `T[] = U[]`."""
    scalars = [s for s in specs if s.kind == "scalar"]
    pairs = [(t, u) for t in scalars for u in scalars if t.sqltype != u.sqltype]
    stmts = [Statement("SELECT NULL::%s = NULL::%s" % (t.sqltype, u.sqltype)) for t, u in pairs]
    for (t, u), r in zip(pairs, run.run(stmts)):
        if r.ok:
            t.cross.append(u)
    for a in (s for s in specs if s.kind == "array"):
        cands = a.elem.cross
        rs = run.run([Statement("SELECT NULL::%s = NULL::%s[]" % (a.sqltype, u.sqltype)) for u in cands])
        a.cross_elems = {u.tag for u, r in zip(cands, rs) if r.ok}


def set_profile(run, profile):
    run.must(profile.set_sql())


def create_members(run, ctx, rng, n):
    spec = ctx.spec
    set_profile(run, BASE_PROFILES[0])
    M = ctx.names["{M}"]
    if spec.kind == "record" and not spec.composite:
        cols = "a %s, b %s" % (spec.a.sqltype, spec.b.sqltype)
    else:
        cols = "col %s" % spec.sqltype
    run.must("CREATE TABLE %s (id integer PRIMARY KEY, %s, shard8 integer, shard64k integer)" % (M, cols))
    keycols = "a, b" if ctx.anon else "col"
    # an index that sees every member through inserts
    r = run.one("CREATE INDEX ii_%s ON %s USING bloomfilter (%s) WITH (capacity = 1000)" % (ctx.tag, M, keycols))
    if r.ok:
        ctx.available.add("ii")
    else:
        ctx.problems.append(("CREATE INDEX (before inserts)", r.sqlstate, r.message))
    members = []
    if spec.kind == "scalar":
        seen = set()
        for t in spec.gen(rng, n):
            if t not in seen:
                seen.add(t)
                members.append(Member(len(members) + 1, spec.member_sql(t), gen_text=t))
        stmts = [Statement("INSERT INTO %s (id, col) VALUES (%d, %s)" % (M, m.id, m.sql)) for m in members]
    elif spec.kind == "array":
        seen = set()
        for sql, elems in spec.members(rng, n):
            if sql not in seen:
                seen.add(sql)
                members.append(Member(len(members) + 1, sql, parts=elems))
        stmts = [Statement("INSERT INTO %s (id, col) VALUES (%d, %s)" % (M, m.id, m.sql)) for m in members]
    else:
        seen = set()
        for fa, fb in spec.members(rng, n):
            if (fa, fb) in seen:
                continue
            seen.add((fa, fb))
            a, b = spec.field_sql(spec.a, fa), spec.field_sql(spec.b, fb)
            if ctx.anon:
                m = Member(len(members) + 1, (a, b), parts=(fa, fb))
            else:
                m = Member(len(members) + 1, "ROW(%s, %s)::%s" % (a, b, spec.sqltype), parts=(fa, fb))
            members.append(m)
        if ctx.anon:
            stmts = [Statement("INSERT INTO %s (id, a, b) VALUES (%d, %s, %s)" % (M, m.id, m.sql[0], m.sql[1]))
                     for m in members]
        else:
            stmts = [Statement("INSERT INTO %s (id, col) VALUES (%d, %s)" % (M, m.id, m.sql)) for m in members]
    kept = []
    for m, r in zip(members, run.run(stmts)):
        if r.ok:
            kept.append(m)
        else:
            ctx.refused_values += 1
            # 22P05: a character the database's encoding cannot hold
            if r.sqlstate not in ("22P02", "22003", "22008", "22007", "22001", "22026", "22009", "22015",
                                  "22P05"):
                ctx.problems.append(("INSERT " + stmts[members.index(m)].sql[:120], r.sqlstate, r.message))
    ctx.members = kept


def build_filters(run, ctx):
    M, F = ctx.names["{M}"], ctx.names["{F}"]
    spec = ctx.spec
    cols = ", ".join("%s %s" % (k, "cuckoofilter" if k.startswith("cf") else "bloomfilter")
                     for k in paths.FILTER_COLUMNS)
    run.must("CREATE TABLE %s (build integer PRIMARY KEY, partners integer[], %s)" % (F, cols))
    run.must("INSERT INTO %s (build) VALUES (0), (1)" % F)
    failed = set()
    for b, prof in enumerate(BUILD_PROFILES):
        set_profile(run, prof)
        for kind, expr, which in paths.FILTER_KINDS:
            if which == "noarray" and spec.kind == "array" or which == "guava" and not (
                    spec.kind == "scalar" and (spec.sqltype in paths.GUAVA_KEY_TYPES or
                                               getattr(spec, "base", None) in paths.GUAVA_KEY_TYPES)):
                failed.add(kind)
                continue
            r = run.one("UPDATE %s SET %s = (SELECT %s FROM %s m) WHERE build = %d"
                        % (F, kind, ctx.sub(expr), M, b))
            if not r.ok:
                failed.add(kind)
                if b == 0:
                    ctx.problems.append((kind, r.sqlstate, r.message))
        for kind, typ, fn, init in paths.FOLD_KINDS:
            r = run.one("""DO $$DECLARE f %s := %s; r record;
                BEGIN
                    FOR r IN SELECT %s AS v FROM %s m ORDER BY m.id LOOP
                        f := %s(f, r.v);
                    END LOOP;
                    UPDATE %s SET %s = f WHERE build = %d;
                END $$""" % (typ, init, ctx.C, M, fn, F, kind, b))
            if not r.ok:
                failed.add(kind)
                if b == 0:
                    ctx.problems.append((kind, r.sqlstate, r.message))
        # bf_add of each member's literal, nested
        expr = "bf_create(1000, 0.01)"
        for m in ctx.members:
            expr = "bf_add(%s, %s)" % (expr, "ROW(%s, %s)" % m.sql if ctx.anon else m.sql)
        r = run.one("UPDATE %s SET bf_literals = %s WHERE build = %d" % (F, expr, b))
        if not r.ok:
            failed.add("bf_literals")
            if b == 0:
                ctx.problems.append(("bf_literals", r.sqlstate, r.message))
    for kind in paths.FILTER_COLUMNS:
        if kind not in failed:
            ctx.available.add(kind)
    if "cf" in ctx.available:
        # a grown cuckoo filter may keep a delete it cannot attribute
        # (docs/reference.md, cuckoofilter: Deletes): cf_remove's checks
        # are asked only of one that did not grow
        grown = run.must("SELECT bool_or(jsonb_array_length(cf_info(cf)->'subfilters') > 1) FROM %s" % F)[0][0]
        if grown == "t":
            ctx.cf_grown = True
            ctx.problems.append(("cf", "-", "the cuckoo filter grew: cf_remove is not asked"))
        run.must("UPDATE %s f SET partners = ARRAY(SELECT p.id FROM %s p WHERE cf_count(f.cf, %s) = 1 "
                 "ORDER BY p.id LIMIT 2)" % (F, M, ctx.CP))
    if "bf_sized" in ctx.available:
        for b, t in run.must("SELECT build, bf_sized::text FROM %s" % F):
            ctx.consts[int(b)] = t
    set_profile(run, BUILD_PROFILES[0])
    # shards
    r = run.one("UPDATE %s m SET shard8 = bf_shard(%s, 8), shard64k = bf_shard(%s, 65536)" % (M, ctx.C, ctx.C))
    if r.ok:
        r = run.one("CREATE TABLE %s AS SELECT m.shard8 AS shard, bf_agg(%s, 1000, 0.01 ORDER BY m.id) AS bf "
                    "FROM %s m GROUP BY 1" % (ctx.names["{SH}"], ctx.C, M))
    if r.ok:
        ctx.available.add("shard")
    else:
        ctx.problems.append(("bf_shard", r.sqlstate, r.message))
    # indexes built over the loaded table
    keycols = "a, b" if ctx.anon else "col"
    for name, cols, which in (("ib", keycols, "all"), ("ie", "(COALESCE(col, col))", "noanon"),
                              ("im", "col, id", "scalar")):
        if which == "noanon" and ctx.anon or which == "scalar" and spec.kind != "scalar":
            continue
        r = run.one("CREATE INDEX %s_%s ON %s USING bloomfilter (%s) WITH (capacity = 1000)"
                    % (name, ctx.tag, M, cols))
        if r.ok:
            ctx.available.add(name)
        else:
            ctx.problems.append(("CREATE INDEX " + name, r.sqlstate, r.message))
    # the same index on an empty shell that the catalog says keeps its rows
    # elsewhere (setup_rows_elsewhere)
    if ROWS_ELSEWHERE and "ib" in ctx.available:
        shell = "sh_" + ctx.tag
        r = run.one("CREATE TABLE %s (LIKE %s)" % (shell, M))
        if r.ok:
            r = run.one("CREATE INDEX is_%s ON %s USING bloomfilter (%s) WITH (capacity = 1000)"
                        % (ctx.tag, shell, keycols))
        if r.ok:
            r = run.one("INSERT INTO pg_catalog.pg_dist_partition VALUES (%s, 'h')" % lit(shell))
        if r.ok:
            ctx.available.add("is")
        else:
            ctx.problems.append(("CREATE INDEX is (rows elsewhere)", r.sqlstate, r.message))


def _bytes(hextext):
    if hextext is None:
        return None
    return bytes.fromhex(hextext[2:])


def read_back(run, ctx):
    """Each member's output text under every profile, its cross-type
    texts, its binary form and psycopg's Python values."""
    spec = ctx.spec
    M = ctx.names["{M}"]
    by_id = {m.id: m for m in ctx.members}
    cross = spec.cross if spec.kind == "scalar" else []
    for prof in BASE_PROFILES:
        set_profile(run, prof)
        extra = "".join(", oracle_cast_text(m.col, %s)" % lit(u.sqltype) for u in cross)
        # the output function's text, as a client receives it (a cast to
        # text would drop char(n)'s blanks)
        for row in run.must("SELECT m.id, %s%s FROM %s m" % (ctx.C, extra, M)):
            m = by_id[int(row[0])]
            m.text[prof.name] = row[1]
            for u, t in zip(cross, row[2:]):
                m.cross[(prof.name, u.tag)] = t
    set_profile(run, BASE_PROFILES[0])
    if not ctx.anon:
        extra = "".join(", oracle_cast_send(m.col, %s, %s)" % (lit(u.sqltype), lit(u.typsend)) for u in cross)
        r = run.one("SELECT m.id, %s(m.col)%s FROM %s m" % (spec.typsend, extra, M))
        if r.ok:
            for row in r.rows:
                m = by_id[int(row[0])]
                m.send = _bytes(row[1])
                for u, b in zip(cross, row[2:]):
                    if b is not None:
                        m.cross_send[u.tag] = _bytes(b)
    for i, sh in run.must("SELECT id, shard64k FROM %s" % M):
        by_id[int(i)].shard = None if sh is None else int(sh)
    # psycopg's Python values, loaded value by value with the loaders
    # psycopg picks for the result column's type (a value Python cannot
    # hold, such as a date BC, just has none)
    oid = run.conn.execute("SELECT %s FROM %s m LIMIT 0" % (ctx.C, M)).description[0].type_code
    tx = Transformer(run.conn)
    loaders = {"text": tx.get_loader(oid, pq.Format.TEXT), "binary": tx.get_loader(oid, pq.Format.BINARY)}
    for m in ctx.members:
        for load, data in (("text", m.text.get(BASE_PROFILES[0].name)), ("binary", m.send)):
            if data is None:
                continue
            try:
                m.py[load] = loaders[load].load(data if isinstance(data, bytes) else data.encode())
            except Exception:
                pass
    # the fetched filters, for the clients
    cols = [k for k in paths.CLIENT_FILTERS if k in ctx.available]
    if cols:
        for row in run.conn.execute("SELECT build, %s FROM %s ORDER BY build" % (
                ", ".join("%s::bytea" % k for k in cols), ctx.names["{F}"])).fetchall():
            for k, v in zip(cols, row[1:]):
                ctx.client_bytes[(int(row[0]), k)] = bytes(v)
    if "ib" in ctx.available:
        v = run.conn.execute("SELECT bf_index_filter(%s)::bytea" % ctx.names["{IB}"]).fetchone()[0]
        for b in (0, 1):
            ctx.client_bytes[(b, "index")] = bytes(v)


# ---- running cases ----


class Case:
    __slots__ = ("ctx", "member", "probe", "build", "member_ok", "ambiguous", "keyless_shard")

    def __init__(self, ctx, member, probe, build):
        self.ctx = ctx
        self.member = member
        self.probe = probe
        self.build = build
        self.member_ok = None
        self.ambiguous = None


class Stats:
    def __init__(self):
        self.by_type = collections.defaultdict(collections.Counter)
        self.by_path = collections.defaultdict(collections.Counter)
        self.by_form = collections.defaultdict(collections.Counter)
        self.pairs = collections.Counter()          # member / not equal / oracle error
        self.refusals = collections.Counter()       # (sqlstate, hint?, message) -> n
        self.errors = collections.Counter()         # other SQLSTATEs
        self.failures = []
        self.triples = 0

    def add(self, case, path, verdict, err=None):
        tag = case.ctx.tag
        cls = verdict if verdict in ("present", "absent") else verdict.split(":")[0]
        self.by_type[tag][cls] += 1
        self.by_path[path][cls] += 1
        self.by_form[case.probe.form.split(":")[0]][cls] += 1
        self.triples += 1
        if verdict == "refused":
            msg = err.message
            if path == "bf_index_contains/rows elsewhere":
                # one kind for every key type: its relations' names differ by the tag
                msg = msg.replace("_%s\"" % tag, "_<type>\"")
            self.refusals[(err.sqlstate, bool(err.hint), msg[:160])] += 1
        elif verdict == "error":
            self.errors[(err.sqlstate, err.message[:160])] += 1
        if verdict in ("absent", "null", "wrong"):
            self.failures.append((case, path, verdict))


def classify_error(r):
    return "refused" if r.sqlstate in REFUSALS else "error"


def oracle_statement(case):
    """Whether SQL's = finds the member's row for the probe, and whether
    the probe also equals a member that is not equal to this one."""
    if case.probe.wrapper is not None:
        return case.probe.wrapper.oracle_statement(case)
    ctx = case.ctx
    sql, params = paths.render(ctx.sub(
        "SELECT EXISTS (SELECT 1 FROM {M} m WHERE m.id = %d AND {C} = {W}), "
        "EXISTS (SELECT 1 FROM {M} m, {M} q WHERE m.id = %d AND {CQ} = {W} "
        "AND NOT coalesce({CQ} = {C}, false)), "
        "(SELECT coalesce(nullif(t.typbasetype, 0), t.oid)::regtype::text FROM pg_type t "
        "WHERE t.oid = pg_typeof({W})), "
        "(SELECT coalesce(nullif(t.typbasetype, 0), t.oid)::regtype::text FROM {M} m, pg_type t "
        "WHERE m.id = %d AND t.oid = pg_typeof({C}))" % (case.member.id, case.member.id, case.member.id)),
        case.probe, 0)
    return Statement(sql, params)


def group_statement(case, plist):
    if case.probe.wrapper is not None:
        return case.probe.wrapper.group_statement(case, plist)
    ctx = case.ctx
    cols = []
    params = []
    for p in plist:
        sql, ps = paths.render(ctx.sub(p.expr, case.build), case.probe, len(params))
        cols.append(sql)
        params.extend(ps)
    sql = "SELECT %s FROM %s m, %s f WHERE m.id = %d AND f.build = %d" % (
        ", ".join(cols), ctx.names["{M}"], ctx.names["{F}"], case.member.id, case.build)
    return Statement(sql, params)


def run_by_profile(run, items):
    """items: (probe, Statement, tag); runs them grouped by the probe's
    settings and returns [(tag, Result)] in an order of its own.  A probe
    prepared elsewhere is prepared (as a named statement) under those
    settings and executed under its own."""
    byprof = collections.defaultdict(list)
    for probe, st, tag in items:
        prep = probe.prepared_under.name if probe.prepared_under else None
        byprof[(prep, probe.profile.name)].append((st, tag))
    out = []
    for (prep, name), lst in byprof.items():
        prof = keys.PROFILE_BY_NAME[name]
        if prep is None:
            stmts = [Statement(prof.set_sql())] + [st for st, _ in lst]
            res = run.run(stmts)
            if not res[0].ok:
                raise RuntimeError("cannot set profile %s: %s" % (name, res[0].message))
            out.extend((tag, r) for (_, tag), r in zip(lst, res[1:]))
            continue
        n = len(lst)
        stmts = [Statement(keys.PROFILE_BY_NAME[prep].set_sql())]
        stmts += [Statement(st.sql, st.params, op="prepare", name="oracle_%d" % i) for i, (st, _) in enumerate(lst)]
        stmts += [Statement(prof.set_sql())]
        stmts += [Statement(st.sql, st.params, op="execute", name="oracle_%d" % i) for i, (st, _) in enumerate(lst)]
        stmts += [Statement("DEALLOCATE ALL")]
        res = run.run(stmts)
        for i, (_, tag) in enumerate(lst):
            p, e = res[1 + i], res[2 + n + i]
            out.append((tag, p if not p.ok else e))
    return out


def verdict_of(value):
    if value == "t":
        return "present"
    if value == "f":
        return "absent"
    return "null"


def run_batch(run, cases, stats, path_filter):
    # 1. the oracle: is w equal to v by SQL's `=`?
    items = [(c.probe, oracle_statement(c), c) for c in cases]
    members = []
    for c, r in run_by_profile(run, items):
        if not r.ok:
            stats.pairs["oracle error"] += 1
            c.member_ok = False
        elif r.rows[0][0] == "t":
            stats.pairs["equal"] += 1
            c.member_ok = True
            c.ambiguous = r.rows[0][1] == "t"
            c.keyless_shard = paths.same_bytes(r.rows[0][2], r.rows[0][3])
            if c.ambiguous:
                stats.pairs["equal, and to another member not equal to it"] += 1
            members.append(c)
        else:
            stats.pairs["not equal"] += 1
            c.member_ok = False
    # 2. every path, a statement per group
    items = []
    for c in members:
        for g in paths.GROUPS:
            plist = [p for p in paths.PATHS if p.group == g and paths.applicable(p, c.ctx.spec, c.ctx.available)
                     and (path_filter is None or path_filter(p.name))
                     and not (p.unambiguous and (c.ambiguous or c.ctx.cf_grown))
                     and paths.asked(p, c.probe)
                     and (p.name not in paths.KEYLESS_SHARD_PATHS or c.keyless_shard)]
            if plist:
                items.append((c.probe, group_statement(c, plist), (c, plist)))
    singles = []
    for (c, plist), r in run_by_profile(run, items):
        if r.ok:
            for p, v in zip(plist, r.rows[0]):
                stats.add(c, p.name, verdict_of(v))
        elif len(plist) == 1:
            stats.add(c, plist[0].name, classify_error(r), r)
        else:
            singles.extend((c.probe, group_statement(c, [p]), (c, p)) for p in plist)
    # 3. a group that failed, one path at a time
    for (c, p), r in run_by_profile(run, singles):
        if r.ok:
            stats.add(c, p.name, verdict_of(r.rows[0][0]))
        else:
            stats.add(c, p.name, classify_error(r), r)
    return members


# ---- the main program ----


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--triples", type=int, default=int(os.environ.get("ORACLE_TRIPLES", "1000000")),
                    help="stop once this many (member, probe, path) triples were asked (ORACLE_TRIPLES)")
    ap.add_argument("--seed", default=os.environ.get("ORACLE_SEED"), help="ORACLE_SEED; random by default")
    ap.add_argument("--types", default=os.environ.get("ORACLE_TYPES"),
                    help="comma-separated tags of key types to test (ORACLE_TYPES), e.g. int8,bpchar6")
    ap.add_argument("--paths", default=os.environ.get("ORACLE_PATHS"),
                    help="only paths whose name contains one of these comma-separated words (ORACLE_PATHS)")
    ap.add_argument("--show", type=int, default=int(os.environ.get("ORACLE_SHOW", "3")),
                    help="failures printed per cause (ORACLE_SHOW)")
    ap.add_argument("--members", type=int, default=int(os.environ.get("ORACLE_MEMBERS", "0")),
                    help="random members per key type besides the edge values (default: from --triples)")
    ap.add_argument("--java", default=os.environ.get("ORACLE_JAVA", "auto"),
                    help="auto (if javac is there), 1 (required) or 0 (ORACLE_JAVA)")
    ap.add_argument("--no-python-client", action="store_true", help="skip the Python client's checks")
    ap.add_argument("--encoding", default=os.environ.get("ORACLE_ENCODING", "UTF8"),
                    help="the encoding of the database the oracle asks in (ORACLE_ENCODING); other than "
                         "UTF8, only the text-like key types unless --types names others")
    return ap.parse_args()


def encoding_database(dsn, encoding):
    """A database of the encoding asked for, in the server of dsn; the dsn
    of that database (a repeated keyword of a conninfo string takes its
    last value)."""
    if encoding.upper() == "UTF8":
        return dsn
    run = pgrun.Runner(dsn)
    name = "oracle_" + encoding.lower()
    run.must("DROP DATABASE IF EXISTS %s" % name)
    run.must("CREATE DATABASE %s ENCODING %s LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0"
             % (name, lit(encoding)))
    run.close()
    # the oracle sends UTF-8: the server converts it to the database's
    # encoding, and refuses (22P05) what that encoding cannot hold.  A
    # SQL_ASCII database converts nothing and keeps the bytes it is sent,
    # which it could not then send back as valid UTF-8 where a name cut
    # them short: it is asked in its own encoding, as its clients would.
    if encoding.upper() == "SQL_ASCII":
        return dsn + " dbname=" + name
    return dsn + " dbname=" + name + " client_encoding=UTF8"


def main():
    args = parse_args()
    seed = args.seed or str(random.SystemRandom().randrange(10 ** 9))
    log("oracle: seed %s (reproduce with ORACLE_SEED=%s), target %d triples" % (seed, seed, args.triples))
    t_start = time.time()
    dsn = os.environ.get("ORACLE_DSN")
    cluster = None
    if dsn:
        log("oracle: using the server of ORACLE_DSN")
        pgrun.clear_libpq_environment()
    else:
        bindir = pgrun.pg_config_bindir()
        pgrun.clear_libpq_environment()
        cluster = pgrun.Cluster(bindir, log)
        control = cluster.check_extension()
        dsn = cluster.start()
        log("oracle: throwaway cluster of %s (extension %s)" % (bindir, control))
    try:
        dsn = encoding_database(dsn, args.encoding)
        status = run_oracle(args, seed, dsn, t_start)
    finally:
        if cluster:
            cluster.stop()
    sys.exit(status)


def run_oracle(args, seed, dsn, t_start):
    import clients
    import report
    run = pgrun.Runner(dsn)
    version = run.must("SELECT current_setting('server_version')")[0][0]
    have_citext = bool(run.must("SELECT count(*) FROM pg_available_extensions WHERE name = 'citext'")[0][0] != "0")
    setup_db(run, have_citext)
    setup_rows_elsewhere(run)
    extver = run.must("SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'")[0][0]
    encoding = run.must("SELECT current_setting('server_encoding')")[0][0]
    log("oracle: PostgreSQL %s, bloomfilter %s, database encoding %s" % (version, extver, encoding))
    specs = keys.all_specs()
    if not have_citext:
        specs = [s for s in specs if s.needs != "citext"]
    specs = resolve_types(run, specs)
    discover(run, specs)
    if args.types:
        want = set(args.types.split(","))
        specs = [s for s in specs if s.tag in want]
    elif encoding != "UTF8":
        # the encoding reaches the hash through text only
        specs = [s for s in specs if keys.holds_text(s)]
    find_cross_types(run, [s for s in keys.all_specs() if s.regtype])
    nrand = args.members or max(4, min(60, args.triples // 25000))
    ctxs = []
    for spec in specs:
        ctx = Ctx(spec)
        rng = keys.new_rng(seed, "members", spec.tag)
        create_members(run, ctx, rng, nrand)
        build_filters(run, ctx)
        read_back(run, ctx)
        ctxs.append(ctx)
    nmembers = sum(len(c.members) for c in ctxs)
    log("oracle: %d key types, %d members, set up in %.1f s" % (len(ctxs), nmembers, time.time() - t_start))
    for ctx in ctxs:
        for what, state, msg in ctx.problems:
            log("  %s: %s: %s %s" % (ctx.tag, what, state, msg))
    collations.setup(run, ctxs, log)
    path_filter = None
    if args.paths:
        words = args.paths.split(",")
        path_filter = lambda name: any(w in name for w in words)  # noqa: E731
    # every (member, probe) of every type, each type's in a random order,
    # asked round-robin so that a small run still covers every type
    tx = Transformer(run.conn)
    queues = []
    for ctx in ctxs:
        rng = keys.new_rng(seed, "probes", ctx.tag)
        cases = []
        for m in ctx.members:
            for p in forms.member_probes(ctx.spec, m, rng, tx):
                cases.append(Case(ctx, m, p, rng.randrange(len(BUILD_PROFILES))))
            crng = keys.new_rng(seed, "collations", ctx.tag, m.id)
            for p in collations.member_probes(ctx, m, crng):
                cases.append(Case(ctx, m, p, crng.randrange(len(BUILD_PROFILES))))
        rng.shuffle(cases)
        queues.append(collections.deque(cases))
    collations.flush(run)
    total_cases = sum(len(q) for q in queues)
    stats = Stats()
    client = clients.Clients(args, seed, log, encoding) if not args.no_python_client else None
    t_cases = time.time()
    asked = 0
    while stats.triples < args.triples and any(queues):
        batch = []
        while len(batch) < BATCH and any(queues):
            for q in queues:
                if q:
                    batch.append(q.popleft())
        asked += len(batch)
        members = run_batch(run, batch, stats, path_filter)
        if client:
            client.check(members, stats, path_filter)
        if stats.triples and (asked // BATCH) % 25 == 0:
            log("  %d triples, %d silent absences, %.0f s" % (stats.triples, len(stats.failures),
                                                               time.time() - t_cases))
    if client:
        client.finish(stats)
    elapsed = time.time() - t_cases
    log("oracle: %d (member, probe) pairs of %d asked, %d triples in %.1f s (%.0f triples/s), %d statements"
        % (asked, total_cases, stats.triples, elapsed, stats.triples / max(elapsed, 1e-9), run.statements))
    if stats.triples < args.triples:
        log("oracle: every generated pair was asked before reaching %d triples" % args.triples)
    report.summary(stats, ctxs)
    report.failures(stats, run, dsn, args.show, client)
    log("oracle: seed %s, %d triples, %d silent absences, %.0f s in all"
        % (seed, stats.triples, len(stats.failures), time.time() - t_start))
    return 1 if stats.failures else 0


if __name__ == "__main__":
    main()
