#!/usr/bin/python3
"""bench-interop (RedisBloom rows): a filter of BENCH_N keys (default
10,000,000) made in Redis two ways, timed from the client's side:

- export: bf_to_redisbloom of the filter stored in PostgreSQL (called in
  the select list), fetched in binary, and BF.LOADCHUNK of each row into
  Redis over a raw socket;
- baseline: BF.RESERVE and BF.MADD of the same keys in the same order, 1,000
  keys a command, sent pipelined over one socket as RESP bytes encoded
  before the clock starts (the client does nothing but write and count
  replies, so the time is Redis's and the network's).

Rounds alternate (export, baseline, export, ...), BENCH_RUNS of each
(default 3), best of each kept; the ratio is export / baseline.  Both keys
are then dumped and must be byte-identical.  Servers as in
test/interop/redis_interop.py: their own redis-server (REDISBLOOM_MODULE)
and PostgreSQL (BLOOMFILTER_PG_BINDIR), default settings.
"""
import os
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "test", "interop"))
import redis_interop as ri  # noqa: E402

N = int(os.environ.get("BENCH_N", "10000000"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
RATE = 0.01
PER_CMD = 1000
PIPELINE = 200


def resp(*args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


def madd_commands(key):
    return [resp("BF.MADD", key, *range(i, min(i + PER_CMD, N + 1)))
            for i in range(1, N + 1, PER_CMD)]


def baseline(port, key, cmds):
    """BF.RESERVE + pipelined BF.MADD over a raw socket; seconds."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(600)
        start = time.perf_counter()
        s.sendall(resp("BF.RESERVE", key, RATE, N, "EXPANSION", 2))
        expect = 1                          # "+OK"
        got = 0
        cr = False                          # the last chunk ended in "\r"
        for i in range(0, len(cmds), PIPELINE):
            batch = cmds[i:i + PIPELINE]
            s.sendall(b"".join(batch))
            # each reply: "*k" and k integers, k + 1 lines
            expect += sum(c.count(b"\r\n$") - 2 + 1 for c in batch)
            while got < expect:
                data = s.recv(1 << 20)
                if not data:
                    raise RuntimeError("redis closed the connection")
                if data.startswith(b"-"):
                    raise RuntimeError(data[:200])
                got += data.count(b"\r\n") + (cr and data[:1] == b"\n")
                cr = data[-1:] == b"\r"
        return time.perf_counter() - start


def export(pg, port, key):
    """bf_to_redisbloom fetched in binary, BF.LOADCHUNK of each row over a
    raw socket as the baseline sends (the chunk written as it came, not
    copied into a command); seconds.  The function is called in the select
    list, which streams its rows (in FROM, the executor would first write
    them to a tuplestore, spilled to disk past work_mem)."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(600)
        start = time.perf_counter()
        with pg.conn.cursor(binary=True) as cur:
            cur.execute("SELECT (r).iter, (r).chunk FROM "
                        "(SELECT bf_to_redisbloom(v) AS r FROM bench_filter OFFSET 0) d")
            for it, chunk in cur:
                # the command's first three arguments, then the chunk's length
                s.sendall(resp("BF.LOADCHUNK", key, it).replace(b"*3", b"*4", 1)
                          + b"$%d\r\n" % len(chunk))
                s.sendall(chunk)
                s.sendall(b"\r\n")
                reply = s.recv(64)
                if not reply.startswith(b"+OK"):
                    raise RuntimeError(reply)
        return time.perf_counter() - start


def main():
    module = ri.module_path()
    red = ri.Redis(module)
    try:
        pg = ri.Postgres()
        try:
            t0 = time.perf_counter()
            pg.conn.execute(
                "CREATE TABLE bench_filter AS SELECT bf_agg(i, bf_create(%s, %s, expansion => 2, "
                "key_type => 'bigint', layout => 'redisbloom')) AS v FROM generate_series(1, %s) i",
                (N, RATE, N))
            build = time.perf_counter() - t0
            size = pg.conn.execute("SELECT pg_column_size(v) FROM bench_filter").fetchone()[0]
            cmds = madd_commands("base")
            exp_t, base_t = [], []
            for _ in range(RUNS):
                red.r.delete("exp")
                exp_t.append(export(pg, red.port, "exp"))
                red.r.delete("base")
                base_t.append(baseline(red.port, "base", cmds))
            same = ri.scandump(red.r, "exp") == ri.scandump(red.r, "base")
        finally:
            pg.stop()
    finally:
        red.stop()
    print("bench-interop-redis: %d keys, error rate %g, filter %.1f MB (built by bf_agg in %.1f s)"
          % (N, RATE, size / 1e6, build))
    print("| case | best of %d (s) | all rounds (s) | keys/s |" % RUNS)
    print("|---|---|---|---|")
    for name, ts in (("bf_to_redisbloom + BF.LOADCHUNK", exp_t),
                     ("BF.RESERVE + pipelined BF.MADD (baseline)", base_t)):
        print("| %s | %.3f | %s | %.0f |" % (name, min(ts), " ".join("%.3f" % t for t in ts),
                                           N / min(ts)))
    print("ratio export / baseline: %.4f (target <= 0.2); dumps identical: %s"
          % (min(exp_t) / min(base_t), same))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
