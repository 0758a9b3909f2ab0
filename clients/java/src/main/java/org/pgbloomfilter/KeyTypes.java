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
 * filter is read as the number); where the server has no conversion (42804)
 * the call throws {@link KeyTypeMismatchException}, never answers "absent",
 * and where the key type's input function refuses a String (22P02, 22003)
 * it throws {@link IllegalArgumentException}. Each Java type stands for its
 * natural SQL type: long for int8, String for text (UTF-8: a UTF8 database),
 * UUID for uuid, byte[] for bytea; the first key added to an untyped empty
 * filter records that type, as the server's adds do.
 */
public final class KeyTypes {
    public static final int UNTYPED = 0;
    public static final int BOOL = 16;
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
    static final int LONG_FLOAT8 = 1;
    static final int LONG_REFUSED = 2;

    /*
     * The key types a filter may record: the OIDs the server's key-type
     * rules give for a type filters hash (bloom_key_types[] in
     * src/bloom_core.c, the same list, sorted). A value recording another
     * is refused, as the server's input refuses it.
     */
    private static final int[] VALID = {
        16, 17, 18, 19, 20, 21, 23, 25, 26, 650, 651, 700, 701, 774, 775, 790,
        791, 829, 869, 1000, 1001, 1002, 1003, 1005, 1006, 1007, 1009, 1013, 1014,
        1015, 1016, 1021, 1022, 1028, 1040, 1041, 1042, 1043, 1082, 1083, 1114,
        1115, 1182, 1183, 1184, 1185, 1186, 1187, 1231, 1266, 1270, 1560, 1561,
        1562, 1563, 1700, 2249, 2287, 2950, 2951, 3220, 3221,
    };

    private KeyTypes() {
    }

    /** The SQL name of a key type, for messages. */
    public static String name(int oid) {
        switch (oid) {
            case UNTYPED: return "untyped";
            case BOOL: return "boolean";
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
            default:
                if (oid < 0 && rowSignatureColumns(oid) > 0)
                    return "record (row signature " + Integer.toUnsignedString(oid) + ")";
                return "type OID " + Integer.toUnsignedString(oid);
        }
    }

    static final int OID = 26;
    static final int RECORD = 2249;

    /*
     * A key this client does not convert though the server would: a String
     * for a key type whose input function is not ported here (date, inet,
     * ...), a long for oid keys.
     */
    static IllegalArgumentException unsupported(String javaType, int oid) {
        return new IllegalArgumentException("this client does not convert a Java " + javaType
            + " to keys of type " + name(oid) + " (OID " + Integer.toUnsignedString(oid)
            + "), which the server does: convert the key on the server or use the Python client");
    }

    static KeyTypeMismatchException refused(String javaType, int oid) {
        return new KeyTypeMismatchException("a Java " + javaType
            + " cannot be compared with keys of type " + name(oid)
            + " (OID " + Integer.toUnsignedString(oid) + "); the server refuses such a probe too");
    }

    /*
     * A long is sent as int8.  Against integer keys (of any width) and
     * numeric keys it hashes as it is: their canonical bytes agree for
     * equal values, and an int8 beyond an int4 filter's range is simply
     * absent.  Against float keys the server converts it to float8 (for a
     * real filter too: SQL compares int8 with float4 as float8).
     */
    static int longMode(int oid) {
        switch (oid) {
            case UNTYPED:
            case INT8:
            case INT4:
            case INT2:
            case NUMERIC:       /* a whole numeric within int8 hashes as the int8 */
                return LONG_INT8;
            case FLOAT8:
            case FLOAT4:
                return LONG_FLOAT8;
            default:
                return LONG_REFUSED;
        }
    }

    /** The 8 bytes, as a little-endian word, a long hashes as. */
    static long longWord(int mode, int oid, long key) {
        switch (mode) {
            case LONG_INT8:
                return key;
            case LONG_FLOAT8:
                return doubleWord((double) key);
            default:
                throw oid == OID ? unsupported("long", oid) : refused("long", oid);
        }
    }

    /** Whether a filter may record this key type: 0 or the OID of a type filters hash. */
    public static boolean valid(int oid) {
        if (oid < 0)
            return rowSignatureColumns(oid) > 0;
        return oid == UNTYPED || java.util.Arrays.binarySearch(VALID, oid) >= 0;
    }

    /*
     * A row signature (docs/format.md): the high bit set, then up to six
     * five-bit codes of column types, the first 0 ending the list.  This
     * client reads such values and refuses their keys (rows are not
     * converted here); the number of columns, or -1 if malformed.
     */
    static final int ROW_CODES = 29;

    static int rowSignatureColumns(int key) {
        int rest = key & 0x7FFFFFFF;
        int n = 0;
        while (n < 6 && (rest & 31) != 0) {
            if ((rest & 31) > ROW_CODES)
                return -1;
            rest >>>= 5;
            n++;
        }
        return rest == 0 && n > 0 ? n : -1;
    }

    /** A key type given at creation: 0 (untyped) or the OID of a type filters hash. */
    static int checkGiven(int oid) {
        if (!valid(oid))
            throw new IllegalArgumentException("key type must be 0 (untyped) or the OID of a"
                + " built-in type filters hash, got " + Integer.toUnsignedString(oid));
        return oid;
    }

    private static boolean isInteger(int oid) {
        return oid == INT2 || oid == INT4 || oid == INT8;
    }

    /**
     * The key type {@code withKeyType} gives (the server's bf_set_key_type):
     * any to an untyped filter; a typed one only among smallint, integer
     * and bigint, whose keys hash alike.
     */
    static int reset(int current, int oid) {
        checkGiven(oid);
        if (current == UNTYPED || current == oid || (isInteger(current) && isInteger(oid)))
            return oid;
        throw new IllegalArgumentException("cannot change the key type of a filter from "
            + name(current) + " to " + name(oid) + ": its keys were hashed as " + name(current)
            + "; only smallint, integer and bigint keys hash alike (rebuild the filter)");
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

    /** Canonical bytes of a String key for a filter of key type oid (UTF8). */
    static byte[] stringBytes(String key, int oid) {
        return stringBytes(key, oid, TextEncoding.UTF8, TextEncoding.UTF8);
    }

    /**
     * Canonical bytes of a String key for a filter of key type oid that
     * hashes text as {@code text}'s bytes, made in a database of encoding
     * {@code db} (what name input clips and bytea input reads).
     */
    static byte[] stringBytes(String key, int oid, TextEncoding text, TextEncoding db) {
        switch (oid) {
            case UNTYPED:
            case TEXT:
            case VARCHAR:
                /* the server hashes a string as it is against these */
                return text.encode(key);
            case NAME:
                /* read as a name, as SQL reads an untyped string: 63 bytes at most */
                return text.encode(db.clipName(key));
            case BPCHAR:
                /*
                 * char(n) keys lost their trailing blanks, and SQL compares
                 * char(n) with an untyped string or a varchar ignoring them:
                 * the server strips a string probe's, and so does this.
                 */
                return text.encode(stripTrailingBlanks(key));
            case INT8:
                return le8(parseInteger(key, Long.MIN_VALUE, Long.MAX_VALUE, oid));
            case INT4:
                return le8(parseInteger(key, Integer.MIN_VALUE, Integer.MAX_VALUE, oid));
            case INT2:
                return le8(parseInteger(key, Short.MIN_VALUE, Short.MAX_VALUE, oid));
            case FLOAT8:
                return le8(doubleWord(parseFloat(key, oid)));
            case FLOAT4:
                return le8(doubleWord(parseFloat4(key)));
            case BOOL:
                return new byte[] {(byte) (parseBool(key) ? 1 : 0)};
            case NUMERIC:
                return numericBytes(key);
            case UUID_OID:
                return uuidBytes(parseUuid(key));
            case BYTEA:
                return parseBytea(key, db);
            case RECORD:
                throw refused("String", oid);  /* anonymous records have no text input */
            default:
                throw unsupported("String", oid);
        }
    }

    /* namein's clip to NAMEDATALEN - 1 bytes, at a UTF-8 character boundary */
    static byte[] clipName(byte[] b) {
        int n = Math.min(b.length, 63);
        while (n < b.length && n > 0 && (b[n] & 0xC0) == 0x80)
            n--;
        return n == b.length ? b : java.util.Arrays.copyOf(b, n);
    }

    static String stripTrailingBlanks(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ')
            end--;
        return s.substring(0, end);
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
            case "nan": case "+nan": case "-nan": return Double.NaN;
            case "infinity": case "+infinity": case "inf": case "+inf":
                return Double.POSITIVE_INFINITY;
            case "-infinity": case "-inf":
                return Double.NEGATIVE_INFINITY;
            default:
                break;
        }
        double d;
        if (isHexFloat(t))      /* strtod reads hexadecimal floats too */
            d = Double.parseDouble(hexWithExponent(t));
        else if (t.matches("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?"))
            d = Double.parseDouble(t);
        else
            throw badInput(oid, s);
        if (Double.isInfinite(d) || (d == 0.0 && nonzeroDigits(t)))
            throw outOfRange(oid, s);
        return d;
    }

    private static boolean isHexFloat(String t) {
        return t.matches("[+-]?0[xX]([0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)([pP][+-]?[0-9]+)?");
    }

    /* Java's hexadecimal form needs the binary exponent that strtod takes as optional */
    private static String hexWithExponent(String t) {
        return t.indexOf('p') < 0 && t.indexOf('P') < 0 ? t + "p0" : t;
    }

    /*
     * float4in: the decimal rounded once to float (not through a double),
     * and an overflow or an underflow to zero is an error.
     */
    private static double parseFloat4(String s) {
        double d = parseFloat(s, FLOAT4);
        if (Double.isNaN(d) || Double.isInfinite(d))
            return d;
        String t = s.strip();
        float f = Float.parseFloat(isHexFloat(t) ? hexWithExponent(t) : t);
        if (Float.isInfinite(f) || (f == 0.0f && d != 0.0))
            throw outOfRange(FLOAT4, s);
        return f;
    }

    private static boolean nonzeroDigits(String t) {
        String l = t.toLowerCase(java.util.Locale.ROOT);
        boolean hex = isHexFloat(t);
        String mantissa = hex ? l.substring(l.indexOf('x') + 1).split("p")[0] : l.split("e")[0];
        for (int i = 0; i < mantissa.length(); i++)
            if (Character.digit(mantissa.charAt(i), hex ? 16 : 10) > 0)
                return true;
        return false;
    }

    private static IllegalArgumentException outOfRange(int oid, String s) {
        return new IllegalArgumentException("\"" + s + "\" is out of range for type " + name(oid));
    }

    /*
     * boolin: blanks around; t, true, y, yes, on, 1, f, false, n, no, off,
     * 0, and any prefix of true, false, yes or no, or of on and off from
     * two letters, case-insensitive.
     */
    static boolean parseBool(String s) {
        String t = s.strip().toLowerCase(java.util.Locale.ROOT);
        if (t.equals("1"))
            return true;
        if (t.equals("0"))
            return false;
        if (t.length() >= 2 && "on".startsWith(t))
            return true;
        if (t.length() >= 2 && "off".startsWith(t))
            return false;
        if (!t.isEmpty() && ("true".startsWith(t) || "yes".startsWith(t)))
            return true;
        if (!t.isEmpty() && ("false".startsWith(t) || "no".startsWith(t)))
            return false;
        throw badInput(BOOL, s);
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
    static byte[] parseBytea(String s, TextEncoding db) {
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
        byte[] in = db.encode(s);               /* byteain reads the database's bytes */
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
