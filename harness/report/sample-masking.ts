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

/**
 * A kept body with guest data masked and every other byte as sent: a sample shows what each side sent (`22.0`
 * stays `22.0`, `<\/p>` stays escaped), so a representation difference can be read in it. A body that is not
 * JSON is kept as text.
 */
export function maskedBody(bytes: Uint8Array | null): string | null {
  if (bytes === null) return null;
  return maskJsonText(utf8.decode(bytes), GUEST_MASKS);
}

/**
 * `text` with every string value under one of `masks`' keys replaced by its mask, in place: the other bytes stay.
 * Not JSON: answered unchanged. `edits` receives each replacement (string positions, the new length), for a
 * caller that must move positions in the text (the report's byte offsets).
 */
export function maskJsonText(
  text: string,
  masks: Readonly<Record<string, (value: string) => string>>,
  edits?: Array<{ start: number; end: number; length: number }>,
): string {
  const scalars = jsonScalars(text);
  if (!scalars) return text;
  let out = '';
  let from = 0;
  for (const { path, start, end } of scalars) {
    const mask = masks[lastKeys(path).key ?? ''];
    if (!mask || text[start] !== '"') continue;
    const masked = JSON.stringify(mask(JSON.parse(text.slice(start, end)) as string));
    out += `${text.slice(from, start)}${masked}`;
    edits?.push({ start, end, length: masked.length });
    from = end;
  }
  return from === 0 ? text : out + text.slice(from);
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
