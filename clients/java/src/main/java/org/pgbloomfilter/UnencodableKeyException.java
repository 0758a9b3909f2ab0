package org.pgbloomfilter;

/**
 * A String the encoding a filter's text keys were hashed in cannot hold: a
 * filter of hash id 2 (made by bloomfilter 1.4 or earlier) hashed text as
 * the bytes of its database's encoding, and such a key could only be hashed
 * as other bytes, answering a silent "absent". The server, in such a
 * database, refuses the literal too (22021 or 22P05).
 */
public class UnencodableKeyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UnencodableKeyException(String message) {
        super(message);
    }
}
