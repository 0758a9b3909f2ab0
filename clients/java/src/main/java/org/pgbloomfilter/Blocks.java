package org.pgbloomfilter;

/**
 * The cells of an element inside its 512-cell block, shared by the plain,
 * counting and scalable layouts (README: "Hash contract", bit positions):
 * x0 = h2, x(i+1) = x(i) * 6364136223846793005 + (h1 | 1), the cell numbers
 * being x1 >> 55, x2 >> 55, ..., a number already drawn skipped, until k
 * distinct ones (at most 1024 draws).
 */
final class Blocks {
    static final long LCG_MULT = 6364136223846793005L;
    static final int MAX_DRAWS = 1024;

    private Blocks() {
    }

    /** The element's distinct cells, in draw order; returns how many (k but for a bound). */
    static int draw(long h1, long h2, int k, int[] out) {
        long[] drawn = new long[8];
        long x = h2;
        long c = h1 | 1;
        int got = 0;

        for (int draws = 0; got < k && draws < MAX_DRAWS; draws++) {
            x = x * LCG_MULT + c;
            int pos = (int) (x >>> 55);
            long bit = 1L << pos;
            if ((drawn[pos >>> 6] & bit) != 0)
                continue;
            drawn[pos >>> 6] |= bit;
            out[got++] = pos;
        }
        return got;
    }

    /**
     * Whether all of the element's bits are set in the 64-byte block at
     * base; stops at the first clear bit, so most absent keys cost a draw or
     * two. The drawn set lives in eight locals rather than an array, so the
     * check allocates nothing.
     */
    static boolean test(byte[] b, int base, long h1, long h2, int k) {
        long d0 = 0, d1 = 0, d2 = 0, d3 = 0, d4 = 0, d5 = 0, d6 = 0, d7 = 0;
        long x = h2;
        long c = h1 | 1;
        int got = 0;

        for (int draws = 0; got < k && draws < MAX_DRAWS; draws++) {
            x = x * LCG_MULT + c;
            int pos = (int) (x >>> 55);
            long bit = 1L << pos;
            long seen;
            switch (pos >>> 6) {
                case 0: seen = d0; d0 |= bit; break;
                case 1: seen = d1; d1 |= bit; break;
                case 2: seen = d2; d2 |= bit; break;
                case 3: seen = d3; d3 |= bit; break;
                case 4: seen = d4; d4 |= bit; break;
                case 5: seen = d5; d5 |= bit; break;
                case 6: seen = d6; d6 |= bit; break;
                default: seen = d7; d7 |= bit; break;
            }
            if ((seen & bit) != 0)
                continue;
            got++;
            if ((b[base + (pos >>> 3)] & (1 << (pos & 7))) == 0)
                return false;
        }
        return true;
    }

    /** Set the element's bits in the block at base; returns how many were newly set. */
    static int add(byte[] b, int base, long h1, long h2, int k) {
        int[] cells = new int[k];
        int n = draw(h1, h2, k, cells);
        int added = 0;
        for (int i = 0; i < n; i++) {
            int at = base + (cells[i] >>> 3);
            int bit = 1 << (cells[i] & 7);
            if ((b[at] & bit) == 0) {
                b[at] |= (byte) bit;
                added++;
            }
        }
        return added;
    }

    static long popcount(byte[] b, int off, long len) {
        long count = 0;
        int i = off;
        int end = Math.toIntExact(off + len);
        for (; i + 8 <= end; i += 8)
            count += Long.bitCount(Bytes.load64(b, i));
        for (; i < end; i++)
            count += Integer.bitCount(b[i] & 0xFF);
        return count;
    }
}
