import { beforeAll, describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { DEFAULT_AGE_GROUPS, SELL_TYPES, vocabulary } from './vocabulary.ts';

/**
 * The vocabulary invariants through HTTP: what a pair exposes is the pure rule applied to the room's beds
 * and the plan's sell type, and flipping the sell type away and back (PATCH, or PUT pricing-model)
 * restores the original vocabulary.
 */
let base: string;

const t = testAppPerFile();
const demo = perFile(() => t.demo());
beforeAll(async () => {
  base = `/v1/qc/properties/${(demo.properties[0] as { id: string }).id}`;
});

const beds = fc
  .record({
    regular: fc.integer({ min: 0, max: 6 }),
    extra: fc.integer({ min: 0, max: 3 }),
    childrenOnly: fc.integer({ min: 0, max: 3 }),
  })
  .map((b) => ({ ...b, childrenOnly: Math.min(b.childrenOnly, b.extra) }));
const sellType = fc.constantFrom(...SELL_TYPES);

async function occupanciesOf(planId: string) {
  const res = await t.request('GET', `${base}/rate_plans/${planId}`, { token: demo.personal_token });
  return res.body.data.rate_plans[0].occupancies;
}

describe('vocabulary through HTTP', () => {
  it('exposes the pure rule for the room and restores it after a sell-type flip and back', async () => {
    await fc.assert(
      fc.asyncProperty(beds, sellType, sellType, fc.boolean(), async (b, from, via, viaPricingModel) => {
        const token = demo.personal_token;
        const room = await t.request('POST', `${base}/room_types`, {
          token,
          body: { name: 'Gen', regular_beds: b.regular, extra_beds: b.extra, extra_beds_children_only: b.childrenOnly },
        });
        const plan = await t.request('POST', `${base}/rate_plans`, {
          token,
          body: { title: 'Gen', room_type_ids: [room.body.data.id], sell_type: from },
        });
        const id = plan.body.data.id;
        const original = await occupanciesOf(id);
        expect(original).toEqual(
          vocabulary(
            { regularBeds: b.regular, extraBeds: b.extra, extraBedsChildrenOnly: b.childrenOnly },
            from,
            DEFAULT_AGE_GROUPS,
          ),
        );
        for (const target of [via, from]) {
          const res = viaPricingModel
            ? await t.request('PUT', `${base}/rate_plans/${id}/pricing-model`, { token, body: { sell_type: target } })
            : await t.request('PATCH', `${base}/rate_plans/${id}`, { token, body: { sell_type: target } });
          expect(res.status).toBe(200);
        }
        expect(await occupanciesOf(id)).toEqual(original);
      }),
      { numRuns: 12 },
    );
  });
});
