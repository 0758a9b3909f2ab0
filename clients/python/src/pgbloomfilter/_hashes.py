"""Layout 4, hashes: the element hashes an unsized ``bf_agg(x)`` keeps
(the server's src/bloom_hashes.c and bloomfilter_hashes.c).

A partial state of the unsized aggregate (a parallel worker's, Citus's
worker_partial_agg) is a value of this layout: header k (byte 7) 0, nbits
128 times the cells, capacity the cells, bits set the cells in use (the
first ones), the error rate of the filter the list becomes; the payload is a
16-byte prefix (uint32 expansion 1..1024, 12 zero bytes) and 16-byte cells
(h1, h2, uint64 LE), the unused ones zero.  A key is present only if its
whole 128-bit hash is in a used cell, so ``count`` is 0 or 1.

``finish()`` is what the aggregate's final function builds: a scalable
filter whose capacity is a HyperLogLog estimate of the distinct hashes (at
least 1000), with every hash in its first sub-filter, built again for the
count it holds if that exceeds the estimate by more than 5%.
"""

import math
import struct
from typing import Any, List, Optional, Set, Tuple

from ._filter import (BloomFilter, InvalidFilter, DEFAULT_HASH_ID, Pair,
                      LAYOUT_HASHES, VERSION, KeyType, _check_key_type,
                      SUPPORTED_HASH_IDS, hash_ids_alike, union_hash_id,
                      register_layout)
from ._keys import pg_encoding
from ._scalable import MAX_EXPANSION, ScalableBloomFilter
from ._sizing import HEADER_SIZE, MAX_BYTES, FilterTooLarge

__all__ = ["HashListFilter", "distinct_estimate"]

PREFIX = 16
CELL = 16
CELL_BITS = CELL * 8
MAX_CELLS = (MAX_BYTES - HEADER_SIZE - PREFIX) // CELL
MIN_CAPACITY = 1000       # BLOOM_HASHES_MIN_CAPACITY
SLACK = 20                # rebuilt if over the estimate by more than 1/20
HLL_BITS = 14
HLL_REGISTERS = 1 << HLL_BITS
AGG_RATE = 0.01           # bf_agg(x)'s rate and expansion
AGG_EXPANSION = 2
_PREFIX = struct.Struct("<IIQ")
_CELL = struct.Struct("<QQ")


def distinct_estimate(pairs: List[Pair]) -> int:
    """bloom_hashes_distinct: HyperLogLog over 2^14 registers (register
    from the top bits of h1, rank from h2), linear counting below 2.5
    registers an element, in the server's float arithmetic."""
    reg = bytearray(HLL_REGISTERS)
    shift = 64 - HLL_BITS
    for h1, h2 in pairs:
        r = h1 >> shift
        rank = 65 - h2.bit_length()      # leading zeros plus one
        if rank > reg[r]:
            reg[r] = rank
    total = 0.0
    for v in reg:                        # in register order, as C sums
        total += math.ldexp(1.0, -v)
    zeros = reg.count(0)
    m = float(HLL_REGISTERS)
    estimate = 0.7213 / (1.0 + 1.079 / m) * m * m / total
    if estimate <= 2.5 * m and zeros > 0:
        estimate = m * math.log(m / zeros)
    n = len(pairs)
    if estimate > float(n):
        return n
    if n > 0 and estimate < 1.0:
        return 1
    whole = math.floor(estimate)         # llround: halves away from zero
    return whole + 1 if estimate - whole >= 0.5 else whole


class HashListFilter(BloomFilter):
    """A bloomfilter value of layout 4 (a list of hashes).  ``contains``
    and ``count`` answer as the server does on it; ``HashListFilter.create``
    and ``add``/``add_many`` build the list an unsized ``bf_agg(x)`` keeps
    in a serial plan, and ``finish()`` the filter that aggregate returns."""

    layout_id = LAYOUT_HASHES
    layout_name = "hashes"

    expansion: int
    cells: List[Pair]
    ncells: int                 # cells of the value, used or not
    state: bool                 # an aggregate's state: trimmed as it leaves
    _set: Optional[Set[Pair]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("use HashListFilter.create() or from_bytes")

    @classmethod
    def create(cls, error_rate: float = AGG_RATE, seed: int = 0,
               expansion: int = AGG_EXPANSION, *, key_type: KeyType = 0,
               hash_id: int = DEFAULT_HASH_ID, encoding: Optional[str] = None
               ) -> "HashListFilter":
        """An empty list for a filter at error_rate that grows by
        expansion; bf_agg(x) uses 0.01, seed 0 and 2 (and hash id 5;
        ``hash_id`` 2 with ``encoding`` is what 1.4 made)."""
        if hash_id not in SUPPORTED_HASH_IDS or hash_id == 1:
            raise ValueError("a list of hashes has hash id 2 or 5")
        error_rate = float(error_rate)
        if not 0.0 < error_rate < 1.0:
            raise ValueError("error rate must be greater than 0 and less than 1")
        if not (isinstance(expansion, int) and 1 <= expansion <= MAX_EXPANSION):
            raise ValueError("expansion must be between 1 and %d" % MAX_EXPANSION)
        if not (isinstance(seed, int) and 0 <= seed <= 0xFFFFFFFF):
            raise ValueError("seed must be between 0 and 4294967295")
        self = cls.__new__(cls)
        if encoding is not None:
            self.encoding = pg_encoding(encoding)
        self._set_fields(VERSION, LAYOUT_HASHES, hash_id, 0, seed,
                         _check_key_type(key_type), CELL_BITS, 1, error_rate,
                         0, bytearray())
        self.expansion = expansion
        self.cells = []
        self.ncells = 1
        self.state = True
        self._set = None
        return self

    @classmethod
    def _parse(cls, data: memoryview, fields: Tuple[Any, ...]
               ) -> "HashListFilter":
        (_m, version, layout, hash_id, k, seed, key_type, nbits, capacity,
         error_rate, used) = fields
        if k != 0 or nbits == 0 or nbits % CELL_BITS \
                or nbits // CELL_BITS > MAX_CELLS:
            raise InvalidFilter("a list of hashes needs k 0 and a positive "
                                "number of 16-byte cells within the size limit")
        ncells = nbits // CELL_BITS
        if len(data) != HEADER_SIZE + PREFIX + ncells * CELL:
            raise InvalidFilter("length %d does not match the header (%d)"
                                % (len(data), HEADER_SIZE + PREFIX + ncells * CELL))
        if used > ncells or capacity != ncells:
            raise InvalidFilter("the cells in use do not match the header")
        expansion, zero1, zero2 = _PREFIX.unpack_from(data, HEADER_SIZE)
        if not 1 <= expansion <= MAX_EXPANSION or zero1 or zero2:
            raise InvalidFilter("reserved header fields must be zero")
        start = HEADER_SIZE + PREFIX
        if any(data[start + used * CELL:]):
            raise InvalidFilter("cells past the count must be zero")
        self = cls.__new__(cls)
        self._set_fields(version, layout, hash_id, 0, seed, key_type, nbits,
                         capacity, error_rate, used, bytearray())
        self.expansion = expansion
        self.cells = [_CELL.unpack_from(data, start + i * CELL)
                      for i in range(used)]
        self.ncells = ncells
        self.state = False
        self._set = None
        return self

    def to_bytes(self) -> bytes:
        """The value's bytes: a list built by create() as a partial state
        leaves the server (trimmed to its cells, one zero cell when empty);
        one read and then added to as bf_add leaves it (the cells doubling
        when full)."""
        n = max(len(self.cells), 1) if self.state else self.ncells
        head = struct.pack("<4sBBBBIIQQdQ", b"BLMF", self.version,
                           LAYOUT_HASHES, self.hash_id, 0, self.seed,
                           self.key_type, n * CELL_BITS, n, self.error_rate,
                           len(self.cells))
        body = b"".join(_CELL.pack(*c) for c in self.cells)
        return head + _PREFIX.pack(self.expansion, 0, 0) + body \
            + bytes(CELL * (n - len(self.cells)))

    @property
    def size_bytes(self) -> int:
        return len(self.to_bytes())

    @property
    def bits(self) -> bytes:
        return self.to_bytes()[HEADER_SIZE:]

    def empty_copy(self) -> "HashListFilter":
        return HashListFilter.create(self.error_rate, self.seed,
                                     self.expansion, key_type=self.key_type,
                                     hash_id=self.hash_id,
                                     encoding=self.encoding)

    def same_shape(self, other: BloomFilter) -> bool:
        return isinstance(other, HashListFilter) and self.seed == other.seed \
            and hash_ids_alike(self, other)

    def _members(self) -> Set[Pair]:
        if self._set is None or len(self._set) > len(self.cells):
            self._set = set(self.cells)
        return self._set

    def _check_hash(self, h1: int, h2: int) -> bool:
        return (h1, h2) in self._members()

    def _check_arrays(self, h1: Any, h2: Any) -> List[bool]:
        members = self._members()
        return [p in members for p in zip(h1.tolist(), h2.tolist())]

    def _count_set(self) -> int:
        return len(self.cells)

    def _add_hash(self, h1: int, h2: int) -> int:
        """Appended, duplicates too (hashes_add; the cells double when
        full, hashes_grown_cells)."""
        if len(self.cells) >= self.ncells:
            if self.ncells >= MAX_CELLS:
                raise FilterTooLarge("list of hashes is at the size limit")
            self.ncells = MAX_CELLS if self.ncells > MAX_CELLS // 2 \
                else 2 * self.ncells
        self.cells.append((h1, h2))
        if self._set is not None:
            self._set.add((h1, h2))
        self.bits_set = len(self.cells)
        n = max(len(self.cells), 1) if self.state else self.ncells
        self.capacity = n
        self.nbits = n * CELL_BITS
        return 1

    def union(self, other: "HashListFilter") -> "HashListFilter":
        """bf_union of two lists (bloom_union_hashes): a copy of the one
        with more hashes (the first on a tie) with the other's appended."""
        if not self.same_shape(other):
            raise ValueError("cannot union bloom filters of different shape")
        key_type = self._union_target(other).key_type
        keep, add = (other, self) if other.bits_set > self.bits_set \
            else (self, other)
        out = HashListFilter.from_bytes(keep.to_bytes(), keep.encoding)
        assert isinstance(out, HashListFilter)
        out.hash_id = union_hash_id(self, other)
        out.key_type = key_type
        out._set_encoder()
        for c in add.cells:
            out._add_hash(*c)
        return out

    __or__ = union

    def finish(self) -> ScalableBloomFilter:
        """bloom_hashes_finish: the scalable filter bf_agg(x) returns."""
        capacity = max(distinct_estimate(self.cells), MIN_CAPACITY)
        while True:
            try:
                out = ScalableBloomFilter.create_scalable(
                    capacity, self.error_rate, self.seed, self.expansion,
                    key_type=self.key_type, hash_id=self.hash_id,
                    encoding=self.encoding)
            except (ValueError, FilterTooLarge) as e:
                raise FilterTooLarge("cannot make a scalable bloom filter for "
                                     "%d elements at error rate %g: %s"
                                     % (capacity, self.error_rate, e))
            items = out.take(self.cells)
            if items <= capacity + capacity // SLACK:
                return out
            capacity = items


register_layout(LAYOUT_HASHES, HashListFilter)
