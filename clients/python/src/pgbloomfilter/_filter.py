"""The bloomfilter value on the client: parse, check, build, serialise.

Everything here follows the server's src/bloom_core.h, not prose: the
README's "Bit positions" paragraph reads as if the first bit came from
x0 = h2, but bloom_draw_next advances x before it takes a bit, so the first
bit is x1 >> 55 with x1 = h2 * A + (h1 | 1).  Draws are bounded by
BLOOM_MAX_DRAWS (1024) as on the server.

Canonical bytes of a key (the server's, for the types a Python program
naturally holds):

- int: int8, 8 bytes little-endian (matches int2, int4 and int8 columns);
- str: UTF-8 (matches text, varchar in a UTF8 database);
- bytes, bytearray, memoryview: the bytes (matches bytea);
- uuid.UUID: its 16 bytes (matches uuid).

bool and float are refused: the server hashes them by their send form,
and hash id 2 changes float canonicalisation, so no Python value could
promise to match.
"""

import struct
import uuid

from . import _murmur
from ._sizing import (BLOCK_BITS, HEADER_SIZE, MAX_BLOCKS, MAX_HASHES,
                      INT64_MAX, size as _size, check_params)

__all__ = ["BloomFilter", "InvalidFilter", "canonical_bytes",
           "SUPPORTED_HASH_IDS"]

MAGIC = b"BLMF"
VERSION = 1
LAYOUT_BLOCKED512 = 1
SUPPORTED_HASH_IDS = (1, 2)
DEFAULT_HASH_ID = 2
BLOCK_BYTES = BLOCK_BITS // 8
LCG_MULT = 6364136223846793005
MAX_DRAWS = 16 * MAX_HASHES
M64 = (1 << 64) - 1

_HEADER = struct.Struct("<4sBBBBIIQQdQ")
_INT8 = struct.Struct("<q")
_UUID = uuid.UUID


_np = False


def _numpy():
    """numpy if it is installed (imported on first use), else None."""
    global _np
    if _np is False:
        try:
            import numpy
            _np = numpy
        except ImportError:
            _np = None
    return _np


class InvalidFilter(ValueError):
    """Bytes that the server would refuse (22P03 there)."""


def _int_bytes(key, _pack=_INT8.pack):
    try:
        return _pack(key)
    except struct.error:
        raise OverflowError("integer key %d is outside the int8 range" % key) \
            from None


def _str_bytes(key):
    return key.encode("utf-8")


def _same(key):
    return key


def _uuid_bytes(key):
    return key.bytes


_CANONICAL = {
    int: _int_bytes,
    str: _str_bytes,
    bytes: _same,
    bytearray: bytes,
    memoryview: bytes,
    _UUID: _uuid_bytes,
}


def canonical_bytes(key):
    """The bytes the server hashes for this key."""
    f = _CANONICAL.get(type(key))
    if f is not None:
        return f(key)
    if isinstance(key, bool) or isinstance(key, float):
        raise TypeError("%s keys are not supported: the server hashes them "
                        "by a form no Python value promises to match"
                        % type(key).__name__)
    if isinstance(key, int):            # IntEnum and friends
        return _int_bytes(int(key))
    if isinstance(key, str):
        return _str_bytes(str(key))
    if isinstance(key, (bytes, bytearray, memoryview)):
        return bytes(key)
    if isinstance(key, _UUID):
        return key.bytes
    raise TypeError("unsupported key type %s (int, str, bytes or uuid.UUID)"
                    % type(key).__name__)


class BloomFilter:
    """A bloomfilter value: the 48-byte header and the bit blocks.

    Load one with ``from_bytes`` (``f::bytea``, or the psycopg adapter in
    ``pgbloomfilter.psycopg``); build one with ``create`` (same shape as
    ``bf_create``) or ``from_shape``, ``add`` keys and send ``to_bytes()``
    back.  Checks (``key in bf``, ``contains``, ``contains_many``) give the
    server's ``bf_contains`` answers.
    """

    __slots__ = ("version", "layout", "hash_id", "nhashes", "seed", "flags",
                 "nbits", "capacity", "error_rate", "bits_set", "_bits",
                 "_nblocks", "_hash")

    # ---- construction ----

    def __init__(self, nbits, nhashes, seed=0, capacity=1, error_rate=0.01,
                 hash_id=DEFAULT_HASH_ID, bits=None, bits_set=None):
        if hash_id not in SUPPORTED_HASH_IDS:
            raise ValueError("hash id %r is not supported (1 or 2)" % (hash_id,))
        if not (isinstance(nbits, int) and nbits > 0
                and nbits % BLOCK_BITS == 0
                and nbits // BLOCK_BITS <= MAX_BLOCKS):
            raise ValueError("nbits must be a positive multiple of 512 within "
                             "the size limit, got %r" % (nbits,))
        if not (isinstance(nhashes, int) and 1 <= nhashes <= MAX_HASHES):
            raise ValueError("nhashes must be between 1 and 64")
        if not (isinstance(seed, int) and 0 <= seed <= 0xFFFFFFFF):
            raise ValueError("seed must be between 0 and 4294967295")
        if not (isinstance(capacity, int) and 1 <= capacity <= INT64_MAX):
            raise ValueError("capacity must be between 1 and 2^63 - 1")
        error_rate = float(error_rate)
        if not (0.0 < error_rate < 1.0):
            raise ValueError("error rate must be greater than 0 and less than 1")
        self.version = VERSION
        self.layout = LAYOUT_BLOCKED512
        self.hash_id = hash_id
        self.nhashes = nhashes
        self.seed = seed
        self.flags = 0
        self.nbits = nbits
        self.capacity = capacity
        self.error_rate = error_rate
        if bits is None:
            self._bits = bytearray(nbits // 8)
            self.bits_set = 0
        else:
            self._bits = bytearray(bits)
            if len(self._bits) != nbits // 8:
                raise ValueError("bits must be nbits / 8 bytes long")
            self.bits_set = (int.from_bytes(self._bits, "little").bit_count()
                             if bits_set is None else bits_set)
        self._nblocks = nbits // BLOCK_BITS
        self._hash = _murmur.hash_pair

    @classmethod
    def create(cls, capacity, error_rate=0.01, seed=0,
               hash_id=DEFAULT_HASH_ID):
        """Empty filter of the shape ``bf_create(capacity, error_rate,
        seed)`` gives (the sizing is ported from the server; see _sizing)."""
        error_rate = check_params(capacity, error_rate)
        nbits, k = _size(capacity, error_rate)
        return cls(nbits, k, seed, capacity, error_rate, hash_id)

    @classmethod
    def from_shape(cls, nbits, nhashes, seed=0, capacity=1, error_rate=0.01,
                   hash_id=DEFAULT_HASH_ID):
        """Empty filter of an explicit shape, e.g. read from the server's
        ``bf_nbits`` and ``bf_nhashes`` where the ported sizing is not
        trusted (``pgbloomfilter.SIZING_EXACT`` is False)."""
        return cls(nbits, nhashes, seed, capacity, error_rate, hash_id)

    def empty_copy(self, hash_id=None):
        """Empty filter of the same shape (a local ``bf_create``)."""
        return BloomFilter(self.nbits, self.nhashes, self.seed, self.capacity,
                           self.error_rate,
                           self.hash_id if hash_id is None else hash_id)

    @classmethod
    def from_bytes(cls, data):
        """Parse and validate the binary form (``f::bytea``, binary COPY,
        ``bloomfilter_send``), as strictly as the server's receive does."""
        data = memoryview(data).cast("B")
        if len(data) < HEADER_SIZE:
            raise InvalidFilter("value shorter than the 48-byte header")
        (magic, version, layout, hash_id, nhashes, seed, flags, nbits,
         capacity, error_rate, bits_set) = _HEADER.unpack_from(data)
        if magic != MAGIC:
            raise InvalidFilter("value does not start with the bloomfilter "
                                "magic number")
        if version != VERSION:
            raise InvalidFilter("format version %d is not supported" % version)
        if layout != LAYOUT_BLOCKED512:
            raise InvalidFilter("bit layout %d is not supported" % layout)
        if hash_id not in SUPPORTED_HASH_IDS:
            raise InvalidFilter("hash id %d is not supported" % hash_id)
        if flags != 0:
            raise InvalidFilter("reserved header fields must be zero")
        if nbits == 0 or nbits % BLOCK_BITS or nbits // BLOCK_BITS > MAX_BLOCKS:
            raise InvalidFilter("number of bits must be a positive multiple of "
                                "512 within the size limit")
        if len(data) != HEADER_SIZE + nbits // 8:
            raise InvalidFilter("length %d does not match the header (%d)"
                                % (len(data), HEADER_SIZE + nbits // 8))
        if not 1 <= nhashes <= MAX_HASHES:
            raise InvalidFilter("number of hash functions must be between 1 "
                                "and 64")
        if not 1 <= capacity <= INT64_MAX:
            raise InvalidFilter("capacity out of range")
        if not 0.0 < error_rate < 1.0:
            raise InvalidFilter("error rate out of range")
        bits = bytearray(data[HEADER_SIZE:])
        if int.from_bytes(bits, "little").bit_count() != bits_set:
            raise InvalidFilter("count of bits set does not match the bits")
        self = cls.__new__(cls)
        self.version = version
        self.layout = layout
        self.hash_id = hash_id
        self.nhashes = nhashes
        self.seed = seed
        self.flags = flags
        self.nbits = nbits
        self.capacity = capacity
        self.error_rate = error_rate
        self.bits_set = bits_set
        self._bits = bits
        self._nblocks = nbits // BLOCK_BITS
        self._hash = _murmur.hash_pair
        return self

    def to_bytes(self, hash_id=None):
        """The binary form, byte for byte what the server stores.  hash_id
        overrides the header's (e.g. 1 for a server that knows only 1)."""
        return _HEADER.pack(MAGIC, self.version, self.layout,
                            self.hash_id if hash_id is None else hash_id,
                            self.nhashes, self.seed, self.flags, self.nbits,
                            self.capacity, self.error_rate,
                            self.bits_set) + bytes(self._bits)

    __bytes__ = to_bytes

    # ---- introspection ----

    @property
    def nblocks(self):
        return self._nblocks

    @property
    def size_bytes(self):
        return HEADER_SIZE + self.nbits // 8

    @property
    def bits(self):
        """The bit area (a copy)."""
        return bytes(self._bits)

    def same_shape(self, other):
        """bloom_same_shape: can the two be combined?"""
        return (self.version == other.version and self.layout == other.layout
                and self.hash_id == other.hash_id
                and self.nhashes == other.nhashes and self.seed == other.seed
                and self.nbits == other.nbits)

    def __eq__(self, other):
        if not isinstance(other, BloomFilter):
            return NotImplemented
        return self.to_bytes() == other.to_bytes()

    __hash__ = None

    def __repr__(self):
        return ("BloomFilter(capacity=%d, error_rate=%r, nbits=%d, nhashes=%d, "
                "seed=%d, hash_id=%d, bits_set=%d)"
                % (self.capacity, self.error_rate, self.nbits, self.nhashes,
                   self.seed, self.hash_id, self.bits_set))

    # ---- the hot path ----
    #
    # Each function below repeats the draw loop inline: a call per draw would
    # cost more than the draw.  A drawn bit that is clear ends a check at
    # once (a repeated number cannot be clear: it was tested set before), so
    # only set bits need the "drawn before?" test.

    def _check_hash(self, h1, h2):
        bits = self._bits
        base = ((h1 * self._nblocks) >> 64) << 6
        c = h1 | 1
        x = h2
        k = self.nhashes
        seen = 0
        got = 0
        for _ in range(MAX_DRAWS):
            x = (x * LCG_MULT + c) & M64
            pos = x >> 55
            if not (bits[base + (pos >> 3)] >> (pos & 7)) & 1:
                return False
            m = 1 << pos
            if not seen & m:
                seen |= m
                got += 1
                if got == k:
                    return True
        return True

    def contains(self, key):
        """bf_contains(f, key): False if certainly never added, True if
        possibly added."""
        f = _CANONICAL.get(type(key))
        data = f(key) if f is not None else canonical_bytes(key)
        h1, h2 = self._hash(data, self.seed)
        return self._check_hash(h1, h2)

    __contains__ = contains

    def contains_many(self, keys):
        """[bf_contains(f, k) for k in keys].  With numpy installed, batches
        of 64 keys or more have their bits drawn and tested in arrays; only
        the hashing stays a Python loop."""
        if not isinstance(keys, (list, tuple)):
            keys = list(keys)
        if len(keys) >= 64 and _numpy() is not None:
            return self._contains_many_numpy(keys)
        return self._contains_many_py(keys)

    def _hash_all(self, keys):
        hpair = self._hash
        seed = self.seed
        canon = _CANONICAL.get
        slow = canonical_bytes
        pack_int = _INT8.pack
        out = []
        append = out.append
        for key in keys:
            t = type(key)
            if t is int and -0x8000000000000000 <= key <= 0x7FFFFFFFFFFFFFFF:
                append(hpair(pack_int(key), seed))
            elif t is str:
                append(hpair(key.encode("utf-8"), seed))
            else:
                f = canon(t)
                append(hpair(f(key) if f is not None else slow(key), seed))
        return out

    def _contains_many_numpy(self, keys):
        np = _numpy()
        pairs = self._hash_all(keys)
        h = np.array(pairs, dtype=np.uint64).reshape(len(pairs), 2)
        h1 = h[:, 0]
        x = h[:, 1].copy()
        c = h1 | np.uint64(1)
        # block = high 64 bits of h1 * nblocks; nblocks < 2^32, so two
        # 32-bit halves of h1 keep every product inside 64 bits
        nb = np.uint64(self._nblocks)
        lo = (h1 & np.uint64(0xFFFFFFFF)) * nb
        hi = (h1 >> np.uint64(32)) * nb
        block = (hi + (lo >> np.uint64(32))) >> np.uint64(32)
        base = block.astype(np.int64) * 64
        k = self.nhashes
        pos = np.empty((len(pairs), k), dtype=np.uint64)
        mult = np.uint64(LCG_MULT)
        shift = np.uint64(55)
        with np.errstate(over="ignore"):
            for i in range(k):
                x = x * mult + c            # wraps modulo 2^64, as in C
                pos[:, i] = x >> shift
        pos = pos.astype(np.int64)
        bits = np.frombuffer(self._bits, dtype=np.uint8)
        byte = bits[base[:, None] + (pos >> 3)]
        ans = ((byte >> (pos & 7).astype(np.uint8)) & 1).all(axis=1)
        # The first k draws are the element's k bits unless one repeats; the
        # few rows where one does take the scalar path, which skips repeats.
        srt = np.sort(pos, axis=1)
        rep = np.flatnonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1))
        out = ans.tolist()
        for i in rep.tolist():
            out[i] = self._check_hash(*pairs[i])
        return out

    def _contains_many_py(self, keys):
        bits = self._bits
        nblocks = self._nblocks
        k = self.nhashes
        seed = self.seed
        hpair = self._hash
        canon = _CANONICAL.get
        slow = canonical_bytes
        pack_int = _INT8.pack
        mult = LCG_MULT
        out = []
        append = out.append
        for key in keys:
            t = type(key)
            if t is int and -0x8000000000000000 <= key <= 0x7FFFFFFFFFFFFFFF:
                data = pack_int(key)
            elif t is str:
                data = key.encode("utf-8")
            else:
                f = canon(t)
                data = f(key) if f is not None else slow(key)
            h1, h2 = hpair(data, seed)
            base = ((h1 * nblocks) >> 64) << 6
            c = h1 | 1
            x = h2
            seen = 0
            got = 0
            ans = True
            for _ in range(MAX_DRAWS):
                x = (x * mult + c) & M64
                pos = x >> 55
                if not (bits[base + (pos >> 3)] >> (pos & 7)) & 1:
                    ans = False
                    break
                m = 1 << pos
                if not seen & m:
                    seen |= m
                    got += 1
                    if got == k:
                        break
            append(ans)
        return out

    # ---- building ----

    def _add_hash(self, h1, h2):
        bits = self._bits
        base = ((h1 * self._nblocks) >> 64) << 6
        c = h1 | 1
        x = h2
        k = self.nhashes
        seen = 0
        got = 0
        added = 0
        for _ in range(MAX_DRAWS):
            x = (x * LCG_MULT + c) & M64
            pos = x >> 55
            m = 1 << pos
            if seen & m:
                continue
            seen |= m
            i = base + (pos >> 3)
            b = 1 << (pos & 7)
            if not bits[i] & b:
                bits[i] |= b
                added += 1
            got += 1
            if got == k:
                break
        self.bits_set += added
        return added

    def add(self, key):
        """Add a key in place (the server's bf_add makes a copy); returns
        self, so calls chain."""
        h1, h2 = self._hash(canonical_bytes(key), self.seed)
        self._add_hash(h1, h2)
        return self

    def add_many(self, keys):
        """Add every key that is not None (as bf_add_all skips NULLs);
        returns self."""
        hpair = self._hash
        seed = self.seed
        canon = _CANONICAL.get
        add_hash = self._add_hash
        for key in keys:
            if key is None:
                continue
            f = canon(type(key))
            h1, h2 = hpair(f(key) if f is not None else canonical_bytes(key),
                           seed)
            add_hash(h1, h2)
        return self

    update = add_many

    def union(self, other):
        """New filter, bitwise OR (bf_union); shapes must match."""
        if not self.same_shape(other):
            raise ValueError("cannot union bloom filters of different shape")
        out = self.empty_copy()
        n = len(self._bits)
        v = (int.from_bytes(self._bits, "little")
             | int.from_bytes(other._bits, "little"))
        out._bits = bytearray(v.to_bytes(n, "little"))
        out.bits_set = v.bit_count()
        return out

    __or__ = union
