package org.pgbloomfilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Genuine values of layouts 3 (scalable), 5 (Guava) and 6 (RedisBloom),
 * made by the server, forged in every header field, every field of a
 * scalable filter's prefix and sub-filters and of a RedisBloom chain and
 * its links (each with values around and far from the genuine one), in
 * random payload bits, and in length: Java refuses exactly the values the
 * server's input refuses, with the server's detail; and where both take a
 * forged value, adds give the same bytes, or both refuse them (a forged
 * chain never grows to gigabytes).
 */
class ForgedValuesTest extends ServerTestBase {
    private static final String PREFIX = "invalid bloomfilter value: ";

    /* a field: where it starts, its width in bytes, whether it is a double */
    record Field(String name, int at, int width, boolean real) {
    }

    @BeforeAll
    void functions() throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE FUNCTION pg_temp.refusal(b bytea) RETURNS text LANGUAGE plpgsql AS $$"
                + " DECLARE d text; BEGIN PERFORM b::bloomfilter; RETURN NULL;"
                + " EXCEPTION WHEN others THEN GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;"
                + " RETURN coalesce(nullif(d, ''), SQLSTATE || ' ' || SQLERRM); END $$");
            /* the checks of the keys, then the value with them added; or the refusal */
            st.execute("CREATE FUNCTION pg_temp.try_add(b bytea, k anyarray) RETURNS text LANGUAGE plpgsql AS $$"
                + " DECLARE f bloomfilter := b::bloomfilter; c text;"
                + " BEGIN SELECT string_agg(CASE WHEN bf_contains(f, x) THEN '1' ELSE '0' END, '' ORDER BY i)"
                + " INTO c FROM unnest(k) WITH ORDINALITY u(x, i);"
                + " RETURN c || ':' || encode(bf_add_all(f, k)::bytea, 'hex');"
                + " EXCEPTION WHEN others THEN RETURN 'E' || SQLSTATE; END $$");
        }
    }

    private byte[] server(String sql) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT (" + sql + ")::bytea")) {
            rs.next();
            return rs.getBytes(1);
        }
    }

    /* the 48-byte header at `at` */
    static List<Field> header(String prefix, int at) {
        return List.of(new Field(prefix + "magic", at, 4, false), new Field(prefix + "version", at + 4, 1, false),
            new Field(prefix + "layout", at + 5, 1, false), new Field(prefix + "hash id", at + 6, 1, false),
            new Field(prefix + "k", at + 7, 1, false), new Field(prefix + "seed", at + 8, 4, false),
            new Field(prefix + "key type", at + 12, 4, false), new Field(prefix + "nbits", at + 16, 8, false),
            new Field(prefix + "capacity", at + 24, 8, false), new Field(prefix + "error rate", at + 32, 8, true),
            new Field(prefix + "bits set", at + 40, 8, false));
    }

    /* a RedisBloom chain's header and each link's entry */
    static List<Field> chainFields(byte[] b) {
        List<Field> f = new ArrayList<>(header("", 0));
        f.addAll(List.of(new Field("chain size", 48, 8, false), new Field("nfilters", 56, 4, false),
            new Field("options", 60, 4, false), new Field("growth", 64, 4, false)));
        for (int i = 0; i < (b[7] & 0xFF); i++) {
            int e = 68 + 53 * i;
            String p = "link " + i + " ";
            f.addAll(List.of(new Field(p + "bytes", e, 8, false), new Field(p + "bits", e + 8, 8, false),
                new Field(p + "size", e + 16, 8, false), new Field(p + "error", e + 24, 8, true),
                new Field(p + "bpe", e + 32, 8, true), new Field(p + "hashes", e + 40, 4, false),
                new Field(p + "entries", e + 44, 8, false), new Field(p + "n2", e + 52, 1, false)));
        }
        return f;
    }

    /* a scalable filter's prefix, and each sub-filter's count and header */
    static List<Field> scalableFields(byte[] b) {
        List<Field> f = new ArrayList<>(header("", 0));
        f.addAll(List.of(new Field("expansion", 48, 4, false), new Field("divisor", 52, 4, false),
            new Field("reserved", 56, 8, false)));
        int at = 64;
        for (int i = 0; i < (b[7] & 0xFF); i++) {
            f.add(new Field("sub " + i + " count", at, 8, false));
            f.addAll(header("sub " + i + " ", at + 8));
            at += 8 + 48 + (int) (Bytes.load64(b, at + 8 + 16) / 8);
        }
        return f;
    }

    static long load(byte[] b, Field f) {
        long v = 0;
        for (int i = 0; i < f.width; i++)
            v |= (b[f.at + i] & 0xFFL) << (8 * i);
        return v;
    }

    static byte[] store(byte[] b, Field f, long v) {
        byte[] out = b.clone();
        for (int i = 0; i < f.width; i++)
            out[f.at + i] = (byte) (v >>> (8 * i));
        return out;
    }

    /* values around the genuine one and far from it */
    static long[] mutations(long v, Field f, Random rnd) {
        if (f.real) {
            double d = Double.longBitsToDouble(v);
            double[] ds = {Math.nextUp(d), Math.nextDown(d), d * 2, d / 2, -d, Double.NaN, 0.0, 1.0, 0.5,
                Double.POSITIVE_INFINITY, 1e-11, Double.MIN_VALUE, d * (1 + 1e-12), rnd.nextDouble()};
            long[] out = new long[ds.length + 1];
            for (int i = 0; i < ds.length; i++)
                out[i] = Double.doubleToRawLongBits(ds[i]);
            out[ds.length] = rnd.nextLong();
            return out;
        }
        long all = f.width == 8 ? -1L : (1L << (8 * f.width)) - 1;
        return new long[] {v + 1, v - 1, 0, 1, 2, 3, 7, 8, 63, 64, 65, 1024, 1025, all, all >>> 1, (all >>> 1) + 1,
            v * 2, v / 2, v ^ (1L << rnd.nextInt(8 * f.width)), rnd.nextLong(), 250_000_000L,
            1_000_000_000_000_000L};
    }

    /* every forgery of a genuine value: fields, payload bits (with and without the count), length */
    static List<byte[]> forge(byte[] genuine, List<Field> fields, Random rnd) {
        List<byte[]> out = new ArrayList<>();
        for (Field f : fields) {
            long v = load(genuine, f);
            for (long m : mutations(v, f, rnd))
                if ((m & (f.width == 8 ? -1L : (1L << (8 * f.width)) - 1)) != v)
                    out.add(store(genuine, f, m));
        }
        for (int i = 0; i < 24; i++) {
            byte[] b = genuine.clone();
            int at = 48 + rnd.nextInt(b.length - 48);
            int bit = 1 << rnd.nextInt(8);
            b[at] ^= (byte) bit;
            out.add(b.clone());
            /* the top count mended: refused only where a sub-filter's or the chain's counts tell */
            Bytes.store64(b, 40, Bytes.load64(b, 40) + ((b[at] & bit) != 0 ? 1 : -1));
            out.add(b);
        }
        out.add(Arrays.copyOf(genuine, genuine.length - 1));
        out.add(Arrays.copyOf(genuine, genuine.length + 1));
        out.add(Arrays.copyOf(genuine, 47));
        return out;
    }

    /* each value's refusal detail from the server, null where it takes it */
    private List<String> serverRefusals(List<byte[]> values) throws SQLException {
        List<String> hex = new ArrayList<>();
        for (byte[] v : values)
            hex.add(RandomKeys.hex(v));
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_temp.refusal(decode(v, 'hex'))"
                 + " FROM unnest(?::text[]) WITH ORDINALITY u(v, i) ORDER BY i")) {
            ps.setArray(1, conn.createArrayOf("text", hex.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next())
                    out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static String javaRefusal(byte[] b) {
        try {
            BloomFilter.fromBytes(b);
            return null;
        } catch (InvalidFilterException e) {
            assertTrue(e.getMessage().startsWith(PREFIX), e.getMessage());
            return e.getMessage().substring(PREFIX.length());
        }
    }

    /* forgeries of these genuine values: refusals and the adds of those taken compared */
    private void compare(String label, List<byte[]> genuine, boolean chain, Random rnd) throws SQLException {
        int refused = 0;
        int taken = 0;
        for (byte[] g : genuine) {
            assertEquals(null, javaRefusal(g), label + ": a genuine value");
            List<byte[]> forged = forge(g, chain ? chainFields(g)
                : g[5] == BloomFilter.LAYOUT_SCALABLE ? scalableFields(g) : header("", 0), rnd);
            List<String> want = serverRefusals(forged);
            List<byte[]> accepted = new ArrayList<>();
            for (int i = 0; i < forged.size(); i++) {
                String got = javaRefusal(forged.get(i));
                assertEquals(want.get(i), got, label + ": forgery " + i + " of " + g.length + " bytes: "
                    + RandomKeys.hex(forged.get(i)).substring(0, Math.min(400, 2 * forged.get(i).length)));
                if (got == null)
                    accepted.add(forged.get(i));
                else
                    refused++;
            }
            compareAdds(label, accepted, rnd);
            taken += accepted.size();
        }
        assertTrue(refused > 100 && taken > 0, label + ": " + refused + " refused, " + taken + " taken");
    }

    /*
     * Keys the value's key type takes, checked and then added on both sides:
     * the same answers and bytes, or both refuse.
     */
    private void compareAdds(String label, List<byte[]> values, Random rnd) throws SQLException {
        for (byte[] v : values) {
            int kt = Bytes.load32(v, 12);
            RandomKeys.Type t = kt == KeyTypes.BYTEA ? RandomKeys.Type.BYTEA
                : kt == KeyTypes.TEXT || kt == KeyTypes.VARCHAR || kt == KeyTypes.BPCHAR ? RandomKeys.Type.TEXT
                : kt == KeyTypes.INT4 || kt == KeyTypes.INT2 ? RandomKeys.Type.INT2 : RandomKeys.Type.INT8;
            List<String> keys = RandomKeys.keys(rnd, t, 1 + rnd.nextInt(40));
            String server;
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_temp.try_add(?, ARRAY(SELECT "
                     + t.sql("x") + " FROM unnest(?::text[]) WITH ORDINALITY u(x, i) ORDER BY i))")) {
                ps.setBytes(1, v);
                ps.setArray(2, conn.createArrayOf("text", keys.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    server = rs.getString(1);
                }
            }
            String mine;
            try {
                BloomFilter f = BloomFilter.fromBytes(v);
                StringBuilder checks = new StringBuilder();
                for (String k : keys)
                    checks.append(ServerTest.check(f, t.java(k)) ? '1' : '0');
                for (String k : keys)
                    RandomKeys.add(f, t.java(k));
                mine = checks + ":" + RandomKeys.hex(f.toBytes());
            } catch (IllegalStateException e) {
                mine = "E54000";
            } catch (IllegalArgumentException e) {
                /* a forged key type this client does not convert a Java key to
                 * (oid, date, ...: the README's "Not ported"), said so: no answer to compare */
                if (e.getMessage().contains("this client does not convert"))
                    continue;
                mine = "E" + server.substring(1);       /* a key refused: both refuse, the state not compared */
                assertTrue(server.startsWith("E") && !server.equals("E54000"), label + ": " + e + " / " + server);
            }
            assertEquals(server, mine, label + ": checks and adds of a forged value taken by both: " + RandomKeys.hex(v));
        }
    }

    /* genuine values the server makes from these expressions, forged and compared */
    private List<byte[]> compareForged(String layout, int stream, boolean chain, String... genuineSql)
        throws SQLException {
        List<byte[]> genuine = new ArrayList<>();
        for (String sql : genuineSql)
            genuine.add(server(sql));
        compare("seed " + LayoutsServerTest.SEED + ", " + layout, genuine, chain,
                new Random(LayoutsServerTest.SEED + stream));
        return genuine;
    }

    @Test
    void guavaForgeries() throws SQLException {
        compareForged("guava", 10, false,
            "bf_add_all(bf_create(100, 0.05, layout => 'guava', key_type => 'int8'),"
            + " ARRAY(SELECT i * 7919 FROM generate_series(1, 60) i))",
            "bf_add_all(bf_create(300, 0.001, layout => 'guava', key_type => 'text'),"
            + " ARRAY(SELECT 'k' || i FROM generate_series(1, 100) i))",
            "bf_create(10, 0.3, layout => 'guava', key_type => 'int4')");
    }

    @Test
    void redisBloomForgeries() throws SQLException {
        compareForged("redisbloom", 11, true,
            "bf_add_all(bf_create(10, 0.01, expansion => 2, layout => 'redisbloom'),"
            + " ARRAY(SELECT i * 7919 FROM generate_series(1, 100) i))",
            "bf_add_all(bf_create(5, 0.1, expansion => 1, key_type => 'text', layout => 'redisbloom'),"
            + " ARRAY(SELECT 'k' || i FROM generate_series(1, 14) i))",
            "bf_add_all(bf_create(20, 0.02, layout => 'redisbloom'), ARRAY(SELECT i FROM generate_series(1, 12) i))",
            "bf_create(3, 0.2, expansion => 5, key_type => 'bytea', layout => 'redisbloom')");
    }

    /* the issue 34 gap: sub-filters the client took and the server refuses */
    @Test
    void scalableForgeries() throws SQLException {
        List<byte[]> genuine = compareForged("scalable", 12, false,
            "bf_add_all(bf_create(20, 0.01, 0, false, 2), ARRAY(SELECT i FROM generate_series(1, 150) i))",
            "bf_add_all(bf_create(30, 1e-9, 77, false, 1), ARRAY(SELECT 'k' || i FROM generate_series(1, 70) i))",
            "bf_create(50, 0.1, 3, false, 1024)");

        /* a sub-filter valid as a plain filter but not of its position's sizing */
        byte[] g = genuine.get(0);
        int sub = 64 + 8;
        for (int k = 1; k <= 64; k++) {
            byte[] b = g.clone();
            if (b[sub + 7] == k)
                continue;
            b[sub + 7] = (byte) k;
            String want = serverRefusals(List.of(b)).get(0);
            assertEquals(BloomValidation.SUBFILTER, want, "k " + k);
            assertEquals(want, javaRefusal(b), "k " + k);
        }
    }
}
