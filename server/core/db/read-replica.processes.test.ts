import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import postgres from 'postgres';
import { type PostgresPair, startPostgresPair } from '../../../scripts/topology/postgres.ts';
import { buildApp } from '../../app.ts';
import { createDeps } from '../../boot.ts';
import type { Demo } from '../../demo/demo.ts';
import { freePortRun } from '../../testing/free-port.ts';
import { OPERATOR_TOKEN, TEST_KEY_ENCRYPTION_KEY } from '../../testing/harness.ts';
import { parseConfig } from '../config.ts';
import type { Deps } from '../deps.ts';
import { createLog } from '../log.ts';
import type { ReplicaReads } from './replica.ts';

/**
 * Issue 23, the read replica (DATABASE_REPLICA_URL): availability, rates and the booking list read from a
 * streaming standby while it keeps up; a caller's reads after its own write, a replica whose replay is paused
 * past QC_REPLICA_MAX_LAG_MS, and a replica that is down all read from the primary.
 */
setDefaultTimeout(120_000);
const DB = 'qc_pooler_replica';
const MAX_LAG_MS = 400;

describe('lag-tolerant reads on a read replica', () => {
  let pg: PostgresPair;
  let deps: Deps;
  let app: ReturnType<typeof buildApp>;
  let demo: Demo;
  let standbyAdmin: postgres.Sql;

  beforeAll(async () => {
    pg = await startPostgresPair({ port: freePortRun(21000, 21999, 2), databases: [DB] });
    standbyAdmin = postgres(pg.standbyUrl(DB), { max: 1, onnotice: () => {} });
    const config = parseConfig({
      QC_LOG_LEVEL: 'silent',
      QC_OPERATOR_TOKEN: OPERATOR_TOKEN,
      QC_KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
      QC_DEMO_ON_EMPTY: '0',
      DATABASE_URL: pg.primaryUrl(DB),
      DATABASE_REPLICA_URL: pg.standbyUrl(DB),
      QC_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
    });
    deps = await createDeps(config, { log: createLog('silent'), enforceRateLimits: false });
    app = buildApp(deps, { operatorToken: OPERATOR_TOKEN });
    demo = (await call('POST', '/ops/demo', OPERATOR_TOKEN)).body.data as Demo;
    await untilReplica(true);
  });
  afterAll(async () => {
    await standbyAdmin?.end({ timeout: 1 });
    await deps?.reads.close();
    await deps?.db.close();
    await pg?.stop();
  });

  async function call(method: string, path: string, token: string, body?: unknown) {
    const res = await app.handle(
      new Request(`http://localhost${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return { status: res.status, body: (await res.json()) as { data: any } };
  }
  const servedBy = async (reader?: number) =>
    (await deps.reads.for(reader).sql<{ port: number }>`select inet_server_port() as port`)[0]?.port;
  /** Waits (bounded) for the lag measurement to put reads on the replica (true) or take them off it. */
  async function untilReplica(on: boolean) {
    for (let i = 0; i < 200; i++) {
      if (((await servedBy()) === pg.standbyPort) === on) return;
      await Bun.sleep(25);
    }
    throw new Error(`reads did not move ${on ? 'to' : 'off'} the replica`);
  }
  const live = () => (demo.properties[0] as unknown as { external_property_id: string }).external_property_id;
  const room = () =>
    ((demo.properties[0] as unknown as { room_types: { id: string }[] }).room_types[0] as { id: string }).id;
  const availability = async () =>
    (await call('GET', `/v1/qc/properties/${live()}/availability?from=2027-09-01&to=2027-09-01`, demo.personal_token))
      .body.data;

  it('reads from the replica while it keeps up, and a writer reads its own write from the primary', async () => {
    expect(await servedBy()).toBe(pg.standbyPort);
    // Replay paused: the replica will not show the push, and a reader that did not write may be served by it
    // until the lag bound passes; the writer must see its own write at once.
    await standbyAdmin`select pg_wal_replay_pause()`;
    const push = await call('POST', `/v1/qc/properties/${live()}/inventory/availability`, demo.personal_token, {
      values: [{ room_type_id: room(), date_from: '2027-09-01', date_to: '2027-09-01', availability: 3 }],
    });
    expect(push.status).toBe(202);
    const freeOn = (answer: { rooms: { room_type_id: string; dates: Record<string, number> }[] }) =>
      answer.rooms.find((r) => r.room_type_id === room())?.dates['2027-09-01'];
    expect(freeOn(await availability())).toBe(3);
    // The replica itself does not have the push yet: without the writer rule the read would have said otherwise.
    const [onReplica] = await standbyAdmin<{ n: number }[]>`
      select count(*)::int as n from availability a join room_types rt on rt.id = a.room_type_id
      where rt.external_id = ${room()} and a.date = '2027-09-01' and a.offered = 3`;
    expect(onReplica?.n).toBe(0);
  });

  it('sends reads to the primary once the replica lags past the bound, and back when it catches up', async () => {
    // Replay is still paused and the primary has written since: the measured lag grows past the bound.
    await deps.db.sql`select pg_switch_wal()`;
    await untilReplica(false);
    expect((deps.reads as ReplicaReads).lagMs()).toBeGreaterThan(MAX_LAG_MS);
    // Reported on /readyz, which stays ready: the primary serves those reads.
    const ready = await app.handle(new Request('http://localhost/readyz'));
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks.replica).toBe('lagging');
    await standbyAdmin`select pg_wal_replay_resume()`;
    await untilReplica(true);
  });

  it('answers a read the replica cancelled for a conflict with recovery from the primary', async () => {
    // A standby cancels a query that holds up replay (SQLSTATE 40001) once max_standby_streaming_delay has passed;
    // at 0, at once. The read was answered 500, where a read that fails on the replica is the primary's to answer.
    await standbyAdmin`alter system set max_standby_streaming_delay = 0`;
    await standbyAdmin`select pg_reload_conf()`;
    const primaryAdmin = postgres(pg.primaryUrl(DB), { max: 2, onnotice: () => {} });
    try {
      await untilReplica(true);
      const [held] = await deps.db.sql<{ partition: string }>`
        select tableoid::regclass::text as partition from availability where date = '2027-09-01' limit 1`;
      const partition = held?.partition as string;
      // The replica's read locks the calendar, then waits for the month's partition, which replay holds for a
      // transaction still open on the primary.
      let release!: () => void;
      const open = primaryAdmin.begin(async (tx) => {
        await tx.unsafe(`lock table ${partition} in access exclusive mode`);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      });
      for (let i = 0; i < 200; i++) {
        const [replayed] = await standbyAdmin<{ n: number }[]>`
          select count(*)::int as n from pg_locks where relation = to_regclass(${partition}) and mode = 'AccessExclusiveLock'`;
        if (replayed?.n) break;
        await Bun.sleep(25);
      }
      const read = call(
        'GET',
        `/v1/qc/properties/${live()}/availability?from=2027-09-01&to=2027-09-01`,
        demo.personal_token,
      );
      for (let i = 0; i < 200; i++) {
        const [waiting] = await standbyAdmin<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity where application_name = 'qc-service' and wait_event_type = 'Lock'`;
        if (waiting?.n) break;
        await Bun.sleep(25);
      }
      // Replay now needs the calendar's own lock, which the waiting read holds: the standby cancels the read.
      await primaryAdmin.begin((tx) => tx.unsafe('lock table only availability in access exclusive mode'));
      await Bun.sleep(200);
      release();
      await open;
      const answer = await read;
      expect(answer.status).toBe(200);
      expect(
        answer.body.data.rooms.find((r: { room_type_id: string }) => r.room_type_id === room())?.dates['2027-09-01'],
      ).toBe(3);
    } finally {
      await standbyAdmin`alter system reset max_standby_streaming_delay`;
      await standbyAdmin`select pg_reload_conf()`;
      await primaryAdmin.end({ timeout: 1 });
    }
    // Replay waited on the locks: the next test starts from a replica in use again.
    await untilReplica(true);
  });

  it('sends reads to the primary while the replica is down, and answers them', async () => {
    await standbyAdmin.end({ timeout: 1 });
    await pg.stopStandby();
    await untilReplica(false);
    // A standby shutting down stops replaying before it stops answering: it may be seen lagging for a tick first.
    for (let i = 0; i < 100 && deps.reads.state?.() !== 'down'; i++) await Bun.sleep(25);
    expect(deps.reads.state?.()).toBe('down');
    expect(
      (await call('GET', `/v1/qc/properties/${live()}/availability?from=2027-09-01&to=2027-09-02`, demo.personal_token))
        .status,
    ).toBe(200);
    await pg.startStandby();
    await untilReplica(true);
  });
});
