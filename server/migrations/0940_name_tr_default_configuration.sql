-- An omitted name_tr is stored as the name under en-GB on every created resource (server/core/name-tr.ts):
-- payment policies (the seeded placeholder included), promotions and special offers stored {} until now.
update payment_policies set name_tr = jsonb_build_object('en-GB', name) where name_tr = '{}'::jsonb;
update promotions set name_tr = jsonb_build_object('en-GB', name) where name_tr = '{}'::jsonb;
update special_offers set name_tr = jsonb_build_object('en-GB', name) where name_tr = '{}'::jsonb;
