"""A throwaway PostgreSQL server for the tests.

The tests never touch a server the environment merely points at:

- By default they start a cluster of their own: initdb in a temporary
  directory, pg_ctl listening on a Unix socket in that directory only (no
  TCP port, so concurrent runs cannot collide), from BLOOMFILTER_PG_BINDIR
  (default: pg_config's), as the postgres user when run as root; stopped
  and removed at the end.  Every libpq environment variable (PGHOST,
  PGHOSTADDR, PGPORT, PGDATABASE, PGUSER, PGSERVICE, PGPASSFILE, ...) is
  removed from this process's environment first, so that neither the
  connections nor initdb and pg_ctl can be steered to another server.
- BLOOMFILTER_TEST_DSN (a libpq connection string) opts in to an existing
  server; libpq completes it from the environment as usual.  The tests
  then create a database of their own, named pgbloomfilter_test_ and a
  random suffix, and drop that one database at the end; nothing else on
  that server is dropped or changed.

The extension must be installed in that server (``make install``, or a
private mirror such as scripts/check-version.sh makes, through
BLOOMFILTER_PG_BINDIR); it is never installed from here.
"""

import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
import time

import pytest

psycopg = pytest.importorskip("psycopg")

DB_PREFIX = "pgbloomfilter_test_"


def _clear_libpq_environment():
    """Remove what libpq, initdb and pg_ctl would read: every PG* variable
    (PGHOST, PGHOSTADDR, PGPORT, PGSERVICE, PGPASSFILE, PGDATA, ...) but
    PG_CONFIG, which names a pg_config and no server."""
    for name in list(os.environ):
        if name.startswith("PG") and name != "PG_CONFIG":
            del os.environ[name]


def _bindir():
    # BLOOMFILTER_PG_BINDIR points at another server's binaries (a private
    # mirror with the extension installed, as scripts/check-version.sh
    # makes), so that the tests need not install into the system's server
    given = os.environ.get("BLOOMFILTER_PG_BINDIR")
    if given:
        return given
    pg_config = os.environ.get("PG_CONFIG", "pg_config")
    try:
        return subprocess.check_output([pg_config, "--bindir"],
                                       text=True).strip()
    except (OSError, subprocess.CalledProcessError):
        return "/usr/lib/postgresql/15/bin"


class _OwnCluster:
    def __init__(self):
        self.tmp = tempfile.mkdtemp(prefix="pgbloomfilter-")
        self.data = os.path.join(self.tmp, "data")
        self.bindir = _bindir()
        self.as_user = []
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            os.chown(self.tmp, pw.pw_uid, pw.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        # only the name of the socket in our own directory: no TCP port
        self.port = 5432
        self.log = os.path.join(self.tmp, "log")

    def _run(self, *args):
        subprocess.run(self.as_user + list(args), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def start(self):
        self._run(os.path.join(self.bindir, "initdb"), "-D", self.data,
                  "-E", "UTF8", "--locale=C", "-A", "trust", "-U", "postgres")
        opts = "-k %s -p %d -c listen_addresses=''" % (self.tmp, self.port)
        self._run(os.path.join(self.bindir, "pg_ctl"), "-D", self.data,
                  "-o", opts, "-l", self.log, "-w", "start")
        return psycopg.conninfo.make_conninfo(
            host=self.tmp, port=self.port, user="postgres", dbname="postgres")

    def stop(self):
        try:
            self._run(os.path.join(self.bindir, "pg_ctl"), "-D", self.data,
                      "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)


def _drop_database(admin, name):
    """Drop the tests' own database, waiting for their connections to go."""
    assert name.startswith(DB_PREFIX)
    for _ in range(50):
        try:
            admin.execute("DROP DATABASE IF EXISTS %s" % name)
            return
        except psycopg.errors.ObjectInUse:
            time.sleep(0.1)
    raise RuntimeError("database %s is still in use" % name)


@pytest.fixture(scope="session")
def server_dsn():
    dsn = os.environ.get("BLOOMFILTER_TEST_DSN") or None
    cluster = None
    if dsn is None:
        _clear_libpq_environment()
        cluster = _OwnCluster()
        dsn = cluster.start()
    # a name no other run and no user database has: only it is dropped
    test_db = DB_PREFIX + secrets.token_hex(6)
    try:
        admin = psycopg.connect(dsn, autocommit=True)
        try:
            admin.execute("CREATE DATABASE %s TEMPLATE template0 ENCODING "
                          "'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" % test_db)
            try:
                test_dsn = psycopg.conninfo.make_conninfo(dsn, dbname=test_db)
                with psycopg.connect(test_dsn, autocommit=True) as c:
                    c.execute("CREATE EXTENSION bloomfilter")
                yield test_dsn
            finally:
                _drop_database(admin, test_db)
        finally:
            admin.close()
    finally:
        if cluster is not None:
            cluster.stop()


@pytest.fixture(scope="session")
def conn(server_dsn):
    from pgbloomfilter.psycopg import register_bloomfilter

    c = psycopg.connect(server_dsn, autocommit=True)
    register_bloomfilter(c)
    yield c
    c.close()


@pytest.fixture(scope="session")
def server_hash_id(conn):
    """The hash id the installed server writes (header byte 6)."""
    raw = conn.execute("SELECT bf_create(10)::bytea").fetchone()[0]
    return raw[6]


# the database encodings the tests build filters in: UTF8, a single-byte
# one, one with no encoding at all and a multibyte one that is not UTF8
ENCODINGS = ("UTF8", "LATIN1", "SQL_ASCII", "EUC_JP")


@pytest.fixture(scope="session")
def encoding_dsns(server_dsn):
    """{encoding: DSN} of a database of each of ENCODINGS with the
    extension, made beside the tests' own (named after it, so that only
    they are dropped)."""
    base = psycopg.conninfo.conninfo_to_dict(server_dsn)["dbname"]
    admin = psycopg.connect(server_dsn, autocommit=True)
    made = {}
    try:
        for enc in ENCODINGS:
            name = "%s_%s" % (base, enc.lower())
            admin.execute("CREATE DATABASE %s TEMPLATE template0 ENCODING "
                          "'%s' LC_COLLATE 'C' LC_CTYPE 'C'" % (name, enc))
            made[enc] = psycopg.conninfo.make_conninfo(
                server_dsn, dbname=name, client_encoding="UTF8")
            with psycopg.connect(made[enc], autocommit=True) as c:
                c.execute("CREATE EXTENSION bloomfilter")
        yield made
    finally:
        for enc in made:
            _drop_database(admin, "%s_%s" % (base, enc.lower()))
        admin.close()
