package org.pgbloomfilter;

import java.util.Base64;
import java.util.UUID;

/**
 * What every filter kind answers: a {@link BloomFilter} (plain, counting,
 * scalable, Guava's or RedisBloom's) or a {@link CuckooFilter}. "false" means certainly not added;
 * "true" means possibly, with exactly the server's answer for the same key.
 *
 * <p>Keys: {@code long} (int2/int4/int8 columns), {@code String} (text in a
 * UTF8 database), {@link UUID}, {@code byte[]} (bytea); see {@link KeyTypes}
 * for how they meet a filter that records its key type.
 *
 * <p>Checks never write: any number of threads may check one filter at once.
 * Adding is not synchronized; build a filter in one thread (or lock), then
 * publish it (a final or volatile field) to the threads that check it.
 */
public abstract class Filter {
    final int seed;
    int keyType;
    private int longMode;
    /* the database the value was made in, and how its text keys are hashed */
    private TextEncoding dbEncoding = TextEncoding.UTF8;
    private TextEncoding textEncoding = TextEncoding.UTF8;

    Filter(int seed, int keyType) {
        this.seed = seed;
        this.keyType = keyType;
        this.longMode = KeyTypes.longMode(keyType);
    }

    /** Whether the filter holds nothing (no bit set, no occupied slot). */
    abstract boolean isEmpty();

    /** Write the key type into the value's header. */
    abstract void storeKeyType(int oid);

    final void setKeyType(int oid) {
        storeKeyType(oid);
        keyType = oid;
        longMode = KeyTypes.longMode(oid);
    }

    /*
     * The first key added to an untyped empty filter records its type, as
     * the server's adds do (bloom_key_first_add): long int8, String text,
     * UUID uuid, byte[] bytea.  A filter that holds keys and is untyped was
     * made before 1.3 and keeps hashing as then.
     */
    private void firstAdd(int natural) {
        if (keyType == KeyTypes.UNTYPED && isEmpty() && takesKeyType(natural))
            setKeyType(natural);
    }

    /**
     * Whether the filter can hold keys of this type (a layout of another
     * system takes only some): one it cannot hold is not recorded, and its
     * hashing refuses the key as the server does.
     */
    boolean takesKeyType(int oid) {
        return true;
    }

    /* the server refuses to add a key no value of the key type equals (42804) */
    private long[] forAdd(long[] h, String sqlType) {
        if (h == null)
            throw new KeyTypeMismatchException("cannot add this value of type " + sqlType
                + " to a filter of " + KeyTypes.name(keyType) + " keys: no value of type "
                + KeyTypes.name(keyType) + " equals it, so the filter could never find it");
        return h;
    }

    /** Whether the hash (h1, h2) tests present. */
    abstract boolean testHash(long h1, long h2);

    /** How many times the hash was added, at most (0 or 1 where the kind cannot count). */
    abstract long countHash(long h1, long h2);

    /** Add the hash; the filter may grow. */
    abstract void addHash(long h1, long h2);

    /** The value's bytes, exactly as {@code f::bytea} gives them. */
    public abstract byte[] toBytes();

    /** The text form: base64 of {@link #toBytes()}, as the type's output function writes. */
    public String toBase64() {
        return Base64.getEncoder().encodeToString(toBytes());
    }

    /** The hash seed (0 .. 4294967295 as an unsigned int). */
    public final long seed() {
        return Integer.toUnsignedLong(seed);
    }

    /** The key type recorded in the value: a type OID, 0 for untyped. */
    public final int keyType() {
        return keyType;
    }

    /* ---- hashing of each Java key type ---- */

    /*
     * Hashing of keys: hashLong, hashString, hashUuid and hashBytes give
     * {h1, h2}, or null where no key of the filter's type equals the key
     * (a check answers absent, an add is refused). The layouts of another
     * system (ForeignBloomFilter) hash their own way and override them.
     */

    /** The hash of an integer key's 8 bytes: MurmurHash3 of one tail word. */
    boolean testLong(long key) {
        long word = KeyTypes.longWord(longMode, keyType, key);
        long s = Murmur3.seedWord(seed);
        long h1 = (s ^ Murmur3.mixK1(word)) ^ 8;
        long h2 = s ^ 8;
        h1 += h2;
        h2 += h1;
        h1 = Murmur3.fmix64(h1);
        h2 = Murmur3.fmix64(h2);
        h1 += h2;
        h2 += h1;
        return testHash(h1, h2);
    }

    long[] hashLong(long key) {
        return Murmur3.hash8(KeyTypes.longWord(longMode, keyType, key), seed);
    }

    /** The header's hash id: 1, 2 or 5 (bloomfilter), 2 or 5 (cuckoofilter). */
    public abstract int hashId();

    /*
     * Hash ids 1 and 2 (values made by bloomfilter 1.4 and earlier) hashed
     * text in the encoding of the database the value was made in; 5 hashes
     * UTF-8 in every database.
     */
    final void setEncoding(String serverEncoding) {
        dbEncoding = TextEncoding.of(serverEncoding);
        textEncoding = hashId() == 5 ? TextEncoding.UTF8 : dbEncoding;
    }

    /**
     * The {@code server_encoding} of the database the value was made in, as
     * given when it was read (UTF8 if none was): a filter of hash id 2 made
     * in a database that is not UTF8 hashed its text keys in that encoding.
     */
    public final String encoding() {
        return dbEncoding.name;
    }

    final TextEncoding dbEncoding() {
        return dbEncoding;
    }

    long[] hashString(String key) {
        byte[] b = KeyTypes.stringBytes(key, keyType, textEncoding, dbEncoding);
        return Murmur3.hash128(b, 0, b.length, seed);
    }

    long[] hashUuid(UUID key) {
        KeyTypes.checkUuid(keyType);
        return Murmur3.hash16(Long.reverseBytes(key.getMostSignificantBits()),
                              Long.reverseBytes(key.getLeastSignificantBits()), seed);
    }

    long[] hashBytes(byte[] key) {
        KeyTypes.checkBytes(keyType);
        return Murmur3.hash128(key, 0, key.length, seed);
    }

    /* ---- checks ---- */

    public final boolean mightContain(long key) {
        return testLong(key);
    }

    public final boolean mightContain(String key) {
        return test(hashString(key));
    }

    public final boolean mightContain(UUID key) {
        return test(hashUuid(key));
    }

    public final boolean mightContain(byte[] key) {
        return test(hashBytes(key));
    }

    private boolean test(long[] h) {
        return h != null && testHash(h[0], h[1]);
    }

    private long count(long[] h) {
        return h == null ? 0 : countHash(h[0], h[1]);
    }

    /** One answer per key, in order. */
    public final boolean[] mightContainAll(long[] keys) {
        boolean[] out = new boolean[keys.length];
        for (int i = 0; i < keys.length; i++)
            out[i] = testLong(keys[i]);
        return out;
    }

    public final boolean[] mightContainAll(String[] keys) {
        boolean[] out = new boolean[keys.length];
        for (int i = 0; i < keys.length; i++)
            out[i] = mightContain(keys[i]);
        return out;
    }

    public final boolean[] mightContainAll(UUID[] keys) {
        boolean[] out = new boolean[keys.length];
        for (int i = 0; i < keys.length; i++)
            out[i] = mightContain(keys[i]);
        return out;
    }

    public final boolean[] mightContainAll(byte[][] keys) {
        boolean[] out = new boolean[keys.length];
        for (int i = 0; i < keys.length; i++)
            out[i] = mightContain(keys[i]);
        return out;
    }

    /** How many of the keys might be in the filter. */
    public final int countPresent(long[] keys) {
        int n = 0;
        for (long k : keys)
            n += testLong(k) ? 1 : 0;
        return n;
    }

    /* ---- counts: bf_count and cf_count ---- */

    public final long count(long key) {
        return count(hashLong(key));
    }

    public final long count(String key) {
        return count(hashString(key));
    }

    public final long count(UUID key) {
        return count(hashUuid(key));
    }

    public final long count(byte[] key) {
        return count(hashBytes(key));
    }

    /* ---- adds: the same bytes as the server's adds ---- */

    final long[] hashLongForAdd(long key) {
        firstAdd(KeyTypes.INT8);
        return forAdd(hashLong(key), "bigint");
    }

    final long[] hashStringForAdd(String key) {
        firstAdd(KeyTypes.TEXT);
        return forAdd(hashString(key), "text");
    }

    final long[] hashUuidForAdd(UUID key) {
        firstAdd(KeyTypes.UUID_OID);
        return forAdd(hashUuid(key), "uuid");
    }

    final long[] hashBytesForAdd(byte[] key) {
        firstAdd(KeyTypes.BYTEA);
        return forAdd(hashBytes(key), "bytea");
    }
}
