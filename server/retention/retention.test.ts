import { describe, expect, it } from 'bun:test';
import { parseConfig } from '../core/config.ts';
import type { Db } from '../core/db/db.ts';
import { EMBEDDED, testAppPerFile } from '../testing/harness.ts';
import { daysBefore } from './batches.ts';
import { pruneBookingIntakeKeys } from './booking-intake-keys.ts';
import { dropPastCalendarMonths, ensureCalendarMonths } from './calendar-months.ts';
import { pruneAcksBehindWatermarks } from './feed-acks.ts';
import { pruneIdempotentCreates } from './idempotent-creates.ts';
import { pruneLegacyRevisions, pruneShadowSamples } from './legacy-history.ts';
import { runRetention } from './retention-pass.ts';
import { pruneDeliveries, pruneDeliveryAttempts, pruneOutboxEvents } from './webhook-history.ts';

/**
 * Each retention rule on real PostgreSQL: a row past its time is gone, a row within it stays. The rows are
 * dated around the year 2000 and `now` is put there, so a pass never reaches what other test files keep in
 * the shared database.
 */
const t = testAppPerFile();
const db = (): Db => t.deps.db;
const at = (iso: string) => new Date(`${iso}T12:00:00Z`);

/** A customer with one property, a room type, a rate plan and an API client, all by plain SQL. */
async function world() {
  const [c] = await db().sql<{ id: number }>`insert into customers (name) values ('retention') returning id`;
  const customer = c?.id as number;
  const [p] = await db().sql<{ id: number }>`
    insert into properties (customer_id, name, currency, timezone, mode) values (${customer}, 'R', 'EUR', 'UTC', 'live') returning id`;
  const property = p?.id as number;
  const [room] = await db().sql<{
    id: number;
  }>`insert into room_types (property_id, name) values (${property}, 'Double') returning id`;
  const [plan] = await db().sql<{ id: number }>`
    insert into rate_plans (property_id, name, sell_type) values (${property}, 'BAR', 'per_room') returning id`;
  const [client] = await db().sql<{ id: number }>`
    insert into api_clients (client_id, kind, customer_id, secret_hash, scopes)
    values (${crypto.randomUUID()}, 'personal', ${customer}, ${crypto.randomUUID()}, '{}') returning id`;
  return { customer, property, room: room?.id as number, plan: plan?.id as number, client: client?.id as number };
}

async function count(sql: Promise<{ n: number }[]>): Promise<number> {
  const [row] = await sql;
  return row?.n ?? 0;
}

describe('calendar retention', () => {
  it('drops whole month partitions past the horizon, keeps the months within it, and trims the default partition', async () => {
    const w = await world();
    for (const month of ['2000-01-01', '2000-05-01'])
      await db().sql`select qc_calendar_months('', ${month}::date, ${month}::date)`;
    const day = async (date: string) => {
      await db()
        .sql`insert into availability (property_id, room_type_id, date, offered) values (${w.property}, ${w.room}, ${date}, 3)`;
      await db().sql`insert into rates (property_id, rate_plan_id, room_type_id, date, prices)
        values (${w.property}, ${w.plan}, ${w.room}, ${date}, '{"A1": 1}')`;
    };
    // January has its partition, 1999 and March land in the default one, May has its own.
    for (const date of ['1999-06-01', '2000-01-15', '2000-03-20', '2000-05-02']) await day(date);
    const dates = async (table: 'availability' | 'rates') =>
      (
        await db().query<{ date: string }>(`select date from ${table} where property_id = $1 order by date`, [
          w.property,
        ])
      ).map((r) => r.date);

    // Keep 90 days back from 2000-06-15: everything from 2000-03-17 on.
    const removed = await dropPastCalendarMonths(db(), at('2000-06-15'), 90);

    expect(removed.partitions).toBeGreaterThanOrEqual(3);
    expect(removed.defaultRows).toBeGreaterThanOrEqual(2);
    expect(await dates('availability')).toEqual(['2000-03-20', '2000-05-02']);
    expect(await dates('rates')).toEqual(['2000-03-20', '2000-05-02']);
    const [gone] = await db().sql<{ january: string | null; may: string | null }>`
      select to_regclass('availability_y2000m01')::text as january, to_regclass('availability_y2000m05')::text as may`;
    expect(gone).toEqual({ january: null, may: 'availability_y2000m05' });
    await db().query('drop table availability_y2000m05, rates_y2000m05, restrictions_y2000m05');
  });

  it('stops at the step under way when its pass is stopped, leaving the default partition for the next pass', async () => {
    // A shutdown aborts the pass (retention-pass.ts startRetention): the default partition's backlog, 30 batches and
    // their rests in a test database, held a shutdown 12.6 s until this step took the signal too.
    const w = await world();
    await db().sql`insert into availability (property_id, room_type_id, date, offered)
      select ${w.property}, ${w.room}, d::date, 1 from generate_series('1997-01-01'::date, '1997-12-31'::date, '1 day') d`;
    const left = () =>
      count(
        db().sql<{ n: number }>`select count(*)::int as n from availability_default where property_id = ${w.property}`,
      );
    const stopped = new AbortController();
    stopped.abort();
    expect(await dropPastCalendarMonths(db(), at('1998-06-15'), 90, stopped.signal)).toEqual({
      partitions: 0,
      defaultRows: 0,
    });
    expect(await left()).toBe(365);
    // The next pass, not stopped, removes them.
    await dropPastCalendarMonths(db(), at('1998-06-15'), 90);
    expect(await left()).toBe(0);
  });

  // A reader's transaction holds the partition's lock while the pass runs: two transactions at once (not embedded).
  it.skipIf(EMBEDDED)(
    'leaves a month partition whose lock a running statement holds for the next pass, and drops the others',
    async () => {
      await db().sql`select qc_calendar_months('', '1998-02-01'::date, '1998-02-01'::date)`;
      const february = async () =>
        (
          await db().sql<{ availability: string | null; rates: string | null }>`
          select to_regclass('availability_y1998m02')::text as availability, to_regclass('rates_y1998m02')::text as rates`
        )[0];
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const holding = new Promise<void>((resolve) => {
        locked = resolve;
      });
      // A reader of February's availability holds its lock until released (as a push or a read does while it runs).
      const reader = db().tx(async (tx) => {
        await tx.query('lock table availability_y1998m02 in access share mode');
        locked();
        await released;
      });
      await holding;
      await dropPastCalendarMonths(db(), at('1998-06-15'), 90);
      release();
      await reader;

      expect(await february()).toEqual({ availability: 'availability_y1998m02', rates: null });
      // The next pass, with nothing holding it, drops it.
      await dropPastCalendarMonths(db(), at('1998-06-15'), 90);
      expect(await february()).toEqual({ availability: null, rates: null });
    },
  );

  it('creates the months ahead of the accepted window, moving rows the default partition held for them', async () => {
    const w = await world();
    await db()
      .sql`insert into availability (property_id, room_type_id, date, offered) values (${w.property}, ${w.room}, '2001-03-10', 4)`;
    expect(await ensureCalendarMonths(db(), at('2000-12-15'))).toBeGreaterThan(20);
    const [row] = await db().sql<{ partition: string; offered: number }>`
      select tableoid::regclass::text as partition, offered from availability where property_id = ${w.property}`;
    expect(row).toEqual({ partition: 'availability_y2001m03', offered: 4 });
    // Idempotent: a second pass creates nothing.
    expect(await ensureCalendarMonths(db(), at('2000-12-15'))).toBe(0);
    await dropPastCalendarMonths(db(), at('2005-01-01'), 2);
    const [left] = await db().sql<{ n: number }>`
      select count(*)::int as n from pg_class where relname ~ '^(availability|rates|restrictions)_y200[0-3]m'`;
    expect(left?.n).toBe(0);
  });
});

/**
 * Ids for the webhook rows and shadow samples this file makes, below every id the shared database holds, in the
 * order they are made. Retention walks these tables from their lowest id up to the first row within its time (ids
 * grow with time), and other files' rows are of this year, within any cut-off here: a row dated 2000 must come
 * before them, as it would.
 */
const ids = new Map<string, number>();
async function nextId(
  table: 'outbox_events' | 'deliveries' | 'delivery_attempts' | 'legacy_shadow_samples',
): Promise<number> {
  let last = ids.get(table);
  if (last === undefined) {
    const [row] = await db().query<{ min: number }>(`select coalesce(min(id), 1) as min from ${table}`);
    last = Number(row?.min ?? 1) - 1_000_000;
  }
  ids.set(table, last + 1);
  return last + 1;
}

describe('webhook history retention', () => {
  async function delivery(
    w: Awaited<ReturnType<typeof world>>,
    created: string,
    status: string,
    redeliveryOf?: number,
  ) {
    const [event] = await db().sql<{ id: number }>`
      insert into outbox_events (id, type, customer_id, property_id, data, created_at, relayed_at)
      values (${await nextId('outbox_events')}, 'booking.created', ${w.customer}, ${w.property}, '{}', ${at(created)}, ${at(created)}) returning id`;
    const [sub] = await db().sql<{ id: number }>`
      insert into subscriptions (customer_id, created_by, url, event_types, secret, created_at, updated_at)
      values (${w.customer}, ${w.client}, 'https://example.com/hook', '{booking.created}', 's', ${at(created)}, ${at(created)}) returning id`;
    const [d] = await db().sql<{ id: number }>`
      insert into deliveries (id, subscription_id, customer_id, outbox_event_id, event_type, body, secret_version, status, created_at, redelivery_of)
      values (${await nextId('deliveries')}, ${sub?.id}, ${w.customer}, ${event?.id}, 'booking.created', '{}', 1, ${status}, ${at(created)}, ${redeliveryOf ?? null}) returning id`;
    await db().sql`
      insert into delivery_attempts (id, delivery_id, subscription_id, attempt, started_at, duration_ms, success)
      values (${await nextId('delivery_attempts')}, ${d?.id}, ${sub?.id}, 1, ${at(created)}, 10, ${status === 'delivered'})`;
    return { delivery: d?.id as number, event: event?.id as number };
  }

  it('removes finished deliveries, their attempts and their events past 90 days and keeps the rest', async () => {
    const w = await world();
    const old = await delivery(w, '2000-01-02', 'delivered');
    const oldDead = await delivery(w, '2000-01-03', 'dead');
    const oldRetrying = await delivery(w, '2000-01-04', 'failed');
    const recent = await delivery(w, '2000-05-20', 'delivered');
    // An old delivery redelivered recently stays while its redelivery does.
    const redelivered = await delivery(w, '2000-01-05', 'delivered');
    await delivery(w, '2000-05-21', 'delivered', redelivered.delivery);
    const now = at('2000-06-15');

    await pruneDeliveryAttempts(db(), daysBefore(now, 90));
    await pruneDeliveries(db(), daysBefore(now, 90));
    await pruneOutboxEvents(db(), daysBefore(now, 90));

    const kept = (
      await db().sql<{ id: number }>`select id from deliveries where customer_id = ${w.customer} order by id`
    ).map((r) => r.id);
    expect(kept).toContain(oldRetrying.delivery);
    expect(kept).toContain(recent.delivery);
    expect(kept).toContain(redelivered.delivery);
    expect(kept).not.toContain(old.delivery);
    expect(kept).not.toContain(oldDead.delivery);
    const events = (await db().sql<{ id: number }>`select id from outbox_events where customer_id = ${w.customer}`).map(
      (r) => r.id,
    );
    expect(events).not.toContain(old.event);
    expect(events).toContain(recent.event);
    // The retrying delivery's event is still named by it.
    expect(events).toContain(oldRetrying.event);
    expect(
      await count(db().sql<{ n: number }>`
        select count(*)::int as n from delivery_attempts a join deliveries d on d.id = a.delivery_id
        where d.customer_id = ${w.customer} and a.started_at < ${daysBefore(now, 90)}`),
    ).toBe(0);
    expect(
      await count(
        db().sql<{
          n: number;
        }>`select count(*)::int as n from delivery_attempts where delivery_id = ${recent.delivery}`,
      ),
    ).toBe(1);
  });
});

describe('webhook history retention, the walk', () => {
  it('reads from the oldest id and stops at the first slice holding a younger row, so a pass reads what it removes', async () => {
    const w = await world();
    const events = async (created: string, n: number) => {
      for (let i = 0; i < n; i++)
        await db().sql`
          insert into outbox_events (id, type, customer_id, property_id, data, created_at, relayed_at)
          values (${await nextId('outbox_events')}, 'booking.created', ${w.customer}, ${w.property}, '{}', ${at(created)}, ${at(created)})`;
    };
    // One event within the first pass's 90 days, then more old ones than a slice holds, behind it in id order (a
    // real table has no such row: ids grow with time).
    await events('2000-05-01', 1);
    await events('2000-01-01', 300);
    const left = () =>
      count(db().sql<{ n: number }>`
        select count(*)::int as n from outbox_events where customer_id = ${w.customer} and created_at < '2000-02-01'`);

    await pruneOutboxEvents(db(), daysBefore(at('2000-06-15'), 90));
    expect(await left()).toBeGreaterThan(0);

    // Once that event is past its time too, the walk goes on behind it.
    await pruneOutboxEvents(db(), daysBefore(at('2000-09-01'), 90));
    expect(await left()).toBe(0);
  });
});

describe('feed ack retention', () => {
  it("deletes a consumer's acks behind its watermark once 30 days old, and keeps younger acks and those above it", async () => {
    const w = await world();
    const [b] = await db().sql<{ id: number }>`
      insert into bookings (property_id, external_booking_id, source_channel, status, checkin_date, checkout_date, currency_code)
      values (${w.property}, ${`ret-${crypto.randomUUID()}`}, 'BDC', 'confirmed', '2000-03-01', '2000-03-03', 'EUR') returning id`;
    const revisions = (
      await db().sql<{ id: number }>`
        insert into booking_revisions (booking_id, property_id, revision_type, payload)
        select ${b?.id}, ${w.property}, 'modified', '{}' from generate_series(1, 4) returning id`
    ).map((r) => r.id);
    const [r1, r2, r3, r4] = revisions as [number, number, number, number];
    // r1, r2 acked long ago, r3 acked yesterday: the watermark is r3; r4 unacked.
    for (const [revision, acked] of [
      [r1, '2000-01-01'],
      [r2, '2000-01-02'],
      [r3, '2000-06-14'],
    ] as const)
      await db()
        .sql`insert into booking_revision_acks (consumer_id, revision_id, acked_at) values (${w.client}, ${revision}, ${at(acked)})`;
    await db().sql`
      insert into booking_feed_watermarks (consumer_id, property_id, acked_through) values (${w.client}, ${w.property}, ${r3})`;

    expect(await pruneAcksBehindWatermarks(db(), daysBefore(at('2000-06-15'), 30))).toBeGreaterThanOrEqual(2);

    const acks = (
      await db().sql<{ revision_id: number }>`
        select revision_id from booking_revision_acks where consumer_id = ${w.client} order by revision_id`
    ).map((r) => r.revision_id);
    expect(acks).toEqual([r3]);
    const mark = async () =>
      (
        await db().sql<{ pruned_through: number; pruned_acked_at: Date | null }>`
          select pruned_through, pruned_acked_at from booking_feed_watermarks where consumer_id = ${w.client}`
      )[0];
    // The newest ack time removed is kept: a repeated ack of r1 or r2 answers it (bookings/feed.ts).
    expect(await mark()).toEqual({ pruned_through: r2, pruned_acked_at: at('2000-01-02') });
    expect(r4).toBeGreaterThan(r3);

    // A later pass removes r3's ack too, and the time kept moves up to it.
    await pruneAcksBehindWatermarks(db(), daysBefore(at('2000-07-20'), 30));
    expect(await mark()).toEqual({ pruned_through: r3, pruned_acked_at: at('2000-06-14') });
  });

  it('rests after every transaction, also when each pair moved by less than a batch', async () => {
    const pairs = [await world(), await world()];
    for (const w of pairs) {
      const [b] = await db().sql<{ id: number }>`
        insert into bookings (property_id, external_booking_id, source_channel, status, checkin_date, checkout_date, currency_code)
        values (${w.property}, ${`ret-${crypto.randomUUID()}`}, 'BDC', 'confirmed', '2000-03-01', '2000-03-03', 'EUR') returning id`;
      const [r] = await db().sql<{ id: number }>`
        insert into booking_revisions (booking_id, property_id, revision_type, payload)
        values (${b?.id}, ${w.property}, 'modified', '{}') returning id`;
      await db()
        .sql`insert into booking_revision_acks (consumer_id, revision_id, acked_at) values (${w.client}, ${r?.id}, ${at('2000-01-01')})`;
      await db().sql`
        insert into booking_feed_watermarks (consumer_id, property_id, acked_through) values (${w.client}, ${w.property}, ${r?.id})`;
    }
    const rests: number[] = [];
    await pruneAcksBehindWatermarks(db(), daysBefore(at('2000-06-15'), 30), undefined, async (started) => {
      rests.push(started);
    });

    // One transaction per pair here (one ack each), and a rest after each: the pass never runs two back to back.
    expect(rests.length).toBeGreaterThanOrEqual(pairs.length);
    const left = await count(db().sql<{ n: number }>`
      select count(*)::int as n from booking_revision_acks where consumer_id = any(${pairs.map((w) => w.client)}::bigint[])`);
    expect(left).toBe(0);
  });
});

describe('legacy history retention', () => {
  it('keeps only the latest legacy revision of a stay that ended long ago, and every revision of a later one', async () => {
    const w = await world();
    const booking = async (checkout: string) => {
      const [b] = await db().sql<{ id: number }>`
        insert into bookings (property_id, external_booking_id, source_channel, status, checkin_date, checkout_date, currency_code)
        values (${w.property}, ${`ret-${crypto.randomUUID()}`}, 'BDC', 'confirmed', ${checkout}::date - 2, ${checkout}, 'EUR') returning id`;
      await db().sql`
        insert into legacy_booking_revisions (booking_id, seq, revision_number, revision_id, content_md5, content)
        select ${b?.id}, s, s, 'rev-' || s, 'md5', '{}' from generate_series(1, 3) s`;
      return b?.id as number;
    };
    const finished = await booking('2000-01-10');
    const recent = await booking('2000-06-01');
    await pruneLegacyRevisions(db(), at('2000-06-15'), 90);
    const seqs = async (id: number) =>
      (
        await db().sql<{ seq: number }>`select seq from legacy_booking_revisions where booking_id = ${id} order by seq`
      ).map((r) => r.seq);
    expect(await seqs(finished)).toEqual([3]);
    expect(await seqs(recent)).toEqual([1, 2, 3]);
  });

  it('deletes shadow samples older than 90 days and keeps newer ones', async () => {
    const w = await world();
    const [key] = await db().sql<{ id: number }>`
      insert into legacy_api_keys (key_hash, customer_id, property_id) values (${crypto.randomUUID()}, ${w.customer}, ${w.property}) returning id`;
    for (const day of ['2000-01-01', '2000-06-01'])
      await db().sql`
        insert into legacy_shadow_samples (id, key_id, day, method, path, query, upstream_status, port_status, upstream_body, port_body, fields, created_at)
        values (${await nextId('legacy_shadow_samples')}, ${key?.id}, ${day}, 'GET', '/x', '', 200, 200, '', '', '[]', ${at(day)})`;
    await pruneShadowSamples(db(), at('2000-06-15'), 90);
    const days = (await db().sql<{ day: string }>`select day from legacy_shadow_samples where key_id = ${key?.id}`).map(
      (r) => r.day,
    );
    expect(days).toEqual(['2000-06-01']);
  });
});

describe('idempotency retention', () => {
  it("deletes a create's kept Idempotency-Key once older than the window and keeps a recent one", async () => {
    const keep = (scope: string, at: Date) => db().sql`
      insert into idempotent_creates (scope, fingerprint, status, body, created_at)
      values (${scope}, 'fp', 201, '{}', ${at})`;
    const [old, recent] = [`old-${crypto.randomUUID()}`, `recent-${crypto.randomUUID()}`];
    await keep(old, new Date('2000-06-13T11:00:00Z'));
    await keep(recent, new Date('2000-06-14T13:00:00Z'));
    const config = parseConfig({});
    await pruneIdempotentCreates(
      db(),
      new Date(at('2000-06-15').getTime() - config.retention.idempotencyHours * 3600_000),
    );
    const left = await db().sql<{ scope: string }>`
      select scope from idempotent_creates where scope = any(${[old, recent]}::text[])`;
    expect(left.map((r) => r.scope)).toEqual([recent]);
  });
});

describe('booking intake key retention', () => {
  it('deletes a booking intake key once older than the window and keeps a recent one and the booking', async () => {
    const w = await world();
    const [booking] = await db().sql<{ id: number }>`
      insert into bookings (property_id, external_booking_id, source_channel, status, checkin_date, checkout_date,
        currency_code)
      values (${w.property}, ${crypto.randomUUID()}, 'QDO', 'confirmed', '2000-07-01', '2000-07-02', 'EUR')
      returning id`;
    const keep = (key: string, at: Date) => db().sql`
      insert into booking_intake_keys (origin, key, fingerprint, booking_id, created_at)
      values ('partner', ${key}, 'fp', ${booking?.id}, ${at})`;
    const [old, recent] = [`old-${crypto.randomUUID()}`, `recent-${crypto.randomUUID()}`];
    await keep(old, new Date('2000-06-13T11:00:00Z'));
    await keep(recent, new Date('2000-06-14T13:00:00Z'));
    const report = await runRetention(db(), parseConfig({}), at('2000-06-15'));
    expect(report.booking_intake_keys).toBeGreaterThanOrEqual(1);
    const left = await db().sql<{ key: string }>`
      select key from booking_intake_keys where key = any(${[old, recent]}::text[])`;
    expect(left.map((r) => r.key)).toEqual([recent]);
    expect(await db().sql`select 1 from bookings where id = ${booking?.id}`).toHaveLength(1);
    await pruneBookingIntakeKeys(db(), new Date('2000-06-15T12:00:00Z'));
    expect(await db().sql`select 1 from booking_intake_keys where key = ${recent}`).toHaveLength(0);
  });
});

describe('a whole pass', () => {
  it('runs every rule with the configured defaults and answers what it removed', async () => {
    const config = parseConfig({});
    expect(config.retention).toEqual({
      calendarDays: 90,
      outboxDays: 180,
      deliveryDays: 90,
      ackDays: 30,
      legacyRevisionDays: 90,
      shadowSampleDays: 90,
      idempotencyHours: 24,
      everyMinutes: 60,
    });
    const w = await world();
    await db()
      .sql`insert into availability (property_id, room_type_id, date, offered) values (${w.property}, ${w.room}, '2000-02-01', 1)`;
    const report = await runRetention(db(), config, at('2000-06-15'));
    expect(report.calendar_default_rows).toBeGreaterThanOrEqual(1);
    // Each step's time, for the log line and `npm run retention`: where a slow pass spends it.
    expect(Object.keys(report.step_ms).sort()).toEqual(
      [
        'booking_revision_acks',
        'calendar_create',
        'calendar_drop',
        'deliveries',
        'delivery_attempts',
        'idempotent_creates',
        'booking_intake_keys',
        'incidents',
        'legacy_booking_revisions',
        'legacy_shadow_samples',
        'outbox_events',
      ].sort(),
    );
    expect(Object.values(report.step_ms).every((ms) => Number.isInteger(ms) && ms >= 0)).toBe(true);
    expect(
      await count(
        db().sql<{ n: number }>`select count(*)::int as n from availability where property_id = ${w.property}`,
      ),
    ).toBe(0);
    // The months it created ahead of June 2000 go again (they would hold other files' old fixtures).
    await dropPastCalendarMonths(db(), at('2005-01-01'), 2);
  });
});
