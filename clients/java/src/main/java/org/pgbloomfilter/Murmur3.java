package org.pgbloomfilter;

/**
 * MurmurHash3 x64_128, the hash of record of every filter the server makes
 * (libmurmurhash's {@code lmmh_x64_128}, seeded with the filter's 32-bit
 * seed). Its two output words are h1 and h2.
 *
 * <p>The input is read as little-endian 64-bit words on every host, so the
 * 8-byte key every integer widens to is a single tail word and a 16-byte
 * uuid is one body block; {@link #hash8} and {@link #hash16} write the
 * function out for those lengths, for the per-key hot path. The unit tests
 * hold them to the general loop and the whole to SMHasher's verification
 * value 0x6384BA69.
 */
public final class Murmur3 {
    static final long C1 = 0x87c37b91114253d5L;
    static final long C2 = 0x4cf5ad432745937fL;

    private Murmur3() {
    }

    /** MurmurHash3's 64-bit finaliser. */
    public static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    static long mixK1(long k1) {
        k1 *= C1;
        k1 = Long.rotateLeft(k1, 31);
        return k1 * C2;
    }

    static long mixK2(long k2) {
        k2 *= C2;
        k2 = Long.rotateLeft(k2, 33);
        return k2 * C1;
    }

    /** The seed as the C code widens it: an unsigned 32-bit value. */
    static long seedWord(int seed) {
        return seed & 0xFFFFFFFFL;
    }

    /** Both words of the hash of data[off, off + len): {h1, h2}. */
    public static long[] hash128(byte[] data, int off, int len, int seed) {
        long[] out = new long[2];
        hash128(data, off, len, seed, out);
        return out;
    }

    public static long[] hash128(byte[] data, int seed) {
        return hash128(data, 0, data.length, seed);
    }

    static void hash128(byte[] data, int off, int len, int seed, long[] out) {
        long h1 = seedWord(seed);
        long h2 = h1;
        int nblocks = len >>> 4;

        for (int i = 0; i < nblocks; i++) {
            int p = off + 16 * i;
            h1 ^= mixK1(Bytes.load64(data, p));
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(Bytes.load64(data, p + 8));
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }

        int tail = off + 16 * nblocks;
        int rest = len & 15;
        long k1 = 0;
        long k2 = 0;
        /* the tail's bytes as little-endian words: k1 bytes 0..7, k2 8..14 */
        for (int i = rest - 1; i >= 8; i--)
            k2 = (k2 << 8) | (data[tail + i] & 0xFF);
        for (int i = Math.min(rest, 8) - 1; i >= 0; i--)
            k1 = (k1 << 8) | (data[tail + i] & 0xFF);
        if (rest > 8)
            h2 ^= mixK2(k2);
        if (rest > 0)
            h1 ^= mixK1(k1);
        finish(h1, h2, len, out);
    }

    private static void finish(long h1, long h2, long len, long[] out) {
        h1 ^= len;
        h2 ^= len;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
        out[0] = h1;
        out[1] = h2;
    }

    /** The hash of the 8 bytes whose little-endian value is word. */
    public static long[] hash8(long word, int seed) {
        long[] out = new long[2];
        long s = seedWord(seed);
        finish(s ^ mixK1(word), s, 8, out);
        return out;
    }

    /** h1 of {@link #hash8}, for callers that need only that word. */
    static long hash8H1(long word, int seed) {
        long s = seedWord(seed);
        long h1 = (s ^ mixK1(word)) ^ 8;
        long h2 = s ^ 8;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        return h1 + h2;
    }

    /**
     * The hash of 16 bytes whose little-endian words are lo (bytes 0..7) and
     * hi (bytes 8..15): one body block, no tail.
     */
    public static long[] hash16(long lo, long hi, int seed) {
        long[] out = new long[2];
        long h1 = seedWord(seed);
        long h2 = h1;

        h1 ^= mixK1(lo);
        h1 = Long.rotateLeft(h1, 27);
        h1 += h2;
        h1 = h1 * 5 + 0x52dce729;
        h2 ^= mixK2(hi);
        h2 = Long.rotateLeft(h2, 31);
        h2 += h1;
        h2 = h2 * 5 + 0x38495ab5;
        finish(h1, h2, 16, out);
        return out;
    }
}
