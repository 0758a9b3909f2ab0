#!/usr/bin/python3
"""RedisBloom filters built in PostgreSQL answer in Redis, and back.

For several shapes (capacity, error rate, expansion or NONSCALING, chains
of one to six links grown by adds past capacity) and key types (bigint,
integer, text with non-ASCII characters, bytea):

- PostgreSQL -> Redis: bf_add_all into bf_create(..., layout =>
  'redisbloom'), bf_to_redisbloom, BF.LOADCHUNK; BF.MEXISTS answers as
  bf_contains for every member and as many non-members; BF.SCANDUMP of the
  loaded key hands out exactly our rows.
- Redis -> PostgreSQL: BF.RESERVE and BF.MADD of the same members in the
  same order, BF.SCANDUMP, bf_from_redisbloom; bf_contains answers as
  BF.MEXISTS; bf_to_redisbloom of it is the dump again; and it is byte for
  byte the filter PostgreSQL built (same links, same counts, same bits).

Members reach Redis as redis-py sends them: an int as its decimal text, a
str as UTF-8, bytes as they are.

Everything runs on servers of its own: redis-server on 127.0.0.1 at a port
the system hands out, no persistence, with the module REDISBLOOM_MODULE
(default: the path in /var/tmp/redisbloom/READY); PostgreSQL from
BLOOMFILTER_PG_BINDIR (else pg_config --bindir), initdb in a temporary
directory, a Unix socket there only, every PG* variable removed first.
The extension must be installed in that server.

Exit status: 0 all passed, 1 a case failed, 2 skipped (no module).
"""
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time

N_PROBES = int(os.environ.get("INTEROP_N", "100000"))

# (key type, capacity, error rate, expansion (0: NONSCALING), members)
CASES = [
    ("bigint", 100000, 0.01, 2, N_PROBES),        # one link, full
    ("bigint", 1000000, 1e-5, 0, N_PROBES),       # NONSCALING, 1M
    ("integer", 20000, 0.1, 2, N_PROBES),         # three links
    ("text", 5000, 0.001, 4, N_PROBES),           # three links, expansion 4
    ("bytea", 30000, 0.05, 1, N_PROBES),          # four links, expansion 1
    ("text", 100, 0.01, 4, N_PROBES),             # six links from capacity 100
    ("bigint", 1000, 1e-4, 2, 50000),             # six links
    ("integer", 100, 0.01, 0, 100),               # NONSCALING, exactly full
    ("bigint", 10000000, 1e-5, 0, 10000),         # a 30 MB link: two chunks
]

REDIS_BATCH = 5000


def skip(msg):
    print("check-interop-redis: SKIPPED: %s (set REDISBLOOM_MODULE=/path/redisbloom.so;"
          " CONTRIBUTING: Interop)" % msg, file=sys.stderr)
    sys.exit(2)


def module_path():
    path = os.environ.get("REDISBLOOM_MODULE", "")
    if not path and os.path.exists("/var/tmp/redisbloom/READY"):
        with open("/var/tmp/redisbloom/READY") as f:
            path = f.read().strip()
    if not path:
        skip("no RedisBloom module")
    if not os.path.isfile(path):
        skip("no RedisBloom module at %s" % path)
    return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Redis:
    def __init__(self, module):
        import redis
        self.tmp = tempfile.mkdtemp(prefix="bf-interop-redis-")
        for _ in range(5):
            self.port = free_port()
            self.proc = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                 "--save", "", "--appendonly", "no", "--dir", self.tmp,
                 "--loadmodule", module],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.r = redis.Redis(host="127.0.0.1", port=self.port)
            for _ in range(100):
                try:
                    if self.r.ping():
                        break
                except redis.ConnectionError:
                    time.sleep(0.05)
                if self.proc.poll() is not None:
                    break
            if self.proc.poll() is None:
                return
        raise RuntimeError("redis-server did not start")

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)


class Postgres:
    def __init__(self):
        import psycopg
        for name in list(os.environ):
            if name.startswith("PG") and name != "PG_CONFIG":
                del os.environ[name]
        self.bindir = os.environ.get("BLOOMFILTER_PG_BINDIR") or subprocess.check_output(
            [os.environ.get("PG_CONFIG", "pg_config"), "--bindir"], text=True).strip()
        self.tmp = tempfile.mkdtemp(prefix="bf-interop-pg-")
        self.data = os.path.join(self.tmp, "data")
        self.as_user = []
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            os.chown(self.tmp, pw.pw_uid, pw.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", self.data, "-E", "UTF8", "--locale=C", "-A", "trust",
                  "-U", "postgres")
        self._run("pg_ctl", "-D", self.data, "-o",
                  "-k %s -p 5432 -c listen_addresses=''" % self.tmp,
                  "-l", os.path.join(self.tmp, "log"), "-w", "start")
        self.conn = psycopg.connect(host=self.tmp, port=5432, user="postgres",
                                    dbname="postgres", autocommit=True)
        self.conn.execute("CREATE EXTENSION bloomfilter")

    def _run(self, prog, *args):
        subprocess.run(self.as_user + [os.path.join(self.bindir, prog)] + list(args),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def stop(self):
        try:
            self.conn.close()
            self._run("pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)


def keys(kt, n, offset):
    """n distinct keys of type kt; offset picks a disjoint range."""
    if kt in ("bigint", "integer"):
        # negative and positive, spread out, within int4 for integer
        scale = 7919 if kt == "bigint" else 13
        return [(i + offset) * scale - 50000 * scale for i in range(n)]
    if kt == "text":
        return ["ключ-%d-é%s" % (i + offset, "x" * (i % 11)) for i in range(n)]
    return [b"\x00\xff" + ("k%d" % (i + offset)).encode() + bytes([i % 256]) for i in range(n)]


def members_of(kt, n):
    """The members in the order both sides add them, with repeats: adds of
    an element already present do not count, in Redis and here."""
    base = keys(kt, n, 0)
    return base + base[: n // 10]


def sql_contains(pg, name, kt, probes):
    cur = pg.conn.execute(
        "SELECT array_agg(bf_contains(f.v, k) ORDER BY o) FROM filters f, "
        "unnest(%%s::%s[]) WITH ORDINALITY AS u(k, o) WHERE f.name = %%s" % kt,
        (probes, name))
    return cur.fetchone()[0]


def redis_mexists(r, key, probes):
    out = []
    pipe = r.pipeline(transaction=False)
    for i in range(0, len(probes), REDIS_BATCH):
        pipe.execute_command("BF.MEXISTS", key, *probes[i:i + REDIS_BATCH])
    for reply in pipe.execute():
        out.extend(bool(x) for x in reply)
    return out


def redis_madd(r, key, members):
    pipe = r.pipeline(transaction=False)
    for i in range(0, len(members), REDIS_BATCH):
        pipe.execute_command("BF.MADD", key, *members[i:i + REDIS_BATCH])
    pipe.execute()


def scandump(r, key):
    rows = []
    it = 0
    while True:
        it, chunk = r.execute_command("BF.SCANDUMP", key, it)
        if it == 0:
            return rows
        rows.append((it, bytes(chunk)))


def run_case(pg, r, num, case):
    kt, cap, err, exp, n = case
    label = "%s capacity %d error %g %s, %d adds" % (
        kt, cap, err, "NONSCALING" if exp == 0 else "expansion %d" % exp, n)
    problems = []
    members = members_of(kt, n)
    probes = keys(kt, n, 0) + keys(kt, N_PROBES, 10 ** 7)
    key_pg, key_rd = "pg%d" % num, "rd%d" % num

    # PostgreSQL -> Redis
    pg.conn.execute(
        "INSERT INTO filters SELECT %%s, bf_add_all(bf_create(%%s, %%s, expansion => %%s, "
        "key_type => %%s, layout => 'redisbloom'), %%s::%s[])" % kt,
        (key_pg, cap, err, exp, kt, members))
    ours = [(int(i), bytes(c)) for i, c in pg.conn.execute(
        "SELECT d.iter, d.chunk FROM filters f, bf_to_redisbloom(f.v) d WHERE f.name = %s",
        (key_pg,)).fetchall()]
    for it, chunk in ours:
        r.execute_command("BF.LOADCHUNK", key_pg, it, chunk)
    if scandump(r, key_pg) != ours:
        problems.append("BF.SCANDUMP after BF.LOADCHUNK differs from bf_to_redisbloom")
    in_pg = sql_contains(pg, key_pg, kt, probes)
    in_rd = redis_mexists(r, key_pg, probes)
    if in_pg != in_rd:
        problems.append("%d answers differ (PostgreSQL -> Redis)"
                        % sum(a != b for a, b in zip(in_pg, in_rd)))
    if not all(in_pg[:n]):
        problems.append("a member tests absent in PostgreSQL")

    # Redis -> PostgreSQL
    opts = ["NONSCALING"] if exp == 0 else ["EXPANSION", exp]
    r.execute_command("BF.RESERVE", key_rd, err, cap, *opts)
    redis_madd(r, key_rd, members)
    dump = scandump(r, key_rd)
    pg.conn.execute(
        "INSERT INTO filters SELECT %s, bf_from_redisbloom(%s::bigint[], %s::bytea[], %s)",
        (key_rd, [d[0] for d in dump], [d[1] for d in dump], kt))
    back = [(int(i), bytes(c)) for i, c in pg.conn.execute(
        "SELECT d.iter, d.chunk FROM filters f, bf_to_redisbloom(f.v) d WHERE f.name = %s",
        (key_rd,)).fetchall()]
    if back != dump:
        problems.append("bf_to_redisbloom(bf_from_redisbloom(dump)) differs from the dump")
    if dump != ours:
        problems.append("the chain Redis built differs from the one PostgreSQL built")
    in_pg = sql_contains(pg, key_rd, kt, probes)
    in_rd = redis_mexists(r, key_rd, probes)
    if in_pg != in_rd:
        problems.append("%d answers differ (Redis -> PostgreSQL)"
                        % sum(a != b for a, b in zip(in_pg, in_rd)))
    same = pg.conn.execute(
        "SELECT a.v = b.v FROM filters a, filters b WHERE a.name = %s AND b.name = %s",
        (key_pg, key_rd)).fetchone()[0]
    if not same:
        problems.append("the two values are not equal in PostgreSQL")

    links = r.execute_command("BF.INFO", key_rd, "FILTERS")
    links = links[0] if isinstance(links, list) else links
    fp = sum(in_rd[n:]) / max(1, len(probes) - n)
    print("%s %s: %d links, %d chunks, %d probes, false positives %.5f: %s" % (
        "ok" if not problems else "FAILED", label, links, len(dump), len(probes), fp,
        "identical both ways" if not problems else "; ".join(problems)))
    return not problems


def run_full(pg, r):
    """A NONSCALING filter refuses the add past its capacity on both sides."""
    r.execute_command("BF.RESERVE", "full", 0.01, 10, "NONSCALING")
    r.execute_command("BF.MADD", "full", *range(10))
    redis_refuses = False
    try:
        r.execute_command("BF.ADD", "full", 10)
    except Exception as e:  # redis.ResponseError
        redis_refuses = "full" in str(e)
    import psycopg
    pg_refuses = False
    try:
        pg.conn.execute("SELECT bf_add(bf_add_all(bf_create(10, 0.01, layout => 'redisbloom'),"
                        " ARRAY(SELECT generate_series(0, 9))), 10)")
    except psycopg.errors.ProgramLimitExceeded:
        pg_refuses = True
    ok = redis_refuses and pg_refuses
    print("%s NONSCALING past capacity: Redis refuses %s, PostgreSQL refuses %s" % (
        "ok" if ok else "FAILED", redis_refuses, pg_refuses))
    return ok


def main():
    module = module_path()
    try:
        import psycopg  # noqa: F401
        import redis  # noqa: F401
    except ImportError as e:
        print("check-interop-redis: %s (python3-psycopg and python3-redis are needed)" % e,
              file=sys.stderr)
        return 1
    r = Redis(module)
    try:
        pg = Postgres()
        try:
            pg.conn.execute("CREATE TABLE filters (name text PRIMARY KEY, v bloomfilter)")
            mod = r.r.execute_command("MODULE", "LIST")[0]
            mod = dict(zip(mod[::2], mod[1::2]))
            print("check-interop-redis: Redis %s, module %s %s" % (
                r.r.info("server")["redis_version"], mod[b"name"].decode(), mod[b"ver"]))
            results = [run_case(pg, r.r, i, c) for i, c in enumerate(CASES)]
            results.append(run_full(pg, r.r))
        finally:
            pg.stop()
    finally:
        r.stop()
    failed = results.count(False)
    print("check-interop-redis: %d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
