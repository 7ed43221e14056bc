-- The gallery: an owner-scoped (customer) image library. The bytes live in the object storage under
-- storage_key; a registered legacy file keeps its legacy key and is never deleted from storage by us.
create table gallery_images (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  customer_id bigint not null references customers(id),
  storage_key text not null,
  content_type text not null,
  byte_size int not null,
  width int not null,
  height int not null,
  sha256 text not null,
  file_name text not null default '',
  legacy_file_id text,
  created_at timestamptz not null default now()
);
create index gallery_images_customer on gallery_images (customer_id, id);
create unique index gallery_images_legacy_file on gallery_images (customer_id, legacy_file_id)
  where legacy_file_id is not null;

-- Where an image is used: on a property, a room type (then the legacy room details list it) or a content
-- page. Deleting a used image is refused (409 with these rows) unless forced, which deletes them too.
create table gallery_image_usages (
  id bigserial primary key,
  image_id bigint not null references gallery_images(id),
  kind text not null check (kind in ('property', 'room_type', 'content_page')),
  property_id bigint not null references properties(id),
  room_type_id bigint references room_types(id),
  content_page_id bigint references content_pages(id),
  position int not null default 0,
  check ((kind = 'room_type') = (room_type_id is not null)),
  check ((kind = 'content_page') = (content_page_id is not null))
);
create index gallery_image_usages_image on gallery_image_usages (image_id);
create index gallery_image_usages_room on gallery_image_usages (room_type_id, position) where room_type_id is not null;
create index gallery_image_usages_page on gallery_image_usages (content_page_id, position) where content_page_id is not null;
create index gallery_image_usages_property on gallery_image_usages (property_id, kind, position);
