package org.pgbloomfilter;

import java.util.Arrays;

/**
 * Layout 4, hashes (the server's src/bloom_hashes.c and
 * bloomfilter_hashes.c): the 16-byte hashes an unsized {@code bf_agg(x)}
 * keeps, after a 16-byte prefix (uint32 expansion, 12 zero bytes); cells
 * past the count (header bits set) are zero. A key is present only if its
 * whole hash is in a used cell. The aggregate's final function builds a
 * scalable filter whose capacity is a HyperLogLog estimate of the distinct
 * hashes (at least 1000), every hash in its first sub-filter, built again
 * for the count it holds if that exceeds the estimate by more than 5%.
 */
final class HashList {
    static final int PREFIX = 16;
    static final int CELL = 16;
    static final long MAX_CELLS = (Sizing.MAX_BYTES - BloomFilter.HEADER - PREFIX) / CELL;
    static final long MIN_CAPACITY = 1000;
    private static final int SLACK = 20;
    private static final int HLL_BITS = 14;
    private static final int HLL_REGISTERS = 1 << HLL_BITS;

    private HashList() {
    }

    static int cellAt(long i) {
        return Math.toIntExact(BloomFilter.HEADER + PREFIX + i * CELL);
    }

    /* hashes_test_span: the cells in use, in order */
    static boolean contains(byte[] buf, long h1, long h2) {
        long used = Bytes.load64(buf, 40);
        for (long i = 0; i < used; i++) {
            int at = cellAt(i);
            if (Bytes.load64(buf, at) == h1 && Bytes.load64(buf, at + 8) == h2)
                return true;
        }
        return false;
    }

    /* hashes_add and hashes_grown_cells: the cells double when full; the new buffer */
    static byte[] append(byte[] buf, long h1, long h2) {
        long used = Bytes.load64(buf, 40);
        long cells = Bytes.load64(buf, 24);
        byte[] out = buf;
        if (used >= cells) {
            if (cells >= MAX_CELLS)
                throw new IllegalStateException("list of hashes is at the size limit");
            cells = cells > MAX_CELLS / 2 ? MAX_CELLS : 2 * cells;
            out = Arrays.copyOf(buf, cellAt(cells));
            Bytes.store64(out, 16, cells * 128);
            Bytes.store64(out, 24, cells);
        }
        Bytes.store64(out, cellAt(used), h1);
        Bytes.store64(out, cellAt(used) + 8, h2);
        Bytes.store64(out, 40, used + 1);
        return out;
    }

    /* bloom_hashes_trim: as many cells as hashes (one if none), as a state leaves the aggregate */
    static byte[] trimmed(byte[] buf) {
        long cells = Math.max(Bytes.load64(buf, 40), 1);
        byte[] out = Arrays.copyOf(buf, cellAt(cells));
        Bytes.store64(out, 16, cells * 128);
        Bytes.store64(out, 24, cells);
        return out;
    }

    /* bloom_hashes_distinct, in the server's double arithmetic */
    static long distinct(byte[] buf) {
        long n = Bytes.load64(buf, 40);
        byte[] reg = new byte[HLL_REGISTERS];
        for (long i = 0; i < n; i++) {
            int at = cellAt(i);
            int r = (int) (Bytes.load64(buf, at) >>> (64 - HLL_BITS));
            int rank = Long.numberOfLeadingZeros(Bytes.load64(buf, at + 8)) + 1;
            if (rank > reg[r])
                reg[r] = (byte) rank;
        }
        double sum = 0.0;
        int zeros = 0;
        for (int r = 0; r < HLL_REGISTERS; r++) {
            sum += Math.scalb(1.0, -reg[r]);
            zeros += reg[r] == 0 ? 1 : 0;
        }
        double m = HLL_REGISTERS;
        double estimate = 0.7213 / (1.0 + 1.079 / m) * m * m / sum;
        if (estimate <= 2.5 * m && zeros > 0)
            estimate = m * Math.log(m / zeros);
        if (estimate > (double) n)
            return n;
        if (n > 0 && estimate < 1.0)
            return 1;
        double whole = Math.floor(estimate);
        return (long) whole + (estimate - whole >= 0.5 ? 1 : 0);
    }

    /* bloom_hashes_finish: the scalable filter the aggregate returns */
    static BloomFilter finish(byte[] buf) {
        long capacity = Math.max(distinct(buf), MIN_CAPACITY);
        double rate = Double.longBitsToDouble(Bytes.load64(buf, 32));
        long seed = Integer.toUnsignedLong(Bytes.load32(buf, 8));
        int expansion = Bytes.load32(buf, BloomFilter.HEADER);
        long used = Bytes.load64(buf, 40);
        for (;;) {
            BloomFilter f = BloomFilter.scalableLike(capacity, rate, seed, expansion, buf[6],
                                                     Bytes.load32(buf, 12));
            long items = 0;
            for (long i = 0; i < used; i++) {
                int at = cellAt(i);
                items = f.takeHash(Bytes.load64(buf, at), Bytes.load64(buf, at + 8));
            }
            if (items <= capacity + capacity / SLACK)
                return f;
            capacity = items;
        }
    }
}
