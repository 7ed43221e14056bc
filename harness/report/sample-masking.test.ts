import { describe, expect, it } from 'bun:test';
import { maskedBody, maskJsonBytes } from './sample-masking.ts';

const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(Buffer.concat(parts.map((p) => Buffer.from(p as string))));
const same = (a: Uint8Array | null, b: Uint8Array) =>
  expect(Buffer.from(a ?? []).toString('hex')).toBe(Buffer.from(b).toString('hex'));

describe('masking a kept body', () => {
  it('masks guest data in place and keeps every other byte, those that are not UTF-8 and a NUL too', () => {
    // Latin-1 as a legacy PHP answer may send it: ü is the byte FC, and the e-mail's first letter is é (E9).
    const body = bytes(
      '{"client":{"last_name":"M',
      [0xfc],
      'ller","email":"',
      [0xe9],
      'va@example.com"},"note":"a',
      [0x00, 0xff],
      '",  "price":240.0}',
    );
    same(
      maskedBody(body),
      bytes(
        `{"client":{"last_name":"M.","email":"\uFFFD${'*'.repeat('va@example.com'.length)}"},"note":"a`,
        [0x00, 0xff],
        '",  "price":240.0}',
      ),
    );
  });

  it('answers where each mask went in bytes, for a caller moving byte offsets', () => {
    const body = bytes('{"email":"ab@x.pt","n":"', [0xff], '"}');
    const edits: Array<{ start: number; end: number; length: number }> = [];
    const masked = maskJsonBytes(body, { email: () => 'e*' }, edits);
    same(masked, bytes('{"email":"e*","n":"', [0xff], '"}'));
    expect(edits).toEqual([{ start: 9, end: 18, length: 4 }]);
  });

  it('keeps a body that is not JSON as it is, a raw control character in a key included', () => {
    for (const body of [bytes('a', [0x00], 'b'), bytes('{"e', [0x01], 'mail":"x@y.z"}'), bytes([0xff, 0xfe])])
      expect(maskedBody(body)).toBe(body);
    expect(maskedBody(null)).toBeNull();
  });
});
