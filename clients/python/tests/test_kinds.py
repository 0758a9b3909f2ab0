"""Against the server: counting, scalable and cuckoo filters, keys of every
type, typed filters, shards and threads.  For every kind, several shapes,
seeds and key types: local answers equal the server's for 100,000 members
and 100,000 non-members, and locally built filters are byte-identical to
server-built ones."""

import datetime as dt
import decimal
import ipaddress
import random
import struct
import threading
import uuid

import psycopg
import pytest

from pgbloomfilter import (BloomFilter, CountingBloomFilter, CuckooFilter,
                           HashListFilter, ScalableBloomFilter, load, shard)
from pgbloomfilter._keys import UnsupportedKey
from test_server import N, SQL_TYPE, members_and_outsiders


def server_answers(conn, expr, fn, kind, members, probes, extra=""):
    """(bytes of the filter expr(members), [fn(f, p) for p in probes])."""
    t = SQL_TYPE[kind]
    row = conn.execute(
        "WITH f AS (SELECT %s AS f) SELECT (SELECT f::bytea FROM f), "
        "(SELECT array_agg(%s(f.f, k) ORDER BY o) FROM f, "
        "unnest(%%(p)s::%s[]) WITH ORDINALITY AS u(k, o))" % (expr, fn, t),
        {"m": members, "p": probes, **(extra or {})}, binary=True).fetchone()
    return bytes(row[0]), row[1]


def assert_same(local, server, probes):
    bad = [i for i, (a, b) in enumerate(zip(local, server)) if a != b]
    assert not bad, "%d answers differ, first key %r" % (len(bad),
                                                         probes[bad[0]])


COUNTING = [(100000, 0.01, 0, "int"), (20000, 0.001, 7, "text"),
            (50000, 0.05, 4294967295, "uuid")]


@pytest.mark.parametrize("cap,rate,seed,kind", COUNTING)
def test_counting_matches_server(conn, cap, rate, seed, kind):
    members, outsiders = members_and_outsiders(kind)
    probes = members + outsiders
    expr = ("bf_add_all(bf_create(%%(c)s, %%(r)s, %%(s)s, counting => true), "
            "%%(m)s::%s[])" % SQL_TYPE[kind])
    raw, want = server_answers(conn, expr, "bf_contains", kind, members,
                               probes, {"c": cap, "r": rate, "s": seed})
    f = load(raw)
    assert isinstance(f, CountingBloomFilter)
    assert_same(f.contains_many(probes), want, probes)
    built = BloomFilter.create(cap, rate, seed, counting=True).add_many(members)
    assert built.to_bytes() == raw
    # counts and removal: bf_count and bf_remove_all of the first 1000
    few = members[:1000] + outsiders[:1000]
    counts = conn.execute("SELECT array_agg(bf_count(%%s::bytea::bloomfilter,"
                          " k) ORDER BY o) FROM unnest(%%s::%s[]) WITH "
                          "ORDINALITY u(k, o)" % SQL_TYPE[kind],
                          (raw, few)).fetchone()[0]
    assert [f.count(k) for k in few] == counts
    removed = conn.execute("SELECT bf_remove_all(%%s::bytea::bloomfilter, "
                           "%%s::%s[])::bytea" % SQL_TYPE[kind],
                           (raw, members[:1000])).fetchone()[0]
    for k in members[:1000]:
        assert built.remove(k)
    assert built.to_bytes() == bytes(removed)


SCALABLE = [(10000, 0.01, 0, 2, "int"), (1000, 0.001, 99, 4, "text"),
            (30000, 0.05, 1, 1, "bytea")]


@pytest.mark.parametrize("cap,rate,seed,expansion,kind", SCALABLE)
def test_scalable_matches_server(conn, cap, rate, seed, expansion, kind):
    members, outsiders = members_and_outsiders(kind)
    probes = members + outsiders
    expr = ("bf_add_all(bf_create(%%(c)s, %%(r)s, %%(s)s, expansion => "
            "%%(e)s), %%(m)s::%s[])" % SQL_TYPE[kind])
    raw, want = server_answers(conn, expr, "bf_contains", kind, members,
                               probes, {"c": cap, "r": rate, "s": seed,
                                        "e": expansion})
    f = load(raw)
    assert isinstance(f, ScalableBloomFilter) and len(f.subs) > 2
    assert_same(f.contains_many(probes), want, probes)
    assert f._contains_many_py(probes[:5000]) == want[:5000]
    built = BloomFilter.create(cap, rate, seed, expansion=expansion)
    assert built.add_many(members).to_bytes() == raw


@pytest.mark.parametrize("n,dup", [(30000, 1), (500, 3), (0, 1)])
def test_unsized_bf_agg_matches_server(conn, n, dup):
    """bf_agg(x) with no sizing in a serial plan keeps the hashes and
    builds a scalable filter sized for their estimated distinct count (at
    least 1000): HashListFilter(...).finish() gives the same bytes, with
    repeated keys too; the result answers as the server's."""
    members, outsiders = members_and_outsiders("int")
    keys = members[:n] * dup
    conn.execute("SET max_parallel_workers_per_gather = 0")
    raw = conn.execute("SELECT bf_agg(k ORDER BY o)::bytea FROM "
                       "unnest(%s::int8[]) WITH ORDINALITY u(k, o)",
                       (keys,)).fetchone()[0]
    conn.execute("RESET max_parallel_workers_per_gather")
    if n == 0:
        assert raw is None          # no rows: NULL, as every aggregate
        return
    f = load(raw)
    assert isinstance(f, ScalableBloomFilter)
    assert f.capacity >= 1000 and len(f.subs) == 1
    local = HashListFilter.create().add_many(keys).finish()
    assert local.to_bytes() == bytes(raw)
    probes = members[:n] + outsiders[:20000]
    assert f.contains_many(probes) == local.contains_many(probes)


def _partial_state(conn, keys):
    """bf_agg's partial state over the text keys in order: its transition
    function alone, as Citus's worker_partial_agg runs it."""
    conn.execute("CREATE OR REPLACE AGGREGATE bf_agg_partial(text) "
                 "(SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter)")
    return bytes(conn.execute(
        "SELECT bf_agg_partial(k ORDER BY o)::bytea FROM unnest(%s::text[]) "
        "WITH ORDINALITY u(k, o)", (keys,)).fetchone()[0])


def test_hash_list_partial_state_reads_as_the_server(conn):
    """Layout 4: bf_agg's partial state is read, answers contains/count as
    the server, and a local list of the same keys has its bytes; so do
    bf_add to it (the cells double), bf_union of two lists and the
    aggregate's final function."""
    members, outsiders = members_and_outsiders("text")
    few = members[:300] + members[:50]
    state = _partial_state(conn, few)
    f = load(state)
    assert isinstance(f, HashListFilter) and f.bits_set == len(few)
    assert f.key_type_name == "text"
    probes = members[:1000] + outsiders[:1000]
    want = conn.execute(
        "SELECT array_agg(bf_contains(%(f)s::bytea::bloomfilter, k) ORDER BY "
        "o), array_agg(bf_count(%(f)s::bytea::bloomfilter, k) ORDER BY o) "
        "FROM unnest(%(p)s::text[]) WITH ORDINALITY u(k, o)",
        {"f": state, "p": probes}).fetchone()
    assert f.contains_many(probes) == want[0]
    assert f._contains_many_py(probes) == want[0]
    assert [f.count(p) for p in probes] == want[1]
    assert HashListFilter.create().add_many(few).to_bytes() == state
    other = _partial_state(conn, members[300:1000])
    added, union, final = conn.execute(
        "SELECT bf_add(%(a)s::bytea::bloomfilter, 'x'::text)::bytea, "
        "bf_union(%(a)s::bytea::bloomfilter, %(b)s::bytea::bloomfilter)::bytea,"
        " bloomfilter_agg_final(%(a)s::bytea::bloomfilter)::bytea",
        {"a": state, "b": other}).fetchone()
    assert load(state).add("x").to_bytes() == bytes(added)
    assert (f | load(other)).to_bytes() == bytes(union)
    assert (load(other) | f).to_bytes() == bytes(union)
    assert f.finish().to_bytes() == bytes(final)


CUCKOO = [(100000, 0.01, 0, "int"), (150000, 0.1, 55, "text"),
          (20000, 0.001, 12345, "uuid"), (60000, 0.3, 0, "bytea")]


@pytest.mark.parametrize("cap,rate,seed,kind", CUCKOO)
def test_cuckoo_matches_server(conn, cap, rate, seed, kind):
    members, outsiders = members_and_outsiders(kind)
    probes = members + outsiders
    expr = "cf_add_all(cf_create(%%(c)s, %%(r)s, %%(s)s), %%(m)s::%s[])" \
        % SQL_TYPE[kind]
    raw, want = server_answers(conn, expr, "cf_contains", kind, members,
                               probes, {"c": cap, "r": rate, "s": seed})
    f = load(raw)
    assert isinstance(f, CuckooFilter)
    assert_same(f.contains_many(probes), want, probes)
    built = CuckooFilter.create(cap, rate, seed).add_many(members)
    assert built.to_bytes() == raw       # kicks and growth (cap < N) too
    few = members[:2000] + outsiders[:2000]
    t = SQL_TYPE[kind]
    counts, deleted = conn.execute(
        "SELECT (SELECT array_agg(cf_count(%%(f)s::bytea::cuckoofilter, k) "
        "ORDER BY o) FROM unnest(%%(k)s::%s[]) WITH ORDINALITY u(k, o)), "
        "cf_delete_all(%%(f)s::bytea::cuckoofilter, %%(d)s::%s[])::bytea"
        % (t, t), {"f": raw, "k": few, "d": members[:3000]}).fetchone()
    assert [f.count(k) for k in few] == counts
    # a member matching sub-filters of two shapes is kept (both sides)
    removed = sum(built.delete(k) for k in members[:3000])
    assert removed >= 2900
    assert built.to_bytes() == bytes(deleted)
    assert conn.execute("SELECT cf_items(%s::bytea::cuckoofilter)",
                        (bytes(deleted),)).fetchone()[0] == built.items


def test_cuckoo_refuses_seeds_1_to_8(conn):
    """cf_create refuses seeds 1..8 (22023) and so does the client; stored
    values with such a seed (made by 1.2) still read."""
    for seed in (1, 8):
        with pytest.raises(ValueError, match="seed must not be between 1 and 8"):
            CuckooFilter.create(100, 0.01, seed)
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            conn.execute("SELECT cf_create(100, 0.01, %s)", (seed,))
        conn.rollback()
    f = CuckooFilter.create(100, 0.01, 9).add(1)
    raw = bytearray(f.to_bytes())
    raw[8:12] = (8).to_bytes(4, "little")       # the seed of a 1.2 value
    old = CuckooFilter.from_bytes(bytes(raw))
    assert old.seed == 8
    got = conn.execute("SELECT cf_contains(%s::bytea::cuckoofilter, k) FROM "
                       "unnest(ARRAY[1, 2, 3]::int8[]) k", (bytes(raw),)
                       ).fetchall()
    assert [old.contains(k) for k in (1, 2, 3)] == [r[0] for r in got]


# ---- keys of every type: local bytes equal the server's ----

def _key_values(rng):
    utc = dt.timezone.utc
    plus2 = dt.timezone(dt.timedelta(hours=2))
    return {
        "float8": [0.0, -0.0, 1.5, 2.0, -3.25, 1e20, 1e300, float("nan"),
                   float("inf"), float("-inf"), 2.0 ** 53 + 2]
        + [rng.uniform(-1e6, 1e6) for _ in range(500)],
        "numeric": [decimal.Decimal(x) for x in
                    ("0", "1.500", "-0.25", "2.00", "1e20", "NaN", "Infinity",
                     "-Infinity", "123456789012345678901234567890.1",
                     "0.000001", "-9223372036854775808", "9223372036854775808")]
        + [decimal.Decimal(rng.randrange(-10**9, 10**9)) / 1000 for _ in range(500)],
        "date": [dt.date(2000, 1, 1), dt.date(1, 1, 1), dt.date(9999, 12, 31)]
        + [dt.date(1970, 1, 1) + dt.timedelta(days=rng.randrange(40000))
           for _ in range(300)],
        "timestamp": [dt.datetime(2000, 1, 1), dt.datetime(1969, 7, 20, 20, 17)]
        + [dt.datetime(2020, 1, 1) + dt.timedelta(microseconds=rng.getrandbits(45))
           for _ in range(300)],
        "timestamptz": [dt.datetime(2000, 1, 1, tzinfo=utc),
                        dt.datetime(2021, 5, 5, 12, tzinfo=plus2)]
        + [dt.datetime(2020, 1, 1, tzinfo=utc) + dt.timedelta(
            microseconds=rng.getrandbits(45)) for _ in range(300)],
        "time": [dt.time(0), dt.time(23, 59, 59, 999999), dt.time(12, 30, 1, 5)],
        "timetz": [dt.time(10, tzinfo=plus2), dt.time(10, tzinfo=utc),
                   dt.time(1, 2, 3, tzinfo=dt.timezone(-dt.timedelta(hours=5)))],
        "interval": [dt.timedelta(days=1), dt.timedelta(hours=24),
                     dt.timedelta(microseconds=-5), dt.timedelta(days=-400)],
        "bool": [True, False],
        "inet": [ipaddress.ip_interface("10.1.2.3/8"),
                 ipaddress.ip_address("192.168.0.1"),
                 ipaddress.ip_interface("2001:db8::1/64")],
        "int8[]": [[1, 2, 3], [], [[1, 2], [3, 4]], [None, 5]],
        "text[]": [["a", "é"], ["x"], []],
    }


def test_key_types_hash_as_the_server(conn):
    rng = random.Random(21)
    for sqltype, values in _key_values(rng).items():
        raw = conn.execute("SELECT bf_add_all(bf_create(1000, 0.01), "
                           "ARRAY(SELECT x FROM unnest(%%s::%s[]) x))::bytea"
                           % sqltype if not sqltype.endswith("[]") else
                           "SELECT bf_add(bf_create(1000, 0.01), %%s::%s)::bytea"
                           % sqltype, (values,)).fetchone()[0] \
            if not sqltype.endswith("[]") else None
        if raw is None:
            for arr in values:
                raw = conn.execute("SELECT bf_add(bf_create(1000, 0.01), "
                                   "%%s::%s)::bytea" % sqltype,
                                   (arr,)).fetchone()[0]
                given = BloomFilter.create(1000, 0.01, key_type=sqltype)
                assert given.add(arr).to_bytes() == bytes(raw), (sqltype, arr)
                if arr:     # [] has no element to take the type from
                    assert BloomFilter.create(1000, 0.01).add(arr) \
                        .to_bytes() == bytes(raw), (sqltype, arr)
            continue
        # the first key's type is recorded, as the server records the
        # column's (timestamptz's offsets: all aware, so all timestamptz)
        local = BloomFilter.create(1000, 0.01).add_many(values)
        assert local.to_bytes() == bytes(raw), sqltype
        assert local.key_type_name == load(bytes(raw)).key_type_name


def test_record_keys_hash_as_the_server(conn):
    rows = [(1, "a"), (2, None), (-5, "é日本"), (2**40, "")]
    raw = conn.execute(
        "SELECT bf_add_all(bf_create(100, 0.01), ARRAY(SELECT ROW(a, b) FROM "
        "unnest(%s::int8[], %s::text[]) u(a, b)))::bytea",
        ([r[0] for r in rows], [r[1] for r in rows])).fetchone()[0]
    assert BloomFilter.create(100, 0.01).add_many(rows).to_bytes() == bytes(raw)


# ---- typed filters, as the server builds them ----

def _untyped(raw, offset=12):
    """The value with its key type zeroed: as made by 1.2 or earlier."""
    return raw[:offset] + bytes(4) + raw[offset + 4:]


def test_typed_int8_filter_reads_str_keys(conn):
    members, outsiders = members_and_outsiders("int")
    probes = members + outsiders
    raw, want = server_answers(conn, "bf_add_all(bf_create(100000, 0.01), "
                               "%(m)s::int8[])", "bf_contains", "int",
                               members, probes)
    typed = load(raw)
    untyped = load(_untyped(raw))
    assert typed.key_type == 20 and untyped.key_type == 0
    as_text = [str(k) for k in probes]
    assert_same(typed.contains_many(as_text), want, as_text)
    # untyped, a str hashes as text: members found only by chance
    assert sum(untyped.contains_many(as_text[:N])) < N // 20
    assert typed.contains(" %d " % members[0])
    assert typed.contains(decimal.Decimal(members[0]))
    assert not typed.contains(decimal.Decimal(members[0]) + decimal.Decimal("0.5"))
    assert not typed.contains(0.5)
    with pytest.raises(TypeError):
        typed.contains(b"5")
    with pytest.raises(ValueError):
        typed.contains("five")
    # and the same for a cuckoo filter given its key type at creation
    craw, cwant = server_answers(conn, "cf_add_all(cf_create(100000, 0.01, "
                                 "key_type => 'bigint'), %(m)s::int8[])",
                                 "cf_contains", "int", members, probes)
    ctyped = load(craw)
    assert ctyped.key_type == 20
    assert_same(ctyped.contains_many(as_text), cwant, as_text)
    built = CuckooFilter.create(100000, 0.01, key_type="bigint")
    assert built.add_many(members).to_bytes() == craw


def test_typed_uuid_text_and_date_filters(conn):
    members, outsiders = members_and_outsiders("uuid")
    probes = members[:20000] + outsiders[:20000]
    raw, want = server_answers(conn, "bf_add_all(bf_create(20000, 0.01), "
                               "%(m)s::uuid[])", "bf_contains", "uuid",
                               members[:20000], probes)
    typed = load(raw)
    assert typed.key_type_name == "uuid"
    as_text = [str(u).upper() if i % 2 else "{%s}" % u
               for i, u in enumerate(probes)]
    assert_same(typed.contains_many(as_text), want, as_text)
    text_typed = load(bytes(conn.execute(
        "SELECT bf_add_all(bf_create(100), ARRAY['5', 'a'])::bytea")
        .fetchone()[0]))
    assert text_typed.key_type_name == "text"
    assert text_typed.contains("5")
    with pytest.raises(TypeError):
        text_typed.contains(5)         # int against text: never a silent miss


# (key type, member, probes): the member is added to a server filter
# given the key type; each probe is sent as the SQL type psycopg gives it
# (an int: the smallest integer type or numeric; a str: text; others
# cast to their own type) and checked there and here
_U = uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
_AWARE = dt.datetime(2024, 2, 29, tzinfo=dt.timezone.utc)
TYPED_CASES = [
    ("bigint", 5, ["+5", "5.0", "0x5", "\t5\n", "", "1_000", "-0"]),
    ("double precision", 100000.0, ["1e5", ".1e6", "100000.", "0x186a0",
                                    "0X1.86A0P16", "0x1p16", "0x1p2000",
                                    "0xg", " 1e5 "]),
    ("boolean", False, ["F", "fa", "n", "off", "of", "o", "on", " false "]),
    ("bigint", 5, [5, "5", " 5 ", "five", "99999999999999999999", 5.0, 5.5,
                   2.0 ** 60, 1e20, decimal.Decimal("5.000"),
                   decimal.Decimal(10) ** 30, b"5", True, 10 ** 30]),
    ("integer", 5, [5, 2 ** 40, 10 ** 20, "2147483648", "5", -5.0]),
    ("smallint", 7, [7, 70000, "7"]),
    ("date", dt.date(2024, 2, 29),
     [dt.datetime(2024, 2, 29), dt.datetime(2024, 2, 29, 0, 0, 1),
      dt.datetime(2024, 2, 29, 0, 0, 0, 1), _AWARE, "2024-02-29",
      dt.date(2024, 3, 1), 5]),
    ("timestamp without time zone", dt.datetime(2024, 2, 29),
     [dt.date(2024, 2, 29), dt.date(2024, 3, 1), _AWARE,
      "2024-02-29T00:00:00", dt.datetime(2024, 2, 29)]),
    ("timestamp with time zone", _AWARE,
     [_AWARE, dt.datetime(2024, 2, 29), dt.date(2024, 2, 29),
      "2024-02-29 00:00:00+00:00", "2024-02-29 01:00:00+01:00"]),
    ("numeric", decimal.Decimal("1.50"),
     [decimal.Decimal("1.5"), 1.5, "1.500", "x", 2]),
    ("numeric", 2, [2, decimal.Decimal("2.0"), "2", 2.0]),
    ("double precision", 1.5, [1.5, "1.5", decimal.Decimal("1.5"), 2,
                               "1e-400", "1e400", "nan", float("nan")]),
    ("double precision", 2.0, [2, decimal.Decimal("2.000"), 2.0, "2"]),
    ("text", "5", [5, "5", b"5", "5 "]),
    ("bpchar", "ab", ["ab", "ab  "]),
    ("uuid", _U, [str(_U).upper(), "{%s}" % _U, " %s" % _U, _U,
                  str(_U).replace("-", "")]),
    ("bytea", b"\x00ab", ["\\x006162", "\\000ab", b"\x00ab", "ab"]),
    ("boolean", True, [True, "yes", "t", "of", "maybe", 1, False]),
    ("bigint[]", [1, 2], [[1, 2], ["1", "2"], [1.0, 2.0], [2, 1]]),
    ("real", "0.1", ["0.1", 0.1, "1e-50", decimal.Decimal("0.1")]),
    ("real", 16777216, [16777216, 16777217, "16777217", 16777216.0]),
    ("inet", ipaddress.ip_interface("10.1.2.3/8"),
     ["10.1.2.3/8", "10.1.2.3", ipaddress.ip_network("10.0.0.0/8"),
      ipaddress.ip_interface("10.1.2.3/8"), "::1"]),
    ("cidr", ipaddress.ip_network("10.0.0.0/8"),
     ["10.0.0.0/8", "10.1.2.3/8", ipaddress.ip_interface("10.0.0.0/8"),
      ipaddress.ip_network("10.0.0.0/8")]),
    ("time without time zone", dt.time(12, 30),
     ["12:30", "12:30:00", dt.time(12, 30), dt.time(12, 30, 0, 1),
      dt.time(12, 30, tzinfo=dt.timezone.utc)]),
    ("interval", dt.timedelta(days=1), [dt.timedelta(hours=24),
                                        dt.timedelta(days=1, microseconds=1)]),
    ("oid", 4294967295, [-1, 4294967295, 2 ** 40, "4294967295", "-1"]),
]


def _outcome_local(f, probe):
    try:
        return f.contains(probe)
    except TypeError:               # UnsupportedKey: the server's 42804
        return "42804"
    except ValueError:              # the key type's input function refused
        return "22"


def _outcome_server(conn, fn, raw, cast, probe):
    import psycopg
    try:
        with conn.transaction():
            return conn.execute("SELECT %s(%%s::bytea::%s, %%s%s)"
                                % (fn, fn[:2] == "bf" and "bloomfilter"
                                   or "cuckoofilter", cast),
                                (raw, probe)).fetchone()[0]
    except psycopg.Error as e:
        return "22" if e.sqlstate.startswith("22") else e.sqlstate


def _probe_cast(probe):
    if isinstance(probe, str):
        return "::text"
    if isinstance(probe, int) and not isinstance(probe, bool):
        return ""                   # psycopg's integer type, or numeric
    from pgbloomfilter._keys import natural_key_type, KEY_TYPE_NAMES
    return "::" + KEY_TYPE_NAMES[natural_key_type(probe)]


@pytest.mark.parametrize("sqltype,member,probes", TYPED_CASES,
                         ids=[c[0] + "-" + str(i) for i, c in
                              enumerate(TYPED_CASES)])
def test_typed_filters_convert_probes_as_the_server(conn, sqltype, member,
                                                    probes):
    """Server-built filters given a key type: bytes equal local ones built
    with that key type, and every probe has the server's outcome (true,
    false, 42804 refused, or 22xxx from the input function)."""
    cast = "::text::" + sqltype if isinstance(member, str) \
        and sqltype != "text" else "::" + sqltype
    raws = conn.execute(
        "SELECT bf_add(bf_create(100, 0.01, key_type => %%(t)s::regtype), "
        "%%(m)s%s)::bytea, cf_add(cf_create(100, 0.01, key_type => "
        "%%(t)s::regtype), %%(m)s%s)::bytea" % (cast, cast),
        {"t": sqltype, "m": member}).fetchone()
    local_bf = BloomFilter.create(100, 0.01, key_type=sqltype).add(member)
    local_cf = CuckooFilter.create(100, 0.01, key_type=sqltype).add(member)
    assert local_bf.to_bytes() == bytes(raws[0])
    assert local_cf.to_bytes() == bytes(raws[1])
    for fn, raw in (("bf_contains", bytes(raws[0])),
                    ("cf_contains", bytes(raws[1]))):
        f = load(raw)
        got = [_outcome_local(f, p) for p in probes]
        want = [_outcome_server(conn, fn, raw, _probe_cast(p), p)
                for p in probes]
        assert got == want, (fn, list(zip(probes, got, want)))


def test_adds_record_the_key_type_as_the_server(conn):
    """The first add to an untyped empty filter records the key's type; an
    add that fails records nothing; unions combine key types."""
    for key, sqltype in ((5, "int8"), ("a", "text"), (b"a", "bytea"),
                         (_U, "uuid"), (1.5, "float8"),
                         (decimal.Decimal("1.5"), "numeric"),
                         (dt.date(2024, 1, 1), "date"), (True, "bool"),
                         (_AWARE, "timestamptz"), ((1, "x"), None)):
        expr = "ROW(1::int8, 'x'::text)" if sqltype is None else "%%s::%s" % sqltype
        args = () if sqltype is None else (key,)
        raw = conn.execute("SELECT bf_add(bf_create(100), %s)::bytea, "
                           "cf_add(cf_create(100, 0.01), %s)::bytea"
                           % (expr, expr), args * 2).fetchone()
        assert BloomFilter.create(100).add(key).to_bytes() == bytes(raw[0])
        assert CuckooFilter.create(100, 0.01).add(key).to_bytes() \
            == bytes(raw[1])
    f = BloomFilter.create(100)
    with pytest.raises(TypeError):
        f.add(object())
    assert f.key_type == 0
    # union: an untyped empty operand takes the other's key type
    a = BloomFilter.create(100).add(5)
    assert a.union(BloomFilter.create(100)).key_type == 20
    with pytest.raises(ValueError):
        a.union(BloomFilter.create(100).add("x"))
    got = conn.execute("SELECT bf_key_type(bf_union(bf_add(bf_create(100), "
                       "5::int8), bf_create(100)))::text").fetchone()[0]
    assert got == "bigint"
    # a scalable filter's sub-filters record no key type, growing or not
    s = BloomFilter.create(10, 0.01, expansion=2).add_many(range(100))
    raw = conn.execute("SELECT bf_add_all(bf_create(10, 0.01, expansion => 2)"
                       ", ARRAY(SELECT generate_series(0, 99)::int8))::bytea"
                       ).fetchone()[0]
    assert s.to_bytes() == bytes(raw) and len(s.subs) > 2
    assert all(sub.key_type == 0 for sub in s.subs)


# ---- shards ----

def test_shard_matches_bf_shard(conn):
    for kind in ("int", "text", "uuid", "bytea"):
        members, _ = members_and_outsiders(kind)
        keys = members[:20000]
        for n in (1, 7, 8, 1000, 65536):
            want = conn.execute("SELECT array_agg(bf_shard(k, %%s) ORDER BY o) "
                                "FROM unnest(%%s::%s[]) WITH ORDINALITY u(k, o)"
                                % SQL_TYPE[kind], (n, keys)).fetchone()[0]
            assert [shard(k, n) for k in keys] == want, (kind, n)
    assert shard("42", 8, key_type=20) == shard(42, 8)


# ---- threads ----

def test_eight_threads_check_concurrently(conn):
    members, outsiders = members_and_outsiders("int")
    probes = members + outsiders
    raw, want = server_answers(conn, "bf_add_all(bf_create(100000, 0.01), "
                               "%(m)s::int8[])", "bf_contains", "int",
                               members, probes)
    craw, cwant = server_answers(conn, "cf_add_all(cf_create(100000, 0.01), "
                                 "%(m)s::int8[])", "cf_contains", "int",
                                 members[:30000], probes[:30000] + outsiders[:30000])
    bf, cf = load(raw), load(craw)
    cprobes = probes[:30000] + outsiders[:30000]
    got = {}
    barrier = threading.Barrier(8)

    def work(i):
        barrier.wait()
        sl = slice(i * 25000, (i + 1) * 25000)
        got[("one", i)] = [bf.contains(k) for k in probes[sl]]
        got[("many", i)] = bf.contains_many(probes[sl])
        csl = slice(i * 7500, (i + 1) * 7500)
        got[("cuckoo", i)] = [cf.contains(k) for k in cprobes[csl]]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    one = [a for i in range(8) for a in got[("one", i)]]
    many = [a for i in range(8) for a in got[("many", i)]]
    ck = [a for i in range(8) for a in got[("cuckoo", i)]]
    assert one == want and many == want and ck == cwant


# ---- 1.4: char(n) padding and rows of typed columns ----

def test_bpchar_filter_finds_padded_strings(conn):
    """PostgreSQL returns char(n) values padded; an application sending one
    back is found, as SQL's char(n) comparison ignores trailing blanks."""
    raw = conn.execute("SELECT bf_agg(c)::bytea, cf_agg(c, 100)::bytea FROM "
                       "(VALUES ('AB1'::char(6)), ('XY'::char(6))) v(c)").fetchone()
    padded = conn.execute("SELECT 'AB1'::char(6)").fetchone()[0]
    assert padded == "AB1   "
    for f in (load(bytes(raw[0])), load(bytes(raw[1]))):
        assert f.contains(padded) and f.contains("AB1") and f.contains("XY ")
        assert f.contains_many(["AB1   ", "XY", "XY      "]) == [True, True, True]


def test_row_signature_filter_converts_columns(conn):
    """A filter of rows records its columns' key types; a tuple is
    converted column by column as the server converts a probe row."""
    raw = conn.execute("SELECT bf_agg(ROW(u, d))::bytea FROM (VALUES (5, "
                       "'2024-01-06'::date), (6, '2024-02-29')) v(u, d)").fetchone()[0]
    f = load(bytes(raw))
    assert f.key_type == 0x800001E2
    server = conn.execute("SELECT bf_contains(%s::bytea::bloomfilter, ROW(5, '2024-01-06')), "
                          "bf_contains(%s::bytea::bloomfilter, ROW(7, '2024-01-06'))",
                          (raw, raw)).fetchone()
    assert server == (True, False)
    assert f.contains((5, dt.date(2024, 1, 6)))
    assert f.contains((5, "2024-01-06"))          # read as the date column's
    assert f.contains((6, "2024-02-29")) and f.contains((5.0, "2024-01-06"))
    assert not f.contains((7, "2024-01-06"))
    with pytest.raises(UnsupportedKey):
        f.contains((5,))


def test_name_filter_clips_long_strings(conn):
    """An untyped string compared with a name is read as a name, clipped to
    63 bytes: a longer probe finds the clipped key, as on the server."""
    raw, server = conn.execute(
        "SELECT f::bytea, bf_contains(f, repeat('é', 40)) FROM "
        "(SELECT bf_add(bf_create(100), repeat('é', 40)::name) AS f) s").fetchone()
    assert server
    f = load(bytes(raw))
    assert f.contains("é" * 40) and f.contains("é" * 31) and not f.contains("é" * 30)
