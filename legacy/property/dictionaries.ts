/**
 * The platform dictionaries getPropertySettings lists, so a PMS can map its own codes to ours. Only English
 * names exist for them; the request locale applies to the property's own records (property, rooms, rates).
 */
export const PAYMENT_METHOD_TYPES = [
  { code: 'on_res', name: 'Payment on reservation' },
  { code: 'af_res', name: 'Payment after reservation' },
  { code: 'be_arr', name: 'Payment before arrival' },
  { code: 'on_arr', name: 'Payment on arrival' },
  { code: 'on_dep', name: 'Payment on departure' },
  { code: 'be_dat', name: 'Payment before a date' },
];

export const MEAL_PLANS = [
  { code: 'none', name: 'Room only' },
  { code: 'breakfast', name: 'Breakfast' },
  { code: 'half_board', name: 'Half board' },
  { code: 'full_board', name: 'Full board' },
  { code: 'all_inclusive', name: 'All inclusive' },
];

/** The bed groups of the occupancy codes (spec 2.5) and of the room details' bed counts. */
export const BED_TYPES = [
  { code: 'RB', name: 'Regular bed' },
  { code: 'EB', name: 'Extra bed' },
  { code: 'NB', name: 'No bed' },
];

/** Source channels a booking can carry (spec 2.7). */
export const BOOKING_OTA_CODES = [
  { code: 'QDO', name: 'Booking engine' },
  { code: 'QDB', name: 'Hotel dashboard' },
  { code: 'QDA', name: 'Agency' },
  { code: 'GHA', name: 'Search advertising' },
  { code: 'BDC', name: 'Booking.com' },
  { code: 'EXP', name: 'Expedia' },
  { code: 'ABB', name: 'Airbnb' },
  { code: 'AGO', name: 'Agoda' },
  { code: 'HRS', name: 'HRS' },
];
