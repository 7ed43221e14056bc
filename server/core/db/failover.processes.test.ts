import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import postgres from 'postgres';
import { type PostgresPair, startPostgresPair } from '../../../scripts/topology/postgres.ts';
import type { Demo } from '../../demo/demo.ts';
import { freePortRun } from '../../testing/free-port.ts';
import { ServerProcess } from '../../testing/server-process.ts';

/**
 * Issue 23, PostgreSQL failover: a primary with a synchronous streaming standby; the service connects with a
 * multi-host URL (target_session_attrs=read-write). The primary is killed (SIGKILL) under booking load and
 * the standby promoted: writes answer 503 meanwhile, then succeed again in the same process, and every
 * booking the service acknowledged (200) is on the promoted standby.
 */
setDefaultTimeout(180_000);
const OPERATOR = 'failover-operator-token-0123';
const DB = 'qc_pooler_failover';

describe('the primary dies and the standby is promoted', () => {
  let pg: PostgresPair;
  let server: ServerProcess | undefined;
  let demo: Demo;
  let pair: { room_type_id: number; rate_plan_id: number };

  beforeAll(async () => {
    pg = await startPostgresPair({ port: freePortRun(21000, 21999, 2), synchronous: true, databases: [DB] });
    server = await ServerProcess.start({
      DATABASE_URL: pg.multiHostUrl(DB),
      REDIS_URL: '',
      QC_OPERATOR_TOKEN: OPERATOR,
    });
    demo = await call<{ data: Demo }>('POST', '/ops/demo').then((r) => r.body.data);
    const admin = postgres(pg.primaryUrl(DB), { max: 1, onnotice: () => {} });
    const [row] = await admin<{ room_type_id: number; rate_plan_id: number }[]>`
      select rr.room_type_id, rr.rate_plan_id from rate_plan_rooms rr join rate_plans p on p.id = rr.rate_plan_id
      join properties pr on pr.id = p.property_id
      where pr.external_id = ${live()} and p.parent_id is null and p.sell_type = 'per_room' limit 1`;
    await admin.end();
    if (!row) throw new Error('demo has no per-room plan');
    pair = row;
  });
  afterAll(async () => {
    await server?.stop();
    await pg?.stop();
  });

  function live(): string {
    return (demo.properties[0] as unknown as { external_property_id: string }).external_property_id;
  }
  async function call<T = { status?: string; message?: string }>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T }> {
    const res = await fetch(`${server?.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as T };
  }
  const book = (key: string) =>
    call<{ data?: { id: number }; message?: string }>(
      'POST',
      '/ops/bookings',
      {
        property_id: live(),
        channel: 'QDO',
        guest: { first_name: 'Ada', last_name: 'Failover', email: 'ada@example.com' },
        checkin_date: '2026-03-01',
        checkout_date: '2026-03-02',
        rooms: [{ room_type_id: pair.room_type_id, rate_plan_id: pair.rate_plan_id, adults: 2 }],
        total_price: { amount: 100 },
      },
      { 'idempotency-key': key },
    );

  it('answers 503 during the switch, writes again without a restart, and loses no acknowledged booking', async () => {
    const acknowledged: number[] = [];
    const statuses = new Map<string, number>();
    let running = true;
    const booker = async () => {
      while (running) {
        const answer = await book(crypto.randomUUID()).catch(() => ({ status: 0, body: {} as { message?: string } }));
        const label = `${answer.status}${answer.body.message ? ` ${answer.body.message}` : ''}`;
        statuses.set(label, (statuses.get(label) ?? 0) + 1);
        if (answer.status === 200) acknowledged.push((answer.body as { data: { id: number } }).data.id);
      }
    };
    const workers = Array.from({ length: 8 }, booker);
    await Bun.sleep(1000);
    await pg.killPrimary();
    await Bun.sleep(1000);
    await pg.promote();
    const promotedAt = performance.now();
    // Writes succeed again in the same process (bounded: the issue's target is 5 s after the fault ends).
    let recovered = false;
    for (let i = 0; i < 60 && !recovered; i++) {
      recovered = (await book(crypto.randomUUID())).status === 200;
      if (!recovered) await Bun.sleep(250);
    }
    const recoveredMs = Math.round(performance.now() - promotedAt);
    await Bun.sleep(500);
    running = false;
    await Promise.all(workers);
    // The figures (issue 23 asks for them): answers by kind, and how long after the promotion writes succeeded.
    console.log(
      `failover: ${JSON.stringify(Object.fromEntries(statuses))}; writes again ${recoveredMs} ms after promotion`,
    );
    expect(recovered).toBe(true);
    // The switch was seen: some writes failed, and only with the database's 503s.
    const failures = [...statuses.keys()].filter((s) => !s.startsWith('200'));
    expect(failures.length).toBeGreaterThan(0);
    for (const s of failures)
      expect(['503 errors.service_unavailable', '503 errors.qc.write_outcome_unknown']).toContain(s);

    const promoted = postgres(pg.standbyUrl(DB), { max: 1, onnotice: () => {} });
    const present = await promoted<{ id: number }[]>`select id from bookings where id = any(${acknowledged}::bigint[])`;
    await promoted.end();
    expect(present.length).toBe(acknowledged.length);
    expect((await call('GET', '/readyz')).status).toBe(200);
  });
});
