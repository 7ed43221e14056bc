import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { customerFixture } from '../testing/test-customer.ts';

/**
 * Issue 16 defect 9: setting your partner code to another customer's property id revealed that the id exists.
 * Another customer's id and an id nobody has must be answered alike: accepted as a code, and resolving to the
 * caller's own property.
 */
const t = testAppPerFile();
const mine = perFile(() => customerFixture(t.deps));
const theirs = perFile(() => customerFixture(t.deps));

describe("a partner code that is another customer's property id", () => {
  it('is answered exactly like an id nobody has, and names only my property', async () => {
    const token = mine.token;
    const [first, second] = [mine.live.external_id, mine.shadow.external_id];
    const taken = theirs.live.external_id;
    const nobodys = crypto.randomUUID();
    const setCode = (property: string, code: string) =>
      t.request('PATCH', `/v1/qc/properties/${property}`, { token, body: { partner_code: code } });

    const a = await setCode(first, taken);
    const b = await setCode(second, nobodys);
    expect([a.status, b.status]).toEqual([200, 200]);
    const byTaken = await t.request('GET', `/v1/qc/properties/${taken}`, { token });
    const byNobodys = await t.request('GET', `/v1/qc/properties/${nobodys}`, { token });
    expect([byTaken.status, byNobodys.status]).toEqual([200, 200]);
    expect(byTaken.body.data.id).toBe(first);
    expect(byNobodys.body.data.id).toBe(second);
    // The other customer still sees its own property under that id.
    const theirsRead = await t.request('GET', `/v1/qc/properties/${taken}`, { token: theirs.token });
    expect(theirsRead.body.data.id).toBe(taken);
  });
});
