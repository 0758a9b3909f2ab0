# ---- interoperability with other libraries' filter formats ----
# check-interop runs each library's part; each part starts a private server
# (initdb in a temporary directory, a Unix socket there only) from
# BLOOMFILTER_PG_BINDIR, else pg_config --bindir, against the installed
# extension: run `make install` first.  Only Debian packages are needed.

.PHONY: check-interop check-interop-guava bench-interop bench-interop-guava
check-interop: check-interop-guava

# Guava's BloomFilter (libguava-java 31.1) against layout 5: test/interop/guava.sh
check-interop-guava:
	@EXTRA_PACKAGES="default-jdk-headless libguava-java" bash scripts/deps.sh
	bash test/interop/guava.sh

bench-interop: bench-interop-guava

# bf_to_guava + Guava's readFrom against bf_agg, checks against blocked512
bench-interop-guava:
	@EXTRA_PACKAGES="default-jdk-headless libguava-java" bash scripts/deps.sh
	bash bench/interop_guava.sh
