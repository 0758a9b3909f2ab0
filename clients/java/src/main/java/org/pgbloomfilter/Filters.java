package org.pgbloomfilter;

import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Base64;

/**
 * Loading filters of any kind, and the JDBC helpers.
 *
 * <p>With the PostgreSQL JDBC driver a {@code bloomfilter} or
 * {@code cuckoofilter} column arrives as a {@code PGobject} holding the text
 * form (base64); {@code f::bytea} arrives as {@code byte[]}. Both load here.
 * The driver is not a dependency: {@code PGobject} is read and made through
 * reflection.
 */
public final class Filters {
    private Filters() {
    }

    /** A bloomfilter or cuckoofilter value, told apart by its magic number. */
    public static Filter fromBytes(byte[] bytes) {
        if (bytes.length >= 4 && Bytes.load32(bytes, 0) == CuckooFilter.MAGIC)
            return CuckooFilter.fromBytes(bytes);
        return BloomFilter.fromBytes(bytes);
    }

    /** The text form of either type. */
    public static Filter fromBase64(String text) {
        return fromBytes(decodeBase64(text));
    }

    static byte[] decodeBase64(String text) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidFilterException("invalid filter text: not base64 (" + e.getMessage() + ")");
        }
    }

    /**
     * A column value as {@code ResultSet.getObject} returns it: a
     * {@code PGobject} of type bloomfilter or cuckoofilter, {@code byte[]}
     * (a {@code ::bytea} column) or a base64 {@code String}; null for SQL NULL.
     */
    public static Filter fromObject(Object value) {
        if (value == null)
            return null;
        if (value instanceof Filter)
            return (Filter) value;
        if (value instanceof byte[])
            return fromBytes((byte[]) value);
        if (value instanceof String)
            return fromBase64((String) value);
        String text = pgObjectValue(value);
        return text == null ? null : fromBase64(text);
    }

    /** Column {@code column} (1-based) of the current row; null for SQL NULL. */
    public static Filter fromResultSet(ResultSet rs, int column) throws SQLException {
        return fromObject(rs.getObject(column));
    }

    public static Filter fromResultSet(ResultSet rs, String column) throws SQLException {
        return fromObject(rs.getObject(column));
    }

    /** As {@link #fromResultSet(ResultSet, int)}, for a bloomfilter column. */
    public static BloomFilter bloomFromResultSet(ResultSet rs, int column) throws SQLException {
        Filter f = fromResultSet(rs, column);
        if (f != null && !(f instanceof BloomFilter))
            throw new InvalidFilterException("column " + column + " holds a cuckoofilter, not a bloomfilter");
        return (BloomFilter) f;
    }

    public static CuckooFilter cuckooFromResultSet(ResultSet rs, int column) throws SQLException {
        Filter f = fromResultSet(rs, column);
        if (f != null && !(f instanceof CuckooFilter))
            throw new InvalidFilterException("column " + column + " holds a bloomfilter, not a cuckoofilter");
        return (CuckooFilter) f;
    }

    private static String pgObjectValue(Object value) {
        try {
            Method getType = value.getClass().getMethod("getType");
            Method getValue = value.getClass().getMethod("getValue");
            Object type = getType.invoke(value);
            if (!"bloomfilter".equals(type) && !"cuckoofilter".equals(type) && !"bytea".equals(type))
                throw new InvalidFilterException("a column of type " + type + " is not a filter");
            return (String) getValue.invoke(value);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("cannot read a filter from a "
                + value.getClass().getName(), e);
        }
    }

    /**
     * A {@code PGobject} of the filter's type for {@code setObject}, made
     * with the driver's class loader; no cast is needed in the statement.
     */
    public static Object toPGobject(Filter filter) throws SQLException {
        try {
            Class<?> cls = Class.forName("org.postgresql.util.PGobject");
            Object o = cls.getConstructor().newInstance();
            cls.getMethod("setType", String.class).invoke(o,
                filter instanceof CuckooFilter ? "cuckoofilter" : "bloomfilter");
            cls.getMethod("setValue", String.class).invoke(o, filter.toBase64());
            return o;
        } catch (ReflectiveOperationException e) {
            throw new SQLException("the PostgreSQL JDBC driver (org.postgresql.util.PGobject) is not available", e);
        }
    }
}
