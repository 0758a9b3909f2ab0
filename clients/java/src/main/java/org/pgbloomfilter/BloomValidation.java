package org.pgbloomfilter;

/**
 * The server's check of a bloomfilter value from outside (bloom_validate and
 * each layout's check_header and check_payload), with its messages. One
 * difference: a scalable filter's sub-filters are checked for the capacity
 * and rate their position gives, not re-sized, so a stored value never
 * depends on this client's sizing to be read.
 */
final class BloomValidation {
    private static final int HEADER = BloomFilter.HEADER;
    private static final long INT64_MAX = Long.MAX_VALUE;

    private BloomValidation() {
    }

    private static InvalidFilterException bad(String message) {
        return new InvalidFilterException("invalid bloomfilter value: " + message);
    }

    static void check(byte[] b) {
        if (b == null)
            throw new NullPointerException("bytes");
        if (b.length < HEADER)
            throw bad("The length does not match the header.");
        if (Bytes.load32(b, 0) != BloomFilter.MAGIC)
            throw bad("The value does not start with the bloomfilter magic number.");
        checkHeader(b, 0, b.length, true);
        int layout = b[5];
        if (layout == BloomFilter.LAYOUT_SCALABLE)
            checkScalable(b);
        else if (layout == BloomFilter.LAYOUT_HASHES)
            checkHashes(b);
        else
            checkCells(b, 0, layout == BloomFilter.LAYOUT_COUNTING ? 4 : 1);
    }

    /*
     * The fields every layout shares, and the cells layouts' header against
     * the length; top says whether the key type field may be set.
     */
    private static void checkHeader(byte[] b, int at, long len, boolean top) {
        int layout = b[at + 5];
        int hashId = b[at + 6];
        if (b[at + 4] != 1)
            throw bad("The format version is not supported by this build.");
        if (layout < 1 || layout > 4 || (!top && layout == BloomFilter.LAYOUT_HASHES))
            throw bad("The bit layout is not supported by this build.");
        if (hashId != 1 && hashId != 2 && hashId != 5)
            throw bad("The hash function is not supported by this build.");
        /* the top header records the key type; a scalable filter's sub-filters have 0 */
        if (top && !KeyTypes.valid(Bytes.load32(b, at + 12)))
            throw bad("The key type must be 0 or the OID of a built-in type that filters hash.");
        if (!top && Bytes.load32(b, at + 12) != 0)
            throw bad("The sub-filters of a scalable filter must have key type 0.");
        long nbits = Bytes.load64(b, at + 16);
        int k = b[at + 7] & 0xFF;
        long bitsSet = Bytes.load64(b, at + 40);
        if (layout == BloomFilter.LAYOUT_HASHES) {
            if (k != 0)
                throw bad("A list of hashes must have k 0 and capacity equal to its cells.");
            if (nbits <= 0 || nbits % 128 != 0 || nbits / 128 > HashList.MAX_CELLS)
                throw bad("The number of bits must be a positive multiple of 512 within the size limit.");
            if (len - HEADER != 16 + nbits / 8)
                throw bad("The length does not match the header.");
            if (Long.compareUnsigned(bitsSet, nbits / 128) > 0)
                throw bad("The count of bits set does not match the bits.");
            if (Bytes.load64(b, at + 24) != nbits / 128)
                throw bad("A list of hashes must have k 0 and capacity equal to its cells.");
        } else if (layout == BloomFilter.LAYOUT_SCALABLE) {
            if (k == 0 || k > 64)
                throw bad("The number of hash functions must be between 1 and 64.");
            if (nbits <= 0 || nbits % 512 != 0 || nbits / 8 > Sizing.MAX_BYTES)
                throw bad("The number of bits must be a positive multiple of 512 within the size limit.");
            if (len - HEADER != 16 + (long) k * (8 + HEADER) + nbits / 8 || len > Sizing.MAX_BYTES)
                throw bad("The length does not match the header.");
        } else {
            int cellBits = layout == BloomFilter.LAYOUT_COUNTING ? 4 : 1;
            long maxCells = (Sizing.MAX_BYTES - HEADER) * 8 / cellBits;
            if (nbits <= 0 || nbits % 512 != 0 || nbits > maxCells)
                throw bad("The number of bits must be a positive multiple of 512 within the size limit.");
            if (len - HEADER != nbits / 8 * cellBits)
                throw bad("The length does not match the header.");
            if (k == 0 || k > 64)
                throw bad("The number of hash functions must be between 1 and 64.");
        }
        if (Long.compareUnsigned(bitsSet, nbits) > 0)
            throw bad("The count of bits set does not match the bits.");
        long capacity = Bytes.load64(b, at + 24);
        if (capacity <= 0 || capacity > INT64_MAX)
            throw bad("The capacity must be between 1 and 9223372036854775807.");
        double rate = Double.longBitsToDouble(Bytes.load64(b, at + 32));
        if (!(rate > 0.0 && rate < 1.0))
            throw bad("The error rate must be greater than 0 and less than 1.");
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
            throw bad("The count of bits set does not match the bits.");
    }

    /* layout 4: the prefix (expansion 1..1024, zeros) and zero cells past the count */
    private static void checkHashes(byte[] b) {
        long expansion = Integer.toUnsignedLong(Bytes.load32(b, HEADER));
        if (expansion < 1 || expansion > 1024 || Bytes.load32(b, HEADER + 4) != 0
            || Bytes.load64(b, HEADER + 8) != 0)
            throw bad("Reserved header fields must be zero.");
        for (int i = (int) (HEADER + 16 + Bytes.load64(b, 40) * 16); i < b.length; i++)
            if (b[i] != 0)
                throw bad("A list of hashes must have zero cells past its count.");
    }

    private static void checkScalable(byte[] b) {
        long expansion = Integer.toUnsignedLong(Bytes.load32(b, HEADER));
        if (expansion < 1 || expansion > 1024 || Bytes.load32(b, HEADER + 4) == 0
            || Bytes.load64(b, HEADER + 8) != 0)
            throw bad("Reserved header fields must be zero.");
        /*
         * A fill divisor above 1 exists only inside a running parallel
         * aggregate; from outside it made every add start a sub-filter.
         */
        if (Bytes.load32(b, HEADER + 4) != 1)
            throw bad("The fill divisor of a scalable filter must be 1 outside a running aggregate.");
        int n = b[7];
        long capacity = Bytes.load64(b, 24);
        double rate = Double.longBitsToDouble(Bytes.load64(b, 32));
        long nbits = 0;
        long bitsSet = 0;
        int at = HEADER + 16;
        for (int i = 0; i < n; i++) {
            int sub = at + 8;
            if (b.length - sub < HEADER || Bytes.load32(b, sub) != BloomFilter.MAGIC)
                throw bad("The number of bits must be a positive multiple of 512 within the size limit.");
            long subBits = Bytes.load64(b, sub + 16);
            if (subBits <= 0 || subBits % 512 != 0 || subBits / 8 > b.length - sub - HEADER)
                throw bad("The number of bits must be a positive multiple of 512 within the size limit.");
            checkHeader(b, sub, HEADER + subBits / 8, false);
            if (b[sub + 5] != BloomFilter.LAYOUT_PLAIN)
                throw bad("The bit layout is not supported by this build.");
            checkCells(b, sub, 1);
            if (Bytes.load32(b, sub + 8) != Bytes.load32(b, 8) || b[sub + 6] != b[6])
                throw bad("The hash function is not supported by this build.");
            if (Bytes.load64(b, sub + 24) != subCapacity(capacity, expansion, i))
                throw bad("The capacity must be between 1 and 9223372036854775807.");
            if (Double.longBitsToDouble(Bytes.load64(b, sub + 32)) != Math.scalb(rate, -(i + 1)))
                throw bad("The error rate must be greater than 0 and less than 1.");
            nbits += subBits;
            bitsSet += Bytes.load64(b, sub + 40);
            at = sub + HEADER + (int) (subBits / 8);
        }
        if (nbits != Bytes.load64(b, 16))
            throw bad("The number of bits must be a positive multiple of 512 within the size limit.");
        if (bitsSet != Bytes.load64(b, 40))
            throw bad("The count of bits set does not match the bits.");
    }

    /* capacity * expansion^i, or -1 past int8 (no sub-filter can be there) */
    private static long subCapacity(long capacity, long expansion, int i) {
        for (int j = 0; j < i; j++) {
            if (capacity > Long.MAX_VALUE / expansion)
                return -1;
            capacity *= expansion;
        }
        return capacity;
    }
}
