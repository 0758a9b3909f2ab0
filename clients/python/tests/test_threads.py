"""Hashing and checking from many threads at once give exactly the
single-threaded answers, with every hash backend (issue 15, item 8: the
ctypes backend once shared one output buffer between threads)."""

import random
import threading

import pytest

from pgbloomfilter import _murmur

THREADS = 8


def _run_threads(work):
    """Run work(i) in THREADS threads started together; re-raise failures."""
    errors = []
    barrier = threading.Barrier(THREADS)

    def body(i):
        try:
            barrier.wait()
            work(i)
        except BaseException as e:     # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


@pytest.mark.parametrize("name", _murmur.backends())
def test_hashes_from_eight_threads_equal_single_threaded(name):
    pair = _murmur.load(name)
    rng = random.Random(15)
    per_thread = 20_000 if name != "python" else 2_000
    inputs = [[rng.randbytes(rng.randrange(0, 40)) for _ in range(per_thread)]
              for _ in range(THREADS)]
    want = [[pair(d, 7) for d in chunk] for chunk in inputs]
    got = [None] * THREADS

    def work(i):
        got[i] = [pair(d, 7) for d in inputs[i]]

    _run_threads(work)
    wrong = sum(a != b for i in range(THREADS) for a, b in zip(got[i], want[i]))
    assert wrong == 0, "%d of %d hashes differ" % (wrong, THREADS * per_thread)
