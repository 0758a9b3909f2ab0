package org.pgbloomfilter;

import java.util.Arrays;
import java.util.UUID;

/**
 * A {@code bloomfilter} value: plain (layout 1, blocked512), counting
 * (layout 2, 4-bit counters) or scalable (layout 3, a chain of plain
 * sub-filters), read from the server's bytes or built locally with the bytes
 * the server would build (README: "Binary format"). Values of layouts 5
 * (Guava's) and 6 (RedisBloom's) read as the subclasses
 * {@link GuavaBloomFilter} and {@link RedisBloomFilter}.
 *
 * <pre>{@code
 * BloomFilter f = BloomFilter.fromBytes(rs.getBytes(1));   // SELECT f::bytea ...
 * f.mightContain(42L);                                     // bf_contains(f, 42)
 * BloomFilter local = BloomFilter.create(100_000, 0.01).add(1L).add("a");
 * byte[] same = local.toBytes();     // bf_add(bf_add(bf_create(100000, 0.01), 1), 'a')
 * }</pre>
 */
public class BloomFilter extends Filter {
    public static final int LAYOUT_PLAIN = 1;
    public static final int LAYOUT_COUNTING = 2;
    public static final int LAYOUT_SCALABLE = 3;
    /** A list of hashes: an unsized {@code bf_agg(x)}'s partial state ({@link HashList}). */
    public static final int LAYOUT_HASHES = 4;
    /** Guava's BloomFilter, bit for bit ({@link GuavaBloomFilter}). */
    public static final int LAYOUT_GUAVA = 5;
    /** A RedisBloom chain ({@link RedisBloomFilter}). */
    public static final int LAYOUT_REDISBLOOM = 6;

    static final int HEADER = 48;
    static final int MAGIC = 0x464D4C42;          /* "BLMF" read little-endian */
    private static final int PREFIX = 16;          /* scalable: expansion, divisor, 8 zero bytes */
    private static final int SUB_HEAD = 8 + HEADER;
    private static final int MAX_SUBS = 64;
    private static final int MAX_EXPANSION = BloomValidation.MAX_EXPANSION;
    private static final int COUNTER_MAX = 15;

    byte[] buf;
    private final int layout;
    private final int hashId;
    private final int k;                /* plain, counting: cells per key */
    private final long nblocks;         /* plain, counting */
    private int nsub;                   /* scalable: sub-filters and where they are */
    private int[] subAt = new int[0];
    private long[] subBlocks = new long[0];
    private int[] subK = new int[0];
    private boolean aggState;           /* hashes: an aggregate's state, trimmed as it leaves */

    BloomFilter(byte[] buf) {
        super(Bytes.load32(buf, 8), Bytes.load32(buf, 12));
        this.buf = buf;
        this.layout = buf[5];
        this.hashId = buf[6];
        if (layout == LAYOUT_SCALABLE) {
            this.k = 0;
            this.nblocks = 0;
            locateSubs();
        } else if (layout == LAYOUT_HASHES) {
            this.k = 0;
            this.nblocks = 0;
        } else {
            this.k = buf[7];
            this.nblocks = Bytes.load64(buf, 16) / 512;
        }
    }

    /* ---- reading ---- */

    /**
     * The filter in bytes as {@code f::bytea}, binary COPY or {@code send}
     * give them, validated as strictly as the server's binary input (the
     * bytes are copied).
     *
     * @throws InvalidFilterException if the server would refuse them
     */
    public static BloomFilter fromBytes(byte[] bytes) {
        BloomValidation.check(bytes);
        return wrap(bytes.clone());
    }

    /* a valid value's bytes as the class of its layout (not copied) */
    static BloomFilter wrap(byte[] b) {
        switch (b[5]) {
            case LAYOUT_GUAVA:
                return new GuavaBloomFilter(b);
            case LAYOUT_REDISBLOOM:
                return new RedisBloomFilter(b);
            default:
                return new BloomFilter(b);
        }
    }

    /**
     * As {@link #fromBytes(byte[])}, for a value made in a database of this
     * {@code server_encoding} (null: UTF8): a filter of hash id 2 made in a
     * database that is not UTF8 needs its encoding (its text keys were
     * hashed as that encoding's bytes).
     */
    public static BloomFilter fromBytes(byte[] bytes, String serverEncoding) {
        BloomFilter f = fromBytes(bytes);
        f.setEncoding(serverEncoding);
        return f;
    }

    /** The filter in its text form (base64, as the type's output function writes). */
    public static BloomFilter fromBase64(String text) {
        return fromBytes(Filters.decodeBase64(text));
    }

    /* ---- building: bf_create ---- */

    /** {@code bf_create(capacity, errorRate)}: a plain filter, seed 0. */
    public static BloomFilter create(long capacity, double errorRate) {
        return create(capacity, errorRate, 0);
    }

    /**
     * {@code bf_create(capacity, errorRate, seed)}: a plain filter, untyped
     * until its first key, whose type it records.
     */
    public static BloomFilter create(long capacity, double errorRate, long seed) {
        return createFixed(capacity, errorRate, seed, LAYOUT_PLAIN);
    }

    /**
     * {@code bf_create(capacity, errorRate, seed, key_type => ...)}: a plain
     * filter of keys of this type (a type OID: {@link KeyTypes#INT4}, ...).
     */
    public static BloomFilter create(long capacity, double errorRate, long seed, int keyType) {
        return typed(createFixed(capacity, errorRate, seed, LAYOUT_PLAIN), keyType);
    }

    /** {@code bf_create(capacity, errorRate, seed, true, 0)}: a counting filter. */
    public static BloomFilter createCounting(long capacity, double errorRate, long seed) {
        return createFixed(capacity, errorRate, seed, LAYOUT_COUNTING);
    }

    /** A counting filter of keys of this type. */
    public static BloomFilter createCounting(long capacity, double errorRate, long seed,
                                             int keyType) {
        return typed(createFixed(capacity, errorRate, seed, LAYOUT_COUNTING), keyType);
    }

    /** A scalable filter of keys of this type. */
    public static BloomFilter createScalable(long capacity, double errorRate, long seed,
                                             int expansion, int keyType) {
        return typed(createScalable(capacity, errorRate, seed, expansion), keyType);
    }

    private static BloomFilter typed(BloomFilter f, int keyType) {
        f.setKeyType(KeyTypes.checkGiven(keyType));
        return f;
    }

    /**
     * {@code bf_create(capacity, errorRate, seed, false, expansion)}: a
     * scalable filter ({@code bf_agg(x)} without sizing makes
     * {@code createScalable(1000, 0.01, 0, 2)}).
     */
    public static BloomFilter createScalable(long capacity, double errorRate, long seed,
                                             int expansion) {
        checkRequest(capacity, errorRate, seed);
        if (expansion < 1 || expansion > MAX_EXPANSION)
            throw new IllegalArgumentException("bloom filter expansion " + expansion
                + " is out of range (1 .. " + MAX_EXPANSION + ")");
        if (errorRate / 2 < Sizing.MIN_ERROR_RATE)
            throw new IllegalArgumentException("bloom filter error rate " + errorRate
                + " is too small for a scalable filter");
        byte[] b = new byte[HEADER + PREFIX];
        writeHeader(b, 0, LAYOUT_SCALABLE, 0, (int) seed, 0, capacity, errorRate);
        Bytes.store32(b, HEADER, expansion);
        Bytes.store32(b, HEADER + 4, 1);
        BloomFilter f = new BloomFilter(b);
        if (!f.grow())
            throw tooLarge(capacity, errorRate);
        return f;
    }

    private static BloomFilter createFixed(long capacity, double errorRate, long seed, int layout) {
        checkRequest(capacity, errorRate, seed);
        long[] shape = Sizing.size(capacity, errorRate);
        int cellBits = layout == LAYOUT_COUNTING ? 4 : 1;
        if (shape == null || shape[0] > (Sizing.MAX_BYTES - HEADER) * 8 / cellBits)
            throw tooLarge(capacity, errorRate);
        byte[] b = new byte[Math.toIntExact(HEADER + shape[0] / 8 * cellBits)];
        writeHeader(b, 0, layout, (int) shape[1], (int) seed, shape[0], capacity, errorRate);
        return new BloomFilter(b);
    }

    /**
     * An empty filter of exactly this one's shape (layout, size, k, seed,
     * capacity, rate, key type; a scalable filter restarts with one
     * sub-filter): to build locally a filter that combines with a stored one
     * whatever the sizing.
     */
    public BloomFilter emptyCopy() {
        if (layout == LAYOUT_HASHES)
        {
            BloomFilter e = createHashList(errorRate(), Integer.toUnsignedLong(seed), Bytes.load32(buf, HEADER));
            e.setKeyType(keyType);
            return e;
        }
        if (layout == LAYOUT_SCALABLE) {
            byte[] b = Arrays.copyOf(buf, HEADER + PREFIX + SUB_HEAD + (int) (subBlocks[0] * 64));
            Arrays.fill(b, HEADER + PREFIX, b.length, (byte) 0);
            System.arraycopy(buf, subAt[0] + 8, b, HEADER + PREFIX + 8, HEADER);
            Bytes.store64(b, HEADER + PREFIX + 8 + 40, 0);
            b[7] = 1;
            Bytes.store64(b, 16, subBlocks[0] * 512);
            Bytes.store64(b, 40, 0);
            Bytes.store32(b, HEADER + 4, 1);
            return new BloomFilter(b);
        }
        byte[] b = new byte[buf.length];
        System.arraycopy(buf, 0, b, 0, HEADER);
        Bytes.store64(b, 40, 0);
        return new BloomFilter(b);
    }

    private static void checkRequest(long capacity, double errorRate, long seed) {
        if (capacity <= 0)
            throw new IllegalArgumentException("bloom filter capacity must be positive, got " + capacity);
        if (!(errorRate > 0.0 && errorRate < 1.0))
            throw new IllegalArgumentException(
                "bloom filter error rate must be greater than 0 and less than 1, got " + errorRate);
        if (errorRate < Sizing.MIN_ERROR_RATE)
            throw new IllegalArgumentException("bloom filter error rate " + errorRate
                + " is below the supported minimum of " + Sizing.MIN_ERROR_RATE);
        if (seed < 0 || seed > 0xFFFFFFFFL)
            throw new IllegalArgumentException("bloom filter seed must be between 0 and 4294967295");
    }

    private static IllegalArgumentException tooLarge(long capacity, double errorRate) {
        return new IllegalArgumentException("bloom filter for " + capacity
            + " elements at error rate " + errorRate + " is too large (the limit is "
            + Sizing.MAX_BYTES + " bytes)");
    }

    static void writeHeader(byte[] b, int at, int layout, int k, int seed, long nbits,
                            long capacity, double errorRate) {
        Bytes.store32(b, at, MAGIC);
        b[at + 4] = 1;
        b[at + 5] = (byte) layout;
        b[at + 6] = 5;              /* hash id 5: text as UTF-8 */
        b[at + 7] = (byte) k;
        Bytes.store32(b, at + 8, seed);
        Bytes.store32(b, at + 12, 0);
        Bytes.store64(b, at + 16, nbits);
        Bytes.store64(b, at + 24, capacity);
        Bytes.store64(b, at + 32, Double.doubleToRawLongBits(errorRate));
        Bytes.store64(b, at + 40, 0);
    }

    /* ---- the header ---- */

    /** 1 plain (blocked512), 2 counting (counting4), 3 scalable, 4 hashes, 5 guava, 6 redisbloom. */
    public int layout() {
        return layout;
    }

    /**
     * 1: the canonical bytes of 1.0/1.1; 2: SQL-equal values hash equal,
     * text in the database's encoding (1.2 to 1.4); 5: the same with text
     * as UTF-8 in every database (1.5); 3 and 4: Guava's and RedisBloom's
     * hashing (layouts 5 and 6).
     */
    @Override
    public int hashId() {
        return hashId;
    }

    /** Cells per key (plain, counting, guava); the number of sub-filters or links (scalable, redisbloom). */
    public int nhashes() {
        return buf[7] & 0xFF;
    }

    public long nbits() {
        return Bytes.load64(buf, 16);
    }

    public long capacity() {
        return Bytes.load64(buf, 24);
    }

    public double errorRate() {
        return Double.longBitsToDouble(Bytes.load64(buf, 32));
    }

    /** Bits set (plain), non-zero counters (counting), their sum over sub-filters (scalable). */
    public long bitsSet() {
        return Bytes.load64(buf, 40);
    }

    @Override
    boolean isEmpty() {
        return bitsSet() == 0;
    }

    /* the top header only: a scalable filter's sub-filters record 0, as the server writes them */
    @Override
    void storeKeyType(int oid) {
        Bytes.store32(buf, 12, oid);
    }

    /**
     * A copy that records this key type ({@code bf_set_key_type}): the
     * caller asserts what the keys were. A typed filter changes only among
     * smallint, integer and bigint.
     */
    public BloomFilter withKeyType(int oid) {
        BloomFilter out = wrap(buf.clone());
        out.setEncoding(encoding());
        out.setKeyType(resetKeyType(oid));
        return out;
    }

    /* the key type withKeyType gives, or the server's refusal */
    int resetKeyType(int oid) {
        return KeyTypes.reset(keyType, oid);
    }

    @Override
    public byte[] toBytes() {
        return aggState ? HashList.trimmed(buf) : buf.clone();
    }

    /* ---- lists of hashes (layout 4) ---- */

    /**
     * The list an unsized {@code bf_agg(x)} keeps in a serial plan, empty
     * ({@code bf_agg(x)} uses rate 0.01, seed 0, expansion 2): add keys, then
     * {@link #finish()} gives the filter the aggregate returns; its bytes
     * are those of the aggregate's partial state.
     */
    public static BloomFilter createHashList(double errorRate, long seed, int expansion) {
        checkRequest(1, errorRate, seed);
        if (expansion < 1 || expansion > MAX_EXPANSION)
            throw new IllegalArgumentException("bloom filter expansion " + expansion
                + " is out of range (1 .. " + MAX_EXPANSION + ")");
        byte[] b = new byte[HashList.cellAt(1)];
        writeHeader(b, 0, LAYOUT_HASHES, 0, (int) seed, 128, 1, errorRate);
        Bytes.store32(b, HEADER, expansion);
        BloomFilter f = new BloomFilter(b);
        f.aggState = true;
        return f;
    }

    /** A list of hashes (layout 4): the scalable filter the aggregate's final function makes of it. */
    public BloomFilter finish() {
        if (layout != LAYOUT_HASHES)
            throw new UnsupportedOperationException("only a list of hashes is finished");
        BloomFilter out = HashList.finish(buf);
        out.setEncoding(encoding());
        return out;
    }

    /* an empty scalable filter, hash id and key type as given (bloom_scalable_like) */
    static BloomFilter scalableLike(long capacity, double errorRate, long seed, int expansion,
                                    int hashId, int keyType) {
        BloomFilter f = createScalable(capacity, errorRate, seed, expansion);
        f.buf[6] = (byte) hashId;
        f.buf[f.subAt[0] + 8 + 6] = (byte) hashId;
        f.storeKeyType(keyType);
        return new BloomFilter(f.buf);
    }

    /*
     * bloom_scalable_take: a hash into the last sub-filter however full (one
     * that sets no bit is not counted); the items the last one holds.
     */
    long takeHash(long h1, long h2) {
        int last = nsub - 1;
        for (int i = 0; i < last; i++)
            if (Blocks.test(buf, subAt[i] + SUB_HEAD + (int) Bytes.mulHigh(h1, subBlocks[i]) * 64,
                            h1, h2, subK[i]))
                return Bytes.load64(buf, subAt[last]);
        int at = subAt[last];
        long before = bitsSet();
        addBits(at + SUB_HEAD + (int) Bytes.mulHigh(h1, subBlocks[last]) * 64, h1, h2,
                subK[last], at + 8 + 40);
        if (bitsSet() != before)
            Bytes.store64(buf, at, Bytes.load64(buf, at) + 1);
        return Bytes.load64(buf, at);
    }

    /* ---- checks ---- */

    @Override
    boolean testHash(long h1, long h2) {
        switch (layout) {
            case LAYOUT_PLAIN:
                return Blocks.test(buf, HEADER + (int) Bytes.mulHigh(h1, nblocks) * 64, h1, h2, k);
            case LAYOUT_COUNTING:
                return countCells(h1, h2) > 0;
            case LAYOUT_HASHES:
                return HashList.contains(buf, h1, h2);
            default:
                for (int i = nsub - 1; i >= 0; i--) {
                    int bits = subAt[i] + SUB_HEAD;
                    if (Blocks.test(buf, bits + (int) Bytes.mulHigh(h1, subBlocks[i]) * 64,
                                    h1, h2, subK[i]))
                        return true;
                }
                return false;
        }
    }

    @Override
    long countHash(long h1, long h2) {
        if (layout == LAYOUT_COUNTING)
            return countCells(h1, h2);
        return testHash(h1, h2) ? 1 : 0;
    }

    private int countingBase(long h1) {
        return HEADER + (int) Bytes.mulHigh(h1, nblocks) * 256;
    }

    private static int counter(byte[] b, int base, int cell) {
        return (b[base + (cell >>> 1)] >>> ((cell & 1) * 4)) & 0xF;
    }

    private static void setCounter(byte[] b, int base, int cell, int v) {
        int shift = (cell & 1) * 4;
        int at = base + (cell >>> 1);
        b[at] = (byte) ((b[at] & ~(0xF << shift)) | (v << shift));
    }

    /* the smallest of the key's counters: 0 if it was never added */
    private int countCells(long h1, long h2) {
        int[] cells = new int[k];
        int n = Blocks.draw(h1, h2, k, cells);
        int base = countingBase(h1);
        int least = COUNTER_MAX;
        for (int i = 0; i < n && least > 0; i++)
            least = Math.min(least, counter(buf, base, cells[i]));
        return least;
    }

    /* ---- adds ---- */

    public BloomFilter add(long key) {
        long[] h = hashLongForAdd(key);
        addHash(h[0], h[1]);
        return this;
    }

    public BloomFilter add(String key) {
        long[] h = hashStringForAdd(key);
        addHash(h[0], h[1]);
        return this;
    }

    public BloomFilter add(UUID key) {
        long[] h = hashUuidForAdd(key);
        addHash(h[0], h[1]);
        return this;
    }

    public BloomFilter add(byte[] key) {
        long[] h = hashBytesForAdd(key);
        addHash(h[0], h[1]);
        return this;
    }

    /** Every key, in order ({@code bf_add_all}). */
    public BloomFilter addAll(long[] keys) {
        for (long key : keys)
            add(key);
        return this;
    }

    public BloomFilter addAll(Iterable<?> keys) {
        for (Object key : keys) {
            if (key instanceof Long || key instanceof Integer || key instanceof Short)
                add(((Number) key).longValue());
            else if (key instanceof String)
                add((String) key);
            else if (key instanceof UUID)
                add((UUID) key);
            else if (key instanceof byte[])
                add((byte[]) key);
            else if (key != null)
                throw new IllegalArgumentException("keys must be long, String, UUID or byte[], got "
                    + key.getClass().getName());
        }
        return this;
    }

    @Override
    void addHash(long h1, long h2) {
        switch (layout) {
            case LAYOUT_PLAIN:
                addBits(HEADER + (int) Bytes.mulHigh(h1, nblocks) * 64, h1, h2, k, 40);
                break;
            case LAYOUT_COUNTING:
                addCounters(h1, h2, 1);
                break;
            case LAYOUT_HASHES:
                buf = HashList.append(buf, h1, h2);
                break;
            default:
                addScalable(h1, h2);
                break;
        }
    }

    /* set a key's bits in a block; the count of bits set at countAt (and the top's) follows */
    private void addBits(int block, long h1, long h2, int cells, int countAt) {
        int added = Blocks.add(buf, block, h1, h2, cells);
        Bytes.store64(buf, countAt, Bytes.load64(buf, countAt) + added);
        if (countAt != 40)
            Bytes.store64(buf, 40, Bytes.load64(buf, 40) + added);
    }

    /* counters up (sticky at 15) or down (unless saturated); the non-zero count follows */
    private void addCounters(long h1, long h2, int delta) {
        int[] cells = new int[k];
        int n = Blocks.draw(h1, h2, k, cells);
        int base = countingBase(h1);
        long nonzero = bitsSet();
        for (int i = 0; i < n; i++) {
            int c = counter(buf, base, cells[i]);
            if (delta > 0) {
                nonzero += (c == 0) ? 1 : 0;
                if (c < COUNTER_MAX)
                    setCounter(buf, base, cells[i], c + 1);
            } else if (c < COUNTER_MAX) {
                setCounter(buf, base, cells[i], c - 1);
                nonzero -= (c == 1) ? 1 : 0;
            }
        }
        Bytes.store64(buf, 40, nonzero);
    }

    /**
     * Take one copy of the key out of a counting filter ({@code bf_remove});
     * false (nothing changed) if it tests absent.
     */
    public boolean remove(long key) {
        long[] h = hashLong(key);
        return removeHash(h[0], h[1]);
    }

    public boolean remove(String key) {
        long[] h = hashString(key);
        return removeHash(h[0], h[1]);
    }

    public boolean remove(UUID key) {
        long[] h = hashUuid(key);
        return removeHash(h[0], h[1]);
    }

    public boolean remove(byte[] key) {
        long[] h = hashBytes(key);
        return removeHash(h[0], h[1]);
    }

    private boolean removeHash(long h1, long h2) {
        if (layout != LAYOUT_COUNTING)
            throw new UnsupportedOperationException("only a counting filter can remove a key");
        if (countCells(h1, h2) == 0)
            return false;
        addCounters(h1, h2, -1);
        return true;
    }

    /* ---- scalable ---- */

    private void locateSubs() {
        int n = buf[7];
        int at = HEADER + PREFIX;
        subAt = new int[n];
        subBlocks = new long[n];
        subK = new int[n];
        for (int i = 0; i < n; i++) {
            subAt[i] = at;
            subBlocks[i] = Bytes.load64(buf, at + 8 + 16) / 512;
            subK[i] = buf[at + 8 + 7];
            at += SUB_HEAD + (int) (subBlocks[i] * 64);
        }
        nsub = n;
    }

    /*
     * As the server: a key that tests present in any sub-filter is not added
     * again; a new one goes into the newest, which, once it holds its
     * capacity, is followed by a new sub-filter.
     */
    private void addScalable(long h1, long h2) {
        if (testHash(h1, h2))
            return;
        int last = nsub - 1;
        long items = Bytes.load64(buf, subAt[last]);
        long share = Bytes.load64(buf, subAt[last] + 8 + 24) / Integer.toUnsignedLong(Bytes.load32(buf, HEADER + 4));
        /* the count is unsigned, and input does not bound it: a forged one past int8 is full */
        if (Long.compareUnsigned(items, Math.max(share, 1)) >= 0) {
            if (!grow())
                throw new IllegalStateException("scalable bloom filter cannot grow any further");
            last++;
        }
        int at = subAt[last];
        addBits(at + SUB_HEAD + (int) Bytes.mulHigh(h1, subBlocks[last]) * 64, h1, h2,
                subK[last], at + 8 + 40);
        Bytes.store64(buf, at, Bytes.load64(buf, at) + 1);
    }

    /* append an empty sub-filter of the shape its position gives; false if none can follow */
    private boolean grow() {
        int i = nsub;
        long expansion = Integer.toUnsignedLong(Bytes.load32(buf, HEADER));
        long[] sub = i < MAX_SUBS ? Sizing.scalableSub(capacity(), errorRate(), expansion, i) : null;
        if (sub == null)
            return false;
        long grown = (long) buf.length + SUB_HEAD + sub[1] / 8;
        if (grown > Sizing.MAX_BYTES)
            return false;
        byte[] b = Arrays.copyOf(buf, (int) grown);
        writeHeader(b, buf.length + 8, LAYOUT_PLAIN, (int) sub[2], seed, sub[1], sub[0],
                    Math.scalb(errorRate(), -(i + 1)));
        b[buf.length + 8 + 6] = (byte) hashId;
        b[7] = (byte) (i + 1);
        Bytes.store64(b, 16, Bytes.load64(b, 16) + sub[1]);
        buf = b;
        locateSubs();
        return true;
    }

    /** Elements each sub-filter took (scalable); a single count otherwise is not kept. */
    public long[] subfilterItems() {
        long[] items = new long[nsub];
        for (int i = 0; i < nsub; i++)
            items[i] = Bytes.load64(buf, subAt[i]);
        return items;
    }

    @Override
    public String toString() {
        String[] names = {"", "blocked512", "counting4", "scalable", "hashes", "guava", "redisbloom"};
        return "BloomFilter[" + names[layout] + ", " + nbits() + " bits, "
            + (layout == LAYOUT_SCALABLE ? nsub + " sub-filters"
               : layout == LAYOUT_REDISBLOOM ? nhashes() + " links" : nhashes() + " hashes")
            + ", seed " + seed() + ", capacity " + capacity() + ", error rate " + errorRate()
            + (keyType != 0 ? ", keys " + KeyTypes.name(keyType) : "") + "]";
    }
}
