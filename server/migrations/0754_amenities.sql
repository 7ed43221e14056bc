-- Amenities assigned to a property (OTA HAC codes) or a room type (OTA RMA codes); the catalogue itself is
-- code (server/amenities/ota-codes.ts). `options` holds the chosen values of a parametric amenity.
create table property_amenities (
  property_id bigint not null references properties(id),
  code text not null,
  options jsonb not null default '{}',
  primary key (property_id, code)
);

create table room_type_amenities (
  room_type_id bigint not null references room_types(id),
  code text not null,
  options jsonb not null default '{}',
  primary key (room_type_id, code)
);
