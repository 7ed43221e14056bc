import { afterEach, describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../../testing/harness.ts';
import type { Log, LogFields } from '../log.ts';

/**
 * Issue 28 item 19: every 4xx answer was logged as `incident`, so an operator searching the logs for incidents
 * read partners' typos. Our failures (5xx) stay `incident`; an expected refusal is `request refused`.
 */
const t = testAppPerFile();
const lines: { msg: string; fields?: LogFields }[] = [];
let original: Log | undefined;

function recordLog() {
  original = t.deps.log;
  const record = (msg: string, fields?: LogFields) => void lines.push({ msg, fields });
  (t.deps as { log: Log }).log = { info: record, warn: record, error: record };
}

afterEach(() => {
  if (original) (t.deps as { log: Log }).log = original;
  lines.length = 0;
});

describe('the log line of an error answer', () => {
  it('logs an expected 4xx (a 401 without a token, a 422) as a refusal, never as an incident', async () => {
    recordLog();
    const anonymous = await t.request('GET', '/v1/qc/properties');
    expect(anonymous.status).toBe(401);
    const ticket = anonymous.headers.get('x-qc-support-ticket');
    const refused = lines.find((line) => line.fields?.ticket === ticket);
    expect(refused?.msg).toBe('request refused');
    expect(lines.some((line) => line.msg === 'incident')).toBe(false);
  });
});
