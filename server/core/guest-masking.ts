/**
 * Guest fields as partners see them (spec 1, item 9), in every revision and booking answer: the e-mail
 * keeps its first character followed by asterisks, the phone shows asterisks except its last two digits,
 * the last name is reduced to an initial. The asterisk runs keep the original length so the masked value
 * still hints at the shape without revealing it.
 *
 * A character here is what a reader sees as one (a grapheme cluster), not a UTF-16 unit: `𠮷田` (a Japanese
 * surname) starts with a surrogate pair, and cutting it in half left a lone surrogate that PostgreSQL refuses
 * in a revision's jsonb, so every intake of such a guest failed. A code point would not be enough either: `é`
 * written as `e` + U+0301 would keep `e`, a flag 🇵🇹 half a flag.
 */
export function maskEmail(email: string): string {
  if (!email) return '';
  const [first, ...rest] = characters(email);
  return first + '*'.repeat(Math.max(rest.length, 1));
}

export function maskPhone(phone: string): string {
  // \D without the u flag: only ASCII digits are kept, so no surrogate survives into the slice below.
  const digits = phone.replace(/\D/g, '');
  if (!digits) return '';
  return '*'.repeat(Math.max(digits.length - 2, 0)) + digits.slice(-2);
}

export function maskLastName(lastName: string): string {
  const [initial] = characters(lastName.trim());
  return initial ? `${initial.toUpperCase()}.` : '';
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Text whose every unit is one whole character on its own (printable ASCII, Latin-1 and the Latin extensions up
 * to U+02FF: no surrogate, combining mark or joiner among them) is split by unit: nearly every name and e-mail,
 * where the segmenter costs about 15 us a field and a bookings list masks three fields a booking.
 */
const ONE_UNIT_EACH = /^[\x20-\x7e\xa0-\u02ff]*$/;

function characters(text: string): string[] {
  if (ONE_UNIT_EACH.test(text)) return text.split('');
  return Array.from(graphemes.segment(text), (g) => g.segment);
}
