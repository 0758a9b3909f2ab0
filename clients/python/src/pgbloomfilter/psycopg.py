"""psycopg 3 adapter: bloomfilter and cuckoofilter columns load as filter
objects (every layout), and filter objects are sent back as those types.

    import psycopg
    from pgbloomfilter.psycopg import register_bloomfilter

    conn = psycopg.connect(...)
    register_bloomfilter(conn)          # once per connection
    bf = conn.execute("SELECT bf FROM user_filters WHERE region = %s",
                      ("eu",)).fetchone()[0]
    conn.execute("UPDATE user_filters SET bf = %s WHERE region = %s", (bf, "eu"))

Filters of hash id 2 (made by 1.4 and earlier) hashed text keys in the
database's encoding: the loaders read the connection's server_encoding
and hash such keys in it, so checks answer as the server does in a
database of any encoding.

Both the text form (base64) and the binary form are handled, so it works
with text and binary cursors alike; arrays load as lists.  A value this
client cannot read (a layout or version newer than it knows, damaged
bytes) never fails the query: it loads as an ``UnreadableFilter`` holding
the raw bytes and the reason.
"""

import base64
import binascii
import time
from typing import Any, Optional, Sequence, Union

from psycopg import sql
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format, TransactionStatus
from psycopg.types import TypeInfo

from . import load
from ._cuckoo import CuckooFilter
from ._filter import BloomFilter

__all__ = ["register_bloomfilter", "CachedFilter", "UnreadableFilter",
           "server_encoding"]

Filter = Union[BloomFilter, CuckooFilter]


class UnreadableFilter:
    """A filter value the client could not read: ``data`` is its binary
    form (None if not even that could be decoded), ``reason`` says why.
    It is falsy, and checking a key in it raises."""

    __slots__ = ("data", "reason", "type_name")

    def __init__(self, data: Optional[bytes], reason: str,
                 type_name: str) -> None:
        self.data = data
        self.reason = reason
        self.type_name = type_name

    def __bool__(self) -> bool:
        return False

    def __contains__(self, key: Any) -> bool:
        raise ValueError("cannot check a key: this %s value was not read (%s)"
                         % (self.type_name, self.reason))

    def __repr__(self) -> str:
        return "UnreadableFilter(%s: %s)" % (self.type_name, self.reason)


def server_encoding(conn: Any) -> Optional[str]:
    """The database's encoding as the server reported it at connection
    (server_encoding), or None if unknown."""
    info = getattr(conn, "info", None)
    if info is None:
        return None
    return info.parameter_status("server_encoding") or None


def _read(raw: Optional[bytes], type_name: str, why: str = "",
          encoding: Optional[str] = None) -> Union[Filter, UnreadableFilter]:
    if raw is None:
        return UnreadableFilter(None, why, type_name)
    try:
        return load(raw, encoding)
    except Exception as e:      # never fail the whole query for one value
        return UnreadableFilter(raw, "%s: %s" % (type(e).__name__, e),
                                type_name)


class _Loader(Loader):
    type_name = "bloomfilter"

    def _encoding(self) -> Optional[str]:
        # the value was made in this database (or moved here: then its text
        # keys were hashed in the source's encoding, which only the caller
        # knows; load(f::bytea, encoding) reads it so)
        return server_encoding(self.connection)


class _BinaryLoader(_Loader):
    format = Format.BINARY

    def load(self, data: Any) -> Union[Filter, UnreadableFilter]:
        return _read(bytes(data), self.type_name, encoding=self._encoding())


class _TextLoader(_Loader):
    format = Format.TEXT

    def load(self, data: Any) -> Union[Filter, UnreadableFilter]:
        try:
            raw = base64.b64decode(bytes(data).strip(), validate=True)
        except binascii.Error as e:
            return _read(None, self.type_name, "text form is not base64: %s" % e)
        return _read(raw, self.type_name, encoding=self._encoding())


class _BinaryDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj: Any) -> bytes:
        return obj.to_bytes()


class _TextDumper(Dumper):
    format = Format.TEXT

    def dump(self, obj: Any) -> bytes:
        return base64.b64encode(obj.to_bytes())


def _register_one(context: Any, info: TypeInfo, cls: type) -> None:
    info.register(context)
    adapters = context.adapters
    name = info.name
    text = type("%sTextDumper" % name, (_TextDumper,), {"oid": info.oid})
    binary = type("%sBinaryDumper" % name, (_BinaryDumper,), {"oid": info.oid})
    # the one registered last is the default for %s
    adapters.register_dumper(cls, text)
    adapters.register_dumper(cls, binary)
    for base in (_TextLoader, _BinaryLoader):
        loader = type("%s%s" % (name, base.__name__), (base,),
                      {"type_name": name})
        adapters.register_loader(info.oid, loader)


def register_bloomfilter(context: Any, info: Optional[TypeInfo] = None,
                         cuckoo_info: Optional[TypeInfo] = None) -> TypeInfo:
    """Register the adapters of both types on a connection or cursor (or,
    with the TypeInfos given, on any adapters context such as
    ``psycopg.adapters``).  By default the types are looked up by name on
    ``context``; cuckoofilter is skipped where the extension predates it.
    The lookup ends its own transaction, so a non-autocommit connection is
    left idle, as it was."""
    if info is None:
        info = _fetch(context, "bloomfilter")
        if info is None:
            raise LookupError("type bloomfilter not found: is the extension "
                              "installed in this database and on the "
                              "search_path?")
        if cuckoo_info is None:
            cuckoo_info = _fetch(context, "cuckoofilter")
    _register_one(context, info, BloomFilter)
    if cuckoo_info is not None:
        _register_one(context, cuckoo_info, CuckooFilter)
    return info


def _fetch(context: Any, name: str) -> Optional[TypeInfo]:
    conn = getattr(context, "connection", context)
    with _own_transaction(conn):
        return TypeInfo.fetch(conn, name)


class _own_transaction:
    """A transaction of our own when the connection has none open, so that
    nothing we read leaves it idle in transaction (holding back VACUUM);
    inside the caller's transaction we add nothing."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.tx: Any = None

    def __enter__(self) -> None:
        conn = self.conn
        if not conn.autocommit and \
                conn.info.transaction_status == TransactionStatus.IDLE:
            self.tx = conn.transaction()
            self.tx.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        if self.tx is not None:
            return self.tx.__exit__(*exc)
        return None


class CachedFilter:
    """A stored filter (either type, any layout) held locally and fetched
    again only when the stored row changed.

    ``get()`` returns the local filter.  At most every ``max_age`` seconds
    it asks the server for the row's version token (``xmin`` by default:
    every UPDATE of the row makes a new version with a new xmin, and the
    server reads no filter bytes to answer) and fetches the whole filter
    again if it differs.  For a view or query whose rows have no xmin, pass
    ``token="md5"``: the server then hashes the stored value (reading it
    whole, but sending 32 bytes).

        users = CachedFilter(conn, "user_filters", "bf", "region = %s", ("eu",))
        if user_id not in users.get(): ...    # certainly not a user

    Each query runs in a transaction of its own that ends with it (unless
    the caller has one open), so the connection is never left idle in
    transaction, on psycopg's default non-autocommit connections too.
    """

    def __init__(self, conn: Any, table: Union[str, sql.Composable],
                 column: Union[str, sql.Composable], where: str = "true",
                 params: Sequence[Any] = (), max_age: float = 1.0,
                 token: str = "xmin") -> None:
        if token not in ("xmin", "md5"):
            raise ValueError("token must be 'xmin' or 'md5'")
        self.conn = conn
        self.params = tuple(params)
        self.max_age = max_age
        tbl = (sql.Identifier(*table.split(".")) if isinstance(table, str)
               else table)
        col = sql.Identifier(column) if isinstance(column, str) else column
        tok = (sql.SQL("xmin::text") if token == "xmin"
               else sql.SQL("md5({}::bytea)").format(col))
        cond = sql.SQL(where)
        self._q_fetch = sql.SQL("SELECT {}::bytea, {} FROM {} WHERE {}").format(
            col, tok, tbl, cond)
        self._q_check = sql.SQL("SELECT {} FROM {} WHERE {}").format(
            tok, tbl, cond)
        self._filter: Optional[Filter] = None
        self._token: Optional[str] = None
        self._checked = 0.0
        self.fetches = 0

    def _row(self, query: sql.Composable) -> Sequence[Any]:
        with _own_transaction(self.conn):
            row = self.conn.execute(query, self.params).fetchone()
        if row is None or row[0] is None:
            raise LookupError("no stored filter matches")
        return row

    def invalidate(self) -> None:
        """Fetch again on the next get()."""
        self._filter = None

    def get(self) -> Filter:
        now = time.monotonic()
        if self._filter is not None:
            if now - self._checked < self.max_age:
                return self._filter
            (token,) = self._row(self._q_check)
            self._checked = now
            if token == self._token:
                return self._filter
        raw, token = self._row(self._q_fetch)
        self._filter = load(raw, server_encoding(self.conn))
        self._token = token
        self._checked = now
        self.fetches += 1
        return self._filter
