"""Layout 3, scalable: a chain of plain filters that grows as keys arrive
(the server's src/bloom_scalable.c).

Sub-filter i is a complete blocked512 filter sized for capacity *
expansion^i keys at error_rate / 2^(i+1).  The top header's nbits and
bits_set are the sums over the sub-filters and byte 7 is their number.  The
payload is a 16-byte prefix (uint32 expansion, uint32 fill divisor, 1
outside a running aggregate, 8 zero bytes), then per sub-filter a uint64
count of the keys it took and the sub-filter itself (48-byte header, key
type 0, and bits).  A key already present in any sub-filter is not added
again; keys go into the last sub-filter, and a new one starts when it holds
its capacity.
"""

import math
import struct
from functools import lru_cache
from typing import Any, List, Optional, Sequence, Tuple

from ._filter import (BloomFilter, InvalidFilter, HEADER, DEFAULT_HASH_ID,
                      LAYOUT_BLOCKED512, LAYOUT_SCALABLE, VERSION, MAGIC,
                      Pair, KeyType, _check_key_type, reset_key_type,
                      SUPPORTED_HASH_IDS, hash_ids_alike, register_layout)
from ._keys import pg_encoding
from ._sizing import (HEADER_SIZE, MAX_BYTES, MIN_ERROR_RATE, INT64_MAX,
                      EXACT, FilterTooLarge, size as _size, check_params)

__all__ = ["ScalableBloomFilter"]

PREFIX = 16
SUB_HEAD = 8 + HEADER_SIZE
MAX_SUBS = 64
MAX_EXPANSION = 1024
_PREFIX = struct.Struct("<IIQ")
_U64 = struct.Struct("<Q")


@lru_cache(maxsize=256)
def _sized(capacity: int, rate: float) -> Tuple[int, int]:
    return _size(capacity, rate)


def sub_shape(capacity: int, error_rate: float, expansion: int, i: int
              ) -> Optional[Tuple[int, float, int, int]]:
    """(capacity, rate, nbits, k) of sub-filter i, or None if it cannot
    exist (scalable_sub_shape)."""
    cap = capacity
    for _ in range(i):
        if cap > INT64_MAX // expansion:
            return None
        cap *= expansion
    rate = math.ldexp(error_rate, -(i + 1))
    if rate < MIN_ERROR_RATE:
        return None
    try:
        nbits, k = _sized(cap, rate)
    except FilterTooLarge:
        return None
    return cap, rate, nbits, k


class ScalableBloomFilter(BloomFilter):
    """A scalable bloomfilter value: ``subs`` are its plain sub-filters,
    ``items`` the keys each took.  ``contains`` tests every sub-filter;
    ``add`` starts a new one when the last is full, as the server does."""

    layout_id = LAYOUT_SCALABLE
    layout_name = "scalable"

    expansion: int
    divisor: int
    subs: List[BloomFilter]
    items: List[int]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("use BloomFilter.create(capacity, rate, "
                        "expansion=n) or from_bytes")

    @classmethod
    def create_scalable(cls, capacity: int, error_rate: float, seed: int,
                        expansion: int, key_type: KeyType = 0,
                        hash_id: int = DEFAULT_HASH_ID,
                        encoding: Optional[str] = None
                        ) -> "ScalableBloomFilter":
        error_rate = check_params(capacity, error_rate)
        if not (isinstance(expansion, int) and 1 <= expansion <= MAX_EXPANSION):
            raise ValueError("expansion must be between 1 and %d"
                             % MAX_EXPANSION)
        if error_rate / 2 < MIN_ERROR_RATE:
            raise ValueError("bloom filter error rate %g is too small for a "
                             "scalable filter" % error_rate)
        if hash_id not in SUPPORTED_HASH_IDS:
            raise ValueError("hash id %r is not supported (1, 2 or 5)"
                             % (hash_id,))
        self = cls.__new__(cls)
        if encoding is not None:
            self.encoding = pg_encoding(encoding)
        self._set_fields(VERSION, LAYOUT_SCALABLE, hash_id, 0, seed,
                         _check_key_type(key_type), 0, capacity, error_rate,
                         0, bytearray())
        self.expansion = expansion
        self.divisor = 1
        self.subs = []
        self.items = []
        if not self._grow():
            raise FilterTooLarge("scalable bloom filter for %d elements at "
                                 "error rate %g is too large"
                                 % (capacity, error_rate))
        return self

    @classmethod
    def _parse(cls, data: memoryview, fields: Tuple[Any, ...]
               ) -> "ScalableBloomFilter":
        (_m, version, layout, hash_id, nsubs, seed, key_type, nbits,
         capacity, error_rate, bits_set) = fields
        if not 1 <= nsubs <= MAX_SUBS:
            raise InvalidFilter("number of sub-filters must be between 1 and 64")
        if nbits == 0 or nbits % 512 or nbits // 8 > MAX_BYTES:
            raise InvalidFilter("number of bits must be a positive multiple "
                                "of 512 within the size limit")
        want = HEADER_SIZE + PREFIX + nsubs * SUB_HEAD + nbits // 8
        if len(data) != want:
            raise InvalidFilter("length %d does not match the header (%d)"
                                % (len(data), want))
        expansion, divisor, zero = _PREFIX.unpack_from(data, HEADER_SIZE)
        if not (1 <= expansion <= MAX_EXPANSION and divisor >= 1 and zero == 0):
            raise InvalidFilter("reserved header fields must be zero")
        # a divisor above 1 exists only inside a running parallel aggregate;
        # from outside it made every add start a sub-filter (add_many of
        # 54,000 keys on a 1.6 kB value allocated 785 MB)
        if divisor != 1:
            raise InvalidFilter("the fill divisor of a scalable filter must "
                                "be 1 outside a running aggregate")
        self = cls.__new__(cls)
        self._set_fields(version, layout, hash_id, nsubs, seed, key_type,
                         nbits, capacity, error_rate, bits_set, bytearray())
        self.expansion, self.divisor = expansion, divisor
        self.subs, self.items = [], []
        off = HEADER_SIZE + PREFIX
        for i in range(nsubs):
            self._parse_sub(data, off, i)
            off += SUB_HEAD + self.subs[-1].nbits // 8
        if off != len(data) or sum(s.nbits for s in self.subs) != nbits:
            raise InvalidFilter("number of bits does not match the sub-filters")
        if sum(s.bits_set for s in self.subs) != bits_set:
            raise InvalidFilter("count of bits set does not match the bits")
        return self

    def _parse_sub(self, data: memoryview, off: int, i: int) -> None:
        if off + SUB_HEAD > len(data):
            raise InvalidFilter("sub-filter %d runs past the end" % i)
        nbits = HEADER.unpack_from(data, off + 8)[7]
        end = off + SUB_HEAD + nbits // 8
        if nbits == 0 or nbits % 512 or end > len(data):
            raise InvalidFilter("sub-filter %d runs past the end" % i)
        sub = BloomFilter.from_bytes(data[off + 8:end])
        if sub.layout != LAYOUT_BLOCKED512:
            raise InvalidFilter("sub-filter %d is not a plain filter" % i)
        if sub.seed != self.seed or sub.hash_id != self.hash_id:
            raise InvalidFilter("sub-filter %d has another seed or hash id" % i)
        if sub.key_type != 0:
            raise InvalidFilter("sub-filter %d has a key type (the top "
                                "header records it)" % i)
        shape = sub_shape(self.capacity, self.error_rate, self.expansion, i)
        if shape is None or sub.capacity != shape[0] \
                or sub.error_rate != shape[1]:
            raise InvalidFilter("sub-filter %d is not sized as its position "
                                "in the filter requires" % i)
        if EXACT and (sub.nbits, sub.nhashes) != shape[2:]:
            raise InvalidFilter("sub-filter %d is not sized as its position "
                                "in the filter requires" % i)
        self.subs.append(sub)
        self.items.append(_U64.unpack_from(data, off)[0])

    def to_bytes(self) -> bytes:
        parts = [self._header(), _PREFIX.pack(self.expansion, self.divisor, 0)]
        for sub, items in zip(self.subs, self.items):
            parts.append(_U64.pack(items) + sub.to_bytes())
        return b"".join(parts)

    def empty_copy(self) -> "ScalableBloomFilter":
        return ScalableBloomFilter.create_scalable(
            self.capacity, self.error_rate, self.seed, self.expansion,
            key_type=self.key_type, hash_id=self.hash_id,
            encoding=self.encoding)

    def with_key_type(self, key_type: KeyType) -> "ScalableBloomFilter":
        out = ScalableBloomFilter.from_bytes(self.to_bytes(), self.encoding)
        assert isinstance(out, ScalableBloomFilter)
        out.key_type = reset_key_type(self.key_type, key_type)
        out._set_encoder()
        return out

    @property
    def size_bytes(self) -> int:
        return HEADER_SIZE + PREFIX + len(self.subs) * SUB_HEAD \
            + self.nbits // 8

    @property
    def bits(self) -> bytes:
        return b"".join(s.bits for s in self.subs)

    def same_shape(self, other: BloomFilter) -> bool:
        return (isinstance(other, ScalableBloomFilter)
                and self.capacity == other.capacity
                and self.error_rate == other.error_rate
                and self.expansion == other.expansion
                and self.seed == other.seed and hash_ids_alike(self, other))

    # ---- checks: newest sub-filter first, as the server ----

    def _check_hash(self, h1: int, h2: int) -> bool:
        for sub in reversed(self.subs):
            if sub._check_hash(h1, h2):
                return True
        return False

    def _check_arrays(self, h1: Any, h2: Any) -> List[bool]:
        out = [False] * len(h1)
        for sub in self.subs:
            got = sub._check_arrays(h1, h2)
            out = [a or b for a, b in zip(out, got)]
        return out

    # ---- building ----

    def _full(self) -> bool:
        share = self.subs[-1].capacity // self.divisor
        return self.items[-1] >= (share if share > 0 else 1)

    def _grow(self) -> bool:
        i = len(self.subs)
        if i >= MAX_SUBS:
            return False
        shape = sub_shape(self.capacity, self.error_rate, self.expansion, i)
        if shape is None:
            return False
        cap, rate, nbits, k = shape
        if self.size_bytes + SUB_HEAD + nbits // 8 > MAX_BYTES:
            return False
        # a sub-filter's own key type field is 0 (the server's
        # bloom_header_init): only the top header records the key type
        sub = BloomFilter(nbits, k, self.seed, cap, rate, self.hash_id)
        self.subs.append(sub)
        self.items.append(0)
        self.nhashes = len(self.subs)
        self.nbits += nbits
        return True

    def _add_hash(self, h1: int, h2: int) -> int:
        if self._check_hash(h1, h2):
            return 0                    # present: not added again
        if self._full() and not self._grow():
            raise FilterTooLarge("scalable bloom filter cannot grow further "
                                 "(%d sub-filters, %d bytes)"
                                 % (len(self.subs), self.size_bytes))
        added = self.subs[-1]._add_hash(h1, h2)
        self.items[-1] += 1
        self.bits_set += added
        return added

    def take(self, pairs: List[Pair]) -> int:
        """bloom_scalable_take: every hash into the last sub-filter however
        full it gets (a key the others hold is skipped, one that sets no bit
        is not counted); returns the keys the last one holds."""
        last = self.subs[-1]
        older = self.subs[:-1]
        for h1, h2 in pairs:
            if any(s._check_hash(h1, h2) for s in older):
                continue
            added = last._add_hash(h1, h2)
            if added:
                self.bits_set += added
                self.items[-1] += 1
        return self.items[-1]

    def union(self, other: "ScalableBloomFilter") -> "ScalableBloomFilter":
        raise NotImplementedError("union of scalable filters is done by the "
                                  "server (bf_union)")

    __or__ = union


register_layout(LAYOUT_SCALABLE, ScalableBloomFilter)
