import { createTemplate } from '../auto-email-templates/templates.ts';
import { authenticate } from '../core/auth/authenticate.ts';
import type { DemoContext } from './demo.ts';

/** A booking confirmation e-mail for the live property. Output: `demo.auto_email_template_id`. */
export async function autoEmailTemplatesDemoStep(ctx: DemoContext): Promise<void> {
  const principal = await authenticate(ctx.deps, `Bearer ${ctx.demo.personal_token}`);
  const template = await ctx.deps.db.tx((tx) =>
    createTemplate(tx, principal, {
      event: 'booking.created',
      title: 'Booking confirmation',
      property_ids: [ctx.live.external_id],
      pem_system_set: [],
      to: '{guest_email}',
      subject: { 'en-GB': 'Your stay at {property_name}', 'de-DE': 'Ihr Aufenthalt im {property_name}' },
      body_html: {
        'en-GB': '<p>Dear {guest_first_name}, we look forward to welcoming you on {checkin_date}.</p>',
        'de-DE': '<p>Liebe(r) {guest_first_name}, wir freuen uns auf Ihre Anreise am {checkin_date}.</p>',
      },
    }),
  );
  ctx.demo.auto_email_template_id = template.external_id;
}
