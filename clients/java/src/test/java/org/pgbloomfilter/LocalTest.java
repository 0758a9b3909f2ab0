package org.pgbloomfilter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What needs no server: the hash, pinned values, typed keys, validation. */
class LocalTest {

    /* SMHasher's verification: keys {0}, {0,1}, ... hashed with seed 256 - i */
    @Test
    void murmurVerificationValue() {
        byte[] key = new byte[256];
        byte[] hashes = new byte[256 * 16];
        for (int i = 0; i < 256; i++) {
            key[i] = (byte) i;
            long[] h = Murmur3.hash128(key, 0, i, 256 - i);
            Bytes.store64(hashes, i * 16, h[0]);
            Bytes.store64(hashes, i * 16 + 8, h[1]);
        }
        long[] fin = Murmur3.hash128(hashes, 0, hashes.length, 0);
        assertEquals(0x6384BA69, (int) fin[0]);
    }

    @Test
    void fastPathsAreTheGeneralHash() {
        Random r = new Random(1);
        byte[] b = new byte[16];
        for (int i = 0; i < 100_000; i++) {
            r.nextBytes(b);
            int seed = r.nextInt();
            assertArrayEquals(Murmur3.hash128(b, 0, 8, seed), Murmur3.hash8(Bytes.load64(b, 0), seed));
            assertArrayEquals(Murmur3.hash128(b, 0, 16, seed),
                              Murmur3.hash16(Bytes.load64(b, 0), Bytes.load64(b, 8), seed));
            assertEquals(Murmur3.hash8(Bytes.load64(b, 0), seed)[0], Murmur3.hash8H1(Bytes.load64(b, 0), seed));
        }
    }

    /* sql/shard.sql's pinned values */
    @Test
    void shardsArePinned() {
        long[] keys = {0, 1, -1, 42, 4611686018427387904L};
        int[][] want = {{1, 2, 5, 6, 761, 49921}, {0, 0, 0, 0, 3, 254}, {0, 0, 0, 0, 39, 2606},
                        {1, 2, 6, 7, 931, 61077}, {0, 0, 0, 0, 38, 2498}};
        int[] n = {2, 3, 7, 8, 1000, 65536};
        for (int i = 0; i < keys.length; i++)
            for (int j = 0; j < n.length; j++)
                assertEquals(want[i][j], Shards.shard(keys[i], n[j]), keys[i] + " of " + n[j]);
        String[] texts = {"", "a", "hello"};
        int[][] wantText = {{0, 0, 0, 0, 71, 4678}, {1, 2, 6, 7, 936, 61360}, {0, 0, 2, 2, 304, 19947}};
        for (int i = 0; i < texts.length; i++)
            for (int j = 0; j < n.length; j++)
                assertEquals(wantText[i][j], Shards.shard(texts[i], n[j]));
        assertEquals(12860, Shards.shard(UUID.fromString("00000000-0000-0000-0000-000000000001"), 65536));
        assertEquals(0, Shards.shard(12345, 1));
        assertThrows(IllegalArgumentException.class, () -> Shards.shard(1, 0));
        assertThrows(IllegalArgumentException.class, () -> Shards.shard(1, 65537));
    }

    /* glibc's lgamma at whole numbers, the values the sizing model takes */
    @Test
    void lgammaIsGlibcs() {
        double[][] pins = {
            {1, 0x0p+0}, {2, 0x0p+0}, {3, 0x1.62e42fefa39efp-1}, {7, 0x1.a51273acf01cap+2},
            {8, 0x1.10ce1f32dcc2fp+3}, {513, 0x1.4fc1ef6231301p+11},
            {1000001, 0x1.87193cc4f1ea6p+23}, {123456789, 0x1.037c1b9e72507p+31},
        };
        for (double[] p : pins)
            assertEquals(Double.doubleToLongBits(p[1]), Double.doubleToLongBits(Sizing.lgamma(p[0])),
                         "lgamma(" + p[0] + ")");
    }

    /* a filter with key type oid written into its header, as typed filters record it */
    private static BloomFilter typed(BloomFilter f, int oid) {
        byte[] b = f.toBytes();
        Bytes.store32(b, 12, oid);
        return BloomFilter.fromBytes(b);
    }

    @Test
    void typedIntegerFilters() {
        BloomFilter int8 = typed(BloomFilter.create(1000, 0.01).add(42L).add(1L << 40), KeyTypes.INT8);
        assertEquals(KeyTypes.INT8, int8.keyType());
        assertTrue(int8.mightContain(42L));
        assertTrue(int8.mightContain("42"), "a String against an int8 filter is read as the number");
        assertTrue(int8.mightContain(" +42 "));
        assertThrows(IllegalArgumentException.class, () -> int8.mightContain("forty-two"));
        assertThrows(IllegalArgumentException.class, () -> int8.mightContain("9223372036854775808"));
        assertThrows(IllegalArgumentException.class, () -> int8.mightContain(UUID.randomUUID()));
        assertThrows(IllegalArgumentException.class, () -> int8.mightContain(new byte[] {1}));

        BloomFilter int4 = BloomFilter.create(1000, 0.01, 0, KeyTypes.INT4).add(42L);
        assertEquals(KeyTypes.INT4, int4.keyType());
        assertTrue(int4.mightContain(42L));
        /* a long beyond int4 is hashed as it is, as the server hashes an int8 probe: absent */
        assertFalse(int4.mightContain(1L << 40));
        assertEquals(0, int4.count(1L << 40));
        assertThrows(IllegalArgumentException.class, () -> int4.mightContain("99999999999"));
        assertTrue(int4.add(1L << 40).mightContain(1L << 40), "the server adds it too");
    }

    @Test
    void firstAddRecordsTheKeyType() {
        assertEquals(KeyTypes.INT8, BloomFilter.create(100, 0.01).add(1L).keyType());
        assertEquals(KeyTypes.TEXT, BloomFilter.create(100, 0.01).add("a").keyType());
        assertEquals(KeyTypes.UUID_OID, BloomFilter.create(100, 0.01).add(new UUID(1, 2)).keyType());
        assertEquals(KeyTypes.BYTEA, CuckooFilter.create(100, 0.01).add(new byte[] {1}).keyType());
        CuckooFilter cf = CuckooFilter.create(100, 0.01);
        assertTrue(cf.addIfAbsent("a"));
        assertEquals(KeyTypes.TEXT, cf.keyType());
        BloomFilter s = BloomFilter.createScalable(10, 0.01, 0, 2);
        for (long i = 0; i < 100; i++)
            s.add(i);
        byte[] b = s.toBytes();
        assertEquals(KeyTypes.INT8, Bytes.load32(b, 12));
        assertEquals(0, Bytes.load32(b, 48 + 16 + 8 + 12), "sub-filters record no key type");
        /* a key of another type then converts, or is refused */
        BloomFilter f = BloomFilter.create(100, 0.01).add(5L);
        assertTrue(f.mightContain("5"));
        assertThrows(KeyTypeMismatchException.class, () -> f.add(new UUID(1, 2)));
        /* checks and removals record nothing; nor does a filter that holds keys */
        BloomFilter c = BloomFilter.createCounting(100, 0.01, 0);
        assertFalse(c.mightContain("x") || c.remove(5L));
        assertEquals(0, c.keyType());
        /* given at creation, changed only among integer types */
        assertEquals(KeyTypes.INT2, BloomFilter.create(100, 0.01, 0, KeyTypes.INT8).withKeyType(KeyTypes.INT2).keyType());
        assertThrows(IllegalArgumentException.class,
                     () -> BloomFilter.create(100, 0.01, 0, KeyTypes.TEXT).withKeyType(KeyTypes.INT8));
        assertThrows(IllegalArgumentException.class, () -> BloomFilter.create(100, 0.01, 0, 10000));
    }

    @Test
    void typedTextAndUuidFilters() {
        UUID u = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        BloomFilter text = typed(BloomFilter.create(1000, 0.01).add("abc"), KeyTypes.TEXT);
        assertTrue(text.mightContain("abc"));
        assertThrows(IllegalArgumentException.class, () -> text.mightContain(42L),
                     "a long against a text filter is refused, never a silent miss");
        assertThrows(IllegalArgumentException.class, () -> text.mightContain(u));
        BloomFilter bpchar = BloomFilter.create(1000, 0.01, 0, KeyTypes.BPCHAR).add("abc");
        assertTrue(bpchar.mightContain("abc"));
        /*
         * char(n) keys lost their trailing blanks, and SQL compares char(n)
         * with an untyped string ignoring them (the value PostgreSQL returns
         * for a char(n) column is padded): the padded string is found.
         */
        assertTrue(bpchar.mightContain("abc   "));

        BloomFilter uuid = typed(BloomFilter.create(1000, 0.01).add(u), KeyTypes.UUID_OID);
        assertTrue(uuid.mightContain(u));
        assertTrue(uuid.mightContain("{A0EEBC99-9C0B4EF8-BB6D6BB9-BD380A11}"));
        assertThrows(IllegalArgumentException.class, () -> uuid.mightContain("a0eebc99"));
        assertThrows(IllegalArgumentException.class, () -> uuid.mightContain(7L));

        BloomFilter bytea = typed(BloomFilter.create(1000, 0.01).add(new byte[] {1, 2, (byte) 0xFF}), KeyTypes.BYTEA);
        assertTrue(bytea.mightContain(new byte[] {1, 2, (byte) 0xFF}));
        assertTrue(bytea.mightContain("\\x0102ff"));
        assertTrue(bytea.mightContain("\\001\\002\\377"));
        assertThrows(IllegalArgumentException.class, () -> bytea.mightContain("\\q"));
        assertTrue(BloomFilter.create(10, 0.01).add("abc").mightContain("abc"));
    }

    @Test
    void typedNumericAndFloatFilters() {
        BloomFilter numeric = typed(BloomFilter.create(1000, 0.01).add(2L), KeyTypes.NUMERIC);
        assertTrue(numeric.mightContain(2L));
        assertTrue(numeric.mightContain("2.00"));
        BloomFilter withText = typed(BloomFilter.create(1000, 0.01).add("1.5"), KeyTypes.NUMERIC);
        assertTrue(withText.mightContain("1.50"), "non-whole numerics hash as their trimmed text");
        BloomFilter float8 = typed(BloomFilter.create(1000, 0.01).add(1L << 53), KeyTypes.FLOAT8);
        assertTrue(float8.mightContain((1L << 53) + 1), "a long meets float8 keys as SQL converts it");
    }

    @Test
    void typedCuckooFilter() {
        byte[] b = CuckooFilter.create(1000, 0.01).add(42L).toBytes();
        CuckooFilter f = CuckooFilter.fromBytes(b);
        assertEquals(KeyTypes.INT8, f.keyType());
        assertTrue(f.mightContain("42"));
        assertEquals(1, f.count(" 42"));
        Bytes.store32(b, 40, KeyTypes.TEXT);
        CuckooFilter t = CuckooFilter.fromBytes(b);
        assertThrows(IllegalArgumentException.class, () -> t.mightContain(42L));
        Bytes.store32(b, 44, 1);
        assertThrows(InvalidFilterException.class, () -> CuckooFilter.fromBytes(b));
    }

    @Test
    void validationRefusesWhatTheServerRefuses() {
        byte[] good = BloomFilter.create(1000, 0.01).add(1L).toBytes();
        byte[] b = good.clone();
        b[0] = 'X';
        assertThrows(InvalidFilterException.class, () -> BloomFilter.fromBytes(b));
        byte[] c = good.clone();
        c[40]++;
        assertThrows(InvalidFilterException.class, () -> BloomFilter.fromBytes(c));
        byte[] d = java.util.Arrays.copyOf(good, good.length - 1);
        assertThrows(InvalidFilterException.class, () -> BloomFilter.fromBytes(d));
        byte[] e = good.clone();
        e[5] = 9;
        assertThrows(InvalidFilterException.class, () -> BloomFilter.fromBytes(e));
        byte[] s = BloomFilter.createScalable(100, 0.01, 0, 2).addAll(new long[] {1, 2, 3}).toBytes();
        BloomFilter.fromBytes(s);
        s[BloomFilter.HEADER + 8] = 1;
        assertThrows(InvalidFilterException.class, () -> BloomFilter.fromBytes(s));
        byte[] k = CuckooFilter.create(1000, 0.01).add(5L).toBytes();
        k[32]++;
        assertThrows(InvalidFilterException.class, () -> CuckooFilter.fromBytes(k));
        assertThrows(InvalidFilterException.class, () -> Filters.fromBase64("not base64!"));
    }

    /*
     * Every header field against what the format allows, as the server's
     * input (1.4) checks it: each case changes the bytes shown of a real
     * value.
     */
    @Test
    void keyTypesReadAreThoseFiltersHash() {
        byte[] good = BloomFilter.create(1000, 0.01).add(1L).toBytes();
        int accepted = 0;
        for (int oid = 1; oid < 10000; oid++) {
            byte[] b = good.clone();
            Bytes.store32(b, 12, oid);
            try {
                BloomFilter.fromBytes(b);
                accepted++;
                assertTrue(KeyTypes.valid(oid), "key type " + oid);
            } catch (InvalidFilterException e) {
                assertFalse(KeyTypes.valid(oid), "key type " + oid);
            }
        }
        /* the server's list: VectorsTest holds it to test/vectors/keys.json */
        assertTrue(accepted > 0);
        for (int oid : new int[] {9999, 22, 3802}) {       /* no type; int2vector; jsonb */
            byte[] b = good.clone();
            Bytes.store32(b, 12, oid);
            assertThrows(InvalidFilterException.class, () -> BloomFilter.fromBytes(b));
            assertThrows(IllegalArgumentException.class, () -> BloomFilter.create(10, 0.01, 0, oid));
        }
        assertEquals(1006, BloomFilter.create(10, 0.01, 0, 1006).keyType());   /* int2vector[] */
    }

    @Test
    void scalableDivisorAndSubFilterKeyTypes() {
        /* prefix at 48 (expansion, fill divisor), sub-filter 0's header at 72 */
        byte[] good = BloomFilter.createScalable(1000, 0.01, 0, 2).addAll(new long[] {1, 2, 3}).toBytes();
        BloomFilter.fromBytes(good);
        for (int divisor : new int[] {2, -1, 0}) {
            byte[] b = good.clone();
            Bytes.store32(b, 52, divisor);
            assertThrows(InvalidFilterException.class, () -> BloomFilter.fromBytes(b), "divisor " + divisor);
        }
        byte[] sub = good.clone();
        Bytes.store32(sub, 72 + 12, KeyTypes.INT8);
        assertThrows(InvalidFilterException.class, () -> BloomFilter.fromBytes(sub));
        byte[] top = good.clone();
        Bytes.store32(top, 12, KeyTypes.INT8);
        assertEquals(KeyTypes.INT8, BloomFilter.fromBytes(top).keyType());
    }

    @Test
    void cuckooKeyTypeAndCapacity() {
        /* cf_create(1, 0.01): one bucket of 4 slots, 76 bytes */
        byte[] good = CuckooFilter.create(1, 0.01).toBytes();
        assertEquals(76, good.length);
        byte[] four = good.clone();
        Bytes.store64(four, 16, 4);
        assertEquals(4, CuckooFilter.fromBytes(four).capacity());
        for (long capacity : new long[] {5, 200_000_000L}) {
            byte[] b = good.clone();
            Bytes.store64(b, 16, capacity);
            assertThrows(InvalidFilterException.class, () -> CuckooFilter.fromBytes(b), "capacity " + capacity);
        }
        for (int oid : new int[] {9999, 22}) {
            byte[] b = good.clone();
            Bytes.store32(b, 40, oid);
            assertThrows(InvalidFilterException.class, () -> CuckooFilter.fromBytes(b), "key type " + oid);
        }
    }

    /* filters made by 1.0 and 1.1 (hash id 1) hash these four key types alike */
    @Test
    void hashIdOneAnswersAlike() {
        UUID u = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        /* untyped and holding keys, as 1.2 left filters: keys of every type hash as their own */
        byte[] legacy = BloomFilter.create(1000, 0.01, 5).add(7L).toBytes();
        Bytes.store32(legacy, 12, 0);
        BloomFilter two = BloomFilter.fromBytes(legacy).add("seven").add(u).add(new byte[] {7});
        assertEquals(0, two.keyType());
        byte[] b = two.toBytes();
        b[6] = 1;
        BloomFilter one = BloomFilter.fromBytes(b);
        assertEquals(1, one.hashId());
        for (long i = 0; i < 20_000; i++)
            assertEquals(two.mightContain(i), one.mightContain(i));
        assertTrue(one.mightContain("seven") && one.mightContain(u) && one.mightContain(new byte[] {7}));
        b[6] = 3;
        assertThrows(InvalidFilterException.class, () -> BloomFilter.fromBytes(b));
    }

    @Test
    void countingAndCuckooCount() {
        BloomFilter c = BloomFilter.createCounting(1000, 0.01, 0).add(5L).add(5L).add(6L);
        assertEquals(2, c.count(5L));
        assertTrue(c.remove(5L));
        assertEquals(1, c.count(5L));
        assertThrows(UnsupportedOperationException.class, () -> BloomFilter.create(10, 0.01).remove(1L));
        CuckooFilter k = CuckooFilter.create(1000, 0.01).add("x").add("x");
        assertEquals(2, k.count("x"));
        assertTrue(k.delete("x"));
        assertEquals(1, k.count("x"));
        assertFalse(k.addIfAbsent("x"));
        assertEquals(1, k.items());
    }

    @Test
    void argumentsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> BloomFilter.create(0, 0.01));
        assertThrows(IllegalArgumentException.class, () -> BloomFilter.create(10, 1.0));
        assertThrows(IllegalArgumentException.class, () -> BloomFilter.create(10, 1e-11));
        assertThrows(IllegalArgumentException.class, () -> BloomFilter.create(10, 0.01, -1));
        assertThrows(IllegalArgumentException.class, () -> BloomFilter.createScalable(10, 0.01, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> CuckooFilter.create(10, 1e-9));
        assertThrows(IllegalArgumentException.class, () -> BloomFilter.create(Long.MAX_VALUE, 0.01));
    }

    /*
     * A RedisBloom chain of one 8-byte link (issue 32), genuine for entries
     * 1, size 0, growth 2; forged in a field that sizes growth (entries =
     * size = 250,000,000 or 10^15 in that link, growth 500,000,000 or
     * 2^32 - 1) it would grow a 129-byte value to gigabytes at one add, so
     * it is refused at input.
     */
    static byte[] redisChain(long entries, long size, int growth) {
        double err = 0.005;
        double bpe = Math.abs(Math.log(err) / 0.480453013918201);
        byte[] b = new byte[129];
        Bytes.store32(b, 0, 0x464D4C42);
        b[4] = 1; b[5] = 6; b[6] = 4; b[7] = 1;
        Bytes.store64(b, 16, 64);
        Bytes.store64(b, 24, entries);
        Bytes.store64(b, 32, Double.doubleToLongBits(err / 0.5));
        Bytes.store64(b, 48, size);
        Bytes.store32(b, 56, 1);
        Bytes.store32(b, 60, 5);
        Bytes.store32(b, 64, growth);
        Bytes.store64(b, 68, 8);
        Bytes.store64(b, 76, 64);
        Bytes.store64(b, 84, size);
        Bytes.store64(b, 92, Double.doubleToLongBits(err));
        Bytes.store64(b, 100, Double.doubleToLongBits(bpe));
        Bytes.store32(b, 108, (int) Math.ceil(0.693147180559945 * bpe));
        Bytes.store64(b, 112, entries);
        return b;
    }

    @Test
    void redisBloomGrowthFieldsRefusedAtInput() {
        RedisBloomFilter genuine = (RedisBloomFilter) Filters.fromBytes(redisChain(1, 0, 2));
        for (long i = 0; i < 2000; i++)
            genuine.add(i);
        assertTrue(genuine.nhashes() > 5, "the chain grew");
        assertTrue(genuine.toBytes().length < 20_000, "as RedisBloom grows it, from one entry");
        for (long i = 0; i < 2000; i++)
            assertTrue(genuine.mightContain(i));
        assertArrayEquals(genuine.toBytes(), BloomFilter.fromBytes(genuine.toBytes()).toBytes());

        java.util.List<byte[]> values = new java.util.ArrayList<>();
        values.add(redisChain(250_000_000L, 250_000_000L, 2));
        values.add(redisChain(1_000_000_000_000_000L, 1_000_000_000_000_000L, 2));
        values.add(redisChain(1, 0, 500_000_000));
        values.add(redisChain(1, 0, -1));
        values.add(redisChain(1, 0, 0));
        for (int at = 48; at <= 121; at++) {
            byte[] b = redisChain(1, 0, 2);
            Bytes.store64(b, at, -1L);
            values.add(b);
        }
        for (byte[] b : values) {
            assertThrows(InvalidFilterException.class, () -> Filters.fromBytes(b));
            assertThrows(InvalidFilterException.class, () -> BloomFilter.fromBytes(b));
            assertThrows(InvalidFilterException.class,
                         () -> Filters.fromBase64(java.util.Base64.getEncoder().encodeToString(b)));
        }
    }

    /* a Guava filter as the documented figures give it: 1000 at 1%, 150 longs, k 7 */
    @Test
    void guavaSizingAndKeys() {
        GuavaBloomFilter g = GuavaBloomFilter.create(1000, 0.01, KeyTypes.INT4);
        assertEquals(150 * 64, g.nbits());
        assertEquals(7, g.nhashes());
        assertArrayEquals(new long[] {0xb6acc39989d27df8L, 0x24b917fb96f22f80L}, Murmur3.hash8(42, 0));
        for (long i = 0; i < 500; i++)
            g.add(i * 3);
        for (long i = 0; i < 500; i++)
            assertTrue(g.mightContain(i * 3) && g.mightContain(Long.toString(i * 3)));
        assertFalse(g.mightContain(1L << 40), "no integer equals it");
        assertEquals(0, g.count(1L << 40));
        assertThrows(KeyTypeMismatchException.class, () -> g.add(1L << 40));
        assertThrows(KeyTypeMismatchException.class, () -> g.mightContain(new byte[] {1}));
        assertThrows(IllegalArgumentException.class, () -> GuavaBloomFilter.create(1, 0.9, KeyTypes.INT8));
        assertThrows(IllegalArgumentException.class, () -> GuavaBloomFilter.create(1000, 1e-80, KeyTypes.INT8));
        assertThrows(IllegalArgumentException.class, () -> GuavaBloomFilter.create(1000, 0.01, 0));
        assertThrows(IllegalArgumentException.class, () -> g.withKeyType(KeyTypes.INT8));
        assertArrayEquals(g.toBytes(), BloomFilter.fromBytes(g.toBytes()).toBytes());
    }

    /* format.md's MurmurHash64A figures */
    @Test
    void redisBloomHash() {
        Object[][] rows = {
            {"", 0x1ab11ea5a7b2c56eL, 0xbbddcb5ab56dd547L},
            {"1", 0x447dd899fc2bb5eaL, 0x6beceac5ee0df626L},
            {"-42", 0x83a1d7ebae665eabL, 0x98fc0ad75e8bfd55L},
            {"ключ", 0xc43a53f2f63c8353L, 0x624c643129ab114fL},
            {"abcdefghi", 0xa2c004e44bd0a465L, 0x28459a22cef68950L},
        };
        for (Object[] r : rows)
            assertArrayEquals(new long[] {(Long) r[1], (Long) r[2]},
                MurmurHash64A.pair(((String) r[0]).getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                (String) r[0]);
    }
}
