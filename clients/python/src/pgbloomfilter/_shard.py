"""bf_shard(key, n): which of n shards a key belongs to (the server's
src/bloomfilter_shard.c).

The key's canonical bytes under hash id 2's rules (always 2, whatever new
filters use: text in the database's encoding) are hashed with MurmurHash3 x64_128 and the fixed seed
0x44524853 ("SHRD"); the shard is the high 64 bits of h2 * n.
"""

from typing import Any, Optional, Union

from . import _murmur
from ._keys import encoder, key_type_oid

__all__ = ["shard", "SHARD_SEED", "MAX_SHARDS"]

SHARD_SEED = 0x44524853
MAX_SHARDS = 65536


def shard(key: Any, nshards: int, key_type: Union[int, str] = 0,
          encoding: Optional[str] = None) -> int:
    """bf_shard(key, nshards): 0 .. nshards - 1.  ``key_type`` (a type OID or
    an SQL name, as ``bf_shard(key, nshards, key_type)``) converts the key as the server converts a key of another type to the
    shard table's key type (a str '5' for bigint keys is 5); 0 takes the
    key's own type.  bf_shard hashes text in the database's encoding:
    ``encoding`` is its server_encoding (default UTF8); a str it cannot
    hold raises UnencodableKey."""
    if isinstance(nshards, bool) or not isinstance(nshards, int) \
            or not 1 <= nshards <= MAX_SHARDS:
        raise ValueError("number of shards must be between 1 and %d, got %r"
                         % (MAX_SHARDS, nshards))
    data = encoder(2, key_type_oid(key_type), encoding)(key)
    if data is None:
        raise ValueError("key %r equals no value of the key type, so it has "
                         "no shard" % (key,))
    _, h2 = _murmur.hash_pair(data, SHARD_SEED)
    return (h2 * nshards) >> 64
