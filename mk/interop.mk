# ---- Interop: filters other systems read (CONTRIBUTING.md: Interop) ----
# Not part of make test (sql/redisbloom.sql, which is, pins the format).
#
# check-interop-redis: test/interop/redis_interop.py against a real Redis
# with the RedisBloom module (2.4.x for Debian 12's Redis 7.0), named by
# REDISBLOOM_MODULE (default: the path written in /var/tmp/redisbloom/READY).
# Redis, redis-py and psycopg come from Debian's packages.  The script starts
# its own redis-server on 127.0.0.1 and its own PostgreSQL from
# BLOOMFILTER_PG_BINDIR (else pg_config --bindir), which must have the
# extension installed.  Without a module it says SKIPPED and fails (exit 2),
# so check-interop never passes with a part skipped.

REDISBLOOM_MODULE ?= $(shell cat /var/tmp/redisbloom/READY 2>/dev/null)
INTEROP_PYTHON ?= /usr/bin/python3

.PHONY: check-interop check-interop-redis bench-interop bench-interop-redis

check-interop: check-interop-redis

check-interop-redis:
	@EXTRA_PACKAGES="redis-server python3-redis python3-psycopg" bash scripts/deps.sh
	@REDISBLOOM_MODULE="$(REDISBLOOM_MODULE)" $(INTEROP_PYTHON) test/interop/redis_interop.py

# bf_to_redisbloom + BF.LOADCHUNK of a BENCH_N-key filter (default 10M)
# against pipelined BF.MADD of the same keys; results in bench/RESULTS.md
bench-interop: bench-interop-redis

bench-interop-redis:
	@EXTRA_PACKAGES="redis-server python3-redis python3-psycopg" bash scripts/deps.sh
	@REDISBLOOM_MODULE="$(REDISBLOOM_MODULE)" $(INTEROP_PYTHON) bench/interop_redis.py
