package org.pgbloomfilter;

import java.util.Arrays;
import java.util.UUID;

/**
 * A {@code cuckoofilter} value, read from the server's bytes or built
 * locally with the bytes the server would build (README: "Cuckoo filters").
 * It can count copies and delete; it grows by sub-filters when full.
 *
 * <p>Hash scheme, from MurmurHash3 (h1, h2), in a sub-filter of n buckets of
 * b slots and f-bit fingerprints: bucket i1 = high word of h1 * n;
 * fingerprint h2 >>> (64 - f), or 1 if that is 0; the other bucket
 * (H - i) mod n with H the high word of fmix64(fp) * n.
 */
public final class CuckooFilter extends Filter {
    static final int HEADER = 48;
    static final int MAGIC = 0x464F4B43;           /* "CKOF" read little-endian */
    private static final int SUB_HEADER = 24;
    private static final int MAX_SUBS = 64;
    private static final int MAX_KICKS_LIMIT = 4096;
    private static final int DEFAULT_MAX_KICKS = 500;
    private static final double MIN_ERROR_RATE = 1e-8;
    private static final int FLOOR_FP_BITS = 7;
    private static final int WEAK_SEED_MAX = 8;
    private static final long KICK_MULT = 6364136223846793005L;
    private static final long KICK_ADD = 1442695040888963407L;
    /* 8 bytes past the value, so that a slot word can always be read whole */
    private static final int PAD = 8;

    private byte[] buf;
    private int len;
    private final int b;
    private int nsub;
    private int[] descAt = new int[MAX_SUBS];
    private long[] nbuckets = new long[MAX_SUBS];
    private int[] fpBits = new int[MAX_SUBS];

    private CuckooFilter(byte[] padded, int len) {
        super(Bytes.load32(padded, 8), Bytes.load32(padded, 40));
        this.buf = padded;
        this.len = len;
        this.b = padded[6];
        locateSubs();
    }

    private void locateSubs() {
        nsub = Bytes.load16(buf, 12);
        int at = HEADER;
        for (int i = 0; i < nsub; i++) {
            descAt[i] = at;
            nbuckets[i] = Bytes.load64(buf, at);
            fpBits[i] = buf[at + 16];
            at += SUB_HEADER + slotBytes(nbuckets[i], b, fpBits[i]);
        }
    }

    static int slotBytes(long nbuckets, int b, int f) {
        return (int) ((nbuckets * b * f + 7) / 8);
    }

    static long slotBytesLong(long nbuckets, int b, int f) {
        return (nbuckets * b * f + 7) / 8;
    }

    /* ---- reading ---- */

    /**
     * The filter in bytes as {@code f::bytea} gives them, validated as
     * strictly as the server's binary input (the bytes are copied).
     *
     * @throws InvalidFilterException if the server would refuse them
     */
    public static CuckooFilter fromBytes(byte[] bytes) {
        CuckooValidation.check(bytes);
        return new CuckooFilter(Arrays.copyOf(bytes, bytes.length + PAD), bytes.length);
    }

    public static CuckooFilter fromBase64(String text) {
        return fromBytes(Filters.decodeBase64(text));
    }

    /**
     * As {@link #fromBytes(byte[])}, for a value made in a database of this
     * {@code server_encoding} (null: UTF8): a filter of hash id 2 made in a
     * database that is not UTF8 needs its encoding.
     */
    public static CuckooFilter fromBytes(byte[] bytes, String serverEncoding) {
        CuckooFilter f = fromBytes(bytes);
        f.setEncoding(serverEncoding);
        return f;
    }

    /** 2: text in the database's encoding (1.3, 1.4); 5: text as UTF-8 (1.5). */
    @Override
    public int hashId() {
        return buf[5];
    }

    @Override
    public byte[] toBytes() {
        return Arrays.copyOf(buf, len);
    }

    /* ---- building: cf_create ---- */

    public static CuckooFilter create(long capacity, double errorRate) {
        return create(capacity, errorRate, 0);
    }

    /**
     * {@code cf_create(capacity, errorRate, seed, key_type => ...)}: a filter
     * of keys of this type (a type OID).
     */
    public static CuckooFilter create(long capacity, double errorRate, long seed, int keyType) {
        CuckooFilter f = create(capacity, errorRate, seed);
        f.setKeyType(KeyTypes.checkGiven(keyType));
        return f;
    }

    /**
     * {@code cf_create(capacity, errorRate, seed)}: untyped until its first
     * key, whose type it records.
     */
    public static CuckooFilter create(long capacity, double errorRate, long seed) {
        if (capacity <= 0)
            throw new IllegalArgumentException("cuckoo filter capacity must be positive, got " + capacity);
        if (!(errorRate > 0.0 && errorRate < 1.0) || errorRate < MIN_ERROR_RATE)
            throw new IllegalArgumentException("cuckoo filter error rate must be at least "
                + MIN_ERROR_RATE + " and less than 1, got " + errorRate);
        if (seed < 0 || seed > 0xFFFFFFFFL)
            throw new IllegalArgumentException("cuckoo filter seed must be between 0 and 4294967295");
        if (seed >= 1 && seed <= WEAK_SEED_MAX)
            throw new IllegalArgumentException("cuckoo filter seed must not be between 1 and "
                + WEAK_SEED_MAX + ": MurmurHash3 with a seed equal to a key's length in bytes (8 for every"
                + " integer key) ties the key's fingerprint to its bucket; use seed 0 or any seed above "
                + WEAK_SEED_MAX);
        long[] shape = size(capacity, errorRate);
        if (shape == null)
            throw new IllegalArgumentException("cuckoo filter for " + capacity
                + " elements at error rate " + errorRate + " is too large");
        int bs = (int) shape[0];
        int f = (int) shape[1];
        int total = HEADER + SUB_HEADER + slotBytes(shape[2], bs, f);
        byte[] v = new byte[total + PAD];
        Bytes.store32(v, 0, MAGIC);
        v[4] = 1;
        v[5] = 5;                   /* hash id 5: text as UTF-8 */
        v[6] = (byte) bs;
        v[7] = (byte) f;
        Bytes.store32(v, 8, (int) seed);
        Bytes.store16(v, 12, 1);
        Bytes.store16(v, 14, DEFAULT_MAX_KICKS);
        Bytes.store64(v, 16, capacity);
        Bytes.store64(v, 24, Double.doubleToRawLongBits(errorRate));
        Bytes.store64(v, HEADER, shape[2]);
        v[HEADER + 16] = (byte) f;
        return new CuckooFilter(v, total);
    }

    /**
     * cuckoo_model_fpp: the expected matches of a non-member in a sub-filter
     * of n buckets and f-bit fingerprints holding items entries, in the
     * server's double arithmetic.
     */
    static double modelFpp(int f, long items, long n) {
        double q = (Math.scalb(1.0, f) + 2.0) / Math.scalb(1.0, 2 * f);
        return 2.0 * (double) items * q / (double) n;
    }

    /** cuckoo_room: the most entries adds put in n buckets of b slots. */
    static long room(int b, long n) {
        long slots = n * b;
        long permille = b == 8 ? 960 : b == 4 ? 930 : 800;
        long beta = b == 8 ? 3 : 4;
        long load = slots * permille / 1000;
        long x = beta * beta * slots;
        long spread = (long) Math.sqrt((double) x);
        while (spread * spread < x)
            spread++;
        while (spread > 0 && (spread - 1) * (spread - 1) >= x)
            spread--;
        if (load <= spread || load - spread < b)
            return b;
        return load - spread;
    }

    /* ck_room_buckets: the fewest buckets whose room holds capacity, or -1 */
    private static long roomBuckets(long capacity, int b, long maxN) {
        double load = b == 8 ? 0.96 : 0.93;
        double beta = b == 8 ? 3.0 : 4.0;
        double guess = ((double) capacity + beta * Math.sqrt((double) capacity / load)) / (b * load);
        if (guess > (double) maxN)
            return -1;
        long n = guess > 1.0 ? (long) guess : 1;
        while (n > 1 && room(b, n - 1) >= capacity)
            n--;
        while (room(b, n) < capacity)
            if (++n > maxN)
                return -1;
        return n;
    }

    /*
     * ck_shape: {f, buckets} of the sub-filter for capacity entries at a
     * modelled rate of at most target with b slots per bucket, in the fewest
     * bits n f (the smaller f on a tie); null if none fits the size limit.
     */
    static long[] shape(long capacity, double target, int b) {
        long maxN = Sizing.MAX_BYTES * 8 / ((long) b * FLOOR_FP_BITS);
        long nRoom = roomBuckets(capacity, b, maxN);
        if (nRoom < 0)
            return null;
        double best = Double.POSITIVE_INFINITY;
        long[] out = null;
        for (int f = FLOOR_FP_BITS; f <= 32; f++) {
            double need = modelFpp(f, capacity, 1) / target;
            if (!(need <= (double) maxN))
                continue;
            long n = need > (double) nRoom ? (long) Math.ceil(need) : nRoom;
            while (n > nRoom && modelFpp(f, capacity, n - 1) <= target)
                n--;
            while (modelFpp(f, capacity, n) > target)
                n++;
            if (nbucketsOk(n, b, f) && HEADER + SUB_HEADER + slotBytesLong(n, b, f) <= Sizing.MAX_BYTES
                && (double) n * f < best) {
                best = (double) n * f;
                out = new long[] {f, n};
            }
        }
        return out;
    }

    /** cuckoo_size: {bucket size, fingerprint bits, buckets}, or null if too large. */
    static long[] size(long capacity, double errorRate) {
        double target = errorRate * Sizing.MARGIN;
        double best = Double.POSITIVE_INFINITY;
        long[] out = null;
        for (int bs : new int[] {4, 8}) {
            long[] fn = shape(capacity, target, bs);
            if (fn == null)
                continue;
            double bits = (double) fn[1] * bs * fn[0];
            if (bits < best) {
                best = bits;
                out = new long[] {bs, fn[0], fn[1]};
            }
        }
        return out;
    }

    static boolean nbucketsOk(long n, int b, int f) {
        return n >= 1 && n <= Sizing.MAX_BYTES * 8 / ((long) b * f);
    }

    /* ---- the header ---- */

    public int bucketSize() {
        return b;
    }

    public int fingerprintBits() {
        return buf[7];
    }

    public int subfilters() {
        return nsub;
    }

    public int maxKicks() {
        return Bytes.load16(buf, 14);
    }

    public long capacity() {
        return Bytes.load64(buf, 16);
    }

    public double errorRate() {
        return Double.longBitsToDouble(Bytes.load64(buf, 24));
    }

    /** Occupied slots of all sub-filters ({@code cf_items}). */
    public long items() {
        return Bytes.load64(buf, 32);
    }

    @Override
    boolean isEmpty() {
        return items() == 0;
    }

    @Override
    void storeKeyType(int oid) {
        Bytes.store32(buf, 40, oid);
    }

    /** A copy that records this key type ({@code cf_set_key_type}), as {@link BloomFilter#withKeyType}. */
    public CuckooFilter withKeyType(int oid) {
        CuckooFilter out = new CuckooFilter(buf.clone(), len);
        out.setEncoding(encoding());
        out.setKeyType(KeyTypes.reset(keyType, oid));
        return out;
    }

    /* ---- slots ---- */

    private long mask(int s) {
        return (1L << fpBits[s]) - 1;
    }

    private int slotsAt(int s) {
        return descAt[s] + SUB_HEADER;
    }

    private int get(int s, long k) {
        long bit = k * fpBits[s];
        return (int) ((Bytes.load64(buf, slotsAt(s) + (int) (bit >>> 3)) >>> (bit & 7)) & mask(s));
    }

    private void set(int s, long k, int fp) {
        long bit = k * fpBits[s];
        int at = slotsAt(s) + (int) (bit >>> 3);
        int shift = (int) (bit & 7);
        long w = Bytes.load64(buf, at);
        w &= ~(mask(s) << shift);
        w |= (fp & 0xFFFFFFFFL) << shift;
        Bytes.store64(buf, at, w);
    }

    private static int fingerprint(long h2, int f) {
        int fp = (int) (h2 >>> (64 - f));
        return fp != 0 ? fp : 1;
    }

    private static long alt(long bucket, int fp, long n) {
        long h = Bytes.mulHigh(Murmur3.fmix64(fp & 0xFFFFFFFFL), n);
        return h >= bucket ? h - bucket : h + n - bucket;
    }

    /* slot of bucket holding fp, or -1; one word read when the bucket fits in it */
    private int find(int s, long bucket, int fp) {
        int f = fpBits[s];
        if (b * f <= 57) {
            long bit = bucket * b * f;
            long w = Bytes.load64(buf, slotsAt(s) + (int) (bit >>> 3)) >>> (bit & 7);
            long m = mask(s);
            for (int j = 0; j < b; j++, w >>>= f)
                if ((w & m) == (fp & 0xFFFFFFFFL))
                    return j;
            return -1;
        }
        for (int j = 0; j < b; j++)
            if (get(s, bucket * b + j) == fp)
                return j;
        return -1;
    }

    /* ---- checks ---- */

    @Override
    boolean testHash(long h1, long h2) {
        for (int s = 0; s < nsub; s++) {
            long n = nbuckets[s];
            int fp = fingerprint(h2, fpBits[s]);
            long i1 = Bytes.mulHigh(h1, n);
            if (find(s, i1, fp) >= 0 || find(s, alt(i1, fp, n), fp) >= 0)
                return true;
        }
        return false;
    }

    @Override
    long countHash(long h1, long h2) {
        long count = 0;
        for (int s = 0; s < nsub; s++) {
            long n = nbuckets[s];
            int fp = fingerprint(h2, fpBits[s]);
            long i1 = Bytes.mulHigh(h1, n);
            long i2 = alt(i1, fp, n);
            for (int j = 0; j < b; j++) {
                count += get(s, i1 * b + j) == fp ? 1 : 0;
                if (i2 != i1)
                    count += get(s, i2 * b + j) == fp ? 1 : 0;
            }
        }
        return count;
    }

    /* ---- adds and deletes ---- */

    public CuckooFilter add(long key) {
        long[] h = hashLongForAdd(key);
        addHash(h[0], h[1]);
        return this;
    }

    public CuckooFilter add(String key) {
        long[] h = hashStringForAdd(key);
        addHash(h[0], h[1]);
        return this;
    }

    public CuckooFilter add(UUID key) {
        long[] h = hashUuidForAdd(key);
        addHash(h[0], h[1]);
        return this;
    }

    public CuckooFilter add(byte[] key) {
        long[] h = hashBytesForAdd(key);
        addHash(h[0], h[1]);
        return this;
    }

    public CuckooFilter addAll(long[] keys) {
        for (long key : keys)
            add(key);
        return this;
    }

    /** {@code cf_add_nx}: adds the key only if it does not test present; returns whether it did. */
    public boolean addIfAbsent(long key) {
        long[] h = hashLongForAdd(key);
        return addIfAbsentHash(h);
    }

    public boolean addIfAbsent(String key) {
        return addIfAbsentHash(hashStringForAdd(key));
    }

    public boolean addIfAbsent(UUID key) {
        return addIfAbsentHash(hashUuidForAdd(key));
    }

    public boolean addIfAbsent(byte[] key) {
        return addIfAbsentHash(hashBytesForAdd(key));
    }

    private boolean addIfAbsentHash(long[] h) {
        if (testHash(h[0], h[1]))
            return false;
        addHash(h[0], h[1]);
        return true;
    }

    /**
     * {@code cf_delete}: one copy removed; false (nothing changed) if none is
     * there, or if the key matches sub-filters of two shapes (kept, as the
     * server keeps it).
     */
    public boolean delete(long key) {
        long[] h = hashLong(key);
        return deleteHash(h[0], h[1]);
    }

    public boolean delete(String key) {
        long[] h = hashString(key);
        return deleteHash(h[0], h[1]);
    }

    public boolean delete(UUID key) {
        long[] h = hashUuid(key);
        return deleteHash(h[0], h[1]);
    }

    public boolean delete(byte[] key) {
        long[] h = hashBytes(key);
        return deleteHash(h[0], h[1]);
    }

    /* ck_match: {bucket, slot} of an entry matching the key in sub-filter s, or null */
    private long[] match(int s, long h1, long h2) {
        int fp = fingerprint(h2, fpBits[s]);
        long bucket = Bytes.mulHigh(h1, nbuckets[s]);
        for (int pass = 0; pass < 2; pass++) {
            int j = find(s, bucket, fp);
            if (j >= 0)
                return new long[] {bucket, j};
            bucket = alt(bucket, fp, nbuckets[s]);
        }
        return null;
    }

    /*
     * cuckoo_delete: the newest matching sub-filter's entry, unless the key
     * matches sub-filters of two shapes (one match may be another key's):
     * then nothing is removed, as on the server.
     */
    private boolean deleteHash(long h1, long h2) {
        int found = -1;
        long[] at = null;
        for (int s = nsub - 1; s >= 0; s--) {
            long[] m = match(s, h1, h2);
            if (m == null)
                continue;
            if (found < 0) {
                found = s;
                at = m;
            } else if (nbuckets[s] != nbuckets[found] || fpBits[s] != fpBits[found])
                return false;
        }
        if (found < 0)
            return false;
        set(found, at[0] * b + at[1], 0);
        addCount(found, -1);
        return true;
    }

    private void addCount(int s, long delta) {
        Bytes.store64(buf, descAt[s] + 8, Bytes.load64(buf, descAt[s] + 8) + delta);
        Bytes.store64(buf, 32, Bytes.load64(buf, 32) + delta);
    }

    private long count(int s) {
        return Bytes.load64(buf, descAt[s] + 8);
    }

    /* ck_sub_room: capacity 2^s entries, at most the slots (first) or the room (after) */
    private long subRoom(int s) {
        long cap = capacity();
        long want = cap > (Long.MAX_VALUE >>> s) ? Long.MAX_VALUE : cap << s;
        long have = s == 0 ? nbuckets[s] * b : room(b, nbuckets[s]);
        return Math.min(want, have);
    }

    /*
     * cuckoo_add: the newest sub-filter the key matches (placing, else the
     * kick walk, whatever its fill); else placing in each sub-filter below
     * its room, newest first; else the kick walk in the newest, if below its
     * room; else a new sub-filter, and again.
     */
    @Override
    void addHash(long h1, long h2) {
        while (!tryAdd(h1, h2))
            grow();
    }

    private boolean tryAdd(long h1, long h2) {
        int last = nsub - 1;
        for (int s = last; s >= 0; s--) {
            if (match(s, h1, h2) == null)
                continue;
            long bucket = Bytes.mulHigh(h1, nbuckets[s]);
            int fp = fingerprint(h2, fpBits[s]);
            if (place(s, bucket, fp) || kick(s, bucket, fp, h2))
                return true;
            break;
        }
        for (int s = last; s >= 0; s--)
            if (count(s) < subRoom(s)
                && place(s, Bytes.mulHigh(h1, nbuckets[s]), fingerprint(h2, fpBits[s])))
                return true;
        if (count(last) >= subRoom(last))
            return false;
        return kick(last, Bytes.mulHigh(h1, nbuckets[last]), fingerprint(h2, fpBits[last]), h2);
    }

    private boolean place(int s, long bucket, int fp) {
        long[] buckets = {bucket, alt(bucket, fp, nbuckets[s])};
        for (long bk : buckets) {
            int j = find(s, bk, 0);
            if (j >= 0) {
                set(s, bk * b + j, fp);
                addCount(s, 1);
                return true;
            }
        }
        return false;
    }

    /* the kick walk from bucket or its other one, r seeding the sequence; undone if it fails */
    private boolean kick(int s, long bucket, int fp, long r) {
        int kicks = maxKicks();
        long[] path = new long[kicks];
        int hand = fp;
        long n = nbuckets[s];
        int done;

        r = r * KICK_MULT + KICK_ADD;
        long cur = (r >>> 63) != 0 ? alt(bucket, fp, n) : bucket;
        for (done = 0; done < kicks; done++) {
            r = r * KICK_MULT + KICK_ADD;
            int j = (int) (r >>> 61) & (b - 1);
            long k = cur * b + j;
            int victim = get(s, k);
            set(s, k, hand);
            path[done] = k;
            hand = victim;
            cur = alt(cur, hand, n);
            j = find(s, cur, 0);
            if (j >= 0) {
                set(s, cur * b + j, hand);
                addCount(s, 1);
                return true;
            }
        }
        while (done-- > 0) {
            int taken = get(s, path[done]);
            set(s, path[done], hand);
            hand = taken;
        }
        return false;
    }

    /*
     * cuckoo_next_sub and the growth: sub-filter k sized for capacity 2^k at
     * 0.9 e / 2^k with the filter's b; full (54000 on the server) past 64
     * sub-filters, the size limit, or when no fingerprint of at most 32 bits
     * meets the share.
     */
    private void grow() {
        int k = nsub;
        String full = "cuckoo filter is full: it holds " + items() + " items in " + nsub + " sub-filters";
        if (k >= MAX_SUBS || capacity() > (Long.MAX_VALUE >>> k))
            throw new IllegalStateException(full + " (" + len + " bytes)");
        long c = capacity() << k;
        long[] fn = shape(c, Math.scalb(errorRate() * Sizing.MARGIN, -k), b);
        if (fn == null) {
            if (shape(c, 1.0, b) != null)
                throw new IllegalStateException(full + "; to keep the rate below twice " + errorRate()
                    + ", another sub-filter would need fingerprints of more than 32 bits or a size"
                    + " over the limit of " + Sizing.MAX_BYTES + " bytes");
            throw new IllegalStateException(full + " (" + len + " bytes)");
        }
        int f = (int) fn[0];
        long n = fn[1];
        if (!nbucketsOk(n, b, f) || (long) len + SUB_HEADER + slotBytesLong(n, b, f) > Sizing.MAX_BYTES)
            throw new IllegalStateException(full + " (" + len + " bytes); another sub-filter of " + n
                + " buckets would exceed the limit of " + MAX_SUBS + " sub-filters or "
                + Sizing.MAX_BYTES + " bytes");
        int at = len;
        int grown = len + SUB_HEADER + slotBytes(n, b, f);
        buf = Arrays.copyOf(buf, grown + PAD);
        Arrays.fill(buf, at, buf.length, (byte) 0);
        Bytes.store64(buf, at, n);
        buf[at + 16] = (byte) f;
        Bytes.store16(buf, 12, nsub + 1);
        len = grown;
        locateSubs();
    }

    /** {@code cf_fpp}: the sum of the sub-filters' modelled rates at their fill, at most 1. */
    public double fpp() {
        double sum = 0.0;
        for (int s = 0; s < nsub; s++)
            sum += modelFpp(fpBits[s], count(s), nbuckets[s]);
        return sum < 1.0 ? sum : 1.0;
    }

    /** Entries per sub-filter, {buckets, fingerprint bits, occupied slots} each. */
    public long[][] subfilterShapes() {
        long[][] out = new long[nsub][];
        for (int s = 0; s < nsub; s++)
            out[s] = new long[] {nbuckets[s], fpBits[s], Bytes.load64(buf, descAt[s] + 8)};
        return out;
    }

    @Override
    public String toString() {
        return "CuckooFilter[" + b + " slots per bucket, " + nbuckets[0] + " buckets of "
            + fpBits[0] + "-bit fingerprints, " + nsub + " sub-filters, seed " + seed()
            + ", capacity " + capacity() + ", error rate " + errorRate() + ", items " + items()
            + (keyType != 0 ? ", keys " + KeyTypes.name(keyType) : "") + "]";
    }
}
