package org.pgbloomfilter;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Text in a database's encoding. Filters of hash ids 1 and 2 hashed text
 * keys as the bytes of the database they were made in; hash id 5 hashes
 * UTF-8 in every database. PostgreSQL's server encodings by the name
 * {@code server_encoding} reports, each with the JDK charset whose bytes are
 * the server's (measured over every code point against PostgreSQL 15's
 * {@code convert_to}; {@code EncodingTest} repeats it for LATIN1 and
 * EUC_JP). SQL_ASCII text has no encoding and holds what clients sent:
 * UTF-8 from this one. An encoding without such a charset hashes ASCII,
 * which every server encoding shares, and refuses the rest.
 */
final class TextEncoding {
    static final TextEncoding UTF8 = new TextEncoding("UTF8", StandardCharsets.UTF_8, "");

    private static final Map<String, String> CHARSETS = new HashMap<>();
    private static final Map<String, String> ALIASES = new HashMap<>();
    /*
     * Characters the JDK's EUC-JP writes as bytes PostgreSQL does not:
     * U+2116 and U+FF5E it maps elsewhere, the others it refuses (and reads
     * the JDK's bytes as other characters: 0xA1C1 is U+FF5E there).
     */
    private static final String EUC_JP_REFUSED =
        "\u2116\uFF5E\u00A2\u00A3\u00A5\u00AC\u2014\u2016\u203E\u2212\u301C";

    static {
        String[][] table = {
            {"UTF8", "UTF-8"}, {"SQL_ASCII", "UTF-8"},
            {"LATIN1", "ISO-8859-1"}, {"LATIN2", "ISO-8859-2"}, {"LATIN3", "ISO-8859-3"},
            {"LATIN4", "ISO-8859-4"}, {"LATIN5", "ISO-8859-9"}, {"LATIN6", null},
            {"LATIN7", "ISO-8859-13"}, {"LATIN8", null}, {"LATIN9", "ISO-8859-15"},
            {"LATIN10", "ISO-8859-16"}, {"ISO_8859_5", "ISO-8859-5"}, {"ISO_8859_6", "ISO-8859-6"},
            {"ISO_8859_7", "ISO-8859-7"}, {"ISO_8859_8", "ISO-8859-8"}, {"WIN866", "IBM866"},
            {"WIN874", "x-windows-874"}, {"WIN1250", "windows-1250"}, {"WIN1251", "windows-1251"},
            {"WIN1252", "windows-1252"}, {"WIN1253", "windows-1253"}, {"WIN1254", "windows-1254"},
            {"WIN1255", "windows-1255"}, {"WIN1256", "windows-1256"}, {"WIN1257", "windows-1257"},
            {"WIN1258", "windows-1258"}, {"KOI8R", "KOI8-R"}, {"KOI8U", "KOI8-U"},
            {"EUC_JP", "EUC-JP"}, {"EUC_CN", "GB2312"}, {"EUC_KR", "EUC-KR"},
            {"EUC_JIS_2004", null}, {"EUC_TW", null}, {"MULE_INTERNAL", null},
        };
        for (String[] e : table) {
            CHARSETS.put(e[0], e[1]);
            ALIASES.put(e[0].replace("_", ""), e[0]);
        }
        String[][] more = {
            {"UNICODE", "UTF8"}, {"ISO88591", "LATIN1"}, {"ISO88592", "LATIN2"},
            {"ISO88593", "LATIN3"}, {"ISO88594", "LATIN4"}, {"ISO88599", "LATIN5"},
            {"ISO885910", "LATIN6"}, {"ISO885913", "LATIN7"}, {"ISO885914", "LATIN8"},
            {"ISO885915", "LATIN9"}, {"ISO885916", "LATIN10"}, {"KOI8", "KOI8R"},
        };
        for (String[] e : more)
            ALIASES.put(e[0], e[1]);
    }

    final String name;
    private final Charset charset;      /* null: ASCII only */
    private final String refused;

    private TextEncoding(String name, Charset charset, String refused) {
        this.name = name;
        this.charset = charset;
        this.refused = refused;
    }

    /**
     * A server encoding by the name {@code server_encoding} reports, or an
     * alias PostgreSQL takes ({@code latin1}, {@code ISO-8859-1},
     * {@code euc_jp}); null is UTF8.
     */
    static TextEncoding of(String name) {
        if (name == null)
            return UTF8;
        String key = name.replaceAll("[-_ ]", "").toUpperCase(Locale.ROOT);
        String pg = ALIASES.get(key);
        if (pg == null)
            throw new IllegalArgumentException("unknown database encoding " + name
                + ": give the name server_encoding reports (UTF8, LATIN1, EUC_JP, ...)");
        String cs = CHARSETS.get(pg);
        if ("UTF-8".equals(cs))
            return pg.equals("UTF8") ? UTF8 : new TextEncoding(pg, StandardCharsets.UTF_8, "");
        Charset charset = cs != null && Charset.isSupported(cs) ? Charset.forName(cs) : null;
        return new TextEncoding(pg, charset, pg.equals("EUC_JP") ? EUC_JP_REFUSED : "");
    }

    boolean isUtf8() {
        return charset == StandardCharsets.UTF_8;
    }

    /** The string's bytes in this encoding, or UnencodableKeyException. */
    byte[] encode(String s) {
        if (charset == StandardCharsets.UTF_8)
            return s.getBytes(StandardCharsets.UTF_8);
        boolean ascii = true;
        for (int i = 0; i < s.length() && ascii; i++)
            ascii = s.charAt(i) < 0x80;
        if (ascii)
            return s.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80 && (charset == null || refused.indexOf(c) >= 0))
                throw unencodable(s.codePointAt(i));
        }
        CharsetEncoder enc = charset.newEncoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            ByteBuffer b = enc.encode(CharBuffer.wrap(s));
            return Arrays.copyOfRange(b.array(), b.arrayOffset() + b.position(),
                                      b.arrayOffset() + b.limit());
        } catch (CharacterCodingException e) {
            for (int i = 0; i < s.length(); i = s.offsetByCodePoints(i, 1)) {
                int cp = s.codePointAt(i);
                if (!enc.reset().canEncode(new String(Character.toChars(cp))))
                    throw unencodable(cp);
            }
            throw unencodable(s.codePointAt(0));
        }
    }

    private UnencodableKeyException unencodable(int cp) {
        return new UnencodableKeyException(String.format(
            "character U+%04X has no equivalent in encoding %s, the encoding this filter's"
            + " text keys were hashed in (hash id 2, made by bloomfilter 1.4 or earlier)%s",
            cp, name, charset == null ? ": this client has no charset for it and hashes ASCII text only" : ""));
    }

    /* namein's clip of a string to 63 bytes of this encoding, at a character boundary */
    String clipName(String s) {
        if (encode(s).length <= 63)
            return s;
        int n = 0;
        for (int i = 0; i < s.length(); i = s.offsetByCodePoints(i, 1)) {
            int cp = s.codePointAt(i);
            n += encode(new String(Character.toChars(cp))).length;
            if (n > 63)
                return s.substring(0, i);
        }
        return s;
    }
}
