import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { maskEmail, maskLastName, maskPhone } from './guest-masking.ts';

/**
 * Masked guest fields go into revisions stored as jsonb, which refuses a lone surrogate: a mask must never cut a
 * character in half, whatever the guest's text (the intake refuses text that already holds a lone surrogate).
 */
const guestText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme-composite', maxLength: 12 }),
  fc
    .tuple(fc.constantFrom('𠮷', '𝒜', '🇵🇹', '👨‍👩‍👧', 'e\u0301', ' ', '\r\n'), fc.string({ maxLength: 8 }))
    .map(([head, tail]) => head + tail),
);

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const firstCharacter = (text: string) => graphemes.segment(text)[Symbol.iterator]().next().value?.segment ?? '';

describe('guest masking', () => {
  it('never yields a lone surrogate, whatever the text', () => {
    fc.assert(
      fc.property(guestText, (text) => {
        expect(maskEmail(text).isWellFormed()).toBe(true);
        expect(maskLastName(text).isWellFormed()).toBe(true);
        expect(maskPhone(text).isWellFormed()).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the whole first character of an e-mail and of a last name', () => {
    fc.assert(
      fc.property(guestText, (text) => {
        const email = maskEmail(text);
        if (text) expect(email.startsWith(firstCharacter(text))).toBe(true);
        const trimmed = text.trim();
        expect(maskLastName(text)).toBe(trimmed ? `${firstCharacter(trimmed).toUpperCase()}.` : '');
      }),
      { numRuns: 2000 },
    );
  });

  it('masks as the README shows, one asterisk per hidden character', () => {
    expect(maskEmail('ann.smith@example.com')).toBe(`a${'*'.repeat(20)}`);
    expect(maskPhone('+351 912 345 678')).toBe('**********78');
    expect(maskLastName('Smith')).toBe('S.');
    expect(maskLastName('𠮷田')).toBe('𠮷.');
    expect(maskEmail('𝒜nn@x.com')).toBe(`𝒜${'*'.repeat(8)}`);
    expect(maskLastName(' Øyvindsen')).toBe('Ø.');
  });
});
