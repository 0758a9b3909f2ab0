# ---- Python client: clients/python (see its README) ----
# A virtualenv over Debian's python3 with Debian's psycopg 3, pytest and numpy
# (PyPI may be out of reach); mmh3 is added when pip can get it, otherwise
# the client hashes through the server's own libmurmurhash.  The tests start
# a private server (initdb in a temporary directory, as postgres when run as
# root, on a Unix socket there only) from BLOOMFILTER_PG_BINDIR, else
# pg_config --bindir, against the installed extension: run `make install`
# first.  PGHOST, PGPORT and every other libpq variable are ignored (removed
# from the tests' environment).  To use a server of your own instead, set
# BLOOMFILTER_TEST_DSN: the tests then create a database of their own there
# (pgbloomfilter_test_ and a random suffix) and drop only that one.

PYTHON3 ?= /usr/bin/python3
PYCLIENT = clients/python

.PHONY: check-python
check-python:
	@EXTRA_PACKAGES="python3-venv python3-setuptools python3-wheel python3-psycopg python3-pytest python3-numpy libmurmurhash2" bash scripts/deps.sh
	test -x $(PYCLIENT)/.venv/bin/python || $(PYTHON3) -m venv --system-site-packages $(PYCLIENT)/.venv
	$(PYCLIENT)/.venv/bin/python -m pip install -q --no-deps --no-build-isolation -e $(PYCLIENT)
	@$(PYCLIENT)/.venv/bin/python -m pip install -q --timeout 10 --retries 0 'mmh3>=3' >/dev/null 2>&1 \
		|| echo "check-python: mmh3 not installable here; hashing through libmurmurhash"
	cd $(PYCLIENT) && .venv/bin/python -m pytest -q -p no:cacheprovider

# ---- Java client: clients/java (see its README) ----
# javac and jar from Debian's JDK, JUnit 5 and the PostgreSQL JDBC driver
# from Debian's packages (nothing downloaded).  The tests start a private
# server (initdb in a temporary directory, as postgres when run as root, TCP
# on 127.0.0.1 for JDBC, on a port the system hands out, retried should
# another process take it first) from BLOOMFILTER_PG_BINDIR, else
# pg_config --bindir, against the installed extension: run `make install`
# first.  The server programs run without the libpq variables, and the URL
# names host, port, database and user, so PGHOST and the like reach
# nothing.  To use a server of your own instead, set
# BLOOMFILTER_TEST_JDBC_URL: the tests then create a database of their own
# there (pgbloomfilter_test_ and a random suffix) and drop only that one.
# bench-java compares checks/s with Guava's BloomFilter (Debian's
# libguava-java).

JAVACLIENT = clients/java

.PHONY: check-java bench-java
check-java:
	@EXTRA_PACKAGES="default-jdk-headless junit5 libpostgresql-jdbc-java" bash scripts/deps.sh
	$(MAKE) -C $(JAVACLIENT) test

bench-java:
	@EXTRA_PACKAGES="default-jdk-headless libguava-java" bash scripts/deps.sh
	$(MAKE) -C $(JAVACLIENT) bench


# ---- Rust client: clients/rust (see its README) ----
# Debian's rustc and cargo (never a rustup toolchain on PATH: /usr/bin's,
# named), and the crates Debian ships as librust-*-dev under
# /usr/share/cargo/registry, which clients/rust/.cargo/config.toml puts in
# crates.io's place: built offline, nothing downloaded.  The tests start a
# private server as the other clients' do (a Unix socket in a temporary
# directory only; every PG* variable removed) from BLOOMFILTER_PG_BINDIR,
# else pg_config --bindir, against the installed extension: run
# `make install` first.  BLOOMFILTER_TEST_DSN opts in to a server of one's
# own (a database of the tests' own there, dropped after).  bench-rust
# compares contains(i64) with the Java client's on the same filter.

RUSTCLIENT = clients/rust
RUST_PACKAGES = rustc cargo librust-postgres-types-dev librust-bytes-dev
RUST_ENV = RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc CARGO_HOME=$(CURDIR)/$(RUSTCLIENT)/target/cargo-home

.PHONY: check-rust bench-rust
check-rust:
	@EXTRA_PACKAGES="$(RUST_PACKAGES)" bash scripts/deps.sh
	cd $(RUSTCLIENT) && $(RUST_ENV) /usr/bin/cargo test --offline --release --features postgres-types

bench-rust:
	@EXTRA_PACKAGES="$(RUST_PACKAGES) default-jdk-headless libguava-java" bash scripts/deps.sh
	cd $(RUSTCLIENT) && $(RUST_ENV) CARGO=/usr/bin/cargo bash bench.sh

# Both clients' tests, pg_virtualenv as make test calls it and
# scripts/check-version.sh, each with every libpq variable naming a decoy
# cluster that must see no connection, and the clients' opt-in variables
# aimed at the decoy, whose databases must be as before
# (test/decoy/check_decoy.sh).  Not part of test: about ten minutes.
.PHONY: check-decoy
check-decoy:
	bash test/decoy/check_decoy.sh
