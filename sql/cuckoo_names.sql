-- One name per verb for both filter types (1.4): cf_remove, cf_remove_all,
-- cf_union (and |) and cf_cardinality, as bf_remove, bf_remove_all,
-- bf_union and bf_cardinality.  cf_delete, cf_delete_all, cf_merge and
-- cf_items are deprecated aliases until 2.0: the same bytes from either name.
CREATE TABLE cfn AS
	SELECT cf_add_all(cf_create(1000), ARRAY[1, 2, 2, 3]) AS a,
	       cf_add_all(cf_create(1000), ARRAY[3, 4, 5]) AS b,
	       cf_add_all(cf_create(1000), ARRAY['x', 'y']::text[]) AS t;
SELECT cf_remove(a, 2)::bytea = cf_delete(a, 2)::bytea AS remove_same,
       cf_remove(a, 2) <> a AS remove_changed,
       cf_count(cf_remove(a, 2), 2) AS left_after_remove,
       cf_remove(a, 9)::bytea = a::bytea AS absent_unchanged,
       cf_remove(a, NULL::int)::bytea = a::bytea AS null_unchanged
FROM cfn;
SELECT cf_remove(t, 'x')::bytea = cf_delete(t, 'x')::bytea AS remove_text_same,
       cf_contains(cf_remove(t, 'x'), 'x') AS x_left,
       cf_remove(cf_add(cf_create(100), 'a'::"char"), 'a'::"char")::bytea
         = cf_delete(cf_add(cf_create(100), 'a'::"char"), 'a'::"char")::bytea AS remove_char_same
FROM cfn;
SELECT cf_remove_all(a, ARRAY[1, 2, NULL])::bytea = cf_delete_all(a, ARRAY[1, 2, NULL])::bytea AS remove_all_same,
       cf_contains_all(cf_remove_all(a, ARRAY[1, 2, NULL]), ARRAY[1, 2, 3]) AS left_after_remove_all
FROM cfn;
SELECT cf_union(a, b)::bytea = cf_merge(a, b)::bytea AS union_same,
       (a | b)::bytea = cf_merge(a, b)::bytea AS operator_same,
       cf_contains_all(a | b, ARRAY[1, 2, 3, 4, 5, 6]) AS merged,
       cf_union(a, NULL)::bytea = a::bytea AS null_ignored,
       (a | NULL) IS NOT NULL AS operator_null_ignored
FROM cfn;
-- shapes must match, with cf_merge's error
SELECT cf_union(cf_create(1000), cf_create(10));
SELECT cf_create(1000) | cf_create(10);
SELECT cf_cardinality(a) AS cardinality, cf_items(a) AS items, cf_cardinality(cf_remove(a, 2)) AS after_remove
FROM cfn;
-- the aliases share the C functions of the names they stand for, and say
-- which name to use
SELECT p.oid::regprocedure AS function, p.prosrc, obj_description(p.oid, 'pg_proc') LIKE 'deprecated%' AS deprecated
FROM pg_proc p
WHERE p.proname IN ('cf_remove', 'cf_remove_all', 'cf_union', 'cf_cardinality',
					'cf_delete', 'cf_delete_all', 'cf_merge', 'cf_items')
ORDER BY p.prosrc, deprecated, p.oid::regprocedure::text COLLATE "C";
SELECT o.oprcode::regprocedure AS pipe FROM pg_operator o
WHERE o.oprname = '|' AND o.oprleft = 'cuckoofilter'::regtype;
DROP TABLE cfn;
