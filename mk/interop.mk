# ---- Interop: filters other systems read (CONTRIBUTING.md: Interop) ----
# check-interop runs each system's part against the real thing; each part
# starts its own servers (a private PostgreSQL from BLOOMFILTER_PG_BINDIR,
# else pg_config --bindir, initdb'd in a temporary directory with a Unix
# socket there only, against the installed extension: run `make install`
# first; Redis on 127.0.0.1 at a random port).  PGHOST, PGPORT and the like
# reach nothing.
#
# check-interop-guava: Guava's BloomFilter (Debian's libguava-java 31.1)
# against layout 5 (test/interop/guava.sh); only Debian packages, so it is
# part of make test.
#
# check-interop-redis: test/interop/redis_interop.py against a real Redis
# with the RedisBloom module (2.4.x for Debian 12's Redis 7.0), named by
# REDISBLOOM_MODULE (default: the path written in /var/tmp/redisbloom/READY).
# Redis, redis-py and psycopg come from Debian's packages; the module is
# not one (and no recipe that builds it is kept here), so without one it
# says SKIPPED and fails (exit 2): check-interop never passes with a part
# skipped.  Not part of make test (sql/redisbloom.sql, which is, pins the
# format with dumps the module made).

REDISBLOOM_MODULE ?= $(shell cat /var/tmp/redisbloom/READY 2>/dev/null)
INTEROP_PYTHON ?= /usr/bin/python3
GUAVA_PACKAGES = default-jdk-headless libguava-java
REDIS_PACKAGES = redis-server python3-redis python3-psycopg

.PHONY: check-interop check-interop-guava check-interop-redis \
	bench-interop bench-interop-guava bench-interop-redis

check-interop: check-interop-guava check-interop-redis

check-interop-guava:
	@EXTRA_PACKAGES="$(GUAVA_PACKAGES)" bash scripts/deps.sh
	bash test/interop/guava.sh

check-interop-redis:
	@EXTRA_PACKAGES="$(REDIS_PACKAGES)" bash scripts/deps.sh
	@REDISBLOOM_MODULE="$(REDISBLOOM_MODULE)" $(INTEROP_PYTHON) test/interop/redis_interop.py

# bf_to_guava fetched over JDBC + Guava's readFrom, in one running JVM,
# against bf_agg, checks against blocked512;
# bf_to_redisbloom + BF.LOADCHUNK of a BENCH_N-key filter (default 10M)
# against pipelined BF.MADD of the same keys; results in bench/RESULTS.md
bench-interop: bench-interop-guava bench-interop-redis

bench-interop-guava:
	@EXTRA_PACKAGES="$(GUAVA_PACKAGES) libpostgresql-jdbc-java" bash scripts/deps.sh
	bash bench/interop_guava.sh

bench-interop-redis:
	@EXTRA_PACKAGES="$(REDIS_PACKAGES)" bash scripts/deps.sh
	@REDISBLOOM_MODULE="$(REDISBLOOM_MODULE)" $(INTEROP_PYTHON) bench/interop_redis.py
