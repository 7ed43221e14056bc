import { maskEmail, maskLastName, maskPhone } from '../../server/core/guest-masking.ts';
import { lastKeys } from '../compare/json-path.ts';
import { jsonScalars } from '../compare/json-tokens.ts';

/**
 * Guest data in a kept sample, masked as the partner API masks it (spec 1, item 9): any object's `email`,
 * `phone`, `last_name` (legacy revisions carry them under `client`). The harness's reports mask with the same
 * rules (harness/report/redact.ts imports these).
 */
export const GUEST_MASKS: Readonly<Record<string, (value: string) => string>> = {
  email: maskEmail,
  phone: maskPhone,
  last_name: maskLastName,
};

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * A kept body with guest data masked and every other byte as sent: a sample shows what each side sent (`22.0`
 * stays `22.0`, `<\/p>` stays escaped, a NUL or a byte that is not UTF-8 stays that byte), so a representation
 * difference can be read in it. A body that is not JSON is kept as it is.
 */
export function maskedBody(bytes: Uint8Array | null): Uint8Array | null {
  return bytes === null ? null : maskJsonBytes(bytes, GUEST_MASKS);
}

/**
 * `bytes` with every string value under one of `masks`' keys replaced by its mask (UTF-8), in place: every other
 * byte stays, those that are not UTF-8 too (a legacy answer in Latin-1 is still masked). Not JSON: answered
 * unchanged. `edits` receives each replacement (byte positions, the new length), for a caller that must move
 * byte offsets into the body (the report's marks).
 */
export function maskJsonBytes(
  bytes: Uint8Array,
  masks: Readonly<Record<string, (value: string) => string>>,
  edits?: Array<{ start: number; end: number; length: number }>,
): Uint8Array {
  // One character per byte: the JSON structure is ASCII, so positions found in it are byte positions.
  const scalars = jsonScalars(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1'));
  if (!scalars) return bytes;
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const { path, start, end } of scalars) {
    const mask = masks[lastKeys(path).key ?? ''];
    if (!mask || bytes[start] !== 0x22) continue;
    const masked = encoder.encode(JSON.stringify(mask(stringValue(utf8.decode(bytes.subarray(start, end))))));
    parts.push(bytes.subarray(from, start), masked);
    edits?.push({ start, end, length: masked.length });
    from = end;
  }
  return from === 0 ? bytes : Buffer.concat([...parts, bytes.subarray(from)]);
}

/** A JSON string token's value; control characters written raw (not JSON, but a legacy answer may) read as themselves. */
function stringValue(token: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the raw control characters JSON.parse refuses.
  return JSON.parse(token.replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** The same masking on a differing field's value, by the field's path (`$.data[0].client.email`). */
export function maskedValue(
  path: string,
  value: unknown,
  masks: Readonly<Record<string, (value: string) => string>> = GUEST_MASKS,
): unknown {
  const mask = masks[lastKeys(path).key ?? ''];
  if (typeof value === 'string' && mask) return mask(value);
  return maskTree(value, masks);
}

function maskTree(value: unknown, masks: Readonly<Record<string, (value: string) => string>>): unknown {
  if (Array.isArray(value)) return value.map((inner) => maskTree(inner, masks));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const mask = masks[key];
      return [key, mask && typeof inner === 'string' ? mask(inner) : maskTree(inner, masks)];
    }),
  );
}
