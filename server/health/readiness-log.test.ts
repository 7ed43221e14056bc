import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { LogFields } from '../core/log.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { healthRoutes } from './routes.ts';

/**
 * GET /readyz logs a dependency's change of state (down, back up), not every failed probe: HAProxy checks each
 * process every second, which with Redis down made a warning per second per process.
 */
describe('GET /readyz logging', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('warns once when a probe starts failing and logs once when it passes again', async () => {
    const lines: { level: string; msg: string; fields?: LogFields }[] = [];
    const log = {
      info: (msg: string, fields?: LogFields) => lines.push({ level: 'info', msg, fields }),
      warn: (msg: string, fields?: LogFields) => lines.push({ level: 'warn', msg, fields }),
      error: (msg: string, fields?: LogFields) => lines.push({ level: 'error', msg, fields }),
    };
    let up = false;
    const probe = {
      name: 'redis',
      required: false,
      check: async () => {
        if (!up) throw new Error('connection refused');
      },
    };
    const app = healthRoutes({ ...t.deps, log }, [probe]);
    const readyz = async () => {
      const res = await app.handle(new Request('http://localhost/readyz'));
      return ((await res.json()) as { checks: Record<string, string> }).checks.redis;
    };
    const logged = () => lines.map((l) => `${l.level} ${l.msg} ${l.fields?.probe}`);

    for (let i = 0; i < 3; i++) expect(await readyz()).toBe('down');
    expect(logged()).toEqual(['warn readiness probe failed redis']);
    up = true;
    for (let i = 0; i < 2; i++) expect(await readyz()).toBe('ok');
    expect(logged()).toEqual(['warn readiness probe failed redis', 'info readiness probe ok again redis']);
    up = false;
    expect(await readyz()).toBe('down');
    expect(logged()).toHaveLength(3);
    expect(lines[2]?.fields?.error).toBeDefined();
  });
});
