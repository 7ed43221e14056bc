import { afterAll, beforeAll, describe, expect, it, spyOn } from 'bun:test';
import { type LegacyFixture, legacyFixture } from '../../legacy/legacy-test-fixture.ts';
import { ManualClock } from '../core/clock.ts';
import { freePort } from '../testing/free-port.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { type LegacyCall, scores, send, setMode } from './cutover-test-fixture.ts';

/**
 * Live mode and an upstream that fails. The stand-ins here are real HTTP servers on loopback: one that counts
 * what reaches it, one that takes requests and never answers, and a port nobody listens on.
 */
let t: TestApp;
let f: LegacyFixture;
let hits = 0;
const counting = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch() {
    hits++;
    return new Response('{"message":"Success"}', { headers: { 'content-type': 'application/json' } });
  },
});
const hanging = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Promise<Response>(() => {}) });
/** The legacy service's own gateway (nginx in front of PHP-FPM) when the PHP behind it is down. */
const BAD_GATEWAY = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
const gateway = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: () => new Response(BAD_GATEWAY, { status: 502, headers: { 'content-type': 'text/html' } }),
});

beforeAll(async () => {
  t = await startTestApp({
    clock: new ManualClock('2030-06-15T10:00:00Z'),
    env: { QC_LEGACY_UPSTREAM_TIMEOUT_MS: '300' },
  });
  f = await legacyFixture(t);
});

afterAll(async () => {
  await t.close();
  counting.stop(true);
  hanging.stop(true);
  gateway.stop(true);
});

/** Each test writes its own day of the first room, so what one wrote never hides what another did not. */
function writeFor(date: string): LegacyCall {
  const values = [{ room_id: f.roomIds[0], date, qty: 4 }];
  return { method: 'POST', path: 'availability/updateAvailability', body: { values } };
}

async function stored(date: string): Promise<number | undefined> {
  const [row] = await t.deps.db.sql<{ offered: number }>`
    select offered from availability where room_type_id = ${f.roomIds[0] as number} and date = ${date}`;
  return row?.offered;
}

describe('live mode', () => {
  it('answers from the port and never calls the upstream, even with one configured', async () => {
    const { key, keyId } = await f.anotherKey();
    await setMode(t, keyId, 'live', counting.url.href);
    const calls: LegacyCall[] = [
      { method: 'GET', path: 'property/getRoomsDetails' },
      { method: 'GET', path: 'booking/getBookings' },
      writeFor('2030-06-20'),
      { method: 'GET', path: 'nosuch/method' },
    ];
    for (const call of calls) await send(t, call, key);
    expect(hits).toBe(0);
    expect(await stored('2030-06-20')).toBeGreaterThanOrEqual(4);

    // The same key flipped to shadow does reach it: the counter counts. The flip is logged, from and to.
    const info = spyOn(t.deps.log, 'info');
    await setMode(t, keyId, 'shadow');
    expect(info.mock.calls.find(([msg]) => msg === 'legacy cutover changed')?.[1]).toEqual({
      key_id: keyId,
      from: 'live',
      to: 'shadow',
      upstream: counting.url.origin,
    });
    info.mockRestore();
    await send(t, calls[0] as LegacyCall, key);
    expect(hits).toBe(1);
  });
});

describe('an upstream that fails, in shadow mode', () => {
  it('answers 502 in the legacy failure form when nothing listens, and the write is not taken', async () => {
    const { key, keyId } = await f.anotherKey();
    const upstream = `http://127.0.0.1:${freePort()}`;
    await setMode(t, keyId, 'shadow', upstream);
    const before = await stored('2030-06-21');
    const warn = spyOn(t.deps.log, 'warn');

    const answer = await send(t, writeFor('2030-06-21'), key);

    // The operator's log names the upstream that failed (docs/migration.md: "the reason (host, error) is logged").
    expect(warn.mock.calls.find(([msg]) => msg === 'legacy upstream gave no answer')?.[1]).toMatchObject({
      key_id: keyId,
      upstream,
      failure: 'unreachable',
    });
    warn.mockRestore();

    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.text).toBe('{"message":"Throw Error Exception\\nMsg: Legacy service unreachable\\nCode: 0"}');
    expect(await stored('2030-06-21')).toBe(before);
    const [day] = (await scores(t, keyId, '2030-06-15', '2030-06-15')).days;
    expect(day).toMatchObject({ compared: 0, unanswered: 1 });
  });

  it('answers 504 once the upstream is slower than QC_LEGACY_UPSTREAM_TIMEOUT_MS, never the dry run', async () => {
    const { key, keyId } = await f.anotherKey();
    await setMode(t, keyId, 'shadow', hanging.url.href);
    const before = await stored('2030-06-22');

    const answer = await send(t, writeFor('2030-06-22'), key);

    expect(answer.status).toBe(504);
    expect(answer.text).toBe(
      '{"message":"Throw Error Exception\\nMsg: Legacy service did not answer within 300 ms\\nCode: 0"}',
    );
    expect(await stored('2030-06-22')).toBe(before);
  });

  it("forwards its own gateway's 502 unchanged and counts it unanswered, not against the port", async () => {
    const { key, keyId } = await f.anotherKey();
    await setMode(t, keyId, 'shadow', gateway.url.href);
    t.clock.set('2030-06-16T10:00:00Z');
    const answer = await send(t, { method: 'GET', path: 'property/getRoomsDetails' }, key);
    t.clock.set('2030-06-15T10:00:00Z');

    expect([answer.status, answer.headers.get('content-type'), answer.text]).toEqual([502, 'text/html', BAD_GATEWAY]);
    const [day] = (await scores(t, keyId, '2030-06-16', '2030-06-16')).days;
    expect(day).toMatchObject({ compared: 0, different: 0, unanswered: 1 });
  });

  it('refuses shadow mode when no upstream is configured at all', async () => {
    const { keyId } = await f.anotherKey();
    const res = await t.ops('PUT', `/ops/legacy-keys/${keyId}/cutover`, { mode: 'shadow' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ message: 'errors.qc.legacy_upstream_missing' });
  });
});
