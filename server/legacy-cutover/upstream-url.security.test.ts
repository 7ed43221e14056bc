import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';

/**
 * Issue 25 N11: `PUT /ops/legacy-keys/{id}/cutover` took `http://169.254.169.254/...`, `http://127.0.0.1:5440/`
 * and URLs with credentials as a legacy upstream, so a holder of the operator token could make the service send
 * PMS requests (api_keys included) to the metadata endpoint or any local port. A legacy upstream now follows
 * the webhook destination rules, with an explicit override for a private legacy service.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());

async function legacyKeyId(): Promise<number> {
  const res = await t.ops('POST', '/ops/legacy-keys', { property_id: demo.properties[0]?.id, mode: 'live' });
  expect(res.status).toBe(200);
  return res.body.data.id;
}

const problemOf = (res: { status: number; body: { errors?: Record<string, string[]> } }) =>
  res.status === 200 ? 'accepted' : `${res.status} ${res.body.errors?.upstream_url?.[0]}`;

describe('legacy upstream URLs', () => {
  it('refuses link-local (metadata), loopback, private and credential-carrying URLs', async () => {
    const id = await legacyKeyId();
    const cases: [string, string][] = [
      ['http://169.254.169.254/latest/meta-data/', '422 customer.legacy_key.messages.link_local'],
      ['http://[::ffff:169.254.169.254]/', '422 customer.legacy_key.messages.link_local'],
      ['http://[fe80::1]/', '422 customer.legacy_key.messages.link_local'],
      ['http://0.0.0.0:5440/', '422 customer.legacy_key.messages.link_local'],
      ['http://127.0.0.1:5440/', '422 customer.legacy_key.messages.private_address'],
      ['http://localhost:5440/', '422 customer.legacy_key.messages.private_address'],
      ['http://[::1]:8080/', '422 customer.legacy_key.messages.private_address'],
      ['http://10.1.2.3/', '422 customer.legacy_key.messages.private_address'],
      ['http://user:secret@93.184.215.14/', '422 customer.legacy_key.messages.userinfo'],
      ['http://user@93.184.215.14/', '422 customer.legacy_key.messages.userinfo'],
      ['http://93.184.215.14/legacy', 'accepted'],
    ];
    const answers = [];
    for (const [url] of cases) {
      const res = await t.ops('PUT', `/ops/legacy-keys/${id}/cutover`, { mode: 'shadow', upstream_url: url });
      answers.push([url, problemOf(res)]);
    }
    expect(answers).toEqual(cases);
    // The remedy is the key's own override, not the webhooks' development switch.
    const loopback = await t.ops('PUT', `/ops/legacy-keys/${id}/cutover`, {
      mode: 'shadow',
      upstream_url: 'http://127.0.0.1:5440/',
    });
    expect(loopback.body.detail).toBe(
      'upstream_url: resolves to a private or loopback address (send "allow_private_upstream": true beside it, or start the service with QC_LEGACY_UPSTREAM_ALLOW_PRIVATE=1).',
    );
  });

  it('takes a private or loopback legacy service with the operator override, never a link-local one', async () => {
    const id = await legacyKeyId();
    const put = (upstream_url: string) =>
      t.ops('PUT', `/ops/legacy-keys/${id}/cutover`, { mode: 'shadow', upstream_url, allow_private_upstream: true });
    expect(problemOf(await put('http://10.1.2.3/'))).toBe('accepted');
    expect(problemOf(await put('http://127.0.0.1:5440/'))).toBe('accepted');
    expect((await t.ops('GET', `/ops/legacy-keys/${id}`)).body.data.upstream_url).toBe('http://127.0.0.1:5440/');
    expect(problemOf(await put('http://169.254.169.254/'))).toBe('422 customer.legacy_key.messages.link_local');
    expect(problemOf(await put('http://admin:pw@10.1.2.3/'))).toBe('422 customer.legacy_key.messages.userinfo');
    // A refused URL leaves the key as it was.
    expect((await t.ops('GET', `/ops/legacy-keys/${id}`)).body.data.upstream_url).toBe('http://127.0.0.1:5440/');
  });

  it('holds when a key is created with an upstream too', async () => {
    const res = await t.ops('POST', '/ops/legacy-keys', {
      property_id: demo.properties[0]?.id,
      upstream_url: 'http://169.254.169.254/',
      allow_private_upstream: true,
    });
    expect(problemOf(res)).toBe('422 customer.legacy_key.messages.link_local');
  });
});
