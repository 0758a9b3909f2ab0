"""numpy forms of the hot loops: MurmurHash3 of many int keys at once, and
the blocked layout's draws and bit tests over arrays of hashes.

Every function here gives exactly what the scalar code gives; the tests
compare them on random keys.  numpy is optional: ``numpy()`` is None when
it is not installed, and the callers then take the scalar path.
"""

from typing import Any, Optional

_np: Any = False

C1 = 0x87C37B91114253D5
C2 = 0x4CF5AD432745937F
LCG_MULT = 6364136223846793005


def numpy() -> Optional[Any]:
    """numpy if it is installed (imported on first use), else None."""
    global _np
    if _np is False:
        try:
            import numpy as np
            _np = np
        except ImportError:
            _np = None
    return _np


def _u(x):
    return _np.uint64(x)


def _rotl(x, r):
    return (x << _u(r)) | (x >> _u(64 - r))


def _fmix(k):
    k = k ^ (k >> _u(33))
    k = k * _u(0xFF51AFD7ED558CCD)
    k = k ^ (k >> _u(33))
    k = k * _u(0xC4CEB9FE1A85EC53)
    return k ^ (k >> _u(33))


def fmix64(k):
    """MurmurHash3's 64-bit finaliser over a uint64 array."""
    with _np.errstate(over="ignore"):
        return _fmix(k)


def hash_int64(values, seed):
    """(h1, h2) uint64 arrays: MurmurHash3 x64_128 of each value's 8
    little-endian bytes (an int key's canonical bytes), as bloom_murmur3_8
    in src/bloom_hash.h writes it out for that one length."""
    np = _np
    w = np.asarray(values, dtype=np.int64).view(np.uint64)
    s = _u(seed)
    with np.errstate(over="ignore"):
        k1 = _rotl(w * _u(C1), 31) * _u(C2)
        h1 = (s ^ k1) ^ _u(8)
        h2 = np.full_like(h1, s ^ _u(8))
        h1 = h1 + h2
        h2 = h2 + h1
        h1 = _fmix(h1)
        h2 = _fmix(h2)
        h1 = h1 + h2
        h2 = h2 + h1
    return h1, h2


def fastrange(h, n):
    """High 64 bits of h * n for n < 2^32: two 32-bit halves of h keep
    every product inside 64 bits."""
    nb = _u(n)
    lo = (h & _u(0xFFFFFFFF)) * nb
    hi = (h >> _u(32)) * nb
    return (hi + (lo >> _u(32))) >> _u(32)


def draws(h1, h2, k):
    """The first k draws of every element (an n x k int64 array of cell
    numbers 0..511) and the rows whose draws repeat a number: those need
    the scalar path, which skips repeats."""
    np = _np
    c = h1 | _u(1)
    x = h2.copy()
    pos = np.empty((len(h1), k), dtype=np.uint64)
    mult = _u(LCG_MULT)
    with np.errstate(over="ignore"):
        for i in range(k):
            x = x * mult + c            # wraps modulo 2^64, as in C
            pos[:, i] = x >> _u(55)
    pos = pos.astype(np.int64)
    srt = np.sort(pos, axis=1)
    rep = np.flatnonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1))
    return pos, rep


def test_bits(bits, nblocks, k, h1, h2):
    """Answers of a blocked512 bit area for arrays of hashes (bool array)
    and the rows that need the scalar path."""
    np = _np
    base = fastrange(h1, nblocks).astype(np.int64) * 64
    pos, rep = draws(h1, h2, k)
    area = np.frombuffer(bits, dtype=np.uint8)
    byte = area[base[:, None] + (pos >> 3)]
    return ((byte >> (pos & 7).astype(np.uint8)) & 1).all(axis=1), rep


def min_counters(cells, nblocks, k, h1, h2):
    """Smallest of each element's k counters in a counting4 area, and the
    rows that need the scalar path."""
    np = _np
    base = fastrange(h1, nblocks).astype(np.int64) * 256
    pos, rep = draws(h1, h2, k)
    area = np.frombuffer(cells, dtype=np.uint8)
    byte = area[base[:, None] + (pos >> 1)]
    nib = (byte >> ((pos & 1) * 4).astype(np.uint8)) & 15
    return nib.min(axis=1), rep
