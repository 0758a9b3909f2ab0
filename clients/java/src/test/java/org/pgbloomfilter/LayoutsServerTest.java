package org.pgbloomfilter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Layouts 5 (Guava) and 6 (RedisBloom) against the server, from random
 * requests and random keys of every key type each layout takes: the bytes
 * of a new filter, of a filter built from the keys in Java, and of one read
 * from the server half built and finished in Java, all equal to the
 * server's; every check and count of members and others equal to the
 * server's; and where the server refuses a request or a key, Java refuses
 * it too. The seed is in every message (BLOOMFILTER_TEST_SEED repeats a run).
 */
class LayoutsServerTest extends ServerTestBase {
    static final long SEED = Long.parseLong(System.getenv().getOrDefault("BLOOMFILTER_TEST_SEED",
        Long.toString(System.nanoTime())));

    private static final RandomKeys.Type[] GUAVA_TYPES = {
        RandomKeys.Type.INT8, RandomKeys.Type.INT4, RandomKeys.Type.TEXT, RandomKeys.Type.BYTEA};

    /* a request, and the Java that makes the same filter */
    interface Maker {
        BloomFilter make();
    }

    /* what the server answered: the value's bytes, or the SQLSTATE of its refusal */
    static final class Outcome {
        final byte[] bytes;
        final String state;

        Outcome(byte[] bytes, String state) {
            this.bytes = bytes;
            this.state = state;
        }
    }

    private Outcome query(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++)
                ps.setObject(i + 1, params[i]);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Outcome(rs.getBytes(1), null);
            }
        } catch (SQLException e) {
            if (e.getSQLState() == null || e.getSQLState().startsWith("08"))
                throw e;
            return new Outcome(null, e.getSQLState());
        }
    }

    /* the server's bf_add_all of keys[from, to) to the value, as the key type reads them */
    private Outcome serverAdd(byte[] value, RandomKeys.Type t, List<String> keys, int from, int to)
        throws SQLException {
        return query("SELECT bf_add_all(?::bytea::bloomfilter, ARRAY(SELECT " + t.sql("x")
                     + " FROM unnest(?::text[]) WITH ORDINALITY u(x, i) ORDER BY i))::bytea",
                     value, conn.createArrayOf("text", keys.subList(from, to).toArray()));
    }

    /* Java's adds of keys[from, to): the filter, or the exception that refused one */
    private static RuntimeException javaAdd(BloomFilter f, RandomKeys.Type t, List<String> keys, int from, int to) {
        try {
            for (int i = from; i < to; i++)
                RandomKeys.add(f, t.java(keys.get(i)));
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    /*
     * One case: the server's empty filter against Java's, the keys added on
     * both sides (Java from scratch, and Java finishing the server's half),
     * then probes. Returns whether the server took every key (a NONSCALING
     * chain refuses those past its capacity: 54000, and Java an
     * IllegalStateException).
     */
    private boolean runCase(String label, String createSql, Maker maker, RandomKeys.Type t,
                            List<String> keys, Random rnd) throws SQLException {
        Outcome empty = query("SELECT " + createSql + "::bytea");
        BloomFilter mine = maker.make();
        assertArrayEquals(empty.bytes, mine.toBytes(), label + ": the new filter's bytes");
        int half = keys.size() / 2;
        Outcome halfway = serverAdd(empty.bytes, t, keys, 0, half);
        Outcome full = halfway.bytes == null ? halfway : serverAdd(halfway.bytes, t, keys, half, keys.size());
        RuntimeException refused = javaAdd(mine, t, keys, 0, keys.size());
        if (full.bytes == null) {
            assertEquals("54000", full.state, label + ": the server refused an add");
            assertTrue(refused instanceof IllegalStateException, label + ": Java refuses an add too, got " + refused);
            return false;
        }
        if (refused != null)
            throw new AssertionError(label + ": Java refused an add the server took", refused);
        assertArrayEquals(full.bytes, mine.toBytes(), label + ": bytes after the adds");
        BloomFilter finished = BloomFilter.fromBytes(halfway.bytes);
        assertEquals(null, javaAdd(finished, t, keys, half, keys.size()), label);
        assertArrayEquals(full.bytes, finished.toBytes(), label + ": the server's half, finished in Java");
        byte[] emptied = empty.bytes.clone();
        Bytes.store32(emptied, 12, finished.keyType());
        assertArrayEquals(emptied, finished.emptyCopy().toBytes(), label + ": emptyCopy");
        compareProbes(label, full.bytes, t, keys, rnd);
        return true;
    }

    /* every check and count of probes of each SQL type, against the server's */
    private void compareProbes(String label, byte[] value, RandomKeys.Type t, List<String> keys, Random rnd)
        throws SQLException {
        Filter f = Filters.fromBytes(value);
        for (String k : keys)
            assertTrue(ServerTest.check(f, t.java(k)), label + ": an added key tests absent: " + k);
        List<String[]> probes = RandomKeys.probes(rnd, t, keys, 300);
        for (String sqlType : new String[] {"int8", "text", "bytea"}) {
            List<String> texts = new ArrayList<>();
            for (String[] p : probes)
                if (p[0].equals(sqlType))
                    texts.add(p[1]);
            if (texts.isEmpty())
                continue;
            String probe = sqlType.equals("bytea") ? "decode(x, 'hex')" : "x::" + sqlType;
            try (PreparedStatement ps = conn.prepareStatement(
                     "SELECT array_agg(bf_contains(f, " + probe + ") ORDER BY i), array_agg(bf_count(f, "
                     + probe + ") ORDER BY i) FROM (SELECT ?::bytea::bloomfilter AS f) v, "
                     + "unnest(?::text[]) WITH ORDINALITY u(x, i)")) {
                ps.setBytes(1, value);
                ps.setArray(2, conn.createArrayOf("text", texts.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    Boolean[] answers = (Boolean[]) rs.getArray(1).getArray();
                    Object[] counts = (Object[]) rs.getArray(2).getArray();
                    for (int i = 0; i < texts.size(); i++) {
                        Object key = RandomKeys.javaProbe(new String[] {sqlType, texts.get(i)});
                        String what = label + ": probe " + sqlType + " '" + texts.get(i) + "'";
                        assertEquals(answers[i], ServerTest.check(f, key), what);
                        assertEquals(((Number) counts[i]).longValue(), RandomKeys.count(f, key), what);
                    }
                }
            }
        }
    }

    private static double logUniform(Random rnd, double lo, double hi) {
        return Math.exp(Math.log(lo) + rnd.nextDouble() * (Math.log(hi) - Math.log(lo)));
    }

    @Test
    void guavaFiltersMatchTheServer() throws SQLException {
        Random rnd = new Random(SEED);
        for (int c = 0; c < 16; c++) {
            long capacity = (long) logUniform(rnd, 1, 20_000);
            double rate = logUniform(rnd, 1e-7, 0.6);
            RandomKeys.Type t = GUAVA_TYPES[c % GUAVA_TYPES.length];
            String label = "seed " + SEED + ", guava " + capacity + "/" + rate + " " + t.sql;
            List<String> keys = RandomKeys.keys(rnd, t, rnd.nextInt((int) Math.min(capacity * 2 + 10, 3000)));
            runCase(label, "bf_create(" + capacity + ", " + rate + ", layout => 'guava', key_type => '" + t.sql + "')",
                    () -> GuavaBloomFilter.create(capacity, rate, t.oid), t, keys, rnd);
        }
    }

    /*
     * Guava's serialized form: bf_to_guava's bytes, bf_from_guava's value,
     * and its refusals of those bytes cut, lengthened or forged in the prefix.
     */
    @Test
    void guavaFormMatchesTheServer() throws SQLException {
        Random rnd = new Random(SEED + 3);
        for (RandomKeys.Type t : GUAVA_TYPES) {
            long capacity = (long) logUniform(rnd, 1, 5000);
            double rate = logUniform(rnd, 1e-6, 0.5);
            List<String> keys = RandomKeys.keys(rnd, t, rnd.nextInt(2000));
            String label = "seed " + SEED + ", guava form " + capacity + "/" + rate + " " + t.sql;
            byte[] value = serverAdd(query("SELECT bf_create(" + capacity + ", " + rate + ", layout => 'guava', "
                + "key_type => '" + t.sql + "')::bytea").bytes, t, keys, 0, keys.size()).bytes;
            byte[] form = query("SELECT bf_to_guava(?::bytea::bloomfilter)", value).bytes;
            GuavaBloomFilter g = (GuavaBloomFilter) BloomFilter.fromBytes(value);
            assertArrayEquals(form, g.toGuava(), label + ": toGuava");
            List<byte[]> forms = new ArrayList<>(List.of(form, Arrays.copyOf(form, form.length - 1),
                Arrays.copyOf(form, form.length + 8), Arrays.copyOf(form, 5)));
            for (int at = 0; at < 6; at++)
                for (int v : new int[] {0, 1, 2, 0x7f, 0x80, 0xff, rnd.nextInt(256)}) {
                    byte[] f = form.clone();
                    f[at] = (byte) v;
                    forms.add(f);
                }
            for (byte[] f : forms) {
                Outcome o = query("SELECT bf_from_guava(?, '" + t.sql + "')::bytea", f);
                String what = label + ": bf_from_guava of " + RandomKeys.hex(Arrays.copyOf(f, Math.min(8, f.length)));
                try {
                    byte[] mine = GuavaBloomFilter.fromGuava(f, t.oid).toBytes();
                    assertArrayEquals(o.bytes, mine, what);
                } catch (RuntimeException e) {
                    assertTrue(o.state != null, what + ": Java refuses what the server takes: " + e);
                    assertEquals(o.state.equals("22P03"), e instanceof InvalidFilterException, what + ": " + e);
                    assertEquals(o.state.equals("0A000"), e instanceof UnsupportedOperationException, what + ": " + e);
                }
            }
        }
    }

    @Test
    void redisBloomFiltersMatchTheServer() throws SQLException {
        Random rnd = new Random(SEED + 1);
        RandomKeys.Type[] types = RandomKeys.Type.values();
        int[] expansions = {0, 1, 2, 2, 3, 4, 7};
        int nonscalingRefused = 0;
        for (int c = 0; c < 24; c++) {
            long capacity = (long) logUniform(rnd, 1, 3000);
            double rate = logUniform(rnd, 1e-5, 0.5);
            int expansion = expansions[rnd.nextInt(expansions.length)];
            /* untyped (the first key gives the type) or typed */
            RandomKeys.Type t = types[rnd.nextInt(types.length)];
            boolean typed = !(t == RandomKeys.Type.INT8 || t == RandomKeys.Type.TEXT || t == RandomKeys.Type.BYTEA)
                || rnd.nextBoolean();
            String label = "seed " + SEED + ", redisbloom " + capacity + "/" + rate + "/x" + expansion + " "
                + (typed ? t.sql : "untyped " + t.sql + " keys");
            int n = expansion == 0 ? (int) Math.min(capacity + rnd.nextInt(3) * capacity / 2, 4000)
                : rnd.nextInt((int) Math.min(capacity * 12 + 10, 4000));
            List<String> keys = RandomKeys.keys(rnd, t, n);
            String create = "bf_create(" + capacity + ", " + rate + ", expansion => " + expansion
                + (typed ? ", key_type => '" + t.sql + "'" : "") + ", layout => 'redisbloom')";
            boolean took = runCase(label, create,
                () -> typed ? RedisBloomFilter.create(capacity, rate, expansion, t.oid)
                            : RedisBloomFilter.create(capacity, rate, expansion), t, keys, rnd);
            nonscalingRefused += took ? 0 : 1;
        }
        /* a chain that takes no more is compared too, where one came up */
        assertTrue(nonscalingRefused < 24, "seed " + SEED);
    }

    /* chains grown to their limits: 64 links, or growth stopping */
    @Test
    void redisBloomGrowthStopsAsTheServers() throws SQLException {
        Random rnd = new Random(SEED + 2);
        String create = "bf_create(1, 0.3, expansion => 1, layout => 'redisbloom')";
        List<String> keys = RandomKeys.keys(rnd, RandomKeys.Type.INT8, 400);
        boolean took = runCase("seed " + SEED + ", 64 links", create,
            () -> RedisBloomFilter.create(1, 0.3, 1), RandomKeys.Type.INT8, keys, rnd);
        assertTrue(!took, "seed " + SEED + ": a chain of 64 links of 1 element takes no 400 keys");
    }

    /*
     * Requests and keys the server refuses are refused here: each pair is
     * the SQL of a call and the Java of the same call.
     */
    interface Call {
        void run();
    }

    private RuntimeException bothRefuse(String sql, Call java) throws SQLException {
        Outcome o = query("SELECT (" + sql + ")::text::bytea");
        RuntimeException e = null;
        try {
            java.run();
        } catch (RuntimeException x) {
            e = x;
        }
        assertTrue(o.state != null, sql + ": the server takes it");
        assertTrue(e instanceof IllegalArgumentException || e instanceof IllegalStateException,
                   sql + ": Java takes it, or fails otherwise: " + e);
        assertEquals(o.state.equals("54000"), e instanceof IllegalStateException, sql + ": " + e);
        return e;
    }

    /* a key the server refuses as of another type (42804) */
    private void bothRefuseKey(String sql, Call java) throws SQLException {
        assertTrue(bothRefuse(sql, java) instanceof KeyTypeMismatchException, sql);
    }

    @Test
    void refusalsMatchTheServer() throws SQLException {
        GuavaBloomFilter g8 = GuavaBloomFilter.create(100, 0.01, KeyTypes.INT8);
        GuavaBloomFilter g4 = GuavaBloomFilter.create(100, 0.01, KeyTypes.INT4);
        String sg8 = "bf_create(100, 0.01, layout => 'guava', key_type => 'int8')";
        String sg4 = "bf_create(100, 0.01, layout => 'guava', key_type => 'int4')";
        bothRefuse("bf_create(100, 0.01, layout => 'guava')", () -> GuavaBloomFilter.create(100, 0.01, 0));
        bothRefuse("bf_create(100, 0.01, layout => 'guava', key_type => 'uuid')",
                   () -> GuavaBloomFilter.create(100, 0.01, KeyTypes.UUID_OID));
        bothRefuse("bf_create(1, 0.9, layout => 'guava', key_type => 'int8')",
                   () -> GuavaBloomFilter.create(1, 0.9, KeyTypes.INT8));
        bothRefuse("bf_create(1000, 1e-80, layout => 'guava', key_type => 'int8')",
                   () -> GuavaBloomFilter.create(1000, 1e-80, KeyTypes.INT8));
        bothRefuse("bf_create(0, 0.01, layout => 'guava', key_type => 'int8')",
                   () -> GuavaBloomFilter.create(0, 0.01, KeyTypes.INT8));
        bothRefuse("bf_create(100000000000, 1e-9, layout => 'guava', key_type => 'int8')",
                   () -> GuavaBloomFilter.create(100_000_000_000L, 1e-9, KeyTypes.INT8));
        bothRefuseKey("bf_add(" + sg4 + ", 3000000000::int8)", () -> g4.add(3_000_000_000L));
        bothRefuse("bf_contains(" + sg8 + ", 'abc'::text)", () -> g8.mightContain("abc"));
        bothRefuseKey("bf_contains(" + sg8 + ", '\\x01'::bytea)", () -> g8.mightContain(new byte[] {1}));
        bothRefuseKey("bf_contains(" + sg8 + ", gen_random_uuid())", () -> g8.mightContain(UUID.randomUUID()));
        bothRefuse("bf_set_key_type(" + sg8 + ", 'int4')", () -> g8.withKeyType(KeyTypes.INT4));

        String r = "bf_create(100, 0.01, expansion => 2, layout => 'redisbloom')";
        RedisBloomFilter r0 = RedisBloomFilter.create(100, 0.01, 2);
        bothRefuse("bf_add(" + r + ", gen_random_uuid())", () -> r0.add(UUID.randomUUID()));
        assertEquals(0, r0.keyType(), "a refused first add records no key type");
        bothRefuse("bf_create(100, 0.01, expansion => 2, key_type => 'uuid', layout => 'redisbloom')",
                   () -> RedisBloomFilter.create(100, 0.01, 2, KeyTypes.UUID_OID));
        bothRefuse("bf_create(100, 0.01, expansion => 2, key_type => 'float8', layout => 'redisbloom')",
                   () -> RedisBloomFilter.create(100, 0.01, 2, KeyTypes.FLOAT8));
        bothRefuse("bf_create(0, 0.01, expansion => 2, layout => 'redisbloom')",
                   () -> RedisBloomFilter.create(0, 0.01, 2));
        bothRefuse("bf_create(100, 1.0, expansion => 2, layout => 'redisbloom')",
                   () -> RedisBloomFilter.create(100, 1.0, 2));
        bothRefuse("bf_create(100, 0.01, expansion => 1025, layout => 'redisbloom')",
                   () -> RedisBloomFilter.create(100, 0.01, 1025));
        bothRefuse("bf_create(9000000000000000000, 1e-300, expansion => 2, layout => 'redisbloom')",
                   () -> RedisBloomFilter.create(9_000_000_000_000_000_000L, 1e-300, 2));
        RedisBloomFilter rt = RedisBloomFilter.create(100, 0.01, 2, KeyTypes.TEXT);
        bothRefuseKey("bf_contains(bf_create(100, 0.01, expansion => 2, key_type => 'text', layout => 'redisbloom'), 5::int8)",
                   () -> rt.mightContain(5L));
        RedisBloomFilter ri = RedisBloomFilter.create(100, 0.01, 2, KeyTypes.INT2);
        bothRefuse("bf_contains(bf_create(100, 0.01, expansion => 2, key_type => 'int2', layout => 'redisbloom'), '70000'::text)",
                   () -> ri.mightContain("70000"));
        RedisBloomFilter full = RedisBloomFilter.create(1, 0.01, 0);
        full.add(1L);
        bothRefuse("bf_add(bf_add(bf_create(1, 0.01, layout => 'redisbloom'), 1::int8), 2::int8)",
                   () -> full.add(2L));
    }

    /* the JDBC helpers read both layouts, as PGobject, bytea and base64 */
    @Test
    void jdbcHelpersReadBothLayouts() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                 "SELECT f, f::bytea, f::text FROM (VALUES (bf_add(bf_create(1000, 0.01, layout => 'guava', "
                 + "key_type => 'text'), 'a'::text)), (bf_add(bf_create(10, 0.01, expansion => 2, "
                 + "layout => 'redisbloom'), 7::int8))) v(f)");
             ResultSet rs = ps.executeQuery()) {
            int rows = 0;
            while (rs.next()) {
                BloomFilter f = Filters.bloomFromResultSet(rs, 1);
                assertArrayEquals(rs.getBytes(2), f.toBytes());
                assertArrayEquals(rs.getBytes(2), Filters.fromBase64(rs.getString(3)).toBytes());
                assertTrue(f instanceof GuavaBloomFilter ? f.mightContain("a") : f.mightContain(7L));
                try (PreparedStatement back = conn.prepareStatement("SELECT ?::bloomfilter::bytea")) {
                    back.setObject(1, Filters.toPGobject(f));
                    try (ResultSet r = back.executeQuery()) {
                        r.next();
                        assertArrayEquals(rs.getBytes(2), r.getBytes(1), "sent back as a PGobject");
                    }
                }
                rows++;
            }
            assertEquals(2, rows);
        }
    }
}
