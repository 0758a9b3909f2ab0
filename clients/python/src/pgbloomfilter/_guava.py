"""Layout 5, guava, with hash id 3: the bits of Guava's ``BloomFilter``
(strategy MURMUR128_MITZ_64) in a bloomfilter value (the server's
src/core/guava.c; docs/format.md, "Layout 5, guava, and hash id 3").

A key is converted to the filter's key type as for any typed filter, then
becomes the bytes Guava's funnel of that type feeds the hasher: bigint 8
bytes little-endian, integer 4 (a bigint beyond integer's range equals no
key), text its UTF-8 bytes, bytea its bytes.  They are hashed with
MurmurHash3 x64_128, seed 0; with ``combined = h1 + i * h2`` (mod 2^64), bit
i of the key is ``(combined & (2^63 - 1)) % nbits``, for i below k.  The
payload is the longs little-endian, so bit b is bit b % 8 of byte b // 8.

The header: hash id 3, seed 0, key type one of the four funnels' (a Guava
filter is always typed), k 1..255, nbits 64 times the longs, capacity and
rate as ``bf_create`` was asked (``from_guava``: the capacity of an optimal
filter of those bits, and 2^-k), bits set the 1 bits.
"""

import math
import struct
from typing import Any, Callable, List, Optional, Tuple

from . import _murmur
from ._filter import (BloomFilter, InvalidFilter, DEFAULT_HASH_ID, VERSION,
                      KeyType, _check_key_type, register_layout)
from ._keys import (encoder, pg_encoding, text_codec, _type_name,
                    UnsupportedKey,
                    BYTEA, INT4, INT8, TEXT)
from ._sizing import (HEADER_SIZE, MAX_BYTES, INT64_MAX, FilterTooLarge,
                      check_request)

__all__ = ["GuavaBloomFilter", "guava_size"]

LAYOUT_GUAVA = 5
HASH_GUAVA = 3
FUNNEL_KEY_TYPES = (INT8, INT4, TEXT, BYTEA)
MAX_LONGS = (MAX_BYTES - HEADER_SIZE) // 8
MAX_HASHES = 255
# Guava's serialized form (writeTo): strategy ordinal, k, int32 longs
PREFIX = struct.Struct(">BBi")
MITZ_32, MITZ_64 = 0, 1
M64 = (1 << 64) - 1
_LN2 = math.log(2)
_INT32_MIN, _INT32_MAX = -(1 << 31), (1 << 31) - 1
_I64 = struct.Struct("<q")
_I32 = struct.Struct("<i")
# the canonical bytes of hash id 5 are the funnels' for bigint, UTF-8 text
# and bytea (integer keys are narrowed to 4 bytes)
HASH_GUAVA_BYTES = 5
_KEY_TYPES_HINT = ("give key_type bigint, integer, text or bytea "
                   "(Funnels.longFunnel, integerFunnel, stringFunnel(UTF_8), "
                   "byteArrayFunnel)")


def _java_long(d: float) -> int:
    """Java's (long) of a double: NaN is 0, out-of-range values saturate."""
    if d != d:
        return 0
    if d >= 9223372036854775808.0:
        return INT64_MAX
    if d <= -9223372036854775808.0:
        return -INT64_MAX - 1
    return int(d)


def _java_round(d: float) -> int:
    """Java's Math.round: the closest long, halves towards +infinity."""
    if d != d:
        return 0
    f = math.floor(d)
    if d - f >= 0.5:
        f += 1.0
    return _java_long(f)


def guava_size(capacity: int, error_rate: float) -> Tuple[int, int]:
    """(longs, k) of Guava's ``BloomFilter.create(funnel, capacity,
    error_rate)`` in Java's arithmetic, refused where Guava refuses it
    (ValueError: no bits, more than 255 hash functions) or where the
    value would exceed the size limit (FilterTooLarge)."""
    n = capacity if capacity > 0 else 1
    p = error_rate if error_rate != 0 else 5e-324     # Double.MIN_VALUE
    m = _java_long(float(-n) * math.log(p) / (_LN2 * _LN2))
    # (int) of a long keeps its low 32 bits
    k = _java_round(float(m) / float(n) * _LN2) & 0xFFFFFFFF
    k = k - (1 << 32) if k >= 1 << 31 else k
    k = max(k, 1)
    if m <= 0:
        raise ValueError("Guava cannot size a filter for %d elements at "
                         "error rate %g: its sizing gives 0 bits, which "
                         "BloomFilter.create refuses" % (capacity, error_rate))
    longs = m // 64 + (m % 64 != 0)
    if longs > MAX_LONGS:
        raise FilterTooLarge("bloom filter for %d elements at error rate %g "
                             "is too large" % (capacity, error_rate))
    if k > MAX_HASHES:
        raise ValueError("Guava cannot size a filter for %d elements at "
                         "error rate %g: its sizing gives more than 255 hash "
                         "functions, which BloomFilter.create refuses"
                         % (capacity, error_rate))
    return longs, k


def _funnel(key_type: int, encoding: str) -> Callable[[Any], Optional[bytes]]:
    """key -> the bytes the funnel of key_type hashes (None: no key of the
    type equals it), after the conversions of any typed filter."""
    typed = encoder(HASH_GUAVA_BYTES, key_type, encoding)
    if key_type == INT4:
        def int4(key: Any) -> Optional[bytes]:
            data = typed(key)
            if data is None:
                return None
            v = _I64.unpack(data)[0]
            return _I32.pack(v) if _INT32_MIN <= v <= _INT32_MAX else None
        return int4
    if key_type == TEXT and encoding != "UTF8":
        db = text_codec(encoding)

        def ascii_text(key: Any) -> Optional[bytes]:
            data = typed(key)
            if data is not None and not data.isascii():
                if isinstance(key, str):
                    db(key)         # UnencodableKey: SQL refuses the literal
                raise UnsupportedKey(
                    "text keys of a Guava filter must be ASCII in a "
                    "database whose encoding is not UTF8 (here %s): Guava "
                    "hashes the UTF-8 bytes of a string" % encoding)
            return data
        return ascii_text
    # bigint: 8 bytes little-endian, text UTF-8, bytea as it is: the bytes
    # hash id 5 gives them
    return typed


class GuavaBloomFilter(BloomFilter):
    """A bloomfilter value of layout 5, Guava's ``BloomFilter``.  ``create``
    is ``bf_create(n, p, layout => 'guava', key_type => t)``; checks, adds
    and ``union`` answer and build as the server's; ``to_guava`` and
    ``from_guava`` are ``bf_to_guava`` and ``bf_from_guava``."""

    layout_id = LAYOUT_GUAVA
    layout_name = "guava"
    named_layout = True
    hash_ids = (HASH_GUAVA,)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("use GuavaBloomFilter.create(capacity, rate, "
                        "key_type=...), from_bytes or from_guava")

    @classmethod
    def create(cls, capacity: int, error_rate: float = 0.01, seed: int = 0,
               *, counting: bool = False, expansion: int = 0,
               key_type: KeyType = 0, hash_id: int = DEFAULT_HASH_ID,
               encoding: Optional[str] = None,
               layout: Optional[str] = None) -> "GuavaBloomFilter":
        """``bf_create(capacity, error_rate, layout => 'guava', key_type =>
        key_type)``: Guava's ``BloomFilter.create(funnel, capacity,
        error_rate)`` to the bit, refused where the server refuses it."""
        oid = _check_key_type(key_type)
        if oid == 0:
            raise ValueError("a Guava filter needs a key type: " + _KEY_TYPES_HINT)
        if oid not in FUNNEL_KEY_TYPES:
            raise ValueError("a Guava filter cannot have keys of type %s: %s"
                             % (_type_name(oid), _KEY_TYPES_HINT))
        if counting or expansion:
            raise ValueError("a Guava filter cannot be counting or scalable")
        if seed != 0:
            raise ValueError("a Guava filter has no seed (Guava hashes with "
                             "MurmurHash3 seeded with 0), got %r" % (seed,))
        if hash_id not in (DEFAULT_HASH_ID, HASH_GUAVA):
            raise ValueError("a Guava filter has hash id 3")
        # any rate in (0, 1), below bf_create's 1e-10 too: Guava sizes it
        error_rate = check_request(capacity, error_rate, "Guava filter")
        longs, k = guava_size(capacity, error_rate)
        return cls._made(k, oid, longs * 64, capacity, error_rate, 0,
                         bytearray(longs * 8), encoding)

    @classmethod
    def _made(cls, k: int, key_type: int, nbits: int, capacity: int,
              error_rate: float, bits_set: int, area: bytearray,
              encoding: Optional[str]) -> "GuavaBloomFilter":
        self = cls.__new__(cls)
        if encoding is not None:
            self.encoding = pg_encoding(encoding)
        self._set_fields(VERSION, LAYOUT_GUAVA, HASH_GUAVA, k, 0, key_type,
                         nbits, capacity, error_rate, bits_set, area)
        return self

    @classmethod
    def _parse(cls, data: memoryview, fields: Tuple[Any, ...]
               ) -> "GuavaBloomFilter":
        """The server's guava_check_header and guava_check_payload."""
        (_m, _version, _layout, _hash_id, k, seed, key_type, nbits,
         capacity, error_rate, bits_set) = fields
        if seed != 0:
            raise InvalidFilter("the seed of a Guava filter must be 0, not %d"
                                % seed)
        if key_type not in FUNNEL_KEY_TYPES:
            raise InvalidFilter("key type %d of a Guava filter is not one of "
                                "its funnels' (bigint, integer, text, bytea)"
                                % key_type)
        if nbits == 0 or nbits % 64 or nbits // 64 > MAX_LONGS:
            raise InvalidFilter("number of bits %d of a Guava filter is not a "
                                "positive multiple of 64 within the size "
                                "limit" % nbits)
        if len(data) != HEADER_SIZE + nbits // 8:
            raise InvalidFilter("length %d does not match the header (%d)"
                                % (len(data), HEADER_SIZE + nbits // 8))
        if k == 0:
            raise InvalidFilter("number of hash functions of a Guava filter "
                                "must be between 1 and 255")
        area = bytearray(data[HEADER_SIZE:])
        if bits_set > nbits or \
                int.from_bytes(area, "little").bit_count() != bits_set:
            raise InvalidFilter("count of bits set does not match the bits")
        return cls._made(k, key_type, nbits, capacity, error_rate, bits_set,
                         area, None)

    # ---- Guava's serialized form ----

    @classmethod
    def from_guava(cls, data: bytes, key_type: KeyType,
                   encoding: Optional[str] = None) -> "GuavaBloomFilter":
        """``bf_from_guava(data, key_type)``: the filter of the bytes
        Guava's ``writeTo`` wrote; ``key_type`` names its funnel."""
        oid = _check_key_type(key_type)
        if oid not in FUNNEL_KEY_TYPES:
            raise ValueError("a Guava filter cannot have keys of type %s: %s"
                             % (_type_name(oid) if oid else "none",
                                _KEY_TYPES_HINT))
        data = bytes(data)
        if len(data) < PREFIX.size:
            raise InvalidFilter("invalid Guava BloomFilter bytes: the data "
                                "ends before the number of longs its prefix "
                                "gives")
        strategy, k, longs = PREFIX.unpack_from(data)
        if strategy > MITZ_64:
            raise InvalidFilter("invalid Guava BloomFilter bytes: the first "
                                "byte is not the ordinal of a Guava strategy "
                                "(0 or 1)")
        if strategy == MITZ_32:
            raise InvalidFilter("Guava strategy MURMUR128_MITZ_32 (ordinal 0) "
                                "is not supported; only MURMUR128_MITZ_64 "
                                "(ordinal 1) is")
        if k == 0:
            raise InvalidFilter("invalid Guava BloomFilter bytes: the number "
                                "of hash functions must be between 1 and 255")
        if longs <= 0:
            raise InvalidFilter("invalid Guava BloomFilter bytes: the number "
                                "of longs must be positive")
        if longs > MAX_LONGS:
            raise FilterTooLarge("the Guava filter is larger than a "
                                 "bloomfilter value can be")
        if len(data) - PREFIX.size != longs * 8:
            raise InvalidFilter("invalid Guava BloomFilter bytes: the data %s "
                                "the number of longs its prefix gives"
                                % ("ends before"
                                   if len(data) - PREFIX.size < longs * 8
                                   else "goes on after"))
        words = struct.unpack_from(">%dQ" % longs, data, PREFIX.size)
        area = bytearray(struct.pack("<%dQ" % longs, *words))
        nbits = longs * 64
        capacity = math.floor(float(nbits) * _LN2 / k + 0.5)
        return cls._made(k, oid, nbits, capacity if capacity >= 1 else 1,
                         math.pow(0.5, k),
                         int.from_bytes(area, "little").bit_count(), area,
                         encoding)

    def to_guava(self) -> bytes:
        """``bf_to_guava(f)``: the bytes Guava's ``writeTo`` writes, for
        ``BloomFilter.readFrom(in, funnel)``."""
        longs = self.nbits // 64
        words = struct.unpack("<%dQ" % longs, self._bits)
        return PREFIX.pack(MITZ_64, self.nhashes, longs) + \
            struct.pack(">%dQ" % longs, *words)

    # ---- keys, checks and adds ----

    def _set_encoder(self) -> None:
        self._enc = _funnel(self.key_type, self.encoding)
        self._fast = {}
        self._ints = False
        self._hash = _murmur.hash_pair

    def _bit_numbers(self, h1: int, h2: int) -> List[int]:
        m = self.nbits
        return [((h1 + i * h2) & INT64_MAX) % m for i in range(self.nhashes)]

    def _check_hash(self, h1: int, h2: int) -> bool:
        bits = self._bits
        for b in self._bit_numbers(h1, h2):
            if not (bits[b >> 3] >> (b & 7)) & 1:
                return False
        return True

    def _check_arrays(self, h1: Any, h2: Any) -> List[bool]:
        return [self._check_hash(a, b)
                for a, b in zip(h1.tolist(), h2.tolist())]

    def _add_hash(self, h1: int, h2: int) -> int:
        bits = self._bits
        added = 0
        for b in self._bit_numbers(h1, h2):
            mask = 1 << (b & 7)
            if not bits[b >> 3] & mask:
                bits[b >> 3] |= mask
                added += 1
        self.bits_set += added
        return added

    # ---- combining ----

    def empty_copy(self) -> "GuavaBloomFilter":
        return self._made(self.nhashes, self.key_type, self.nbits,
                          self.capacity, self.error_rate, 0,
                          bytearray(len(self._bits)), self.encoding)

    def same_shape(self, other: BloomFilter) -> bool:
        """Guava's isCompatible: the same longs and k (the key types are
        held to each other by ``union``)."""
        return (isinstance(other, GuavaBloomFilter)
                and self.nhashes == other.nhashes and self.nbits == other.nbits)

    def with_key_type(self, key_type: KeyType) -> "GuavaBloomFilter":
        oid = _check_key_type(key_type)
        if oid != self.key_type:
            raise ValueError("a Guava filter hashes its keys as the funnel of "
                             "its key type %s does: its key type cannot change"
                             % self.key_type_name)
        return self._made(self.nhashes, oid, self.nbits, self.capacity,
                          self.error_rate, self.bits_set,
                          bytearray(self._bits), self.encoding)

    def intersection(self, other: "GuavaBloomFilter") -> "GuavaBloomFilter":
        """``bf_intersect(a, b)``: the AND of two filters of one shape,
        which holds every key both hold."""
        out = self._union_target(other)
        n = len(self._bits)
        v = (int.from_bytes(self._bits, "little")
             & int.from_bytes(other._bits, "little"))
        out._bits = bytearray(v.to_bytes(n, "little"))
        out.bits_set = v.bit_count()
        return out

    __and__ = intersection


register_layout(LAYOUT_GUAVA, GuavaBloomFilter)
