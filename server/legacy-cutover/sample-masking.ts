import { maskEmail, maskLastName, maskPhone } from '../bookings/masking.ts';

/**
 * Guest data in a kept sample, masked as the partner API masks it (spec 1, item 9): any object's `email`,
 * `phone`, `last_name` (legacy revisions carry them under `client`). A JSON body is parsed and written again
 * (a sample is for reading, not for byte comparison: the comparison already ran on the exact bytes); any
 * other body is kept as text.
 */
export function maskedBody(bytes: Uint8Array | null): string | null {
  if (bytes === null) return null;
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.stringify(maskGuest(JSON.parse(text)));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return text;
  }
}

/** The same masking on a differing field's value, by the field's path (`$.data[0].client.email`). */
export function maskedValue(path: string, value: unknown): unknown {
  const field = path.match(/\.([a-z_]+)$/)?.[1];
  if (typeof value === 'string' && field && field in MASKS) return MASKS[field]?.(value);
  return maskGuest(value);
}

const MASKS: Record<string, (value: string) => string> = {
  email: maskEmail,
  phone: maskPhone,
  last_name: maskLastName,
};

function maskGuest(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskGuest);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const mask = MASKS[key];
      return [key, mask && typeof inner === 'string' ? mask(inner) : maskGuest(inner)];
    }),
  );
}
