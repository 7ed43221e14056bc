import { describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../testing/harness.ts';
import { subscribe, subscriberDemoPerFile } from '../webhooks/test-support.ts';

/**
 * A subscription URL with credentials (`https://user:secret@host/`) was accepted, stored and shown back in every
 * view and delivery log: refused like a legacy upstream's (issue 25 N11), 422 `userinfo` on the field, on create
 * and update, even where private destinations are allowed (this app runs with QC_WEBHOOK_ALLOW_PRIVATE=1).
 */
const t = testAppPerFile();
const demo = subscriberDemoPerFile(t);
const userinfo = ['customer.subscription.messages.userinfo'];

describe('subscription URLs with credentials', () => {
  it('refuses user:password@, user@ and :password@ on create, under url and target_url', async () => {
    for (const [field, url] of [
      ['url', 'https://pms:s3cret@pms.example.com/hooks'],
      ['url', 'https://pms@pms.example.com/hooks'],
      ['target_url', 'https://:s3cret@pms.example.com/hooks'],
    ] as const) {
      const res = await t.request('POST', '/v1/qc/subscriptions', {
        token: demo.personal_token,
        body: { [field]: url, event: 'booking.created' },
      });
      expect({ url, status: res.status, message: res.body.message, errors: res.body.errors }).toEqual({
        url,
        status: 422,
        message: 'errors.validation_error',
        errors: { [field]: userinfo },
      });
    }
  });

  it('refuses them on update and keeps the stored URL', async () => {
    const sub = await subscribe(t, demo.personal_token, {
      url: 'https://pms.example.com/hooks',
      event: 'booking.created',
    });
    const res = await t.request('PATCH', `/v1/qc/subscriptions/${sub.id}`, {
      token: demo.personal_token,
      body: { url: 'https://pms:s3cret@pms.example.com/hooks' },
    });
    expect([res.status, res.body.errors]).toEqual([422, { url: userinfo }]);
    const shown = await t.request('GET', `/v1/qc/subscriptions/${sub.id}`, { token: demo.personal_token });
    expect(shown.body.data.url).toBe('https://pms.example.com/hooks');
  });
});
