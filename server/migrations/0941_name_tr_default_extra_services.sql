-- Extra services created without name_tr stored {} (0940 filled the other configuration entities).
update extra_services set name_tr = jsonb_build_object('en-GB', name) where name_tr = '{}'::jsonb and name <> '';
