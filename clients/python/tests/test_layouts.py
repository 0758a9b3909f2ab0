"""Layouts 5 (Guava) and 6 (RedisBloom) against the server, from generated
parameter sets and keys: every check and count equals the server's, local
builds and adds are byte-identical to bf_create, bf_add_all and bf_add,
creators refuse what bf_create refuses, and forged values (every header,
chain and link field rewritten) are refused by the client exactly when
the server's input refuses them.

The generator's seed is PGBLOOMFILTER_TEST_SEED (default below); every
failure names the case it was generated for."""

import hashlib
import math
import os
import random
import struct

import psycopg
import pytest

from pgbloomfilter import (BloomFilter, FilterTooLarge, GuavaBloomFilter,
                           InvalidFilter, RedisBloomFilter, load)
from pgbloomfilter._keys import UnsupportedKey
from test_server import _keys

SEED = int(os.environ.get("PGBLOOMFILTER_TEST_SEED", "20261207"))

GUAVA_TYPES = ("bigint", "integer", "text", "bytea")
REDIS_TYPES = ("bigint", "integer", "smallint", "text", "varchar", "bpchar",
               "bytea")


def _rng(*salt):
    return random.Random("%d %r" % (SEED, salt))


def _log_uniform(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def _gen_keys(sqltype, rng, n):
    """n distinct keys of an SQL type, as Python values."""
    if sqltype == "integer":
        return list({rng.randrange(-2**31, 2**31) for _ in range(n)})[:n]
    if sqltype == "smallint":
        return rng.sample(range(-2**15, 2**15), min(n, 2**16))
    if sqltype == "bpchar":
        # char(n) keys lose their trailing blanks: keep the keys distinct
        # after that, and give some of them blanks
        keys = {k.rstrip(" ") for k in _keys("text", rng, n)}
        return [k + " " * rng.choice((0, 0, 2)) for k in keys]
    base = {"bigint": "int", "text": "text", "varchar": "text",
            "bytea": "bytea"}[sqltype]
    return _keys(base, rng, n)


def _sqlstate(exc):
    """The SQLSTATE class a local exception stands for."""
    if isinstance(exc, InvalidFilter):
        return "22P03"
    if isinstance(exc, FilterTooLarge):
        return "54000"
    if isinstance(exc, TypeError):          # UnsupportedKey
        return "42804/0A000"
    if isinstance(exc, ValueError):
        return "22"
    raise exc


def _same_state(local, server):
    if local == server or (local == "22" and server.startswith("22")):
        return True
    return local == "42804/0A000" and server in ("42804", "0A000")


def _server(conn, query, params):
    """(True, row) or (False, sqlstate)."""
    try:
        with conn.transaction():
            return True, conn.execute(query, params, binary=True).fetchone()
    except psycopg.Error as e:
        return False, e.sqlstate


def _local(fn):
    try:
        return True, fn()
    except (ValueError, TypeError) as e:
        return False, _sqlstate(e)


def _agree(conn, query, params, fn, case):
    """The server's one-column answer to query and the client's fn(): the
    same value, or errors of the same class."""
    ok, want = _server(conn, query, params)
    got_ok, got = _local(fn)
    if ok and isinstance(want[0], memoryview):
        want = (bytes(want[0]),)
    assert ok == got_ok and (got == want[0] if ok
                             else _same_state(got, want)), (case, want, got)


def _compare_answers(conn, raw, sqltype, probes, case):
    """contains_many and count of the value read locally against
    bf_contains and bf_count of the server."""
    f = load(raw)
    row = conn.execute(
        "SELECT array_agg(bf_contains(f, k) ORDER BY o), "
        "array_agg(bf_count(f, k) ORDER BY o) FROM "
        "(SELECT %%s::bytea::bloomfilter AS f) v, "
        "unnest(%%s::%s[]) WITH ORDINALITY AS u(k, o)" % sqltype,
        (raw, probes), binary=True).fetchone()
    got = f.contains_many(probes)
    bad = [p for p, a, b in zip(probes, got, row[0]) if a != b]
    assert not bad, "%s: %d answers differ, first %r" % (case, len(bad), bad[0])
    assert [f.contains(p) for p in probes[:300]] == row[0][:300], case
    assert [f.count(p) for p in probes[:300]] == row[1][:300], case
    return f


# ---- Guava (layout 5) ----

def _guava_cases():
    rng = _rng("guava")
    for i in range(10):
        sqltype = GUAVA_TYPES[i % len(GUAVA_TYPES)]
        cap = int(_log_uniform(rng, 1, 5000))
        rate = _log_uniform(rng, 1e-9, 0.3)
        fill = rng.choice((0.0, 0.5, 1.0, 3.0))
        yield i, sqltype, cap, rate, fill


@pytest.mark.parametrize("i,sqltype,cap,rate,fill", list(_guava_cases()))
def test_guava_matches_server(conn, i, sqltype, cap, rate, fill):
    case = "guava case %d: %s keys, bf_create(%d, %r), fill %g" % (
        i, sqltype, cap, rate, fill)
    rng = _rng("guava keys", i)
    keys = _gen_keys(sqltype, rng, int(cap * fill) + 1000)
    members, outsiders = keys[:int(cap * fill)], keys[int(cap * fill):]
    half = len(members) // 2
    create = ("bf_create(%%(c)s, %%(r)s, layout => 'guava', key_type => "
              "'%s')" % sqltype)
    raw, full, one = conn.execute(
        "WITH f AS (SELECT bf_add_all(%s, %%(a)s::%s[]) AS f) "
        "SELECT f::bytea, bf_add_all(f, %%(b)s::%s[])::bytea, "
        "bf_add(f, (%%(b)s::%s[])[1])::bytea FROM f"
        % (create, sqltype, sqltype, sqltype),
        {"c": cap, "r": rate, "a": members[:half], "b": members[half:] or
         outsiders[:1]}, binary=True).fetchone()
    raw, full, one = bytes(raw), bytes(full), bytes(one)
    # built here: the same bytes
    local = GuavaBloomFilter.create(cap, rate, key_type=sqltype)
    assert BloomFilter.create(cap, rate, layout="guava",
                              key_type=sqltype).to_bytes() == local.to_bytes()
    assert local.add_many(members[:half]).to_bytes() == raw, case
    # added to here: the server's bf_add_all and bf_add
    more = members[half:] or outsiders[:1]
    assert load(raw).add(more[0]).to_bytes() == one, case
    grown = load(raw).add_many(more)
    assert grown.to_bytes() == full, case
    f = _compare_answers(conn, full, sqltype, members + outsiders, case)
    assert isinstance(f, GuavaBloomFilter) and f.to_bytes() == full
    # Guava's own bytes, both ways
    to_guava = conn.execute("SELECT bf_to_guava(%s::bytea::bloomfilter)",
                            (full,), binary=True).fetchone()[0]
    assert f.to_guava() == bytes(to_guava), case
    back = conn.execute("SELECT bf_from_guava(%%s, '%s')::bytea" % sqltype,
                        (f.to_guava(),), binary=True).fetchone()[0]
    assert GuavaBloomFilter.from_guava(f.to_guava(), sqltype).to_bytes() \
        == bytes(back), case


def test_guava_union_and_intersection_match_server(conn):
    rng = _rng("guava union")
    for sqltype in GUAVA_TYPES:
        cap = int(_log_uniform(rng, 10, 3000))
        keys = _gen_keys(sqltype, rng, cap * 2)
        a, b, u, x = (bytes(v) for v in conn.execute(
            "WITH f AS (SELECT bf_add_all(bf_create(%%(c)s, 0.01, layout => "
            "'guava', key_type => '%s'), %%(a)s::%s[]) AS a, "
            "bf_add_all(bf_create(%%(c)s, 0.01, layout => 'guava', key_type "
            "=> '%s'), %%(b)s::%s[]) AS b) SELECT a::bytea, b::bytea, "
            "bf_union(a, b)::bytea, bf_intersect(a, b)::bytea FROM f"
            % ((sqltype,) * 4), {"c": cap, "a": keys[:cap * 3 // 2],
                                 "b": keys[cap // 2:]}, binary=True).fetchone())
        fa, fb = load(a), load(b)
        assert (fa | fb).to_bytes() == u and (fa & fb).to_bytes() == x, sqltype
    # another shape, or another funnel (the server: 22000, 42804)
    for other in (GuavaBloomFilter.create(cap + 1000, 0.01, key_type=sqltype),
                  GuavaBloomFilter.create(cap, 0.01, key_type="integer")):
        with pytest.raises(ValueError):
            fa.union(other)


def test_guava_sizing_and_refusals_match_bf_create(conn):
    """bf_create(n, p, layout => 'guava') for generated n and p, from 0
    bits to more than 255 hash functions and past the size limit: the
    same bytes, or the same refusal."""
    rng = _rng("guava sizing")
    cases = []
    while len(cases) < 150:
        n = int(_log_uniform(rng, 1, 10**6))
        p = _log_uniform(rng, 1e-90, 0.99)
        # values up to 1 MB (and rates too low for 255 hash functions)
        if n * -math.log(p) / 0.48 < 8e6 or p < 1e-77:
            cases.append((n, p))
    cases += [(1, 0.9), (1000, 1e-80), (10**11, 0.01), (0, 0.01), (5, 0.0),
              (5, 1.0)]
    for n, p in cases:
        _agree(conn, "SELECT bf_create(%s, %s, layout => 'guava', key_type "
               "=> 'bigint')::bytea", (n, p), lambda: GuavaBloomFilter.create(
                   n, p, key_type="bigint").to_bytes(), (n, p))
    for args in (dict(key_type=None), dict(key_type="uuid"),
                 dict(key_type="bigint", seed=1),
                 dict(key_type="bigint", counting=True),
                 dict(key_type="bigint", expansion=2)):
        with pytest.raises(ValueError):
            BloomFilter.create(100, 0.01, layout="guava", **args)


def test_guava_probes_convert_as_the_server(conn):
    """Probes of other types than a Guava filter's key type: converted,
    absent or refused as the server does (an integer filter and a bigint
    beyond its range, whole floats, strings read by the key type's input,
    text in a bytea filter...)."""
    rng = _rng("guava probes")
    probes = [0, 7, -1, 2**31, -2**31 - 1, 2**40, 2**63 - 1, "7", " 7 ",
              "x", 7.0, 7.5, b"\x07", "\\x07", "é", "abc"]
    for sqltype, member in (("bigint", 7), ("integer", 7), ("text", "7"),
                            ("bytea", b"\x07"), ("text", "é")):
        raw = conn.execute(
            "SELECT bf_add(bf_create(100, 0.01, layout => 'guava', key_type "
            "=> '%s'), %%s::%s)::bytea" % (sqltype, sqltype),
            (member,)).fetchone()[0]
        f = load(bytes(raw))
        for p in probes + [rng.randrange(-2**63, 2**63)]:
            cast = "::text" if isinstance(p, str) else ""
            _agree(conn, "SELECT bf_contains(%%s::bytea::bloomfilter, %%s%s)"
                   % cast, (bytes(raw), p), lambda: f.contains(p),
                   (sqltype, p))


# ---- RedisBloom (layout 6) ----

def _redis_cases():
    rng = _rng("redisbloom")
    for i in range(14):
        sqltype = REDIS_TYPES[i % len(REDIS_TYPES)]
        cap = int(_log_uniform(rng, 1, 3000))
        rate = _log_uniform(rng, 1e-12, 0.9)
        expansion = rng.choice((0, 1, 2, 2, 3, 4, 1024))
        # past the capacity: several links, or NONSCALING's refusal
        n = min(int(cap * rng.choice((0.5, 1.0, 3.0, 12.0))) + 1, 6000)
        yield i, sqltype, cap, rate, expansion, n


@pytest.mark.parametrize("i,sqltype,cap,rate,expansion,n",
                         list(_redis_cases()))
def test_redisbloom_matches_server(conn, i, sqltype, cap, rate, expansion, n):
    case = "redisbloom case %d: %s keys, bf_create(%d, %r, expansion => %d), " \
        "%d adds" % (i, sqltype, cap, rate, expansion, n)
    rng = _rng("redisbloom keys", i)
    keys = _gen_keys(sqltype, rng, n + 1000)
    members, outsiders = keys[:n], keys[n:]
    # members twice: a key present is not added again, nor counted
    members = members + rng.sample(members, len(members) // 4)
    create = ("bf_create(%%(c)s, %%(r)s, expansion => %%(e)s, key_type => "
              "'%s', layout => 'redisbloom')" % sqltype)
    params = {"c": cap, "r": rate, "e": expansion}
    ok, empty = _server(conn, "SELECT %s::bytea" % create, params)
    got_ok, local = _local(lambda: RedisBloomFilter.create(
        cap, rate, expansion=expansion, key_type=sqltype))
    assert ok == got_ok, (case, empty, local)
    if not ok:
        assert _same_state(local, empty), case
        return
    assert local.to_bytes() == bytes(empty[0]), case
    ok, row = _server(conn, "SELECT bf_add_all(%s, %%(m)s::%s[])::bytea"
                      % (create, sqltype), {**params, "m": members})
    got_ok, got = _local(lambda: local.add_many(members).to_bytes())
    assert ok == got_ok, (case, row, got)
    if not ok:
        # NONSCALING past its capacity, 64 links or the size limit
        assert _same_state(got, row), (case, row, got)
        return
    raw = bytes(row[0])
    assert got == raw, case
    f = _compare_answers(conn, raw, sqltype, members + outsiders, case)
    assert isinstance(f, RedisBloomFilter) and f.to_bytes() == raw
    assert f.items == conn.execute(
        "SELECT (bf_info(%s::bytea::bloomfilter)->>'items')::bigint",
        (raw,)).fetchone()[0], case
    # one more add, here and there: the next key of the generator
    extra = outsiders[0]
    _agree(conn, "SELECT bf_add(%%s::bytea::bloomfilter, %%s::%s)::bytea"
           % sqltype, (raw, extra), lambda: load(raw).add(extra).to_bytes(),
           case)


def test_redisbloom_union_matches_server(conn):
    """bf_union of chains of one request, of as many links or fewer, in
    both orders (the server unions into the longer)."""
    rng = _rng("redisbloom union")
    for sqltype in ("bigint", "text", "bytea"):
        cap = int(_log_uniform(rng, 1, 500))
        e = rng.choice((1, 2, 4))
        keys = _gen_keys(sqltype, rng, cap * 12)
        split = rng.randrange(len(keys))
        a, b, ab, ba = (bytes(v) for v in conn.execute(
            "WITH f AS (SELECT bf_add_all(bf_create(%%(c)s, 0.01, expansion "
            "=> %%(e)s, layout => 'redisbloom'), %%(a)s::%s[]) AS a, "
            "bf_add_all(bf_create(%%(c)s, 0.01, expansion => %%(e)s, layout "
            "=> 'redisbloom'), %%(b)s::%s[]) AS b) SELECT a::bytea, b::bytea, "
            "bf_union(a, b)::bytea, bf_union(b, a)::bytea FROM f"
            % (sqltype, sqltype), {"c": cap, "e": e, "a": keys[:split],
                                   "b": keys[split:]}, binary=True).fetchone())
        fa, fb = load(a), load(b)
        assert (fa | fb).to_bytes() == ab and (fb | fa).to_bytes() == ba, \
            (sqltype, cap, e, split)
    with pytest.raises(ValueError):
        fa.union(RedisBloomFilter.create(cap + 1, 0.01, expansion=e))
    with pytest.raises(ValueError):
        fa.union(RedisBloomFilter.create(cap, 0.01, expansion=e + 1))


def test_redisbloom_creator_refuses_as_bf_create(conn):
    rng = _rng("redisbloom create")
    cases = []
    while len(cases) < 60:
        n = int(_log_uniform(rng, 1, 10**6))
        p = _log_uniform(rng, 1e-300, 1)
        if n * -math.log(p) / 0.48 < 8e6:       # values up to 1 MB
            cases.append((n, p, rng.choice((0, 1, 2, 1024))))
    cases += [(0, 0.01, 2), (1, 0.0, 2), (1, 1.0, 2), (1, 0.5, -1),
              (1, 0.5, 1025), (10**13, 1e-10, 0), (1, 0.999999999, 0)]
    for n, p, e in cases:
        _agree(conn, "SELECT bf_create(%s, %s, expansion => %s, layout => "
               "'redisbloom')::bytea", (n, p, e), lambda: BloomFilter.create(
                   n, p, expansion=e, layout="redisbloom").to_bytes(),
               (n, p, e))
    for args in (dict(seed=3), dict(counting=True), dict(key_type="uuid"),
                 dict(key_type="numeric")):
        with pytest.raises(ValueError):
            RedisBloomFilter.create(100, 0.01, **args)


def test_redisbloom_untyped_and_probes_of_other_types(conn):
    """An untyped chain records its first key's type, as bf_add does; keys
    of types RedisBloom cannot hold are refused as the server refuses
    them; probes convert to the key type (2.0 finds the bigint 2)."""
    for first, cast in ((5, "::bigint"), ("five", "::text"), (b"5", "::bytea")):
        raw = conn.execute("SELECT bf_add(bf_create(10, 0.01, expansion => 2,"
                           " layout => 'redisbloom'), %%s%s)::bytea" % cast,
                           (first,)).fetchone()[0]
        local = BloomFilter.create(10, 0.01, expansion=2, layout="redisbloom")
        assert local.add(first).to_bytes() == bytes(raw)
    empty = RedisBloomFilter.create(10, 0.01, expansion=2)
    for bad in (1.5, True, 2**70, [1]):
        with pytest.raises(UnsupportedKey):
            empty.add(bad)
        assert empty.key_type == 0 and empty.bits_set == 0
    raw = bytes(conn.execute(
        "SELECT bf_add_all(bf_create(10, 0.01, expansion => 2, key_type => "
        "'bigint', layout => 'redisbloom'), ARRAY[2, -7, 2000000])::bytea"
        ).fetchone()[0])
    # the same chain untyped (as bf_from_redisbloom without a key type
    # makes it): probes hash as what their own type sends
    untyped = raw[:12] + bytes(4) + raw[16:]
    probes = (2, 3, -7, 2.0, 2.5, "2", "-7", " 2", "x", b"2", b"-7", 2**40,
              2**70, True, 2000000)
    for value in (raw, untyped):
        f = load(value)
        for p in probes:
            cast = "::text" if isinstance(p, str) else ""
            _agree(conn, "SELECT bf_contains(%%s::bytea::bloomfilter, %%s%s)"
                   % cast, (value, p), lambda: f.contains(p), (value[12], p))


# ---- forged values: refused exactly where the server refuses them ----

INPUT_STATES = """
CREATE FUNCTION pg_temp.bf_input_states(vals bytea[], keys bigint[])
RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
    out text[] := '{}';
    v bytea;
BEGIN
    FOREACH v IN ARRAY vals LOOP
        BEGIN
            out := out || md5(bf_add_all(v::bloomfilter, keys)::bytea);
        EXCEPTION WHEN others THEN
            out := out || SQLSTATE::text;
        END;
    END LOOP;
    RETURN out;
END $$"""

# field name -> (offset, struct format); links' fields are at 68 + 53 i
HEADER_FIELDS = {"magic": (0, "<I"), "version": (4, "<B"), "layout": (5, "<B"),
                 "hash_id": (6, "<B"), "k": (7, "<B"), "seed": (8, "<I"),
                 "key_type": (12, "<I"), "nbits": (16, "<Q"),
                 "capacity": (24, "<Q"), "error_rate": (32, "<d"),
                 "bits_set": (40, "<Q")}
CHAIN_FIELDS = {"size": (48, "<Q"), "nfilters": (56, "<I"),
                "options": (60, "<I"), "growth": (64, "<I")}
LINK_FIELDS = {"bytes": (0, "<Q"), "bits": (8, "<Q"), "size": (16, "<Q"),
               "error": (24, "<d"), "bpe": (32, "<d"), "hashes": (40, "<I"),
               "entries": (44, "<Q"), "n2": (52, "<B")}


def _get(b, at, fmt):
    return struct.unpack_from(fmt, b, at)[0]


def _put(b, at, fmt, v):
    b = bytearray(b)
    struct.pack_into(fmt, b, at, v)
    return bytes(b)


def _replacements(rng, fmt, v):
    """Values a forger might write over v: neighbours, multiples, extremes
    and random ones, each within the field's type."""
    if fmt == "<d":
        out = [v * 2, v / 2, v * (1 + 1e-12), -v, 0.0, 1.0, float("nan"),
               float("inf"), rng.random()]
        return out
    top = (1 << (8 * struct.calcsize(fmt))) - 1
    out = {0, 1, 2, v + 1, v - 1, v * 2, v // 2, v * 1000, top, top // 2,
           250_000_000, 10**15, rng.randrange(top + 1)}
    return sorted(x for x in out if 0 <= x <= top and x != v)


def _consistent(b):
    """The derived fields of a chain made to agree, as a forger would:
    each link's hashes from its bpe, the chain's size the links' sum, the
    header's capacity and rate link 0's, bits set the bits'."""
    n = _get(b, 56, "<I")
    if not 1 <= n <= 64 or len(b) < 68 + 53 * n:
        return b
    total = 0
    for i in range(n):
        at = 68 + 53 * i
        bpe = _get(b, at + 32, "<d")
        if math.isfinite(bpe) and 0 < bpe < 1e6:
            b = _put(b, at + 40, "<I", math.ceil(0.693147180559945 * bpe))
        total = (total + _get(b, at + 16, "<Q")) % 2**64
    b = _put(b, 48, "<Q", total)
    b = _put(b, 24, "<Q", _get(b, 68 + 44, "<Q"))
    e0 = _get(b, 68 + 24, "<d")
    b = _put(b, 32, "<d", e0 if _get(b, 60, "<I") & 8 else e0 / 0.5)
    bits = int.from_bytes(b[68 + 53 * n:], "little").bit_count()
    return _put(b, 40, "<Q", bits)


def _forgeries(rng, raw):
    out = []
    fields = dict(HEADER_FIELDS)
    if raw[5] == 6:
        fields.update(CHAIN_FIELDS)
        for i in range(raw[7]):
            for name, (at, fmt) in LINK_FIELDS.items():
                fields["link%d.%s" % (i, name)] = (68 + 53 * i + at, fmt)
    for name, (at, fmt) in fields.items():
        for v in _replacements(rng, fmt, _get(raw, at, fmt)):
            forged = _put(raw, at, fmt, v)
            out.append((name, v, forged))
            if raw[5] == 6:
                out.append((name + " (consistent)", v, _consistent(forged)))
    out.append(("truncated", None, raw[:-1]))
    out.append(("one more byte", None, raw + b"\0"))
    return out


def _local_state(raw, keys):
    try:
        return hashlib.md5(BloomFilter.from_bytes(raw).add_many(keys)
                           .to_bytes()).hexdigest()
    except (ValueError, TypeError) as e:
        return _sqlstate(e)


def _genuine(conn):
    """Generated genuine values of both layouts (bigint keys)."""
    rng = _rng("genuine")
    out = []
    for i in range(3):
        cap = int(_log_uniform(rng, 1, 2000))
        raw = conn.execute(
            "SELECT bf_add_all(bf_create(%s, %s, layout => 'guava', key_type "
            "=> 'bigint'), %s::bigint[])::bytea",
            (cap, _log_uniform(rng, 1e-6, 0.2),
             _keys("int", rng, cap // 2))).fetchone()[0]
        out.append(bytes(raw))
    for i in range(5):
        e = (0, 1, 2, 4, 1024)[i]
        cap = int(_log_uniform(rng, 1, 300 if e < 1024 else 10))
        raw = conn.execute(
            "SELECT bf_add_all(bf_create(%s, %s, expansion => %s, layout => "
            "'redisbloom'), %s::bigint[])::bytea",
            (cap, _log_uniform(rng, 1e-8, 0.5), e,
             _keys("int", rng, cap if e == 0 else cap * 5))).fetchone()[0]
        out.append(bytes(raw))
    return out


def test_forged_values_refused_exactly_as_the_server(conn):
    conn.execute(INPUT_STATES)
    rng = _rng("forged")
    cases = 0
    for raw in _genuine(conn):
        keys = _keys("int", rng, 3)
        forged = _forgeries(rng, raw)
        values = [raw] + [f for _, _, f in forged]
        want = conn.execute("SELECT pg_temp.bf_input_states(%s, %s)",
                            (values, keys)).fetchone()[0]
        assert want[0] == _local_state(raw, keys)
        for (name, v, f), w in zip(forged, want[1:]):
            got = _local_state(f, keys)
            assert got == w or (len(w) == 5 and _same_state(got, w)), \
                "layout %d, %s = %r: server %s, client %s" % (
                    raw[5], name, v, w, got)
            cases += 1
    assert cases > 1500, cases


def test_growth_past_the_limit_raises_before_allocating(conn):
    """A genuine chain whose link is full (size = entries, which input
    allows) and whose next link would pass the size limit: the server's
    add fails with 54000, the client's with FilterTooLarge, at once."""
    raw = bytes(conn.execute(
        "SELECT bf_create(700000, 0.01, expansion => 1024, layout => "
        "'redisbloom')::bytea").fetchone()[0])
    entries = _get(raw, 68 + 44, "<Q")
    full = _put(_put(raw, 68 + 16, "<Q", entries), 48, "<Q", entries)
    ok, state = _server(conn, "SELECT bf_add(%s::bytea::bloomfilter, 1)",
                        (full,))
    assert not ok and state == "54000"
    f = load(full)
    with pytest.raises(FilterTooLarge, match="cannot grow any further"):
        f.add(1)
    assert f.to_bytes() == full         # the failed add recorded nothing
    # NONSCALING, full: Redis's "non scaling filter is full"
    raw = bytes(conn.execute("SELECT bf_create(5, 0.01, layout => "
                             "'redisbloom')::bytea").fetchone()[0])
    full = _put(_put(raw, 68 + 16, "<Q", 5), 48, "<Q", 5)
    assert _server(conn, "SELECT bf_add(%s::bytea::bloomfilter, 1)",
                   (full,)) == (False, "54000")
    with pytest.raises(FilterTooLarge, match="non scaling"):
        load(full).add(1)


# ---- the adapter and other encodings ----

def test_adapter_loads_and_sends_both_layouts(conn):
    for expr, cls in (("bf_add(bf_create(100, 0.01, layout => 'guava', "
                       "key_type => 'text'), 'a')", GuavaBloomFilter),
                      ("bf_add(bf_create(100, 0.01, expansion => 2, layout => "
                       "'redisbloom'), 'a'::text)", RedisBloomFilter)):
        for binary in (False, True):
            f = conn.execute("SELECT " + expr, binary=binary).fetchone()[0]
            assert isinstance(f, cls) and "a" in f and "b" not in f
        f.add("b")
        assert conn.execute("SELECT bf_contains(%s, 'b'::text), %s::bytea",
                            (f, f)).fetchone() == (True, f.to_bytes())


def test_text_keys_in_other_encodings(encoding_dsns):
    """Guava: ASCII text keys anywhere, other text only in UTF8; RedisBloom:
    text keys only in UTF8, bytea keys anywhere, as the server."""
    for enc, dsn in encoding_dsns.items():
        with psycopg.connect(dsn, autocommit=True) as c:
            for layout, sqltype, key in (
                    ("guava", "text", "plain"), ("guava", "text", "é"),
                    ("redisbloom", "text", "plain"),
                    ("redisbloom", "bytea", b"\xc3\xa9")):
                create = ("bf_create(10, 0.01, layout => '%s', key_type => "
                          "'%s')" % (layout, sqltype))
                raw = bytes(c.execute("SELECT %s::bytea" % create).fetchone()[0])
                local = BloomFilter.from_bytes(raw, enc)
                _agree(c, "SELECT bf_add(%%s::bytea::bloomfilter, %%s::%s)"
                       "::bytea" % sqltype, (raw, key),
                       lambda: local.add(key).to_bytes(), (enc, layout, key))
