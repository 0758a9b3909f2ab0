-- bf_info and cf_info in full, for every layout and both types: the text
-- of each value's jsonb, pinned, so that how the object is built may change
-- but what it says may not.  Estimates (fpp, cardinality) are included:
-- the values are made the same way every time.
SELECT bf_info(bf_add_all(bf_create(1000, 0.01, 7), ARRAY[1, 2, 3]));
SELECT bf_info(bf_add_all(bf_create(1000, 0.01, 7, counting => true, expansion => 0), ARRAY[1, 2, 2]));
SELECT bf_info(bf_add_all(bf_create(100, 0.01, 7, counting => false, expansion => 2),
                          ARRAY(SELECT generate_series(1, 350))));
SELECT bf_info(bf_add_all(bf_create(1000, 1e-5, 0, counting => false, expansion => 4),
                          ARRAY(SELECT generate_series(1, 1500)::text)));
-- layout 4, a list of hashes: an unsized aggregate's transition alone
CREATE AGGREGATE bf_info_state(int) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter);
SELECT bf_info(bf_info_state(g)) FROM generate_series(1, 20) g;
DROP AGGREGATE bf_info_state(int);
-- a filter of release 1.1's hash (id 1), untyped; an empty typed one
SELECT bf_info('QkxNRgEBAQUHAAAAAAAAAAAEAAAAAAAAZAAAAAAAAAB7FK5H4XqEP0MAAAAAAAAAABBAABCBAAGAAgAAEABAAAAEEAACiQAFMAECAAAAAAAAEYgAAiAAhCAAAGAAAABAAAAAgAAEAAAAgAIAAAAAAAAAAACAAAAAgAIBIAEAAAAAABAAAAAAAAAAAAAAgAAABgRAAUQBAAACkQAAQRCAAAAAAwBAAAAAggAAAAAAAAA='::bloomfilter);
SELECT bf_info(bf_create(64, 0.5, key_type => 'text'));
SELECT cf_info(cf_add(cf_create(1000), 5));
SELECT cf_info(cf_add_all(cf_create(100, 0.01, 9), ARRAY(SELECT generate_series(1, 400))));
