"""Layout 6, redisbloom, with hash id 4: a RedisBloom 2.x scalable chain in
a bloomfilter value (the server's src/core/redisbloom.c; docs/format.md,
"RedisBloom: layout 6 and hash id 4").

A key is the bytes a Redis client sends for it: an integer its decimal
text, text its UTF-8 bytes (so only a UTF8 database takes text keys),
char(n) without its trailing blanks, bytea its bytes; a key of another
type is converted to the filter's key type first, as for any typed filter.
Those bytes are hashed with MurmurHash64A twice: a with seed
0xc6a4a7935bd1e995, b with seed a.  Bit i of a key in a link is
``(a + i * b) % M`` (the sum mod 2^64), M being the link's bits, or 2^n2.

The payload is the chain header (uint64 size, uint32 links, uint32
options, uint32 growth), one 53-byte record per link (bytes, bits, size,
error, bpe, hashes, entries, n2) and the links' bytes.  A key any link
holds is not added again; past the last link's entries a new link for
entries * growth keys at half its rate is appended (a NONSCALING chain
refuses the key instead).  Input checks every field that sizes that
growth, as the server does, so no value can make an add allocate past the
size limit.
"""

import math
import struct
from typing import Any, Callable, List, Optional, Tuple

from ._filter import (BloomFilter, InvalidFilter, DEFAULT_HASH_ID, VERSION,
                      HEADER, MAGIC, KeyType, _check_key_type,
                      combined_key_type, register_layout)
from ._keys import (encoder, natural_key_type, pg_encoding, _type_name,
                    UnsupportedKey, BPCHAR, BYTEA, INT2, INT4, INT8, TEXT,
                    VARCHAR)
from ._sizing import HEADER_SIZE, MAX_BYTES, FilterTooLarge, check_request

__all__ = ["RedisBloomFilter", "murmur64a"]

LAYOUT_REDISBLOOM = 6
HASH_REDISBLOOM = 4
REDIS_KEY_TYPES = (0, BYTEA, INT8, INT2, INT4, TEXT, BPCHAR, VARCHAR)
_INTS = (INT2, INT4, INT8)
_TEXTS = (TEXT, VARCHAR, BPCHAR)
CHAIN = struct.Struct("<QIII")
LINK = struct.Struct("<QQQddIQB")
MAX_LINKS = 64
MAX_GROWTH = 1024           # bf_create's bounds for expansion
MAX_HASHES = 2048
NOROUND, ENTS_IS_BITS, FORCE64, NO_SCALING = 1, 2, 4, 8
KNOWN_OPTIONS = NOROUND | ENTS_IS_BITS | FORCE64 | NO_SCALING
# the constants RedisBloom sizes with, as it writes them
LN2 = 0.693147180559945
LN2_SQUARED = 0.480453013918201
TIGHTENING = 0.5
REL_SLACK = 1e-9            # another C library's log() may differ a little
M64 = (1 << 64) - 1
_M = 0xc6a4a7935bd1e995
_I64 = struct.Struct("<q")
_Q = struct.Struct("<Q")

E_LINK = ("a link fails RedisBloom's checks: its error rate must be in "
          "(0, 1), its bits 8 times its bytes (at least one), its hashes "
          "ceil(ln 2 * bpe), and n2 below 64 and within its bits")
E_BPE = ("a RedisBloom link's bpe must be the bits per element its error "
         "rate gives, |ln(error)| / ln(2)^2")
E_ENTRIES = ("a RedisBloom link's entries must be what its bits hold at its "
             "bpe, as RedisBloom sizes a link")
E_SIZE = ("a RedisBloom link's size, the elements it counted, must not "
          "exceed its entries")
E_NEXT = ("each RedisBloom link after the first must be the one growth "
          "made: half the error rate of the link before it and its entries "
          "times the growth; a NONSCALING chain has one link")
E_GROWTH = ("a RedisBloom chain that scales must have a growth between 1 "
            "and 1024, and not the option ENTS_IS_BITS (2), with which a "
            "link of e entries is followed by one of 2^(e * growth) bits")


def murmur64a(data: bytes, seed: int) -> int:
    """MurmurHash64A (64-bit MurmurHash2), input read as little-endian
    words, as docs/format.md spells it out."""
    n = len(data)
    h = (seed ^ (n * _M)) & M64
    whole = n & ~7
    for (k,) in struct.iter_unpack("<Q", data[:whole]):
        k = (k * _M) & M64
        k ^= k >> 47
        h = ((h ^ ((k * _M) & M64)) * _M) & M64
    if n & 7:
        h = ((h ^ int.from_bytes(data[whole:], "little")) * _M) & M64
    h ^= h >> 47
    h = (h * _M) & M64
    return h ^ (h >> 47)


def redis_hash(data: bytes, _seed: int = 0) -> Tuple[int, int]:
    """(a, b) of an element; RedisBloom has no seed."""
    a = murmur64a(data, _M)
    return a, murmur64a(data, a)


def _bpe(error: float) -> float:
    return abs(-(math.log(error) / LN2_SQUARED))


def _c_uint64(d: float) -> int:
    """C's (uint64_t) of a non-negative double below 2^64."""
    return int(d)


class Link:
    """One plain filter of the chain: its 53-byte record and its bytes."""

    __slots__ = ("nbytes", "bits", "size", "error", "bpe", "hashes",
                 "entries", "n2", "data")

    def __init__(self, nbytes: int, bits: int, size: int, error: float,
                 bpe: float, hashes: int, entries: int, n2: int) -> None:
        self.nbytes, self.bits, self.size = nbytes, bits, size
        self.error, self.bpe, self.hashes = error, bpe, hashes
        self.entries, self.n2 = entries, n2
        self.data = bytearray()

    def record(self) -> bytes:
        return LINK.pack(self.nbytes, self.bits, self.size, self.error,
                         self.bpe, self.hashes, self.entries, self.n2)

    def problem(self) -> Optional[str]:
        """The server's rb_link_check: what RedisBloom checks of a link it
        loads, then what every link its bloom_init makes holds (the entries
        size the next link); None if the link passes."""
        k = LN2 * self.bpe
        if not 0.0 < self.error < 1.0 or self.nbytes == 0 \
                or self.nbytes > MAX_BYTES or self.bits != self.nbytes * 8 \
                or self.n2 > 63 \
                or (self.n2 != 0 and self.bits < (1 << self.n2)) \
                or not 0.0 < k <= MAX_HASHES \
                or self.hashes != math.ceil(k):
            return E_LINK
        if not abs(self.bpe - _bpe(self.error)) <= REL_SLACK * self.bpe:
            return E_BPE
        x = float(self.entries) * self.bpe
        if self.n2 == 0:
            m = float(self.bits)
            fits = m - 64.0 - m * REL_SLACK < x < m + 1.0 + m * REL_SLACK
        else:
            m = float(1 << self.n2)
            fits = m / 2.0 - self.bpe - 1.0 - m * REL_SLACK <= x \
                <= m + m * REL_SLACK
        if not fits:
            return E_ENTRIES
        if self.size > self.entries:
            return E_SIZE
        return None

    def follows(self, prev: "Link", options: int, growth: int) -> bool:
        """The server's rb_link_follows: whether this is the link growth
        makes after prev."""
        if options & NO_SCALING or self.error != prev.error * TIGHTENING:
            return False
        want = prev.entries * growth
        if want > M64:
            return False
        return self.entries == want if options & NOROUND \
            else self.entries >= want

    def modulus(self) -> int:
        return 1 << self.n2 if self.n2 else self.bits

    def holds(self, a: int, b: int) -> bool:
        m = self.modulus()
        data = self.data
        for i in range(self.hashes):
            x = ((a + i * b) & M64) % m
            if not (data[x >> 3] >> (x & 7)) & 1:
                return False
        return True

    def set(self, a: int, b: int) -> int:
        """Set the key's bits; how many were clear."""
        m = self.modulus()
        data = self.data
        added = 0
        for i in range(self.hashes):
            x = ((a + i * b) & M64) % m
            mask = 1 << (x & 7)
            if not data[x >> 3] & mask:
                data[x >> 3] |= mask
                added += 1
        return added


def new_link(entries: int, error: float, options: int) -> Optional[Link]:
    """RedisBloom's bloom_init: the record of an empty link for entries
    keys at error, or None where that fails or would make a link input
    refuses (no bits, n2 of 64, more than a value holds).  Its bytes are
    not allocated here: the caller first checks the value's size.
    ENTS_IS_BITS is never asked for: BF.RESERVE does not set it and a
    chain that scales may not have it."""
    if entries < 1 or not 0.0 < error < 1.0 or options & ENTS_IS_BITS:
        return None
    bpe = _bpe(error)
    want = float(entries) * bpe
    n2 = 0
    if options & NOROUND:
        if not want < 18446744073709551616.0:
            return None
        bits = _c_uint64(want)
    else:
        if not (math.isfinite(want) and want > 0.0):
            return None
        bn2 = math.frexp(want)[1] - 1           # C's logb
        if not 0 <= bn2 < 63:
            return None
        n2 = bn2 + 1
        bits = 1 << n2
        # the spare bits of the rounding take more entries
        entries = (entries + _c_uint64(float(_c_uint64(float(bits) - want))
                                       / bpe)) & M64
    if bits == 0 or bits // 8 > MAX_BYTES:
        return None
    nbytes = (bits // 64 + 1) * 8 if bits % 64 else bits // 8
    link = Link(nbytes, nbytes * 8, 0, error, bpe, math.ceil(LN2 * bpe),
                entries, n2)
    return link if link.problem() is None else None


def _redis_keys(key_type: int, encoding: str
                ) -> Callable[[Any], Optional[bytes]]:
    """key -> the bytes a Redis client sends for it as a key of key_type,
    after the conversions of any typed filter (None: no key equals it)."""
    if key_type == 0:
        typed = {}

        def untyped(key: Any) -> Optional[bytes]:
            t = natural_key_type(key)
            enc = typed.get(t)
            if enc is None:
                enc = typed[t] = _redis_keys(t, encoding)
            return enc(key)
        return untyped
    if key_type not in REDIS_KEY_TYPES:
        def refuse(key: Any) -> Optional[bytes]:
            raise UnsupportedKey(
                "RedisBloom filters cannot hold keys of type %s: a RedisBloom "
                "filter hashes the bytes a Redis client sends, which only "
                "integers, text and bytea have in one agreed form"
                % _type_name(key_type))
        return refuse
    canon = encoder(5, key_type, encoding)
    if key_type in _INTS:
        def decimal(key: Any) -> Optional[bytes]:
            data = canon(key)
            if data is None:
                return None
            return b"%d" % _I64.unpack(data)[0]
        return decimal
    if key_type in _TEXTS and encoding != "UTF8":
        def no_text(key: Any) -> Optional[bytes]:
            raise UnsupportedKey(
                "RedisBloom filters hold text keys only in a UTF-8 database: "
                "a Redis client sends text as UTF-8, and this database "
                "encodes text as %s (add convert_to(t, 'UTF8') to a filter of "
                "bytea keys instead)" % encoding)
        return no_text
    return canon


class RedisBloomFilter(BloomFilter):
    """A bloomfilter value of layout 6, a RedisBloom chain.  ``create`` is
    ``bf_create(n, p, expansion => e, layout => 'redisbloom')``
    (``BF.RESERVE``; expansion 0 is NONSCALING); checks answer as
    ``BF.EXISTS`` and the server; adds give the server's bytes, growing the
    chain as ``BF.ADD`` does.  ``links`` are the chain's links, oldest
    first; ``items`` the keys it counted; ``options`` and ``growth`` the
    chain header's."""

    layout_id = LAYOUT_REDISBLOOM
    layout_name = "redisbloom"
    named_layout = True
    hash_ids = (HASH_REDISBLOOM,)

    items: int
    options: int
    growth: int
    links: List[Link]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("use RedisBloomFilter.create(capacity, rate, "
                        "expansion=...) or from_bytes")

    @classmethod
    def create(cls, capacity: int, error_rate: float = 0.01, seed: int = 0,
               *, counting: bool = False, expansion: int = 0,
               key_type: KeyType = 0, hash_id: int = DEFAULT_HASH_ID,
               encoding: Optional[str] = None,
               layout: Optional[str] = None) -> "RedisBloomFilter":
        """``bf_create(capacity, error_rate, expansion => expansion, key_type
        => key_type, layout => 'redisbloom')``: what ``BF.RESERVE key
        error_rate capacity EXPANSION expansion`` makes; expansion 0 (the
        default, as bf_create's) is NONSCALING, BF.RESERVE's default is 2."""
        if counting:
            raise ValueError("a redisbloom bloom filter cannot be counting")
        if isinstance(expansion, bool) or not isinstance(expansion, int) \
                or not 0 <= expansion <= MAX_GROWTH:
            raise ValueError("expansion must be between 1 and %d (0: "
                             "NONSCALING)" % MAX_GROWTH)
        error_rate = check_request(capacity, error_rate, "RedisBloom filter")
        if seed != 0:
            raise ValueError("RedisBloom filters have no seed (RedisBloom "
                             "hashes every element alike), got %r" % (seed,))
        if hash_id not in (DEFAULT_HASH_ID, HASH_REDISBLOOM):
            raise ValueError("a RedisBloom filter has hash id 4")
        oid = _check_key_type(key_type)
        if oid not in REDIS_KEY_TYPES:
            raise ValueError("bloom filters of layout redisbloom cannot hold "
                             "keys of type %s: use keys of type bigint, "
                             "integer, smallint, text, varchar, char(n) or "
                             "bytea" % _type_name(oid))
        options = FORCE64 | NOROUND | (0 if expansion else NO_SCALING)
        first = new_link(capacity,
                         error_rate * TIGHTENING if expansion else error_rate,
                         options)
        if first is None or HEADER_SIZE + CHAIN.size + LINK.size \
                + first.nbytes > MAX_BYTES:
            raise FilterTooLarge("RedisBloom filter for %d elements at error "
                                 "rate %g cannot be made: its first link "
                                 "would have no bits or exceed the size limit"
                                 % (capacity, error_rate))
        first.data = bytearray(first.nbytes)
        self = cls.__new__(cls)
        if encoding is not None:
            self.encoding = pg_encoding(encoding)
        self._set_fields(VERSION, LAYOUT_REDISBLOOM, HASH_REDISBLOOM, 1, 0,
                         oid, first.bits, capacity, error_rate, 0, bytearray())
        # BF.RESERVE ... NONSCALING keeps the default growth, 2
        self.items, self.options = 0, options
        self.growth = expansion or 2
        self.links = [first]
        return self

    @classmethod
    def _parse(cls, data: memoryview, fields: Tuple[Any, ...]
               ) -> "RedisBloomFilter":
        """The server's rb_check_header, bloom_redis_read_head and
        rb_check_payload, in their order."""
        (_m, _version, _layout, _hash_id, nlinks, seed, key_type, nbits,
         capacity, error_rate, bits_set) = fields
        if seed != 0:
            raise InvalidFilter("the seed of a RedisBloom filter must be 0, "
                                "not %d" % seed)
        if not 1 <= nlinks <= MAX_LINKS:
            raise InvalidFilter("a RedisBloom chain must have 1 to 64 links "
                                "(header byte 7), not %d" % nlinks)
        if nbits == 0 or nbits % 8 or nbits // 8 > MAX_BYTES:
            raise InvalidFilter("number of bits %d of a RedisBloom chain is "
                                "not a positive multiple of 8 within the size "
                                "limit" % nbits)
        head = CHAIN.size + LINK.size * nlinks
        if len(data) != HEADER_SIZE + head + nbits // 8:
            raise InvalidFilter("length %d does not match the header (%d)"
                                % (len(data), HEADER_SIZE + head + nbits // 8))
        if bits_set > nbits:
            raise InvalidFilter("count of bits set does not match the bits")
        if key_type not in REDIS_KEY_TYPES:
            raise InvalidFilter("key type %d of a RedisBloom filter is not one "
                                "of bigint, integer, smallint, text, varchar, "
                                "char(n), bytea or 0" % key_type)
        size, nfilters, options, growth = CHAIN.unpack_from(data, HEADER_SIZE)
        if nfilters != nlinks:
            raise InvalidFilter("the chain's number of links (%d) does not "
                                "match the header's (%d)" % (nfilters, nlinks))
        if options & ~KNOWN_OPTIONS:
            raise InvalidFilter("the chain's options (%d) include one "
                                "RedisBloom does not know" % options)
        if not options & FORCE64:
            raise InvalidFilter("the chain hashes with 32-bit MurmurHash2 (its "
                                "options lack FORCE64, 4), which is not "
                                "implemented")
        if not options & NO_SCALING and (not 1 <= growth <= MAX_GROWTH
                                         or options & ENTS_IS_BITS):
            raise InvalidFilter("%s (growth %d, options %d)"
                                % (E_GROWTH, growth, options))
        links: List[Link] = []
        off = HEADER_SIZE + head
        for i in range(nlinks):
            link = Link(*LINK.unpack_from(data, HEADER_SIZE + CHAIN.size
                                          + LINK.size * i))
            why = link.problem()
            if why is not None:
                raise InvalidFilter("link %d: %s" % (i, why))
            if links and not link.follows(links[-1], options, growth):
                raise InvalidFilter("link %d: %s" % (i, E_NEXT))
            if link.nbytes > len(data) - off:
                raise InvalidFilter("link %d runs past the end of the value"
                                    % i)
            link.data = bytearray(data[off:off + link.nbytes])
            off += link.nbytes
            links.append(link)
        if sum(link.size for link in links) != size:
            raise InvalidFilter("the links' sizes do not add up to the chain's "
                                "size")
        if sum(link.bits for link in links) != nbits or off != len(data):
            raise InvalidFilter("number of bits does not match the links")
        first = links[0]
        rate = first.error if options & NO_SCALING else first.error / TIGHTENING
        if first.entries != capacity:
            raise InvalidFilter("capacity %d is not the first link's entries "
                                "(%d)" % (capacity, first.entries))
        if rate != error_rate:
            raise InvalidFilter("error rate %r is not the first link's (%r)"
                                % (error_rate, rate))
        if sum(int.from_bytes(link.data, "little").bit_count()
               for link in links) != bits_set:
            raise InvalidFilter("count of bits set does not match the bits")
        self = cls.__new__(cls)
        self._set_fields(VERSION, LAYOUT_REDISBLOOM, HASH_REDISBLOOM, nlinks,
                         0, key_type, nbits, capacity, error_rate, bits_set,
                         bytearray())
        self.items, self.options, self.growth = size, options, growth
        self.links = links
        return self

    def to_bytes(self) -> bytes:
        head = HEADER.pack(MAGIC, self.version, self.layout, self.hash_id,
                           len(self.links), self.seed, self.key_type,
                           self.nbits, self.capacity, self.error_rate,
                           self.bits_set)
        chain = CHAIN.pack(self.items, len(self.links), self.options,
                           self.growth)
        return b"".join([head, chain] + [link.record() for link in self.links]
                        + [bytes(link.data) for link in self.links])

    @property
    def size_bytes(self) -> int:
        return HEADER_SIZE + CHAIN.size + LINK.size * len(self.links) \
            + self.nbits // 8

    @property
    def bits(self) -> bytes:
        return b"".join(bytes(link.data) for link in self.links)

    def empty_copy(self) -> "RedisBloomFilter":
        """``bf_create`` of the same request: one empty link."""
        return RedisBloomFilter.create(
            self.capacity, self.error_rate,
            expansion=0 if self.options & NO_SCALING else self.growth,
            key_type=self.key_type, encoding=self.encoding)

    def with_key_type(self, key_type: KeyType) -> "RedisBloomFilter":
        oid = _check_key_type(key_type)
        if oid not in REDIS_KEY_TYPES:
            raise ValueError("bloom filters of layout redisbloom cannot hold "
                             "keys of type %s" % _type_name(oid))
        return super().with_key_type(key_type)

    def union(self, other: "RedisBloomFilter") -> "RedisBloomFilter":
        """``bf_union(a, b)`` of two chains of one request (rb_combine):
        the longer one (the first on a tie) with the other's links ORed
        into its first ones, which must be alike, and their counts added
        as if the keys of both were distinct, up to each link's entries.
        Its bytes are not those the keys' adds would give, as on the
        server."""
        if not isinstance(other, RedisBloomFilter):
            raise ValueError("cannot union bloom filters of different layouts")
        key_type = combined_key_type(self, self.bits_set == 0, other,
                                     other.bits_set == 0, "union")
        dst, src = (other, self) if other.size_bytes > self.size_bytes \
            else (self, other)
        if (self.capacity, self.error_rate) != (other.capacity,
                                                other.error_rate) \
                or len(src.links) > len(dst.links) \
                or (dst.options, dst.growth) != (src.options, src.growth) \
                or any(a.record()[24:] != b.record()[24:]
                       or a.record()[:16] != b.record()[:16]
                       for a, b in zip(dst.links, src.links)):
            raise ValueError("cannot union RedisBloom filters of different "
                             "shape: create both with the same capacity, "
                             "error rate and expansion")
        out = RedisBloomFilter.from_bytes(dst.to_bytes(), dst.encoding)
        assert isinstance(out, RedisBloomFilter)
        out.key_type = key_type
        out._set_encoder()
        for link, theirs in zip(out.links, src.links):
            n = len(link.data)
            link.data = bytearray(
                (int.from_bytes(link.data, "little")
                 | int.from_bytes(theirs.data, "little")).to_bytes(n, "little"))
            link.size = min(link.size + theirs.size, M64, link.entries)
        out.items = min(sum(link.size for link in out.links), M64)
        out.bits_set = out._count_set()
        return out

    __or__ = union

    # ---- keys, checks and adds ----

    def _set_encoder(self) -> None:
        self._enc = _redis_keys(self.key_type, self.encoding)
        self._fast = {}
        self._ints = False
        self._hash = redis_hash

    def _check_hash(self, h1: int, h2: int) -> bool:
        for link in reversed(self.links):
            if link.holds(h1, h2):
                return True
        return False

    def _check_arrays(self, h1: Any, h2: Any) -> List[bool]:
        return [self._check_hash(a, b)
                for a, b in zip(h1.tolist(), h2.tolist())]

    def _count_set(self) -> int:
        return sum(int.from_bytes(link.data, "little").bit_count()
                   for link in self.links)

    def _grow(self) -> None:
        """A new, empty link after a full last one (rb_grown_bytes and
        rb_grow), refused before anything is allocated where the server
        refuses it (54000 there)."""
        last = self.links[-1]
        nxt = None
        # input held the growth to 1 .. 1024 without ENTS_IS_BITS; checked
        # again, as the next link is sized from it
        if len(self.links) < MAX_LINKS and not self.options & (
                NO_SCALING | ENTS_IS_BITS) and 1 <= self.growth <= MAX_GROWTH \
                and last.entries * self.growth <= M64:
            nxt = new_link(last.entries * self.growth,
                           last.error * TIGHTENING, self.options)
        if nxt is None or self.size_bytes + LINK.size + nxt.nbytes > MAX_BYTES:
            if self.options & NO_SCALING:
                raise FilterTooLarge("non scaling filter is full: a RedisBloom "
                                     "filter made without expansion takes no "
                                     "element past its capacity (%d)"
                                     % self.capacity)
            raise FilterTooLarge("redisbloom bloom filter cannot grow any "
                                 "further: a RedisBloom chain is limited to "
                                 "64 links and the size limit of a bloom "
                                 "filter value")
        nxt.data = bytearray(nxt.nbytes)
        self.links.append(nxt)
        self.nhashes = len(self.links)
        self.nbits += nxt.bits

    def _add_hash(self, h1: int, h2: int) -> int:
        if self._check_hash(h1, h2):
            return 0                    # present: not added, not counted
        if self.links[-1].size >= self.links[-1].entries:
            self._grow()
        last = self.links[-1]
        added = last.set(h1, h2)
        if added:
            self.bits_set += added
            last.size += 1
            self.items += 1
        return added


register_layout(LAYOUT_REDISBLOOM, RedisBloomFilter)
