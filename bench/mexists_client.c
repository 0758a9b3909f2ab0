/*
 * mexists_client: batch checks as an application sends them, for
 * bench/mexists.sh.  One connection (libpq's environment: PGHOST, PGPORT,
 * PGDATABASE, ...), one prepared statement whose only parameter is an
 * int8[] sent in binary, DEPTH statements in flight at a time (pipeline
 * mode, a Sync after each group), results in binary; prints statements per
 * second over SECONDS.  Keys are uniform in 1 .. RANGE (xorshift64, fixed
 * seed).  pgbench cannot bind an array, so its own rows bind 100 scalar
 * parameters as text, which costs the server 100 conversions a statement.
 *
 *   mexists_client 'SELECT bf_contains_all(bf, $1) FROM filters WHERE name = ''m''' \
 *       KEYS RANGE SECONDS [DEPTH]
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#define INT8ARRAYOID	1016
#define INT8OID			20

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t
next_key(uint64_t range)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return 1 + rng % range;
}

static void
put32(char *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
fail(PGconn *conn, const char *what)
{
	fprintf(stderr, "mexists_client: %s: %s", what, PQerrorMessage(conn));
	exit(1);
}

int
main(int argc, char **argv)
{
	const char *sql;
	int			keys;
	uint64_t	range;
	double		seconds;
	int			depth;
	PGconn	   *conn;
	PGresult   *res;
	Oid			type = INT8ARRAYOID;
	int			len;
	char	   *buf;
	const int	binary = 1;
	long		done = 0;
	double		start;

	if (argc < 5)
	{
		fprintf(stderr, "usage: mexists_client SQL KEYS RANGE SECONDS [DEPTH]\n");
		return 2;
	}
	sql = argv[1];
	keys = atoi(argv[2]);
	range = strtoull(argv[3], NULL, 10);
	seconds = atof(argv[4]);
	depth = argc > 5 ? atoi(argv[5]) : 16;
	if (keys < 1 || range < 1 || seconds <= 0 || depth < 1)
	{
		fprintf(stderr, "mexists_client: KEYS, RANGE, SECONDS and DEPTH must be positive\n");
		return 2;
	}

	conn = PQconnectdb("");
	if (PQstatus(conn) != CONNECTION_OK)
		fail(conn, "connect");
	res = PQprepare(conn, "batch", sql, 1, &type);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		fail(conn, "prepare");
	PQclear(res);

	/* the binary form of a one-dimensional int8[] without NULLs */
	len = 20 + keys * 12;
	buf = malloc(len);
	put32(buf, 1);				/* dimensions */
	put32(buf + 4, 0);			/* no NULL bitmap */
	put32(buf + 8, INT8OID);
	put32(buf + 12, keys);		/* length */
	put32(buf + 16, 1);			/* lower bound */

	if (!PQenterPipelineMode(conn))
		fail(conn, "pipeline mode");
	start = now();
	while (now() - start < seconds)
	{
		for (int s = 0; s < depth; s++)
		{
			const char *value = buf;

			for (int i = 0; i < keys; i++)
			{
				uint64_t	k = next_key(range);

				put32(buf + 20 + 12 * i, 8);
				put32(buf + 24 + 12 * i, (uint32_t) (k >> 32));
				put32(buf + 28 + 12 * i, (uint32_t) k);
			}
			if (!PQsendQueryPrepared(conn, "batch", 1, &value, &len, &binary, 1))
				fail(conn, "send");
		}
		if (!PQpipelineSync(conn))
			fail(conn, "sync");
		/* each statement's result, then NULL; after the last, the Sync's */
		for (;;)
		{
			ExecStatusType st;

			res = PQgetResult(conn);
			if (res == NULL)
				continue;
			st = PQresultStatus(res);
			PQclear(res);
			if (st == PGRES_PIPELINE_SYNC)
				break;
			if (st != PGRES_TUPLES_OK)
				fail(conn, "statement");
			done++;
		}
	}
	printf("%.0f\n", done / (now() - start));
	PQfinish(conn);
	free(buf);
	return 0;
}
