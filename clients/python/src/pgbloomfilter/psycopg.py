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

__all__ = ["register_bloomfilter", "CachedFilter"]


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


class CachedFilter:
    """A stored filter held locally and re-fetched only when it changed.

    ``get()`` returns the local BloomFilter.  At most every ``max_age``
    seconds it asks the server for ``bf_bits_set`` and ``bf_nbits`` of the
    stored value (the server reads only the 48-byte header) and fetches the
    whole filter again if either differs.  Adds that set no new bit leave
    bits_set alone, and they change no answer either.  A rebuild (bf_agg)
    that happens to end with the same count is not seen: call
    ``invalidate()`` after rebuilding.

        users = CachedFilter(conn, "user_filters", "bf", "region = %s", ("eu",))
        if user_id not in users.get(): ...    # certainly not a user
    """

    def __init__(self, conn, table, column, where="true", params=(),
                 max_age=1.0):
        from psycopg import sql

        self.conn = conn
        self.params = tuple(params)
        self.max_age = max_age
        tbl = (sql.Identifier(*table.split(".")) if isinstance(table, str)
               else table)
        col = sql.Identifier(column) if isinstance(column, str) else column
        cond = sql.SQL(where)
        self._q_fetch = sql.SQL("SELECT {}::bytea FROM {} WHERE {}").format(
            col, tbl, cond)
        self._q_check = sql.SQL(
            "SELECT bf_bits_set({c}), bf_nbits({c}) FROM {t} WHERE {w}"
        ).format(c=col, t=tbl, w=cond)
        self._bf = None
        self._checked = 0.0
        self.fetches = 0

    def _row(self, query):
        row = self.conn.execute(query, self.params).fetchone()
        if row is None or row[0] is None:
            raise LookupError("no stored filter matches")
        return row

    def invalidate(self):
        self._bf = None

    def get(self):
        import time

        now = time.monotonic()
        if self._bf is not None:
            if now - self._checked < self.max_age:
                return self._bf
            bits_set, nbits = self._row(self._q_check)
            self._checked = now
            if bits_set == self._bf.bits_set and nbits == self._bf.nbits:
                return self._bf
        self._bf = BloomFilter.from_bytes(self._row(self._q_fetch)[0])
        self._checked = now
        self.fetches += 1
        return self._bf
