import type { PropertyRow } from '../core/resolve.ts';
import type { Demo } from '../demo/demo.ts';
import type { TestApp } from '../testing/harness.ts';
import { type IncomingReview, receiveReview } from './intake.ts';

/** A review arriving from `channel` on the demo's live property, through the intake both channels use. */
export async function givenReview(
  t: TestApp,
  demo: Demo,
  channel: string,
  over: Partial<IncomingReview> = {},
): Promise<string> {
  const [property] = await t.deps.db.sql<PropertyRow>`
    select * from properties where external_id = ${demo.properties[0]?.id as string}`;
  const { review } = await receiveReview(t.deps, property as PropertyRow, channel, {
    channel_review_id: `R-${crypto.randomUUID()}`,
    // Within every channel's scale (Expedia's is 5).
    rating: 4.5,
    title: 'Great stay',
    body: 'Friendly staff, quiet room.',
    reviewer_name: 'Anna',
    language: 'en',
    submitted_at: '2026-06-20T08:00:00.000Z',
    ...over,
  });
  return review.external_id;
}
