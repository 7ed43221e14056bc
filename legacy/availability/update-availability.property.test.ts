import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { addDays } from '../../server/core/days.ts';
import { legacyTest } from '../legacy-test-fixture.ts';

const { t, f } = legacyTest();

const FIRST = '2030-11-01';
const LAST = '2030-11-20';

type Row =
  | { kind: 'valid'; room: number; from: number; span: number; qty: number }
  | { kind: 'invalid'; body: (room: number) => unknown };

const invalidRows: ((room: number) => unknown)[] = [
  (room) => ({ room_id: room, date: FIRST, qty: -2 }),
  (room) => ({ room_id: room, date: FIRST }),
  (room) => ({ room_id: room, ext_room_id: 'X', date: FIRST, qty: 1 }),
  () => ({ date: FIRST, qty: 1 }),
  () => ({ room_id: 987654321, date: FIRST, qty: 1 }),
  (room) => ({ room_id: room, date: '2030-11-31', qty: 1 }),
  (room) => ({ room_id: room, date_from: LAST, date_to: FIRST, qty: 1 }),
  (room) => ({ room_id: room, qty: 1 }),
  (room) => ({ room_id: room, date: FIRST, qty: 1.5 }),
  () => ({ ext_room_id: 'UNMAPPED', date: FIRST, qty: 1 }),
];

const rowArb: fc.Arbitrary<Row> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('valid' as const),
      room: fc.nat(1),
      from: fc.nat(19),
      span: fc.nat(4),
      qty: fc.nat(9),
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom(...invalidRows).map((body) => ({ kind: 'invalid' as const, body })) },
);

describe('updateAvailability batches (property)', () => {
  it('leaves exactly the rows before the first invalid one applied, last write winning', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 8 }), async (rows) => {
        await t.deps.db.sql`delete from availability where room_type_id = any(${f.roomIds}::bigint[])
          and date between ${FIRST}::date and ${LAST}::date`;
        const values = rows.map((r) => {
          const room = f.roomIds[r.kind === 'valid' ? r.room : 0] as number;
          if (r.kind === 'invalid') return r.body(room);
          const from = addDays(FIRST, r.from);
          const to = addDays(FIRST, Math.min(r.from + r.span, 19));
          return { room_id: room, date_from: from, date_to: to, qty: r.qty };
        });
        const res = await f.call('availability/updateAvailability', { body: { values } });

        const expected = new Map<string, number>();
        const firstInvalid = rows.findIndex((r) => r.kind === 'invalid');
        for (const r of firstInvalid < 0 ? rows : rows.slice(0, firstInvalid)) {
          if (r.kind !== 'valid') continue;
          for (let d = r.from; d <= Math.min(r.from + r.span, 19); d++)
            expected.set(`${f.roomIds[r.room]}|${addDays(FIRST, d)}`, r.qty);
        }
        const stored = await t.deps.db.sql<{ room_type_id: number; date: string; offered: number }>`
          select room_type_id, date, offered from availability
          where room_type_id = any(${f.roomIds}::bigint[]) and date between ${FIRST}::date and ${LAST}::date`;
        const actual = new Map(stored.map((s) => [`${s.room_type_id}|${s.date}`, s.offered]));

        expect(res.status === 200).toBe(firstInvalid < 0);
        expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
      }),
      { numRuns: 40 },
    );
  });
});
