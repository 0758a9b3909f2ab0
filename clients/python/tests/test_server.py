"""Against the installed server: local answers equal bf_contains, local
filters are byte-identical to server-built ones, sizing equals bf_create's."""

import random
import uuid

import pytest

from pgbloomfilter import BloomFilter, FilterTooLarge, size

N = 100_000

# (capacity, error_rate, seed): the shapes the SQL suites and hardening
# scripts create, from tiny and overfilled to 1e-10
SHAPES = [
    (100, 0.01, 0),
    (1000, 0.01, 0),
    (10000, 0.2, 1),
    (20000, 1e-10, 0),
    (50000, 0.001, 4294967295),
    (100000, 0.01, 0),
    (100000, 0.01, 12345),
]

_TEXT_ALPHABET = "abcxyz019 _-é日本語\u00a0\U0001F600\u0301"


def _keys(kind, rng, n):
    if kind == "int":
        out = set()
        while len(out) < n:
            r = rng.random()
            if r < 0.3:
                out.add(rng.randrange(-2**15, 2**15))
            elif r < 0.6:
                out.add(rng.randrange(-2**31, 2**31))
            else:
                out.add(rng.randrange(-2**63, 2**63))
        return list(out)
    if kind == "text":
        out = set()
        while len(out) < n:
            out.add("".join(rng.choice(_TEXT_ALPHABET)
                            for _ in range(rng.randrange(0, 24))))
        return list(out)
    if kind == "bytea":
        out = set()
        while len(out) < n:
            out.add(rng.randbytes(rng.randrange(0, 40)))
        return list(out)
    if kind == "uuid":
        return [uuid.UUID(int=rng.getrandbits(128)) for _ in range(n)]
    raise AssertionError(kind)


SQL_TYPE = {"int": "int8", "text": "text", "bytea": "bytea", "uuid": "uuid"}
_key_cache = {}


def members_and_outsiders(kind):
    if kind not in _key_cache:
        keys = _keys(kind, random.Random("pgbloomfilter-" + kind), 2 * N)
        _key_cache[kind] = (keys[:N], keys[N:])
    return _key_cache[kind]


def server_filter_and_answers(conn, shape, kind, members, probes):
    cap, rate, seed = shape
    t = SQL_TYPE[kind]
    row = conn.execute(
        "WITH f AS (SELECT bf_add_all(bf_create(%%s, %%s, %%s), %%s::%s[]) AS bf)"
        " SELECT (SELECT bf::bytea FROM f),"
        "        (SELECT array_agg(bf_contains(f.bf, k) ORDER BY o)"
        "           FROM f, unnest(%%s::%s[]) WITH ORDINALITY AS u(k, o))"
        % (t, t),
        (cap, rate, seed, members, probes), binary=True).fetchone()
    return row[0], row[1]


@pytest.mark.parametrize("kind", ["int", "text", "bytea", "uuid"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "%d-%g-%d" % s)
def test_answers_and_bytes_match_server(conn, server_hash_id, shape, kind):
    members, outsiders = members_and_outsiders(kind)
    probes = members + outsiders
    raw, server_answers = server_filter_and_answers(conn, shape, kind,
                                                    members, probes)
    bf = BloomFilter.from_bytes(raw)
    assert bf.hash_id == server_hash_id

    local = bf.contains_many(probes)        # the numpy path, if installed
    assert bf._contains_many_py(probes) == local
    assert local[:N] == [True] * N                  # no false negatives
    mismatches = [i for i, (a, b) in enumerate(zip(local, server_answers))
                  if a != b]
    assert not mismatches, "%d answers differ, first key %r" % (
        len(mismatches), probes[mismatches[0]])
    # the single-key path agrees with the batch path
    sample = random.Random(3).sample(range(2 * N), 3000)
    assert [bf.contains(probes[i]) for i in sample] == \
        [server_answers[i] for i in sample]

    cap, rate, seed = shape
    built = BloomFilter.create(cap, rate, seed, hash_id=server_hash_id)
    built.add_many(members)
    assert built.to_bytes() == bytes(raw)


def test_int4_and_int2_columns_match_int_keys(conn):
    rng = random.Random(11)
    ints = list({rng.randrange(-2**31, 2**31) for _ in range(20000)})
    smalls = list({rng.randrange(-2**15, 2**15) for _ in range(5000)})
    raw4 = conn.execute("SELECT bf_agg(k, 20000, 0.01)::bytea FROM "
                        "unnest(%s::int4[]) k", (ints,)).fetchone()[0]
    raw2 = conn.execute("SELECT bf_agg(k, 20000, 0.01)::bytea FROM "
                        "unnest(%s::int2[]) k", (smalls,)).fetchone()[0]
    hid = raw4[6]
    # the columns' types are recorded: the same bytes with that key type
    assert BloomFilter.create(20000, 0.01, hash_id=hid, key_type="integer") \
        .add_many(ints).to_bytes() == bytes(raw4)
    assert BloomFilter.create(20000, 0.01, hash_id=hid, key_type=21) \
        .add_many(smalls).to_bytes() == bytes(raw2)
    # and int keys alone record bigint, hashing alike
    local = BloomFilter.create(20000, 0.01, hash_id=hid).add_many(ints)
    assert local.key_type == 20
    assert local.to_bytes()[16:] == bytes(raw4)[16:]


CAPACITIES = [1, 2, 3, 7, 10, 64, 100, 999, 1000, 1234, 10_000, 65_536,
              100_000, 1_000_000, 12_345_678, 100_000_000, 600_000_000,
              2_000_000_000]
RATES = [0.9, 0.5, 0.2, 0.1, 0.05, 0.01, 0.0123, 0.001, 1e-4, 1e-5, 1e-6,
         1e-8, 1e-10]


def test_sizing_grid_equals_server(conn):
    """bf_create's bf_nbits and bf_nhashes against the ported sizing.  The
    server builds each filter to answer, so points over 130 MB (by the
    local sizing) are left out to keep the test quick; refusals (54000)
    cost the server nothing and are all checked."""
    import psycopg

    differ = []
    checked = 0
    for c in CAPACITIES:
        for r in RATES:
            try:
                got = size(c, r)
            except FilterTooLarge:
                got = "too large"
            if got != "too large" and got[0] // 8 > 130 * 2**20:
                continue
            try:
                want = conn.execute("SELECT bf_nbits(f), bf_nhashes(f) "
                                    "FROM bf_create(%s, %s) f",
                                    (c, r)).fetchone()
            except psycopg.errors.ProgramLimitExceeded:
                want = "too large"
            checked += 1
            if got != want:
                differ.append((c, r, got, want))
    assert checked > 200
    assert not differ


def test_adapter_loads_and_dumps(conn, server_hash_id):
    import psycopg

    q = "SELECT bf_add_all(bf_create(1000, 0.01), ARRAY[1, 2, 3])"
    for binary in (False, True):
        with conn.cursor(binary=binary) as cur:
            bf = cur.execute(q).fetchone()[0]
            assert isinstance(bf, BloomFilter)
            assert bf.contains_many([1, 2, 3]) == [True] * 3
            arr = cur.execute("SELECT ARRAY[(%s), bf_create(10)]" % q) \
                .fetchone()[0]
            assert [type(x) for x in arr] == [BloomFilter, BloomFilter]
    # ARRAY[1, 2, 3] is an int4 array: the filter records integer keys
    assert bf.key_type_name == "integer"
    local = BloomFilter.create(1000, 0.01, hash_id=server_hash_id,
                               key_type="integer")
    local.add_many([1, 2, 3])
    assert local == bf

    conn.execute("CREATE TEMP TABLE adapt_t (id int, bf bloomfilter)")
    try:
        for i, fmt in enumerate(("%s", "%t", "%b")):
            conn.execute("INSERT INTO adapt_t VALUES (%s, " + fmt + ")",
                         (i, local))
        rows = conn.execute("SELECT bf_contains(bf, 2), bf_contains(bf, 4), "
                            "bf::bytea = (%s)::bytea, bf FROM adapt_t "
                            "ORDER BY id", (bf,)).fetchall()
        assert [r[:3] for r in rows] == [(True, False, True)] * 3
        assert all(r[3] == local for r in rows)
        # the server validates what it gets: a wrong bits-set count fails
        bad = BloomFilter.from_bytes(local.to_bytes())
        bad.bits_set += 1
        with pytest.raises(psycopg.errors.InvalidBinaryRepresentation):
            conn.execute("SELECT %s::bytea::bloomfilter", (bad.to_bytes(),))
    finally:
        conn.execute("DROP TABLE adapt_t")


def test_refresh_when_the_row_changes(conn):
    from pgbloomfilter.psycopg import CachedFilter

    conn.execute("CREATE TEMP TABLE refresh_t (name text PRIMARY KEY, "
                 "bf bloomfilter, cf cuckoofilter)")
    try:
        conn.execute("INSERT INTO refresh_t SELECT 'users', "
                     "bf_add_all(bf_create(10000), ARRAY[1, 2, 3]), "
                     "cf_add_all(cf_create(100), ARRAY[1, 2, 3])")
        cached = CachedFilter(conn, "refresh_t", "bf", "name = %s",
                              ("users",), max_age=0)
        assert cached.get().contains_many([1, 2, 3, 4]) == \
            [True, True, True, False]
        first = cached.get()
        assert cached.get() is first and cached.fetches == 1
        conn.execute("UPDATE refresh_t SET bf = bf_add(bf, 4)")
        assert 4 in cached.get() and cached.fetches == 2
        # a rebuild with the same count of bits set is seen too
        conn.execute("UPDATE refresh_t SET bf = bf_add_all(bf_create(10000), "
                     "ARRAY[1, 2, 3, 5])")
        assert 5 in cached.get() and 4 not in cached.get()
        cuckoo = CachedFilter(conn, "refresh_t", "cf", token="md5", max_age=0)
        assert cuckoo.get().contains_many([1, 4]) == [True, False]
        conn.execute("UPDATE refresh_t SET cf = cf_delete(cf, 1)")
        assert cuckoo.get().contains_many([1, 4]) == [False, False]
        assert cuckoo.fetches == 2
    finally:
        conn.execute("DROP TABLE refresh_t")


def test_cached_filter_leaves_no_transaction_open(server_dsn):
    """On psycopg's default (non-autocommit) connection, as the README uses
    it: after register_bloomfilter, a fetch and a refresh the session is
    idle, not idle in transaction (which would hold back VACUUM)."""
    import psycopg
    from pgbloomfilter.psycopg import CachedFilter, register_bloomfilter

    with psycopg.connect(server_dsn, autocommit=True) as admin:
        admin.execute("CREATE TABLE tx_t (bf bloomfilter)")
        admin.execute("INSERT INTO tx_t SELECT bf_add(bf_create(100), 1)")
        try:
            conn = psycopg.connect(server_dsn)      # autocommit off
            register_bloomfilter(conn)
            pid = conn.info.backend_pid
            cached = CachedFilter(conn, "tx_t", "bf", max_age=0)
            assert 1 in cached.get()
            admin.execute("UPDATE tx_t SET bf = bf_add(bf, 2)")
            assert 2 in cached.get() and cached.fetches == 2
            cached.get()
            state = admin.execute("SELECT state FROM pg_stat_activity "
                                  "WHERE pid = %s", (pid,)).fetchone()[0]
            assert state == "idle"
            assert conn.info.transaction_status == \
                psycopg.pq.TransactionStatus.IDLE
            conn.close()
        finally:
            admin.execute("DROP TABLE tx_t")


def test_adapter_loads_every_kind_and_never_fails_a_query(conn):
    from pgbloomfilter.psycopg import UnreadableFilter

    q = ("SELECT bf_create(100), bf_create(100, 0.01, counting => true), "
         "bf_create(100, 0.01, expansion => 2), cf_add(cf_create(100), 1), "
         "ARRAY[cf_create(10)], %s::bytea::bloomfilter")
    good = BloomFilter.create(100).to_bytes()
    for binary in (False, True):
        row = conn.execute(q, (good,), binary=binary).fetchone()
        assert [type(x).__name__ for x in row] == [
            "BloomFilter", "CountingBloomFilter", "ScalableBloomFilter",
            "CuckooFilter", "list", "BloomFilter"]
        assert 1 in row[3]
    # a value this client cannot read (here: a layout id it does not know,
    # as a newer server could send) loads as an UnreadableFilter
    from pgbloomfilter.psycopg import _read
    odd = _read(good[:5] + b"\x09" + good[6:], "bloomfilter")
    assert isinstance(odd, UnreadableFilter) and not odd
    assert "layout 9" in odd.reason and odd.data[5] == 9
