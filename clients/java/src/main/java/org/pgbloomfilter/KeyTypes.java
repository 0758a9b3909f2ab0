package org.pgbloomfilter;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Canonical bytes of a Java key for a filter's key type, as the server
 * hashes them (README: "Hash contract").
 *
 * <p>A filter records the type of its keys: bloomfilter header bytes 12..15,
 * cuckoofilter bytes 40..43, a built-in PostgreSQL type OID, 0 for a filter
 * made before keys were typed. A key of another Java type is converted as the
 * server converts a probe to the filter's type (a String against an int8
 * filter is read as the number); where the server has no conversion the call
 * throws {@link IllegalArgumentException}, never answers "absent". With key
 * type 0, each Java type hashes as its natural SQL type: long as int8,
 * String as text (UTF-8: a UTF8 database), UUID as uuid, byte[] as bytea.
 */
public final class KeyTypes {
    public static final int UNTYPED = 0;
    public static final int BYTEA = 17;
    public static final int NAME = 19;
    public static final int INT8 = 20;
    public static final int INT2 = 21;
    public static final int INT4 = 23;
    public static final int TEXT = 25;
    public static final int FLOAT4 = 700;
    public static final int FLOAT8 = 701;
    public static final int BPCHAR = 1042;
    public static final int VARCHAR = 1043;
    public static final int NUMERIC = 1700;
    public static final int UUID_OID = 2950;

    /* how a Java long meets a key type: see longWord */
    static final int LONG_INT8 = 0;
    static final int LONG_INT4 = 1;
    static final int LONG_INT2 = 2;
    static final int LONG_FLOAT8 = 3;
    static final int LONG_FLOAT4 = 4;
    static final int LONG_REFUSED = 5;

    private static final int NAMEDATALEN = 64;

    private KeyTypes() {
    }

    /** The SQL name of a key type, for messages. */
    public static String name(int oid) {
        switch (oid) {
            case UNTYPED: return "untyped";
            case BYTEA: return "bytea";
            case NAME: return "name";
            case INT8: return "bigint";
            case INT2: return "smallint";
            case INT4: return "integer";
            case TEXT: return "text";
            case FLOAT4: return "real";
            case FLOAT8: return "double precision";
            case BPCHAR: return "character";
            case VARCHAR: return "character varying";
            case NUMERIC: return "numeric";
            case UUID_OID: return "uuid";
            default: return "type OID " + Integer.toUnsignedString(oid);
        }
    }

    static IllegalArgumentException refused(String javaType, int oid) {
        return new IllegalArgumentException("a Java " + javaType
            + " cannot be compared with keys of type " + name(oid)
            + " (OID " + Integer.toUnsignedString(oid) + "); the server refuses such a probe too");
    }

    static int longMode(int oid) {
        switch (oid) {
            case UNTYPED:
            case INT8:
            case NUMERIC:       /* a whole numeric within int8 hashes as the int8 */
                return LONG_INT8;
            case INT4: return LONG_INT4;
            case INT2: return LONG_INT2;
            case FLOAT8: return LONG_FLOAT8;
            case FLOAT4: return LONG_FLOAT4;
            default: return LONG_REFUSED;
        }
    }

    /** Whether a long can equal some key of the type (int4 keys: in range). */
    static boolean longInRange(int mode, long key) {
        switch (mode) {
            case LONG_INT4: return key == (int) key;
            case LONG_INT2: return key == (short) key;
            default: return true;
        }
    }

    /** The 8 bytes, as a little-endian word, a long hashes as (in range). */
    static long longWord(int mode, int oid, long key) {
        switch (mode) {
            case LONG_INT8:
            case LONG_INT4:
            case LONG_INT2:
                return key;
            case LONG_FLOAT8:
                return doubleWord((double) key);
            case LONG_FLOAT4:
                return doubleWord((float) key);
            default:
                throw refused("long", oid);
        }
    }

    /**
     * Hash id 2's float rule: a whole number within int8 as that integer,
     * else the float8's bits, every NaN as one.
     */
    static long doubleWord(double d) {
        if (Double.isNaN(d))
            return 0x7FF8000000000000L;
        if (!Double.isInfinite(d) && d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63)
            return (long) d;
        return Double.doubleToRawLongBits(d);
    }

    static byte[] le8(long v) {
        byte[] b = new byte[8];
        Bytes.store64(b, 0, v);
        return b;
    }

    /** Canonical bytes of a String key for a filter of key type oid. */
    static byte[] stringBytes(String key, int oid) {
        switch (oid) {
            case UNTYPED:
            case TEXT:
            case VARCHAR:
                return key.getBytes(StandardCharsets.UTF_8);
            case BPCHAR:
                return stripTrailingBlanks(key).getBytes(StandardCharsets.UTF_8);
            case NAME:
                return clipName(key);
            case INT8:
                return le8(parseInteger(key, Long.MIN_VALUE, Long.MAX_VALUE, oid));
            case INT4:
                return le8(parseInteger(key, Integer.MIN_VALUE, Integer.MAX_VALUE, oid));
            case INT2:
                return le8(parseInteger(key, Short.MIN_VALUE, Short.MAX_VALUE, oid));
            case FLOAT8:
                return le8(doubleWord(parseFloat(key, oid)));
            case FLOAT4:
                return le8(doubleWord((float) parseFloat(key, oid)));
            case NUMERIC:
                return numericBytes(key);
            case UUID_OID:
                return uuidBytes(parseUuid(key));
            case BYTEA:
                return parseBytea(key);
            default:
                throw refused("String", oid);
        }
    }

    static void checkUuid(int oid) {
        if (oid != UNTYPED && oid != UUID_OID)
            throw refused("UUID", oid);
    }

    static void checkBytes(int oid) {
        if (oid != UNTYPED && oid != BYTEA)
            throw refused("byte[]", oid);
    }

    static byte[] uuidBytes(UUID u) {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (u.getMostSignificantBits() >>> (56 - 8 * i));
            b[8 + i] = (byte) (u.getLeastSignificantBits() >>> (56 - 8 * i));
        }
        return b;
    }

    private static String stripTrailingBlanks(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ')
            end--;
        return s.substring(0, end);
    }

    /* name input keeps at most NAMEDATALEN - 1 bytes, whole characters */
    private static byte[] clipName(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length < NAMEDATALEN)
            return b;
        int len = NAMEDATALEN - 1;
        while (len > 0 && (b[len] & 0xC0) == 0x80)
            len--;
        return java.util.Arrays.copyOf(b, len);
    }

    private static IllegalArgumentException badInput(int oid, String s) {
        return new IllegalArgumentException("invalid input syntax for type " + name(oid)
            + ": \"" + s + "\"");
    }

    /* the integer input functions: blanks around, a sign, decimal digits */
    static long parseInteger(String s, long min, long max, int oid) {
        String t = s.strip();
        if (t.isEmpty())
            throw badInput(oid, s);
        BigInteger v;
        try {
            if (!t.matches("[+-]?[0-9]+"))
                throw badInput(oid, s);
            v = new BigInteger(t.startsWith("+") ? t.substring(1) : t);
        } catch (NumberFormatException e) {
            throw badInput(oid, s);
        }
        if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0)
            throw new IllegalArgumentException("value \"" + s + "\" is out of range for type "
                + name(oid));
        return v.longValue();
    }

    private static double parseFloat(String s, int oid) {
        String t = s.strip();
        String l = t.toLowerCase(java.util.Locale.ROOT);
        switch (l) {
            case "nan": return Double.NaN;
            case "infinity": case "+infinity": case "inf": case "+inf":
                return Double.POSITIVE_INFINITY;
            case "-infinity": case "-inf":
                return Double.NEGATIVE_INFINITY;
            default:
                break;
        }
        if (!t.matches("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?"))
            throw badInput(oid, s);
        return Double.parseDouble(t);
    }

    /*
     * Hash id 2's numeric rule: a whole number within int8 as that int8,
     * else the ASCII text without trailing fractional zeros.
     */
    private static byte[] numericBytes(String s) {
        String t = s.strip();
        String l = t.toLowerCase(java.util.Locale.ROOT);
        if (l.equals("nan"))
            return "NaN".getBytes(StandardCharsets.US_ASCII);
        if (l.equals("infinity") || l.equals("+infinity") || l.equals("inf") || l.equals("+inf"))
            return "Infinity".getBytes(StandardCharsets.US_ASCII);
        if (l.equals("-infinity") || l.equals("-inf"))
            return "-Infinity".getBytes(StandardCharsets.US_ASCII);
        if (!t.matches("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?"))
            throw badInput(NUMERIC, s);
        BigDecimal v = new BigDecimal(t.startsWith("+") ? t.substring(1) : t);
        if (v.signum() == 0)
            return le8(0);
        BigDecimal stripped = v.stripTrailingZeros();
        if (stripped.scale() <= 0) {
            BigInteger whole = stripped.toBigIntegerExact();
            if (whole.bitLength() <= 63)
                return le8(whole.longValue());
        }
        if (stripped.scale() < 0)
            stripped = stripped.setScale(0);
        return stripped.toPlainString().getBytes(StandardCharsets.US_ASCII);
    }

    /* uuid input: 32 hex digits, a hyphen allowed after any group of four, braces */
    static UUID parseUuid(String s) {
        String t = s;
        if (t.startsWith("{") && t.endsWith("}"))
            t = t.substring(1, t.length() - 1);
        StringBuilder hex = new StringBuilder(32);
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '-' && hex.length() % 4 == 0 && hex.length() > 0 && hex.length() < 32
                && i + 1 < t.length() && t.charAt(i + 1) != '-')
                continue;
            if (Character.digit(c, 16) < 0)
                throw badInput(UUID_OID, s);
            hex.append(c);
        }
        if (hex.length() != 32)
            throw badInput(UUID_OID, s);
        return new UUID(Long.parseUnsignedLong(hex.substring(0, 16), 16),
                        Long.parseUnsignedLong(hex.substring(16), 16));
    }

    /* bytea input: the hex format (\x...) or the escape format */
    static byte[] parseBytea(String s) {
        if (s.startsWith("\\x")) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            for (int i = 2; i < s.length(); i++) {
                char c = s.charAt(i);
                if (Character.isWhitespace(c))
                    continue;
                int hi = Character.digit(c, 16);
                int lo = i + 1 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
                if (hi < 0 || lo < 0)
                    throw badInput(BYTEA, s);
                out.write(hi * 16 + lo);
                i++;
            }
            return out.toByteArray();
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] in = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < in.length; i++) {
            if (in[i] != '\\') {
                out.write(in[i]);
            } else if (i + 1 < in.length && in[i + 1] == '\\') {
                out.write('\\');
                i++;
            } else if (i + 3 < in.length && isOctal(in[i + 1], '3') && isOctal(in[i + 2], '7')
                       && isOctal(in[i + 3], '7')) {
                out.write(((in[i + 1] - '0') << 6) | ((in[i + 2] - '0') << 3) | (in[i + 3] - '0'));
                i += 3;
            } else {
                throw badInput(BYTEA, s);
            }
        }
        return out.toByteArray();
    }

    private static boolean isOctal(byte c, char max) {
        return c >= '0' && c <= max;
    }
}
