package org.pgbloomfilter;

/**
 * MurmurHash64A, Austin Appleby's 64-bit MurmurHash2 for 64-bit hosts, the
 * hash RedisBloom 2.x chains with the FORCE64 option hash with (layout 6,
 * hash id 4): the input read as little-endian words, the last 1 to 7 bytes
 * as the low bytes of one more word.
 */
public final class MurmurHash64A {
    static final long M = 0xc6a4a7935bd1e995L;
    private static final int R = 47;

    private MurmurHash64A() {
    }

    public static long hash(byte[] data, long seed) {
        int len = data.length;
        int body = len & ~7;
        long h = seed ^ (len * M);
        for (int i = 0; i < body; i += 8) {
            long k = Bytes.load64(data, i) * M;
            k ^= k >>> R;
            h = (h ^ (k * M)) * M;
        }
        if ((len & 7) != 0) {
            long tail = 0;
            for (int i = body; i < len; i++)
                tail |= (data[i] & 0xFFL) << (8 * (i - body));
            h = (h ^ tail) * M;
        }
        h ^= h >>> R;
        h *= M;
        return h ^ (h >>> R);
    }

    /** RedisBloom's pair for an element: a with seed 0xc6a4a7935bd1e995, b with seed a. */
    public static long[] pair(byte[] element) {
        long a = hash(element, M);
        return new long[] {a, hash(element, a)};
    }
}
