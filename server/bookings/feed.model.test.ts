import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { testAppPerFile } from '../testing/harness.ts';
import { PER_PROPERTY_UP_TO } from './feed-account.ts';
import { type BookingFixture, bookingFixture } from './test-fixtures.ts';

/**
 * The feed contract as a model test: random interleavings of booking changes (some concurrent, on two
 * properties, so two actors commit in parallel), feed polls, acks (some skipped, some repeated) and
 * consumer restarts. A consumer saves every revision it receives (idempotently, by id) and acks only after
 * saving. It must end with every revision of its properties exactly once, first seen in ascending order per
 * booking, never see a revision again once it acked it, and lose nothing by following next_cursor without
 * going back to 0. A second consumer runs its own random behaviour on the same properties: its acks never
 * change what the first receives.
 */

const t = testAppPerFile();

type Ack = 'ack' | 'skip' | 'twice';
type Action =
  | { k: 'create'; prop: 0 | 1; tentative: boolean; channel: string }
  | { k: 'modify'; b: number; amount: number }
  | { k: 'cancel' | 'noShow' | 'confirm'; b: number }
  | { k: 'burst'; n: number }
  | { k: 'poll'; c: 0 | 1; limit: number; acks: Ack[] }
  | { k: 'restart'; c: 0 | 1 }
  | { k: 'check'; c: 0 | 1 };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('create' as const),
      prop: fc.constantFrom(0 as const, 1 as const),
      tentative: fc.boolean(),
      channel: fc.constantFrom('QDO', 'BDC', 'EXP', 'QDA'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ k: fc.constant('modify' as const), b: fc.nat(), amount: fc.integer({ min: 50, max: 60 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ k: fc.constantFrom('cancel' as const, 'noShow' as const, 'confirm' as const), b: fc.nat() }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('burst' as const), n: fc.integer({ min: 2, max: 4 }) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant('poll' as const),
      c: fc.constantFrom(0 as const, 1 as const),
      limit: fc.integer({ min: 1, max: 4 }),
      acks: fc.array(fc.constantFrom<Ack>('ack', 'ack', 'skip', 'twice'), { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('restart' as const), c: fc.constantFrom(0 as const, 1 as const) }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('check' as const), c: fc.constantFrom(0 as const, 1 as const) }) },
);

interface ModelBooking {
  id: number;
  status: string;
  amount: number;
  revisions: number[];
  types: string[];
}

interface Item {
  id: number;
  inbound_booking_id: number;
  revision_type: string;
}

class Consumer {
  cursor = 0;
  readonly store = new Map<number, Item>();
  readonly firstSeen: Item[] = [];
  readonly acked = new Set<number>();
  constructor(readonly token: string) {}

  async poll(limit: number, acks: Ack[]): Promise<number> {
    const res = await t.request('GET', '/v1/qc/booking_revisions/feed', {
      token: this.token,
      query: { since: this.cursor, limit },
    });
    expect(res.status).toBe(200);
    const page = res.body.data.booking_revisions as Item[];
    for (const [i, item] of page.entries()) {
      expect(this.acked.has(item.id)).toBe(false);
      if (!this.store.has(item.id)) {
        this.store.set(item.id, item);
        this.firstSeen.push(item);
      }
      const behaviour = acks[i % acks.length];
      if (behaviour === 'skip') continue;
      for (let n = behaviour === 'twice' ? 2 : 1; n > 0; n--) {
        const ack = await t.request('POST', `/v1/qc/booking_revisions/${item.id}/ack`, { token: this.token });
        expect(ack.status).toBe(200);
      }
      this.acked.add(item.id);
    }
    expect(res.body.data.next_cursor).toBe(page.at(-1)?.id ?? this.cursor);
    this.cursor = res.body.data.next_cursor;
    return page.length;
  }
}

/**
 * `scope`: consumers holding the two properties by id (the feed scans per property), or account-scoped
 * ones (one scan of the account in id order from the consumer's position, feed-account.ts): of an account of few
 * properties (the scan bounded to a span, the rest per property) or of a large one (the scan to the end).
 */
async function run(fx: BookingFixture, actions: Action[], scope: 'properties' | 'account' | 'large account') {
  if (scope === 'large account')
    await t.deps.db.sql`
      insert into properties (customer_id, name, currency, timezone, mode)
      select ${fx.demo.customer_id}, 'Empty ' || i, 'EUR', 'UTC', 'live' from generate_series(1, ${PER_PROPERTY_UP_TO}) i`;
  const consumers = (await Promise.all(
    [0, 1].map(async () => {
      const c = await t.client({
        customer_id: fx.demo.customer_id,
        scopes: ['bookings.read'],
        ...(scope === 'properties' ? { property_ids: [fx.property, fx.shadow] } : { account_scoped: true }),
      });
      return new Consumer(c.token);
    }),
  )) as [Consumer, Consumer];
  const bookings: ModelBooking[] = [];
  const revisions: number[] = [];
  // Bookings the demo fixture already made are in the feed too: the model starts from them.
  const existing: ModelBooking[] = [];
  for (const r of await revisionsOf(fx)) {
    let b = existing.find((x) => x.id === r.booking_id);
    if (!b) {
      b = { id: r.booking_id, status: 'fixture', amount: 0, revisions: [], types: [] };
      existing.push(b);
    }
    b.revisions.push(r.id);
    b.types.push(r.revision_type);
    revisions.push(r.id);
  }

  const expectRevision = (b: ModelBooking, type: string, revisionId: number | null, emits: boolean) => {
    if (!emits) return expect(revisionId).toBeNull();
    expect(revisionId).toEqual(expect.any(Number));
    b.revisions.push(revisionId as number);
    b.types.push(type);
    revisions.push(revisionId as number);
  };
  const create = async (prop: 0 | 1, tentative: boolean, channel: string) => {
    const res = await t.ops('POST', '/ops/bookings', {
      property_id: prop === 0 ? fx.property : fx.shadow,
      channel,
      guest: { first_name: 'Model', last_name: 'Guest' },
      checkin_date: '2026-12-01',
      checkout_date: '2026-12-03',
      rooms: [
        {
          room_type_id: prop === 0 ? fx.rooms[0]?.id : fx.shadowRoom,
          rate_plan_id: prop === 0 ? fx.plans[0] : fx.shadowPlan,
        },
      ],
      total_price: { amount: 100 },
      tentative,
    });
    expect(res.status).toBe(200);
    const b: ModelBooking = {
      id: res.body.data.id,
      status: tentative ? 'tentative' : 'confirmed',
      amount: 100,
      revisions: [],
      types: [],
    };
    bookings.push(b);
    expectRevision(b, 'created', res.body.data.revision_id, true);
  };

  for (const a of actions) {
    const b = bookings.length ? bookings[('b' in a ? a.b : 0) % bookings.length] : undefined;
    switch (a.k) {
      case 'create':
        await create(a.prop, a.tentative, a.channel);
        break;
      case 'burst':
        // Creations on both properties commit in parallel (two actors) while the first consumer polls.
        await Promise.all([
          ...Array.from({ length: a.n }, (_, i) => create((i % 2) as 0 | 1, false, 'BDC')),
          consumers[0].poll(3, ['ack']),
        ]);
        break;
      case 'modify': {
        if (!b) break;
        const res = await t.ops('PATCH', `/ops/bookings/${b.id}`, { total_price: { amount: a.amount } });
        expectRevision(b, 'modified', res.body.data.revision_id, a.amount !== b.amount);
        b.amount = a.amount;
        break;
      }
      case 'cancel':
      case 'noShow': {
        if (!b) break;
        const target = a.k === 'cancel' ? 'cancelled' : 'no_show';
        const res =
          a.k === 'cancel'
            ? await t.ops('POST', `/ops/bookings/${b.id}/cancel`, { cancelled_by: 'guest', reason_code: 'model' })
            : await t.ops('POST', `/ops/bookings/${b.id}/no-show`);
        expectRevision(b, target, res.body.data.revision_id, b.status !== target);
        b.status = target;
        break;
      }
      case 'confirm': {
        if (!b) break;
        const res = await t.ops('POST', `/ops/bookings/${b.id}/confirm`);
        if (b.status === 'cancelled' || b.status === 'no_show') {
          expect(res.status).toBe(409);
          break;
        }
        expectRevision(b, 'confirmed', res.body.data.revision_id, b.status === 'tentative');
        b.status = 'confirmed';
        break;
      }
      case 'poll':
        await consumers[a.c].poll(a.limit, a.acks);
        break;
      case 'restart':
        consumers[a.c].cursor = 0;
        break;
      case 'check': {
        // Polling from 0 shows exactly this consumer's unacked revisions, whatever the other consumer acked.
        const c = consumers[a.c];
        const res = await t.request('GET', '/v1/qc/booking_revisions/feed', {
          token: c.token,
          query: { since: 0, limit: 500 },
        });
        const ids = (res.body.data.booking_revisions as Item[]).map((r) => r.id);
        expect(ids).toEqual([...revisions].sort((x, y) => x - y).filter((id) => !c.acked.has(id)));
        break;
      }
    }
  }

  const all = [...revisions].sort((x, y) => x - y);
  for (const c of consumers) {
    // Following next_cursor alone loses nothing: every revision was delivered (saved) at least once.
    while ((await c.poll(50, ['skip'])) > 0);
    expect([...c.store.keys()].sort((x, y) => x - y)).toEqual(all);
    // After a restart from 0 it acks the rest; then nothing is left and nothing new was saved.
    c.cursor = 0;
    while ((await c.poll(50, ['ack'])) > 0);
    c.cursor = 0;
    expect(await c.poll(50, ['ack'])).toBe(0);
    expect(c.store.size).toBe(all.length);
    // First seen in ascending order per booking, with the types the model expects.
    for (const booking of [...existing, ...bookings]) {
      const seen = c.firstSeen.filter((r) => r.inbound_booking_id === booking.id);
      expect(seen.map((r) => r.id)).toEqual(booking.revisions);
      expect(seen.map((r) => r.revision_type)).toEqual(booking.types);
    }
  }
  // The table holds exactly the revisions the model expects for these properties: none extra, none lost.
  expect((await revisionsOf(fx)).map((r) => r.id)).toEqual(all);
}

async function revisionsOf(fx: BookingFixture) {
  return t.deps.db.sql<{ id: number; booking_id: number; revision_type: string }>`
    select r.id, r.booking_id, r.revision_type from booking_revisions r join properties p on p.id = r.property_id
    where p.external_id = any(${[fx.property, fx.shadow]}::uuid[]) order by r.id`;
}

describe('the revision feed under random interleavings', () => {
  it('delivers every revision exactly once per id, ascending per booking, independently per consumer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 30 }), async (actions) => {
        await run(await bookingFixture(t), actions, 'properties');
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it('holds the same contract for account-scoped consumers, read in one scan from their position', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 30 }), async (actions) => {
        await run(await bookingFixture(t), actions, 'account');
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it('holds it for a consumer of an account too large to read per property, scanned to the end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 30 }), async (actions) => {
        await run(await bookingFixture(t), actions, 'large account');
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
