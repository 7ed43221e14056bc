-- Promotions and special offers name their rate plans by external id (immutable, what partners send and
-- read back), so answering them needs no join; the pricing engine matches on the same id.
alter table promotions alter column rate_plan_ids drop default;
alter table promotions alter column rate_plan_ids type uuid[] using '{}';
alter table promotions alter column rate_plan_ids set default '{}';
alter table special_offers alter column rate_plan_ids type uuid[] using '{}';
