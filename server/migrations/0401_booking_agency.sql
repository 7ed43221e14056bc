-- The agency behind a B2B booking (POST /b2b/bookings): {name, reference, iata_code}; shown in the snapshot.
alter table bookings add column agency jsonb;
