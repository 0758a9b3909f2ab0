"""Summary tables and failures, each with a one-line SQL reproduction, for
the equality oracle (test/oracle/oracle.py)."""

import collections

import paths
import pgrun
from keys import BUILD_PROFILES, lit


def log(*a):
    print(*a, flush=True)


def _table(title, rows, key_header):
    log("")
    log(title)
    hdr = "%-34s %9s %9s %9s %7s %8s" % (key_header, "triples", "present", "refused", "error", "SILENT")
    log(hdr)
    log("-" * len(hdr))
    tot = collections.Counter()
    for k, c in rows:
        n = sum(c.values())
        silent = c["absent"] + c["null"] + c["wrong"]
        tot.update(c)
        log("%-34s %9d %9d %9d %7d %8s" % (k[:34], n, c["present"], c["refused"], c["error"],
                                           silent if silent else "."))
    n = sum(tot.values())
    log("%-34s %9d %9d %9d %7d %8d" % ("all", n, tot["present"], tot["refused"], tot["error"],
                                       tot["absent"] + tot["null"] + tot["wrong"]))


def summary(stats, ctxs):
    log("")
    log("pairs (member, probe): %d equal by SQL's = (asked of every path), %d not equal, %d where "
        "SQL's = raised an error (both skipped)" % (stats.pairs["equal"], stats.pairs["not equal"],
                                                   stats.pairs["oracle error"]))
    log("  of the equal ones, %d also equal a member not equal to theirs (SQL's = is not transitive "
        "across types): cf_remove is not asked for those" % stats.pairs["equal, and to another member not equal to it"])
    order = {c.tag: i for i, c in enumerate(ctxs)}
    _table("by key type", sorted(stats.by_type.items(), key=lambda kv: order.get(kv[0], 0)), "key type")
    names = [p.name for p in paths.PATHS] + paths.PY_PATHS + paths.JAVA_PATHS
    porder = {n: i for i, n in enumerate(names)}
    _table("by path", sorted(stats.by_path.items(), key=lambda kv: porder.get(kv[0], 999)), "path")
    _table("by form of the probe", sorted(stats.by_form.items()), "form")
    if stats.refusals:
        log("")
        log("refusals (SQLSTATE, hint?, message): %d kinds" % len(stats.refusals))
        ranked = sorted(stats.refusals.items(), key=lambda kv: -kv[1])
        for (state, hint, msg), n in ranked[:40]:
            log("  %7d  %s %s  %s" % (n, state, "hint   " if hint else "NO HINT", msg))
        if len(ranked) > 40:
            log("  ... %d more kinds" % (len(ranked) - 40))
        nohint = [(k, n) for k, n in ranked if not k[1] and not k[0].startswith(("py:", "java:"))]
        log("refusals by the server without a hint: %d, of %d kinds%s" % (sum(n for _, n in nohint), len(nohint),
                                                           ":" if nohint else ""))
        for (state, _, msg), n in nohint[:40]:
            log("  %7d  %s  %s" % (n, state, msg))
    if stats.errors:
        log("")
        log("other errors (not refusals by the rule: 42804, 0A000, 22P02): %d kinds" % len(stats.errors))
        for (state, msg), n in sorted(stats.errors.items(), key=lambda kv: -kv[1])[:40]:
            log("  %7d  %s  %s" % (n, state, msg))


# ---- reproductions ----


def _member_source(ctx, member, with_shard=False):
    """A one-row relation m holding just this member (id 1)."""
    if ctx.anon:
        inner = "SELECT %s AS a, %s AS b, 1 AS id" % member.sql
    else:
        inner = "SELECT %s AS col, 1 AS id" % member.sql
    if with_shard:
        c = "ROW(x.a, x.b)" if ctx.anon else "x.col"
        inner = "SELECT x.*, bf_shard(%s, 65536) AS shard64k FROM (%s) x" % (c, inner)
    return "(%s) m" % inner


def _filter_source(ctx, member, kinds):
    src = _member_source(ctx, member)
    cols = []
    for k, expr, _ in paths.FILTER_KINDS:
        if k in kinds:
            cols.append("(SELECT %s FROM %s) AS %s" % (ctx.sub(expr), src, k))
    for k, _, fn, init in paths.FOLD_KINDS:
        if k in kinds:
            cols.append("(SELECT %s(%s, %s) FROM %s) AS %s" % (fn, init, ctx.C, src, k))
    if "bf_literals" in kinds:
        cols.append("bf_add(bf_create(1000, 0.01), %s) AS bf_literals"
                    % ("ROW(%s, %s)" % member.sql if ctx.anon else member.sql))
    return "(SELECT 0 AS build, %s) f" % ", ".join(cols)


def _prepare(sql, params, names):
    """PREPARE/EXECUTE of sql whose $n are params (text values, SQL type
    names or None for untyped)."""
    types = ", ".join(n or "unknown" for n in names)
    args = ", ".join("NULL" if v is None else lit(v) for v in params)
    return "PREPARE oracle_q(%s) AS %s; EXECUTE oracle_q(%s);" % (types, sql, args)


def _param_texts(run, probe):
    """The text of each parameter and its SQL type (None: untyped), asked
    of the server under the probe's settings for binary ones."""
    out, names = [], []
    run.must(probe.profile.set_sql())
    for val, oid, fmt in probe.params:
        tname = None
        if oid:
            tname = run.must("SELECT format_type(%d, NULL)" % oid)[0][0]
        if val is None:
            out.append(None)
        elif fmt == 0:
            out.append(val.decode())
        else:
            r = run.one("SELECT $1::text", [(val, oid, 1)])
            out.append(r.rows[0][0] if r.ok else "<binary %s>" % val.hex())
        names.append(tname)
    return out, names


def repro_sql(run, case, pathname):
    """A one-line reproduction: the member alone, in a filter built the
    same way (or an index, or shards), asked with the same probe form;
    it shows sql_equal true and answer false.  None where none is made."""
    ctx, member, probe = case.ctx, case.member, case.probe
    path = paths.PATH_BY_NAME.get(pathname)
    if path is None or pathname == "cf_remove/other":
        return None
    expr = path.expr
    pre, post = "", ""
    if path.group in ("bf", "cf"):
        needs = set(path.needs)
        src = _member_source(ctx, member) + ", " + _filter_source(ctx, member, needs)
        if "{K}" in expr:
            run.must(BUILD_PROFILES[0].set_sql())
            r = run.one("SELECT f.bf_sized::text FROM %s" % _filter_source(ctx, member, {"bf_sized"}))
            if not r.ok:
                return None
            expr = expr.replace("{K}", lit(r.rows[0][0]))
        expr = expr.replace("{F}", _filter_source(ctx, member, needs)[:-2])
    elif path.group == "shard":
        src = _member_source(ctx, member, with_shard=True)
        expr = expr.replace("{SH}", "(SELECT bf_shard({C}, 8) AS shard, bf_agg({C}, 1000, 0.01) AS bf FROM %s "
                            "GROUP BY 1)" % _member_source(ctx, member))
    elif path.group in ("index", "elsewhere"):
        if ctx.anon:
            cols, keycols, vals = "id integer, a %s, b %s" % (ctx.spec.a.sqltype, ctx.spec.b.sqltype), "a, b", \
                "1, %s, %s" % member.sql
        else:
            cols, keycols, vals = "id integer, col %s" % ctx.spec.sqltype, "col", "1, %s" % member.sql
        idx = {"ii": keycols, "ib": keycols, "ie": "(COALESCE(col, col))", "im": "col, id",
               "is": keycols}[path.needs[0]]
        pre = "BEGIN; CREATE TEMP TABLE oracle_r (%s); " % cols
        ins = "INSERT INTO oracle_r VALUES (%s); " % vals
        mk = "CREATE INDEX oracle_r_i ON oracle_r USING bloomfilter (%s); " % idx
        if path.needs[0] == "is":
            # the index of an empty shell the catalog lists; the row is in oracle_r
            mk = ("CREATE TEMP TABLE oracle_s (LIKE oracle_r); "
                  "CREATE INDEX oracle_r_i ON oracle_s USING bloomfilter (%s); "
                  "INSERT INTO pg_catalog.pg_dist_partition VALUES ('oracle_s', 'h'); " % idx)
        pre += (mk + ins) if path.needs[0] == "ii" else (ins + mk)
        post = " ROLLBACK;"
        for k in ("{II}", "{IB}", "{IE}", "{IM}", "{IS}"):
            expr = expr.replace(k, "'oracle_r_i'")
        src = "oracle_r m"
    else:
        src = _member_source(ctx, member)
    expr = ctx.sub(expr)
    eq = ctx.sub("{C} = {W}")
    eq_sql, eq_params = paths.render(eq, probe, 0)
    p_sql, p_params = paths.render(expr, probe, len(eq_params))
    sql = "SELECT %s AS sql_equal, %s AS answer FROM %s" % (eq_sql, p_sql, src)
    settings = probe.profile.set_line()
    if probe.params:
        texts, names = _param_texts(run, probe)
        n_eq = len(eq_params) // len(probe.params)
        n_p = len(p_params) // len(probe.params)
        line = _prepare(sql, texts * (n_eq + n_p), names * (n_eq + n_p))
    else:
        line = sql + ";"
    if probe.prepared_under:
        # PREPARE under the other settings, EXECUTE under the probe's
        if not probe.params:
            line = "PREPARE oracle_q AS %s EXECUTE oracle_q;" % line
        head, _, tail = line.partition(" EXECUTE ")
        line = "%s %s %s EXECUTE %s" % (probe.prepared_under.set_line(), head, settings, tail)
        settings = ""
    return ("%s %s%s%s" % (settings, pre, line, post)).strip()


def verify(dsn, line):
    """Runs a reproduction on a connection of its own: true when it shows
    sql_equal and a false (or NULL) answer."""
    conn = pgrun.Runner(dsn)
    try:
        conn.pg.exec_(b"SET client_min_messages = warning")
        stmts = [s.strip() for s in _split(line) if s.strip()]
        row = None
        for s in stmts:
            r = conn.pg.exec_(s.encode())
            if r.status == 2 and r.ntuples == 1 and r.nfields == 2:
                row = (r.get_value(0, 0), r.get_value(0, 1))
            elif r.status not in (1, 2):
                msg = r.error_message.decode(errors="replace").strip()
                conn.pg.exec_(b"ROLLBACK")
                return "error: " + msg.splitlines()[0]
        conn.pg.exec_(b"ROLLBACK")
        if row is None:
            return "no answer"
        if row[0] == b"t" and row[1] in (b"f", None):
            return "verified"
        return "not reproduced alone (sql_equal %s, answer %s)" % (row[0], row[1])
    finally:
        conn.close()


def _split(line):
    """Statements of a one-line reproduction (no semicolons inside quotes
    are split)."""
    out, cur, q = [], [], False
    for ch in line:
        if ch == "'":
            q = not q
        if ch == ";" and not q:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


def context_line(case, pathname):
    c = case
    return ("type %s, member %s (id %d), probe %s [form %s; session %s%s], path %s, filters built under %s"
            % (c.ctx.tag, c.member.sql if isinstance(c.member.sql, str) else "ROW(%s, %s)" % c.member.sql,
               c.member.id, c.probe.describe(), c.probe.form, c.probe.profile.name,
               "; " + c.probe.note if c.probe.note else "", pathname, BUILD_PROFILES[c.build].name))


def failures(stats, run, dsn, show, client):
    if not stats.failures:
        log("")
        log("no silent absences")
        return
    # the paths each (member, probe) failed in: a cause shows as one form
    # failing one set of path families, whatever the key type
    per_case = collections.OrderedDict()
    for case, path, verdict in stats.failures:
        per_case.setdefault(id(case), (case, []))[1].append((path, verdict))
    groups = collections.OrderedDict()
    for case, lst in per_case.values():
        fams = tuple(sorted({paths.family(p) for p, _ in lst}))
        key = (case.probe.form.split(":")[0], fams)
        groups.setdefault(key, []).append((case, lst))
    log("")
    log("SILENT ABSENCES: %d triples, %d (member, probe) pairs, in %d groups (form of the probe, "
        "families of paths that failed); one example per key type, the first %d:"
        % (len(stats.failures), len(per_case), len(groups), show))
    for (form, fams), lst in sorted(groups.items(), key=lambda kv: -sum(len(x[1]) for x in kv[1])):
        ntrip = sum(len(x[1]) for x in lst)
        types = collections.Counter(case.ctx.tag for case, _ in lst)
        forms_ = collections.Counter(case.probe.form for case, _ in lst)
        log("")
        log("== form %s; failing: %s; %d triples, %d pairs" % (form, ", ".join(fams), ntrip, len(lst)))
        log("   key types: " + ", ".join("%s (%d)" % kv for kv in types.most_common()))
        log("   forms: " + ", ".join("%s (%d)" % kv for kv in forms_.most_common()))
        allpaths = collections.Counter(p for _, l in lst for p, _ in l)
        log("   paths: " + ", ".join("%s (%d)" % kv for kv in allpaths.most_common()))
        seen = set()
        n = 0
        for case, l in lst:
            if case.ctx.tag in seen:
                continue
            seen.add(case.ctx.tag)
            n += 1
            if n > show:
                break
            # the example path: the first that failed, a filter check if any
            path, verdict = sorted(l, key=lambda pv: (paths.family(pv[0]) != "filter values",
                                                      pv[0] != "bf_contains/sized"))[0]
            log("  - %s: %s" % (verdict, context_line(case, path)))
            if path.startswith(("py:", "java:")):
                line = client.repro(case, path) if client else None
                if line:
                    log("    repro: %s" % line)
                continue
            line = repro_sql(run, case, path)
            if line:
                log("    repro: %s" % line)
                log("           (%s)" % verify(dsn, line))
