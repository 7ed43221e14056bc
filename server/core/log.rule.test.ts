import { describe, expect, it } from 'bun:test';
import { logLine } from './log.ts';

// The line is built without the spread (issue 27); it must stay byte for byte what the spread wrote.
const spread = (level: string, time: string, msg: string, fields?: Record<string, unknown>) =>
  JSON.stringify({ level, time, msg, ...fields });

describe('logLine', () => {
  it('writes what JSON.stringify of level, time, msg and the spread fields writes, key order included', () => {
    const cases: (Record<string, unknown> | undefined)[] = [
      undefined,
      {},
      { request_id: 'r-1', method: 'GET', path: '/v1/qc/properties?x="1"\n', status: 200, ms: 1.5 },
      { client_id: undefined, route: 'qc.properties.list', nested: { a: [1, null, 'ü'] } },
      { msg: 'replaced', level: 'other', extra: true },
      { time: 'then' },
    ];
    for (const fields of cases) {
      const line = logLine('info', 'request "quoted"', fields);
      const time = JSON.parse(line).time as string;
      expect(line).toBe(spread('info', time, 'request "quoted"', fields));
    }
  });

  it('stamps the current time, to the millisecond', () => {
    const before = Date.now();
    const time = Date.parse(JSON.parse(logLine('warn', 'm', { a: 1 })).time);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
  });
});
