import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { safeFileName } from './safe-file-name.ts';

describe('safeFileName', () => {
  it('keeps at most 100 whole characters: a letter beyond the BMP is never cut in half', () => {
    expect(safeFileName(`a${'𠮷'.repeat(120)}.jpg`, 'jpeg')).toBe(`a${'𠮷'.repeat(99)}`);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (sent) => {
        const name = safeFileName(sent, 'png');
        expect(name.isWellFormed()).toBe(true);
        expect(Array.from(name).length).toBeLessThanOrEqual(100);
      }),
    );
  });
});
