import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { modifyBooking } from '../../server/bookings/intake.ts';
import { legacyTest, oldBookingId } from '../legacy-test-fixture.ts';

const { t, f } = legacyTest();

const PHONES = ['+351900000001', '+351900000002', '+351900000003'];
/** null: fetch again without a change; a phone: modify the booking (possibly to its current value). */
const steps = fc.array(fc.option(fc.constantFrom(...PHONES), { nil: null }), { minLength: 1, maxLength: 6 });

async function current(id: number): Promise<{ revision_id: string; revision_number: number }> {
  const res = await f.call('booking/getBookings', { query: { booking_id: id } });
  return res.body.data[0];
}

describe('legacy revision ids (property)', () => {
  it('from id 161300: the same content keeps its id; any change gives a new id and the next number', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (changes) => {
        const id = await f.book({ guest: { firstName: 'P', lastName: 'Q', phone: PHONES[0] } });
        let phone = PHONES[0];
        let last = await current(id);
        const seen = new Set([last.revision_id]);
        expect(last.revision_number).toBe(1);
        for (const next of changes) {
          if (next !== null) await modifyBooking(t.deps, id, { guest: { phone: next } });
          const changed = next !== null && next !== phone;
          phone = next ?? phone;
          const now = await current(id);
          if (changed) {
            expect(seen.has(now.revision_id)).toBe(false);
            expect(now.revision_number).toBe(last.revision_number + 1);
          } else {
            expect(now).toEqual(last);
          }
          seen.add(now.revision_id);
          last = now;
        }
      }),
      { numRuns: 12 },
    );
  });

  it('below 161300: the id is a function of the content alone and the number is always 1', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (changes) => {
        const id = await f.book({
          id: await oldBookingId(t),
          guest: { firstName: 'P', lastName: 'Q', phone: PHONES[0] },
        });
        const idByPhone = new Map<string, string>();
        let phone = PHONES[0] as string;
        for (const next of [null, ...changes]) {
          if (next !== null) await modifyBooking(t.deps, id, { guest: { phone: next } });
          phone = next ?? phone;
          const now = await current(id);
          expect(now.revision_number).toBe(1);
          expect(now.revision_id).toMatch(/^[0-9a-f]{32}$/);
          const known = idByPhone.get(phone);
          if (known) expect(now.revision_id).toBe(known);
          expect([...idByPhone].filter(([p, rid]) => p !== phone && rid === now.revision_id)).toEqual([]);
          idByPhone.set(phone, now.revision_id);
        }
      }),
      { numRuns: 12 },
    );
  });
});
