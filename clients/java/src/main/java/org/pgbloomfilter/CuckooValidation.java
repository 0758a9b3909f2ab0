package org.pgbloomfilter;

/** The server's cuckoo_validate, with its messages. */
final class CuckooValidation {
    private static final int HEADER = CuckooFilter.HEADER;

    private CuckooValidation() {
    }

    private static InvalidFilterException bad(String message) {
        return new InvalidFilterException("invalid cuckoofilter value: " + message);
    }

    static void check(byte[] v) {
        if (v.length < HEADER || v.length > Sizing.MAX_BYTES)
            throw bad("The length does not match the header and sub-filters.");
        if (Bytes.load32(v, 0) != CuckooFilter.MAGIC)
            throw bad("The value does not start with the cuckoofilter magic number.");
        if (v[4] != 1)
            throw bad("The format version is not supported by this build.");
        if (v[5] != 2 && v[5] != 5)
            throw bad("The hash id must be 2 or 5."); /* the server's words */
        /* bytes 40..43 hold the key type; 44..47 stay reserved */
        if (Bytes.load32(v, 44) != 0)
            throw bad("Reserved fields must be zero.");
        if (!KeyTypes.valid(Bytes.load32(v, 40)))
            throw bad("The key type must be 0 or the OID of a built-in type that filters hash.");
        int b = v[6];
        if (b != 2 && b != 4 && b != 8)
            throw bad("The bucket size must be 2, 4 or 8.");
        int f0 = v[7];
        if (f0 < 2 || f0 > 32)
            throw bad("Fingerprint bits must be between 2 and 32, the same in the header as in the first sub-filter.");
        int nsub = Bytes.load16(v, 12);
        if (nsub < 1 || nsub > 64)
            throw bad("The number of sub-filters must be between 1 and 64.");
        if (Bytes.load16(v, 14) > 4096)
            throw bad("The kick limit must be at most 4096.");
        long capacity = Bytes.load64(v, 16);
        if (capacity <= 0)
            throw bad("The capacity must be between 1 and 9223372036854775807.");
        double rate = Double.longBitsToDouble(Bytes.load64(v, 24));
        if (!(rate > 0.0 && rate < 1.0))
            throw bad("The error rate must be greater than 0 and less than 1.");
        checkSubs(v, b, f0, nsub);
        /*
         * The capacity sizes every later sub-filter, so the first has a slot
         * for each element of it (a 76-byte value claiming 200,000,000 grew
         * to 590 MB at one add on the server before 1.4).
         */
        if (Long.compareUnsigned(Bytes.load64(v, HEADER) * b, capacity) < 0)
            throw bad("The first sub-filter must have at least as many slots as the capacity.");
    }

    private static void checkSubs(byte[] v, int b, int f0, int nsub) {
        long off = HEADER;
        long items = 0;
        for (int i = 0; i < nsub; i++) {
            if (v.length - off < 24)
                throw bad("The length does not match the header and sub-filters.");
            int d = (int) off;
            long n = Bytes.load64(v, d);
            long count = Bytes.load64(v, d + 8);
            int f = v[d + 16];
            for (int j = 17; j < 24; j++)
                if (v[d + j] != 0)
                    throw bad("Reserved fields must be zero.");
            if (f < 2 || f > 32 || (i == 0 && f != f0))
                throw bad("Fingerprint bits must be between 2 and 32, the same in the header as in the first sub-filter.");
            if (!CuckooFilter.nbucketsOk(n, b, f))
                throw bad("The number of buckets of a sub-filter must be positive and within the size limit.");
            if (Long.compareUnsigned(count, n * b) > 0)
                throw bad("The item counts do not match the slots.");
            off += 24;
            long slotBytes = (n * b * f + 7) / 8;
            if (v.length - off < slotBytes)
                throw bad("The length does not match the header and sub-filters.");
            checkSlots(v, (int) off, n * b, f, (int) slotBytes, count);
            off += slotBytes;
            items += count;
        }
        if (off != v.length)
            throw bad("The length does not match the header and sub-filters.");
        if (items != Bytes.load64(v, 32))
            throw bad("The item counts do not match the slots.");
    }

    /* occupied slots against the count; the bits after the last slot zero */
    private static void checkSlots(byte[] v, int at, long nslots, int f, int slotBytes, long count) {
        long used = 0;
        long mask = (1L << f) - 1;
        for (long k = 0; k < nslots; k++) {
            long bit = k * f;
            int byteAt = (int) (bit >>> 3);
            long w = 0;
            for (int i = 0; i < 8 && byteAt + i < slotBytes; i++)
                w |= (v[at + byteAt + i] & 0xFFL) << (8 * i);
            used += ((w >>> (bit & 7)) & mask) != 0 ? 1 : 0;
        }
        if (used != count)
            throw bad("The item counts do not match the slots.");
        long pad = (long) slotBytes * 8 - nslots * f;
        if (pad > 0 && ((v[at + slotBytes - 1] & 0xFF) >>> (8 - pad)) != 0)
            throw bad("The unused bits after the last slot must be zero.");
    }
}
