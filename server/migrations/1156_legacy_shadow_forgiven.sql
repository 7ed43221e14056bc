-- What the shadow comparison forgave (the ignore rules of QC_LEGACY_SHADOW_IGNORE_FILE), so an operator can see
-- which rules fired how often instead of only the fields they covered (legacy_shadow_days.noise_fields).
--
-- `forgiven`: exchanges of the day that differed only in forgiven fields. They count as compared and not as
-- different, as before: the score is unchanged; this only says how many of the equal ones were forgiven. Days
-- before this migration show 0.
alter table legacy_shadow_days add column forgiven int not null default 0;

-- Per key, day and rule: the exchanges the rule forgave a difference in (each once, however many of its fields it
-- covered; an exchange still different for other fields counts too) and the first field it forgave that day.
-- Small (rules fired, not exchanges) and kept like the days it sums up.
create table legacy_shadow_rule_days (
  key_id bigint not null references legacy_api_keys(id),
  day date not null,
  rule text not null,
  exchanges int not null,
  sample_path text not null,
  primary key (key_id, day, rule)
);
