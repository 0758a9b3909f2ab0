"""Local checks per second: python bench.py [--n N] [--backend NAME ...]

Builds a filter sized for N keys at 1% with N int keys, then times
contains() one key at a time and contains_many() over N/2 members and N/2
non-members, for int and str keys, with every MurmurHash3 backend that loads
here (or those named).  Best of 3 runs each, in CPU time of this process
(time.process_time), so that other load on the machine counts less.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "src"))

from pgbloomfilter import BloomFilter, _murmur  # noqa: E402
from pgbloomfilter._filter import _numpy  # noqa: E402


def best_of(fn, runs=3):
    best = None
    for _ in range(runs):
        t = time.process_time()
        fn()
        dt = time.process_time() - t
        best = dt if best is None or dt < best else best
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--backend", action="append")
    args = ap.parse_args()
    n = args.n
    rng = random.Random(1)
    ints = [rng.getrandbits(62) for _ in range(n)]
    strs = ["user-%d@example.com" % i for i in ints]
    for name in args.backend or _murmur.backends():
        pair = _murmur.load(name)
        for label, keys in (("int", ints), ("str", strs)):
            members, outsiders = keys[: n // 2], keys[n // 2:]
            bf = BloomFilter.create(n, 0.01, hash_id=1)
            bf._hash = pair
            t_add = best_of(lambda: bf.add_many(members), runs=1)
            probes = members + outsiders
            contains = bf.contains
            t_one = best_of(lambda: [contains(k) for k in probes])
            t_many = best_of(lambda: bf._contains_many_py(probes))
            t_np = (best_of(lambda: bf._contains_many_numpy(probes))
                    if _numpy() is not None else None)
            print("%-13s %-3s  add %8.0f/s  contains %8.0f/s  "
                  "contains_many: pure %8.0f/s, numpy %s   "
                  "(50%% members, %d keys, k=%d)"
                  % (name, label, len(members) / t_add, len(probes) / t_one,
                     len(probes) / t_many,
                     "%8.0f/s" % (len(probes) / t_np) if t_np else "-",
                     len(probes), bf.nhashes))


if __name__ == "__main__":
    main()
