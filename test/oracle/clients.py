"""The clients' local checks, for the equality oracle (test/oracle/oracle.py).

Every probe that psycopg made (a member read back through psycopg, text or
binary, and sent again) carries the Python value psycopg read; the Python
client (clients/python, from the source tree) is asked for that value
against each fetched filter, and its shard is compared with the member's
bf_shard.  The Java client (clients/java) is asked for the values Java
keys stand for: an int as a long, a str as a String, a UUID, bytes as a
byte[]; only for the probes psycopg sent with a type (a str only in its
binary dumps, as text), as a JDBC driver sends a String as a typed
parameter.  The Java
cases are written to a file and answered by one run of
test/oracle/java/OracleHarness.java at the end.

A client's answer counts as the SQL path's does: True is present, False is
a silent absence (for a probe SQL's `=` found equal), an exception that
refuses the key (TypeError, ValueError; Java's IllegalArgumentException and
its KeyTypeMismatchException) is a refusal.
"""

import base64
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import uuid

import paths

HERE = os.path.dirname(os.path.abspath(__file__))
# the clients of this tree, or of the tree ORACLE_CLIENTS names (to run
# the clients of another version against the same server)
REPO = os.environ.get("ORACLE_CLIENTS") or os.path.normpath(os.path.join(HERE, "..", ".."))
PY_SRC = os.path.join(REPO, "clients", "python", "src")
JAVA_SRC = os.path.join(REPO, "clients", "java", "src", "main", "java")
LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1


class Verdict:
    """What a client answer means, as oracle.Stats.add takes it."""

    def __init__(self, state, message):
        self.sqlstate = state
        self.message = message
        self.hint = None


def java_key(val):
    """(kind, text) of the Java key a Python value stands for, or None."""
    if isinstance(val, bool):
        return None
    if isinstance(val, int):
        return ("L", str(val)) if LONG_MIN <= val <= LONG_MAX else None
    if isinstance(val, str):
        return ("S", base64.b64encode(val.encode("utf-8")).decode())
    if isinstance(val, uuid.UUID):
        return ("U", str(val))
    if isinstance(val, (bytes, bytearray, memoryview)):
        return ("B", base64.b64encode(bytes(val)).decode())
    return None


class Clients:
    def __init__(self, args, seed, log, encoding="UTF8"):
        self.log = log
        # bf_shard hashes text in the database's encoding: the clients' shard
        # functions are told it, as the clients' documentation says to
        self.encoding = encoding
        self.py = None
        if PY_SRC not in sys.path:
            sys.path.insert(0, PY_SRC)
        try:
            import pgbloomfilter
            self.py = pgbloomfilter
            log("oracle: Python client %s (%s), hash backend %s" % (
                pgbloomfilter.__version__, PY_SRC, pgbloomfilter.HASH_BACKEND))
        except Exception as e:  # the client cannot load: say so, go on
            log("oracle: Python client not loaded (%s): its paths are skipped" % e)
        self.cache = {}
        self.java_mode = args.java
        self.java_cases = []        # (case, path, kind, filter index or -1, op, key)
        self.java_filters = []      # base64 strings
        self.java_filter_index = {}
        self.java_dir = None
        self.java_status = "not run"
        if self.java_mode != "0":
            self._build_java()

    # ---- Java ----

    def _build_java(self):
        javac, java = shutil.which("javac"), shutil.which("java")
        if not javac or not java:
            self.java_status = "skipped: no javac/java (apt-get install default-jdk-headless)"
            if self.java_mode == "1":
                raise SystemExit("oracle: ORACLE_JAVA=1 but " + self.java_status)
            self.log("oracle: Java client " + self.java_status)
            return
        self.java_dir = tempfile.mkdtemp(prefix="bf_oracle_java.")
        srcs = [os.path.join(dp, f) for dp, _, fs in os.walk(JAVA_SRC) for f in fs if f.endswith(".java")]
        srcs.append(os.path.join(HERE, "java", "OracleHarness.java"))
        r = subprocess.run([javac, "--release", "17", "-d", self.java_dir] + srcs, capture_output=True, text=True)
        if r.returncode != 0:
            self.java_status = "skipped: the client did not compile: " + r.stderr.strip()[:500]
            self.log("oracle: Java client " + self.java_status)
            shutil.rmtree(self.java_dir, ignore_errors=True)
            self.java_dir = None
            if self.java_mode == "1":
                raise SystemExit(1)
            return
        self.java_status = "built"
        self.log("oracle: Java client compiled from %s" % JAVA_SRC)

    def _java_filter(self, data):
        k = bytes(data)
        if k not in self.java_filter_index:
            self.java_filter_index[k] = len(self.java_filters)
            self.java_filters.append(base64.b64encode(k).decode())
        return self.java_filter_index[k]

    # ---- both ----

    def _filter(self, ctx, build, kind):
        key = (ctx.tag, build, kind)
        if key not in self.cache:
            data = ctx.client_bytes.get((build, kind))
            f = None
            if data is not None:
                try:
                    f = self.py.load(data, self.encoding)
                except Exception as e:
                    f = e
            self.cache[key] = f
        return self.cache[key]

    def check(self, members, stats, path_filter):
        for case in members:
            val = case.probe.pyval
            if case.probe.pytype is None:
                continue
            ctx = case.ctx
            if self.py is not None:
                self._check_python(case, val, stats, path_filter)
            # Java's keys stand for typed values (a JDBC String is a typed
            # parameter): asked for the probes psycopg sent with a type
            if self.java_dir and case.probe.params and case.probe.params[0][1] != 0:
                jk = java_key(val)
                if jk is None:
                    continue
                for kind in paths.CLIENT_FILTERS:
                    data = ctx.client_bytes.get((case.build, kind))
                    name = "java:" + kind
                    if data is None or (path_filter and not path_filter(name)):
                        continue
                    self.java_cases.append((case, name, self._java_filter(data), "contains", jk))
                if case.member.shard is not None and case.probe.untyped is None \
                        and self._keyless_shard(val, case) \
                        and not (path_filter and not path_filter("java:shard")):
                    self.java_cases.append((case, "java:shard", -1, "shard", jk))

    def _keyless_shard(self, val, case):
        """shard() without a key type hashes a value as its natural type:
        asked only where that hashes as the member's key type (paths.KEYLESS_SHARD_PATHS)."""
        try:
            from pgbloomfilter import _keys
            return _keys.same_bytes(_keys.natural_key_type(val),
                                    _keys.key_type_oid(case.ctx.key_type_name))
        except Exception:
            return False

    def _check_python(self, case, val, stats, path_filter):
        for kind in paths.CLIENT_FILTERS:
            name = "py:" + kind
            if path_filter and not path_filter(name):
                continue
            f = self._filter(case.ctx, case.build, kind)
            if f is None:
                continue
            if isinstance(f, Exception):
                stats.add(case, name, "error", Verdict("load", "%s: %s" % (type(f).__name__, f)))
                continue
            self._answer(stats, case, name, lambda: f.contains(val))
        if case.member.shard is None:
            return
        # shard() of a str sent untyped: SQL's bf_shard refuses an untyped
        # parameter, and the client takes a str as text; the key_type form
        # is the one to use there
        if case.probe.untyped is None and self._keyless_shard(val, case) \
                and not (path_filter and not path_filter("py:shard")):
            self._answer(stats, case, "py:shard",
                         lambda: self.py.shard(val, 65536, encoding=self.encoding) == case.member.shard)
        kt = case.ctx.key_type_name
        if kt and not (path_filter and not path_filter("py:shard/key_type")):
            self._answer(stats, case, "py:shard/key_type",
                         lambda: self.py.shard(val, 65536, key_type=kt, encoding=self.encoding)
                         == case.member.shard)

    @staticmethod
    def _answer(stats, case, name, fn):
        try:
            ok = fn()
        except (TypeError, ValueError) as e:
            stats.add(case, name, "refused", Verdict("py:" + type(e).__name__, str(e)))
            return
        except Exception as e:
            stats.add(case, name, "error", Verdict("py:" + type(e).__name__, str(e)))
            return
        stats.add(case, name, "present" if ok else "absent")

    def finish(self, stats):
        if not self.java_dir:
            return
        if not self.java_cases:
            shutil.rmtree(self.java_dir, ignore_errors=True)
            return
        ffile = os.path.join(self.java_dir, "filters.txt")
        cfile = os.path.join(self.java_dir, "cases.txt")
        with open(ffile, "w") as f:
            f.write("\n".join(self.java_filters) + "\n")
        with open(cfile, "w") as f:
            for i, (case, name, fidx, op, (kind, text)) in enumerate(self.java_cases):
                f.write("%d\t%d\t%s\t%s\t%s\n" % (i, fidx, op, kind, text))
        r = subprocess.run(["java", "-Dbf.server_encoding=" + self.encoding, "-cp", self.java_dir,
                            "OracleHarness", ffile, cfile],
                           capture_output=True, text=True)
        if r.returncode != 0:
            self.java_status = "failed: " + r.stderr.strip()[:500]
            self.log("oracle: Java harness " + self.java_status)
            return
        answers = {}
        for line in r.stdout.splitlines():
            i, _, ans = line.partition("\t")
            answers[int(i)] = ans
        for i, (case, name, fidx, op, jk) in enumerate(self.java_cases):
            ans = answers.get(i)
            if ans is None:
                stats.add(case, name, "error", Verdict("java", "no answer"))
            elif ans.startswith("ERR "):
                cls = ans[4:].split(":")[0]
                v = "refused" if cls in ("IllegalArgumentException", "KeyTypeMismatchException") else "error"
                stats.add(case, name, v, Verdict("java:" + cls, ans[4:]))
            elif op == "shard":
                stats.add(case, name, "present" if int(ans) == case.member.shard else "absent")
            else:
                stats.add(case, name, "present" if ans == "true" else "absent")
        self.java_status = "%d cases" % len(self.java_cases)
        self.log("oracle: Java client answered %d cases" % len(self.java_cases))
        shutil.rmtree(self.java_dir, ignore_errors=True)

    # ---- reproductions ----

    def repro(self, case, path):
        """A Python one-liner (or, for Java, the key and filter) that shows
        the client's answer for the member alone."""
        client, kind = path.split(":", 1)
        member_src = "(SELECT %s AS col, 1 AS id) m" % case.member.sql if not case.ctx.anon else \
            "(SELECT %s AS a, %s AS b, 1 AS id) m" % case.member.sql
        if kind.startswith("shard"):
            sql = "SELECT bf_shard(%s, 65536) FROM %s" % (case.ctx.C, member_src)
            what = "shard(%r, 65536%s)" % (case.probe.pyval, ", key_type=%r" % case.ctx.key_type_name
                                           if kind == "shard/key_type" else "")
        else:
            exprs = {k: e for k, e, _ in paths.FILTER_KINDS}
            exprs["bf_add"] = "bf_add(bf_create(1000, 0.01), {C})"
            exprs["index"] = exprs["bf_typed"]
            sql = "SELECT (%s)::bytea FROM %s" % (case.ctx.sub(exprs[kind]), member_src)
            what = "load(b).contains(%r)" % (case.probe.pyval,)
        if client == "py":
            code = ("import sys, datetime, decimal, uuid; from decimal import Decimal; from uuid import UUID; "
                    "from ipaddress import *; sys.path.insert(0, 'clients/python/src'); import psycopg; "
                    "from pgbloomfilter import load, shard; c = psycopg.connect(); "
                    "b = c.execute(%r).fetchone()[0]; print(%s)" % (sql, what))
            return "python3 -c " + shlex.quote(code)
        return ("Java: %s for the key %r (%s) of the filter %s"
                % ("Shards.shard(key, 65536)" if kind == "shard" else "Filters.fromBytes(bytes).mightContain(key)",
                   case.probe.pyval, type(case.probe.pyval).__name__, sql))

