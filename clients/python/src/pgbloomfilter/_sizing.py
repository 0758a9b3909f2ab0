"""Sizing: a port of bloom_size() in src/bloom_core.c, operation for operation.

bf_create(capacity, rate) picks the fewest 512-bit blocks, and the best k,
whose modelled false-positive rate at capacity is at most 90% of the rate
asked for.  To build locally a filter with the server's bytes, this module
repeats that search with the same floating-point operations in the same
order.  exp, log, log1p and sqrt in Python's math module are the C
library's; lgamma is not (CPython has its own), so glibc's lgamma is called
through ctypes.  Where it cannot be loaded, ``EXACT`` is False and sizes may
differ from the server's on boundary cases: take the shape from the server
instead (``BloomFilter.from_shape`` or an empty ``bf_create`` filter).

The values that depend only on k (the hypergeometric transition table) are
cached; they are the same numbers the C code recomputes.
"""

import ctypes
import ctypes.util
import math

BLOCK_BITS = 512
HEADER_SIZE = 48
MAX_HASHES = 64
MAX_BYTES = 767 * 1024 * 1024
MAX_BLOCKS = (MAX_BYTES - HEADER_SIZE) // 64
SIZING_MARGIN = 0.9
MIN_ERROR_RATE = 1e-10
INT64_MAX = (1 << 63) - 1

try:
    _libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    _libm_lgamma = _libm.lgamma
    _libm_lgamma.restype = ctypes.c_double
    _libm_lgamma.argtypes = (ctypes.c_double,)
    lgamma = _libm_lgamma
    EXACT = True
except (OSError, AttributeError):  # pragma: no cover - not on glibc
    lgamma = math.lgamma
    EXACT = False

_exp = math.exp
_log = math.log
_log1p = math.log1p
_sqrt = math.sqrt
_floor = math.floor
_ceil = math.ceil


def _log_choose(n, k):
    return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0)


_trans_cache = {}


def _trans(k):
    t = _trans_cache.get(k)
    if t is None:
        B = float(BLOCK_BITS)
        lc_bk = _log_choose(B, float(k))
        t = [[_exp(_log_choose(float(u), float(s))
                   + _log_choose(B - u, float(k - s)) - lc_bk)
              for s in range(u + 1)] for u in range(k + 1)]
        _trans_cache[k] = t
    return t


_cover_cache = {}


def _cover_k(k, upto):
    """cover[k] after j = 0 .. upto elements: the chance that all k probe
    bits are set in a block holding j others.  It depends on k alone, so it
    is computed once per k, by the C loop's own additions in its order, and
    every model_fpp call reuses the same numbers the C code recomputes."""
    entry = _cover_cache.get(k)
    if entry is None:
        cover = [0.0] * (k + 1)
        cover[0] = 1.0
        entry = _cover_cache[k] = ([], cover)
    seq, cover = entry
    trans = _trans(k)
    while len(seq) <= upto:
        seq.append(cover[k])
        # next[c + t] += cover[c] * trans[k - c][t], c and t ascending: the
        # same additions in the same order as the C loop, a row at a time
        nxt = [0.0] * (k + 1)
        for c in range(k + 1):
            cc = cover[c]
            if cc == 0.0:
                continue
            nxt[c:] = [a + cc * b for a, b in zip(nxt[c:], trans[k - c])]
        cover = nxt
    _cover_cache[k] = (seq, cover)
    return seq


def model_fpp(n, nblocks, k, _memo=None):
    """bloom_model_fpp: modelled rate of nblocks blocks holding n (a float)
    elements of k distinct bits each."""
    if _memo is not None:
        got = _memo.get((nblocks, k))
        if got is not None:
            return got
    q = 1.0 / float(nblocks)
    lam = n * q
    fpp = 0.0
    if nblocks == 1:
        jmax = n
    else:
        jmax = min(n, float(_ceil(lam + 12.0 * _sqrt(lam) + 30.0)))
        # constant across the loop; C recomputes the same values each time
        log_q = _log(q)
        log1p_q = _log1p(-q)
        lg_n1 = lgamma(n + 1.0)
    coverk = _cover_k(k, int(jmax))
    j = 0.0
    i = 0
    while j <= jmax:
        if nblocks == 1:
            pmf = 1.0 if j == n else 0.0
        else:
            # log_choose(n, j) spelled out, same operations and order
            lc = lg_n1 - lgamma(j + 1.0) - lgamma(n - j + 1.0)
            pmf = _exp(lc + j * log_q + (n - j) * log1p_q)
        fpp += pmf * coverk[i]
        j += 1.0
        i += 1
    if _memo is not None:
        _memo[(nblocks, k)] = fpp
    return fpp


def _c_int(x):
    """(int) of a double on x86-64: out of range gives INT_MIN."""
    v = int(x)
    return v if -2**31 <= v < 2**31 else -2**31


def best_k(n, nblocks, _memo=None):
    """bloom_best_k: (rate, k) for the best k at nblocks blocks."""
    lam = n / float(nblocks)
    guess = _c_int(_floor(_log(2.0) * BLOCK_BITS / max(lam, 1e-9)))
    best = 2.0
    if guess < 1:
        guess = 1
    if guess > MAX_HASHES:
        guess = MAX_HASHES
    kbest = guess
    for step in (-1, 1):
        k = guess if step < 0 else guess + 1
        while 1 <= k <= MAX_HASHES:
            f = model_fpp(n, nblocks, k, _memo)
            if f < best:
                best = f
                kbest = k
            else:
                break
            k += step
    return best, kbest


def check_request(capacity, error_rate, what="bloom filter"):
    """A capacity from 1 to 2^63 - 1 and a rate in (0, 1), as every
    bf_create checks them (22023 there, ValueError here); the error rate
    as a float."""
    if not isinstance(capacity, int) or isinstance(capacity, bool):
        raise TypeError("capacity must be an int")
    if capacity <= 0 or capacity > INT64_MAX:
        raise ValueError("%s capacity must be positive (and at most "
                         "2^63 - 1), got %r" % (what, capacity))
    error_rate = float(error_rate)
    if not (0.0 < error_rate < 1.0):
        raise ValueError("%s error rate must be greater than 0 and less "
                         "than 1, got %r" % (what, error_rate))
    return error_rate


def check_params(capacity, error_rate):
    """The server's argument checks for the layouts it sizes itself,
    which also refuse rates below 1e-10."""
    error_rate = check_request(capacity, error_rate)
    if error_rate < MIN_ERROR_RATE:
        raise ValueError("bloom filter error rate %g is below the supported "
                         "minimum of %g" % (error_rate, MIN_ERROR_RATE))
    return error_rate


class FilterTooLarge(ValueError):
    """The filter would exceed the format's size limit (54000 on the server)."""


def size(capacity, error_rate):
    """(nbits, k) that bf_create(capacity, error_rate) gives."""
    requested = check_params(capacity, error_rate)
    target = requested * SIZING_MARGIN
    n = float(capacity)
    memo = {}       # model_fpp is pure: the search asks some points twice
    m_std = -n * _log(target) / (_log(2.0) * _log(2.0))
    lo_d = float(_floor(m_std / BLOCK_BITS * 0.95))
    if lo_d > float(MAX_BLOCKS):
        raise FilterTooLarge("bloom filter for %d elements at error rate %g "
                             "is too large" % (capacity, requested))
    lo = 1 if lo_d < 1.0 else int(lo_d)
    hi = lo
    while best_k(n, hi, memo)[0] > target:
        lo = hi + 1
        if hi >= MAX_BLOCKS:
            raise FilterTooLarge("bloom filter for %d elements at error rate "
                                 "%g is too large" % (capacity, requested))
        hi = MAX_BLOCKS if hi * 2 > MAX_BLOCKS else hi * 2
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if best_k(n, mid, memo)[0] <= target:
            hi = mid
        else:
            lo = mid + 1
    k = best_k(n, hi, memo)[1]
    for fewer in range(1, k):
        if model_fpp(n, hi, fewer, memo) <= target:
            k = fewer
            break
    return hi * BLOCK_BITS, k
