#!/usr/bin/python3
"""The documented maintenance patterns under a model (issue 32).

The SQL of each pattern is taken from the documents, not written here: a
fenced ```sql block that follows an HTML comment `<!-- pattern: NAME -->`
in README.md or docs/patterns.md belongs to pattern NAME (several blocks of
one name are joined in the order README.md, docs/patterns.md).  Each block
is split into statements: one holding `$1` is the pattern's check of one
key, the body of a `cron.schedule(...)` call is its rotation, and every
other statement is run once to set the pattern up.  So the documents are
tested as code: a change to a pattern's SQL changes what runs here.

The one change made to the documents' text is scale: capacities meant for
millions of keys are replaced by smaller ones (SCALE below), each of which
must occur in the pattern's text, so that a change to the documents makes
this test fail loudly instead of running something else.

For each pattern the test creates the user's table the documents assume
(TABLES below), then runs random steps, each from one of several sessions
of different TimeZone settings: INSERT, COPY, UPDATE of the key and of
other columns, DELETE, INSERT ... ON CONFLICT DO UPDATE (of the key and of
other columns), MERGE, TRUNCATE, REINDEX for the index, some of them in a
transaction that rolls back, and for the rolling window a simulated clock
(now() of a schema ahead of pg_catalog in search_path) that moves and
rotates the buckets.  A model of the table knows which keys are live; after
each step every live key must be found, and where the documents promise it
the filter must equal a rebuild byte for byte (PROMISES below).

    test/patterns/model.py [--steps N] [--seed S] [--patterns a,b] [--docs-rev REV]

Exit status 1 if any live key was not found or a promised equality failed.
See CONTRIBUTING.md, "The documented patterns under a model".
"""

import argparse
import datetime
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "test", "oracle"))

import psycopg  # noqa: E402

import pgrun  # noqa: E402
from pgrun import Statement  # noqa: E402

DOCS = ("README.md", "docs/patterns.md")
MARK = re.compile(r"<!--\s*pattern:\s*([a-z0-9-]+)\s*-->\s*\n```sql\n(.*?)\n```", re.S)

PATTERNS = ("trigger-plain", "trigger-counting", "trigger-cuckoo", "index", "shards", "window")

# Capacities of the documents scaled down for a test of a few hundred keys:
# every literal must occur (whole) in the pattern's SQL.
SCALE = {
    "trigger-plain": {"1000000": "10000"},
    "trigger-counting": {"1000000": "10000"},
    "trigger-cuckoo": {"1000000": "10000"},
    "index": {"10000000": "100000"},
    "shards": {"1000000000": "100000"},
    "window": {"1000000": "10000"},
}

# The user's table each pattern's documents assume: name, primary key, the
# filter's key, another column; the rolling window's table also has a time.
TABLES = {
    "trigger-plain": ("products", "id", "id", "name", None),
    "trigger-counting": ("accounts", "id", "id", "name", None),
    "trigger-cuckoo": ("sessions", "session_id", "session_id", "name", None),
    "index": ("products", "id", "id", "name", None),
    "shards": ("users", "user_id", "user_id", "name", None),
    "window": ("events", "id", "user_id", "name", "at"),
}

# Sessions of the steps: the window's bucket must not depend on TimeZone,
# and a trigger function's plan is cached per session.
ZONES = ("UTC", "Asia/Kolkata", "America/New_York", "Australia/Lord_Howe")

KEYSPACE = 400          # primary keys 1 .. KEYSPACE (a moved key: up to 3 x)
USERS = 300             # the window's user ids
WINDOW_HOURS = 24       # what the documents' check covers (checked below)
ORIGIN = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)


def log(*a):
    print(*a, flush=True)


# ---- the documents ----


def read_docs(docs_rev):
    texts = []
    for path in DOCS:
        if docs_rev:
            texts.append(subprocess.run(["git", "-C", REPO, "show", "%s:%s" % (docs_rev, path)],
                                        check=True, capture_output=True, text=True).stdout)
        else:
            with open(os.path.join(REPO, path)) as f:
                texts.append(f.read())
    blocks = {}
    for text in texts:
        for m in MARK.finditer(text):
            blocks.setdefault(m.group(1), []).append(m.group(2))
    return blocks


def split_statements(sql):
    """Split SQL at semicolons outside quotes, dollar quotes and comments."""
    out, cur, i, n = [], [], 0, len(sql)
    while i < n:
        c = sql[i]
        if sql.startswith("--", i):
            j = sql.find("\n", i)
            j = n if j < 0 else j
            cur.append(sql[i:j])
            i = j
        elif c == "'":
            j = i + 1
            while True:
                j = sql.find("'", j)
                if j < 0 or not sql.startswith("''", j):
                    break
                j += 2
            j = n if j < 0 else j + 1
            cur.append(sql[i:j])
            i = j
        elif c == "$" and re.match(r"\$([A-Za-z_]\w*)?\$", sql[i:]):
            tag = re.match(r"\$([A-Za-z_]\w*)?\$", sql[i:]).group(0)
            j = sql.find(tag, i + len(tag))
            j = n if j < 0 else j + len(tag)
            cur.append(sql[i:j])
            i = j
        elif c == ";":
            out.append("".join(cur).strip())
            cur = []
            i += 1
        else:
            cur.append(c)
            i += 1
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return [s for s in out if strip_comments(s)]


def strip_comments(s):
    return "\n".join(line for line in s.split("\n") if not line.strip().startswith("--")).strip()


class Pattern:
    """A pattern's SQL from the documents: setup statements, the check of
    one key ($1), the rotation (the body of cron.schedule)."""

    def __init__(self, name, blocks):
        self.name = name
        text = "\n".join(blocks)
        for lit, small in SCALE.get(name, {}).items():
            rx = r"(?<![\d.])%s(?![\d.])" % re.escape(lit)
            if not re.search(rx, text):
                raise SystemExit("patterns: %s: the documents no longer hold %s, which this "
                                 "test scales down (SCALE in %s)" % (name, lit, __file__))
            text = re.sub(rx, small, text)
        self.setup, self.checks, self.rotations = [], [], []
        for st in split_statements(text):
            cron = re.search(r"cron\.schedule\s*\(\s*'[^']*'\s*,\s*'[^']*'\s*,\s*\$\$(.*)\$\$\s*\)\s*$",
                             st, re.S)
            if cron:
                self.rotations.append(cron.group(1).strip())
            elif re.search(r"\$1\b", strip_comments(re.sub(r"\$\$.*?\$\$", "", st, flags=re.S))):
                self.checks.append(st)
            else:
                self.setup.append(st)


# ---- the model of the user's table ----


class Table:
    """Rows by primary key: (key, other, at).  For every pattern but the
    window, the key is the primary key."""

    def __init__(self, name, pk, key, other, at):
        self.name, self.pk, self.keycol, self.other, self.at = name, pk, key, other, at
        self.rows = {}

    def key_is_pk(self):
        return self.pk == self.keycol

    def cols(self):
        c = [self.pk] if self.key_is_pk() else [self.pk, self.keycol]
        c.append(self.other)
        if self.at:
            c.append(self.at)
        return c

    def values(self, pk, row):
        key, other, at = row
        v = [pk] if self.key_is_pk() else [pk, key]
        v.append(other)
        if self.at:
            v.append(at)
        return v


class Step:
    """One statement (or a COPY) and its effect on the model: changes are
    (old pk or None, new pk or None, new row or None)."""

    def __init__(self, kind, sql=None, params=None, copy_rows=None):
        self.kind, self.sql, self.params, self.copy_rows = kind, sql, params or [], copy_rows
        self.changes = []


class Model:
    def __init__(self, pattern, table, rng, sessions, dbname):
        self.pattern, self.t, self.rng, self.sessions, self.db = pattern, table, rng, sessions, dbname
        self.name = pattern.name
        self.ever = set()       # keys added since the filter was made, reset or rebuilt
        self.clock = datetime.datetime(2026, 3, 7, 23, 40, tzinfo=datetime.timezone.utc)
        self.lost = set()
        self.lost_checks = 0
        self.checked = 0        # (step, live key) pairs asked
        self.compared = 0       # rebuild comparisons made
        self.first_lost = None
        self.mismatches = 0
        self.first_mismatch = None
        self.ops = {}
        self.template = None
        self.only_ops = None

    # -- generating steps --

    def free_pk(self, taken=()):
        for _ in range(1000):
            pk = self.rng.randint(1, KEYSPACE if self.rng.random() < 0.8 else 3 * KEYSPACE)
            if pk not in self.t.rows and pk not in taken:
                return pk
        raise RuntimeError("no free key")

    def new_row(self):
        key = None if self.t.key_is_pk() else self.rng.randint(1, USERS)
        at = None
        if self.t.at:
            # mostly inside the window, some late, a few in the future of no bucket yet
            back = self.rng.choice((self.rng.uniform(0, 3600), self.rng.uniform(0, 26 * 3600)))
            at = self.clock - datetime.timedelta(seconds=round(back, 3))
        return [key, "n%d" % self.rng.randint(0, 10 ** 6), at]

    def some_rows(self, lo=1, hi=3):
        pks = sorted(self.t.rows)
        return self.rng.sample(pks, min(len(pks), self.rng.randint(lo, hi)))

    def gen(self):
        r = self.rng
        n = len(self.t.rows)
        kinds = ["insert", "copy", "upsert_other", "upsert_key", "merge"]
        if n:
            kinds += ["update_key", "update_key", "update_other", "delete", "merge"]
            if self.t.at:
                kinds.append("update_at")
        if n > 120:
            kinds += ["delete", "delete", "merge"]
        if r.random() < 0.01:
            kinds = ["truncate"]
        if self.name == "index" and r.random() < 0.02:
            kinds = ["reindex"]
        if self.only_ops:
            kinds = [k for k in kinds if k in self.only_ops] or ["insert"]
        return getattr(self, "gen_" + r.choice(kinds))()

    def row_sql(self, rows):
        t = self.t
        ph = "(" + ", ".join(["%s"] * len(t.cols())) + ")"
        params = []
        for pk, row in rows:
            params += t.values(pk, row)
        return "INSERT INTO %s (%s) VALUES %s" % (t.name, ", ".join(t.cols()),
                                                  ", ".join([ph] * len(rows))), params

    def gen_insert(self):
        rows, taken = [], set()
        for _ in range(self.rng.randint(1, 5)):
            pk = self.free_pk(taken)
            taken.add(pk)
            rows.append((pk, self.new_row()))
        sql, params = self.row_sql(rows)
        s = Step("insert", sql, params)
        s.changes = [(None, pk, row) for pk, row in rows]
        return s

    def gen_copy(self):
        rows, taken = [], set()
        for _ in range(self.rng.randint(1, 8)):
            pk = self.free_pk(taken)
            taken.add(pk)
            rows.append((pk, self.new_row()))
        s = Step("copy", "COPY %s (%s) FROM STDIN" % (self.t.name, ", ".join(self.t.cols())),
                 copy_rows=[self.t.values(pk, row) for pk, row in rows])
        s.changes = [(None, pk, row) for pk, row in rows]
        return s

    def gen_update_key(self):
        t = self.t
        pks = self.some_rows()
        s = Step("update_key")
        if t.key_is_pk():
            taken, moves = set(), []
            for pk in pks:
                new = self.free_pk(taken)
                taken.add(new)
                moves.append((pk, new))
            case = " ".join("WHEN %s THEN %s" for _ in moves)
            s.sql = "UPDATE %s SET %s = CASE %s %s END WHERE %s = ANY(%%s)" % (t.name, t.pk, t.pk, case, t.pk)
            for old, new in moves:
                s.params += [old, new]
            s.params.append(pks)
            s.changes = [(old, new, list(t.rows[old])) for old, new in moves]
        else:
            keys = [self.rng.randint(1, USERS) for _ in pks]
            case = " ".join("WHEN %s THEN %s" for _ in pks)
            s.sql = "UPDATE %s SET %s = CASE %s %s END WHERE %s = ANY(%%s)" % (t.name, t.keycol, t.pk, case, t.pk)
            for pk, k in zip(pks, keys):
                s.params += [pk, k]
            s.params.append(pks)
            s.changes = [(pk, pk, [k] + list(t.rows[pk][1:])) for pk, k in zip(pks, keys)]
        return s

    def gen_update_other(self):
        t = self.t
        pks = self.some_rows(1, 6)
        val = "u%d" % self.rng.randint(0, 10 ** 6)
        s = Step("update_other", "UPDATE %s SET %s = %%s WHERE %s = ANY(%%s)" % (t.name, t.other, t.pk), [val, pks])
        s.changes = [(pk, pk, [t.rows[pk][0], val, t.rows[pk][2]]) for pk in pks]
        return s

    def gen_update_at(self):
        t = self.t
        pks = self.some_rows()
        at = self.new_row()[2]
        s = Step("update_at", "UPDATE %s SET %s = %%s WHERE %s = ANY(%%s)" % (t.name, t.at, t.pk), [at, pks])
        s.changes = [(pk, pk, [t.rows[pk][0], t.rows[pk][1], at]) for pk in pks]
        return s

    def gen_delete(self):
        t = self.t
        pks = self.some_rows(1, 5)
        s = Step("delete", "DELETE FROM %s WHERE %s = ANY(%%s)" % (t.name, t.pk), [pks])
        s.changes = [(pk, None, None) for pk in pks]
        return s

    def gen_upsert_other(self):
        """INSERT ... ON CONFLICT DO UPDATE of another column: new rows and
        rows that exist, in one statement."""
        t = self.t
        rows, taken = [], set()
        existing = self.some_rows(0, 3)
        for pk in existing:
            taken.add(pk)
            rows.append((pk, self.new_row()))
        for _ in range(self.rng.randint(0 if existing else 1, 3)):
            pk = self.free_pk(taken)
            taken.add(pk)
            rows.append((pk, self.new_row()))
        sql, params = self.row_sql(rows)
        sql += " ON CONFLICT (%s) DO UPDATE SET %s = excluded.%s" % (t.pk, t.other, t.other)
        s = Step("upsert_other", sql, params)
        for pk, row in rows:
            if pk in t.rows:
                old = t.rows[pk]
                s.changes.append((pk, pk, [old[0], row[1], old[2]]))
            else:
                s.changes.append((None, pk, row))
        return s

    def gen_upsert_key(self):
        """INSERT ... ON CONFLICT DO UPDATE that changes the key of the row
        it conflicts with (or inserts, when there is none)."""
        t = self.t
        if t.rows and self.rng.random() < 0.8:
            pk = self.some_rows(1, 1)[0]
        else:
            pk = self.free_pk()
        row = self.new_row()
        sql, params = self.row_sql([(pk, row)])
        s = Step("upsert_key")
        if t.key_is_pk():
            new = self.free_pk({pk})
            sql += " ON CONFLICT (%s) DO UPDATE SET %s = %%s" % (t.pk, t.pk)
            params.append(new)
            s.changes = [(pk, new, list(t.rows[pk])) if pk in t.rows else (None, pk, row)]
        else:
            newkey = self.rng.randint(1, USERS)
            sql += " ON CONFLICT (%s) DO UPDATE SET %s = %%s" % (t.pk, t.keycol)
            params.append(newkey)
            s.changes = [(pk, pk, [newkey] + list(t.rows[pk][1:])) if pk in t.rows else (None, pk, row)]
        s.sql, s.params = sql, params
        return s

    def gen_merge(self):
        """MERGE deleting, moving the key of, updating and inserting rows."""
        t = self.t
        src, taken = [], set()
        for pk in self.some_rows(0, 4):
            taken.add(pk)
            src.append((pk, self.rng.choice("dku")))
        for _ in range(self.rng.randint(0 if src else 1, 3)):
            pk = self.free_pk(taken)
            taken.add(pk)
            src.append((pk, "i"))
        s = Step("merge")
        values, params = [], []
        for pk, act in src:
            row = self.new_row()
            if act == "k":
                if t.key_is_pk():
                    newkey = self.free_pk(taken)
                    taken.add(newkey)
                else:
                    newkey = self.rng.randint(1, USERS)
            else:
                newkey = row[0] if row[0] is not None else pk
            values.append("(%s::bigint, %s::text, %s::bigint, %s::text, %s::timestamptz)")
            params += [pk, act, newkey, row[1], row[2]]
            if act == "d":
                s.changes.append((pk, None, None))
            elif act == "k":
                if t.key_is_pk():
                    s.changes.append((pk, newkey, list(t.rows[pk])))
                else:
                    s.changes.append((pk, pk, [newkey] + list(t.rows[pk][1:])))
            elif act == "u":
                old = t.rows[pk]
                s.changes.append((pk, pk, [old[0], row[1], old[2]]))
            else:
                s.changes.append((None, pk, [None if t.key_is_pk() else newkey, row[1], row[2]]))
        keyset = ("%s = s.newkey" % t.pk) if t.key_is_pk() else ("%s = s.newkey" % t.keycol)
        ins_cols = t.cols()
        ins_vals = ["s.pk"] if t.key_is_pk() else ["s.pk", "s.newkey"]
        ins_vals.append("s.other")
        if t.at:
            ins_vals.append("s.at")
        s.sql = ("MERGE INTO %s t USING (VALUES %s) s(pk, act, newkey, other, at) ON t.%s = s.pk "
                 "WHEN MATCHED AND s.act = 'd' THEN DELETE "
                 "WHEN MATCHED AND s.act = 'k' THEN UPDATE SET %s "
                 "WHEN MATCHED THEN UPDATE SET %s = s.other "
                 "WHEN NOT MATCHED THEN INSERT (%s) VALUES (%s)"
                 % (t.name, ", ".join(values), t.pk, keyset, t.other, ", ".join(ins_cols), ", ".join(ins_vals)))
        s.params = params
        return s

    def gen_truncate(self):
        s = Step("truncate", "TRUNCATE %s" % self.t.name)
        s.changes = [(pk, None, None) for pk in self.t.rows]
        return s

    def gen_reindex(self):
        return Step("reindex", self.rng.choice(("REINDEX INDEX products_id_bf",
                                                "REINDEX INDEX CONCURRENTLY products_id_bf")))

    # -- running a step --

    def key_of(self, pk, row):
        return pk if self.t.key_is_pk() else row[0]

    def apply(self, step, committed):
        """The step's effect on the model; a rolled-back step changes no row
        but leaves its keys in the index (an index cannot forget)."""
        t = self.t
        added = set()
        for old, new, row in step.changes:
            if new is not None:
                added.add(self.key_of(new, row))
        if not committed:
            if self.name == "index":
                self.ever |= added
            return
        for old, new, row in step.changes:
            if old is not None:
                del t.rows[old]
        for old, new, row in step.changes:
            if new is not None:
                t.rows[new] = row
        if step.kind == "truncate":
            self.reset()
        elif step.kind == "reindex":
            self.ever = set(self.live_all())
        else:
            self.ever |= added

    def reset(self):
        """What the documents' TRUNCATE trigger promises: a filter as new
        (the window keeps what it has seen)."""
        if self.name != "window":
            self.ever = set()

    def run_step(self, i, step, session):
        conn = session.conn
        rollback = step.kind not in ("reindex",) and self.rng.random() < 0.05
        try:
            if rollback:
                with conn.transaction():
                    self.execute(conn, step)
                    raise psycopg.Rollback()
            else:
                self.execute(conn, step)
        except psycopg.Error as e:
            raise SystemExit("patterns: %s step %d (%s) failed: %s\n  %s %r"
                             % (self.name, i, step.kind, e, step.sql, step.params))
        self.apply(step, not rollback)
        self.ops[step.kind] = self.ops.get(step.kind, 0) + 1

    def execute(self, conn, step):
        if step.copy_rows is not None:
            with conn.cursor().copy(step.sql) as cp:
                for r in step.copy_rows:
                    cp.write_row(r)
        else:
            conn.execute(step.sql, step.params)

    # -- the window's clock --

    def set_clock(self, session):
        session.conn.execute("SELECT set_config('model.now', %s, false)", [self.clock.isoformat()])

    def tick(self, i):
        """Move the clock; past an hour boundary, run the rotation as the
        documents schedule it (each hour), from some session."""
        before = self.clock
        self.clock += datetime.timedelta(seconds=self.rng.choice((0, 0, 60, 600, 1500, 2400)))
        if self.clock.replace(minute=0, second=0, microsecond=0) != before.replace(minute=0, second=0, microsecond=0):
            session = self.rng.choice(self.sessions)
            self.set_clock(session)
            for rot in self.pattern.rotations:
                session.conn.execute(rot)

    # -- what must hold after each step --

    def live_all(self):
        return sorted({self.key_of(pk, row) for pk, row in self.t.rows.items()})

    def bucket(self, at):
        return ORIGIN + datetime.timedelta(hours=(at - ORIGIN) // datetime.timedelta(hours=1))

    def live(self):
        if self.name != "window":
            return self.live_all()
        now = self.bucket(self.clock)
        lo = now - datetime.timedelta(hours=WINDOW_HOURS - 1)
        return sorted({row[0] for row in self.t.rows.values() if lo <= self.bucket(row[2]) <= now})

    def note_lost(self, i, keys):
        for k in keys:
            if k not in self.lost and self.first_lost is None:
                self.first_lost = (i, k)
            self.lost.add(k)
        self.lost_checks += len(keys)

    def note_mismatch(self, i, what):
        self.mismatches += 1
        if self.first_mismatch is None:
            self.first_mismatch = (i, what)

    def verify(self, i, session):
        live = self.live()
        self.checked += len(live)
        self.compared += self.name != "window"
        getattr(self, "verify_" + self.name.replace("-", "_"))(i, session, live)

    def missing(self, session, sql, live):
        return session.conn.execute(sql, [live]).fetchone()[0] or []

    def checks_missing(self, session, live):
        """The documents' check of one key, for every live key, with the key
        sent as an application would: a bigint, or untyped text."""
        stmts = []
        for k in live:
            if self.rng.random() < 0.5:
                p = (str(k).encode(), 20, 0)
            else:
                p = (str(k).encode(), 0, 0)
            for chk in self.pattern.checks:
                stmts.append((k, Statement(chk, [p])))
        res = session.run([st for _, st in stmts])
        out = set()
        for (k, st), r in zip(stmts, res):
            if not r.ok:
                raise SystemExit("patterns: %s: the documents' check failed: %s %s\n  %s"
                                 % (self.name, r.sqlstate, r.message, st.sql))
            if not r.rows or r.rows[0][0] != "t":
                out.add(k)
        return sorted(out)

    def verify_trigger_plain(self, i, s, live):
        self.note_lost(i, self.missing(s, "SELECT array_agg(k) FROM unnest(%s::bigint[]) k, product_filter f "
                                          "WHERE f.name = 'products' AND NOT bf_contains(f.bf, k)", live))
        # a plain filter holds every key the table held since it was made or reset
        same = s.conn.execute("SELECT f.bf = bf_add_all(%s::bytea::bloomfilter, %s::bigint[]) "
                              "FROM product_filter f WHERE f.name = 'products'",
                              [self.template, sorted(self.ever)]).fetchone()[0]
        if not same:
            self.note_mismatch(i, "filter <> template + every key held since the reset")

    def verify_trigger_counting(self, i, s, live):
        self.note_lost(i, self.missing(s, "SELECT array_agg(k) FROM unnest(%s::bigint[]) k, account_filter f "
                                          "WHERE NOT bf_contains(f.bf, k)", live))
        if live:
            same = s.conn.execute("SELECT f.bf = bf_add_all(%s::bytea::bloomfilter, %s::bigint[]) FROM account_filter f",
                                  [self.template, live]).fetchone()[0]
        else:
            # no rows: bf_agg has nothing to build, and a filter emptied by
            # deletes keeps its key type; it must be empty and of the shape
            same = s.conn.execute("SELECT bf_bits_set(f.bf) = 0 AND bf_union(f.bf, %s::bytea::bloomfilter) = f.bf "
                                  "FROM account_filter f", [self.template]).fetchone()[0]
        if not same:
            self.note_mismatch(i, "filter <> rebuild over the live rows")

    def verify_trigger_cuckoo(self, i, s, live):
        self.note_lost(i, self.missing(s, "SELECT array_agg(k) FROM unnest(%s::bigint[]) k, sessions_filter f "
                                          "WHERE NOT cf_contains(f.f, k)", live))
        probes = list(range(1, 3 * KEYSPACE + 1))
        same = s.conn.execute(
            "SELECT cf_cardinality(f.f) = cardinality(%s::bigint[]) "
            "   AND cf_contains_all(f.f, %s::bigint[]) = cf_contains_all(cf_add_all(%s::bytea::cuckoofilter, %s::bigint[]), %s::bigint[]) "
            "FROM sessions_filter f", [live, probes, self.template, live, probes]).fetchone()[0]
        if not same:
            self.note_mismatch(i, "entries or answers <> rebuild over the live rows")

    def verify_index(self, i, s, live):
        self.note_lost(i, self.index_missing(s, live))
        same = s.conn.execute("SELECT bf_index_filter('products_id_bf') = bf_add_all(%s::bytea::bloomfilter, %s::bigint[])",
                              [self.template, sorted(self.ever)]).fetchone()[0]
        if not same:
            self.note_mismatch(i, "bf_index_filter <> template + every key indexed since the build")

    def index_missing(self, s, live):
        ans = s.conn.execute("SELECT bf_index_contains_all('products_id_bf', %s::bigint[])", [live]).fetchone()[0]
        return [k for k, a in zip(live, ans or []) if not a]

    def verify_shards(self, i, s, live):
        self.note_lost(i, self.checks_missing(s, live))
        # each shard: as built from every key it was given, since made or reset
        rows = s.conn.execute(
            "WITH k(k) AS (SELECT unnest(%s::bigint[])), "
            "     want AS (SELECT bf_shard(k, %s) AS shard, array_agg(k) AS keys FROM k GROUP BY 1) "
            "SELECT count(*) FILTER (WHERE f.shard IS NULL OR w.shard IS NULL "
            "   OR f.bf <> bf_add_all(bf_create(bf_capacity(f.bf), bf_error_rate(f.bf)), w.keys)) "
            "FROM user_filter f FULL JOIN want w USING (shard)", [sorted(self.ever), self.nshards]).fetchone()[0]
        if rows:
            self.note_mismatch(i, "%d shards <> built from every key given since the reset" % rows)

    def verify_window(self, i, s, live):
        self.set_clock(s)
        self.note_lost(i, self.checks_missing(s, live))


# ---- a run ----


def connect(dsn, zone):
    r = pgrun.Runner(dsn + " options='-c TimeZone=%s'" % zone)
    r.conn.execute("SET search_path = model_clock, public, pg_catalog")
    return r


def setup_pattern(admin_dsn, pattern, dbname):
    with psycopg.connect(admin_dsn, autocommit=True) as c:
        c.execute("DROP DATABASE IF EXISTS %s" % dbname)
        c.execute("CREATE DATABASE %s" % dbname)
    dsn = re.sub(r"dbname=\S+", "dbname=" + dbname, admin_dsn)
    with psycopg.connect(dsn, autocommit=True) as c:
        c.execute("CREATE EXTENSION bloomfilter")
        # a simulated clock: now() of a schema searched before pg_catalog
        c.execute("CREATE SCHEMA model_clock")
        c.execute("CREATE FUNCTION model_clock.now() RETURNS timestamptz LANGUAGE sql STABLE "
                  "AS $$SELECT current_setting('model.now')::timestamptz$$")
    return dsn


def run_pattern(admin_dsn, pattern, steps, seed, zones, only_ops):
    name = pattern.name
    tname, pk, key, other, at = TABLES[name]
    dbname = "model_" + name.replace("-", "_")
    dsn = setup_pattern(admin_dsn, pattern, dbname)
    rng = random.Random("%s/%s" % (seed, name))
    sessions = [connect(dsn, z) for z in zones]
    table = Table(tname, pk, key, other, at)
    model = Model(pattern, table, rng, sessions, dbname)
    model.only_ops = only_ops
    first = sessions[0]
    cols = ["%s bigint PRIMARY KEY" % pk]
    if key != pk:
        cols.append("%s bigint NOT NULL" % key)
    cols.append("%s text" % other)
    if at:
        cols.append("%s timestamptz NOT NULL" % at)
    first.conn.execute("CREATE TABLE %s (%s)" % (tname, ", ".join(cols)))
    model.set_clock(first)
    for st in pattern.setup:
        try:
            first.conn.execute(st)
        except psycopg.Error as e:
            raise SystemExit("patterns: %s: the documents' statement failed: %s\n%s" % (name, e, st))
    if name == "window":
        if not pattern.checks or not pattern.rotations:
            raise SystemExit("patterns: window: the documents give no check ($1) or no rotation")
        if not any(("%d * interval '1 hour'" % WINDOW_HOURS) in c for c in pattern.checks):
            raise SystemExit("patterns: window: the check no longer covers %d hourly buckets" % WINDOW_HOURS)
    if name == "shards":
        m = re.search(r"bf_shard\(user_id, (\d+)\)", "\n".join(pattern.setup))
        if not m or not pattern.checks:
            raise SystemExit("patterns: shards: no bf_shard(user_id, N) or no check ($1) in the documents")
        model.nshards = int(m.group(1))
    template_sql = {
        "trigger-plain": "SELECT bf::bytea FROM product_filter WHERE name = 'products'",
        "trigger-counting": "SELECT bf::bytea FROM account_filter",
        "trigger-cuckoo": "SELECT f::bytea FROM sessions_filter",
        "index": "SELECT bf_index_filter('products_id_bf')::bytea",
    }.get(name)
    if template_sql:
        model.template = first.conn.execute(template_sql).fetchone()[0]
    t0 = time.time()
    for i in range(1, steps + 1):
        if at:
            model.tick(i)
        session = rng.choice(sessions)
        model.set_clock(session)
        model.run_step(i, model.gen(), session)
        model.verify(i, rng.choice(sessions))
    for s in sessions:
        s.close()
    with psycopg.connect(admin_dsn, autocommit=True) as c:
        c.execute("DROP DATABASE %s" % dbname)
    return model, time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=int(os.environ.get("PATTERNS_STEPS", "300")),
                    help="steps per pattern (PATTERNS_STEPS, default 300)")
    ap.add_argument("--seed", default=os.environ.get("PATTERNS_SEED"), help="seed (PATTERNS_SEED)")
    ap.add_argument("--patterns", default=os.environ.get("PATTERNS_ONLY"),
                    help="comma-separated pattern names (default: all)")
    ap.add_argument("--docs-rev", default=os.environ.get("PATTERNS_DOCS_REV"),
                    help="take the documents from this git revision instead of the work tree")
    ap.add_argument("--zones", default=os.environ.get("PATTERNS_ZONES", ",".join(ZONES)),
                    help="the sessions' TimeZone settings, the first one sets up (default: %(default)s)")
    ap.add_argument("--ops", default=os.environ.get("PATTERNS_OPS"),
                    help="only these kinds of step (insert,copy,update_key,...; default: all)")
    args = ap.parse_args()
    seed = args.seed or str(random.SystemRandom().randrange(10 ** 9))
    names = args.patterns.split(",") if args.patterns else list(PATTERNS)
    log("patterns: seed %s (reproduce with PATTERNS_SEED=%s), %d steps per pattern, sessions in %s%s%s"
        % (seed, seed, args.steps, args.zones, ", steps " + args.ops if args.ops else "",
           ", documents of " + args.docs_rev if args.docs_rev else ""))
    blocks = read_docs(args.docs_rev)
    for n in names:
        if n not in blocks:
            raise SystemExit("patterns: no <!-- pattern: %s --> block in %s" % (n, ", ".join(DOCS)))
    unknown = set(blocks) - set(PATTERNS)
    if unknown:
        raise SystemExit("patterns: blocks of no pattern this test knows: %s" % ", ".join(sorted(unknown)))
    dsn = os.environ.get("PATTERNS_DSN")
    cluster = None
    if dsn:
        pgrun.clear_libpq_environment()
    else:
        bindir = os.environ.get("PATTERNS_PG_BINDIR") or pgrun.pg_config_bindir()
        os.environ["ORACLE_PG_BINDIR"] = bindir
        pgrun.clear_libpq_environment()
        cluster = pgrun.Cluster(bindir, log)
        control = cluster.check_extension()
        dsn = cluster.start()
        log("patterns: throwaway cluster of %s (extension %s)" % (bindir, control))
    failed = False
    try:
        for n in names:
            model, secs = run_pattern(dsn, Pattern(n, blocks[n]), args.steps, seed, args.zones.split(","),
                                      set(args.ops.split(",")) if args.ops else None)
            ok = not model.lost and not model.mismatches
            failed |= not ok
            line = ("patterns: %-17s %6d steps %6.1f s  %7d live keys asked, lost %d (%d times)  "
                    "%5d rebuilds compared, %d differ  %s"
                    % (n, args.steps, secs, model.checked, len(model.lost), model.lost_checks,
                       model.compared, model.mismatches, "ok" if ok else "FAILED"))
            log(line)
            if model.first_lost:
                log("    first lost key: %d at step %d" % (model.first_lost[1], model.first_lost[0]))
            if model.first_mismatch:
                log("    first mismatch at step %d: %s" % model.first_mismatch)
            log("    steps: " + ", ".join("%s %d" % kv for kv in sorted(model.ops.items())))
    finally:
        if cluster:
            cluster.stop()
    log("patterns: %s" % ("FAILED" if failed else "every live key found, every promised rebuild equal"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
