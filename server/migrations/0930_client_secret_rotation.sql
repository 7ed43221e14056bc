-- OAuth client secret rotation: the replaced secret's hash stays valid at the token endpoint until
-- previous_secret_expires_at (24 hours, like a webhook signing secret), so a partner can roll its
-- deployments over to the new secret without a window in which neither works.
alter table api_clients
  add column previous_secret_hash text,
  add column previous_secret_expires_at timestamptz,
  add column secret_rotated_at timestamptz;
