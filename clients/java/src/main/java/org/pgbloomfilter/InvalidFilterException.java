package org.pgbloomfilter;

/**
 * The bytes are not a filter value the server would accept (the server's
 * 22P03); the message says which check failed.
 */
public class InvalidFilterException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidFilterException(String message) {
        super(message);
    }
}
