/*
 * GuavaReadFrom: reads one bytea field from a COPY ... TO STDOUT (FORMAT
 * binary) stream on stdin (the output of bf_to_guava), hands it to Guava's
 * BloomFilter.readFrom, and prints how long readFrom took (ms) and how many
 * of the keys 1..1000 the filter says it might contain.  bench/interop_guava.sh
 * times the whole pipeline around it.
 */

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;

public final class GuavaReadFrom {
	private GuavaReadFrom() {
	}

	public static void main(String[] args) throws IOException {
		DataInputStream in = new DataInputStream(System.in);
		byte[] signature = new byte[11];
		in.readFully(signature);
		in.readInt();						/* flags */
		in.skipBytes(in.readInt());			/* header extension */
		if (in.readShort() != 1)
			throw new IOException("expected one field");
		byte[] value = new byte[in.readInt()];
		in.readFully(value);
		long t0 = System.nanoTime();
		BloomFilter<Long> f = BloomFilter.readFrom(new ByteArrayInputStream(value), Funnels.longFunnel());
		long t1 = System.nanoTime();
		int hits = 0;
		for (long k = 1; k <= 1000; k++)
			hits += f.mightContain(k) ? 1 : 0;
		System.out.printf("%.1f %d %d%n", (t1 - t0) / 1e6, value.length, hits);
	}
}
