-- Content pages (legacy entities under the property, spec 2.9) and the guest guide: the property's ordered
-- list of content items, each a text, a link or a reference to one content page.

create table content_pages (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  property_id bigint not null references properties(id),
  slug text not null,
  title text not null default '',
  title_tr jsonb not null default '{}',
  body_html jsonb not null default '{}',
  is_published boolean not null default true,
  position int not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index content_pages_slug on content_pages (property_id, slug);

-- Items of the guest guide. Deleting a page strips its reference (content_page_id becomes null): the item
-- keeps its title and text, so the hotelier's guide loses no words, only the link.
create table guest_guide_items (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  property_id bigint not null references properties(id),
  position int not null,
  kind text not null check (kind in ('page', 'text', 'link')),
  title text not null default '',
  title_tr jsonb not null default '{}',
  text jsonb not null default '{}',
  url text,
  content_page_id bigint references content_pages(id),
  created_at timestamptz not null default now()
);
create index guest_guide_items_property on guest_guide_items (property_id, position);
create index guest_guide_items_page on guest_guide_items (content_page_id) where content_page_id is not null;

-- Guest feedback: what a guest answered after a stay, one answer per booking.
create table guest_feedback (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  property_id bigint not null references properties(id),
  booking_id bigint not null unique references bookings(id),
  overall_score int not null check (overall_score between 1 and 10),
  scores jsonb not null default '{}',
  comment text not null default '',
  language text,
  would_recommend boolean,
  answered_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index guest_feedback_property on guest_feedback (property_id, answered_at desc, id desc);
