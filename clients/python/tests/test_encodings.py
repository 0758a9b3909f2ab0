"""Filters made in databases of four encodings (UTF8, LATIN1, SQL_ASCII,
EUC_JP) from generated ASCII and non-ASCII text keys: the client answers
as the server, through the psycopg adapter and from raw bytes, for every
kind (plain, counting, scalable, the unsized aggregate's list of hashes
and its final filter, cuckoo) and for text-like keys of every form (text,
char(n), name, text[], rows).

Hash id 5 (what 1.5 makes) hashes text as UTF-8 everywhere; hash id 2
(what 1.2 to 1.4 made) hashed text in the database's encoding, so the
client must be told it (the adapter reads server_encoding; from raw
bytes, the ``encoding`` argument).  This server makes no new id-2 value,
so the tests make what 1.4 would have stored: the same aggregate over
``convert_to(key, <database encoding>)`` as bytea (the very bytes 1.4
hashed for the text key), with header's hash id set back to 2 and its key
type to the text filter's.  The server's own answers to text probes on
such a value are checked to be true for every member, so the
construction is what 1.4 stored."""

import random
import struct

import psycopg
import pytest

from pgbloomfilter import (BloomFilter, CuckooFilter, HashListFilter,
                           UnencodableKey, load, shard)
from pgbloomfilter.psycopg import CachedFilter, register_bloomfilter
from pgbloomfilter._keys import text_codec
from conftest import ENCODINGS

N = 600


def _pool(enc, rng):
    """Non-ASCII characters a database of this encoding holds."""
    if enc == "LATIN1":
        return [chr(c) for c in range(0xA0, 0x100)]
    if enc == "EUC_JP":
        # JIS X 0208 kana, Greek, Cyrillic and level-1 kanji, JIS X 0212
        # accented Latin letters (three bytes), half-width katakana
        out = set()
        while len(out) < 400:
            row = rng.choice([0xA4, 0xA5, 0xA6, 0xA7] + list(range(0xB0, 0xD0)))
            cand = [bytes([row, rng.randrange(0xA1, 0xFF)]),
                    bytes([0x8F, 0xAB, rng.randrange(0xA1, 0xF8)]),
                    bytes([0x8E, rng.randrange(0xA1, 0xE0)])][rng.randrange(3)]
            try:
                ch = cand.decode("euc-jp")
            except UnicodeDecodeError:
                continue
            try:
                text_codec("EUC_JP")(ch)
            except UnencodableKey:
                continue
            out.add(ch)
        return sorted(out)
    # UTF8 and SQL_ASCII (which stores the client's UTF-8): any script,
    # characters beyond the BMP too
    return [chr(c) for c in list(range(0xA0, 0x250)) + list(range(0x391, 0x3CA))
            + list(range(0x410, 0x450)) + list(range(0x4E00, 0x4F00))
            + list(range(0x1F600, 0x1F640))]


def _keys(enc):
    """(members, outsiders): distinct generated strings, most with
    non-ASCII characters, some ASCII only; an outsider is often a member
    with one character changed."""
    rng = random.Random("encodings-" + enc)
    pool = _pool(enc, rng)
    ascii_ = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_@."
    seen = set()

    def one():
        while True:
            n = rng.randint(1, 10)
            share = rng.choice([0.0, 0.3, 0.7, 1.0])
            s = "".join(rng.choice(pool) if rng.random() < share
                        else rng.choice(ascii_) for _ in range(n))
            if s not in seen:
                seen.add(s)
                return s
    members = [one() for _ in range(N)]
    outsiders = []
    while len(outsiders) < N:
        m = rng.choice(members)
        i = rng.randrange(len(m))
        s = m[:i] + rng.choice(pool) + m[i + 1:] if rng.random() < 0.5 else one()
        if s not in seen:
            seen.add(s)
            outsiders.append(s)
    return members, outsiders


# (name, type, build over keys(k text, o int8) with {K} the key
# expression, probe over probes(p text, o int8) with {P} the probe
# expression, key expression, probe expression, Python key of (p, o))
KINDS = [
    ("plain", "bloomfilter",
     "SELECT bf_add_all(bf_create(2000, 0.01), array_agg({K} ORDER BY o)) FROM keys",
     "bf_contains", "k", "p", lambda p, o: p),
    ("counting", "bloomfilter",
     "SELECT bf_add_all(bf_create(2000, 0.01, counting => true), "
     "array_agg({K} ORDER BY o)) FROM keys",
     "bf_contains", "k", "p", lambda p, o: p),
    ("scalable", "bloomfilter",
     "SELECT bf_add_all(bf_create(150, 0.01, expansion => 2), "
     "array_agg({K} ORDER BY o)) FROM keys",
     "bf_contains", "k", "p", lambda p, o: p),
    ("hashlist", "bloomfilter",
     "SELECT bf_agg_partial({K} ORDER BY o) FROM keys",
     "bf_contains", "k", "p", lambda p, o: p),
    ("unsized", "bloomfilter",
     "SELECT bf_agg({K} ORDER BY o) FROM keys",
     "bf_contains", "k", "p", lambda p, o: p),
    ("cuckoo", "cuckoofilter",
     "SELECT cf_add_all(cf_create(2000, 0.01), array_agg({K} ORDER BY o)) FROM keys",
     "cf_contains", "k", "p", lambda p, o: p),
    ("cuckoo_small", "cuckoofilter",
     "SELECT cf_add_all(cf_create(200, 0.01), array_agg({K} ORDER BY o)) FROM keys",
     "cf_contains", "k", "p", lambda p, o: p),
    ("bpchar", "bloomfilter",
     "SELECT bf_agg({K}, 2000, 0.01) FROM keys",
     "bf_contains", "k::char(30)", "p", lambda p, o: p),
    ("name", "bloomfilter",
     "SELECT bf_agg({K}, 2000, 0.01) FROM keys",
     "bf_contains", "k::name", "p", lambda p, o: p),
    ("array", "bloomfilter",
     "SELECT bf_agg({K}, 2000, 0.01) FROM keys",
     "bf_contains", "ARRAY[k, 'é' || o::text]", "ARRAY[p, 'é' || o::text]",
     lambda p, o: [p, "é%d" % o]),
    ("row", "bloomfilter",
     "SELECT bf_agg({K}, 2000, 0.01) FROM keys",
     "bf_contains", "ROW(k, o)", "ROW(p, o)", lambda p, o: (p, o)),
    ("cuckoo_array", "cuckoofilter",
     "SELECT cf_agg({K}, 2000, 0.01) FROM keys",
     "cf_contains", "ARRAY[k]", "ARRAY[p]", lambda p, o: [p]),
]


def _as_bytea(expr, enc):
    """The key expression with each text part as convert_to(..., enc):
    the bytes 1.4 hashed for the text, as bytea."""
    conv = "convert_to(%s::text, '" + enc + "')"
    if expr == "k":
        return conv % "k"
    if expr in ("k::char(30)", "k::name"):
        return conv % ("(%s)" % expr)
    if expr == "ARRAY[k, 'é' || o::text]":
        return "ARRAY[%s, %s]" % (conv % "k", conv % "('é' || o::text)")
    if expr == "ARRAY[k]":
        return "ARRAY[%s]" % (conv % "k")
    if expr == "ROW(k, o)":
        return "ROW(%s, o)" % (conv % "k")
    raise AssertionError(expr)


def _legacy(raw, key_type_from):
    """The value with hash id 2 and the key type of the text-keyed value
    key_type_from, in every header that records them (a scalable filter's
    sub-filters record the hash id too)."""
    b = bytearray(raw)
    if b[:4] == b"CKOF":
        b[5] = 2
        b[40:44] = key_type_from[40:44]
        return bytes(b)
    b[6] = 2
    b[12:16] = key_type_from[12:16]
    if b[5] == 3:                       # scalable: each sub-filter's header
        nsubs = b[7]
        off = 48 + 16
        for _ in range(nsubs):
            b[off + 8 + 6] = 2
            nbits = struct.unpack_from("<Q", b, off + 8 + 16)[0]
            off += 8 + 48 + nbits // 8
    return bytes(b)


@pytest.fixture(scope="module", params=ENCODINGS)
def db(request, encoding_dsns):
    enc = request.param
    conn = psycopg.connect(encoding_dsns[enc], autocommit=True)
    register_bloomfilter(conn)
    members, outsiders = _keys(enc)
    conn.execute("SET max_parallel_workers_per_gather = 0")
    for t in ("text", "bytea", "char", "name", "text[]", "bytea[]",
              "record"):
        conn.execute("CREATE OR REPLACE AGGREGATE bf_agg_partial(%s) "
                     "(SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter)"
                     % ("bpchar" if t == "char" else t))
    conn.execute("CREATE TABLE keys (k text, o int8)")
    conn.execute("CREATE TABLE probes (p text, o int8, member bool)")
    conn.execute("CREATE TABLE filters (name text, f bloomfilter)")
    conn.execute("CREATE TABLE cfilters (name text, f cuckoofilter)")
    with conn.cursor() as cur:
        with cur.copy("COPY keys FROM STDIN") as cp:
            for i, k in enumerate(members):
                cp.write_row((k, i))
        with cur.copy("COPY probes FROM STDIN") as cp:
            for i, k in enumerate(members):
                cp.write_row((k, i, True))
            for i, k in enumerate(outsiders):
                cp.write_row((k, i if i % 2 else N + i, False))
    probes = conn.execute("SELECT p, o, member FROM probes ORDER BY o, p, member"
                          ).fetchall()
    assert conn.info.parameter_status("server_encoding") == enc
    yield enc, conn, members, probes
    conn.close()


def _build(conn, kind, legacy_enc=None):
    """The server's value of this kind over the keys (bytes); with
    legacy_enc, over their bytes in that encoding as bytea."""
    build, kexpr = kind[2], kind[4]
    k = _as_bytea(kexpr, legacy_enc) if legacy_enc else kexpr
    return bytes(conn.execute("SELECT (%s)::bytea" % build.replace("{K}", k))
                 .fetchone()[0])


def _server_answers(conn, kind, raw, probes):
    name, typ, _b, fn, _k, pexpr, _key = kind
    got = conn.execute(
        "SELECT array_agg(%s(%%s::bytea::%s, %s) ORDER BY o, p, member) "
        "FROM probes" % (fn, typ, pexpr), (raw,)
    ).fetchone()[0]
    return got


def _through_adapter(conn, kind, raw):
    """The value stored in a table and read back by the adapter (binary
    and text)."""
    name, typ = kind[0], kind[1]
    table = "cfilters" if typ == "cuckoofilter" else "filters"
    conn.execute("DELETE FROM %s" % table)
    conn.execute("INSERT INTO %s VALUES (%%s, %%s::bytea::%s)" % (table, typ),
                 (name, raw))
    out = [conn.execute("SELECT f FROM %s" % table, binary=b).fetchone()[0]
           for b in (True, False)]
    out.append(CachedFilter(conn, table, "f").get())
    return out


def _client_answers(f, kind, probes):
    key = kind[6]
    return f.contains_many([key(p, o) for p, o, _m in probes])


def _check(enc, conn, kind, raw, probes, legacy):
    want = _server_answers(conn, kind, raw, probes)
    # every member is present on the server: for legacy values that proves
    # the construction hashed what 1.4 hashed for the text
    assert all(w for w, (_p, _o, m) in zip(want, probes) if m)
    assert not all(want), "every outsider present: the test checks nothing"
    readers = _through_adapter(conn, kind, raw)
    readers.append(load(raw, enc))
    if not legacy or enc in ("UTF8", "SQL_ASCII"):
        readers.append(load(raw))       # no encoding needed
    for f in readers:
        assert f.hash_id == (2 if legacy else 5)
        got = _client_answers(f, kind, probes)
        bad = [p for (p, _o, _m), a, b in zip(probes, got, want) if a != b]
        assert not bad, "%s %s (hash id %d): %d answers differ from the " \
            "server's, first %r" % (enc, kind[0], f.hash_id, len(bad), bad[0])
    return readers[-1]


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k[0])
def test_new_values_answer_as_the_server(db, kind):
    enc, conn, _members, probes = db
    raw = _build(conn, kind)
    assert raw[5 if kind[1] == "cuckoofilter" else 6] == 5
    _check(enc, conn, kind, raw, probes, legacy=False)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k[0])
def test_legacy_values_answer_as_the_server(db, kind):
    enc, conn, _members, probes = db
    new = _build(conn, kind)
    raw = _legacy(_build(conn, kind, legacy_enc=enc), new)
    _check(enc, conn, kind, raw, probes, legacy=True)


def test_local_builds_have_the_server_bytes(db):
    """Filters built by the client from the same keys are byte-equal to
    the server's: hash id 5, and hash id 2 given the database's
    encoding."""
    enc, conn, members, _probes = db
    by_name = {k[0]: k for k in KINDS}
    for legacy in (False, True):
        hid = 2 if legacy else 5
        local = {
            "plain": BloomFilter.create(2000, 0.01, hash_id=hid, encoding=enc),
            "counting": BloomFilter.create(2000, 0.01, counting=True,
                                           hash_id=hid, encoding=enc),
            "scalable": BloomFilter.create(150, 0.01, expansion=2,
                                           hash_id=hid, encoding=enc),
            "hashlist": HashListFilter.create(hash_id=hid, encoding=enc),
            "cuckoo": CuckooFilter.create(2000, 0.01, hash_id=hid,
                                          encoding=enc),
            "cuckoo_small": CuckooFilter.create(200, 0.01, hash_id=hid,
                                                encoding=enc),
        }
        for name, f in local.items():
            f.add_many(members)
            kind = by_name[name]
            raw = _build(conn, kind)
            if legacy:
                raw = _legacy(_build(conn, kind, legacy_enc=enc), raw)
            assert f.to_bytes() == raw, "%s %s hash id %d" % (enc, name, hid)
        final = local["hashlist"].finish().to_bytes()
        raw = _build(conn, by_name["unsized"])
        if legacy:
            raw = _legacy(_build(conn, by_name["unsized"], legacy_enc=enc), raw)
        assert final == raw


def test_unions_follow_the_server(db):
    """bf_union of an id-2 and an id-5 filter: only in a UTF8 database,
    keeping the first operand's header (its hash id too), refused
    elsewhere; the client's union with the id-2 filter's encoding does the
    same, byte for byte."""
    enc, conn, _members, probes = db
    kind = KINDS[0]
    new = _build(conn, kind)
    old = _legacy(_build(conn, kind, legacy_enc=enc), new)
    server = {}
    for first, second in ((old, new), (new, old)):
        try:
            server[first] = bytes(conn.execute(
                "SELECT bf_union(%s::bytea::bloomfilter, "
                "%s::bytea::bloomfilter)::bytea", (first, second)).fetchone()[0])
        except psycopg.errors.DataException:
            server[first] = None
    assert (server[old] is not None) == (server[new] is not None) == (enc == "UTF8")
    a, b = load(old, enc), load(new, enc)
    if server[old] is None:
        with pytest.raises(ValueError, match="different shape"):
            a | b
        with pytest.raises(ValueError, match="different shape"):
            b | a
    else:
        assert server[old][6] == 2 and server[new][6] == 5
        assert (a | b).to_bytes() == server[old]
        assert (b | a).to_bytes() == server[new]
    # the same hash id unions in every encoding
    assert (a | a).to_bytes() == bytes(conn.execute(
        "SELECT bf_union(%s::bytea::bloomfilter, %s::bytea::bloomfilter)"
        "::bytea", (old, old)).fetchone()[0])


def test_moved_values_answer_in_a_utf8_database(db, encoding_dsns):
    """A new value made here and moved (as its bytes, as pg_dump, COPY or
    replication carry it) to a UTF8 database answers its members there,
    on the server and in the client, which needs no encoding for it."""
    enc, conn, _members, probes = db
    with psycopg.connect(encoding_dsns["UTF8"], autocommit=True) as utf8:
        for kind in KINDS[:6]:
            raw = _build(conn, kind)
            want = _server_answers(conn, kind, raw, probes)
            fn, typ = kind[3], kind[1]
            there = utf8.execute(
                "SELECT array_agg(%s(%%s::bytea::%s, p) ORDER BY o) FROM "
                "unnest(%%s::text[]) WITH ORDINALITY u(p, o)" % (fn, typ),
                (raw, [p for p, _o, _m in probes])).fetchone()[0]
            assert there == want
            assert load(raw).contains_many([p for p, _o, _m in probes]) == want


def test_keys_an_encoding_cannot_hold_are_refused(db):
    """A str the id-2 filter's encoding cannot hold raises UnencodableKey
    (never a silent answer); an id-5 filter hashes it as UTF-8."""
    enc, conn, _members, _probes = db
    outside = {"LATIN1": "€uro", "EUC_JP": "\u20ac\U0001f600",
               "UTF8": None, "SQL_ASCII": None}[enc]
    f = load(_legacy(_build(conn, KINDS[0], legacy_enc=enc),
                     _build(conn, KINDS[0])), enc)
    if outside is None:
        assert f.contains("\u20ac\U0001f600") in (True, False)
        return
    with pytest.raises(UnencodableKey):
        f.contains(outside)
    with pytest.raises(UnencodableKey):
        f.contains_many(["a", outside])
    assert load(_build(conn, KINDS[0])).contains(outside) is False


def test_text_codecs_agree_with_the_server(encoding_dsns):
    """For every code point of the BMP and a block beyond: the client's
    bytes of it in LATIN1 and EUC_JP are the server's convert_to, or the
    client refuses it."""
    chars = [chr(c) for c in list(range(0x80, 0xD800)) + list(range(0xE000, 0x10000))
             + list(range(0x1F600, 0x1F650))]
    with psycopg.connect(encoding_dsns["UTF8"], autocommit=True) as c:
        c.execute("CREATE OR REPLACE FUNCTION pg_temp.conv(t text, e name) "
                  "RETURNS bytea LANGUAGE plpgsql AS $$BEGIN RETURN "
                  "convert_to(t, e); EXCEPTION WHEN others THEN RETURN NULL; "
                  "END$$")
        for enc in ("LATIN1", "EUC_JP"):
            server = c.execute(
                "SELECT array_agg(pg_temp.conv(ch, %s) ORDER BY o) FROM "
                "unnest(%s::text[]) WITH ORDINALITY u(ch, o)",
                (enc, chars)).fetchone()[0]
            codec = text_codec(enc)
            held = 0
            for ch, want in zip(chars, server):
                try:
                    got = codec(ch)
                except UnencodableKey:
                    continue
                held += 1
                assert want is not None and got == bytes(want), \
                    "%s U+%04X" % (enc, ord(ch))
            assert held > (90 if enc == "LATIN1" else 10000)


def test_shards_follow_bf_shard(db):
    """bf_shard hashes text in the database's encoding (hash id 2's
    rules, always): shard(key, n, encoding=...) gives its shards."""
    enc, conn, members, _probes = db
    for n in (3, 64):
        want = conn.execute("SELECT array_agg(bf_shard(k, %s) ORDER BY o) "
                            "FROM keys", (n,)).fetchone()[0]
        assert [shard(k, n, encoding=enc) for k in members] == want
