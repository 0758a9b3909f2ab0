"""Tests that need no server: hash backends, pinned bytes, validation."""

import hashlib
import random
import struct
import uuid

import pytest

import pgbloomfilter
from pgbloomfilter import BloomFilter, InvalidFilter, canonical_bytes
from pgbloomfilter import _murmur, _sizing


@pytest.mark.parametrize("name", _murmur.backends())
def test_backend_passes_smhasher_verification(name):
    pair = _murmur.load(name)
    assert _murmur.verification_value(pair) == 0x6384BA69


def test_reference_passes_smhasher_verification():
    assert (_murmur.verification_value(_murmur.murmur3_x64_128_py)
            == _murmur.SMHASHER_VERIFICATION)


def test_backends_agree():
    rng = random.Random(7)
    pairs = {n: _murmur.load(n) for n in _murmur.backends()}
    for _ in range(2000):
        data = rng.randbytes(rng.randrange(0, 70))
        seed = rng.choice([0, 1, 12345, 0xFFFFFFFF, rng.getrandbits(32)])
        want = _murmur.murmur3_x64_128_py(data, seed)
        for name, pair in pairs.items():
            assert pair(data, seed) == want, name


def _md5(raw):
    return hashlib.md5(raw).hexdigest()


def _untyped(raw):
    """The value with header bytes 12..15 zero: as made before 1.3."""
    return raw[:12] + bytes(4) + raw[16:]


def test_pinned_bytes_from_regression_suite():
    # 1.4's expected/ops.out pinned these md5s of server-built filters
    # (hash id 2): ARRAY[1, 2, 3] is an int4 array, so that filter records
    # integer keys; text keys record text by themselves
    f = BloomFilter.create(100, 0.01, key_type="integer", hash_id=2) \
        .add_many([1, 2, 3])
    assert _md5(f.to_bytes()) == "c0adab772efcdbc51d8d3c73df83212d"
    assert f.to_bytes()[12:16] == struct.pack("<I", 23)
    f = BloomFilter.create(100, 0.01, hash_id=2).add_many(["a", "b"])
    assert _md5(f.to_bytes()) == "ee8c46187ef999f04127acf088cd1a0b"
    assert f.key_type == 25
    # new filters have hash id 5, the same bits for ASCII keys
    for keys in ([1, 2, 3], ["a", "b"]):
        old = BloomFilter.create(100, 0.01, hash_id=2).add_many(keys)
        new = BloomFilter.create(100, 0.01).add_many(keys).to_bytes()
        assert new[6] == 5 and new == old.to_bytes()[:6] + b"\x05" \
            + old.to_bytes()[7:]
    # with the hash id byte set back to 1, as in ops.out
    f = BloomFilter.create(100, 0.01, hash_id=1, key_type=23).add_many([1, 2, 3])
    assert _md5(f.to_bytes()) == "7cf9b5ac26948ed5d55b0c817d7d6b7b"
    f = BloomFilter.create(100, 0.01, hash_id=1).add_many(["a", "b"])
    assert _md5(f.to_bytes()) == "bfda2d1fd75e3da6d7aea0340392ba55"
    # and without a key type, what release 1.1 made (pinned by 1.1's suite)
    f = BloomFilter.create(100, 0.01, hash_id=1).add_many([1, 2, 3])
    assert _md5(_untyped(f.to_bytes())) == "f2f3a6ace9cc7dd020a036867e055244"
    f = BloomFilter.create(100, 0.01, hash_id=1).add_many(["a", "b"])
    assert _md5(_untyped(f.to_bytes())) == "fc66d17550737016e1f49ba4615a0168"


def test_first_bit_comes_from_x1_not_x0():
    # bloom_draw_next advances x before taking a bit: the README's
    # "x0 = h2 ... bit x_i >> 55" would put the first bit at h2 >> 55.
    f = BloomFilter.from_shape(512, 1, hash_id=1).add(42)
    h1, h2 = _murmur.hash_pair(struct.pack("<q", 42), 0)
    x1 = (h2 * 6364136223846793005 + (h1 | 1)) % 2**64
    pos = x1 >> 55
    assert f.bits[pos >> 3] == 1 << (pos & 7)
    assert f.bits_set == 1


def test_hash_ids_share_bits():
    for keys in (list(range(1000)), ["x%d" % i for i in range(1000)]):
        a = BloomFilter.create(5000, 0.01, hash_id=1).add_many(keys)
        b = BloomFilter.create(5000, 0.01, hash_id=2).add_many(keys)
        ra, rb = a.to_bytes(), b.to_bytes()
        assert ra[6] == 1 and rb[6] == 2
        assert ra[:6] + ra[7:] == rb[:6] + rb[7:]
        assert rb[:6] + b"\x01" + rb[7:] == ra
        assert BloomFilter.from_bytes(rb).contains_many(keys) == [True] * 1000


def test_canonical_bytes():
    assert canonical_bytes(1) == b"\x01" + b"\0" * 7
    assert canonical_bytes(-1) == b"\xff" * 8
    assert canonical_bytes("é") == "é".encode()
    assert canonical_bytes(bytearray(b"ab")) == b"ab"
    u = uuid.UUID("12345678-1234-5678-1234-567812345678")
    assert canonical_bytes(u) == u.bytes
    for bad in (None, object(), {1: 2}):
        with pytest.raises(TypeError):
            canonical_bytes(bad)
    # as psycopg sends them: bool as boolean, an int beyond int8 as numeric
    assert canonical_bytes(True) == b"\x01"
    assert canonical_bytes(2**63) == b"9223372036854775808"
    with pytest.raises(OverflowError):
        canonical_bytes(2**63, hash_id=1)
    for bad in (1.5, (1, 2), [1]):
        with pytest.raises(TypeError):
            canonical_bytes(bad, hash_id=1)


def test_round_trip_and_answers():
    rng = random.Random(1)
    members = [rng.getrandbits(63) for _ in range(5000)]
    f = BloomFilter.create(5000, 0.01, seed=99).add_many(members)
    g = BloomFilter.from_bytes(f.to_bytes())
    assert g == f and g.bits_set == f.bits_set
    assert all(g.contains(m) for m in members)
    assert g.contains_many(members) == [True] * len(members)
    outsiders = [rng.getrandbits(63) for _ in range(20000)]
    single = [g.contains(x) for x in outsiders]
    assert g.contains_many(outsiders) == single
    assert sum(single) / len(single) < 0.01


def test_union():
    a = BloomFilter.create(1000).add_many(range(500))
    b = BloomFilter.create(1000).add_many(range(500, 1000))
    u = a | b
    assert u.contains_many(range(1000)) == [True] * 1000
    assert u == BloomFilter.create(1000).add_many(range(1000))
    with pytest.raises(ValueError):
        a | BloomFilter.create(1000, seed=1)


def _corrupt(raw, offset, fmt, value):
    raw = bytearray(raw)
    struct.pack_into(fmt, raw, offset, value)
    return bytes(raw)


@pytest.mark.parametrize("offset,fmt,value", [
    (0, "<4s", b"BLMX"),        # magic
    (4, "<B", 2),               # version
    (5, "<B", 2),               # layout
    (6, "<B", 3),               # hash id
    (6, "<B", 0),
    (7, "<B", 0),               # k
    (7, "<B", 65),
    (12, "<I", 10000),          # key type: not a built-in type
    (12, "<I", 9999),           # nor a type filters hash (1.3 took these)
    (12, "<I", 22),             # int2vector: its keys are int2[]
    (12, "<I", 3802),           # jsonb
    (16, "<Q", 1000),           # nbits not a multiple of 512
    (16, "<Q", 2048),           # nbits against length
    (24, "<Q", 0),              # capacity
    (24, "<Q", 2**63),
    (32, "<d", 1.0),            # error rate
    (32, "<d", float("nan")),
    (40, "<Q", 4),              # bits set
])
def test_validation_refuses(offset, fmt, value):
    raw = BloomFilter.create(100, hash_id=1).add_many([1, 2, 3]).to_bytes()
    BloomFilter.from_bytes(raw)
    with pytest.raises(InvalidFilter):
        BloomFilter.from_bytes(_corrupt(raw, offset, fmt, value))


def test_key_types_read_are_those_filters_hash():
    from pgbloomfilter._keys import VALID_KEY_TYPES
    raw = BloomFilter.create(100).add_many([1, 2, 3]).to_bytes()
    accepted = set()
    for oid in range(1, 10000):
        try:
            BloomFilter.from_bytes(_corrupt(raw, 12, "<I", oid))
            accepted.add(oid)
        except InvalidFilter:
            pass
    # the server's list: test_vectors.py holds it to test/vectors/keys.json
    assert accepted == VALID_KEY_TYPES
    assert BloomFilter.from_bytes(_corrupt(raw, 12, "<I", 1006)).key_type == 1006


def _scalable_raw():
    # prefix at 48 (expansion, fill divisor), sub-filter 0's header at 72
    return BloomFilter.create(1000, 0.01, expansion=2).add_many(
        range(1500)).to_bytes()


@pytest.mark.parametrize("offset,fmt,value", [
    (52, "<I", 2),              # fill divisor: 1 outside a running aggregate
    (52, "<I", 2**32 - 1),
    (52, "<I", 0),
    (72 + 12, "<I", 20),        # a sub-filter's key type: the top's records it
])
def test_scalable_validation_refuses(offset, fmt, value):
    raw = _scalable_raw()
    assert BloomFilter.from_bytes(raw).nhashes == 2
    with pytest.raises(InvalidFilter):
        BloomFilter.from_bytes(_corrupt(raw, offset, fmt, value))
    # the top's key type is the filter's
    assert BloomFilter.from_bytes(_corrupt(raw, 12, "<I", 20)).key_type == 20


def test_forged_scalable_cannot_grow_without_bound():
    # 1.3 read this (1.6 kB, divisor 2^32 - 1): add_many of 54,000 keys
    # allocated 785 MB, every key starting a sub-filter
    raw = BloomFilter.create(1000, 0.01, expansion=2).to_bytes()
    with pytest.raises(InvalidFilter, match="fill divisor"):
        BloomFilter.from_bytes(_corrupt(raw, 52, "<I", 2**32 - 1))


@pytest.mark.parametrize("offset,fmt,value,what", [
    (40, "<I", 9999, "key type"),       # no type
    (40, "<I", 22, "key type"),         # int2vector
    (16, "<Q", 5, "slots"),             # capacity past the 4 first slots
    (16, "<Q", 200_000_000, "slots"),   # 76 bytes grew to 590 MB in 1.3
])
def test_cuckoo_validation_refuses(offset, fmt, value, what):
    from pgbloomfilter import CuckooFilter
    raw = CuckooFilter.create(1, 0.01).to_bytes()
    assert len(raw) == 76
    assert CuckooFilter.from_bytes(_corrupt(raw, 16, "<Q", 4)).capacity == 4
    assert CuckooFilter.from_bytes(_corrupt(raw, 40, "<I", 20)).key_type == 20
    with pytest.raises(InvalidFilter, match=what):
        CuckooFilter.from_bytes(_corrupt(raw, offset, fmt, value))


def test_validation_refuses_lengths():
    raw = BloomFilter.create(100).to_bytes()
    for bad in (raw[:47], raw[:-1], raw + b"\0"):
        with pytest.raises(InvalidFilter):
            BloomFilter.from_bytes(bad)


def test_sizing_arguments():
    for cap, rate in ((0, 0.01), (-1, 0.01), (10, 0.0), (10, 1.0),
                      (10, 1e-11), (10, float("nan"))):
        with pytest.raises(ValueError):
            BloomFilter.create(cap, rate)
    with pytest.raises(_sizing.FilterTooLarge):
        BloomFilter.create(10_000_000_000, 0.01)


def test_sizing_matches_readme_table():
    # README "Sizing": (capacity, rate) -> k and size in bytes
    table = [(1000, 0.01, 6, 1328), (1_000_000, 0.1, 3, 633968),
             (1_000_000, 0.01, 7, 1267760), (1_000_000, 0.001, 9, 1969776)]
    for cap, rate, k, nbytes in table:
        nbits, got_k = _sizing.size(cap, rate)
        assert (got_k, nbits // 8 + 48) == (k, nbytes)


def test_numpy_batch_path_equals_scalar_path():
    np = pytest.importorskip("numpy")
    assert np is not None
    rng = random.Random(5)
    for cap, rate, seed in ((100, 0.01, 0), (5000, 0.01, 7),
                            (20000, 1e-10, 0), (3000, 0.3, 1)):
        members = [rng.getrandbits(63) - 2**62 for _ in range(cap)]
        bf = BloomFilter.create(cap, rate, seed).add_many(members)
        probes = members + [rng.getrandbits(64) - 2**63 for _ in range(20000)]
        # the filter records bigint keys: str keys are read as bigint,
        # fractional floats equal none (absent)
        probes += [str(m) for m in members[:3000]] + [i + 0.5 for i in
                                                      range(3000)]
        assert bf.contains_many(probes) == bf._contains_many_py(probes)
        assert bf.contains_many(probes) == [bf.contains(p) for p in probes]


def test_key_types_given_and_recorded():
    from pgbloomfilter import CuckooFilter, UnsupportedKey
    # names as bf_create's key_type takes them, or OIDs
    for name, oid in (("bigint", 20), ("int8", 20), ("Integer", 23),
                      ("timestamp with time zone", 1184), ("timestamptz", 1184),
                      ("bigint[]", 1016), ("text[]", 1009), (25, 25), (None, 0)):
        assert BloomFilter.create(10, key_type=name).key_type == oid, name
    with pytest.raises(ValueError):
        BloomFilter.create(10, key_type="citext")
    with pytest.raises(ValueError):
        BloomFilter.create(10, key_type=10000)
    for oid in (9999, 22, 3802):            # no type; int2vector; jsonb
        with pytest.raises(ValueError):
            BloomFilter.create(10, key_type=oid)
    assert BloomFilter.create(10, key_type=790).key_type == 790    # money
    # the first key records its type; a failed add records nothing
    assert BloomFilter.create(10).add(2 ** 70).key_type_name == "numeric"
    assert BloomFilter.create(10).add([[None, "a"]]).key_type_name == "text[]"
    for bad in ([], [None], object()):
        f = BloomFilter.create(10)
        with pytest.raises(TypeError):
            f.add(bad)
        assert f.key_type == 0 and f.bits_set == 0
    c = CuckooFilter.create(10, 0.01)
    assert not c.delete(5) and c.key_type == 0      # deletes record nothing
    assert c.add_nx(5) and c.key_type == 20
    # with_key_type: any for an untyped filter, integers among themselves
    f = BloomFilter.create(10, key_type="bigint").add(5)
    assert f.with_key_type("smallint").key_type == 21
    with pytest.raises(ValueError):
        f.with_key_type("text")
    legacy = BloomFilter.from_bytes(f.to_bytes()[:12] + bytes(4)
                                    + f.to_bytes()[16:])
    assert legacy.key_type == 0 and legacy.add("x").key_type == 0
    assert legacy.with_key_type("integer").contains("5")
    # arrays convert no element; hash id 1 converts only str and int keys
    arr = BloomFilter.create(10).add([1, 2])
    assert arr.contains([1, 2]) and not arr.contains([2, 1])
    with pytest.raises(UnsupportedKey):
        arr.contains(["1", "2"])
    one = BloomFilter.create(10, hash_id=1, key_type="bigint").add(5)
    assert one.contains("5")
    with pytest.raises(UnsupportedKey):
        one.contains(5.0)
    # floats beyond 2^63 equal no integer; from 2^53 several: refused
    assert not f.contains(1e20)
    with pytest.raises(UnsupportedKey):
        f.contains(2.0 ** 60)


def _redisbloom_raw(entries=1, size=0, growth=2):
    # bf_create(1, 0.01, expansion => 2, layout => 'redisbloom'): 129 bytes,
    # one 8-byte link for 1 entry at 0.005 (docs/format.md, layout 6)
    import math
    err = 0.005
    bpe = abs(math.log(err) / 0.480453013918201)
    link = struct.pack("<QQQddIQB", 8, 64, size, err, bpe,
                       math.ceil(0.693147180559945 * bpe), entries, 0)
    chain = struct.pack("<QIII", size, 1, 5, growth)
    head = struct.pack("<4sBBBBIIQQdQ", b"BLMF", 1, 6, 4, 1, 0, 0, 64,
                       entries, err / 0.5, 0)
    return head + chain + link + bytes(8)


def _guava_raw(nbits=9600, k=7):
    head = struct.pack("<4sBBBBIIQQdQ", b"BLMF", 1, 5, 3, k, 0, 20, nbits,
                       1000, 0.01, 0)
    return head + bytes(9600 // 8)


def test_layouts_5_and_6_genuine_values_load():
    for raw, cls in ((_redisbloom_raw(), pgbloomfilter.RedisBloomFilter),
                     (_guava_raw(), pgbloomfilter.GuavaBloomFilter)):
        f = pgbloomfilter.load(raw)
        assert isinstance(f, cls) and f.to_bytes() == raw
        assert cls.from_bytes(raw).to_bytes() == raw
        assert 42 not in f and 42 in f.add(42)
    # a subclass reads its own layout only
    with pytest.raises(InvalidFilter, match="not GuavaBloomFilter"):
        pgbloomfilter.GuavaBloomFilter.from_bytes(_redisbloom_raw())
    with pytest.raises(InvalidFilter, match="not RedisBloomFilter"):
        pgbloomfilter.RedisBloomFilter.from_bytes(BloomFilter.create(10)
                                                  .to_bytes())


@pytest.mark.parametrize("raw", [
    _redisbloom_raw(250_000_000, 250_000_000),      # issue 32, item 7
    _redisbloom_raw(10**15, 10**15),                # item 8 (Rust aborted)
    _redisbloom_raw(growth=500_000_000),
    _redisbloom_raw(growth=2**32 - 1),
    _guava_raw(nbits=2**60, k=255),
] + [_corrupt(_redisbloom_raw(), at, "<Q", 2**64 - 1) for at in range(48, 121)])
def test_layouts_5_and_6_forged_values_refused(raw):
    # every such value is refused at once, never grown or crashed on
    with pytest.raises(InvalidFilter):
        pgbloomfilter.load(raw)
    with pytest.raises(InvalidFilter):
        BloomFilter.from_bytes(raw)
