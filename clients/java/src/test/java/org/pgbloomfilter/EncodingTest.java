package org.pgbloomfilter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Filters made in databases of four encodings (UTF8, LATIN1, SQL_ASCII,
 * EUC_JP) from generated ASCII and non-ASCII text keys: the client answers
 * as the server, through {@code Filters.fromResultSet} (which reads the
 * connection's server_encoding) and from raw bytes with the encoding, for
 * plain, counting, scalable, list-of-hashes, unsized-aggregate and cuckoo
 * filters, of hash id 5 (what 1.5 makes: text as UTF-8) and of hash id 2
 * (what 1.4 made: text in the database's encoding). This server makes no
 * id-2 value, so the test makes what 1.4 stored: the same aggregate over
 * {@code convert_to(key, <database encoding>)} as bytea (the bytes 1.4
 * hashed for the text), its hash id set back to 2 and its key type to the
 * text filter's; the server's answers prove every member present in it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EncodingTest {
    static final String[] ENCODINGS = {"UTF8", "LATIN1", "SQL_ASCII", "EUC_JP"};
    static final int N = 500;

    /* name, build over keys(k, o) with {K} the key, check function */
    static final String[][] KINDS = {
        {"plain", "SELECT bf_add_all(bf_create(2000, 0.01), array_agg({K} ORDER BY o)) FROM keys", "bf_contains"},
        {"counting", "SELECT bf_add_all(bf_create(2000, 0.01, counting => true), array_agg({K} ORDER BY o)) FROM keys", "bf_contains"},
        {"scalable", "SELECT bf_add_all(bf_create(150, 0.01, expansion => 2), array_agg({K} ORDER BY o)) FROM keys", "bf_contains"},
        {"hashlist", "SELECT bf_agg_partial({K} ORDER BY o) FROM keys", "bf_contains"},
        {"unsized", "SELECT bf_agg({K} ORDER BY o) FROM keys", "bf_contains"},
        {"cuckoo", "SELECT cf_add_all(cf_create(2000, 0.01), array_agg({K} ORDER BY o)) FROM keys", "cf_contains"},
        {"cuckoo_small", "SELECT cf_add_all(cf_create(200, 0.01), array_agg({K} ORDER BY o)) FROM keys", "cf_contains"},
    };

    private TestCluster cluster;
    private String adminUrl;
    private final Map<String, String> databases = new LinkedHashMap<>();

    @BeforeAll
    void start() throws Exception {
        String given = System.getenv("BLOOMFILTER_TEST_JDBC_URL");
        if (given == null || given.isEmpty()) {
            cluster = TestCluster.start();
            adminUrl = cluster.url;
        } else {
            adminUrl = given;
        }
        String base = TestCluster.newDatabaseName();
        try (Connection admin = DriverManager.getConnection(adminUrl);
             Statement st = admin.createStatement()) {
            for (String enc : ENCODINGS) {
                String db = base + "_" + enc.toLowerCase();
                st.execute("CREATE DATABASE " + db + " TEMPLATE template0 ENCODING '" + enc
                    + "' LC_COLLATE 'C' LC_CTYPE 'C'");
                databases.put(enc, db);
            }
        }
    }

    @AfterAll
    void stop() throws SQLException, InterruptedException {
        try {
            for (String db : databases.values())
                TestCluster.dropDatabase(adminUrl, db);
        } finally {
            if (cluster != null)
                cluster.close();
        }
    }

    private Connection connect(String enc) throws SQLException {
        return DriverManager.getConnection(TestCluster.withDatabase(adminUrl, databases.get(enc)));
    }

    /* non-ASCII characters a database of this encoding holds */
    static List<String> pool(String enc, Random rng) {
        List<String> out = new ArrayList<>();
        if (enc.equals("LATIN1")) {
            for (int c = 0xA0; c < 0x100; c++)
                out.add(String.valueOf((char) c));
        } else if (enc.equals("EUC_JP")) {
            /* kana, Greek, Cyrillic, level-1 kanji; JIS X 0212 accented letters */
            Set<String> s = new LinkedHashSet<>();
            TextEncoding te = TextEncoding.of("EUC_JP");
            while (s.size() < 300) {
                int row = rng.nextInt(4) == 0 ? 0xA4 + rng.nextInt(4) : 0xB0 + rng.nextInt(0x20);
                byte[] b = rng.nextInt(4) == 0
                    ? new byte[] {(byte) 0x8F, (byte) 0xAB, (byte) (0xA1 + rng.nextInt(0x57))}
                    : new byte[] {(byte) row, (byte) (0xA1 + rng.nextInt(0x5E))};
                String ch = new String(b, java.nio.charset.Charset.forName("EUC-JP"));
                if (ch.codePointCount(0, ch.length()) != 1 || ch.contains("\uFFFD"))
                    continue;
                try {
                    te.encode(ch);
                } catch (UnencodableKeyException e) {
                    continue;
                }
                s.add(ch);
            }
            out.addAll(s);
        } else {
            int[][] ranges = {{0xA0, 0x250}, {0x391, 0x3CA}, {0x410, 0x450}, {0x4E00, 0x4F00}, {0x1F600, 0x1F640}};
            for (int[] r : ranges)
                for (int c = r[0]; c < r[1]; c++)
                    out.add(new String(Character.toChars(c)));
        }
        return out;
    }

    /* members, then outsiders (often a member with one character changed) */
    static List<String> keys(String enc) {
        Random rng = new Random(enc.hashCode());
        List<String> pool = pool(enc, rng);
        String ascii = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_@.";
        Set<String> seen = new LinkedHashSet<>();
        while (seen.size() < N) {
            StringBuilder sb = new StringBuilder();
            int n = 1 + rng.nextInt(10);
            double share = rng.nextInt(4) / 3.0;
            for (int i = 0; i < n; i++)
                sb.append(rng.nextDouble() < share ? pool.get(rng.nextInt(pool.size()))
                          : String.valueOf(ascii.charAt(rng.nextInt(ascii.length()))));
            seen.add(sb.toString());
        }
        List<String> members = new ArrayList<>(seen);
        while (seen.size() < 2 * N) {
            String m = members.get(rng.nextInt(N));
            int i = m.offsetByCodePoints(0, rng.nextInt(m.codePointCount(0, m.length())));
            seen.add(m.substring(0, i) + pool.get(rng.nextInt(pool.size()))
                     + m.substring(m.offsetByCodePoints(i, 1)));
        }
        return new ArrayList<>(seen);
    }

    static byte[] build(Connection c, String[] kind, String legacyEnc) throws SQLException {
        String k = legacyEnc == null ? "k" : "convert_to(k, '" + legacyEnc + "')";
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT (" + kind[1].replace("{K}", k) + ")::bytea")) {
            rs.next();
            return rs.getBytes(1);
        }
    }

    /* the value as 1.4 stored it: hash id 2, key type as the text filter's, in every header */
    static byte[] legacy(byte[] raw, byte[] typed) {
        byte[] b = raw.clone();
        if (Bytes.load32(b, 0) == CuckooFilter.MAGIC) {
            b[5] = 2;
            System.arraycopy(typed, 40, b, 40, 4);
            return b;
        }
        b[6] = 2;
        System.arraycopy(typed, 12, b, 12, 4);
        if (b[5] == 3) {
            int off = 48 + 16;
            for (int i = 0; i < b[7]; i++) {
                b[off + 8 + 6] = 2;
                off += 8 + 48 + (int) (Bytes.load64(b, off + 8 + 16) / 8);
            }
        }
        return b;
    }

    static boolean[] serverAnswers(Connection c, String[] kind, byte[] raw, List<String> probes)
            throws SQLException {
        String type = kind[2].startsWith("cf") ? "cuckoofilter" : "bloomfilter";
        try (PreparedStatement ps = c.prepareStatement("SELECT array_agg(" + kind[2] + "(?::bytea::"
                + type + ", p) ORDER BY o) FROM unnest(?::text[]) WITH ORDINALITY u(p, o)")) {
            ps.setBytes(1, raw);
            ps.setArray(2, c.createArrayOf("text", probes.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                Boolean[] a = (Boolean[]) rs.getArray(1).getArray();
                boolean[] out = new boolean[a.length];
                for (int i = 0; i < a.length; i++)
                    out[i] = a[i];
                return out;
            }
        }
    }

    /* the value as fromResultSet reads it from a column of the filter's type */
    static Filter throughResultSet(Connection c, String[] kind, byte[] raw) throws SQLException {
        String type = kind[2].startsWith("cf") ? "cuckoofilter" : "bloomfilter";
        try (PreparedStatement ps = c.prepareStatement("SELECT ?::bytea::" + type)) {
            ps.setBytes(1, raw);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return Filters.fromResultSet(rs, 1);
            }
        }
    }

    private void setUp(Connection c, List<String> members) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS bloomfilter");
            st.execute("SET max_parallel_workers_per_gather = 0");
            st.execute("CREATE TABLE IF NOT EXISTS keys (k text, o int8)");
            st.execute("TRUNCATE keys");
            for (String t : new String[] {"text", "bytea"})
                st.execute("CREATE OR REPLACE AGGREGATE bf_agg_partial(" + t
                    + ") (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter)");
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO keys SELECT k, o FROM unnest(?::text[]) WITH ORDINALITY u(k, o)")) {
            ps.setArray(1, c.createArrayOf("text", members.toArray()));
            ps.execute();
        }
    }

    @Test
    void clientsAnswerAsTheServerInEveryEncoding() throws Exception {
        for (String enc : ENCODINGS) {
            List<String> all = keys(enc);
            List<String> members = all.subList(0, N);
            try (Connection c = connect(enc)) {
                assertEquals(enc, Filters.serverEncoding(c));
                setUp(c, members);
                for (String[] kind : KINDS) {
                    byte[] fresh = build(c, kind, null);
                    byte[] old = legacy(build(c, kind, enc), fresh);
                    for (byte[] raw : new byte[][] {fresh, old}) {
                        boolean isLegacy = raw == old;
                        String what = enc + " " + kind[0] + (isLegacy ? " hash id 2" : " hash id 5");
                        boolean[] want = serverAnswers(c, kind, raw, all);
                        for (int i = 0; i < N; i++)
                            assertTrue(want[i], what + ": member " + all.get(i) + " absent on the server");
                        List<Filter> readers = new ArrayList<>();
                        readers.add(throughResultSet(c, kind, raw));
                        readers.add(Filters.fromBytes(raw, enc));
                        if (!isLegacy || enc.equals("UTF8") || enc.equals("SQL_ASCII"))
                            readers.add(Filters.fromBytes(raw));
                        for (Filter f : readers) {
                            assertEquals(isLegacy ? 2 : 5, f.hashId(), what);
                            boolean[] got = f.mightContainAll(all.toArray(new String[0]));
                            for (int i = 0; i < got.length; i++)
                                assertEquals(want[i], got[i], what + ": key " + all.get(i));
                        }
                    }
                }
                /* local builds of hash id 5 have the server's bytes */
                String[] mk = members.toArray(new String[0]);
                Map<String, Filter> local = new LinkedHashMap<>();
                local.put("plain", BloomFilter.create(2000, 0.01));
                local.put("counting", BloomFilter.createCounting(2000, 0.01, 0));
                local.put("scalable", BloomFilter.createScalable(150, 0.01, 0, 2));
                local.put("hashlist", BloomFilter.createHashList(0.01, 0, 2));
                local.put("cuckoo", CuckooFilter.create(2000, 0.01));
                local.put("cuckoo_small", CuckooFilter.create(200, 0.01));
                for (String[] kind : KINDS) {
                    Filter f = local.get(kind[0]);
                    if (f == null)
                        continue;
                    for (String k : mk) {
                        if (f instanceof BloomFilter)
                            ((BloomFilter) f).add(k);
                        else
                            ((CuckooFilter) f).add(k);
                    }
                    assertArrayEquals(build(c, kind, null), f.toBytes(), enc + " " + kind[0]);
                }
                assertArrayEquals(build(c, KINDS[4], null),
                                  ((BloomFilter) local.get("hashlist")).finish().toBytes(), enc + " unsized");
                /* bf_shard hashes text in the database's encoding */
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT array_agg(bf_shard(k, 16) ORDER BY o) FROM keys");
                     ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    Integer[] want = (Integer[]) rs.getArray(1).getArray();
                    for (int i = 0; i < N; i++)
                        assertEquals((int) want[i], Shards.shard(members.get(i), 16, enc), enc + " shard");
                }
                /* a key the id-2 filter's encoding cannot hold is refused */
                if (enc.equals("LATIN1") || enc.equals("EUC_JP")) {
                    Filter f = Filters.fromBytes(legacy(build(c, KINDS[0], enc), build(c, KINDS[0], null)), enc);
                    String outside = enc.equals("LATIN1") ? "\u20ac" : "\u20ac\uD83D\uDE00";
                    assertThrows(UnencodableKeyException.class, () -> f.mightContain(outside));
                }
            }
        }
    }

    @Test
    void textEncodingsAgreeWithTheServer() throws Exception {
        List<String> chars = new ArrayList<>();
        for (int c = 0x80; c < 0x10000; c++)
            if (c < 0xD800 || c >= 0xE000)
                chars.add(String.valueOf((char) c));
        for (int c = 0x1F600; c < 0x1F650; c++)
            chars.add(new String(Character.toChars(c)));
        try (Connection c = connect("UTF8"); Statement st = c.createStatement()) {
            st.execute("CREATE OR REPLACE FUNCTION pg_temp.conv(t text, e name) RETURNS bytea "
                + "LANGUAGE plpgsql AS $$BEGIN RETURN convert_to(t, e); EXCEPTION WHEN others "
                + "THEN RETURN NULL; END$$");
            for (String enc : new String[] {"LATIN1", "EUC_JP"}) {
                TextEncoding te = TextEncoding.of(enc);
                try (PreparedStatement ps = c.prepareStatement("SELECT array_agg(pg_temp.conv(ch, ?) "
                        + "ORDER BY o) FROM unnest(?::text[]) WITH ORDINALITY u(ch, o)")) {
                    ps.setString(1, enc);
                    Array arr = c.createArrayOf("text", chars.toArray());
                    ps.setArray(2, arr);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        Object[] want = (Object[]) rs.getArray(1).getArray();
                        int held = 0;
                        for (int i = 0; i < chars.size(); i++) {
                            byte[] got;
                            try {
                                got = te.encode(chars.get(i));
                            } catch (UnencodableKeyException e) {
                                continue;
                            }
                            held++;
                            String label = enc + " U+" + Integer.toHexString(chars.get(i).codePointAt(0));
                            assertTrue(want[i] != null, label + ": the server refuses it");
                            assertArrayEquals((byte[]) want[i], got, label);
                        }
                        assertTrue(held > (enc.equals("LATIN1") ? 90 : 10000));
                    }
                }
            }
        }
        assertArrayEquals("é".getBytes(StandardCharsets.UTF_8), TextEncoding.of("SQL_ASCII").encode("é"));
    }
}
