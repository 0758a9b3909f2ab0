package org.pgbloomfilter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The server's key-type vectors (test/vectors/keys.json, written from the
 * key-type table src/core/keytypes.c by sql/key_types.sql): this client's
 * key types and row codes are the server's, and for each key type the table
 * says this client reads, a String key gives the server's canonical bytes
 * and hash under hash id 2; a String of another key type is refused.
 * The file has one key type or one vector a line, every field but "text"
 * a number, a boolean, a list or a string without escapes, so a line is
 * read here without a JSON library.
 */
class VectorsTest {
    static final Path FILE = Path.of(System.getProperty("pgbloomfilter.vectors",
        "../../test/vectors/keys.json"));

    static final Pattern FIELD = Pattern.compile("\"(\\w+)\": (\"[^\"\\\\]*\"|\\[[^\\]]*\\]|[^,}\\]]+)");

    static Map<String, String> fields(String line) {
        Map<String, String> f = new HashMap<>();
        Matcher m = FIELD.matcher(line);
        while (m.find()) {
            if (m.group(1).equals("text"))
                break;              /* the last field, the one with escapes */
            String v = m.group(2);
            f.put(m.group(1), v.startsWith("\"") ? v.substring(1, v.length() - 1) : v);
        }
        return f;
    }

    static List<Integer> ints(String list) {
        List<Integer> out = new ArrayList<>();
        for (String s : list.replaceAll("[\\[\\]\\s]", "").split(","))
            if (!s.isEmpty())
                out.add(Integer.parseInt(s));
        return out;
    }

    static byte[] hex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++)
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return b;
    }

    static List<String> lines() throws IOException {
        return Files.readAllLines(FILE, StandardCharsets.UTF_8);
    }

    @Test
    void keyTypesAndRowCodesAreTheServers() throws IOException {
        Set<Integer> valid = new HashSet<>();
        List<Integer> codes = null;
        for (String line : lines()) {
            if (line.startsWith("\"valid\": "))
                valid.addAll(ints(line.substring(9)));
            else if (line.startsWith("\"row_codes\": "))
                codes = ints(line.substring(13));
        }
        assertFalse(valid.isEmpty());
        for (int oid = 1; oid < 10000; oid++)
            assertEquals(valid.contains(oid), KeyTypes.valid(oid), "key type " + oid);
        assertEquals(codes.size() - 1, KeyTypes.ROW_CODES);
    }

    @Test
    void vectorsOfTheKeyTypesThisClientReads() throws IOException {
        Set<Integer> read = new HashSet<>();
        int checked = 0;
        int refused = 0;
        for (String line : lines()) {
            if (line.startsWith("{\"oid\": ")) {
                Map<String, String> kt = fields(line);
                if (kt.get("clients").contains("\"java\""))
                    read.add(Integer.parseInt(kt.get("oid")));
                continue;
            }
            if (!line.startsWith("{\"key_type\": "))
                continue;
            Map<String, String> v = fields(line);
            if (Integer.parseInt(v.get("hash_id")) != 2)
                continue;
            int keyType = Integer.parseInt(v.get("key_type"));
            String text = new String(hex(v.get("text_hex")), StandardCharsets.UTF_8);
            String what = "key type " + keyType + ": " + text;
            if (!read.contains(keyType)) {
                assertThrows(RuntimeException.class, () -> KeyTypes.stringBytes(text, keyType), what);
                refused++;
                continue;
            }
            byte[] bytes = KeyTypes.stringBytes(text, keyType);
            assertArrayEquals(hex(v.get("bytes")), bytes, what);
            long[] h = Murmur3.hash128(bytes, 0);
            assertEquals(v.get("h1"), String.format("%016x", h[0]), what);
            assertEquals(v.get("h2"), String.format("%016x", h[1]), what);
            checked++;
        }
        assertFalse(read.isEmpty());
        assertTrue(checked >= 2 * read.size(), checked + " vectors for " + read.size() + " key types");
        assertTrue(refused > 0);
    }
}
