package org.pgbloomfilter;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * A connection to a server with the extension, for the tests that compare
 * with it: our own cluster (TestCluster), or, opted in to with
 * BLOOMFILTER_TEST_JDBC_URL, a database of our own on that server, dropped
 * at the end; nothing else there is touched.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ServerTestBase {
    private TestCluster cluster;
    private String givenUrl;            /* a server BLOOMFILTER_TEST_JDBC_URL names */
    private String database;            /* the tests' own database there */
    Connection conn;

    @BeforeAll
    void start() throws Exception {
        String given = System.getenv("BLOOMFILTER_TEST_JDBC_URL");
        String url;
        if (given == null || given.isEmpty()) {
            cluster = TestCluster.start();
            url = cluster.url;
        } else {
            givenUrl = given;
            database = TestCluster.newDatabaseName();
            try (Connection admin = java.sql.DriverManager.getConnection(given);
                 Statement st = admin.createStatement()) {
                st.execute("CREATE DATABASE " + database
                    + " TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'");
            }
            url = TestCluster.withDatabase(given, database);
        }
        conn = java.sql.DriverManager.getConnection(url);
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS bloomfilter");
        }
    }

    @AfterAll
    void stop() throws SQLException, InterruptedException {
        try {
            if (conn != null)
                conn.close();
            if (database != null)
                TestCluster.dropDatabase(givenUrl, database);
        } finally {
            if (cluster != null)
                cluster.close();
        }
    }
}
