package org.pgbloomfilter;

import java.util.Arrays;

/**
 * A bloomfilter of layout 6, "redisbloom" (docs/format.md, "RedisBloom:
 * layout 6 and hash id 4"): a scalable Bloom filter laid out and hashed as
 * RedisBloom 2.x keeps one, which the server makes with
 * {@code bf_create(capacity, rate, expansion => e, layout => 'redisbloom')}
 * ({@code BF.RESERVE}; expansion 0 is NONSCALING) and reads from
 * {@code BF.SCANDUMP}'s chunks with {@code bf_from_redisbloom}.
 *
 * <p>The payload is the chain as RedisBloom dumps it: a 20-byte chain
 * header (size, number of links, options, growth), a 53-byte entry per
 * link ({@link RedisLink}), then each link's bits. A key is the bytes a
 * Redis client sends (an integer's decimal text, text as UTF-8, char(n)
 * without trailing blanks, bytea as it is), hashed twice with
 * {@link MurmurHash64A}; it tests or sets bits {@code (a + i * b) mod M}
 * of a link. An add of a key present in any link changes nothing; past the
 * last link's entries a link for entries times the growth at half the
 * rate is started, exactly as the server (and {@code BF.ADD}) starts it.
 */
public final class RedisBloomFilter extends ForeignBloomFilter {
    static final int HASH_ID = 4;
    private static final int CHAIN = 20;
    private static final int MAX_LINKS = 64;
    private static final String CANNOT_GROW = "redisbloom bloom filter cannot grow any further: a"
        + " RedisBloom filter made without expansion (NONSCALING) takes no element past its capacity,"
        + " as Redis refuses them; one that scales is limited to 64 links and the size limit of a"
        + " bloom filter value";

    /* each link: where its entry and its bits are, its modulus and hashes */
    private int[] entryAt;
    private int[] dataAt;
    private long[] modulus;
    private int[] hashes;

    RedisBloomFilter(byte[] buf) {
        super(buf);
        locateLinks();
    }

    private void locateLinks() {
        int n = nhashes();
        entryAt = new int[n];
        dataAt = new int[n];
        modulus = new long[n];
        hashes = new int[n];
        int data = HEADER + CHAIN + n * RedisLink.ENTRY;
        for (int i = 0; i < n; i++) {
            RedisLink l = RedisLink.read(buf, entryAt[i] = HEADER + CHAIN + i * RedisLink.ENTRY);
            dataAt[i] = data;
            modulus[i] = l.modulus();
            hashes[i] = l.hashes;
            data += (int) l.bytes;
        }
    }

    /** The key types a RedisBloom filter may have: what a Redis client sends in one agreed form. */
    static boolean redisKeyType(int oid) {
        switch (oid) {
            case KeyTypes.UNTYPED:
            case KeyTypes.BYTEA:
            case KeyTypes.INT8:
            case KeyTypes.INT2:
            case KeyTypes.INT4:
            case KeyTypes.TEXT:
            case KeyTypes.BPCHAR:
            case KeyTypes.VARCHAR:
                return true;
            default:
                return false;
        }
    }

    private static long headBytes(long nlinks) {
        return CHAIN + nlinks * RedisLink.ENTRY;
    }

    /* ---- validation: the layout's check_header and check_payload, in the server's order ---- */

    static void checkHeader(byte[] b) {
        int n = b[7] & 0xFF;
        long nbits = Bytes.load64(b, 16);
        long payload = b.length - HEADER;
        if (Bytes.load32(b, 8) != 0)
            throw BloomValidation.bad(BloomValidation.RESERVED);
        if (n == 0 || n > MAX_LINKS)
            throw BloomValidation.bad(BloomValidation.NHASHES);
        if (nbits <= 0 || nbits % 8 != 0 || nbits / 8 > Sizing.MAX_BYTES)
            throw BloomValidation.bad(BloomValidation.NBITS);
        if (payload != headBytes(n) + nbits / 8 || payload > Sizing.MAX_BYTES - HEADER)
            throw BloomValidation.bad(BloomValidation.LENGTH);
        if (Long.compareUnsigned(Bytes.load64(b, 40), nbits) > 0)
            throw BloomValidation.bad(BloomValidation.BITS_SET);
        if (!redisKeyType(Bytes.load32(b, 12)))
            throw BloomValidation.bad(BloomValidation.KEY_TYPE);
    }

    /*
     * The chain header against the top one (rb_check_payload, through
     * bloom_redis_read_head): the chain's own fields, each link and how it
     * follows the one before, the counts summing up, and what the top
     * header says of them.
     */
    static void checkPayload(byte[] b) {
        int n = b[7] & 0xFF;
        long nfilters = Integer.toUnsignedLong(Bytes.load32(b, HEADER + 8));
        int options = Bytes.load32(b, HEADER + 12);
        int growth = Bytes.load32(b, HEADER + 16);
        if (nfilters == 0 || nfilters > MAX_LINKS)
            throw BloomValidation.bad(BloomValidation.NHASHES);
        if (nfilters != n)
            throw BloomValidation.bad(BloomValidation.LENGTH);
        if ((options & ~RedisLink.KNOWN_OPTIONS) != 0)
            throw BloomValidation.bad(BloomValidation.RESERVED);
        if ((options & RedisLink.FORCE64) == 0)
            throw BloomValidation.bad(BloomValidation.HASH);
        /*
         * The growth sizes every later link: held to bf_create's bounds,
         * and no ENTS_IS_BITS (a link of e entries followed by one of
         * 2^(e * growth) bits) in a chain that scales.
         */
        long g = Integer.toUnsignedLong(growth);
        if ((options & RedisLink.NO_SCALING) == 0
            && (g < 1 || g > BloomValidation.MAX_EXPANSION || (options & RedisLink.ENTS_IS_BITS) != 0))
            throw BloomValidation.bad(BloomValidation.GROWTH);
        long total = 0;
        long nbits = 0;
        RedisLink prev = null;
        for (int i = 0; i < n; i++) {
            RedisLink l = RedisLink.read(b, HEADER + CHAIN + i * RedisLink.ENTRY);
            String problem = l.problem();
            if (problem != null)
                throw BloomValidation.bad(problem);
            if (prev != null && !l.follows(prev, options, growth))
                throw BloomValidation.bad(BloomValidation.LINK_NEXT);
            prev = l;
            if (Long.compareUnsigned(l.size, -1L - total) > 0)
                throw BloomValidation.bad(BloomValidation.SUBFILTER);
            total += l.size;
            nbits += l.bits;
            if (Long.compareUnsigned(nbits / 8, Sizing.MAX_BYTES) > 0)
                throw BloomValidation.bad(BloomValidation.NBITS);
        }
        if (total != Bytes.load64(b, HEADER))
            throw BloomValidation.bad(BloomValidation.SUBFILTER);
        RedisLink first = RedisLink.read(b, HEADER + CHAIN);
        double rate = (options & RedisLink.NO_SCALING) != 0 ? first.error : first.error / RedisLink.TIGHTENING;
        if (headBytes(n) + nbits / 8 > Sizing.MAX_BYTES - HEADER)
            throw BloomValidation.bad(BloomValidation.LENGTH);
        if (first.entries <= 0 || !(rate > 0.0 && rate < 1.0))
            throw BloomValidation.bad(BloomValidation.CAPACITY);
        if (nbits != Bytes.load64(b, 16))
            throw BloomValidation.bad(BloomValidation.NBITS);
        if (first.entries != Bytes.load64(b, 24))
            throw BloomValidation.bad(BloomValidation.CAPACITY);
        if (rate != Double.longBitsToDouble(Bytes.load64(b, 32)))
            throw BloomValidation.bad(BloomValidation.ERROR_RATE);
        if (Blocks.popcount(b, (int) (HEADER + headBytes(n)), nbits / 8) != Bytes.load64(b, 40))
            throw BloomValidation.bad(BloomValidation.BITS_SET);
    }

    /* ---- building: bf_create(..., layout => 'redisbloom') ---- */

    /**
     * {@code bf_create(capacity, errorRate, expansion => expansion, layout => 'redisbloom')}:
     * the chain {@code BF.RESERVE key errorRate capacity EXPANSION expansion}
     * makes (expansion 0: NONSCALING), the same bytes as the server's;
     * untyped until its first key. {@code IllegalStateException} where its
     * first link would have no bits or exceed the value size limit.
     */
    public static RedisBloomFilter create(long capacity, double errorRate, int expansion) {
        if (expansion < 0 || expansion > BloomValidation.MAX_EXPANSION)
            throw new IllegalArgumentException("bloom filter expansion " + expansion
                + " is out of range (0 .. " + BloomValidation.MAX_EXPANSION + ")");
        if (capacity < 1)
            throw new IllegalArgumentException("RedisBloom filter capacity must be at least 1");
        if (!(errorRate > 0.0 && errorRate < 1.0))
            throw new IllegalArgumentException(
                "RedisBloom filter error rate must be greater than 0 and less than 1");
        int options = RedisLink.FORCE64 | RedisLink.NOROUND | (expansion == 0 ? RedisLink.NO_SCALING : 0);
        RedisLink first = RedisLink.sized(capacity,
            expansion == 0 ? errorRate : errorRate * RedisLink.TIGHTENING, options);
        if (first == null || HEADER + headBytes(1) + first.bytes > Sizing.MAX_BYTES)
            throw new IllegalStateException("RedisBloom filter for " + capacity + " elements at error rate "
                + errorRate + " cannot be made: its first link would have no bits or exceed the limit of "
                + Sizing.MAX_BYTES + " bytes");
        byte[] b = new byte[(int) (HEADER + headBytes(1) + first.bytes)];
        writeHeader(b, 0, LAYOUT_REDISBLOOM, 1, 0, first.bits, capacity, errorRate);
        b[6] = HASH_ID;
        Bytes.store32(b, HEADER + 8, 1);
        Bytes.store32(b, HEADER + 12, options);
        /* BF.RESERVE ... NONSCALING keeps the default growth, 2 */
        Bytes.store32(b, HEADER + 16, expansion == 0 ? 2 : expansion);
        first.write(b, HEADER + CHAIN);
        return new RedisBloomFilter(b);
    }

    /** As {@link #create(long, double, int)}, of keys of this type (bigint, integer, smallint, text, varchar, char(n) or bytea). */
    public static RedisBloomFilter create(long capacity, double errorRate, int expansion, int keyType) {
        KeyTypes.checkGiven(keyType);
        if (!redisKeyType(keyType))
            throw new IllegalArgumentException("bloom filters of layout redisbloom cannot hold keys of type "
                + KeyTypes.name(keyType) + ": use keys of type bigint, integer, smallint, text, varchar,"
                + " char(n) or bytea");
        RedisBloomFilter f = create(capacity, errorRate, expansion);
        f.setKeyType(keyType);
        return f;
    }

    /** An empty chain of this one's request: its first link, emptied, and nothing after it. */
    @Override
    public BloomFilter emptyCopy() {
        RedisLink first = RedisLink.read(buf, HEADER + CHAIN);
        first.size = 0;
        byte[] b = Arrays.copyOf(buf, (int) (HEADER + headBytes(1) + first.bytes));
        Arrays.fill(b, HEADER + CHAIN, b.length, (byte) 0);
        first.write(b, HEADER + CHAIN);
        b[7] = 1;
        Bytes.store64(b, 16, first.bits);
        Bytes.store64(b, 40, 0);
        Bytes.store64(b, HEADER, 0);
        Bytes.store32(b, HEADER + 8, 1);
        return new RedisBloomFilter(b);
    }

    @Override
    int resetKeyType(int oid) {
        int t = super.resetKeyType(oid);
        if (!redisKeyType(t))
            throw new IllegalArgumentException("bloom filters of layout redisbloom cannot hold keys of type "
                + KeyTypes.name(t));
        return t;
    }

    /** The options of the chain: 1 NOROUND, 2 ENTS_IS_BITS, 4 FORCE64, 8 NONSCALING. */
    public int options() {
        return Bytes.load32(buf, HEADER + 12);
    }

    /** The growth (expansion) of each next link's entries. */
    public long growth() {
        return Integer.toUnsignedLong(Bytes.load32(buf, HEADER + 16));
    }

    /** Elements each link counted ({@code BF.INFO}'s per-link size). */
    @Override
    public long[] subfilterItems() {
        long[] items = new long[entryAt.length];
        for (int i = 0; i < items.length; i++)
            items[i] = Bytes.load64(buf, entryAt[i] + 16);
        return items;
    }

    /* ---- hashing: the bytes a Redis client sends, MurmurHash64A twice ---- */

    @Override
    boolean takesKeyType(int oid) {
        return redisKeyType(oid);
    }

    @Override
    long[] hashInteger(long v, int intType) {
        return MurmurHash64A.pair(Long.toString(v).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Override
    long[] hashKeyBytes(byte[] b) {
        return MurmurHash64A.pair(b);
    }

    @Override
    void checkTextKey(byte[] utf8, TextEncoding db) {
        if (!db.name.equals("UTF8"))
            throw new UnencodableKeyException("RedisBloom filters hold text keys only in a UTF-8 database:"
                + " a Redis client sends text as UTF-8, and this database encodes text as " + db.name);
    }

    @Override
    RuntimeException uuidRefused() {
        return new IllegalArgumentException("RedisBloom filters cannot hold keys of type uuid: a RedisBloom"
            + " filter hashes the bytes a Redis client sends, which only integers, text and bytea have"
            + " in one agreed form");
    }

    /* ---- bits ---- */

    private boolean linkHolds(int i, long a, long b) {
        long m = modulus[i];
        int data = dataAt[i];
        for (int j = 0; j < hashes[i]; j++) {
            long x = Long.remainderUnsigned(a + j * b, m);
            if ((buf[data + (int) (x >>> 3)] & (1 << (x & 7))) == 0)
                return false;
        }
        return true;
    }

    /* newest first: present in any link is present */
    @Override
    boolean testHash(long a, long b) {
        for (int i = entryAt.length - 1; i >= 0; i--)
            if (linkHolds(i, a, b))
                return true;
        return false;
    }

    /*
     * BF.ADD: a key present in any link changes nothing; one the last link
     * has no room for starts a link (or is refused by a NONSCALING chain);
     * then its bits go into the last link, and it counts, in the link and
     * the chain, only if it set a bit.
     */
    @Override
    void addHash(long a, long b) {
        if (testHash(a, b))
            return;
        int last = entryAt.length - 1;
        if (Long.compareUnsigned(Bytes.load64(buf, entryAt[last] + 16),
                                 Bytes.load64(buf, entryAt[last] + 44)) >= 0) {
            grow();
            last++;
        }
        long m = modulus[last];
        int data = dataAt[last];
        long set = 0;
        for (int j = 0; j < hashes[last]; j++) {
            long x = Long.remainderUnsigned(a + j * b, m);
            int at = data + (int) (x >>> 3);
            int mask = 1 << (x & 7);
            if ((buf[at] & mask) == 0) {
                buf[at] |= (byte) mask;
                set++;
            }
        }
        if (set == 0)
            return;
        Bytes.store64(buf, 40, bitsSet() + set);
        Bytes.store64(buf, entryAt[last] + 16, Bytes.load64(buf, entryAt[last] + 16) + 1);
        Bytes.store64(buf, HEADER, Bytes.load64(buf, HEADER) + 1);
    }

    /*
     * One more, empty link, sized as the server's rb_grow sizes it: its
     * entry after the last entry, the links' bits moved up by one entry.
     * Refused before anything is allocated past 64 links or the size limit.
     */
    private void grow() {
        int n = entryAt.length;
        RedisLink next = n >= MAX_LINKS ? null
            : RedisLink.next(RedisLink.read(buf, entryAt[n - 1]), options(), (int) growth());
        if (next == null || (long) buf.length + RedisLink.ENTRY + next.bytes > Sizing.MAX_BYTES)
            throw new IllegalStateException(CANNOT_GROW);
        int head = HEADER + (int) headBytes(n);
        byte[] b = new byte[(int) (buf.length + RedisLink.ENTRY + next.bytes)];
        System.arraycopy(buf, 0, b, 0, head);
        next.write(b, head);
        System.arraycopy(buf, head, b, head + RedisLink.ENTRY, buf.length - head);
        Bytes.store32(b, HEADER + 8, n + 1);
        b[7] = (byte) (n + 1);
        Bytes.store64(b, 16, Bytes.load64(b, 16) + next.bits);
        buf = b;
        locateLinks();
    }
}
