"""A throwaway PostgreSQL cluster and a pipelined statement runner for the
equality oracle (test/oracle/oracle.py).

The cluster is initdb'd in a temporary directory (as the postgres user when
run as root, since initdb refuses root), listens on a Unix socket in that
directory only, and is removed at the end.  A server named by PGHOST or
PGPORT is never used: libpq's PG* variables are cleared before connecting,
and only ORACLE_DSN (an explicit opt-in) points the oracle at a server of
its own choosing.

The runner sends many statements in one libpq pipeline, each followed by a
sync, so that an error in one statement (a refusal is an ERROR) aborts only
that statement; the results come back in order, one per statement.
"""

import os
import shutil
import subprocess
import tempfile

import psycopg
from psycopg import pq

# Statements sent before their results are read.  Each answer is a small
# row, so a chunk's results fit in the socket's buffer and the server never
# blocks writing while we block sending.
PIPELINE_CHUNK = 64


def pg_config_bindir():
    """The bindir of ORACLE_PG_BINDIR, else of $PG_CONFIG or pg_config."""
    bindir = os.environ.get("ORACLE_PG_BINDIR")
    if bindir:
        return bindir
    pg_config = os.environ.get("PG_CONFIG") or "pg_config"
    return subprocess.run([pg_config, "--bindir"], check=True,
                          capture_output=True, text=True).stdout.strip()


def clear_libpq_environment():
    """Forget every PG* variable, so that libpq connects only where told."""
    for name in list(os.environ):
        if name.startswith("PG") and name not in ("PG_CONFIG",):
            del os.environ[name]


class Cluster:
    """initdb, start, stop and remove a private cluster of bindir."""

    def __init__(self, bindir, log):
        self.bindir = bindir
        self.log = log
        self.dir = None

    def _as_pg(self, argv, **kw):
        if os.geteuid() == 0:
            argv = ["runuser", "-u", "postgres", "--"] + argv
        return subprocess.run(argv, check=True, capture_output=True, text=True, **kw)

    def check_extension(self):
        """The bloomfilter extension must be installed where bindir's server
        looks for it; say where it is."""
        sharedir = subprocess.run([os.path.join(self.bindir, "pg_config"), "--sharedir"],
                                  check=True, capture_output=True, text=True).stdout.strip()
        control = os.path.join(sharedir, "extension", "bloomfilter.control")
        if not os.path.exists(control):
            raise SystemExit("oracle: no bloomfilter extension in %s (make install, or "
                             "ORACLE_PG_BINDIR=<bindir of an installation that has it>)"
                             % sharedir)
        return control

    def start(self):
        self.dir = tempfile.mkdtemp(prefix="bf_oracle.")
        os.chmod(self.dir, 0o755)
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        data = os.path.join(self.dir, "data")
        self._as_pg([os.path.join(self.bindir, "initdb"), "-D", data, "-A", "trust",
                     "-U", "postgres", "--no-locale", "-E", "UTF8"])
        opts = ("-c listen_addresses='' -k %s -p 5432 -c fsync=off "
                "-c max_connections=20 -c shared_buffers=128MB" % self.dir)
        try:
            self._as_pg([os.path.join(self.bindir, "pg_ctl"), "-D", data, "-l",
                         os.path.join(self.dir, "server.log"), "-w", "-t", "120",
                         "-o", opts, "start"])
        except subprocess.CalledProcessError:
            with open(os.path.join(self.dir, "server.log")) as f:
                self.log(f.read())
            raise
        return "host=%s port=5432 user=postgres dbname=postgres" % self.dir

    def stop(self):
        if not self.dir:
            return
        try:
            self._as_pg([os.path.join(self.bindir, "pg_ctl"), "-D",
                         os.path.join(self.dir, "data"), "-m", "immediate", "-w", "stop"])
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None


class Result:
    """One statement's outcome: rows (lists of str or None) or an error."""
    __slots__ = ("rows", "sqlstate", "message", "hint")

    def __init__(self, rows=None, sqlstate=None, message=None, hint=None):
        self.rows = rows
        self.sqlstate = sqlstate
        self.message = message
        self.hint = hint

    @property
    def ok(self):
        return self.sqlstate is None

    def __repr__(self):
        if self.ok:
            return "Result(%r)" % (self.rows,)
        return "Result(ERROR %s: %s)" % (self.sqlstate, self.message)


class Statement:
    """SQL text and its parameters, each (value bytes or None, type oid,
    format 0 text / 1 binary).  With op "prepare", the SQL is prepared as
    the named statement `name` (with the parameters' types); with op
    "execute", that statement is executed with the parameters' values."""
    __slots__ = ("sql", "params", "op", "name")

    def __init__(self, sql, params=(), op="query", name=None):
        self.sql = sql
        self.params = list(params)
        self.op = op
        self.name = name


def _decode(b):
    return None if b is None else b.decode("utf-8", "replace")


def _field(res, code):
    v = res.error_field(code)
    return _decode(v)


class Runner:
    """A connection that runs lists of Statements in pipelines."""

    def __init__(self, conninfo):
        self.conn = psycopg.connect(conninfo, autocommit=True)
        self.pg = self.conn.pgconn
        self.statements = 0

    def close(self):
        self.conn.close()

    def run(self, statements):
        out = []
        for i in range(0, len(statements), PIPELINE_CHUNK):
            out.extend(self._run_chunk(statements[i:i + PIPELINE_CHUNK]))
        self.statements += len(statements)
        return out

    def one(self, sql, params=()):
        return self.run([Statement(sql, params)])[0]

    def must(self, sql, params=()):
        r = self.one(sql, params)
        if not r.ok:
            raise RuntimeError("oracle setup failed: %s\n  %s: %s" % (sql[:500], r.sqlstate, r.message))
        return r.rows

    def _run_chunk(self, chunk):
        pg = self.pg
        pg.enter_pipeline_mode()
        try:
            for st in chunk:
                if st.op == "prepare":
                    pg.send_prepare(st.name.encode(), st.sql.encode(), [p[1] for p in st.params])
                elif st.op == "execute":
                    pg.send_query_prepared(st.name.encode(), [p[0] for p in st.params],
                                           [p[2] for p in st.params])
                elif st.params:
                    pg.send_query_params(st.sql.encode(),
                                         [p[0] for p in st.params],
                                         [p[1] for p in st.params],
                                         [p[2] for p in st.params])
                else:
                    pg.send_query_params(st.sql.encode(), None)
                pg.pipeline_sync()
            pg.flush()
            results = []
            current = None
            while len(results) < len(chunk):
                res = pg.get_result()
                if res is None:
                    continue
                status = res.status
                if status == pq.ExecStatus.PIPELINE_SYNC:
                    results.append(current if current is not None else Result(rows=[]))
                    current = None
                elif status in (pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK):
                    rows = [[_decode(res.get_value(r, c)) for c in range(res.nfields)]
                            for r in range(res.ntuples)]
                    current = Result(rows=rows)
                elif status == pq.ExecStatus.FATAL_ERROR:
                    current = Result(sqlstate=_field(res, pq.DiagnosticField.SQLSTATE),
                                     message=_field(res, pq.DiagnosticField.MESSAGE_PRIMARY),
                                     hint=_field(res, pq.DiagnosticField.MESSAGE_HINT))
                elif status == pq.ExecStatus.PIPELINE_ABORTED:
                    if current is None:
                        current = Result(sqlstate="ABORT", message="pipeline aborted")
                else:
                    current = Result(sqlstate="?????", message="unexpected status %s" % status)
            return results
        finally:
            pg.exit_pipeline_mode()
