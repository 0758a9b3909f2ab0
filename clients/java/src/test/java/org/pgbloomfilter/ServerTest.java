package org.pgbloomfilter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Local answers and bytes against a real server, for every filter kind,
 * several shapes and seeds, and int8, text, uuid and bytea keys.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServerTest extends ServerTestBase {
    static final int N = 100_000;

    /* ---- keys: key i as SQL computes it and as Java does ---- */

    enum Key {
        INT8("(%s * 2654435761)::int8"),
        TEXT("'ключ-' || %s"),
        UUID("md5(%s::text)::uuid"),
        BYTEA("convert_to('b' || %s, 'UTF8')");

        final String sql;

        Key(String sql) {
            this.sql = sql;
        }

        String sql(String i) {
            return String.format(sql, i);
        }

        Object java(long i) {
            switch (this) {
                case INT8: return i * 2654435761L;
                case TEXT: return "ключ-" + i;
                case UUID: return md5Uuid(Long.toString(i));
                default: return ("b" + i).getBytes(StandardCharsets.UTF_8);
            }
        }
    }

    static UUID md5Uuid(String s) {
        try {
            byte[] d = MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.US_ASCII));
            long hi = 0, lo = 0;
            for (int i = 0; i < 8; i++) {
                hi = (hi << 8) | (d[i] & 0xFF);
                lo = (lo << 8) | (d[8 + i] & 0xFF);
            }
            return new UUID(hi, lo);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /*
     * The hash a key of any of the four Java types gets in f, as the public
     * overloads compute it: for an add, the first key of an untyped empty
     * filter records its type.
     */
    static long[] hash(Filter f, Object key, boolean forAdd) {
        if (key instanceof Long)
            return forAdd ? f.hashLongForAdd((Long) key) : f.hashLong((Long) key);
        if (key instanceof String)
            return forAdd ? f.hashStringForAdd((String) key) : f.hashString((String) key);
        if (key instanceof UUID)
            return forAdd ? f.hashUuidForAdd((UUID) key) : f.hashUuid((UUID) key);
        return forAdd ? f.hashBytesForAdd((byte[]) key) : f.hashBytes((byte[]) key);
    }

    /* through the public overloads, which the answers are compared for */
    static boolean check(Filter f, Object key) {
        if (key instanceof Long)
            return f.mightContain((long) (Long) key);
        if (key instanceof String)
            return f.mightContain((String) key);
        if (key instanceof UUID)
            return f.mightContain((UUID) key);
        return f.mightContain((byte[]) key);
    }

    static long count(Filter f, Object key) {
        long[] h = hash(f, key, false);
        return f.countHash(h[0], h[1]);
    }

    static void add(Filter f, Object key) {
        long[] h = hash(f, key, true);
        f.addHash(h[0], h[1]);
    }

    /* ---- one case: a filter built on the server and here from the same keys ---- */

    /** A kind: the SQL that creates an empty one, and the Java that does. */
    interface Maker {
        Filter make();
    }

    static final class Case {
        final String name;
        final String createSql;
        final Maker maker;
        final Key key;
        final int dup;          /* each member key added dup times */
        final boolean cuckoo;

        Case(String name, String createSql, Maker maker, Key key, int dup) {
            this.name = name;
            this.createSql = createSql;
            this.maker = maker;
            this.key = key;
            this.dup = dup;
            this.cuckoo = createSql.startsWith("cf_");
        }

        long member(long i) {
            return (i - 1) % (N / dup) + 1;
        }
    }

    private final List<String> serverAnswers = new ArrayList<>();

    private Filter runCase(Case c) throws SQLException {
        String addAll = c.cuckoo ? "cf_add_all" : "bf_add_all";
        String contains = c.cuckoo ? "cf_contains" : "bf_contains";
        String countFn = c.cuckoo ? "cf_count" : "bf_count";
        String members = "((i - 1) % " + (N / c.dup) + " + 1)";
        try (Statement st = conn.createStatement()) {
            st.execute("DROP TABLE IF EXISTS f");
            st.execute("CREATE TEMP TABLE f AS SELECT " + addAll + "(" + c.createSql + ", array_agg("
                + c.key.sql(members) + " ORDER BY i)) AS f FROM generate_series(1, " + N + ") i");
        }
        byte[] serverBytes;
        String answers;
        String counts;
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT f::bytea, (SELECT string_agg(CASE WHEN "
                 + contains + "(f, " + c.key.sql("i") + ") THEN '1' ELSE '0' END, '' ORDER BY i)"
                 + " FROM generate_series(1, " + 2 * N + ") i), (SELECT string_agg(" + countFn
                 + "(f, " + c.key.sql("i") + ")::text, ',' ORDER BY i) FROM generate_series(1, 3000) i)"
                 + " FROM f")) {
            rs.next();
            serverBytes = rs.getBytes(1);
            answers = rs.getString(2);
            counts = rs.getString(3);
        }

        Filter local = c.maker.make();
        for (long i = 1; i <= N; i++)
            add(local, c.key.java(c.member(i)));
        byte[] localBytes = local.toBytes();
        if (!java.util.Arrays.equals(serverBytes, localBytes))
            fail(c.name + ": local bytes differ from the server's (" + localBytes.length + " vs "
                + serverBytes.length + " bytes, first difference at "
                + java.util.Arrays.mismatch(serverBytes, localBytes) + ")");

        Filter fetched = Filters.fromBytes(serverBytes);
        StringBuilder mine = new StringBuilder(2 * N);
        for (long i = 1; i <= 2 * N; i++)
            mine.append(check(fetched, c.key.java(i)) ? '1' : '0');
        assertEquals(answers, mine.toString(), c.name + ": answers differ from the server's");
        assertEquals(-1, answers.substring(0, N / c.dup).indexOf('0'), c.name + ": a member tests absent");
        StringBuilder myCounts = new StringBuilder();
        for (long i = 1; i <= 3000; i++)
            myCounts.append(i > 1 ? "," : "").append(count(fetched, c.key.java(i)));
        assertEquals(counts, myCounts.toString(), c.name + ": counts differ from the server's");
        serverAnswers.add(answers);
        return fetched;
    }

    static Case plain(long cap, double rate, long seed, Key key) {
        return new Case("plain " + cap + "/" + rate + "/" + seed + " " + key,
            "bf_create(" + cap + ", " + rate + ", " + seed + ")",
            () -> BloomFilter.create(cap, rate, seed), key, 1);
    }

    static Case counting(long cap, double rate, long seed, Key key, int dup) {
        return new Case("counting " + cap + "/" + rate + "/" + seed + " " + key,
            "bf_create(" + cap + ", " + rate + ", " + seed + ", true, 0)",
            () -> BloomFilter.createCounting(cap, rate, seed), key, dup);
    }

    static Case scalable(long cap, double rate, long seed, int expansion, Key key) {
        return new Case("scalable " + cap + "/" + rate + "/" + seed + "/x" + expansion + " " + key,
            "bf_create(" + cap + ", " + rate + ", " + seed + ", false, " + expansion + ")",
            () -> BloomFilter.createScalable(cap, rate, seed, expansion), key, 1);
    }

    static Case cuckoo(long cap, double rate, long seed, Key key, int dup) {
        return new Case("cuckoo " + cap + "/" + rate + "/" + seed + " " + key,
            "cf_create(" + cap + ", " + rate + ", " + seed + ")",
            () -> CuckooFilter.create(cap, rate, seed), key, dup);
    }

    @Test
    void plainFilters() throws SQLException {
        runCase(plain(100_000, 0.01, 0, Key.INT8));
        runCase(plain(150_000, 0.001, 12345, Key.TEXT));
        runCase(plain(50_000, 0.05, 4294967295L, Key.UUID));
        runCase(plain(200_000, 0.0001, 7, Key.BYTEA));
        runCase(plain(10_000, 0.01, 99, Key.INT8));        /* ten times over capacity */
    }

    @Test
    void countingFilters() throws SQLException {
        runCase(counting(100_000, 0.01, 0, Key.INT8, 2));
        runCase(counting(60_000, 0.02, 31337, Key.TEXT, 1));
        runCase(counting(120_000, 0.001, 5, Key.UUID, 4));
        runCase(counting(100_000, 0.01, 424242, Key.BYTEA, 1));
    }

    @Test
    void scalableFilters() throws SQLException {
        runCase(scalable(1000, 0.01, 0, 2, Key.INT8));      /* what bf_agg(x) makes: 7 sub-filters */
        runCase(scalable(20_000, 0.001, 77, 3, Key.TEXT));
        runCase(scalable(5000, 0.05, 4000000000L, 2, Key.UUID));
        runCase(scalable(100_000, 0.01, 1, 1, Key.BYTEA));
    }

    @Test
    void cuckooFilters() throws SQLException {
        runCase(cuckoo(100_000, 0.01, 0, Key.INT8, 1));
        runCase(cuckoo(30_000, 0.01, 11, Key.TEXT, 1));      /* grows to 3 sub-filters */
        runCase(cuckoo(100_000, 0.001, 4294967295L, Key.UUID, 2));
        runCase(cuckoo(80_000, 0.05, 33, Key.BYTEA, 1));   /* cf_create refuses seeds 1 to 8 */
        runCase(cuckoo(20_000, 0.1, 21, Key.INT8, 4));       /* four copies of each key, grown */
    }

    /*
     * bf_agg(x) without sizing keeps hashes and builds a scalable filter
     * sized for their estimated distinct count: createHashList(0.01, 0, 2),
     * the keys, finish(); repeated keys too.
     */
    @Test
    void unsizedAggregate() throws SQLException {
        for (int dup : new int[] {1, 3}) {
            try (Statement st = conn.createStatement();
                 ResultSet rs = st.executeQuery("SELECT bf_agg((i % " + (20000 / dup) + ")::int8 ORDER BY i)"
                     + "::bytea, cf_agg(i::int8, 2000, 0.01 ORDER BY i)::bytea FROM generate_series(1, 20000) i")) {
                rs.next();
                BloomFilter b = BloomFilter.createHashList(0.01, 0, 2);
                CuckooFilter c = CuckooFilter.create(2000, 0.01, 0);
                for (long i = 1; i <= 20000; i++) {
                    b.add(i % (20000 / dup));
                    c.add(i);
                }
                BloomFilter fin = b.finish();
                assertEquals(BloomFilter.LAYOUT_SCALABLE, fin.layout());
                assertTrue(java.util.Arrays.equals(rs.getBytes(1), fin.toBytes()), "bf_agg x" + dup);
                assertTrue(java.util.Arrays.equals(rs.getBytes(2), c.toBytes()), "cf_agg");
            }
        }
    }

    /*
     * Layout 4, an unsized bf_agg's partial state (its transition function
     * alone): read, answered (contains, count) as the server does, its bytes
     * those of the local list; bf_add to it doubles its cells as locally;
     * the final function's filter equals finish().
     */
    @Test
    void hashListPartialState() throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE OR REPLACE AGGREGATE bf_agg_partial(bigint) "
                + "(SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter)");
        }
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("WITH s AS (SELECT bf_agg_partial(i % 700 ORDER BY i) AS s "
                 + "FROM generate_series(1, 900) i) SELECT s::bytea, "
                 + "(SELECT string_agg(CASE WHEN bf_contains(s, g::int8) THEN '1' ELSE '0' END, '' "
                 + "ORDER BY g) FROM generate_series(-500, 1500) g), "
                 + "(SELECT string_agg(bf_count(s, g::int8)::text, ',' ORDER BY g) "
                 + "FROM generate_series(-500, 1500) g), "
                 + "bf_add(s, 5000::int8)::bytea, bloomfilter_agg_final(s)::bytea FROM s")) {
            rs.next();
            BloomFilter f = BloomFilter.fromBytes(rs.getBytes(1));
            assertEquals(BloomFilter.LAYOUT_HASHES, f.layout());
            StringBuilder answers = new StringBuilder();
            StringBuilder counts = new StringBuilder();
            for (long g = -500; g <= 1500; g++) {
                answers.append(f.mightContain(g) ? '1' : '0');
                counts.append(g > -500 ? "," : "").append(f.count(g));
            }
            assertEquals(rs.getString(2), answers.toString(), "contains on a list of hashes");
            assertEquals(rs.getString(3), counts.toString(), "count on a list of hashes");
            BloomFilter local = BloomFilter.createHashList(0.01, 0, 2);
            for (long i = 1; i <= 900; i++)
                local.add(i % 700);
            assertTrue(java.util.Arrays.equals(rs.getBytes(1), local.toBytes()), "partial state");
            assertTrue(java.util.Arrays.equals(rs.getBytes(4), BloomFilter.fromBytes(rs.getBytes(1))
                .add(5000L).toBytes()), "bf_add to a list");
            assertTrue(java.util.Arrays.equals(rs.getBytes(5), f.finish().toBytes()), "final function");
        }
    }

    /* cf_create refuses seeds 1 to 8, and so does the client; a stored value with one still reads */
    @Test
    void cuckooWeakSeeds() throws SQLException {
        for (long seed = 1; seed <= 8; seed++) {
            final long s = seed;
            assertThrows(IllegalArgumentException.class, () -> CuckooFilter.create(100, 0.01, s));
        }
        byte[] raw = CuckooFilter.create(100, 0.01, 9).add(1L).toBytes();
        Bytes.store32(raw, 8, 8);
        CuckooFilter old = CuckooFilter.fromBytes(raw);
        try (PreparedStatement ps = conn.prepareStatement(
                 "SELECT string_agg(CASE WHEN cf_contains(?::bytea::cuckoofilter, k::int8) THEN '1' "
                 + "ELSE '0' END, '' ORDER BY k) FROM generate_series(1, 50) k")) {
            ps.setBytes(1, raw);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                StringBuilder mine = new StringBuilder();
                for (long k = 1; k <= 50; k++)
                    mine.append(old.mightContain(k) ? '1' : '0');
                assertEquals(rs.getString(1), mine.toString());
            }
        }
        try (Statement st = conn.createStatement()) {
            assertThrows(SQLException.class, () -> st.executeQuery("SELECT cf_create(100, 0.01, 8)"));
        }
    }

    /* the shape bf_create and cf_create pick, over a grid and random requests */
    @Test
    void sizingMatchesTheServer() throws SQLException {
        List<long[]> caps = new ArrayList<>();
        List<Double> rates = new ArrayList<>();
        long[] cs = {1, 2, 3, 5, 10, 50, 100, 999, 1000, 4096, 10_000, 31_623, 100_000, 316_228,
                     1_000_000, 3_162_278, 10_000_000};
        double[] rs = {0.9, 0.5, 0.1, 0.05, 0.01, 0.001, 1e-4, 1e-6, 1e-9};
        for (long c : cs)
            for (double r : rs)
                if (c * -Math.log(r) < 1.2e8) {
                    caps.add(new long[] {c});
                    rates.add(r);
                }
        Random rnd = new Random(18);
        for (int i = 0; i < 150; i++) {
            long c = (long) Math.exp(rnd.nextDouble() * Math.log(2e7));
            double r = Math.exp(Math.log(1e-8) * rnd.nextDouble());
            if (c * -Math.log(r) < 1.2e8) {
                caps.add(new long[] {Math.max(c, 1)});
                rates.add(r);
            }
        }
        int mismatches = 0;
        StringBuilder report = new StringBuilder();
        try (PreparedStatement ps = conn.prepareStatement(
                 "SELECT substring(bf_create(?, ?)::bytea from 1 for 48), "
                 + "substring(cf_create(?, ?)::bytea from 1 for 72)")) {
            for (int i = 0; i < caps.size(); i++) {
                long c = caps.get(i)[0];
                double r = rates.get(i);
                ps.setLong(1, c);
                ps.setDouble(2, r);
                ps.setLong(3, c);
                ps.setDouble(4, Math.max(r, 1e-8));
                try (ResultSet res = ps.executeQuery()) {
                    res.next();
                    byte[] b = res.getBytes(1);
                    long[] shape = Sizing.size(c, r);
                    if (shape == null || Bytes.load64(b, 16) != shape[0] || b[7] != shape[1]) {
                        mismatches++;
                        report.append(String.format(" bf(%d, %s): server %d/%d", c, r,
                                                    Bytes.load64(b, 16), b[7]));
                    }
                    byte[] k = res.getBytes(2);
                    byte[] mine = CuckooFilter.create(c, Math.max(r, 1e-8)).toBytes();
                    if (!java.util.Arrays.equals(k, java.util.Arrays.copyOf(mine, 72))) {
                        mismatches++;
                        report.append(String.format(" cf(%d, %s)", c, r));
                    }
                }
            }
        }
        assertEquals(0, mismatches, caps.size() + " requests;" + report);
    }

    /* 8 threads check one filter of each kind at once; every answer compared */
    @Test
    void concurrentChecks() throws Exception {
        Case[] cases = {plain(100_000, 0.01, 3, Key.INT8), cuckoo(100_000, 0.01, 33, Key.TEXT, 1),
                        scalable(10_000, 0.01, 3, 2, Key.UUID), counting(100_000, 0.01, 3, Key.BYTEA, 1)};
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (Case c : cases) {
                Filter shared = runCase(c);
                String want = serverAnswers.get(serverAnswers.size() - 1);
                List<Future<String>> results = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    final int offset = t;
                    results.add(pool.submit(() -> {
                        char[] got = new char[2 * N];
                        /* each thread walks the keys from its own starting point */
                        for (int j = 0; j < 2 * N; j++) {
                            int i = (j + offset * (N / 4)) % (2 * N);
                            got[i] = check(shared, c.key.java(i + 1)) ? '1' : '0';
                        }
                        return new String(got);
                    }));
                }
                for (Future<String> r : results)
                    assertEquals(want, r.get(), c.name + ": a thread's answers differ");
            }
        } finally {
            pool.shutdown();
        }
    }

    /* the JDBC helper: PGobject columns, bytea, NULL, and a filter sent back */
    @Test
    void jdbcHelper() throws SQLException {
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT bf_add(bf_create(1000, 0.01), 42::int8), "
                 + "cf_add(cf_create(1000, 0.01), 'x'::text), bf_add(bf_create(10), 7::int8)::bytea, "
                 + "NULL::bloomfilter, bf_add(bf_create(1000, 0.01, 0, false, 2), 5::int8)")) {
            rs.next();
            BloomFilter b = Filters.bloomFromResultSet(rs, 1);
            assertTrue(b.mightContain(42L));
            CuckooFilter c = Filters.cuckooFromResultSet(rs, 2);
            assertTrue(c.mightContain("x"));
            assertTrue(Filters.fromResultSet(rs, 3).mightContain(7L));
            assertNull(Filters.fromResultSet(rs, 4));
            assertEquals(BloomFilter.LAYOUT_SCALABLE, Filters.bloomFromResultSet(rs, 5).layout());
        }
        /* the first key records bigint: '3' is then read as 3, here and there */
        BloomFilter local = BloomFilter.create(5000, 0.01).add(1L).add("3");
        CuckooFilter localCf = CuckooFilter.create(5000, 0.01).add(2L);
        try (PreparedStatement ps = conn.prepareStatement(
                 "SELECT bf_contains(?, 1::int8), bf_contains(?::bloomfilter, 3), cf_contains(?, 2::int8)")) {
            ps.setObject(1, Filters.toPGobject(local));
            ps.setString(2, local.toBase64());
            ps.setObject(3, Filters.toPGobject(localCf));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertTrue(rs.getBoolean(1));
                assertTrue(rs.getBoolean(2));
                assertTrue(rs.getBoolean(3));
            }
        }
    }

    /* ---- typed filters: server-built with a key type, probed there and here ---- */

    /* the outcome of a probe: "t", "f", "42804" (refused) or "22" (the input function's error) */
    private String serverOutcome(String fn, byte[] raw, String type, Object probe) throws SQLException {
        String sqlType = probe instanceof Long ? "int8" : probe instanceof String ? "text"
            : probe instanceof UUID ? "uuid" : "bytea";
        String cast = fn.startsWith("bf") ? "bloomfilter" : "cuckoofilter";
        conn.setAutoCommit(false);
        try (PreparedStatement ps = conn.prepareStatement(
                 "SELECT " + fn + "(?::bytea::" + cast + ", ?::" + sqlType + ")")) {
            ps.setBytes(1, raw);
            ps.setObject(2, probe);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1) ? "t" : "f";
            }
        } catch (SQLException e) {
            String state = e.getSQLState();
            return state.startsWith("22") ? "22" : state;
        } finally {
            conn.rollback();
            conn.setAutoCommit(true);
        }
    }

    static String localOutcome(Filter f, Object probe) {
        try {
            return check(f, probe) ? "t" : "f";
        } catch (KeyTypeMismatchException e) {
            return "42804";
        } catch (IllegalArgumentException e) {
            return "22";
        }
    }

    /*
     * type: the key type given at creation; member: an SQL literal of it;
     * javaMember: the same key in Java (null: not built locally); probes.
     */
    private void typedCase(String type, int oid, String member, Object javaMember, Object... probes)
            throws SQLException {
        byte[][] raws = new byte[2][];
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT bf_add(bf_create(100, 0.01, key_type => '" + type
                 + "'), " + member + ")::bytea, cf_add(cf_create(100, 0.01, key_type => '" + type
                 + "'), " + member + ")::bytea")) {
            rs.next();
            raws[0] = rs.getBytes(1);
            raws[1] = rs.getBytes(2);
        }
        if (javaMember != null) {
            Filter b = BloomFilter.create(100, 0.01, 0, oid);
            Filter c = CuckooFilter.create(100, 0.01, 0, oid);
            add(b, javaMember);
            add(c, javaMember);
            assertArrayEquals(raws[0], b.toBytes(), type + ": bloom bytes");
            assertArrayEquals(raws[1], c.toBytes(), type + ": cuckoo bytes");
        }
        String[] fns = {"bf_contains", "cf_contains"};
        for (int k = 0; k < 2; k++) {
            Filter f = Filters.fromBytes(raws[k]);
            assertEquals(oid, f.keyType());
            for (Object p : probes)
                assertEquals(serverOutcome(fns[k], raws[k], type, p), localOutcome(f, p),
                             fns[k] + " on " + type + " keys, probe " + p);
        }
    }

    @Test
    void typedFiltersConvertProbesAsTheServer() throws SQLException {
        UUID u = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        typedCase("bigint", KeyTypes.INT8, "5::int8", 5L, 5L, "5", " +5 ", "five", "5.0", "0x5", "",
                  "99999999999999999999", u, new byte[] {5});
        typedCase("integer", KeyTypes.INT4, "5", 5L, 5L, 1L << 40, "5", "2147483648", (1L << 32) + 5);
        typedCase("smallint", KeyTypes.INT2, "7::int2", 7L, 7L, 70000L, "7", "70000");
        typedCase("numeric", KeyTypes.NUMERIC, "1.50", "1.50", "1.5", "1.500", "x", 1L, u);
        typedCase("numeric", KeyTypes.NUMERIC, "2", 2L, 2L, "2.0", "2");
        typedCase("double precision", KeyTypes.FLOAT8, "2", 2L, 2L, "2.0", "1e-400", "1e400",
                  "NaN", "-nan", (1L << 53) + 1, "0x2", "0X1P1", "0x1p-2000", "0x1p2000", "0xg", "2.0f");
        typedCase("real", KeyTypes.FLOAT4, "16777216", 16777216L, 16777216L, 16777217L, "16777217",
                  "0.1", "1e-50", "3.4028236e38");
        typedCase("real", KeyTypes.FLOAT4, "'0.1'::real", "0.1", "0.1", "0.10000000149", 1L,
                  "0x1.99999ap-4", "0x1p-200");
        typedCase("text", KeyTypes.TEXT, "'5'", "5", "5", 5L, "5 ", u);
        typedCase("bpchar", KeyTypes.BPCHAR, "'ab'", "ab", "ab", "ab  ", 1L);
        typedCase("name", KeyTypes.NAME, "'" + "x".repeat(100) + "'", null, "x".repeat(63),
                  "x".repeat(100));
        typedCase("uuid", KeyTypes.UUID_OID, "'" + u + "'", u, u, u.toString().toUpperCase(),
                  "{" + u + "}", " " + u, u.toString().replace("-", ""), 1L);
        typedCase("bytea", KeyTypes.BYTEA, "'\\x006162'", new byte[] {0, 'a', 'b'},
                  new byte[] {0, 'a', 'b'}, "\\x006162", "\\000ab", "ab", 1L);
        typedCase("boolean", KeyTypes.BOOL, "true", "true", "yes", "t", "of", "o", "maybe", 1L);
    }

    /* bf_shard of every key type over many keys */
    @Test
    void shardsMatchTheServer() throws SQLException {
        for (Key k : Key.values()) {
            try (Statement st = conn.createStatement();
                 ResultSet rs = st.executeQuery("SELECT string_agg(bf_shard(" + k.sql("i") + ", 1000)::text, ','"
                     + " ORDER BY i) FROM generate_series(1, 20000) i")) {
                rs.next();
                StringBuilder mine = new StringBuilder();
                for (long i = 1; i <= 20000; i++) {
                    Object key = k.java(i);
                    int s = key instanceof Long ? Shards.shard((long) (Long) key, 1000)
                        : key instanceof String ? Shards.shard((String) key, 1000)
                        : key instanceof UUID ? Shards.shard((UUID) key, 1000)
                        : Shards.shard((byte[]) key, 1000);
                    mine.append(i > 1 ? "," : "").append(s);
                }
                assertEquals(rs.getString(1), mine.toString(), "bf_shard of " + k);
            }
        }
    }
}
