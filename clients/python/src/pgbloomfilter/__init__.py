"""Client side of the bloomfilter PostgreSQL type.

    from pgbloomfilter import BloomFilter
    bf = BloomFilter.from_bytes(row[0])        # SELECT f::bytea ...
    bf.contains(42), "alice" in bf, bf.contains_many(ids)

    local = BloomFilter.create(100000, 0.01, hash_id=1).add_many(ids)
    cur.execute("INSERT INTO t VALUES (%s::bytea::bloomfilter)",
                (local.to_bytes(),))

``pgbloomfilter.psycopg.register_bloomfilter(conn)`` makes psycopg 3 load
``bloomfilter`` columns as BloomFilter objects and send them back.
"""

from ._filter import (BloomFilter, InvalidFilter, canonical_bytes,
                      SUPPORTED_HASH_IDS, DEFAULT_HASH_ID)
from ._murmur import BACKEND as HASH_BACKEND
from ._sizing import EXACT as SIZING_EXACT, FilterTooLarge, size

__all__ = ["BloomFilter", "InvalidFilter", "FilterTooLarge", "canonical_bytes",
           "size", "SUPPORTED_HASH_IDS", "DEFAULT_HASH_ID", "HASH_BACKEND",
           "SIZING_EXACT"]
__version__ = "0.1.0"
