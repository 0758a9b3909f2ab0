"""Single-key int checks of two versions of this client, in one process:
python bench_ab.py OTHER_SRC [--n N] [--rounds R]

OTHER_SRC is another checkout's clients/python/src (for example from
``git archive main clients/python | tar -x -C /tmp/main``).  Both build the
same plain filter (N keys at 1%, N/2 int members) and time contains() over
N members and non-members in alternating rounds; the best round of each
counts, in CPU time, so that load from other jobs, which comes and goes,
weighs on both alike.
"""

import argparse
import os
import random
import shutil
import sys
import tempfile
import time

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("other_src")
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="pgbf-ab-")
    try:
        # the other version under another name: its imports are relative
        shutil.copytree(os.path.join(args.other_src, "pgbloomfilter"),
                        os.path.join(tmp, "pgbloomfilter_other"))
        sys.path[:0] = [HERE, tmp]
        import pgbloomfilter
        import pgbloomfilter_other
        run(args.n, args.rounds, {"other": pgbloomfilter_other,
                                  "this": pgbloomfilter})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run(n, rounds, modules):
    rng = random.Random(1)
    ints = [rng.getrandbits(62) for _ in range(n)]
    checks = {name: mod.BloomFilter.create(n, 0.01)
              .add_many(ints[: n // 2]).contains
              for name, mod in modules.items()}
    best = dict.fromkeys(checks, float("inf"))
    for _ in range(rounds):
        for name, contains in checks.items():
            t = time.process_time()
            for k in ints:
                contains(k)
            best[name] = min(best[name], time.process_time() - t)
    for name, mod in modules.items():
        print("%-5s %-14s %9.0f checks/s" % (name, mod.HASH_BACKEND,
                                             n / best[name]))


if __name__ == "__main__":
    main()
