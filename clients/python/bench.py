"""Local checks per second: python bench.py [--n N] [--backend NAME ...]

Builds a plain filter sized for N keys at 1% with N/2 int keys, then times
contains() one key at a time and contains_many() over N/2 members and N/2
non-members, for int and str keys, with every MurmurHash3 backend that loads
here (or those named); with numpy, contains_many of int keys hashes in
arrays too (a list of ints, or an int64 numpy array).  Best of 3 runs each,
in CPU time of this process (time.process_time), so that other load on the
machine counts less.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "src"))

from pgbloomfilter import BloomFilter, CuckooFilter, _murmur  # noqa: E402
from pgbloomfilter._vector import numpy  # noqa: E402


def best_of(fn, runs=3):
    best = None
    for _ in range(runs):
        t = time.process_time()
        fn()
        dt = time.process_time() - t
        best = dt if best is None or dt < best else best
    return best


def rate(n, t):
    return "%9.0f/s" % (n / t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--backend", action="append")
    args = ap.parse_args()
    n = args.n
    rng = random.Random(1)
    ints = [rng.getrandbits(62) for _ in range(n)]
    strs = ["user-%d@example.com" % i for i in ints]
    np = numpy()
    for name in args.backend or _murmur.backends():
        pair = _murmur.load(name)
        for label, keys in (("int", ints), ("str", strs)):
            members = keys[: n // 2]
            probes = keys
            bf = BloomFilter.create(n, 0.01)
            bf._hash = pair
            t_add = best_of(lambda: bf.add_many(members), runs=1)
            contains = bf.contains
            t_one = best_of(lambda: [contains(k) for k in probes])
            t_py = best_of(lambda: bf._contains_many_py(probes))
            t_many = best_of(lambda: bf.contains_many(probes)) if np else None
            line = ("%-13s %-3s plain  add %s  contains %s  contains_many: "
                    "pure %s, numpy %s"
                    % (name, label, rate(len(members), t_add),
                       rate(len(probes), t_one), rate(len(probes), t_py),
                       rate(len(probes), t_many) if t_many else "-"))
            if label == "int" and np is not None:
                arr = np.array(probes, dtype=np.int64)
                t_arr = best_of(lambda: bf.contains_many(arr))
                line += ", int64 array %s" % rate(len(probes), t_arr)
            print(line)
        cf = CuckooFilter.create(n, 0.01)
        cf._hash = pair
        cf.add_many(ints[: n // 2])
        t_cf = best_of(lambda: [cf.contains(k) for k in ints])
        print("%-13s int cuckoo contains %s" % (name, rate(len(ints), t_cf)))


if __name__ == "__main__":
    main()
