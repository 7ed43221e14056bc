-- Private signing keys are stored sealed under a key-encryption key kept outside the database
-- (server/core/auth/key-encryption.ts). Existing clear keys are sealed, and their clear column emptied, by the
-- first process that loads them.
alter table signing_keys add column if not exists private_jwk_sealed text;
alter table signing_keys alter column private_jwk drop not null;
