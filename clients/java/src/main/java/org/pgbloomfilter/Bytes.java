package org.pgbloomfilter;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian access to a value's bytes, and the 128-bit products. */
final class Bytes {
    private static final VarHandle LONG_LE =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE =
        MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private Bytes() {
    }

    static long load64(byte[] b, int off) {
        return (long) LONG_LE.get(b, off);
    }

    static void store64(byte[] b, int off, long v) {
        LONG_LE.set(b, off, v);
    }

    static int load32(byte[] b, int off) {
        return (int) INT_LE.get(b, off);
    }

    static void store32(byte[] b, int off, int v) {
        INT_LE.set(b, off, v);
    }

    static int load16(byte[] b, int off) {
        return (b[off] & 0xFF) | ((b[off + 1] & 0xFF) << 8);
    }

    static void store16(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
    }

    /**
     * High 64 bits of the unsigned 128-bit product x * n: the block of an
     * element, the bucket of a fingerprint, the shard of a key.
     */
    static long mulHigh(long x, long n) {
        return Math.multiplyHigh(x, n) + ((x >> 63) & n) + ((n >> 63) & x);
    }
}
