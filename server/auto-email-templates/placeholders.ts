import type { FieldErrors } from '../core/http/api-error.ts';
import { ADDRESS_PLACEHOLDERS, type EmailEvent, placeholdersOf } from './events.ts';

const TOKEN = /\{([^{}]*)\}/g;
const EMAIL = /^[^\s@,{}]+@[^\s@,{}]+\.[^\s@,{}]+$/;

/** The placeholder names used in a text (`{name}`), in order of appearance. */
export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((m) => m[1] as string);
}

/**
 * Checks every `{name}` of the localized subject and body against the event's placeholders, and `to`
 * (comma-separated addresses, or an address placeholder such as `{guest_email}`). Field paths name the
 * locale: `subject.de-DE`, rule `unknown_placeholder`.
 */
export function placeholderErrors(
  event: EmailEvent,
  texts: { subject?: Record<string, string>; body_html?: Record<string, string>; to?: string },
): FieldErrors {
  const known = new Set(placeholdersOf(event));
  const errors: FieldErrors = {};
  const rule = 'customer.auto_email_template.messages.unknown_placeholder';
  for (const field of ['subject', 'body_html'] as const) {
    for (const [locale, text] of Object.entries(texts[field] ?? {})) {
      if (placeholdersIn(text).some((name) => !known.has(name))) errors[`${field}.${locale}`] = [rule];
    }
  }
  if (texts.to !== undefined) {
    const parts = texts.to.split(',').map((p) => p.trim());
    const valid = parts.every((p) => {
      const name = /^\{(\w+)\}$/.exec(p)?.[1];
      return name ? (ADDRESS_PLACEHOLDERS as readonly string[]).includes(name) : EMAIL.test(p);
    });
    if (!valid) errors.to = ['customer.auto_email_template.messages.format'];
  }
  return errors;
}

/** Fills `{name}` from values; `html` escapes each value (for body_html), never the template itself. */
export function render(text: string, values: Record<string, string>, html: boolean): string {
  return text.replace(TOKEN, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return html ? escapeHtml(value) : value;
  });
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
