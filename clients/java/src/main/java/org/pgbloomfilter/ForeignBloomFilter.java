package org.pgbloomfilter;

import java.util.UUID;

/**
 * A bloomfilter of another system's layout and hashing (layouts 5 and 6):
 * keys convert to the filter's key type as for any typed filter (README,
 * "How keys convert"), and then become the bytes that system hashes, which
 * the subclass hashes its own way, with no seed.
 *
 * <p>An integer key is handed over as the int8 value it equals, with the
 * integer type it is a key of; text and bytea keys as their bytes (text as
 * UTF-8, the only encoding either system knows).
 */
abstract class ForeignBloomFilter extends BloomFilter {
    ForeignBloomFilter(byte[] buf) {
        super(buf);
    }

    /** The hash of integer v as a key of integer type intType, null if no such key equals it. */
    abstract long[] hashInteger(long v, int intType);

    /** The hash of a text key's UTF-8 bytes, or a bytea key's bytes. */
    abstract long[] hashKeyBytes(byte[] b);

    /**
     * A text key, as UTF-8, in a database of this encoding: refused
     * where the server refuses it (text is hashed as UTF-8 by the other
     * system, and a database of another encoding holds other bytes).
     */
    abstract void checkTextKey(byte[] utf8, TextEncoding db);

    /** The refusal of a UUID key by an untyped filter (typed ones refuse it as a mismatch). */
    abstract RuntimeException uuidRefused();

    private static boolean isInteger(int oid) {
        return oid == KeyTypes.INT2 || oid == KeyTypes.INT4 || oid == KeyTypes.INT8;
    }

    @Override
    boolean testLong(long key) {
        long[] h = hashLong(key);
        return h != null && testHash(h[0], h[1]);
    }

    @Override
    long[] hashLong(long key) {
        int t = keyType;
        long v = KeyTypes.longWord(KeyTypes.longMode(t), t, key);
        return hashInteger(v, t == KeyTypes.UNTYPED ? KeyTypes.INT8 : t);
    }

    @Override
    long[] hashString(String key) {
        int t = keyType;
        byte[] b = KeyTypes.stringBytes(key, t, TextEncoding.UTF8, dbEncoding());
        if (isInteger(t))
            return hashInteger(Bytes.load64(b, 0), t);
        if (t != KeyTypes.BYTEA)
            checkTextKey(b, dbEncoding());
        return hashKeyBytes(b);
    }

    @Override
    long[] hashUuid(UUID key) {
        KeyTypes.checkUuid(keyType);
        throw uuidRefused();
    }

    @Override
    long[] hashBytes(byte[] key) {
        KeyTypes.checkBytes(keyType);
        return hashKeyBytes(key);
    }

    /* the rest of BloomFilter's own layouts: none of these hold counts or lists */
    @Override
    long countHash(long h1, long h2) {
        return testHash(h1, h2) ? 1 : 0;
    }
}
