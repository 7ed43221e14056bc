import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { type AgeGroups, DEFAULT_AGE_GROUPS, SELL_TYPES, type SellType, vocabulary } from './vocabulary.ts';

const beds = (regularBeds: number, extraBeds = 0, extraBedsChildrenOnly = 0) => ({
  regularBeds,
  extraBeds,
  extraBedsChildrenOnly,
});
const codes = (b: ReturnType<typeof beds>, sellType: SellType, ages: AgeGroups = DEFAULT_AGE_GROUPS) =>
  vocabulary(b, sellType, ages)
    .map((e) => e.code)
    .join(' ');

// The README table "Occupancy vocabularies" lists exactly these examples.
describe('occupancy vocabulary rule', () => {
  it('prices a per_room pair by one ROOM code carrying the room capacity', () => {
    expect(vocabulary(beds(2, 1), 'per_room', DEFAULT_AGE_GROUPS)).toEqual([
      { code: 'ROOM', kind: 'manual', persons: 3 },
    ]);
    expect(vocabulary(beds(4, 2), 'per_room', DEFAULT_AGE_GROUPS)).toEqual([
      { code: 'ROOM', kind: 'manual', persons: 6 },
    ]);
  });

  it('gives per_person A1..An for the regular beds, AEB for adult extra beds and T/C/I by bed group', () => {
    expect(codes(beds(2, 1), 'per_person')).toBe('A1 A2 AEB TRB TEB TNB CRB CEB CNB IRB IEB INB');
    expect(codes(beds(4, 2, 1), 'per_person')).toBe('A1 A2 A3 A4 AEB TRB TEB TNB CRB CEB CNB IRB IEB INB');
    expect(codes(beds(1), 'per_person')).toBe('A1 TNB CNB INB');
    expect(codes(beds(2), 'per_person')).toBe('A1 A2 TRB TNB CRB CNB IRB INB');
    expect(codes(beds(2, 1, 1), 'per_person')).toBe('A1 A2 TRB TEB TNB CRB CEB CNB IRB IEB INB');
    expect(codes(beds(0, 1), 'per_person')).toBe('A1 AEB TEB TNB CEB CNB IEB INB');
  });

  it('gives per_occupancy A1..An plus one supplement per additional position up to capacity', () => {
    expect(codes(beds(2, 1), 'per_occupancy')).toBe('A1 A2 Apn1 Apn2 Tpn1 Tpn2 Cpn1 Cpn2 Ipn1 Ipn2');
    expect(codes(beds(1), 'per_occupancy')).toBe('A1');
    expect(codes(beds(2), 'per_occupancy')).toBe('A1 A2 Apn1 Tpn1 Cpn1 Ipn1');
    expect(codes(beds(2, 1, 1), 'per_occupancy')).toBe('A1 A2 Apn1 Tpn1 Tpn2 Cpn1 Cpn2 Ipn1 Ipn2');
    expect(codes(beds(0, 1), 'per_occupancy')).toBe('A1 Apn1 Tpn1 Cpn1 Ipn1');
    expect(codes(beds(4, 2, 1), 'per_occupancy')).toBe(
      'A1 A2 A3 A4 Apn1 Apn2 Apn3 Apn4 Tpn1 Tpn2 Tpn3 Tpn4 Tpn5 Cpn1 Cpn2 Cpn3 Cpn4 Cpn5 Ipn1 Ipn2 Ipn3 Ipn4 Ipn5',
    );
  });

  it('offers child codes only for the brackets the property has, and none when its age groups are inactive', () => {
    expect(codes(beds(2, 1), 'per_person', { isActive: false, letters: ['I', 'C', 'T'] })).toBe('A1 A2 AEB');
    expect(codes(beds(2, 1), 'per_person', { isActive: true, letters: ['I', 'C'] })).toBe(
      'A1 A2 AEB CRB CEB CNB IRB IEB INB',
    );
    expect(codes(beds(2, 1), 'per_occupancy', { isActive: true, letters: ['I', 'C'] })).toBe(
      'A1 A2 Apn1 Apn2 Cpn1 Cpn2 Ipn1 Ipn2',
    );
    expect(codes(beds(2, 1), 'per_occupancy', { isActive: true, letters: ['C'] })).toBe('A1 A2 Apn1 Apn2 Cpn1 Cpn2');
  });

  it('marks every computed code manual with the persons it prices', () => {
    const entries = vocabulary(beds(3, 1), 'per_person', DEFAULT_AGE_GROUPS);
    expect(entries.every((e) => e.kind === 'manual')).toBe(true);
    expect(entries.slice(0, 3).map((e) => e.persons)).toEqual([1, 2, 3]);
  });
});

const capacity = fc
  .record({
    regularBeds: fc.integer({ min: 0, max: 8 }),
    extraBeds: fc.integer({ min: 0, max: 4 }),
    childrenOnly: fc.integer({ min: 0, max: 4 }),
  })
  .map((b) => ({
    regularBeds: b.regularBeds,
    extraBeds: b.extraBeds,
    extraBedsChildrenOnly: Math.min(b.childrenOnly, b.extraBeds),
  }));
const sellType = fc.constantFrom(...SELL_TYPES);
const ageGroups = fc.record({ isActive: fc.boolean(), letters: fc.subarray(['I', 'C', 'T']) });

describe('occupancy vocabulary properties', () => {
  it('is a pure function: the same capacity, sell type and age groups always give the same entries', () => {
    fc.assert(
      fc.property(capacity, sellType, ageGroups, (b, s, a) => {
        expect(vocabulary({ ...b }, s, { ...a, letters: [...a.letters] })).toEqual(vocabulary(b, s, a));
      }),
      { numRuns: 200 },
    );
  });

  it('restores the original vocabulary after a flip to another sell type and back', () => {
    fc.assert(
      fc.property(capacity, sellType, sellType, ageGroups, (b, from, via, a) => {
        const original = vocabulary(b, from, a);
        vocabulary(b, via, a);
        expect(vocabulary(b, from, a)).toEqual(original);
      }),
      { numRuns: 200 },
    );
  });

  it('has unique codes, A1 first outside per_room, and adults bounded by the regular beds', () => {
    fc.assert(
      fc.property(capacity, sellType, ageGroups, (b, s, a) => {
        const list = vocabulary(b, s, a).map((e) => e.code);
        expect(new Set(list).size).toBe(list.length);
        if (s === 'per_room') expect(list).toEqual(['ROOM']);
        else {
          expect(list[0]).toBe('A1');
          expect(list.filter((c) => /^A\d+$/.test(c))).toHaveLength(Math.max(1, b.regularBeds));
        }
      }),
      { numRuns: 200 },
    );
  });
});
