-- Shadow samples keep the exact bytes each side sent. The bodies were `text`: a legacy answer holding a NUL byte
-- could not be stored at all (PostgreSQL text has no NUL), so the exchange was counted as different but its sample
-- was lost, and bytes that are not UTF-8 were stored as U+FFFD. The same NUL in the text around a differing byte
-- (the `body` field's snippet) was refused by jsonb (no \u0000 there): `fields` becomes json, which keeps it.
--
-- New samples are written to the bytea columns only; the text columns stay for the rows written before (and by a
-- process of the previous release while both run during a deploy), and the reader takes the bytes when present,
-- else the text's UTF-8 bytes: every old row reads as it did. Samples live 90 days, so the text columns are empty
-- of new data after that; they are not dropped here so that the previous release keeps working.
alter table legacy_shadow_samples
  add column request_bytes bytea,
  add column upstream_bytes bytea,
  add column port_bytes bytea,
  alter column upstream_body drop not null,
  alter column port_body drop not null,
  alter column fields type json using fields::json;
