package org.pgbloomfilter;

/**
 * A key that cannot be compared with a filter's key type: the server
 * refuses such a call with SQLSTATE 42804 (datatype_mismatch) rather than
 * answer "absent". Cast or convert the key to the filter's key type.
 */
public class KeyTypeMismatchException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public KeyTypeMismatchException(String message) {
        super(message);
    }
}
