-- Auto-email templates (spec 2.9): owner-scoped (customer), targeting some of its properties.
create table auto_email_templates (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  customer_id bigint not null references customers(id),
  event text not null,
  title text not null,
  is_active boolean not null default true,
  property_ids bigint[] not null,
  pem_system_set text[] not null default '{}',
  recipient text not null,
  subject jsonb not null,
  body_html jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index auto_email_templates_customer on auto_email_templates (customer_id, id);
