"""The cuckoofilter value on the client (the server's src/bloom_cuckoo.c,
followed operation for operation so that local builds have its bytes).

In a sub-filter of n buckets of b slots and f-bit fingerprints, a key with
hash (h1, h2):

- bucket i1 = high 64 bits of h1 * n;
- fingerprint fp = h2 >> (64 - f), or 1 if that is 0 (0 marks an empty
  slot);
- the other bucket of an entry in bucket i: (H - i) mod n, with
  H = high 64 bits of fmix64(fp) * n.

Slot k of a sub-filter is bits k*f .. k*f+f-1 of its slot bytes,
little-endian.  Sizing (b = 4 or 8, fingerprints of at least 7 bits, each
sub-filter's room), the steps of an add, growth (sub-filter k for
capacity * 2^k at 0.9 * rate / 2^k) and deletes are the server's, step
for step: docs/format.md, "cuckoofilter sizing and growth" and
"inserting, merging, deleting".  Every float is computed as the C code
computes it, so local builds have the server's bytes.
"""

import math
import struct
from typing import Any, Iterable, List, Optional, Tuple, Union

from . import _murmur, _vector
from ._filter import (InvalidFilter, KeyType, Pair, check_key_type_field,
                      _check_key_type, first_add_hash, reset_key_type)
from ._keys import (encoder, fast_table, _type_name, pg_encoding,
                    HASH_ID_UTF8)
from ._sizing import MAX_BYTES, INT64_MAX, SIZING_MARGIN, FilterTooLarge

__all__ = ["CuckooFilter"]

MAGIC = b"CKOF"
VERSION = 1
# what new filters get: 5, hash id 2's rules with text as UTF-8 in every
# database; 2 (values made by 1.3 and 1.4) hashed text in the encoding of
# the database the value was made in
HASH_ID = HASH_ID_UTF8
HASH_IDS = (2, HASH_ID_UTF8)
HEADER_SIZE = 48
SUB_HEADER_SIZE = 24
MIN_FP_BITS = 2
MAX_FP_BITS = 32
MAX_SUBFILTERS = 64
DEFAULT_MAX_KICKS = 500
MAX_KICKS_LIMIT = 4096
MIN_ERROR_RATE = 1e-8
FLOOR_FP_BITS = 7
WEAK_SEED_MAX = 8
M64 = (1 << 64) - 1
LCG_MULT = 6364136223846793005
LCG_ADD = 1442695040888963407

HEADER = struct.Struct("<4sBBBBIHHQdQII")
_DESC = struct.Struct("<QQB7s")


class CuckooFull(FilterTooLarge):
    """An add found no room and the filter cannot grow (54000 "cuckoo
    filter is full" on the server)."""


def _fmix64(k: int) -> int:
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & M64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & M64
    return k ^ (k >> 33)


def model_fpp(f: int, items: int, nbuckets: int) -> float:
    """cuckoo_model_fpp: the expected matches of a non-member in a
    sub-filter of n buckets and f-bit fingerprints holding items entries,
    in the server's IEEE double arithmetic."""
    q = (math.ldexp(1.0, f) + 2.0) / math.ldexp(1.0, 2 * f)
    return 2.0 * float(items) * q / float(nbuckets)


def room(b: int, nbuckets: int) -> int:
    """cuckoo_room: the most entries adds put in n buckets of b slots."""
    slots = nbuckets * b
    permille = 960 if b == 8 else 930 if b == 4 else 800
    beta = 3 if b == 8 else 4
    load = slots * permille // 1000
    x = beta * beta * slots
    spread = math.isqrt(x - 1) + 1 if x else 0   # the least r with r*r >= x
    if load <= spread or load - spread < b:
        return b
    return load - spread


def _slot_bytes(nbuckets: int, b: int, f: int) -> int:
    return (nbuckets * b * f + 7) // 8


def _nbuckets_ok(nbuckets: int, b: int, f: int) -> bool:
    return 1 <= nbuckets <= MAX_BYTES * 8 // (b * f)


def _empty_bytes(b: int, f: int, nbuckets: int) -> int:
    if not _nbuckets_ok(nbuckets, b, f):
        return 0
    n = HEADER_SIZE + SUB_HEADER_SIZE + _slot_bytes(nbuckets, b, f)
    return n if n <= MAX_BYTES else 0


def _room_buckets(capacity: int, b: int, max_n: int) -> Optional[int]:
    """ck_room_buckets: the fewest buckets whose room holds capacity (the
    same float guess, then the same exact steps)."""
    load = 0.96 if b == 8 else 0.93
    beta = 3.0 if b == 8 else 4.0
    guess = (float(capacity) + beta * math.sqrt(float(capacity) / load)) \
        / (b * load)
    if guess > float(max_n):
        return None
    n = int(guess) if guess > 1.0 else 1
    while n > 1 and room(b, n - 1) >= capacity:
        n -= 1
    while room(b, n) < capacity:
        n += 1
        if n > max_n:
            return None
    return n


def _shape(capacity: int, target: float, b: int) -> Optional[Tuple[int, int]]:
    """ck_shape: (f, buckets) of the sub-filter for capacity entries at a
    modelled rate of at most target, in the fewest bits n*f."""
    max_n = MAX_BYTES * 8 // (b * FLOOR_FP_BITS)
    n_room = _room_buckets(capacity, b, max_n)
    if n_room is None:
        return None
    best = math.inf
    choice = None
    for f in range(FLOOR_FP_BITS, MAX_FP_BITS + 1):
        need = model_fpp(f, capacity, 1) / target
        if not need <= float(max_n):
            continue
        n = math.ceil(need) if need > float(n_room) else n_room
        while n > n_room and model_fpp(f, capacity, n - 1) <= target:
            n -= 1
        while model_fpp(f, capacity, n) > target:
            n += 1
        if _empty_bytes(b, f, n) and float(n) * f < best:
            best = float(n) * f
            choice = (f, n)
    return choice


def size(capacity: int, error_rate: float) -> Tuple[int, int, int]:
    """(bucket size, fingerprint bits, buckets) that cf_create gives:
    b = 4 or 8, whichever needs fewer bits (4 on a tie)."""
    target = error_rate * SIZING_MARGIN
    best = math.inf
    choice = (0, 0, 0)
    for b in (4, 8):
        shape = _shape(capacity, target, b)
        if shape is None:
            continue
        bits = float(shape[1]) * b * shape[0]
        if bits < best:
            best = bits
            choice = (b, shape[0], shape[1])
    if best == math.inf:
        raise FilterTooLarge("cuckoo filter for %d elements at error rate %g "
                             "is too large" % (capacity, error_rate))
    return choice


class _Sub:
    """One sub-filter: buckets, occupied count, fingerprint bits, slots."""

    __slots__ = ("nbuckets", "count", "f", "mask", "slots", "nbytes")

    def __init__(self, nbuckets: int, count: int, f: int,
                 slots: bytearray) -> None:
        self.nbuckets = nbuckets
        self.count = count
        self.f = f
        self.mask = (1 << f) - 1
        self.slots = slots
        self.nbytes = len(slots)

    def get(self, k: int) -> int:
        bit = k * self.f
        byte = bit >> 3
        return (int.from_bytes(self.slots[byte:byte + 8], "little")
                >> (bit & 7)) & self.mask

    def set(self, k: int, fp: int) -> None:
        bit = k * self.f
        byte = bit >> 3
        end = min(byte + 8, self.nbytes)
        w = int.from_bytes(self.slots[byte:end], "little")
        shift = bit & 7
        w = (w & ~(self.mask << shift)) | (fp << shift)
        self.slots[byte:end] = w.to_bytes(end - byte, "little")

    def bucket(self, i: int, b: int) -> List[int]:
        """The b fingerprints of bucket i."""
        f = self.f
        bit = i * b * f
        byte = bit >> 3
        w = int.from_bytes(self.slots[byte:byte + ((b * f + 14) >> 3)],
                           "little") >> (bit & 7)
        m = self.mask
        return [(w >> (j * f)) & m for j in range(b)]

    def fingerprint(self, h2: int) -> int:
        fp = h2 >> (64 - self.f)
        return fp if fp else 1

    def first(self, h1: int) -> int:
        return (h1 * self.nbuckets) >> 64

    def alt(self, i: int, fp: int) -> int:
        n = self.nbuckets
        big_h = (_fmix64(fp) * n) >> 64
        return big_h - i if big_h >= i else big_h + n - i

    def occupied(self, b: int) -> int:
        """Non-zero slots, counted over the whole area at once."""
        f = self.f
        nslots = self.nbuckets * b
        v = int.from_bytes(self.slots, "little") & ((1 << (nslots * f)) - 1)
        acc = v
        for s in range(1, f):
            acc |= v >> s
        starts = sum(1 << (i * f) for i in range(8)).to_bytes(f, "little")
        m = int.from_bytes(starts * (nslots // 8 + 1), "little")
        return (acc & m & ((1 << (nslots * f)) - 1)).bit_count()

    def to_bytes(self) -> bytes:
        return _DESC.pack(self.nbuckets, self.count, self.f, bytes(7)) \
            + bytes(self.slots)


class CuckooFilter:
    """A cuckoofilter value.  ``from_bytes`` (``f::bytea``) or ``create``
    (the shape ``cf_create`` gives); ``contains``/``count`` give
    ``cf_contains``/``cf_count``; ``add``, ``add_nx`` and ``delete`` change
    it in place exactly as ``cf_add``, ``cf_add_nx`` and ``cf_delete``
    change the server's copy."""

    bucket_size: int
    fp_bits: int
    seed: int
    max_kicks: int
    capacity: int
    error_rate: float
    key_type: int
    subs: List[_Sub]
    hash_id: int = HASH_ID
    # the encoding of the database the value was made in, which hash id 2
    # hashes text in (a server_encoding name); hash id 5 ignores it
    encoding: str = "UTF8"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("use CuckooFilter.create(capacity, rate) or from_bytes")

    @classmethod
    def create(cls, capacity: int, error_rate: float = 0.01, seed: int = 0,
               *, key_type: KeyType = 0, hash_id: int = HASH_ID,
               encoding: Optional[str] = None) -> "CuckooFilter":
        """Empty filter of the shape ``cf_create(capacity, error_rate,
        seed, key_type => ...)`` gives; ``key_type`` as in
        ``BloomFilter.create`` (untyped: the first key added records its
        type).  ``hash_id`` 2 with ``encoding`` (the database's) is what
        1.3 and 1.4 made there."""
        if hash_id not in HASH_IDS:
            raise ValueError("a cuckoo filter's hash id is 2 or 5")
        if isinstance(capacity, bool) or not isinstance(capacity, int) \
                or not 1 <= capacity <= INT64_MAX:
            raise ValueError("cuckoo filter capacity must be positive, got %r"
                             % (capacity,))
        error_rate = float(error_rate)
        if not 0.0 < error_rate < 1.0 or error_rate < MIN_ERROR_RATE:
            raise ValueError("cuckoo filter error rate must be at least %g and "
                             "less than 1, got %r" % (MIN_ERROR_RATE, error_rate))
        if not (isinstance(seed, int) and 0 <= seed <= 0xFFFFFFFF):
            raise ValueError("seed must be between 0 and 4294967295")
        if 1 <= seed <= WEAK_SEED_MAX:
            # as cf_create (22023): MurmurHash3 with a seed equal to a key's
            # length ties its fingerprint to its bucket
            raise ValueError("cuckoo filter seed must not be between 1 and %d: "
                             "MurmurHash3 with a seed equal to a key's length "
                             "in bytes (8 for every integer key) ties the "
                             "key's fingerprint to its bucket; use seed 0 or "
                             "any seed above %d" % (WEAK_SEED_MAX, WEAK_SEED_MAX))
        b, f, n = size(capacity, error_rate)
        self = cls.__new__(cls)
        self.hash_id = hash_id
        if encoding is not None:
            self.encoding = pg_encoding(encoding)
        self._init(b, f, seed, DEFAULT_MAX_KICKS, capacity, error_rate,
                   _check_key_type(key_type))
        self.subs = [_Sub(n, 0, f, bytearray(_slot_bytes(n, b, f)))]
        return self

    def _init(self, b: int, f: int, seed: int, kicks: int, capacity: int,
              error_rate: float, key_type: int) -> None:
        self.bucket_size = b
        self.fp_bits = f
        self.seed = seed
        self.max_kicks = kicks
        self.capacity = capacity
        self.error_rate = error_rate
        self.key_type = key_type
        self._hash = _murmur.hash_pair
        self._set_encoder()

    def _set_encoder(self) -> None:
        self._enc = encoder(self.hash_id, self.key_type, self.encoding)
        self._fast = fast_table(self.hash_id, self.key_type, self.encoding)

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview],
                   encoding: Optional[str] = None) -> "CuckooFilter":
        """Parse and validate the binary form as strictly as the server's
        input does (cuckoo_validate).  ``encoding`` is the server_encoding
        of the database the value was made in (default UTF8): a filter of
        hash id 2 made in a database that is not UTF8 needs its encoding
        (its text keys were hashed as that encoding's bytes)."""
        data = memoryview(data).cast("B")
        if len(data) < HEADER_SIZE or len(data) > MAX_BYTES:
            raise InvalidFilter("length does not match the header and "
                                "sub-filters")
        (magic, version, hash_id, b, f, seed, nsub, kicks, capacity, rate,
         items, key_type, reserved) = HEADER.unpack_from(data)
        if magic != MAGIC:
            raise InvalidFilter("value does not start with the cuckoofilter "
                                "magic number")
        problem = (
            "format version %d is not supported" % version
            if version != VERSION else
            "hash id must be 2 or 5" if hash_id not in HASH_IDS else
            "reserved fields must be zero" if reserved else
            "bucket size must be 2, 4 or 8" if b not in (2, 4, 8) else
            "fingerprint bits must be between 2 and 32"
            if not MIN_FP_BITS <= f <= MAX_FP_BITS else
            "number of sub-filters must be between 1 and 64"
            if not 1 <= nsub <= MAX_SUBFILTERS else
            "kick limit must be at most 4096" if kicks > MAX_KICKS_LIMIT else
            "capacity out of range" if not 1 <= capacity <= INT64_MAX else
            "error rate out of range" if not 0.0 < rate < 1.0 else None)
        if problem:
            raise InvalidFilter(problem)
        check_key_type_field(key_type)
        self = cls.__new__(cls)
        self.hash_id = hash_id
        if encoding is not None:
            self.encoding = pg_encoding(encoding)
        self._init(b, f, seed, kicks, capacity, rate, key_type)
        self.subs = []
        off = HEADER_SIZE
        for i in range(nsub):
            off = self._parse_sub(data, off, i == 0)
        if off != len(data):
            raise InvalidFilter("length does not match the header and "
                                "sub-filters")
        if sum(s.count for s in self.subs) != items:
            raise InvalidFilter("item counts do not match the slots")
        # the capacity sizes every later sub-filter: a value claiming more
        # than its first sub-filter holds grew to hundreds of megabytes
        if self.subs[0].nbuckets * b < capacity:
            raise InvalidFilter("the first sub-filter must have at least as "
                                "many slots as the capacity")
        return self

    def _parse_sub(self, data: memoryview, off: int, first: bool) -> int:
        b = self.bucket_size
        if len(data) - off < SUB_HEADER_SIZE:
            raise InvalidFilter("length does not match the header and "
                                "sub-filters")
        nbuckets, count, f, zero = _DESC.unpack_from(data, off)
        if any(zero):
            raise InvalidFilter("reserved fields must be zero")
        if not MIN_FP_BITS <= f <= MAX_FP_BITS or (first and f != self.fp_bits):
            raise InvalidFilter("fingerprint bits must be between 2 and 32, "
                                "the same in the header as in the first "
                                "sub-filter")
        if not _nbuckets_ok(nbuckets, b, f):
            raise InvalidFilter("number of buckets out of range")
        if count > nbuckets * b:
            raise InvalidFilter("item counts do not match the slots")
        off += SUB_HEADER_SIZE
        nbytes = _slot_bytes(nbuckets, b, f)
        if len(data) - off < nbytes:
            raise InvalidFilter("length does not match the header and "
                                "sub-filters")
        sub = _Sub(nbuckets, count, f, bytearray(data[off:off + nbytes]))
        if sub.occupied(b) != count:
            raise InvalidFilter("item counts do not match the slots")
        pad = nbytes * 8 - nbuckets * b * f
        if pad and sub.slots[-1] >> (8 - pad):
            raise InvalidFilter("unused bits after the last slot must be zero")
        self.subs.append(sub)
        return off + nbytes

    @property
    def items(self) -> int:
        """Occupied slots over all sub-filters (cf_items)."""
        return sum(s.count for s in self.subs)

    @property
    def size_bytes(self) -> int:
        return HEADER_SIZE + sum(SUB_HEADER_SIZE + s.nbytes for s in self.subs)

    @property
    def key_type_name(self) -> Optional[str]:
        if not self.key_type:
            return None
        return _type_name(self.key_type)

    def with_key_type(self, key_type: KeyType) -> "CuckooFilter":
        """A copy recording this key type (``cf_set_key_type``)."""
        out = CuckooFilter.from_bytes(self.to_bytes(), self.encoding)
        out.key_type = reset_key_type(self.key_type, key_type)
        out._set_encoder()
        return out

    def to_bytes(self) -> bytes:
        head = HEADER.pack(MAGIC, VERSION, self.hash_id, self.bucket_size,
                           self.fp_bits, self.seed, len(self.subs),
                           self.max_kicks, self.capacity, self.error_rate,
                           self.items, self.key_type, 0)
        return head + b"".join(s.to_bytes() for s in self.subs)

    def __bytes__(self) -> bytes:
        return self.to_bytes()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CuckooFilter):
            return NotImplemented
        return self.to_bytes() == other.to_bytes()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return ("CuckooFilter(capacity=%d, error_rate=%r, bucket_size=%d, "
                "fp_bits=%d, buckets=%d, subfilters=%d, items=%d, seed=%d%s)"
                % (self.capacity, self.error_rate, self.bucket_size,
                   self.fp_bits, self.subs[0].nbuckets, len(self.subs),
                   self.items, self.seed,
                   ", key_type=%d" % self.key_type if self.key_type else ""))

    def fpp(self) -> float:
        """cf_fpp: the sum of the sub-filters' modelled rates at their
        fill, at most 1 (an upper bound of the chance of a false match)."""
        total = 0.0
        for s in self.subs:
            total += model_fpp(s.f, s.count, s.nbuckets)
        return total if total < 1.0 else 1.0

    def _room(self, i: int) -> int:
        """ck_sub_room: entries adds put in sub-filter i (capacity * 2^i,
        at most its slots for the first, its buckets' room after)."""
        s = self.subs[i]
        want = min(self.capacity << i, M64)
        have = s.nbuckets * self.bucket_size if i == 0 else \
            room(self.bucket_size, s.nbuckets)
        return min(want, have)

    # ---- keys ----

    def key_hash(self, key: Any) -> Optional[Pair]:
        """(h1, h2) of the key, or None if no key of the key type equals it."""
        f = self._fast.get(type(key))
        data = f(key) if f is not None else self._enc(key)
        if data is None:
            return None
        return self._hash(data, self.seed)

    def _hash_or_raise(self, key: Any) -> Pair:
        if self.key_type or self.items:
            h = self.key_hash(key)
        else:
            h = first_add_hash(self, key)   # cf_add records the key type
        if h is None:
            raise ValueError("key %r equals no value of the filter's key type "
                             "%s" % (key, self.key_type_name))
        return h

    # ---- checks ----

    def _contains_hash(self, h1: int, h2: int) -> bool:
        b = self.bucket_size
        for s in self.subs:
            fp = s.fingerprint(h2)
            i1 = (h1 * s.nbuckets) >> 64
            if fp in s.bucket(i1, b) or fp in s.bucket(s.alt(i1, fp), b):
                return True
        return False

    def _count_hash(self, h1: int, h2: int) -> int:
        b = self.bucket_size
        n = 0
        for s in self.subs:
            fp = s.fingerprint(h2)
            i1 = (h1 * s.nbuckets) >> 64
            i2 = s.alt(i1, fp)
            n += s.bucket(i1, b).count(fp)
            if i2 != i1:
                n += s.bucket(i2, b).count(fp)
        return n

    def contains(self, key: Any) -> bool:
        """cf_contains(f, key)."""
        h = self.key_hash(key)
        return h is not None and self._contains_hash(*h)

    __contains__ = contains

    def count(self, key: Any) -> int:
        """cf_count(f, key): entries matching the key."""
        h = self.key_hash(key)
        return 0 if h is None else self._count_hash(*h)

    def contains_many(self, keys: Iterable[Any]) -> List[bool]:
        """[cf_contains(f, k) for k in keys]; with numpy and int keys the
        hashing is done in arrays."""
        np = _vector.numpy()
        if np is not None and self._fast.get(int) is not None:
            arr = keys if isinstance(keys, np.ndarray) else None
            if arr is None:
                keys = list(keys)
                if len(keys) >= 64 and all(type(k) is int and -(1 << 63) <= k < (1 << 63)
                                           for k in keys):
                    arr = np.array(keys, dtype=np.int64)
            if arr is not None and arr.dtype.kind in "iu":
                h1, h2 = _vector.hash_int64(arr.astype(np.int64), self.seed)
                check = self._contains_hash
                return [check(a, b) for a, b in zip(h1.tolist(), h2.tolist())]
        return [self.contains(k) for k in keys]

    # ---- changes (in place; the server's functions return a copy) ----

    def _place(self, s: _Sub, bucket: int, fp: int) -> bool:
        b = self.bucket_size
        for i in (bucket, s.alt(bucket, fp)):
            slots = s.bucket(i, b)
            if 0 in slots:
                s.set(i * b + slots.index(0), fp)
                s.count += 1
                return True
        return False

    def _kick(self, s: _Sub, bucket: int, fp: int, r: int) -> bool:
        """ck_kick: the walk, undone if it finds no empty slot."""
        b = self.bucket_size
        path = []
        hand = fp
        r = (r * LCG_MULT + LCG_ADD) & M64
        cur = s.alt(bucket, fp) if r >> 63 else bucket
        for _ in range(self.max_kicks):
            r = (r * LCG_MULT + LCG_ADD) & M64
            k = cur * b + ((r >> 61) & (b - 1))
            victim = s.get(k)
            s.set(k, hand)
            path.append(k)
            hand = victim
            cur = s.alt(cur, hand)
            slots = s.bucket(cur, b)
            if 0 in slots:
                s.set(cur * b + slots.index(0), hand)
                s.count += 1
                return True
        while path:
            k = path.pop()
            taken = s.get(k)
            s.set(k, hand)
            hand = taken
        return False

    def _match(self, s: _Sub, h1: int, h2: int) -> Optional[Tuple[int, int]]:
        """ck_match: (bucket, slot) of an entry matching the key in s."""
        b = self.bucket_size
        fp = s.fingerprint(h2)
        bucket = s.first(h1)
        for _ in range(2):
            slots = s.bucket(bucket, b)
            if fp in slots:
                return bucket, slots.index(fp)
            bucket = s.alt(bucket, fp)
        return None

    def _try_add(self, h1: int, h2: int) -> bool:
        """cuckoo_add: the newest sub-filter the key matches (placing, else
        kicking, whatever its fill); else placing in each sub-filter below
        its room, newest first; else kicking in the newest below its room."""
        subs = self.subs
        if len(subs) == 1 and subs[0].count < self._room(0):
            s = subs[0]
            bucket, fp = s.first(h1), s.fingerprint(h2)
            return self._place(s, bucket, fp) or self._kick(s, bucket, fp, h2)
        for s in reversed(subs):
            if self._match(s, h1, h2) is None:
                continue
            bucket, fp = s.first(h1), s.fingerprint(h2)
            if self._place(s, bucket, fp) or self._kick(s, bucket, fp, h2):
                return True
            break
        last = len(subs) - 1
        for i in range(last, -1, -1):
            s = subs[i]
            if s.count < self._room(i) and \
                    self._place(s, s.first(h1), s.fingerprint(h2)):
                return True
        s = subs[last]
        if s.count >= self._room(last):
            return False
        return self._kick(s, s.first(h1), s.fingerprint(h2), h2)

    def _next_sub(self) -> Tuple[int, int]:
        """cuckoo_next_sub: (f, buckets) of sub-filter k, sized for
        capacity * 2^k at 0.9 * rate / 2^k with the filter's b."""
        k = len(self.subs)
        full = ("cuckoo filter is full: %d items in %d sub-filters"
                % (self.items, k))
        if k >= MAX_SUBFILTERS or self.capacity > M64 >> k:
            raise CuckooFull(full)
        target = self.error_rate * SIZING_MARGIN
        shape = _shape(self.capacity << k, math.ldexp(target, -k),
                       self.bucket_size)
        if shape is None:
            if _shape(self.capacity << k, 1.0, self.bucket_size) is not None:
                raise CuckooFull(
                    full + "; to keep the rate below twice %g, another "
                    "sub-filter would need fingerprints of more than %d bits "
                    "or a size over the limit of %d bytes"
                    % (self.error_rate, MAX_FP_BITS, MAX_BYTES))
            raise CuckooFull(full)
        return shape

    def _grow(self) -> None:
        f, n = self._next_sub()
        b = self.bucket_size
        if not _nbuckets_ok(n, b, f) or self.size_bytes + SUB_HEADER_SIZE \
                + _slot_bytes(n, b, f) > MAX_BYTES:
            raise CuckooFull("cuckoo filter is full: %d items in %d "
                             "sub-filters (%d bytes); another sub-filter of %d "
                             "buckets would exceed the limit of %d sub-filters "
                             "or %d bytes" % (self.items, len(self.subs),
                                              self.size_bytes, n,
                                              MAX_SUBFILTERS, MAX_BYTES))
        self.subs.append(_Sub(n, 0, f, bytearray(_slot_bytes(n, b, f))))

    def _add_hash(self, h1: int, h2: int) -> None:
        while not self._try_add(h1, h2):
            self._grow()

    def add(self, key: Any) -> "CuckooFilter":
        """cf_add: one more copy of the key; returns self."""
        self._add_hash(*self._hash_or_raise(key))
        return self

    def add_nx(self, key: Any) -> bool:
        """cf_add_nx: add only if not possibly present; returns whether
        it added."""
        h = self._hash_or_raise(key)
        if self._contains_hash(*h):
            return False
        self._add_hash(*h)
        return True

    def add_many(self, keys: Iterable[Any]) -> "CuckooFilter":
        """cf_add_all: every key that is not None, in order."""
        for key in keys:
            if key is not None:
                self._add_hash(*self._hash_or_raise(key))
        return self

    def delete(self, key: Any) -> bool:
        """cf_delete: remove one entry matching the key; returns whether
        one was removed.  When the key matches sub-filters of two shapes
        (one match may be another key's) nothing is removed, as on the
        server: the key stays possibly present.  Delete only what was
        added."""
        h = self.key_hash(key)
        if h is None:
            return False
        found = None
        for s in reversed(self.subs):
            at = self._match(s, *h)
            if at is None:
                continue
            if found is None:
                found = (s, at)
            elif s.nbuckets != found[0].nbuckets or s.f != found[0].f:
                return False
        if found is None:
            return False
        s, (bucket, slot) = found
        s.set(bucket * self.bucket_size + slot, 0)
        s.count -= 1
        return True
