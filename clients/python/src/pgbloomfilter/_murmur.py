"""MurmurHash3 x64_128, the hash of the bloomfilter format (hash ids 1, 2).

Three implementations give the same two 64-bit words (h1, h2), the two
little-endian halves of the 128-bit output, which the server calls h1 and h2:

- ``mmh3`` (the PyPI package), when it is importable: the fast path;
- ``libmurmurhash`` through ctypes: Debian's library, the very code the
  server links (``lmmh_x64_128``), present wherever the extension was built;
- pure Python: always there, about ten times slower, kept as the reference.

``BACKEND`` names the one in use; ``hash_pair`` is it.  Every backend is
checked against SMHasher's published verification value (0x6384BA69) the
first time it is chosen, so a wrong word order or a broken build cannot give
wrong answers silently.
"""

import ctypes
import ctypes.util
import os
import struct
import threading

__all__ = ["BACKEND", "hash_pair", "backends", "verification_value",
           "SMHASHER_VERIFICATION"]

M64 = (1 << 64) - 1
SMHASHER_VERIFICATION = 0x6384BA69

_C1 = 0x87C37B91114253D5
_C2 = 0x4CF5AD432745937F
_QQ = struct.Struct("<QQ")


def _fmix64(k):
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & M64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & M64
    k ^= k >> 33
    return k


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def murmur3_x64_128_py(data, seed=0):
    """Reference implementation in plain Python; returns (h1, h2)."""
    data = bytes(data)
    n = len(data)
    h1 = h2 = seed & 0xFFFFFFFF
    nblocks = n // 16
    for i in range(nblocks):
        k1, k2 = _QQ.unpack_from(data, 16 * i)
        k1 = _rotl((k1 * _C1) & M64, 31)
        h1 ^= (k1 * _C2) & M64
        h1 = (_rotl(h1, 27) + h2) & M64
        h1 = (h1 * 5 + 0x52DCE729) & M64
        k2 = _rotl((k2 * _C2) & M64, 33)
        h2 ^= (k2 * _C1) & M64
        h2 = (_rotl(h2, 31) + h1) & M64
        h2 = (h2 * 5 + 0x38495AB5) & M64
    tail = data[16 * nblocks:]
    if len(tail) > 8:
        k2 = int.from_bytes(tail[8:], "little")
        k2 = _rotl((k2 * _C2) & M64, 33)
        h2 ^= (k2 * _C1) & M64
    if tail:
        k1 = int.from_bytes(tail[:8], "little")
        k1 = _rotl((k1 * _C1) & M64, 31)
        h1 ^= (k1 * _C2) & M64
    h1 ^= n
    h2 ^= n
    h1 = (h1 + h2) & M64
    h2 = (h2 + h1) & M64
    h1 = _fmix64(h1)
    h2 = _fmix64(h2)
    h1 = (h1 + h2) & M64
    h2 = (h2 + h1) & M64
    return h1, h2


def _mmh3_backend():
    import mmh3

    fast = getattr(mmh3, "mmh3_x64_128_utupledigest", None)
    if fast is not None:
        return fast

    # Older mmh3: hash64 gives the same two words.  Mask them rather than
    # trust signed=False: some releases read that flag from the wrong
    # positional argument.
    def hash64_pair(data, seed=0, _h=mmh3.hash64):
        a, b = _h(data, seed, x64arch=True, signed=False)
        return a & M64, b & M64
    return hash64_pair


def _libmurmurhash_backend():
    path = ctypes.util.find_library("murmurhash") or "libmurmurhash.so.2"
    lib = ctypes.CDLL(path)
    fn = lib.lmmh_x64_128
    fn.restype = None
    # No argtypes: converting through them cost more than the hash of a
    # short key.  Each argument is passed as a ctypes object of the C
    # type (the seed a c_uint32, the output the array itself), or as
    # bytes (a char *) and an int below 2^31 (the unsigned int length).
    out_type = ctypes.c_uint64 * 2
    c_seed = ctypes.c_uint32
    seeds = {}
    local = threading.local()

    # ctypes releases the GIL for the length of the call, so another thread
    # can hash at the same time: each thread writes into a buffer of its
    # own (a shared one gave wrong hashes under 8 threads, issue 15).
    def lmmh_pair(data, seed=0, _unpack=_QQ.unpack):
        try:
            out = local.out
        except AttributeError:
            out = local.out = out_type()
        cs = seeds.get(seed)
        if cs is None:
            if not 0 <= seed <= 0xFFFFFFFF:
                raise ValueError("seed must be between 0 and 4294967295")
            if len(seeds) >= 256:
                seeds.clear()
            cs = seeds[seed] = c_seed(seed)
        if type(data) is not bytes:
            data = bytes(data)
        fn(data, len(data), cs, out)
        return _unpack(out)
    return lmmh_pair


_FACTORIES = {
    "mmh3": _mmh3_backend,
    "libmurmurhash": _libmurmurhash_backend,
    "python": lambda: murmur3_x64_128_py,
}


def verification_value(pair):
    """SMHasher's VerificationTest for a (h1, h2) function: hash keys
    0, 01, 0102, ... (255 bytes) with seed 256 - len, hash the
    concatenated digests with seed 0, first four bytes little-endian."""
    key = bytearray()
    digests = bytearray()
    for i in range(256):
        digests += _QQ.pack(*pair(bytes(key), 256 - i))
        key.append(i)
    h1, _ = pair(bytes(digests), 0)
    return h1 & 0xFFFFFFFF


def backends():
    """Names of the backends that load here, fastest first."""
    found = []
    for name, factory in _FACTORIES.items():
        try:
            factory()
        except (ImportError, OSError, AttributeError):
            continue
        found.append(name)
    return found


def load(name):
    """The (h1, h2) function of one backend, verified."""
    pair = _FACTORIES[name]()
    got = verification_value(pair)
    if got != SMHASHER_VERIFICATION:
        raise RuntimeError("MurmurHash3 backend %s fails SMHasher verification:"
                           " 0x%08X, expected 0x%08X"
                           % (name, got, SMHASHER_VERIFICATION))
    return pair


def _choose():
    wanted = os.environ.get("PGBLOOMFILTER_HASH")
    if wanted:
        return wanted, load(wanted)
    for name in _FACTORIES:
        try:
            return name, load(name)
        except (ImportError, OSError, AttributeError):
            continue
    raise RuntimeError("no MurmurHash3 backend")  # pragma: no cover


BACKEND, hash_pair = _choose()
