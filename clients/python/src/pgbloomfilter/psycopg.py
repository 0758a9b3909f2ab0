"""psycopg 3 adapter: bloomfilter columns load as BloomFilter objects, and
BloomFilter parameters are sent as bloomfilter values.

    import psycopg
    from pgbloomfilter.psycopg import register_bloomfilter

    conn = psycopg.connect(...)
    register_bloomfilter(conn)          # once per connection
    bf = conn.execute("SELECT bf FROM user_filters WHERE region = %s",
                      ("eu",)).fetchone()[0]
    conn.execute("UPDATE user_filters SET bf = %s WHERE region = %s", (bf, "eu"))

Both the text form (base64) and the binary form are handled, so it works
with text and binary cursors alike.  Arrays of bloomfilter load as lists.
"""

import base64
import binascii

from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

from ._filter import BloomFilter, InvalidFilter

__all__ = ["register_bloomfilter"]


class BloomFilterBinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data):
        return BloomFilter.from_bytes(data)


class BloomFilterTextLoader(Loader):
    format = Format.TEXT

    def load(self, data):
        try:
            raw = base64.b64decode(bytes(data).strip(), validate=True)
        except binascii.Error as e:
            raise InvalidFilter("bloomfilter text is not base64: %s" % e) \
                from None
        return BloomFilter.from_bytes(raw)


class _BinaryDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj):
        return obj.to_bytes()


class _TextDumper(Dumper):
    format = Format.TEXT

    def dump(self, obj):
        return base64.b64encode(obj.to_bytes())


def register_bloomfilter(context, info=None):
    """Register the adapters on a connection or cursor (or, with ``info``
    given, on any adapters context such as ``psycopg.adapters``).  ``info``
    is the type's TypeInfo; by default it is looked up on ``context``."""
    if info is None:
        info = TypeInfo.fetch(context, "bloomfilter")
        if info is None:
            raise LookupError("type bloomfilter not found: is the extension "
                              "installed in this database and on the "
                              "search_path?")
    info.register(context)
    adapters = context.adapters
    oid = info.oid
    text = type("BloomFilterTextDumper", (_TextDumper,), {"oid": oid})
    binary = type("BloomFilterBinaryDumper", (_BinaryDumper,), {"oid": oid})
    # the one registered last is the default for %s
    adapters.register_dumper(BloomFilter, text)
    adapters.register_dumper(BloomFilter, binary)
    adapters.register_loader(oid, BloomFilterTextLoader)
    adapters.register_loader(oid, BloomFilterBinaryLoader)
    return info
