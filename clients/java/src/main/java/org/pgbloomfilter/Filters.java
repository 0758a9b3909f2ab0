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
        return fromBytes(bytes, null);
    }

    /**
     * As {@link #fromBytes(byte[])}, for a value made in a database of this
     * {@code server_encoding} (null: UTF8). A filter of hash id 2 (made by
     * bloomfilter 1.4 or earlier) made in a database that is not UTF8 needs
     * its encoding: its text keys were hashed as that encoding's bytes.
     */
    public static Filter fromBytes(byte[] bytes, String serverEncoding) {
        if (bytes.length >= 4 && Bytes.load32(bytes, 0) == CuckooFilter.MAGIC)
            return CuckooFilter.fromBytes(bytes, serverEncoding);
        return BloomFilter.fromBytes(bytes, serverEncoding);
    }

    /** The text form of either type. */
    public static Filter fromBase64(String text) {
        return fromBytes(decodeBase64(text));
    }

    public static Filter fromBase64(String text, String serverEncoding) {
        return fromBytes(decodeBase64(text), serverEncoding);
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
        return fromObject(value, null);
    }

    /** As {@link #fromObject(Object)}, made in a database of this {@code server_encoding}. */
    public static Filter fromObject(Object value, String serverEncoding) {
        if (value == null)
            return null;
        if (value instanceof Filter)
            return (Filter) value;
        if (value instanceof byte[])
            return fromBytes((byte[]) value, serverEncoding);
        if (value instanceof String)
            return fromBase64((String) value, serverEncoding);
        String text = pgObjectValue(value);
        return text == null ? null : fromBase64(text, serverEncoding);
    }

    /**
     * Column {@code column} (1-based) of the current row; null for SQL NULL.
     * The value is read as made in the database of the result set's
     * connection ({@link #serverEncoding}), which filters of hash id 2 hash
     * text in.
     */
    public static Filter fromResultSet(ResultSet rs, int column) throws SQLException {
        return fromObject(rs.getObject(column), serverEncoding(rs));
    }

    public static Filter fromResultSet(ResultSet rs, String column) throws SQLException {
        return fromObject(rs.getObject(column), serverEncoding(rs));
    }

    private static String serverEncoding(ResultSet rs) throws SQLException {
        java.sql.Statement st = rs.getStatement();
        return st == null ? null : serverEncoding(st.getConnection());
    }

    /**
     * The connection's database encoding: the {@code server_encoding} the
     * server reported at connection (through the PostgreSQL driver's
     * {@code PGConnection.getParameterStatus}), else asked for with
     * {@code SHOW server_encoding}.
     */
    public static String serverEncoding(java.sql.Connection conn) throws SQLException {
        if (conn == null)
            return null;
        try {
            Class<?> pg = Class.forName("org.postgresql.PGConnection", false,
                                        conn.getClass().getClassLoader());
            if (conn.isWrapperFor(pg)) {
                Object v = pg.getMethod("getParameterStatus", String.class)
                    .invoke(conn.unwrap(pg), "server_encoding");
                if (v != null)
                    return (String) v;
            }
        } catch (ReflectiveOperationException e) {
            /* another driver, or an older one: ask */
        }
        try (java.sql.Statement st = conn.createStatement();
             ResultSet r = st.executeQuery("SHOW server_encoding")) {
            return r.next() ? r.getString(1) : null;
        }
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
