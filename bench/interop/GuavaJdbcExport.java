/*
 * GuavaJdbcExport: the rounds of bench/interop_guava.sh, run from one JVM
 * that stays up, as a Java service that reads filters out of PostgreSQL
 * would: the build (bf_agg, timed in the server) interleaved with the export
 * (SELECT bf_to_guava(f) over JDBC, fetched as bytes, BloomFilter.readFrom,
 * 1,000 mightContain checks of members), the latter twice, once with the
 * driver's text transfer (bytea as hex) and once with its binary transfer.
 * Both statements are prepared once and executed past the driver's
 * prepareThreshold (5) before the clock starts, so the binary one is a
 * server-side prepared statement fetched in binary, and the JIT has
 * compiled readFrom's loop.
 *
 * Arguments: JDBC URL (user and database in it), N, rounds, warm-up
 * executions, and a shell command to time once a round as well (the old
 * export: psql's COPY piped into a fresh JVM), or "" for none.  Prints one
 * "name ms" line per measure per round; the script takes the best of each.
 */

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

import org.postgresql.PGStatement;

public final class GuavaJdbcExport {
	private static final String EXPORT = "SELECT bf_to_guava(f) FROM fg WHERE id = 1";
	private static final int MEMBERS = 1000;

	private GuavaJdbcExport() {
	}

	/* one timed export: fetch, readFrom, checks; times in ms into t[0..2] */
	private static BloomFilter<Long> export(PreparedStatement ps, double[] t) throws SQLException, IOException {
		long t0 = System.nanoTime();
		byte[] bytes;
		try (ResultSet rs = ps.executeQuery()) {
			if (!rs.next())
				throw new SQLException("the export returned no row");
			bytes = rs.getBytes(1);
		}
		long t1 = System.nanoTime();
		BloomFilter<Long> f = BloomFilter.readFrom(new ByteArrayInputStream(bytes), Funnels.longFunnel());
		long t2 = System.nanoTime();
		int hits = 0;
		for (long k = 1; k <= MEMBERS; k++)
			hits += f.mightContain(k) ? 1 : 0;
		long t3 = System.nanoTime();
		if (hits != MEMBERS)
			throw new IllegalStateException("readFrom's filter misses members (" + hits + " of " + MEMBERS + ")");
		t[0] = (t1 - t0) / 1e6;
		t[1] = (t2 - t1) / 1e6;
		t[2] = (t3 - t0) / 1e6;
		return f;
	}

	private static double serverMs(Statement st, String query) throws SQLException {
		try (ResultSet rs = st.executeQuery("SELECT ms('" + query.replace("'", "''") + "')")) {
			rs.next();
			return rs.getDouble(1);
		}
	}

	private static double shellMs(String command) throws IOException, InterruptedException {
		long t0 = System.nanoTime();
		Process p = new ProcessBuilder("bash", "-c", command)
			.redirectError(ProcessBuilder.Redirect.INHERIT).start();
		String out;
		try (InputStream in = p.getInputStream()) {
			out = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
		}
		int rc = p.waitFor();
		long t1 = System.nanoTime();
		String[] f = out.split(" ");
		if (rc != 0 || f.length != 3 || !f[2].equals(Integer.toString(MEMBERS)))
			throw new IllegalStateException("the piped export failed (exit " + rc + ", output \"" + out + "\")");
		return (t1 - t0) / 1e6;
	}

	private static void print(String name, double ms) {
		System.out.printf(Locale.ROOT, "%s %.1f%n", name, ms);
	}

	public static void main(String[] args) throws Exception {
		String url = args[0];
		long n = Long.parseLong(args[1]);
		int rounds = Integer.parseInt(args[2]);
		int warm = Integer.parseInt(args[3]);
		String pipeline = args[4];
		String build = "SELECT bf_agg(id, bf_create(" + n + ", 0.01, layout => 'guava', key_type => 'bigint')) FROM keys";

		try (Connection ctl = DriverManager.getConnection(url);
			 Connection text = DriverManager.getConnection(url + "&binaryTransfer=false");
			 Connection bin = DriverManager.getConnection(url + "&binaryTransfer=true");
			 Statement st = ctl.createStatement();
			 PreparedStatement psText = text.prepareStatement(EXPORT);
			 PreparedStatement psBin = bin.prepareStatement(EXPORT)) {
			st.execute("SET max_parallel_workers_per_gather = 0");
			double[] t = new double[3];
			for (int i = 0; i < warm; i++) {
				export(psText, t);
				export(psBin, t);
			}
			if (!psBin.unwrap(PGStatement.class).isUseServerPrepare())
				throw new IllegalStateException("the binary export is not a server-side prepared statement");
			for (int r = 0; r < rounds; r++) {
				print("build_guava", serverMs(st, build));
				print("to_guava_server", serverMs(st, "SELECT length(bf_to_guava(f)) FROM fg"));
				export(psText, t);
				print("fetch_text", t[0]);
				print("export_text", t[2]);
				BloomFilter<Long> f = export(psBin, t);
				print("fetch_binary", t[0]);
				print("readfrom", t[1]);
				print("export_binary", t[2]);
				/* readFrom of the same bytes through a BufferedInputStream */
				byte[] bytes;
				try (ResultSet rs = psBin.executeQuery()) {
					rs.next();
					bytes = rs.getBytes(1);
				}
				long b0 = System.nanoTime();
				BloomFilter<Long> g = BloomFilter.readFrom(new BufferedInputStream(new ByteArrayInputStream(bytes), 1 << 16),
														   Funnels.longFunnel());
				long b1 = System.nanoTime();
				if (!g.equals(f))
					throw new IllegalStateException("the buffered readFrom read another filter");
				print("readfrom_buffered", (b1 - b0) / 1e6);
				if (!pipeline.isEmpty())
					print("export_pipeline", shellMs(pipeline));
				print("probe_guava", serverMs(st, "SELECT count(*) FROM probe p, fg WHERE fg.f @> p.id"));
				print("probe_blocked", serverMs(st, "SELECT count(*) FROM probe p, fb WHERE fb.f @> p.id"));
			}
		}
	}
}
