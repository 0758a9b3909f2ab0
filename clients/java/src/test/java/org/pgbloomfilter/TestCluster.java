package org.pgbloomfilter;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL cluster for the tests: initdb in a temporary
 * directory (as user postgres when run as root), a Unix socket in it and a
 * TCP port on 127.0.0.1 for JDBC, stopped and removed at the end. The
 * server's bin directory is BLOOMFILTER_PG_BINDIR, else pg_config --bindir;
 * the extension must be installed there.
 *
 * <p>The port is one the system hands out for port 0; should another
 * process take it before the server binds it, the start fails and is
 * retried on another, so concurrent runs cannot meet. The programs run
 * without the libpq environment (PGHOST, PGPORT, PGDATA, PGSERVICE, ...),
 * and the JDBC URL names host, port, database and user, so nothing the
 * environment says reaches another server.
 *
 * <p>BLOOMFILTER_TEST_JDBC_URL opts in to a running server instead: the
 * tests then create a database of their own there (a random name with
 * {@link #DB_PREFIX}), work in it and drop it, and nothing else.
 */
final class TestCluster implements AutoCloseable {
    static final String DB_PREFIX = "pgbloomfilter_test_";
    private static final int START_ATTEMPTS = 5;

    private final Path dir;
    private final String bindir;
    private final boolean asRoot;
    private int port;
    String url;

    private TestCluster(Path dir, String bindir) {
        this.dir = dir;
        this.bindir = bindir;
        this.asRoot = "root".equals(System.getProperty("user.name"));
    }

    /* the environment of a server program: none of libpq's variables */
    private static ProcessBuilder withoutLibpqEnvironment(ProcessBuilder pb) {
        pb.environment().keySet().removeIf(k -> k.startsWith("PG") && !k.equals("PG_CONFIG"));
        return pb;
    }

    static String bindir() throws IOException, InterruptedException {
        String env = System.getenv("BLOOMFILTER_PG_BINDIR");
        if (env != null && !env.isEmpty())
            return env;
        String pgConfig = System.getenv().getOrDefault("PG_CONFIG", "pg_config");
        Process p = withoutLibpqEnvironment(new ProcessBuilder(pgConfig, "--bindir"))
            .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        if (p.waitFor() != 0)
            throw new IOException("pg_config --bindir failed: " + out);
        return out;
    }

    /* a port nothing listens on now (the server binds it a moment later) */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static TestCluster start() throws Exception {
        Path dir = Files.createTempDirectory("pgbloomfilter-java-");
        TestCluster c = new TestCluster(dir, bindir());
        if (c.asRoot)
            c.run(List.of("chown", "postgres:postgres", dir.toString()), false);
        c.run(List.of(c.bindir + "/initdb", "-D", dir + "/data", "-E", "UTF8", "--locale=C",
                      "-A", "trust", "-U", "postgres"), true);
        Runtime.getRuntime().addShutdownHook(new Thread(c::stopQuietly));
        for (int attempt = 1; ; attempt++) {
            c.port = freePort();
            try {
                c.run(List.of(c.bindir + "/pg_ctl", "-D", dir + "/data", "-l", dir + "/log", "-w",
                              "-o", "-k " + dir + " -p " + c.port + " -c listen_addresses=127.0.0.1"
                                    + " -c fsync=off -c shared_buffers=64MB",
                              "start"), true);
                break;
            } catch (IOException e) {
                /* the port was taken between the probe and the bind: another */
                if (attempt == START_ATTEMPTS)
                    throw e;
            }
        }
        c.url = "jdbc:postgresql://127.0.0.1:" + c.port + "/postgres?user=postgres";
        try (Connection conn = DriverManager.getConnection(c.url);
             Statement st = conn.createStatement()) {
            st.execute("CREATE EXTENSION bloomfilter");
        }
        return c;
    }

    /** A new database name for the tests on a server they were given. */
    static String newDatabaseName() {
        byte[] r = new byte[6];
        new SecureRandom().nextBytes(r);
        return DB_PREFIX + HexFormat.of().formatHex(r);
    }

    /**
     * The JDBC URL with its database replaced (both the
     * jdbc:postgresql://host:port/db?... and the jdbc:postgresql:db forms).
     */
    static String withDatabase(String url, String database) {
        String prefix = "jdbc:postgresql:";
        if (!url.startsWith(prefix))
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + url);
        String rest = url.substring(prefix.length());
        int q = rest.indexOf('?');
        String query = q < 0 ? "" : rest.substring(q);
        String path = q < 0 ? rest : rest.substring(0, q);
        if (path.startsWith("//")) {
            int slash = path.indexOf('/', 2);
            String authority = slash < 0 ? path : path.substring(0, slash);
            return prefix + authority + "/" + database + query;
        }
        return prefix + database + query;
    }

    /** Drop the tests' own database, waiting for its connections to go. */
    static void dropDatabase(String adminUrl, String database) throws SQLException, InterruptedException {
        if (!database.startsWith(DB_PREFIX))
            throw new IllegalArgumentException("not a database of the tests: " + database);
        try (Connection admin = DriverManager.getConnection(adminUrl);
             Statement st = admin.createStatement()) {
            for (int i = 0; ; i++) {
                try {
                    st.execute("DROP DATABASE IF EXISTS " + database);
                    return;
                } catch (SQLException e) {
                    /* 55006: a connection of ours has not gone yet */
                    if (!"55006".equals(e.getSQLState()) || i == 50)
                        throw e;
                    Thread.sleep(100);
                }
            }
        }
    }

    private void run(List<String> cmd, boolean asPostgres) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres && asRoot)
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        full.addAll(cmd);
        Process p = withoutLibpqEnvironment(new ProcessBuilder(full)).redirectErrorStream(true)
            .redirectOutput(new File(dir.toFile(), "cmd.log")).start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0)
            throw new IOException(String.join(" ", full) + " failed: "
                + Files.readString(dir.resolve("cmd.log")));
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    private synchronized void stopQuietly() {
        if (!Files.exists(dir))
            return;
        try {
            run(List.of(bindir + "/pg_ctl", "-D", dir + "/data", "-m", "fast", "-w", "stop"), true);
        } catch (Exception e) {
            /* removed below all the same */
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException e) {
            /* a temporary directory */
        }
    }

    @Override
    public void close() {
        stopQuietly();
    }
}
