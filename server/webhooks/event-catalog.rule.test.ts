import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { ManualClock } from '../core/clock.ts';
import { EVENT_CATALOG } from '../core/event-catalog.ts';
import type { Log, LogFields } from '../core/log.ts';
import type { Demo } from '../demo/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { relayBatch } from './relay.ts';
import { retireSubscriptions, startReceiver, subscribe } from './test-support.ts';

const repoRoot = join(import.meta.dir, '..', '..');

/**
 * The event types the source emits, read from the `recordEvent` calls (and config-surfaces' recordWrite/deleteOwned): literal `type: 'x.y'`, and
 * templates `type: \`x.${kind}\`` expanded with the quoted words of the same file (the union of kinds).
 */
function emittedInSource(): { literal: Set<string>; all: Set<string> } {
  const literal = new Set<string>();
  const all = new Set<string>();
  for (const dir of ['server', 'actors', 'legacy']) {
    for (const file of new Bun.Glob('**/*.ts').scanSync({ cwd: join(repoRoot, dir), absolute: true })) {
      if (file.endsWith('.test.ts') || file.endsWith('event-catalog.ts') || file.endsWith('test-support.ts')) continue;
      const text = readFileSync(file, 'utf8');
      // Configuration features emit through the config-surfaces helpers, which take the literal type too.
      if (!/\b(recordEvent|recordWrite|deleteOwned|deleteUnusedPolicy)\(/.test(text)) continue;
      for (const m of text.matchAll(/type:\s*'([a-z_]+(?:\.[a-z_]+)+)'/g)) {
        literal.add(m[1] as string);
        all.add(m[1] as string);
      }
      for (const m of text.matchAll(/type:\s*`([a-z_.]+\.)\$\{/g)) {
        for (const word of text.matchAll(/'([a-z_]+)'/g)) all.add(`${m[1]}${word[1]}`);
      }
    }
  }
  return { literal, all };
}

describe('event catalogue', () => {
  let t: TestApp;
  let demo: Demo;

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(new Date('2026-01-09T00:00:00Z')), webhooks: { autorun: false } });
    demo = await t.demo();
  });
  afterAll(async () => {
    await retireSubscriptions(t.deps, demo.customer_id);
    await t.close();
  });

  it('lists every event with its data schema and an example that fits it, for any token', async () => {
    const { token } = await t.client({ customer_id: demo.customer_id, scopes: [] });
    const res = await t.request('GET', '/v1/qc/event-catalog', { token });
    expect(res.status).toBe(200);
    const events = res.body.data.events as {
      type: string;
      alias_of: string | null;
      data_schema: object;
      example: unknown;
    }[];
    expect(events.map((e) => e.type)).toEqual(EVENT_CATALOG.map((e) => e.type));
    expect(new Set(events.map((e) => e.type)).size).toBe(events.length);
    expect(res.body.data.meta).toEqual({ total: events.length, page: 1, per_page: 200, last_page: 1 });
    for (const spec of EVENT_CATALOG)
      expect({ type: spec.type, fits: Value.Check(spec.data, spec.example) }).toEqual({ type: spec.type, fits: true });
    expect(events.find((e) => e.type === 'booking.arrived')?.alias_of).toBe('booking.created');
    expect(events.find((e) => e.type === 'booking.created')?.data_schema).toMatchObject({
      type: 'object',
      required: ['booking_id', 'revision_id', 'checkin_date', 'checkout_date'],
    });
  });

  it('lists only events that some recordEvent call emits', () => {
    const { all } = emittedInSource();
    const notEmitted = EVENT_CATALOG.filter((e) => !all.has(e.aliasOf ?? e.type)).map((e) => e.type);
    expect(notEmitted).toEqual([]);
  });

  it('catalogues every event type the source emits', () => {
    const catalogued = new Set(EVENT_CATALOG.map((e) => e.type));
    expect([...emittedInSource().literal].filter((type) => !catalogued.has(type))).toEqual([]);
  });

  it('matches the data the features really emit: the events of the demo fixture fit their catalogue shapes', async () => {
    const fresh = await t.demo();
    const warnings: LogFields[] = [];
    const log: Log = { info: () => {}, error: () => {}, warn: (_msg, fields) => void warnings.push(fields ?? {}) };
    while ((await relayBatch({ ...t.deps, log })).events > 0) {}
    const events = await t.deps.db.sql<{ event_id: string; type: string }>`
      select event_id, type from outbox_events where customer_id = ${fresh.customer_id}`;
    expect(events.length).toBeGreaterThan(0);
    const mine = new Set(events.map((e) => e.event_id));
    expect(warnings.filter((w) => mine.has(String(w.event_id)))).toEqual([]);
  });

  it('delivers property.mode_changed when the operator flips a property, once per actual change', async () => {
    const receiver = startReceiver();
    try {
      const live = demo.properties[0];
      await subscribe(t, demo.personal_token, { url: receiver.url, event: 'property.mode_changed' });
      for (const mode of ['shadow', 'shadow', 'live']) {
        const res = await t.ops('PUT', `/ops/properties/${live?.external_property_id}/mode`, { mode });
        expect(res.status).toBe(200);
      }
      await t.webhooks?.runDue();
      expect(receiver.received.map((r) => JSON.parse(r.body))).toEqual([
        expect.objectContaining({
          type: 'property.mode_changed',
          property_id: live?.external_property_id,
          data: { property_id: live?.external_property_id, mode: 'shadow', previous_mode: 'live' },
        }),
        expect.objectContaining({
          type: 'property.mode_changed',
          data: { property_id: live?.external_property_id, mode: 'live', previous_mode: 'shadow' },
        }),
      ]);
    } finally {
      await receiver.stop();
    }
  });
});
