-- A counting filter that follows its table both ways: an INSERT trigger
-- adds, a DELETE trigger removes (statement-level, transition tables).
CREATE TABLE accounts (id bigint PRIMARY KEY);
CREATE TABLE account_filter (bf bloomfilter);
INSERT INTO account_filter VALUES (bf_create(100000, 0.01, counting => true));

CREATE FUNCTION accounts_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE account_filter SET bf = bf_add_all(bf, (SELECT array_agg(id) FROM new_rows));
	RETURN NULL;
END $$;
CREATE FUNCTION accounts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE account_filter SET bf = bf_remove_all(bf, (SELECT array_agg(id) FROM old_rows));
	RETURN NULL;
END $$;
CREATE TRIGGER accounts_added AFTER INSERT ON accounts REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION accounts_added();
CREATE TRIGGER accounts_removed AFTER DELETE ON accounts REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION accounts_removed();

-- 100k inserts in ten statements, 50k deletes in five, interleaved
DO $$
BEGIN
	FOR i IN 0 .. 9 LOOP
		INSERT INTO accounts SELECT g FROM generate_series(i * 10000 + 1, (i + 1) * 10000) g;
		IF i % 2 = 1 THEN
			DELETE FROM accounts WHERE id % 2 = 0 AND id <= (i + 1) * 10000 AND id > (i - 1) * 10000;
		END IF;
	END LOOP;
END $$;
SELECT count(*) AS remaining FROM accounts;

-- every remaining row is found, the deleted ones are absent at about the
-- promised rate, and the filter is the one a rebuild would make
SELECT (SELECT bool_and(f.bf @> a.id) FROM accounts a) AS every_row_found,
       (SELECT count(*) FILTER (WHERE f.bf @> g::bigint) FROM generate_series(2, 100000, 2) g) < 1000 AS deleted_mostly_absent,
       f.bf::bytea = (SELECT bf_agg(id, bf_create(100000, 0.01, counting => true)) FROM accounts)::bytea AS equals_rebuild
FROM account_filter f;

DROP TABLE accounts, account_filter;
DROP FUNCTION accounts_added(), accounts_removed();
