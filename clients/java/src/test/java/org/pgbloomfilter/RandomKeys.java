package org.pgbloomfilter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * Random keys of one SQL key type, each as the text the server reads
 * ({@link #sql} turns an element of a text[] into a value of the type) and
 * as the Java key that stands for it, for the tests that build and check
 * filters on both sides.
 */
final class RandomKeys {
    /** The SQL key types the tests give (or leave untyped: the natural type of the Java keys). */
    enum Type {
        INT8("int8", KeyTypes.INT8), INT4("int4", KeyTypes.INT4), INT2("int2", KeyTypes.INT2),
        TEXT("text", KeyTypes.TEXT), VARCHAR("varchar", KeyTypes.VARCHAR),
        BPCHAR("bpchar", KeyTypes.BPCHAR), BYTEA("bytea", KeyTypes.BYTEA);

        final String sql;
        final int oid;

        Type(String sql, int oid) {
            this.sql = sql;
            this.oid = oid;
        }

        boolean integer() {
            return this == INT8 || this == INT4 || this == INT2;
        }

        boolean text() {
            return this == TEXT || this == VARCHAR || this == BPCHAR;
        }

        /** The SQL expression of element x of a text[] as a value of this type. */
        String sql(String x) {
            return this == BYTEA ? "decode(" + x + ", 'hex')" : x + "::" + sql;
        }

        /** The Java key of that text. */
        Object java(String x) {
            if (integer())
                return Long.parseLong(x);
            return this == BYTEA ? HexFormat.of().parseHex(x) : x;
        }

        long max() {
            return this == INT4 ? Integer.MAX_VALUE : this == INT2 ? Short.MAX_VALUE : Long.MAX_VALUE;
        }
    }

    private RandomKeys() {
    }

    /** A key of the type, as its text (hex for bytea). */
    static String key(Random rnd, Type t) {
        if (t.integer()) {
            long v = rnd.nextInt(4) == 0 ? rnd.nextLong() : rnd.nextInt(1_000_000) - 500_000;
            return Long.toString(t == Type.INT8 ? v : v % (t.max() + 1));
        }
        if (t == Type.BYTEA) {
            byte[] b = new byte[rnd.nextInt(24)];
            rnd.nextBytes(b);
            return HexFormat.of().formatHex(b);
        }
        return string(rnd);
    }

    /* letters, digits, Cyrillic, CJK and a supplementary character: no NUL, no lone surrogate */
    static String string(Random rnd) {
        StringBuilder s = new StringBuilder();
        int n = rnd.nextInt(16);
        for (int i = 0; i < n; i++) {
            switch (rnd.nextInt(5)) {
                case 0: s.append((char) ('a' + rnd.nextInt(26))); break;
                case 1: s.append((char) ('0' + rnd.nextInt(10))); break;
                case 2: s.append((char) (0x0430 + rnd.nextInt(32))); break;
                case 3: s.append((char) (0x4E00 + rnd.nextInt(2000))); break;
                default: s.appendCodePoint(0x1F600 + rnd.nextInt(64)); break;
            }
        }
        return s.toString();
    }

    /** n keys, some of them repeated. */
    static List<String> keys(Random rnd, Type t, int n) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < n; i++)
            keys.add(i > 0 && rnd.nextInt(8) == 0 ? keys.get(rnd.nextInt(i)) : key(rnd, t));
        return keys;
    }

    /**
     * Probes of the filter's keys in the SQL type the Java probe stands
     * for: {sqlType, text} pairs, members and others. Integers are also
     * probed as int8 beyond a narrower type's range, and as text the
     * type's input reads (blanks, a sign); text with trailing blanks
     * (which char(n) ignores).
     */
    static List<String[]> probes(Random rnd, Type t, List<String> members, int n) {
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            boolean member = !members.isEmpty() && rnd.nextBoolean();
            String k = member ? members.get(rnd.nextInt(members.size())) : key(rnd, t);
            if (t.integer()) {
                long v = Long.parseLong(k);
                if (rnd.nextInt(6) == 0 && t != Type.INT8)
                    out.add(new String[] {"int8", Long.toString(v + (rnd.nextBoolean() ? 1L : -1L) * (t.max() + 1))});
                else if (rnd.nextInt(3) == 0)
                    out.add(new String[] {"text", (rnd.nextBoolean() ? " " : "") + (v >= 0 && rnd.nextBoolean() ? "+" : "") + v + " "});
                else
                    out.add(new String[] {"int8", k});
            } else if (t.text()) {
                out.add(new String[] {"text", rnd.nextInt(4) == 0 ? k + "  " : k});
            } else {
                out.add(new String[] {"bytea", k});
            }
        }
        return out;
    }

    /** The Java probe for a {sqlType, text} pair. */
    static Object javaProbe(String[] p) {
        switch (p[0]) {
            case "int8": return Long.parseLong(p[1]);
            case "bytea": return HexFormat.of().parseHex(p[1]);
            default: return p[1];
        }
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /* through the public overloads, which the answers are compared for */
    static long count(Filter f, Object key) {
        if (key instanceof Long)
            return f.count((long) (Long) key);
        if (key instanceof String)
            return f.count((String) key);
        if (key instanceof java.util.UUID)
            return f.count((java.util.UUID) key);
        return f.count((byte[]) key);
    }

    static void add(BloomFilter f, Object key) {
        if (key instanceof Long)
            f.add((long) (Long) key);
        else if (key instanceof String)
            f.add((String) key);
        else if (key instanceof java.util.UUID)
            f.add((java.util.UUID) key);
        else
            f.add((byte[]) key);
    }
}
