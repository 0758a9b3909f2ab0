"""A throwaway PostgreSQL server for the tests.

Where the tests find a server:
- BLOOMFILTER_TEST_DSN, if set (a libpq connection string);
- else PGHOST/PGPORT from the environment, as ``pg_virtualenv -t`` sets;
- else a cluster of our own: initdb in a temporary directory, pg_ctl on a
  Unix socket in it, from BLOOMFILTER_PG_BINDIR (default: pg_config's) (as the postgres user when run as root), stopped and
  removed at the end.
Either way the tests create a UTF8 database of their own with the extension
in it and drop it afterwards.  The extension must be installed
(``make install``); it is never installed from here.
"""

import os
import pwd
import shutil
import subprocess
import tempfile
import time

import pytest

psycopg = pytest.importorskip("psycopg")

TEST_DB = "pgbloomfilter_test"


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
        self.port = 54000 + os.getpid() % 1000
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
        return "host=%s port=%d user=postgres dbname=postgres" % (self.tmp,
                                                                 self.port)

    def stop(self):
        try:
            self._run(os.path.join(self.bindir, "pg_ctl"), "-D", self.data,
                      "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)


@pytest.fixture(scope="session")
def server_dsn():
    dsn = os.environ.get("BLOOMFILTER_TEST_DSN")
    cluster = None
    if dsn is None and (os.environ.get("PGHOST") or os.environ.get("PGPORT")):
        dsn = ""
    if dsn is None:
        cluster = _OwnCluster()
        dsn = cluster.start()
    admin = psycopg.connect(dsn, autocommit=True)
    admin.execute("DROP DATABASE IF EXISTS %s" % TEST_DB)
    admin.execute("CREATE DATABASE %s TEMPLATE template0 ENCODING 'UTF8' "
                  "LC_COLLATE 'C' LC_CTYPE 'C'" % TEST_DB)
    test_dsn = psycopg.conninfo.make_conninfo(dsn, dbname=TEST_DB)
    with psycopg.connect(test_dsn, autocommit=True) as c:
        c.execute("CREATE EXTENSION bloomfilter")
    try:
        yield test_dsn
    finally:
        for _ in range(50):
            try:
                admin.execute("DROP DATABASE IF EXISTS %s" % TEST_DB)
                break
            except psycopg.errors.ObjectInUse:
                time.sleep(0.1)
        admin.close()
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
