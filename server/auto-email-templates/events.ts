/**
 * The events an auto-email can follow and the placeholders each fills in (`{name}` in subject and body).
 * Booking events carry the booking's fields; a cancellation adds its fee and time; the stay reminders are
 * sent a set time before arrival and after departure by the platform's mailer.
 */
const BOOKING = [
  'property_name',
  'booking_id',
  'guest_first_name',
  'guest_last_name',
  'guest_email',
  'checkin_date',
  'checkout_date',
  'nights',
  'adults',
  'children',
  'room_names',
  'total_price',
  'currency',
  'source_channel',
] as const;

export const EMAIL_EVENTS = {
  'booking.created': { description: 'A booking was made.', placeholders: BOOKING },
  'booking.modified': { description: 'A booking changed.', placeholders: BOOKING },
  'booking.cancelled': {
    description: 'A booking was cancelled.',
    placeholders: [...BOOKING, 'cancelled_at', 'cancellation_fee'],
  },
  'booking.no_show': { description: 'A no-show was recorded.', placeholders: BOOKING },
  'stay.pre_arrival': {
    description: 'Before arrival (the platform sends it 3 days ahead).',
    placeholders: [...BOOKING, 'days_to_arrival'],
  },
  'stay.post_departure': { description: 'After departure (the day after check-out).', placeholders: BOOKING },
} as const satisfies Record<string, { description: string; placeholders: readonly string[] }>;

export type EmailEvent = keyof typeof EMAIL_EVENTS;

export const EMAIL_EVENT_NAMES = Object.keys(EMAIL_EVENTS) as EmailEvent[];

/** Placeholders whose value is an e-mail address, so they may stand in `to`. */
export const ADDRESS_PLACEHOLDERS = ['guest_email'] as const;

export function placeholdersOf(event: EmailEvent): readonly string[] {
  return EMAIL_EVENTS[event].placeholders;
}
