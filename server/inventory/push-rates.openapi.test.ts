import { describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../testing/harness.ts';

/**
 * Issue 28 item 19: the docs UI made the Push prices example up from the schema, a row with both `rate` and
 * `prices` (which the push refuses) and a literal `"^(.*)$"` key (the occupancy map's key pattern). The document
 * now carries an example a partner can send as it is.
 */
const t = testAppPerFile();

describe('the Push prices request example', () => {
  it('shows rows with exactly one of rate or prices, and no key pattern as a literal key', async () => {
    const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
    const example = doc.paths['/v1/qc/properties/{property}/inventory/rates'].post.requestBody.content[
      'application/json'
    ].example as { values: Record<string, unknown>[] };
    expect(example.values.length).toBeGreaterThan(0);
    for (const row of example.values) expect(('rate' in row ? 1 : 0) + ('prices' in row ? 1 : 0)).toBe(1);
    expect(JSON.stringify(example)).not.toContain('^(.*)$');
  });
});
