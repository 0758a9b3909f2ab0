"""The server's key-type vectors (test/vectors/keys.json, written from the
key-type table src/core/keytypes.c by sql/key_types.sql): this client's
key types and row codes are the server's, and for each key type the table
says this client reads, the typed conversion of each literal gives the
server's canonical bytes and hash under every hash id the client takes.
No server is needed."""

import json
import os

import pytest

from pgbloomfilter import SUPPORTED_HASH_IDS, canonical_bytes
from pgbloomfilter import _keys
from pgbloomfilter._murmur import hash_pair

VECTORS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "test",
                       "vectors", "keys.json")

with open(VECTORS, encoding="utf-8") as _f:
    DOC = json.load(_f)
ROWS = {row["oid"]: row for row in DOC["key_types"]}


def _reads(key_type):
    """Whether the table says this client reads a literal of key_type (an
    array's literal is read by none: a list stands for an array)."""
    row = ROWS.get(key_type)
    return row is not None and "python" in row["clients"]


def test_key_types_and_row_codes_are_the_servers():
    assert _keys.VALID_KEY_TYPES == frozenset(DOC["valid"])
    assert list(_keys._ROW_CODES) == DOC["row_codes"]


@pytest.mark.parametrize("v", [v for v in DOC["vectors"]
                               if v["hash_id"] in SUPPORTED_HASH_IDS],
                         ids=lambda v: "%d/%d/%s" % (v["key_type"], v["hash_id"],
                                                     v["text"][:20]))
def test_vector(v):
    if not _reads(v["key_type"]):
        # the table says this client leaves it to the server: it must refuse
        if v["hash_id"] == 2:
            with pytest.raises((TypeError, ValueError)):
                canonical_bytes(v["text"], hash_id=2, key_type=v["key_type"])
        return
    try:
        got = canonical_bytes(v["text"], hash_id=v["hash_id"], key_type=v["key_type"])
    except _keys.UnsupportedKey:
        # the table is about hash id 2; under the others the client may
        # refuse a type (numeric under hash id 1), never hash it otherwise
        if v["hash_id"] == 2:
            raise
        return
    assert got is not None and got.hex() == v["bytes"]
    h1, h2 = hash_pair(got, DOC["seed"])
    assert ("%016x" % h1, "%016x" % h2) == (v["h1"], v["h2"])


def test_every_key_type_the_table_gives_this_client_has_vectors():
    read = {k for k in ROWS if _reads(k)}
    covered = {v["key_type"] for v in DOC["vectors"] if v["hash_id"] == 2}
    assert read and read <= covered
