-- Every process caches who a token is (server/core/auth/principal-cache.ts). A change to any row that
-- decides a principal (a client revoked, its scopes or grants changed; a property created, disabled, moved
-- or deleted; a group paused) notifies at commit, and every process drops its cache before the next request.
create function auth_changed_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('qc_auth', '');
  return null;
end
$$;

create trigger api_clients_auth_notify after insert or update or delete or truncate on api_clients
  for each statement execute function auth_changed_notify();
create trigger properties_auth_notify after insert or delete or truncate or update of status, group_id, customer_id
  on properties for each statement execute function auth_changed_notify();
create trigger property_groups_auth_notify after delete or truncate or update of paused on property_groups
  for each statement execute function auth_changed_notify();
