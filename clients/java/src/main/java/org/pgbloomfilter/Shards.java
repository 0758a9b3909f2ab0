package org.pgbloomfilter;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * {@code bf_shard(key, n)}: which of n shards a key belongs to, the same
 * number the server computes. The key's canonical bytes (hash id 2) are
 * hashed with MurmurHash3 x64_128 and the fixed seed 0x44524853 ("SHRD");
 * the shard is the high word of h2 * n.
 */
public final class Shards {
    static final int SHARD_SEED = 0x44524853;
    public static final int MAX_SHARDS = 65536;

    private Shards() {
    }

    private static int pick(long h2, int nshards) {
        if (nshards < 1 || nshards > MAX_SHARDS)
            throw new IllegalArgumentException("number of shards must be between 1 and "
                + MAX_SHARDS + ", got " + nshards);
        return (int) Bytes.mulHigh(h2, nshards);
    }

    /** The shard of an integer key (int2, int4, int8 columns). */
    public static int shard(long key, int nshards) {
        return pick(Murmur3.hash8(key, SHARD_SEED)[1], nshards);
    }

    /** The shard of a text key (UTF8 database). */
    public static int shard(String key, int nshards) {
        byte[] b = key.getBytes(StandardCharsets.UTF_8);
        return pick(Murmur3.hash128(b, 0, b.length, SHARD_SEED)[1], nshards);
    }

    /**
     * The shard of a text key in a database of this {@code server_encoding}:
     * {@code bf_shard} hashes text as the database's bytes (hash id 2's
     * rules, always). A key that encoding cannot hold raises
     * {@link UnencodableKeyException}.
     */
    public static int shard(String key, int nshards, String serverEncoding) {
        byte[] b = TextEncoding.of(serverEncoding).encode(key);
        return pick(Murmur3.hash128(b, 0, b.length, SHARD_SEED)[1], nshards);
    }

    public static int shard(UUID key, int nshards) {
        return pick(Murmur3.hash16(Long.reverseBytes(key.getMostSignificantBits()),
                                   Long.reverseBytes(key.getLeastSignificantBits()),
                                   SHARD_SEED)[1], nshards);
    }

    public static int shard(byte[] key, int nshards) {
        return pick(Murmur3.hash128(key, 0, key.length, SHARD_SEED)[1], nshards);
    }

    /**
     * {@code bf_shard_capacity(capacity, n)}: what to build each of n shards
     * for, the mean plus six standard deviations of a shard's share.
     */
    public static long shardCapacity(long capacity, int nshards) {
        if (capacity <= 0)
            throw new IllegalArgumentException("bloom filter capacity must be positive, got " + capacity);
        pick(0, nshards);
        double p = 1.0 / nshards;
        double mean = (double) capacity * p;
        double want = Math.ceil(mean + 6.0 * Math.sqrt((double) capacity * p * (1.0 - p)));
        if (want >= (double) capacity)
            return capacity;
        return Math.max((long) want, 1);
    }
}
