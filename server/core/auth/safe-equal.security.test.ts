import { describe, expect, test } from 'bun:test';
import { safeEqual } from './secrets.ts';

// safeEqual compares digests so that a wrong length takes as long as a wrong value (the operator token's length
// showed through the timing of a length check); these pin that it still answers exactly.
describe('safeEqual', () => {
  test('equal secrets of any length compare equal', () => {
    for (const secret of ['', 'a', 'qc_op_0123456789abcdef', 'é'.repeat(300)])
      expect(safeEqual(secret, `${secret}`)).toBe(true);
  });

  test('a prefix, a longer secret or one differing in one character compares unequal', () => {
    const expected = 'qc_op_0123456789abcdef';
    for (const sent of ['', expected.slice(0, -1), `${expected}0`, expected.replace('f', 'e'), expected.toUpperCase()])
      expect(safeEqual(sent, expected)).toBe(false);
  });
});
