/*
 * OracleHarness: the Java client's answers for a batch of the equality
 * oracle's cases (test/oracle/oracle.py).
 *
 *   java -cp <client classes>:<this> OracleHarness FILTERS CASES
 *
 * FILTERS holds one filter a line, the base64 of its binary form.  CASES
 * holds one case a line, tab-separated: case id, filter line number (from
 * 0), operation ("contains", "count" or "shard"), key kind ("L" long, "S"
 * String, "U" UUID, "B" byte[]) and the key (a decimal long, the base64 of
 * a String's UTF-8 bytes, a UUID's text, the base64 of the bytes).  Each
 * answer goes to standard output as "id<TAB>answer": true or false, a
 * count, a shard, or "ERR <exception class>: <message>".
 */

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import org.pgbloomfilter.Filter;
import org.pgbloomfilter.Filters;
import org.pgbloomfilter.Shards;

public final class OracleHarness {
    private static final int SHARDS = 65536;

    private OracleHarness() {
    }

    private static Object key(String kind, String text) {
        switch (kind) {
            case "L":
                return Long.parseLong(text);
            case "S":
                return new String(Base64.getDecoder().decode(text), StandardCharsets.UTF_8);
            case "U":
                return UUID.fromString(text);
            case "B":
                return Base64.getDecoder().decode(text);
            default:
                throw new IllegalStateException("unknown key kind " + kind);
        }
    }

    private static String contains(Filter f, Object k) {
        if (k instanceof Long) {
            return Boolean.toString(f.mightContain((long) (Long) k));
        } else if (k instanceof String) {
            return Boolean.toString(f.mightContain((String) k));
        } else if (k instanceof UUID) {
            return Boolean.toString(f.mightContain((UUID) k));
        }
        return Boolean.toString(f.mightContain((byte[]) k));
    }

    private static String count(Filter f, Object k) {
        if (k instanceof Long) {
            return Long.toString(f.count((long) (Long) k));
        } else if (k instanceof String) {
            return Long.toString(f.count((String) k));
        } else if (k instanceof UUID) {
            return Long.toString(f.count((UUID) k));
        }
        return Long.toString(f.count((byte[]) k));
    }

    private static String shard(Object k) {
        if (k instanceof Long) {
            return Integer.toString(Shards.shard((long) (Long) k, SHARDS));
        } else if (k instanceof String) {
            /* bf_shard hashes text in the database's encoding */
            return Integer.toString(Shards.shard((String) k, SHARDS,
                                                 System.getProperty("bf.server_encoding", "UTF8")));
        } else if (k instanceof UUID) {
            return Integer.toString(Shards.shard((UUID) k, SHARDS));
        }
        return Integer.toString(Shards.shard((byte[]) k, SHARDS));
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        return "ERR " + e.getClass().getSimpleName() + ": " + m.replace('\t', ' ').replace('\n', ' ');
    }

    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.US_ASCII);
        Filter[] filters = new Filter[lines.size()];
        String[] loadErrors = new String[lines.size()];
        for (int i = 0; i < filters.length; i++) {
            try {
                filters[i] = Filters.fromBase64(lines.get(i), System.getProperty("bf.server_encoding", "UTF8"));
            } catch (RuntimeException e) {
                loadErrors[i] = oneLine(e);
            }
        }
        try (BufferedReader in = Files.newBufferedReader(Path.of(args[1]), StandardCharsets.US_ASCII);
             PrintWriter out = new PrintWriter(new BufferedWriter(
                     new OutputStreamWriter(System.out, StandardCharsets.UTF_8)))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split("\t", -1);
                String answer;
                try {
                    Object k = key(f[3], f[4]);
                    if (f[2].equals("shard")) {
                        answer = shard(k);
                    } else {
                        int n = Integer.parseInt(f[1]);
                        if (filters[n] == null) {
                            answer = loadErrors[n];
                        } else if (f[2].equals("count")) {
                            answer = count(filters[n], k);
                        } else {
                            answer = contains(filters[n], k);
                        }
                    }
                } catch (RuntimeException e) {
                    answer = oneLine(e);
                }
                out.println(f[0] + "\t" + answer);
            }
        }
    }
}
