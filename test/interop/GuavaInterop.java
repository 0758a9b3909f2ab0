/*
 * GuavaInterop: the Java half of the interoperability test between
 * bloomfilter's layout 5 and Guava's BloomFilter (Debian's libguava-java,
 * 31.1).  test/interop/guava.sh runs it around a private PostgreSQL server:
 *
 *   java GuavaInterop build DIR    cases, their keys, Guava's filters of
 *                                  them and Guava's answers, the sizing grid
 *   (guava.sh: PostgreSQL builds the same filters, reads Guava's, answers)
 *   java GuavaInterop check DIR    PostgreSQL's filters read by Guava, its
 *                                  answers, bytes, rates and sizes compared
 *
 * Files are plain text so that psql's \copy reads them: keys as
 * "ordinal<TAB>key" in COPY's text format, filters as hex.
 */

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnel;
import com.google.common.hash.Funnels;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;

public final class GuavaInterop {
	/* capacity, error rate: n from 1 to 1M, p from 0.5 to 1e-6 */
	static final long[] CAPACITIES = {1, 1000, 100_000, 200_000, 100_000, 1_000_000};
	static final double[] RATES = {0.5, 0.01, 0.5, 0.03, 0.001, 1e-6};
	static final String[] TYPES = {"bigint", "integer", "text", "bytea"};
	static final int MEMBERS = 100_000;
	static final int NON_MEMBERS = 100_000;

	private GuavaInterop() {
	}

	@SuppressWarnings("unchecked")
	static Funnel<Object> funnel(String type) {
		switch (type) {
			case "bigint":
				return (Funnel<Object>) (Funnel<?>) Funnels.longFunnel();
			case "integer":
				return (Funnel<Object>) (Funnel<?>) Funnels.integerFunnel();
			case "text":
				return (Funnel<Object>) (Funnel<?>) Funnels.stringFunnel(StandardCharsets.UTF_8);
			default:
				return (Funnel<Object>) (Funnel<?>) Funnels.byteArrayFunnel();
		}
	}

	/* a random key: any long or int; text of ASCII, Latin, CJK and emoji; bytes */
	static Object key(String type, Random r) {
		switch (type) {
			case "bigint":
				return r.nextInt(4) == 0 ? (long) r.nextInt(1000_000) : r.nextLong();
			case "integer":
				return r.nextInt(4) == 0 ? r.nextInt(1000_000) : r.nextInt();
			case "text": {
				StringBuilder sb = new StringBuilder();
				int len = r.nextInt(24);
				for (int i = 0; i < len; i++) {
					int kind = r.nextInt(10);
					int cp = kind < 6 ? 0x20 + r.nextInt(0x5F)
						: kind < 8 ? 0xA0 + r.nextInt(0x160)
						: kind < 9 ? 0x4E00 + r.nextInt(0x5000)
						: 0x1F300 + r.nextInt(0x300);
					sb.appendCodePoint(cp);
				}
				return sb.toString();
			}
			default: {
				byte[] b = new byte[r.nextInt(33)];
				r.nextBytes(b);
				return b;
			}
		}
	}

	/* set membership of keys (byte arrays by content) */
	static Object identity(Object k) {
		return k instanceof byte[] ? HexFormat.of().formatHex((byte[]) k) : k;
	}

	/* the key in COPY's text format */
	static String copyText(Object k) {
		if (k instanceof byte[])
			return "\\\\x" + HexFormat.of().formatHex((byte[]) k);
		if (k instanceof String)
			return ((String) k).replace("\\", "\\\\");
		return k.toString();
	}

	static byte[] serialize(BloomFilter<Object> f) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		f.writeTo(out);
		return out.toByteArray();
	}

	static String hex(byte[] b) {
		return HexFormat.of().formatHex(b);
	}

	static byte[] unhex(String s) {
		return HexFormat.of().parseHex(s.strip());
	}

	static List<String[]> cases() {
		List<String[]> cases = new ArrayList<>();
		for (int s = 0; s < CAPACITIES.length; s++)
			for (String type : TYPES)
				cases.add(new String[] {"c" + cases.size(), Long.toString(CAPACITIES[s]),
					Double.toString(RATES[s]), type});
		return cases;
	}

	/* the keys of case c: members, then non-members (none of them a member) */
	static List<Object> keys(String[] c, int seed) {
		Random r = new Random(seed);
		Set<Object> seen = new HashSet<>();
		List<Object> keys = new ArrayList<>();
		while (keys.size() < MEMBERS + NON_MEMBERS) {
			Object k = key(c[3], r);
			if (seen.add(identity(k)))
				keys.add(k);
		}
		return keys;
	}

	static void build(Path dir) throws IOException {
		List<String> list = new ArrayList<>();
		List<String[]> cases = cases();
		for (int i = 0; i < cases.size(); i++) {
			String[] c = cases.get(i);
			List<Object> keys = keys(c, 1000 + i);
			BloomFilter<Object> f = BloomFilter.create(funnel(c[3]), Long.parseLong(c[1]),
				Double.parseDouble(c[2]));
			StringBuilder members = new StringBuilder();
			StringBuilder probes = new StringBuilder();
			StringBuilder answers = new StringBuilder();
			for (int j = 0; j < keys.size(); j++) {
				String line = j + "\t" + copyText(keys.get(j)) + "\n";
				probes.append(line);
				if (j < MEMBERS) {
					members.append(line);
					f.put(keys.get(j));
				}
			}
			for (Object k : keys)
				answers.append(f.mightContain(k) ? '1' : '0');
			Files.writeString(dir.resolve(c[0] + ".members"), members);
			Files.writeString(dir.resolve(c[0] + ".probes"), probes);
			Files.writeString(dir.resolve(c[0] + ".guava"), hex(serialize(f)) + "\n");
			Files.writeString(dir.resolve(c[0] + ".guava_answers"), answers + "\n");
			Files.writeString(dir.resolve(c[0] + ".guava_fpp"), f.expectedFpp() + "\n");
			list.add(String.join("\t", c));
		}
		Files.write(dir.resolve("cases"), list);
		sizingGrid(dir);
	}

	/* BloomFilter.create's shape over a grid of requests: longs and k, or refused */
	static void sizingGrid(Path dir) throws IOException {
		Random r = new Random(7);
		List<String> lines = new ArrayList<>();
		List<Long> ns = new ArrayList<>(Arrays.asList(1L, 2L, 3L, 5L, 7L, 10L, 64L, 100L, 999L,
			1000L, 1001L, 4096L, 12345L, 100_000L, 1_000_000L));
		List<Double> ps = new ArrayList<>(Arrays.asList(0.9, 0.75, 0.5, 0.3, 0.1, 0.05, 0.03, 0.01,
			0.005, 0.001, 1e-4, 1e-5, 1e-6, 1e-9, 1e-15, 1e-30, 1e-60, 1e-80));
		for (int i = 0; i < 25; i++)
			ns.add(1L + (long) Math.floor(Math.pow(10, r.nextDouble() * 6)));
		for (int i = 0; i < 15; i++)
			ps.add(Math.pow(10, -r.nextDouble() * 7));
		for (long n : ns)
			for (double p : ps) {
				String shape;
				try {
					byte[] b = serialize(BloomFilter.create(funnel("bigint"), n, p));
					int nlongs = ((b[2] & 0xFF) << 24) | ((b[3] & 0xFF) << 16) | ((b[4] & 0xFF) << 8) | (b[5] & 0xFF);
					shape = nlongs + "\t" + (b[1] & 0xFF);
				} catch (IllegalArgumentException e) {
					shape = "refused\trefused";
				}
				lines.add(n + "\t" + p + "\t" + shape);
			}
		Files.write(dir.resolve("sizing"), lines);
	}

	static int failures = 0;

	static void fail(String what) {
		failures++;
		System.out.println("FAIL " + what);
	}

	static void check(Path dir) throws IOException {
		List<String[]> cases = cases();
		for (int i = 0; i < cases.size(); i++) {
			String[] c = cases.get(i);
			String name = c[0] + " (n " + c[1] + ", p " + c[2] + ", " + c[3] + ")";
			List<Object> keys = keys(c, 1000 + i);
			byte[] pg = unhex(Files.readString(dir.resolve(c[0] + ".pg")));
			byte[] guava = unhex(Files.readString(dir.resolve(c[0] + ".guava")));
			BloomFilter<Object> f = BloomFilter.readFrom(new ByteArrayInputStream(pg), funnel(c[3]));
			StringBuilder answers = new StringBuilder();
			for (Object k : keys)
				answers.append(f.mightContain(k) ? '1' : '0');
			String pgAnswers = Files.readString(dir.resolve(c[0] + ".pg_answers")).strip();
			String fromGuava = Files.readString(dir.resolve(c[0] + ".from_guava_answers")).strip();
			String guavaAnswers = Files.readString(dir.resolve(c[0] + ".guava_answers")).strip();
			int members = (int) answers.chars().limit(MEMBERS).filter(ch -> ch == '1').count();
			int positives = (int) answers.chars().skip(MEMBERS).filter(ch -> ch == '1').count();

			if (!Arrays.equals(pg, guava))
				fail(name + ": bf_to_guava(bf_agg(members)) differs from Guava's writeTo of the same members");
			if (!answers.toString().equals(pgAnswers))
				fail(name + ": Guava's answers on PostgreSQL's filter differ from bf_contains");
			if (!guavaAnswers.equals(fromGuava))
				fail(name + ": bf_contains(bf_from_guava(...)) differs from Guava's mightContain");
			if (members != MEMBERS)
				fail(name + ": a member is absent");
			if (!Arrays.equals(serialize(f), pg))
				fail(name + ": writeTo(readFrom(x)) differs from x");
			double pgFpp = Double.parseDouble(Files.readString(dir.resolve(c[0] + ".pg_fpp")).strip());
			double guavaFpp = Double.parseDouble(Files.readString(dir.resolve(c[0] + ".guava_fpp")).strip());
			if (pgFpp != guavaFpp && Math.abs(pgFpp - guavaFpp) > Math.ulp(guavaFpp))
				fail(name + ": bf_fpp " + pgFpp + " against expectedFpp " + guavaFpp);
			System.out.printf("ok %s: %d bytes, %d members present, %d of %d non-members positive, fpp %.6g (bf_fpp %s)%n",
				name, pg.length, members, positives, NON_MEMBERS, guavaFpp,
				pgFpp == guavaFpp ? "equal" : "within an ulp");
		}
		List<String> guavaSizes = Files.readAllLines(dir.resolve("sizing"));
		List<String> pgSizes = Files.readAllLines(dir.resolve("pg_sizing"));
		int refused = 0;
		for (int i = 0; i < guavaSizes.size(); i++) {
			if (i >= pgSizes.size() || !guavaSizes.get(i).equals(pgSizes.get(i).strip()))
				fail("sizing: Guava " + guavaSizes.get(i) + ", bf_create "
					+ (i < pgSizes.size() ? pgSizes.get(i) : "nothing"));
			if (guavaSizes.get(i).endsWith("refused"))
				refused++;
		}
		System.out.printf("ok sizing: %d requests (%d refused by both) of the same shape%n",
			guavaSizes.size(), refused);
		if (failures > 0) {
			System.out.println(failures + " failures");
			System.exit(1);
		}
	}

	/*
	 * The small filters sql/guava.sql pins, as Guava writes them:
	 * java GuavaInterop pins
	 */
	static void pins() throws IOException {
		BloomFilter<Object> f = BloomFilter.create(funnel("bigint"), 10, 0.1);
		for (long k : new long[] {1, 2, 3, -1, Long.MIN_VALUE})
			f.put(k);
		System.out.println("bigint 10 0.1: " + hex(serialize(f)));
		f = BloomFilter.create(funnel("integer"), 20, 0.01);
		for (int k : new int[] {-1, 0, 7, Integer.MAX_VALUE, Integer.MIN_VALUE})
			f.put(k);
		System.out.println("integer 20 0.01: " + hex(serialize(f)));
		f = BloomFilter.create(funnel("text"), 5, 0.05);
		for (String k : new String[] {"", "h\u00e9llo", "\u65e5\u672c", "\ud83d\ude42", "abc"})
			f.put(k);
		System.out.println("text 5 0.05: " + hex(serialize(f)));
		f = BloomFilter.create(funnel("bytea"), 5, 0.05);
		for (byte[] k : new byte[][] {{}, {0}, {1, 2, 3}, {(byte) 0xff}})
			f.put(k);
		System.out.println("bytea 5 0.05: " + hex(serialize(f)));
		f = BloomFilter.create(funnel("bigint"), 1000, 0.03);
		for (long k = 0; k < 1000; k++)
			f.put(k * 7);
		int hits = 0;
		for (long k = 0; k < 7000; k++)
			hits += f.mightContain(k) ? 1 : 0;
		System.out.println("bigint 1000 0.03, 0..6999 step 7: " + hits + " of 0..6999 positive, expectedFpp "
			+ f.expectedFpp() + ", approximateElementCount " + f.approximateElementCount()
			+ ", md5 input " + serialize(f).length + " bytes");
	}

	public static void main(String[] args) throws IOException {
		if (args[0].equals("pins")) {
			pins();
			return;
		}
		Path dir = Path.of(args[1]);
		if (args[0].equals("build"))
			build(dir);
		else
			check(dir);
	}
}
