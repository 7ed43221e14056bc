/**
 * Booking ids from this value on are the current generation: the sequence `bookings_id_seq` starts here
 * (migration 0004), and the legacy facade gives them per-content revision ids (spec 4.8). Lower ids are the
 * old generation, imported with explicit ids; their legacy revision id is the MD5 of the content, number 1.
 */
export const FIRST_GENERATED_BOOKING_ID = 161300;
