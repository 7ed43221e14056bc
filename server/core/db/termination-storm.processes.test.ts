import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import postgres from 'postgres';
import { type PostgresPair, startPostgresPair } from '../../../scripts/topology/postgres.ts';
import type { Demo } from '../../demo/demo.ts';
import { freePortRun } from '../../testing/free-port.ts';
import { ServerProcess } from '../../testing/server-process.ts';

/**
 * Issue 23: after about 12 s of pg_terminate_backend on the service's connections under write load, a process
 * answered 503 to everything needing the database until restarted, while PostgreSQL was healthy and /healthz
 * said 200. A real `server/main.ts` on a private PostgreSQL (its own cluster: every client backend but ours
 * is terminated every 100 ms for 15 s while pushes and bookings run); afterwards the same process must serve
 * writes again on its own, and its probes must have told the truth meanwhile.
 */
setDefaultTimeout(180_000);
const OPERATOR = 'termination-storm-operator-token';
const STORM_MS = 15_000;
const DB = 'qc_pooler_storm';

describe('backends terminated every 100 ms for 15 s under write load', () => {
  let pg: PostgresPair;
  let admin: postgres.Sql;
  let server: ServerProcess | undefined;
  let demo: Demo;
  let pair: { room_type_id: number; rate_plan_id: number; room: string };

  beforeAll(async () => {
    pg = await startPostgresPair({ port: freePortRun(21000, 21999, 1), standby: false, databases: [DB] });
    admin = postgres(pg.primaryUrl(DB), { max: 1, onnotice: () => {} });
    server = await ServerProcess.start({
      DATABASE_URL: pg.primaryUrl(DB),
      REDIS_URL: '',
      QC_OPERATOR_TOKEN: OPERATOR,
    });
    demo = await call<{ data: Demo }>('POST', '/ops/demo').then((r) => r.body.data);
    const live = demo.properties[0] as unknown as { external_property_id: string };
    const [row] = await admin<{ room_type_id: number; rate_plan_id: number; room: string }[]>`
      select rr.room_type_id, rr.rate_plan_id, rt.external_id as room
      from rate_plan_rooms rr join rate_plans p on p.id = rr.rate_plan_id join room_types rt on rt.id = rr.room_type_id
      join properties pr on pr.id = p.property_id
      where pr.external_id = ${live.external_property_id} and p.parent_id is null and p.sell_type = 'per_room' limit 1`;
    if (!row) throw new Error('demo has no per-room plan');
    pair = row;
  });
  afterAll(async () => {
    await server?.stop();
    await admin?.end({ timeout: 1 });
    await pg?.stop();
  });

  async function call<T = { status?: string }>(
    method: string,
    path: string,
    body?: unknown,
    token = OPERATOR,
  ): Promise<{ status: number; body: T }> {
    const res = await fetch(`${server?.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as T };
  }

  const live = () => (demo.properties[0] as unknown as { external_property_id: string }).external_property_id;
  const book = () =>
    call('POST', '/ops/bookings', {
      property_id: live(),
      channel: 'QDO',
      guest: { first_name: 'Ada', last_name: 'Storm', email: 'ada@example.com' },
      checkin_date: '2026-03-01',
      checkout_date: '2026-03-02',
      rooms: [{ room_type_id: pair.room_type_id, rate_plan_id: pair.rate_plan_id, adults: 2 }],
      total_price: { amount: 100 },
    });
  const push = (availability: number) =>
    call(
      'POST',
      `/v1/qc/properties/${live()}/inventory/availability`,
      { values: [{ room_type_id: pair.room, date_from: '2026-07-01', date_to: '2026-07-30', availability }] },
      demo.personal_token,
    );

  const legacyPush = async (qty: number) => {
    const res = await fetch(
      `${server?.url}/api/pms/v1/availability/updateAvailability?api_key=${demo.legacy_api_key}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          values: [{ room_id: pair.room_type_id, date_from: '2027-01-01', date_to: '2027-01-20', qty }],
        }),
        signal: AbortSignal.timeout(20_000),
      },
    );
    // The legacy facade answers 200 with its own envelope; a failure is its exception envelope (404, as the
    // PHP service answered), counted apart from the modern API's statuses.
    return { status: res.status, body: await res.text() };
  };

  it('serves writes again on its own once the storm ends, and its probes tell the truth', async () => {
    let storming = true;
    const statuses = new Map<number, number>();
    const legacyStatuses = new Map<number, number>();
    const count = (answer: { status: number }) => statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    const booker = async () => {
      while (storming) count(await book().catch(() => ({ status: 0 })));
    };
    // Pushes go through the property's actor (its turn, an advisory lock); one a second stays within the
    // partner's 20 a minute.
    const pusher = async () => {
      for (let i = 0; storming; i++) {
        count(await push(i % 5).catch(() => ({ status: 0 })));
        await Bun.sleep(1000);
      }
    };
    // Legacy updateAvailability: the same actor turns as pushes, without the partner API's rate limit.
    const legacy = async () => {
      for (let i = 0; storming; i++) {
        const answer = await legacyPush(i % 7).catch(() => ({ status: 0 }));
        legacyStatuses.set(answer.status, (legacyStatuses.get(answer.status) ?? 0) + 1);
      }
    };
    const workers = [...Array.from({ length: 16 }, booker), ...Array.from({ length: 8 }, legacy), pusher()];
    const started = Date.now();
    while (Date.now() - started < STORM_MS) {
      await admin`select pg_terminate_backend(pid) from pg_stat_activity
        where backend_type = 'client backend' and pid <> pg_backend_pid()`;
      await Bun.sleep(100);
    }
    storming = false;
    const stormEnded = performance.now();
    await Promise.all(workers);
    // The storm did reach the service: some writes failed with it.
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((s) => ![200, 202, 503].includes(s))).toEqual([]);
    expect([...legacyStatuses.keys()].filter((s) => ![200, 404].includes(s))).toEqual([]);

    // Recovery: the first round of writes after the storm may still meet a dying connection; within a few
    // rounds every write succeeds (the bound is generous for a loaded machine; the wedge never recovered).
    let healed = false;
    for (let round = 0; round < 40 && !healed; round++) {
      const answers = await Promise.all([book(), book(), book(), legacyPush(9)]);
      healed = answers.every((a) => a.status === 200);
      if (!healed) await Bun.sleep(250);
    }
    // The figures issue 23 asks for: answers by status during the storm, and how long after it writes succeeded.
    console.log(
      `termination storm: modern ${JSON.stringify(Object.fromEntries(statuses))}, legacy ${JSON.stringify(
        Object.fromEntries(legacyStatuses),
      )}; writes all succeed ${Math.round(performance.now() - stormEnded)} ms after the storm`,
    );
    expect(healed).toBe(true);
    expect((await push(9)).status).toBe(202);
    expect((await call('GET', '/readyz')).status).toBe(200);
    expect((await call('GET', '/healthz')).status).toBe(200);
  });
});
