-- An omitted name_tr is stored as the name under en-GB (server/core/name-tr.ts) on properties, room types and
-- rate plans; rows created before that rule get the same, so no reader finds {} beside a name.
update properties set name_tr = jsonb_build_object('en-GB', name) where name_tr = '{}'::jsonb;
update room_types set name_tr = jsonb_build_object('en-GB', name) where name_tr = '{}'::jsonb;
update rate_plans set name_tr = jsonb_build_object('en-GB', name) where name_tr = '{}'::jsonb;
