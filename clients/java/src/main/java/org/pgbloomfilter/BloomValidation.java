package org.pgbloomfilter;

/**
 * The server's check of a bloomfilter value from outside (bloom_validate and
 * each layout's check_header and check_payload), in its order and with its
 * messages (core/header.c, bloom_check_message), so that a value is refused
 * here exactly where the server's binary input refuses it, for the same
 * reason.
 */
final class BloomValidation {
    private static final int HEADER = BloomFilter.HEADER;
    /* a scalable filter: the prefix, then per sub-filter its count and header */
    private static final int PREFIX = 16;
    private static final int SUB_HEAD = 8 + HEADER;
    static final int MAX_EXPANSION = 1024;
    private static final int KEY_TYPE_LIMIT = 10000;

    static final String LENGTH = "The length does not match the header.";
    static final String MAGIC = "The value does not start with the bloomfilter magic number.";
    static final String VERSION = "The format version is not supported by this build.";
    static final String LAYOUT = "The bit layout is not supported by this build.";
    static final String HASH = "The hash function is not supported by this build.";
    static final String RESERVED = "Reserved header fields must be zero.";
    static final String NBITS = "The number of bits must be a positive multiple of 512 within the size limit.";
    static final String NHASHES = "The number of hash functions must be between 1 and 64.";
    static final String CAPACITY = "The capacity must be between 1 and 9223372036854775807.";
    static final String ERROR_RATE = "The error rate must be greater than 0 and less than 1.";
    static final String BITS_SET = "The count of bits set does not match the bits.";
    static final String SUBFILTER = "A sub-filter is not sized as its position in the filter requires.";
    static final String KEY_TYPE = "The key type must be 0 or the OID of a built-in type that filters hash.";
    static final String HASH_LIST = "A list of hashes has k 0, a capacity equal to its cells and zero cells past its count.";
    static final String DIVISOR = "The fill divisor of a scalable filter must be 1 outside a running aggregate.";
    static final String SUB_KEY_TYPE = "The sub-filters of a scalable filter must have key type 0.";
    static final String LINK_BPE = "A RedisBloom link's bpe must be the bits per element its error rate gives, |ln(error)| / ln(2)^2.";
    static final String LINK_ENTRIES = "A RedisBloom link's entries must be what its bits hold at its bpe, as RedisBloom sizes a link.";
    static final String LINK_SIZE = "A RedisBloom link's size, the elements it counted, must not exceed its entries.";
    static final String LINK_NEXT = "Each RedisBloom link after the first must be the one growth made: half the error rate of the link before it and its entries times the growth; a NONSCALING chain has one link.";
    static final String GROWTH = "A RedisBloom chain that scales must have a growth between 1 and 1024, and not the option ENTS_IS_BITS (2), with which a link of e entries is followed by one of 2^(e * growth) bits.";

    private BloomValidation() {
    }

    static InvalidFilterException bad(String message) {
        return new InvalidFilterException("invalid bloomfilter value: " + message);
    }

    static void check(byte[] b) {
        if (b == null)
            throw new NullPointerException("bytes");
        if (b.length < HEADER)
            throw bad(LENGTH);
        if (Bytes.load32(b, 0) != BloomFilter.MAGIC)
            throw bad(MAGIC);
        int layout = b[5];
        if (layout == BloomFilter.LAYOUT_GUAVA || layout == BloomFilter.LAYOUT_REDISBLOOM) {
            checkForeign(b, layout);
            return;
        }
        checkHeader(b, 0, b.length, true);
        if (layout == BloomFilter.LAYOUT_SCALABLE)
            checkScalable(b);
        else if (layout == BloomFilter.LAYOUT_HASHES)
            checkHashes(b);
        else
            checkCells(b, 0, layout == BloomFilter.LAYOUT_COUNTING ? 4 : 1);
    }

    /* what a stored value's header may record (bloom_key_type_readable); input takes KeyTypes.valid's */
    private static boolean keyTypeReadable(int oid) {
        return oid < 0 ? KeyTypes.rowSignatureColumns(oid) > 0 : oid < KEY_TYPE_LIMIT;
    }

    /*
     * Layouts 5 and 6, another system's format with its own hash id: the
     * fields every layout shares, around the layout's own checks.
     */
    private static void checkForeign(byte[] b, int layout) {
        boolean guava = layout == BloomFilter.LAYOUT_GUAVA;
        int keyType = Bytes.load32(b, 12);
        if (b[4] != 1)
            throw bad(VERSION);
        if (b[6] != (guava ? GuavaBloomFilter.HASH_ID : RedisBloomFilter.HASH_ID))
            throw bad(HASH);
        if (!keyTypeReadable(keyType))
            throw bad(KEY_TYPE);
        if (guava)
            GuavaBloomFilter.checkHeader(b);
        else
            RedisBloomFilter.checkHeader(b);
        checkRequest(b, 0);
        if (!KeyTypes.valid(keyType))
            throw bad(KEY_TYPE);
        if (guava)
            GuavaBloomFilter.checkPayload(b);
        else
            RedisBloomFilter.checkPayload(b);
    }

    /* capacity 1 .. int8's largest, error rate in (0, 1) */
    private static void checkRequest(byte[] b, int at) {
        if (Bytes.load64(b, at + 24) <= 0)
            throw bad(CAPACITY);
        double rate = Double.longBitsToDouble(Bytes.load64(b, at + 32));
        if (!(rate > 0.0 && rate < 1.0))
            throw bad(ERROR_RATE);
    }

    /*
     * The fields layouts 1 to 4 share, and the cells layouts' header
     * against the length; top says whether the key type field may be set.
     */
    private static void checkHeader(byte[] b, int at, long len, boolean top) {
        int layout = b[at + 5];
        int hashId = b[at + 6];
        if (b[at + 4] != 1)
            throw bad(VERSION);
        if (layout < 1 || layout > 4 || (!top && layout == BloomFilter.LAYOUT_HASHES))
            throw bad(LAYOUT);
        if (hashId != 1 && hashId != 2 && hashId != 5)
            throw bad(HASH);
        /* the top header records the key type; a scalable filter's sub-filters have 0 */
        if (top && !KeyTypes.valid(Bytes.load32(b, at + 12)))
            throw bad(KEY_TYPE);
        if (!top && Bytes.load32(b, at + 12) != 0)
            throw bad(SUB_KEY_TYPE);
        long nbits = Bytes.load64(b, at + 16);
        int k = b[at + 7] & 0xFF;
        long bitsSet = Bytes.load64(b, at + 40);
        if (layout == BloomFilter.LAYOUT_HASHES) {
            if (k != 0)
                throw bad(HASH_LIST);
            if (nbits <= 0 || nbits % 128 != 0 || nbits / 128 > HashList.MAX_CELLS)
                throw bad(NBITS);
            if (len - HEADER != 16 + nbits / 8)
                throw bad(LENGTH);
            if (Long.compareUnsigned(bitsSet, nbits / 128) > 0)
                throw bad(BITS_SET);
            if (Bytes.load64(b, at + 24) != nbits / 128)
                throw bad(HASH_LIST);
        } else if (layout == BloomFilter.LAYOUT_SCALABLE) {
            if (k == 0 || k > 64)
                throw bad(NHASHES);
            if (nbits <= 0 || nbits % 512 != 0 || nbits / 8 > Sizing.MAX_BYTES)
                throw bad(NBITS);
            if (len - HEADER != PREFIX + (long) k * SUB_HEAD + nbits / 8 || len > Sizing.MAX_BYTES)
                throw bad(LENGTH);
        } else {
            int cellBits = layout == BloomFilter.LAYOUT_COUNTING ? 4 : 1;
            long maxCells = (Sizing.MAX_BYTES - HEADER) * 8 / cellBits;
            if (nbits <= 0 || nbits % 512 != 0 || nbits > maxCells)
                throw bad(NBITS);
            if (len - HEADER != nbits / 8 * cellBits)
                throw bad(LENGTH);
            if (k == 0 || k > 64)
                throw bad(NHASHES);
        }
        if (Long.compareUnsigned(bitsSet, nbits) > 0)
            throw bad(BITS_SET);
        checkRequest(b, at);
    }

    private static void checkCells(byte[] b, int at, int cellBits) {
        long nbits = Bytes.load64(b, at + 16);
        long count;
        if (cellBits == 1) {
            count = Blocks.popcount(b, at + HEADER, nbits / 8);
        } else {
            count = 0;
            int end = Math.toIntExact(at + HEADER + nbits / 2);
            for (int i = at + HEADER; i < end; i += 8) {
                long v = Bytes.load64(b, i);
                count += Long.bitCount((v | (v >>> 1) | (v >>> 2) | (v >>> 3)) & 0x1111111111111111L);
            }
        }
        if (count != Bytes.load64(b, at + 40))
            throw bad(BITS_SET);
    }

    /* layout 4: the prefix (expansion 1..1024, zeros) and zero cells past the count */
    private static void checkHashes(byte[] b) {
        long expansion = Integer.toUnsignedLong(Bytes.load32(b, HEADER));
        if (expansion < 1 || expansion > MAX_EXPANSION || Bytes.load32(b, HEADER + 4) != 0
            || Bytes.load64(b, HEADER + 8) != 0)
            throw bad(RESERVED);
        for (int i = (int) (HEADER + 16 + Bytes.load64(b, 40) * 16); i < b.length; i++)
            if (b[i] != 0)
                throw bad(HASH_LIST);
    }

    /*
     * Layout 3 (core/scalable.c, scalable_check_payload): the prefix; the
     * walk over the sub-filters' heads, which must lie within the value;
     * then each sub-filter as a valid plain filter (layout 1, key type 0,
     * the top's seed and hash id) of exactly the capacity, rate, bits and
     * hash count sizing gives its position; the sums against the top.
     */
    private static void checkScalable(byte[] b) {
        long expansion = Integer.toUnsignedLong(Bytes.load32(b, HEADER));
        int divisor = Bytes.load32(b, HEADER + 4);
        if (expansion < 1 || expansion > MAX_EXPANSION || divisor == 0 || Bytes.load64(b, HEADER + 8) != 0)
            throw bad(RESERVED);
        /*
         * A fill divisor above 1 exists only inside a running parallel
         * aggregate; from outside it made every add start a sub-filter.
         */
        if (divisor != 1)
            throw bad(DIVISOR);
        int n = b[7] & 0xFF;
        int[] subAt = new int[n];
        long end = b.length;
        long at = HEADER + PREFIX;
        for (int i = 0; i < n; i++) {
            if (at + SUB_HEAD > end)
                throw bad(NBITS);
            int sub = (int) at + 8;
            long subBits = Bytes.load64(b, sub + 16);
            int k = b[sub + 7] & 0xFF;
            if (subBits <= 0 || subBits % 512 != 0 || subBits / 8 > end - at - SUB_HEAD || k == 0 || k > 64)
                throw bad(NBITS);
            subAt[i] = sub;
            at += SUB_HEAD + subBits / 8;
        }
        long capacity = Bytes.load64(b, 24);
        double rate = Double.longBitsToDouble(Bytes.load64(b, 32));
        long nbits = 0;
        long bitsSet = 0;
        for (int i = 0; i < n; i++) {
            int sub = subAt[i];
            long subBits = Bytes.load64(b, sub + 16);
            long[] want = Sizing.scalableSub(capacity, rate, expansion, i);
            if (want == null)
                throw bad(NBITS);
            /* another layout's own rules would report a field of the sub-filter as the value's */
            if (b[sub + 5] != BloomFilter.LAYOUT_PLAIN)
                throw bad(LAYOUT);
            if (Bytes.load32(b, sub + 12) != 0)
                throw bad(SUB_KEY_TYPE);
            if (Bytes.load32(b, sub) != BloomFilter.MAGIC)
                throw bad(MAGIC);
            checkHeader(b, sub, HEADER + subBits / 8, false);
            checkCells(b, sub, 1);
            if (Bytes.load32(b, sub + 8) != Bytes.load32(b, 8) || b[sub + 6] != b[6])
                throw bad(HASH);
            if (Bytes.load64(b, sub + 24) != want[0])
                throw bad(CAPACITY);
            if (Double.longBitsToDouble(Bytes.load64(b, sub + 32)) != Math.scalb(rate, -(i + 1)))
                throw bad(ERROR_RATE);
            /* the sizing of that capacity and rate, so that shapes compare */
            if (subBits != want[1] || (b[sub + 7] & 0xFF) != want[2])
                throw bad(SUBFILTER);
            nbits += subBits;
            bitsSet += Bytes.load64(b, sub + 40);
        }
        if (nbits != Bytes.load64(b, 16))
            throw bad(NBITS);
        if (bitsSet != Bytes.load64(b, 40))
            throw bad(BITS_SET);
    }
}
