import type { Demo } from '../demo/demo.ts';

/** A valid template body for the demo's live property (by partner code); `over` replaces fields. */
export const templateBody = (demoOf: Demo, over: Record<string, unknown> = {}) => ({
  event: 'booking.created',
  title: 'Booking confirmation',
  property_ids: [demoOf.properties[0]?.partner_code],
  pem_system_set: ['QDO', 'BDC'],
  to: '{guest_email}',
  subject: { 'en-GB': 'Your stay at {property_name}', 'de-DE': 'Ihr Aufenthalt im {property_name}' },
  body_html: { 'en-GB': '<p>Dear {guest_first_name}, see you on {checkin_date}.</p>' },
  ...over,
});
