package org.pgbloomfilter;

import com.google.common.hash.Funnels;

/**
 * Checks per second, one thread: mightContain(long) on a 12 MB plain filter
 * (capacity 10,000,000 at 1%), Guava's BloomFilter<Long> of the same
 * capacity and rate, and a cuckoo filter of the same capacity and rate. Half
 * the probes are members, half not, in a random order; each measure is the
 * best of several rounds, interleaved so that load on the host hits all
 * three alike.
 */
public final class Bench {
    static final long CAPACITY = 10_000_000;
    static final double RATE = 0.01;
    static final int PROBES = 4_000_000;
    static volatile long sink;

    private Bench() {
    }

    interface Check {
        boolean test(long key);
    }

    static double rate(Check c, long[] probes) {
        long t0 = System.nanoTime();
        long hits = 0;
        for (long p : probes)
            hits += c.test(p) ? 1 : 0;
        long t1 = System.nanoTime();
        sink += hits;
        return probes.length / ((t1 - t0) / 1e9);
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        long mix = 0x9E3779B97F4A7C15L;
        BloomFilter plain = BloomFilter.create(CAPACITY, RATE);
        CuckooFilter cuckoo = CuckooFilter.create(CAPACITY, RATE);
        com.google.common.hash.BloomFilter<Long> guava =
            com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), CAPACITY, RATE);
        for (long i = 0; i < CAPACITY; i++) {
            long k = i * mix;
            plain.add(k);
            cuckoo.add(k);
            guava.put(k);
        }
        java.util.Random r = new java.util.Random(42);
        long[] probes = new long[PROBES];
        for (int i = 0; i < PROBES; i++) {
            long j = (long) (r.nextDouble() * CAPACITY);
            probes[i] = (i % 2 == 0) ? j * mix : (j + CAPACITY) * mix;
        }
        /* Guava sizes by the standard formula, m = -n ln p / (ln 2)^2 bits */
        double guavaBits = -CAPACITY * Math.log(RATE) / (Math.log(2) * Math.log(2));
        System.out.printf("plain: %,d bytes (k = %d); Guava: about %,.0f bytes; cuckoo: %,d bytes%n",
            plain.toBytes().length, plain.nhashes(), guavaBits / 8, cuckoo.toBytes().length);
        double bestPlain = 0, bestGuava = 0, bestCuckoo = 0;
        for (int round = 0; round < rounds; round++) {
            bestPlain = Math.max(bestPlain, rate(plain::mightContain, probes));
            bestGuava = Math.max(bestGuava, rate(guava::mightContain, probes));
            bestCuckoo = Math.max(bestCuckoo, rate(cuckoo::mightContain, probes));
        }
        System.out.printf("checks/s, one thread, best of %d rounds of %d probes (half members):%n",
                          rounds, PROBES);
        System.out.printf("  BloomFilter.mightContain(long), 12 MB plain   %,12.0f%n", bestPlain);
        System.out.printf("  Guava BloomFilter<Long>.mightContain          %,12.0f   plain/guava  %.2fx%n",
                          bestGuava, bestPlain / bestGuava);
        System.out.printf("  CuckooFilter.mightContain(long)               %,12.0f   cuckoo/plain %.2fx%n",
                          bestCuckoo, bestCuckoo / bestPlain);
    }
}
