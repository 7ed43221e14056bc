/**
 * Guest fields as partners see them (spec 1, item 9), in every revision and booking answer: the e-mail
 * keeps its first character followed by asterisks, the phone shows asterisks except its last two digits,
 * the last name is reduced to an initial. The asterisk runs keep the original length so the masked value
 * still hints at the shape without revealing it.
 */
export function maskEmail(email: string): string {
  if (!email) return '';
  return email.slice(0, 1) + '*'.repeat(Math.max(email.length - 1, 1));
}

export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (!digits) return '';
  return '*'.repeat(Math.max(digits.length - 2, 0)) + digits.slice(-2);
}

export function maskLastName(lastName: string): string {
  const initial = lastName.trim().slice(0, 1);
  return initial ? `${initial.toUpperCase()}.` : '';
}
