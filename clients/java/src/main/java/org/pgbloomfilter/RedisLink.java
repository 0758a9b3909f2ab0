package org.pgbloomfilter;

/**
 * One link of a RedisBloom chain (layout 6): its 53-byte entry in the
 * chain header, decoded, with the server's checks of one
 * (core/redisbloom.c: rb_link_check, rb_link_follows) and RedisBloom's
 * sizing of a new one (bloom_init, as rb_link_init repeats it). The
 * unsigned 64-bit fields are held in longs and compared as unsigned.
 */
final class RedisLink {
    static final int ENTRY = 53;
    /* the options of a chain (RedisBloom's deps/bloom/bloom.h) */
    static final int NOROUND = 1;
    static final int ENTS_IS_BITS = 2;
    static final int FORCE64 = 4;
    static final int NO_SCALING = 8;
    static final int KNOWN_OPTIONS = NOROUND | ENTS_IS_BITS | FORCE64 | NO_SCALING;
    static final double TIGHTENING = 0.5;
    /* RedisBloom's constants, as it writes them */
    private static final double LN2 = 0.693147180559945;
    private static final double LN2_SQUARED = 0.480453013918201;
    /* more hashes than any rate a double holds needs: a bound on a check's work */
    private static final int MAX_HASHES = 2048;
    /* how far bpe, and entries * bpe, may stray: another libm's last bits */
    private static final double REL_SLACK = 1e-9;
    private static final double TWO_64 = 18446744073709551616.0;

    long bytes;
    long bits;
    long size;
    double error;
    double bpe;
    int hashes;
    long entries;
    int n2;

    static RedisLink read(byte[] b, int at) {
        RedisLink l = new RedisLink();
        l.bytes = Bytes.load64(b, at);
        l.bits = Bytes.load64(b, at + 8);
        l.size = Bytes.load64(b, at + 16);
        l.error = Double.longBitsToDouble(Bytes.load64(b, at + 24));
        l.bpe = Double.longBitsToDouble(Bytes.load64(b, at + 32));
        l.hashes = Bytes.load32(b, at + 40);
        l.entries = Bytes.load64(b, at + 44);
        l.n2 = b[at + 52] & 0xFF;
        return l;
    }

    void write(byte[] b, int at) {
        Bytes.store64(b, at, bytes);
        Bytes.store64(b, at + 8, bits);
        Bytes.store64(b, at + 16, size);
        Bytes.store64(b, at + 24, Double.doubleToRawLongBits(error));
        Bytes.store64(b, at + 32, Double.doubleToRawLongBits(bpe));
        Bytes.store32(b, at + 40, hashes);
        Bytes.store64(b, at + 44, entries);
        b[at + 52] = (byte) n2;
    }

    /** The bits an element's positions are taken modulo: 2^n2 for a rounded link. */
    long modulus() {
        return n2 != 0 ? 1L << n2 : bits;
    }

    /* C's conversion of a uint64_t to double (round to nearest) */
    static double unsignedToDouble(long v) {
        return v >= 0 ? (double) v : ((double) ((v >>> 1) | (v & 1))) * 2.0;
    }

    /* C's conversion of a double in [0, 2^64) to uint64_t (truncating) */
    private static long doubleToUnsigned(double d) {
        return d < 0x1p63 ? (long) d : (long) (d - 0x1p63) + Long.MIN_VALUE;
    }

    static double bpeOf(double error) {
        return Math.abs(Math.log(error) / LN2_SQUARED);
    }

    /**
     * What RedisBloom checks of a link it loads, and what every link it
     * makes holds (bpe from the rate, entries what the bits hold, size
     * within entries), since the entries size the next link: null if the
     * link passes, else the server's detail.
     */
    String problem() {
        double k = LN2 * bpe;
        if (!(error > 0.0 && error < 1.0)
            || bytes == 0 || Long.compareUnsigned(bytes, Sizing.MAX_BYTES) > 0 || bits != bytes * 8
            || n2 > 63 || (n2 != 0 && Long.compareUnsigned(bits, 1L << n2) < 0)
            || !(k > 0.0 && k <= MAX_HASHES) || hashes != (int) Math.ceil(k))
            return BloomValidation.SUBFILTER;
        if (!(Math.abs(bpe - bpeOf(error)) <= REL_SLACK * bpe))
            return BloomValidation.LINK_BPE;
        double x = unsignedToDouble(entries) * bpe;
        boolean fits;
        if (n2 == 0) {
            double m = unsignedToDouble(bits);
            double slack = m * REL_SLACK;
            fits = x < m + 1.0 + slack && x > m - 64.0 - slack;
        } else {
            double m = unsignedToDouble(1L << n2);
            double slack = m * REL_SLACK;
            fits = x <= m + slack && x >= m / 2.0 - bpe - 1.0 - slack;
        }
        if (!fits)
            return BloomValidation.LINK_ENTRIES;
        if (Long.compareUnsigned(size, entries) > 0)
            return BloomValidation.LINK_SIZE;
        return null;
    }

    /*
     * Whether this link is the one growth makes after prev in a chain of
     * these options and growth (at least 1): at half prev's rate, exactly,
     * for prev's entries times the growth, which NOROUND keeps as they are
     * and rounding to a power of two only raises.
     */
    boolean follows(RedisLink prev, int options, int growth) {
        if ((options & NO_SCALING) != 0 || error != prev.error * TIGHTENING)
            return false;
        long g = Integer.toUnsignedLong(growth);
        if (Long.compareUnsigned(prev.entries, Long.divideUnsigned(-1L, g)) > 0)
            return false;
        long want = prev.entries * g;
        return (options & NOROUND) != 0 ? entries == want : Long.compareUnsigned(entries, want) >= 0;
    }

    /**
     * A new, empty link for entries elements at error, as RedisBloom's
     * bloom_init sizes it under options; null where that fails or would
     * make a link the server refuses (no bits, a shift of 64, past the
     * value size limit). Nothing is allocated here.
     */
    static RedisLink sized(long entries, double error, int options) {
        if (entries == 0 || !(error > 0.0 && error < 1.0))
            return null;
        RedisLink l = new RedisLink();
        l.error = error;
        l.entries = entries;
        l.bpe = bpeOf(error);
        long bits;
        if ((options & ENTS_IS_BITS) != 0) {
            if (Long.compareUnsigned(entries, 63) > 0)
                return null;
            l.n2 = (int) entries;
            bits = 1L << l.n2;
            l.entries = doubleToUnsigned(unsignedToDouble(bits) / l.bpe);
        } else if ((options & NOROUND) != 0) {
            double want = unsignedToDouble(entries) * l.bpe;
            if (!(want < TWO_64))
                return null;
            bits = doubleToUnsigned(want);
        } else {
            double want = unsignedToDouble(entries) * l.bpe;
            int bn2 = Math.getExponent(want);      /* C's logb; 1024 for infinity and NaN */
            if (!(bn2 >= 0 && bn2 < 63))
                return null;
            l.n2 = bn2 + 1;
            bits = 1L << l.n2;
            /* the spare bits of the rounding take more entries */
            l.entries += doubleToUnsigned(unsignedToDouble(doubleToUnsigned(unsignedToDouble(bits) - want))
                                          / l.bpe);
        }
        if (bits == 0 || Long.compareUnsigned(Long.divideUnsigned(bits, 8), Sizing.MAX_BYTES) > 0)
            return null;
        l.bytes = bits % 64 != 0 ? (bits / 64 + 1) * 8 : bits / 8;
        l.bits = l.bytes * 8;
        l.hashes = (int) Math.ceil(LN2 * l.bpe);
        return l.problem() == null ? l : null;
    }

    /**
     * The link that follows last in a chain of these options and growth
     * (rb_next_link), or null where none can: a NONSCALING chain, or
     * growth the server's input would have refused, or sizing failing.
     */
    static RedisLink next(RedisLink last, int options, int growth) {
        long g = Integer.toUnsignedLong(growth);
        if ((options & (NO_SCALING | ENTS_IS_BITS)) != 0 || g == 0 || g > BloomValidation.MAX_EXPANSION
            || Long.compareUnsigned(last.entries, Long.divideUnsigned(-1L, g)) > 0)
            return null;
        return sized(last.entries * g, last.error * TIGHTENING, options);
    }
}
