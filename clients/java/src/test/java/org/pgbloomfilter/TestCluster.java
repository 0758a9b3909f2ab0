package org.pgbloomfilter;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL cluster for the tests: initdb in a temporary
 * directory (as user postgres when run as root), a Unix socket in it and a
 * TCP port on 127.0.0.1 for JDBC, stopped and removed at the end. The
 * server's bin directory is BLOOMFILTER_PG_BINDIR, else pg_config --bindir;
 * the extension must be installed there. BLOOMFILTER_TEST_JDBC_URL uses a
 * running server instead.
 */
final class TestCluster implements AutoCloseable {
    private final Path dir;
    private final String bindir;
    private final boolean asRoot;
    private final int port;
    final String url;

    private TestCluster(Path dir, String bindir, int port) {
        this.dir = dir;
        this.bindir = bindir;
        this.port = port;
        this.asRoot = "root".equals(System.getProperty("user.name"));
        this.url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    static String bindir() throws IOException, InterruptedException {
        String env = System.getenv("BLOOMFILTER_PG_BINDIR");
        if (env != null && !env.isEmpty())
            return env;
        Process p = new ProcessBuilder("pg_config", "--bindir").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        if (p.waitFor() != 0)
            throw new IOException("pg_config --bindir failed: " + out);
        return out;
    }

    static TestCluster start() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path dir = Files.createTempDirectory("pgbloomfilter-java-");
        TestCluster c = new TestCluster(dir, bindir(), port);
        if (c.asRoot)
            c.run(List.of("chown", "postgres:postgres", dir.toString()), false);
        c.run(List.of(c.bindir + "/initdb", "-D", dir + "/data", "-E", "UTF8", "--locale=C",
                      "-A", "trust", "-U", "postgres"), true);
        c.run(List.of(c.bindir + "/pg_ctl", "-D", dir + "/data", "-l", dir + "/log", "-w",
                      "-o", "-k " + dir + " -p " + port + " -c listen_addresses=127.0.0.1"
                            + " -c fsync=off -c shared_buffers=64MB",
                      "start"), true);
        Runtime.getRuntime().addShutdownHook(new Thread(c::stopQuietly));
        try (Connection conn = DriverManager.getConnection(c.url);
             Statement st = conn.createStatement()) {
            st.execute("CREATE EXTENSION bloomfilter");
        }
        return c;
    }

    private void run(List<String> cmd, boolean asPostgres) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres && asRoot)
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        full.addAll(cmd);
        Process p = new ProcessBuilder(full).redirectErrorStream(true)
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
