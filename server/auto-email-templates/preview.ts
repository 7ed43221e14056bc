import type { Db } from '../core/db/db.ts';
import { placeholdersOf } from './events.ts';
import { render } from './placeholders.ts';
import type { TemplateRow } from './templates.ts';

/**
 * A sample booking for previews: fixed guest and stay, the template's first property's name and currency.
 * Every placeholder of the event has a value, so a preview shows the whole e-mail as a guest would get it.
 */
async function sampleValues(db: Db, template: TemplateRow): Promise<Record<string, string>> {
  const [property] = await db.sql<{ name: string; currency: string }>`
    select name, currency from properties where id = ${template.property_ids[0] ?? 0}`;
  const all: Record<string, string> = {
    property_name: property?.name ?? 'Your hotel',
    booking_id: 'QDO-20260712-0001',
    guest_first_name: 'Maria',
    guest_last_name: 'Sample',
    guest_email: 'maria.sample@example.com',
    checkin_date: '2026-07-12',
    checkout_date: '2026-07-15',
    nights: '3',
    adults: '2',
    children: '1',
    room_names: 'Double Room',
    total_price: '450.00',
    currency: property?.currency ?? 'EUR',
    source_channel: 'QDO',
    cancelled_at: '2026-07-01T09:30:00.000Z',
    cancellation_fee: '0.00',
    days_to_arrival: '3',
  };
  return Object.fromEntries(placeholdersOf(template.event).map((name) => [name, all[name] ?? '']));
}

/**
 * The locale to show: the one asked for when the template has it, else English (any en-XX), else the first
 * the template has.
 */
function pickLocale(texts: Record<string, string>, wanted: string | undefined): string {
  const locales = Object.keys(texts);
  if (wanted && locales.includes(wanted)) return wanted;
  return locales.find((l) => l.startsWith('en-')) ?? (locales[0] as string);
}

export async function previewTemplate(db: Db, template: TemplateRow, wanted: string | undefined) {
  const values = await sampleValues(db, template);
  const subjectLocale = pickLocale(template.subject, wanted);
  const bodyLocale = pickLocale(template.body_html, wanted);
  return {
    locale: bodyLocale,
    to: render(template.recipient, values, false),
    subject: render(template.subject[subjectLocale] ?? '', values, false),
    body_html: render(template.body_html[bodyLocale] ?? '', values, true),
    sample: values,
  };
}
