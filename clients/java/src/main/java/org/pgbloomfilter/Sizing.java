package org.pgbloomfilter;

import java.util.HashMap;
import java.util.Map;

/**
 * Sizing of a blocked filter, as the server's bloom_size (src/bloom_sizing.c)
 * computes it: the fewest 512-bit blocks for which the best k brings the
 * exact blocked model's rate at capacity to at most 90% of the request, and
 * the smallest k that does so at that size.
 *
 * <p>The shape is part of the bytes, so this repeats the server's search with
 * the same floating-point operations in the same order: the binomial term
 * per elements-in-a-block j, the hypergeometric dynamic program per k, the
 * bisection over block counts. Java evaluates double arithmetic exactly as
 * the server's x86-64 build does (no fused multiply-add), so what can differ
 * is only the library functions. {@code lgamma} is glibc's algorithm for
 * the integer arguments the model takes (below); {@code log1p} is
 * {@link StrictMath#log1p}, the same fdlibm routine glibc uses; {@code log}
 * and {@code exp} are {@link Math}'s, which agree with glibc's on all but
 * about one argument in 10^5 (log) and 10^3 (exp), each a last-bit
 * difference. A last-bit difference moves the modelled rate by far less than
 * one block does, so the sizes agree unless a rate lies within about a
 * millionth of the target; {@code make check-java} compares shapes with the
 * server over a grid. Where an exact copy of a server filter's shape matters
 * whatever the request, take the shape from the server:
 * {@link BloomFilter#emptyCopy()} of a fetched filter.
 */
final class Sizing {
    static final int BLOCK_BITS = 512;
    static final int MAX_HASHES = 64;
    static final long MAX_BYTES = 767L * 1024 * 1024;
    static final long MAX_BLOCKS = (MAX_BYTES - 48) / 64;
    static final double MARGIN = 0.9;
    static final double MIN_ERROR_RATE = 1e-10;

    /* glibc's (fdlibm's) Stirling-series coefficients for lgamma, x >= 8 */
    private static final double W0 = Double.longBitsToDouble(0x3FDACFE390C97D69L);
    private static final double W1 = Double.longBitsToDouble(0x3FB555555555553BL);
    private static final double W2 = Double.longBitsToDouble(0xBF66C16C16B02E5CL);
    private static final double W3 = Double.longBitsToDouble(0x3F4A019F98CF38B6L);
    private static final double W4 = Double.longBitsToDouble(0xBF4380CB8C0FE741L);
    private static final double W5 = Double.longBitsToDouble(0x3F4B67BA4CDAD5D1L);
    private static final double W6 = Double.longBitsToDouble(0xBF5AB89D0B9E43E4L);

    private Sizing() {
    }

    /**
     * lgamma of a positive whole number, as glibc computes it: 0 for 1 and
     * 2, log((x - 1)!) for 3 .. 7 (its rational part vanishes at whole
     * numbers), and (x - 1/2)(log x - 1) plus a corrected Stirling series
     * from 8 on (x log x - x beyond 2^58).
     */
    static double lgamma(double x) {
        if (x != Math.rint(x) || x < 1)
            throw new IllegalStateException("lgamma of " + x + ": only whole numbers occur");
        if (x <= 2)
            return 0.0;
        if (x < 8) {
            double z = 1.0;
            for (double f = x - 1; f >= 2; f--)
                z *= f;
            return Math.log(z);
        }
        if (x >= 0x1p58)
            return x * (Math.log(x) - 1.0);
        double t = Math.log(x);
        double z = 1.0 / x;
        double y = z * z;
        double w = W0 + z * (W1 + y * (W2 + y * (W3 + y * (W4 + y * (W5 + y * W6)))));
        return (x - 0.5) * (t - 1.0) + w;
    }

    private static double logChoose(double n, double k) {
        return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0);
    }

    /* per k: the hypergeometric transitions, and C_k(j) as far as computed */
    private static final double[][][] TRANS = new double[MAX_HASHES + 1][][];
    private static final double[][] COVER = new double[MAX_HASHES + 1][];
    private static final int[] COVER_LEN = new int[MAX_HASHES + 1];
    private static final double[][] COVER_STATE = new double[MAX_HASHES + 1][];

    private static synchronized double[][] trans(int k) {
        if (TRANS[k] == null) {
            double b = BLOCK_BITS;
            double lcBk = logChoose(b, k);
            double[][] t = new double[k + 1][];
            for (int u = 0; u <= k; u++) {
                t[u] = new double[u + 1];
                for (int s = 0; s <= u; s++)
                    t[u][s] = Math.exp(logChoose(u, s) + logChoose(b - u, k - s) - lcBk);
            }
            TRANS[k] = t;
        }
        return TRANS[k];
    }

    /* one more element in the block, the server's additions in its order */
    private static void coverStep(int k, double[][] tr, double[] cover) {
        double[] next = new double[MAX_HASHES + 1];
        for (int c = 0; c <= k; c++) {
            int u = k - c;
            if (cover[c] == 0.0)
                continue;
            for (int t = 0; t <= u; t++)
                next[c + t] += cover[c] * tr[u][t];
        }
        System.arraycopy(next, 0, cover, 0, cover.length);
    }

    /** C_k(j) for j < len: the chance all k probe bits are covered by j elements. */
    private static synchronized double[] cover(int k, int len) {
        if (COVER_LEN[k] >= len)
            return COVER[k];
        double[][] tr = trans(k);
        if (COVER[k] == null) {
            COVER[k] = new double[Math.max(len, 64)];
            COVER_STATE[k] = new double[MAX_HASHES + 1];
            COVER_STATE[k][0] = 1.0;
        }
        if (COVER[k].length < len)
            COVER[k] = java.util.Arrays.copyOf(COVER[k], Math.max(len, 2 * COVER[k].length));
        while (COVER_LEN[k] < len) {
            COVER[k][COVER_LEN[k]++] = COVER_STATE[k][k];
            coverStep(k, tr, COVER_STATE[k]);
        }
        return COVER[k];
    }

    /** One sizing request: the terms that depend on n and the block count. */
    private static final class Search {
        final double n;
        final double lgN1;
        final Map<Long, double[]> pmfs = new HashMap<>();
        final Map<Long, Double> models = new HashMap<>();
        double[] lgnj = new double[0];

        Search(double n) {
            this.n = n;
            this.lgN1 = lgamma(n + 1.0);
        }

        private double lgNj(int j) {
            if (j >= lgnj.length) {
                int old = lgnj.length;
                /* never past j = n, where the arguments would leave the whole numbers */
                int want = (int) Math.min(Math.max(j + 1, 2 * old), Math.min(n + 1, Integer.MAX_VALUE));
                lgnj = java.util.Arrays.copyOf(lgnj, Math.max(want, j + 1));
                for (int i = old; i < lgnj.length; i++)
                    lgnj[i] = lgamma(n - i + 1.0);
            }
            return lgnj[j];
        }

        /* the binomial terms pmf(j), j = 0 .. jmax, of bloom_model_fpp */
        double[] pmf(long nblocks) {
            double[] p = pmfs.get(nblocks);
            if (p != null)
                return p;
            double q = 1.0 / (double) nblocks;
            double lambda = n * q;
            double jmax = (nblocks == 1) ? n
                : Math.min(n, Math.ceil(lambda + 12.0 * Math.sqrt(lambda) + 30.0));
            p = new double[(int) jmax + 1];
            double logQ = Math.log(q);
            double log1mQ = StrictMath.log1p(-q);
            for (int i = 0; i < p.length; i++) {
                double j = i;
                if (nblocks == 1)
                    p[i] = (j == n) ? 1.0 : 0.0;
                else
                    p[i] = Math.exp(lgN1 - lgamma(j + 1.0) - lgNj(i) + j * logQ + (n - j) * log1mQ);
            }
            pmfs.put(nblocks, p);
            return p;
        }

        /* bloom_model_fpp(n, nblocks, k) */
        double model(long nblocks, int k) {
            Long key = nblocks * (MAX_HASHES + 1) + k;
            Double m = models.get(key);
            if (m != null)
                return m;
            double[] p = pmf(nblocks);
            double[] c = cover(k, p.length);
            double fpp = 0.0;
            for (int i = 0; i < p.length; i++)
                fpp += p[i] * c[i];
            models.put(key, fpp);
            return fpp;
        }

        /* bloom_best_k: the rate is unimodal in k; walk down from the guess, then up */
        double bestK(long nblocks, int[] bestK) {
            double lambda = n / (double) nblocks;
            double g = Math.floor(Math.log(2.0) * BLOCK_BITS / Math.max(lambda, 1e-9));
            int guess = (g >= Integer.MIN_VALUE && g <= Integer.MAX_VALUE) ? (int) g : Integer.MIN_VALUE;
            double best = 2.0;
            guess = Math.max(1, Math.min(MAX_HASHES, guess));
            bestK[0] = guess;
            for (int step = -1; step <= 1; step += 2) {
                for (int k = (step < 0 ? guess : guess + 1); k >= 1 && k <= MAX_HASHES; k += step) {
                    double f = model(nblocks, k);
                    if (f < best) {
                        best = f;
                        bestK[0] = k;
                    } else {
                        break;
                    }
                }
            }
            return best;
        }
    }

    /**
     * {nbits, k} for capacity elements at requested rate, or null when the
     * filter would exceed the size limit. The caller checked the arguments.
     */
    static long[] size(long capacity, double requested) {
        double target = requested * MARGIN;
        double n = (double) capacity;
        double mStd = -n * Math.log(target) / (Math.log(2.0) * Math.log(2.0));
        double loD = Math.floor(mStd / BLOCK_BITS * 0.95);
        int[] k = new int[1];

        if (loD > (double) MAX_BLOCKS)
            return null;
        long lo = (loD < 1.0) ? 1 : (long) loD;
        long hi = lo;
        Search s = new Search(n);
        while (s.bestK(hi, k) > target) {
            lo = hi + 1;
            if (hi >= MAX_BLOCKS)
                return null;
            hi = (hi * 2 > MAX_BLOCKS) ? MAX_BLOCKS : hi * 2;
        }
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            if (s.bestK(mid, k) <= target)
                hi = mid;
            else
                lo = mid + 1;
        }
        s.bestK(hi, k);
        int nhashes = k[0];
        for (int fewer = 1; fewer < nhashes; fewer++) {
            if (s.model(hi, fewer) <= target) {
                nhashes = fewer;
                break;
            }
        }
        return new long[] {hi * BLOCK_BITS, nhashes};
    }

    /**
     * Sub-filter i of a scalable filter of this request and expansion
     * (core/scalable.c, scalable_sub_shape): {capacity, nbits, k}, its rate
     * being the request's over 2^(i+1); null where it cannot exist (a
     * capacity past int8, a rate below {@link #MIN_ERROR_RATE}, past the
     * size limit).
     */
    static long[] scalableSub(long capacity, double errorRate, long expansion, int i) {
        double rate = Math.scalb(errorRate, -(i + 1));
        if (expansion <= 0)
            return null;
        for (int j = 0; j < i; j++) {
            if (capacity > Long.MAX_VALUE / expansion)
                return null;
            capacity *= expansion;
        }
        if (rate < MIN_ERROR_RATE)
            return null;
        long[] shape = size(capacity, rate);
        return shape == null ? null : new long[] {capacity, shape[0], shape[1]};
    }
}
