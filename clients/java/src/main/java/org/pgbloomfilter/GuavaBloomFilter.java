package org.pgbloomfilter;

/**
 * A bloomfilter of layout 5, "guava" (docs/format.md, "Layout 5, guava,
 * and hash id 3"): the bits, hashing and sizing of Guava's
 * {@code BloomFilter} (strategy MURMUR128_MITZ_64), which the server makes
 * with {@code bf_create(n, p, layout => 'guava', key_type => t)} and reads
 * from Guava's own bytes with {@code bf_from_guava}.
 *
 * <p>Its key type names Guava's funnel: bigint ({@code Funnels.longFunnel}),
 * integer ({@code integerFunnel}, 4 bytes: a long beyond int's range is
 * absent, and refused by an add), text ({@code stringFunnel(UTF_8)}) or
 * bytea ({@code byteArrayFunnel}). A key is those bytes hashed with
 * MurmurHash3 x64_128, seed 0; it sets or tests k bits of an array of
 * 64-bit words, bit {@code (h1 + i * h2 & Long.MAX_VALUE) % nbits} for
 * i = 0 .. k-1.
 */
public final class GuavaBloomFilter extends ForeignBloomFilter {
    static final int HASH_ID = 3;
    /* what the payload may hold: 64-bit words up to the value size limit */
    private static final long MAX_LONGS = (Sizing.MAX_BYTES - HEADER) / 8;
    private static final int MAX_HASHES = 255;
    private static final double LN2 = Math.log(2);
    /* writeTo: byte strategy, byte k, int number of longs */
    private static final int GUAVA_PREFIX = 6;
    private static final byte MITZ_64 = 1;

    GuavaBloomFilter(byte[] buf) {
        super(buf);
    }

    /** The key types a Guava filter may have: the four funnels'. */
    static boolean funnelKeyType(int oid) {
        return oid == KeyTypes.INT8 || oid == KeyTypes.INT4 || oid == KeyTypes.TEXT
            || oid == KeyTypes.BYTEA;
    }

    /* ---- validation: the layout's check_header and check_payload, in the server's order ---- */

    static void checkHeader(byte[] b) {
        long nbits = Bytes.load64(b, 16);
        if (Bytes.load32(b, 8) != 0)
            throw BloomValidation.bad(BloomValidation.RESERVED);
        if (!funnelKeyType(Bytes.load32(b, 12)))
            throw BloomValidation.bad(BloomValidation.KEY_TYPE);
        if (nbits <= 0 || nbits % 64 != 0 || nbits / 64 > MAX_LONGS)
            throw BloomValidation.bad(BloomValidation.NBITS);
        if (b.length - HEADER != nbits / 8)
            throw BloomValidation.bad(BloomValidation.LENGTH);
        if (b[7] == 0)
            throw BloomValidation.bad(BloomValidation.NHASHES);
        if (Long.compareUnsigned(Bytes.load64(b, 40), nbits) > 0)
            throw BloomValidation.bad(BloomValidation.BITS_SET);
    }

    static void checkPayload(byte[] b) {
        if (Blocks.popcount(b, HEADER, b.length - HEADER) != Bytes.load64(b, 40))
            throw BloomValidation.bad(BloomValidation.BITS_SET);
    }

    /* ---- building: bf_create(n, p, layout => 'guava', key_type => t) ---- */

    /**
     * {@code bf_create(capacity, errorRate, layout => 'guava', key_type => keyType)}:
     * Guava's {@code BloomFilter.create(funnel, capacity, errorRate)}, the
     * same bytes as the server's. Refused as the server refuses it: no key
     * type, one without a funnel, a capacity below 1, a rate outside (0, 1),
     * and what Guava refuses (sizing to 0 bits, or to more than 255 hash
     * functions); {@code IllegalStateException} past the value size limit.
     */
    public static GuavaBloomFilter create(long capacity, double errorRate, int keyType) {
        if (keyType == KeyTypes.UNTYPED)
            throw new IllegalArgumentException("a Guava filter needs a key type: bigint, integer,"
                + " text or bytea (Funnels.longFunnel, integerFunnel, stringFunnel(UTF_8), byteArrayFunnel)");
        if (!funnelKeyType(keyType))
            throw new IllegalArgumentException("a Guava filter cannot have keys of type "
                + KeyTypes.name(keyType) + ": give bigint, integer, text or bytea");
        if (capacity <= 0)
            throw new IllegalArgumentException("bloom filter capacity must be positive, got " + capacity);
        if (!(errorRate > 0.0 && errorRate < 1.0))
            throw new IllegalArgumentException(
                "bloom filter error rate must be greater than 0 and less than 1, got " + errorRate);
        long m = optimalBits(capacity, errorRate);
        int k = optimalHashes(capacity, m);
        if (m <= 0 || k > MAX_HASHES)
            throw new IllegalArgumentException("Guava cannot size a filter for " + capacity
                + " elements at error rate " + errorRate + ": its sizing gives "
                + (m <= 0 ? "0 bits" : "more than 255 hash functions")
                + ", which BloomFilter.create refuses");
        long nlongs = m / 64 + (m % 64 != 0 ? 1 : 0);
        if (nlongs > MAX_LONGS)
            throw new IllegalStateException("bloom filter for " + capacity + " elements at error rate "
                + errorRate + " is too large (the limit is " + Sizing.MAX_BYTES + " bytes)");
        byte[] b = new byte[Math.toIntExact(HEADER + nlongs * 8)];
        writeHeader(b, 0, LAYOUT_GUAVA, k, 0, nlongs * 64, capacity, errorRate);
        b[6] = HASH_ID;
        Bytes.store32(b, 12, keyType);
        return new GuavaBloomFilter(b);
    }

    /*
     * BloomFilter.optimalNumOfBits: Java's (long) of -n ln p / (ln 2)^2,
     * truncating and saturating as the server's C imitates it.
     */
    static long optimalBits(long n, double p) {
        return (long) (-n * Math.log(p) / (LN2 * LN2));
    }

    /* BloomFilter.optimalNumOfHashFunctions: round(m / n ln 2), at least 1 */
    static int optimalHashes(long n, long m) {
        return Math.max(1, (int) Math.round((double) m / n * LN2));
    }

    /* ---- Guava's serialized form: writeTo and readFrom ---- */

    /**
     * {@code bf_to_guava(f)}: the bytes Guava's {@code writeTo} writes for
     * this filter (strategy ordinal 1, k, the number of longs big-endian,
     * then the longs big-endian), for {@code BloomFilter.readFrom(in, funnel)}.
     */
    public byte[] toGuava() {
        int nlongs = (int) (nbits() / 64);
        byte[] out = new byte[GUAVA_PREFIX + nlongs * 8];
        out[0] = MITZ_64;
        out[1] = buf[7];
        for (int i = 0; i < 4; i++)
            out[2 + i] = (byte) (nlongs >>> (8 * (3 - i)));
        for (int w = 0; w < nlongs; w++)
            Bytes.store64(out, GUAVA_PREFIX + 8 * w, Long.reverseBytes(Bytes.load64(buf, HEADER + 8 * w)));
        return out;
    }

    /**
     * {@code bf_from_guava(bytes, keyType)}: the filter of Guava's
     * {@code writeTo} bytes, built with the funnel of keyType. Refused as
     * the server refuses them: what {@code readFrom} refuses and trailing
     * bytes ({@link InvalidFilterException}, the server's 22P03), strategy
     * MURMUR128_MITZ_32 (ordinal 0, {@code UnsupportedOperationException},
     * 0A000), past the value size limit ({@code IllegalStateException}).
     * Capacity and rate, which Guava's form does not carry, are those of an
     * optimally sized filter of that size and k: m ln 2 / k and 2^-k.
     */
    public static GuavaBloomFilter fromGuava(byte[] bytes, int keyType) {
        if (!funnelKeyType(keyType))
            throw new IllegalArgumentException("a Guava filter cannot have keys of type "
                + KeyTypes.name(keyType) + ": give bigint, integer, text or bytea");
        if (bytes.length < GUAVA_PREFIX)
            throw badGuava("The data ends before the number of longs its prefix gives.");
        /* Java reads the ordinal as a signed byte: 0x80 .. 0xff are negative */
        if ((bytes[0] & 0xFF) > MITZ_64)
            throw badGuava("The first byte is not the ordinal of a Guava strategy (0 or 1).");
        if (bytes[0] == 0)
            throw new UnsupportedOperationException("Guava filters of strategy MURMUR128_MITZ_32 are not"
                + " supported: only MURMUR128_MITZ_64 (ordinal 1) is");
        int k = bytes[1] & 0xFF;
        if (k == 0)
            throw badGuava("The number of hash functions must be between 1 and 255.");
        int nlongs = ((bytes[2] & 0xFF) << 24) | ((bytes[3] & 0xFF) << 16) | ((bytes[4] & 0xFF) << 8)
            | (bytes[5] & 0xFF);
        if (nlongs <= 0)
            throw badGuava("The number of longs must be positive.");
        if (nlongs > MAX_LONGS)
            throw new IllegalStateException("Guava filter of " + nlongs + " longs is too large (the limit is "
                + Sizing.MAX_BYTES + " bytes)");
        long data = bytes.length - GUAVA_PREFIX;
        if (data != nlongs * 8L)
            throw badGuava(data < nlongs * 8L ? "The data ends before the number of longs its prefix gives."
                           : "The data goes on after the number of longs its prefix gives.");
        long nbits = nlongs * 64L;
        double capacity = Math.floor(nbits * LN2 / k + 0.5);
        byte[] b = new byte[HEADER + nlongs * 8];
        writeHeader(b, 0, LAYOUT_GUAVA, k, 0, nbits, capacity >= 1.0 ? (long) capacity : 1,
                    Math.pow(0.5, k));
        b[6] = HASH_ID;
        Bytes.store32(b, 12, keyType);
        for (int w = 0; w < nlongs; w++)
            Bytes.store64(b, HEADER + 8 * w, Long.reverseBytes(Bytes.load64(bytes, GUAVA_PREFIX + 8 * w)));
        Bytes.store64(b, 40, Blocks.popcount(b, HEADER, nbits / 8));
        return new GuavaBloomFilter(b);
    }

    private static InvalidFilterException badGuava(String detail) {
        return new InvalidFilterException("invalid serialized Guava bloom filter: " + detail);
    }

    @Override
    public BloomFilter emptyCopy() {
        byte[] b = new byte[buf.length];
        System.arraycopy(buf, 0, b, 0, HEADER);
        Bytes.store64(b, 40, 0);
        return new GuavaBloomFilter(b);
    }

    /* bf_set_key_type: a Guava filter hashes each type as its own funnel does */
    @Override
    int resetKeyType(int oid) {
        KeyTypes.checkGiven(oid);
        if (oid != keyType)
            throw new IllegalArgumentException("cannot change the key type of a filter from "
                + KeyTypes.name(keyType) + " to " + KeyTypes.name(oid)
                + ": a Guava filter hashes its keys as the funnel of its key type does (rebuild the filter)");
        return oid;
    }

    /* ---- hashing: the funnel's bytes, MurmurHash3 x64_128 with seed 0 ---- */

    @Override
    long[] hashInteger(long v, int intType) {
        if (intType != KeyTypes.INT4)
            return Murmur3.hash8(v, 0);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)
            return null;            /* no integer equals it */
        byte[] b = new byte[4];
        Bytes.store32(b, 0, (int) v);
        return Murmur3.hash128(b, 0);
    }

    @Override
    long[] hashKeyBytes(byte[] b) {
        return Murmur3.hash128(b, 0);
    }

    @Override
    void checkTextKey(byte[] utf8, TextEncoding db) {
        if (db.name.equals("UTF8"))
            return;
        for (byte c : utf8)
            if (c < 0)
                throw new UnencodableKeyException("text keys of a Guava filter must be ASCII in a"
                    + " database whose encoding is not UTF8: Guava hashes the UTF-8 bytes of a string,"
                    + " and the database encoding is " + db.name);
    }

    @Override
    RuntimeException uuidRefused() {
        return KeyTypes.refused("UUID", keyType);
    }

    /* ---- bits ---- */

    @Override
    boolean testHash(long h1, long h2) {
        long nbits = nbits();
        int k = nhashes();
        long combined = h1;
        for (int i = 0; i < k; i++, combined += h2) {
            long bit = (combined & Long.MAX_VALUE) % nbits;
            if ((buf[HEADER + (int) (bit >>> 3)] & (1 << (bit & 7))) == 0)
                return false;
        }
        return true;
    }

    @Override
    void addHash(long h1, long h2) {
        long nbits = nbits();
        int k = nhashes();
        long set = bitsSet();
        long combined = h1;
        for (int i = 0; i < k; i++, combined += h2) {
            long bit = (combined & Long.MAX_VALUE) % nbits;
            int at = HEADER + (int) (bit >>> 3);
            int mask = 1 << (bit & 7);
            if ((buf[at] & mask) == 0) {
                buf[at] |= (byte) mask;
                set++;
            }
        }
        Bytes.store64(buf, 40, set);
    }
}
