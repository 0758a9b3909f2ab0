"""The bloomfilter value on the client: parse, check, build, serialise.

Everything here follows the server's C core (src/bloom_core.c,
bloom_blocked.h, bloom_counting.c), not prose.  An element's block is the
high 64 bits of h1 * nblocks; inside it the LCG x = x * 6364136223846793005
+ (h1 | 1) starts from x = h2 and is advanced *before* each cell is taken
(the first cell is x1 >> 55), numbers already drawn are skipped, and at
most 1024 draws are made.

Layouts (header byte 5): 1 = blocked512 (``BloomFilter``), 2 = counting4
(``CountingBloomFilter``: the same cells as 4-bit counters), 3 = scalable
(``ScalableBloomFilter`` in _scalable.py), 4 = hashes (``HashListFilter``
in _hashes.py: an unsized bf_agg's partial state), 5 = guava
(``GuavaBloomFilter`` in _guava.py, hash id 3), 6 = redisbloom
(``RedisBloomFilter`` in _redisbloom.py, hash id 4).
``BloomFilter.from_bytes`` gives the class the header names.  The classes
of layouts 3 to 6 build on this module, so it does not import theirs: each
registers itself here when imported (register_layout), and the package
imports every one.

Header byte 6 is the hash id: 5 (new values from 1.5) hashes text as
UTF-8; 2 (1.2 to 1.4) and 1 (1.0, 1.1) as the bytes of the database the
value was made in, which such a filter needs told (``encoding``, a
server_encoding name; UTF8 if not given).

Header bytes 12..15 are the key type (uint32 LE, a built-in type OID that
filters hash, _keys.VALID_KEY_TYPES; 0: untyped or made before 1.3): keys
are converted as the server converts probes of another type (_keys.py).
"""

import struct
from typing import (Any, Callable, Dict, Iterable, List, Optional, Sequence,
                    Tuple, Type, TypeVar, Union)

from . import _murmur, _vector
from ._keys import (encoder, fast_table, key_type_oid, natural_key_type,
                    KEY_TYPE_NAMES, VALID_KEY_TYPES, ROW_FLAG, HASH_ID_UTF8,
                    row_signature_columns, _type_name, pg_encoding,
                    text_codec)
from ._sizing import (BLOCK_BITS, HEADER_SIZE, MAX_BYTES, MAX_HASHES,
                      INT64_MAX, size as _size, check_params)

__all__ = ["BloomFilter", "CountingBloomFilter", "InvalidFilter",
           "SUPPORTED_HASH_IDS", "DEFAULT_HASH_ID"]

MAGIC = b"BLMF"
VERSION = 1
LAYOUT_BLOCKED512 = 1
LAYOUT_COUNTING4 = 2
LAYOUT_SCALABLE = 3
LAYOUT_HASHES = 4
LAYOUT_NAME_DEFAULT = "blocked512"
SUPPORTED_HASH_IDS = (1, 2, HASH_ID_UTF8)
DEFAULT_HASH_ID = HASH_ID_UTF8
LCG_MULT = 6364136223846793005
MAX_DRAWS = 16 * MAX_HASHES
M64 = (1 << 64) - 1
COUNTER_MAX = 15

HEADER = struct.Struct("<4sBBBBIIQQdQ")
_pack_int8 = struct.Struct("<q").pack

Pair = Tuple[int, int]
F = TypeVar("F", bound="BloomFilter")

# layout id -> the class of a layout defined in a module above this one
_LAYOUT_CLASSES: Dict[int, Any] = {}


def register_layout(layout: int, cls: Any) -> None:
    """Make ``cls`` the class that ``BloomFilter.from_bytes`` (and, for the
    scalable layout, ``BloomFilter.create(..., expansion=n)``) hands values
    of ``layout`` to."""
    _LAYOUT_CLASSES[layout] = cls


class InvalidFilter(ValueError):
    """Bytes that the server would refuse (22P03 there)."""


def draw_cells(h1: int, h2: int, k: int) -> List[int]:
    """The element's k distinct cell numbers (0..511), in draw order."""
    c = h1 | 1
    x = h2
    seen = 0
    out = []
    for _ in range(MAX_DRAWS):
        x = (x * LCG_MULT + c) & M64
        pos = x >> 55
        m = 1 << pos
        if not seen & m:
            seen |= m
            out.append(pos)
            if len(out) == k:
                break
    return out


KeyType = Union[int, str, None]


def _check_key_type(key_type: KeyType) -> int:
    """A key type given as an OID or an SQL name, as the OID recorded."""
    oid = key_type_oid(key_type)
    if isinstance(oid, bool) or not (isinstance(oid, int)
                                     and (oid == 0 or oid in VALID_KEY_TYPES)):
        raise ValueError("key type must be 0 (untyped), the OID of a built-in "
                         "type filters hash or a type name, got %r"
                         % (key_type,))
    return oid


def check_key_type_field(key_type: int) -> None:
    """The key type of a value read: 0 or one filters hash (the server's
    input refuses any other, 1.3 took any OID below 10000)."""
    if key_type and key_type not in VALID_KEY_TYPES \
            and row_signature_columns(key_type) is None:
        raise InvalidFilter("key type %d is not the OID of a type filters "
                            "hash or a row signature" % key_type)


def first_add_hash(filt: Any, key: Any) -> Optional[Pair]:
    """The hash of the first key added to an untyped empty filter, which
    records the key's type first (the server's bloom_key_first_add); an
    add that raises records nothing."""
    # a type the server would not record leaves the filter untyped, as the
    # server's bloom_key_adopt does (hashing then refuses it, or hash id 1
    # hashes it untyped)
    natural = natural_key_type(key)
    filt.key_type = natural if natural in VALID_KEY_TYPES or natural & ROW_FLAG else 0
    filt._set_encoder()
    try:
        return filt.key_hash(key)
    except BaseException:
        filt.key_type = 0
        filt._set_encoder()
        raise


def reset_key_type(current: int, key_type: KeyType) -> int:
    """The key type ``with_key_type`` gives (bloom_key_reset): any to an
    untyped filter or one of a type this client does not know (the caller
    asserts what the keys were); among integer types only otherwise."""
    new = _check_key_type(key_type)
    ints = (20, 21, 23)
    if current in (0, new) or (current in ints and new in ints) \
            or current not in KEY_TYPE_NAMES:
        return new
    raise ValueError("cannot change the key type of a filter from %s to %s: "
                     "its keys were hashed as %s; only smallint, integer and "
                     "bigint keys hash alike (rebuild the filter from its "
                     "keys)" % (KEY_TYPE_NAMES[current],
                                KEY_TYPE_NAMES.get(new, new),
                                KEY_TYPE_NAMES[current]))


def combined_key_type(a: Any, a_empty: bool, b: Any, b_empty: bool,
                      what: str) -> int:
    """The key type of a union or merge (bloom_key_combine): the common
    one, a typed operand's where the other is untyped and empty, 0 where
    either is an untyped value made before 1.3 that holds keys."""
    ka, kb = a.key_type, b.key_type
    if ka == kb:
        return ka
    if ka == 0 and a_empty:
        return kb
    if kb == 0 and b_empty:
        return ka
    if ka == 0 or kb == 0:
        return 0
    raise ValueError("cannot %s filters of different key types (%s and %s): "
                     "filters of integer keys can be given one integer type "
                     "with with_key_type; others must be rebuilt"
                     % (what, a.key_type_name, b.key_type_name))


def hash_ids_alike(a: Any, b: Any) -> bool:
    """Whether two filters hash every key alike, so that they combine
    (bloom_hash_ids_alike): the same hash id (ids 1 and 2 also the same
    text bytes: both made in databases of one encoding), or ids 2 and 5
    where the id-2 filter was made in a UTF8 database, as the server
    unions them only in a UTF8 database."""
    if a.hash_id == b.hash_id:
        return a.hash_id == HASH_ID_UTF8 or \
            text_codec(a.encoding) is text_codec(b.encoding)
    if {a.hash_id, b.hash_id} == {2, HASH_ID_UTF8}:
        legacy = a if a.hash_id == 2 else b
        return legacy.encoding == "UTF8"
    return False


def union_hash_id(a: Any, b: Any) -> int:
    """The hash id of a union of filters that hash alike: the first
    operand's, as the server keeps the first operand's header (ids 2 and 5
    hash alike only where text is UTF-8 anyway)."""
    return a.hash_id


def _is_all_ints(keys: Sequence[Any]) -> bool:
    for k in keys:
        if type(k) is not int or not -0x8000000000000000 <= k <= 0x7FFFFFFFFFFFFFFF:
            return False
    return True


class BloomFilter:
    """A bloomfilter value.  This class is layout 1 (blocked512); the
    counting and scalable layouts are subclasses, and ``from_bytes`` gives
    whichever the value is.

    Load one with ``from_bytes`` (``f::bytea``, or the psycopg adapter in
    ``pgbloomfilter.psycopg``); build one with ``create`` (the shape
    ``bf_create`` gives) and ``add``/``add_many``, then send ``to_bytes()``.
    Checks (``key in f``, ``contains``, ``contains_many``, ``count``) give
    the server's answers.
    """

    layout_id = LAYOUT_BLOCKED512
    layout_name = LAYOUT_NAME_DEFAULT
    # whether bf_create's layout argument names this layout
    named_layout = False
    # the hash ids a value of this layout may have (header byte 6)
    hash_ids: Tuple[int, ...] = SUPPORTED_HASH_IDS
    _cell_bits = 1
    # the encoding of the database the value was made in, which hash ids
    # 1 and 2 hash text in (a server_encoding name); hash id 5 ignores it
    encoding = "UTF8"

    version: int
    layout: int
    hash_id: int
    nhashes: int
    seed: int
    key_type: int
    nbits: int
    capacity: int
    error_rate: float
    bits_set: int
    _bits: bytearray
    _nblocks: int
    _hash: Callable[[bytes, int], Pair]
    _enc: Callable[[Any], Optional[bytes]]
    _fast: Dict[type, Callable[[Any], Optional[bytes]]]
    _ints: bool

    # ---- construction ----

    def __init__(self, nbits: int, nhashes: int, seed: int = 0,
                 capacity: int = 1, error_rate: float = 0.01,
                 hash_id: int = DEFAULT_HASH_ID, bits: Optional[bytes] = None,
                 bits_set: Optional[int] = None, key_type: KeyType = 0,
                 encoding: Optional[str] = None) -> None:
        if hash_id not in SUPPORTED_HASH_IDS:
            raise ValueError("hash id %r is not supported (1, 2 or 5)"
                             % (hash_id,))
        if encoding is not None:
            self.encoding = pg_encoding(encoding)
        if not (isinstance(nbits, int) and nbits > 0 and nbits % BLOCK_BITS == 0
                and HEADER_SIZE + nbits * self._cell_bits // 8 <= MAX_BYTES):
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
        nbytes = nbits * self._cell_bits // 8
        area = bytearray(nbytes) if bits is None else bytearray(bits)
        if len(area) != nbytes:
            raise ValueError("the cells must be %d bytes long" % nbytes)
        self._set_fields(VERSION, self.layout_id, hash_id, nhashes, seed,
                         _check_key_type(key_type), nbits, capacity,
                         error_rate, 0, area)
        self.bits_set = self._count_set() if bits_set is None else bits_set

    def _set_fields(self, version: int, layout: int, hash_id: int,
                    nhashes: int, seed: int, key_type: int, nbits: int,
                    capacity: int, error_rate: float, bits_set: int,
                    area: bytearray) -> None:
        self.version = version
        self.layout = layout
        self.hash_id = hash_id
        self.nhashes = nhashes
        self.seed = seed
        self.key_type = key_type
        self.nbits = nbits
        self.capacity = capacity
        self.error_rate = error_rate
        self.bits_set = bits_set
        self._bits = area
        self._nblocks = nbits // BLOCK_BITS
        self._hash = _murmur.hash_pair
        self._set_encoder()

    def _set_encoder(self) -> None:
        self._enc = encoder(self.hash_id, self.key_type, self.encoding)
        self._fast = fast_table(self.hash_id, self.key_type, self.encoding)
        # int keys in the int8 range are their 8 LE bytes, unconverted
        self._ints = self._fast.get(int) is not None

    def _set_encoding(self, encoding: Optional[str]) -> None:
        """Say which database encoding the value was made in."""
        if encoding is not None:
            self.encoding = pg_encoding(encoding)
            self._set_encoder()

    @classmethod
    def create(cls, capacity: int, error_rate: float = 0.01, seed: int = 0,
               *, counting: bool = False, expansion: int = 0,
               key_type: KeyType = 0, hash_id: int = DEFAULT_HASH_ID,
               encoding: Optional[str] = None,
               layout: Optional[str] = None) -> "BloomFilter":
        """Empty filter of the shape ``bf_create(capacity, error_rate, seed,
        counting => ..., expansion => ...)`` gives (the sizing is ported
        from the server; see _sizing).  ``key_type`` (a type OID or an SQL
        name: 20, 'bigint', 'int8', 'text[]') records the key type as
        ``bf_create(..., key_type => ...)`` does; 0 or None leaves the
        filter untyped until its first key, whose type it then records.
        ``hash_id`` 2 (with ``encoding``, the database's) builds what
        bloomfilter 1.2 to 1.4 built there; 5, the default, what 1.5
        builds everywhere.  ``layout`` is bf_create's: 'guava' and
        'redisbloom' make those layouts' filters (their classes'
        ``create``), None or 'blocked512' the layouts above."""
        if layout is not None and layout != LAYOUT_NAME_DEFAULT:
            named = [c for c in _LAYOUT_CLASSES.values()
                     if c.layout_name == layout and c.named_layout]
            if not named:
                raise ValueError("unknown bloom filter layout %r: give "
                                 "'blocked512' (the default), 'guava' or "
                                 "'redisbloom'" % (layout,))
            return named[0].create(capacity, error_rate, seed,
                                   counting=counting, expansion=expansion,
                                   key_type=key_type, hash_id=hash_id,
                                   encoding=encoding)
        if counting and expansion:
            raise ValueError("a bloom filter cannot be both counting and "
                             "scalable")
        if expansion:
            return _LAYOUT_CLASSES[LAYOUT_SCALABLE].create_scalable(
                capacity, error_rate, seed, expansion, key_type=key_type,
                hash_id=hash_id, encoding=encoding)
        error_rate = check_params(capacity, error_rate)
        nbits, k = _size(capacity, error_rate)
        kind = CountingBloomFilter if counting else BloomFilter
        return kind(nbits, k, seed, capacity, error_rate, hash_id,
                    key_type=key_type, encoding=encoding)

    @classmethod
    def from_shape(cls: Type[F], nbits: int, nhashes: int, seed: int = 0,
                   capacity: int = 1, error_rate: float = 0.01,
                   hash_id: int = DEFAULT_HASH_ID, key_type: KeyType = 0,
                   encoding: Optional[str] = None) -> F:
        """Empty filter of an explicit shape, e.g. read from the server's
        ``bf_nbits`` and ``bf_nhashes`` where the ported sizing is not
        trusted (``pgbloomfilter.SIZING_EXACT`` is False)."""
        return cls(nbits, nhashes, seed, capacity, error_rate, hash_id,
                   key_type=key_type, encoding=encoding)

    def empty_copy(self: F) -> F:
        """Empty filter of the same shape (a local ``bf_create``)."""
        return type(self)(self.nbits, self.nhashes, self.seed, self.capacity,
                          self.error_rate, self.hash_id,
                          key_type=self.key_type, encoding=self.encoding)

    @staticmethod
    def parse_header(data: memoryview) -> Tuple[Any, ...]:
        """The header's fields, after the checks every layout shares."""
        if len(data) < HEADER_SIZE:
            raise InvalidFilter("value shorter than the 48-byte header")
        fields = HEADER.unpack_from(data)
        (magic, version, layout, hash_id, _k, _seed, key_type, _nbits,
         capacity, error_rate, _set) = fields
        if magic != MAGIC:
            raise InvalidFilter("value does not start with the bloomfilter "
                                "magic number")
        if version != VERSION:
            raise InvalidFilter("format version %d is not supported" % version)
        kind = _LAYOUT_CLASSES.get(layout)
        if kind is None and layout not in (LAYOUT_BLOCKED512, LAYOUT_COUNTING4):
            raise InvalidFilter("bit layout %d is not supported by this client"
                                % layout)
        # a layout that is another system's format has that system's hash
        # id, and no other layout has it (bloom_validate_header)
        if hash_id not in (kind or BloomFilter).hash_ids:
            raise InvalidFilter("hash id %d is not supported by layout %d"
                                % (hash_id, layout))
        check_key_type_field(key_type)
        if len(data) > MAX_BYTES:
            raise InvalidFilter("value larger than the size limit")
        if not 1 <= capacity <= INT64_MAX:
            raise InvalidFilter("capacity out of range")
        if not 0.0 < error_rate < 1.0:
            raise InvalidFilter("error rate out of range")
        return fields

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview],
                   encoding: Optional[str] = None) -> "BloomFilter":
        """Parse and validate the binary form (``f::bytea``, binary COPY,
        ``bloomfilter_send``) as strictly as the server's receive does, into
        the class of its layout.  ``encoding`` is the server_encoding of
        the database the value was made in (default UTF8): a filter of
        hash id 2 made in a database that is not UTF8 needs its encoding
        (its text keys were hashed as that encoding's bytes)."""
        data = memoryview(data).cast("B")
        fields = BloomFilter.parse_header(data)
        layout = fields[2]
        out: BloomFilter
        kind = _LAYOUT_CLASSES.get(layout) or (
            CountingBloomFilter if layout == LAYOUT_COUNTING4 else BloomFilter)
        # BloomFilter.from_bytes reads every layout; a subclass's, its own
        if cls is not BloomFilter and not issubclass(kind, cls):
            raise InvalidFilter("value is a %s filter, not %s"
                                % (kind.layout_name, cls.__name__))
        if layout in _LAYOUT_CLASSES:
            out = kind._parse(data, fields)
        else:
            out = kind._parse_cells(data, fields)
        out._set_encoding(encoding)
        return out

    @classmethod
    def _parse_cells(cls: Type[F], data: memoryview, fields: Tuple[Any, ...]
                     ) -> F:
        (_m, version, layout, hash_id, nhashes, seed, key_type, nbits,
         capacity, error_rate, bits_set) = fields
        if nbits == 0 or nbits % BLOCK_BITS or \
                HEADER_SIZE + nbits * cls._cell_bits // 8 > MAX_BYTES:
            raise InvalidFilter("number of cells must be a positive multiple "
                                "of 512 within the size limit")
        if len(data) != HEADER_SIZE + nbits * cls._cell_bits // 8:
            raise InvalidFilter("length %d does not match the header (%d)"
                                % (len(data),
                                   HEADER_SIZE + nbits * cls._cell_bits // 8))
        if not 1 <= nhashes <= MAX_HASHES:
            raise InvalidFilter("number of hash functions must be between 1 "
                                "and 64")
        self = cls.__new__(cls)
        self._set_fields(version, layout, hash_id, nhashes, seed, key_type,
                         nbits, capacity, error_rate, bits_set,
                         bytearray(data[HEADER_SIZE:]))
        if self._count_set() != bits_set:
            raise InvalidFilter("count of bits set does not match the bits")
        return self

    def _header(self) -> bytes:
        return HEADER.pack(MAGIC, self.version, self.layout, self.hash_id,
                           self.nhashes, self.seed, self.key_type, self.nbits,
                           self.capacity, self.error_rate, self.bits_set)

    def to_bytes(self) -> bytes:
        """The binary form, byte for byte what the server stores."""
        return self._header() + bytes(self._bits)

    def __bytes__(self) -> bytes:
        return self.to_bytes()

    # ---- introspection ----

    @property
    def nblocks(self) -> int:
        return self._nblocks

    @property
    def size_bytes(self) -> int:
        return HEADER_SIZE + len(self._bits)

    @property
    def bits(self) -> bytes:
        """The cell area (a copy)."""
        return bytes(self._bits)

    @property
    def key_type_name(self) -> Optional[str]:
        """The key type's SQL name (None when untyped)."""
        if not self.key_type:
            return None
        return _type_name(self.key_type)

    def with_key_type(self: F, key_type: KeyType) -> F:
        """A copy recording this key type (``bf_set_key_type``): the caller
        asserts what the keys were.  A typed filter changes only among
        smallint, integer and bigint (ValueError otherwise)."""
        out = type(self).from_bytes(self.to_bytes(), self.encoding)
        out.key_type = reset_key_type(self.key_type, key_type)
        out._set_encoder()
        return out

    def same_shape(self, other: "BloomFilter") -> bool:
        """Can the two be combined (bloom_same_shape)?"""
        return (type(self) is type(other) and self.version == other.version
                and self.layout == other.layout
                and hash_ids_alike(self, other) and self.seed == other.seed
                and self.nhashes == other.nhashes and self.nbits == other.nbits)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BloomFilter):
            return NotImplemented
        return self.to_bytes() == other.to_bytes()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        typed = ", key_type=%d" % self.key_type if self.key_type else ""
        return ("%s(capacity=%d, error_rate=%r, nbits=%d, nhashes=%d, "
                "seed=%d, hash_id=%d, bits_set=%d%s)"
                % (type(self).__name__, self.capacity, self.error_rate,
                   self.nbits, self.nhashes, self.seed, self.hash_id,
                   self.bits_set, typed))

    # ---- hashing keys ----

    def key_hash(self, key: Any) -> Optional[Pair]:
        """(h1, h2) of the key's canonical bytes under this filter's seed;
        None when no key of the filter's key type can equal it."""
        f = self._fast.get(type(key))
        data = f(key) if f is not None else self._enc(key)
        if data is None:
            return None
        return self._hash(data, self.seed)

    def _hash_all(self, keys: Sequence[Any]) -> List[Optional[Pair]]:
        hpair = self._hash
        seed = self.seed
        fast = self._fast.get
        enc = self._enc
        out: List[Optional[Pair]] = []
        append = out.append
        for key in keys:
            f = fast(type(key))
            data = f(key) if f is not None else enc(key)
            append(None if data is None else hpair(data, seed))
        return out

    def _int_fast(self) -> bool:
        """Whether int keys hash as their 8 LE bytes with no conversion."""
        return self._fast.get(int) is not None

    def _hash_arrays(self, keys: Sequence[Any]) -> Optional[Tuple[Any, Any]]:
        """(h1, h2) uint64 arrays when numpy can hash every key (all ints
        in the int8 range, or an integer numpy array), else None."""
        np = _vector.numpy()
        if np is None or not self._int_fast():
            return None
        if isinstance(keys, np.ndarray):
            if keys.dtype.kind not in "iu" or (keys.dtype == np.uint64
                                                and (keys >> 63).any()):
                return None
            return _vector.hash_int64(keys.astype(np.int64), self.seed)
        if not _is_all_ints(keys):
            return None
        return _vector.hash_int64(np.array(keys, dtype=np.int64), self.seed)

    # ---- checks ----
    #
    # _check_hash repeats the draw loop inline: a call per draw would cost
    # more than the draw.  A drawn bit that is clear ends a check at once
    # (a repeated number cannot be clear: it was tested set before), so
    # only set bits need the "drawn before?" test.  The numbers drawn are
    # kept in a set, not as bits of a 512-bit int: a small int's hash is
    # itself, cheaper than a shift and two big-int operations per draw.

    def _check_hash(self, h1: int, h2: int, _mult: int = LCG_MULT,
                    _m64: int = M64, _draws: range = range(MAX_DRAWS)
                    ) -> bool:
        bits = self._bits
        base = ((h1 * self._nblocks) >> 64) << 6
        c = h1 | 1
        x = h2
        left = self.nhashes
        seen = set()
        for _ in _draws:
            x = (x * _mult + c) & _m64
            pos = x >> 55
            if not (bits[base + (pos >> 3)] >> (pos & 7)) & 1:
                return False
            if pos not in seen:
                seen.add(pos)
                left -= 1
                if not left:
                    return True
        return True

    def _count_hash(self, h1: int, h2: int) -> int:
        return 1 if self._check_hash(h1, h2) else 0

    def contains(self, key: Any) -> bool:
        """bf_contains(f, key): False if certainly never added, True if
        possibly added."""
        if type(key) is int and self._ints:
            try:
                data = _pack_int8(key)
            except struct.error:
                data = self._enc(key)
        else:
            f = self._fast.get(type(key))
            data = f(key) if f is not None else self._enc(key)
        if data is None:
            return False
        h1, h2 = self._hash(data, self.seed)
        return self._check_hash(h1, h2)

    __contains__ = contains

    def count(self, key: Any) -> int:
        """bf_count(f, key): how often the key was added, at most (0 or 1
        for a plain filter)."""
        h = self.key_hash(key)
        return 0 if h is None else self._count_hash(*h)

    def contains_many(self, keys: Iterable[Any]) -> List[bool]:
        """[bf_contains(f, k) for k in keys].  With numpy installed and int
        keys (a list of ints or an integer numpy array), the hashing too is
        done in arrays; other keys are hashed one by one and checked in
        arrays."""
        if not isinstance(keys, (list, tuple)) and not (
                _vector.numpy() is not None
                and isinstance(keys, _vector.numpy().ndarray)):
            keys = list(keys)
        if len(keys) >= 64 and _vector.numpy() is not None:
            arrays = self._hash_arrays(keys)
            if arrays is not None:
                return self._check_arrays(*arrays)
            pairs = self._hash_all(keys)
            return self._check_pairs_np(pairs)
        return self._contains_many_py(keys)

    def _contains_many_py(self, keys: Sequence[Any]) -> List[bool]:
        """contains_many without numpy: the reference for the array path."""
        return [False if h is None else self._check_hash(*h)
                for h in self._hash_all(keys)]

    def _check_pairs_np(self, pairs: List[Optional[Pair]]) -> List[bool]:
        np = _vector.numpy()
        h = np.array([p if p is not None else (0, 0) for p in pairs],
                     dtype=np.uint64).reshape(len(pairs), 2)
        out = self._check_arrays(h[:, 0].copy(), h[:, 1].copy())
        for i, p in enumerate(pairs):
            if p is None:
                out[i] = False
        return out

    def _check_arrays(self, h1: Any, h2: Any) -> List[bool]:
        ans, rep = _vector.test_bits(self._bits, self._nblocks, self.nhashes,
                                     h1, h2)
        out = ans.tolist()
        for i in rep.tolist():
            out[i] = self._check_hash(int(h1[i]), int(h2[i]))
        return out

    # ---- building ----

    def _add_hash(self, h1: int, h2: int) -> int:
        bits = self._bits
        base = ((h1 * self._nblocks) >> 64) << 6
        added = 0
        for pos in draw_cells(h1, h2, self.nhashes):
            i = base + (pos >> 3)
            b = 1 << (pos & 7)
            if not bits[i] & b:
                bits[i] |= b
                added += 1
        self.bits_set += added
        return added

    def _hash_to_add(self, key: Any) -> Pair:
        if self.key_type or self.bits_set:
            h = self.key_hash(key)
        else:
            h = first_add_hash(self, key)
        if h is None:
            raise ValueError("key %r equals no value of the filter's key type "
                             "%s, so it cannot be added"
                             % (key, self.key_type_name))
        return h

    def _add_key(self, key: Any) -> None:
        key_type = self.key_type
        try:
            self._add_hash(*self._hash_to_add(key))
        except BaseException:
            # an add that fails (a filter that cannot grow) records nothing
            if self.key_type != key_type:
                self.key_type = key_type
                self._set_encoder()
            raise

    def add(self: F, key: Any) -> F:
        """Add a key in place (the server's bf_add makes a copy); returns
        self, so calls chain."""
        self._add_key(key)
        return self

    def add_many(self: F, keys: Iterable[Any]) -> F:
        """Add every key that is not None, in order (as bf_add_all skips
        NULLs); returns self."""
        for key in keys:
            if key is not None:
                self._add_key(key)
        return self

    update = add_many

    def _count_set(self) -> int:
        return int.from_bytes(self._bits, "little").bit_count()

    def union(self: F, other: F) -> F:
        """New filter, bitwise OR (bf_union); shapes must match."""
        out = self._union_target(other)
        n = len(self._bits)
        v = (int.from_bytes(self._bits, "little")
             | int.from_bytes(other._bits, "little"))
        out._bits = bytearray(v.to_bytes(n, "little"))
        out.bits_set = v.bit_count()
        return out

    __or__ = union

    def _union_target(self: F, other: F) -> F:
        """An empty filter of the shape both share, with the key type of
        the union."""
        if not self.same_shape(other):
            raise ValueError("cannot union bloom filters of different shape")
        out = self.empty_copy()
        out.hash_id = union_hash_id(self, other)
        out.key_type = combined_key_type(self, self.bits_set == 0, other,
                                         other.bits_set == 0, "union")
        out._set_encoder()
        return out


class CountingBloomFilter(BloomFilter):
    """Layout 2, counting4: the blocked layout's cells as 4-bit counters
    (cell c of a block is the low nibble of its byte c >> 1 if c is even,
    the high one if odd; 256 bytes a block).  A counter that reaches 15
    stays there.  ``count`` is the smallest of a key's counters; ``remove``
    takes a key out if it tests present."""

    layout_id = LAYOUT_COUNTING4
    layout_name = "counting4"
    _cell_bits = 4

    def _count_set(self) -> int:
        v = int.from_bytes(self._bits, "little")
        m = int.from_bytes(b"\x11" * len(self._bits), "little")
        return ((v | v >> 1 | v >> 2 | v >> 3) & m).bit_count()

    def _count_hash(self, h1: int, h2: int) -> int:
        cells = self._bits
        base = ((h1 * self._nblocks) >> 64) << 8
        least = COUNTER_MAX
        for cell in draw_cells(h1, h2, self.nhashes):
            c = (cells[base + (cell >> 1)] >> ((cell & 1) << 2)) & 0xF
            if c < least:
                least = c
                if c == 0:
                    break
        return least

    def _check_hash(self, h1: int, h2: int) -> bool:
        return self._count_hash(h1, h2) > 0

    def _check_arrays(self, h1: Any, h2: Any) -> List[bool]:
        least, rep = _vector.min_counters(self._bits, self._nblocks,
                                          self.nhashes, h1, h2)
        out = (least > 0).tolist()
        for i in rep.tolist():
            out[i] = self._check_hash(int(h1[i]), int(h2[i]))
        return out

    def _step(self, h1: int, h2: int, delta: int) -> None:
        cells = self._bits
        base = ((h1 * self._nblocks) >> 64) << 8
        for cell in draw_cells(h1, h2, self.nhashes):
            i = base + (cell >> 1)
            shift = (cell & 1) << 2
            c = (cells[i] >> shift) & 0xF
            if c == COUNTER_MAX:
                continue                # sticky: it no longer knows how many
            cells[i] = (cells[i] & ~(0xF << shift)) | ((c + delta) << shift)
            if delta > 0 and c == 0:
                self.bits_set += 1
            elif delta < 0 and c == 1:
                self.bits_set -= 1

    def _add_hash(self, h1: int, h2: int) -> int:
        before = self.bits_set
        self._step(h1, h2, 1)
        return self.bits_set - before

    def remove(self, key: Any) -> bool:
        """bf_remove in place: take the key out if it tests present (returns
        whether it did).  Remove only what was added: removing a false
        positive can cause a false negative for another key."""
        h = self.key_hash(key)
        if h is None or self._count_hash(*h) == 0:
            return False
        self._step(h[0], h[1], -1)
        return True

    def union(self, other: "CountingBloomFilter") -> "CountingBloomFilter":
        """New filter with counters added, saturating at 15 (bf_union)."""
        out = self._union_target(other)
        a, b = self._bits, other._bits
        res = out._bits
        for i in range(len(res)):
            lo = min((a[i] & 0xF) + (b[i] & 0xF), COUNTER_MAX)
            hi = min((a[i] >> 4) + (b[i] >> 4), COUNTER_MAX)
            res[i] = lo | (hi << 4)
        out.bits_set = out._count_set()
        return out

    __or__ = union
