"""Client side of the bloomfilter PostgreSQL extension: load, check and
build ``bloomfilter`` (plain, counting, scalable, Guava, RedisBloom) and
``cuckoofilter`` values with the server's exact bytes and answers.

    from pgbloomfilter import load
    f = load(row[0])              # SELECT f::bytea ... (either type)
    42 in f, f.contains_many(ids), f.count("alice")

    local = BloomFilter.create(100000, 0.01).add_many(ids)
    cur.execute("INSERT INTO t VALUES (%s::bytea::bloomfilter)",
                (local.to_bytes(),))

``pgbloomfilter.psycopg.register_bloomfilter(conn)`` makes psycopg 3 load
``bloomfilter`` and ``cuckoofilter`` columns as these objects.
"""

from typing import Optional, Union

from ._version import __version__
from ._keys import canonical_bytes, UnsupportedKey, UnencodableKey
from ._filter import (BloomFilter, CountingBloomFilter, InvalidFilter,
                      SUPPORTED_HASH_IDS, DEFAULT_HASH_ID)
from ._scalable import ScalableBloomFilter
from ._hashes import HashListFilter
from ._guava import GuavaBloomFilter
from ._redisbloom import RedisBloomFilter
from ._cuckoo import CuckooFilter
from ._shard import shard, SHARD_SEED
from ._murmur import BACKEND as HASH_BACKEND
from ._sizing import EXACT as SIZING_EXACT, FilterTooLarge, size

__all__ = ["BloomFilter", "CountingBloomFilter", "ScalableBloomFilter",
           "HashListFilter", "GuavaBloomFilter", "RedisBloomFilter",
           "CuckooFilter", "InvalidFilter", "FilterTooLarge",
           "UnsupportedKey", "UnencodableKey", "canonical_bytes", "load", "shard", "size",
           "SHARD_SEED", "SUPPORTED_HASH_IDS", "DEFAULT_HASH_ID",
           "HASH_BACKEND", "SIZING_EXACT", "__version__"]

Filter = Union[BloomFilter, CuckooFilter]


def load(data: Union[bytes, bytearray, memoryview],
         encoding: Optional[str] = None) -> Filter:
    """A bloomfilter or cuckoofilter value from its binary form, by its
    magic number.  ``encoding``: the server_encoding of the database the
    value was made in (default UTF8); a filter of hash id 2 made in a
    database that is not UTF8 needs its encoding."""
    head = bytes(memoryview(data)[:4])
    if head == b"CKOF":
        return CuckooFilter.from_bytes(data, encoding)
    return BloomFilter.from_bytes(data, encoding)
