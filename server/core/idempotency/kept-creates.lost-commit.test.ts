import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { templateBody } from '../../auto-email-templates/test-fixtures.ts';
import type { Demo } from '../../demo/demo.ts';
import { PNG_1X1 } from '../../gallery/test-fixtures.ts';
import { givenReview } from '../../reviews/test-fixtures.ts';
import { type AppBehindRelay, startAppBehindRelay } from '../../testing/app-behind-relay.ts';
import { errorEnvelope } from '../../testing/error-envelope.ts';
import { OPERATOR_TOKEN, startTestApp, type TestApp } from '../../testing/harness.ts';
import type { TcpProxy } from '../../testing/tcp-proxy.ts';

/**
 * Creates other than bookings kept their Idempotency-Key only in the request-level store, which gives the key back
 * on a 5xx: when the connection died during COMMIT (503 errors.qc.write_outcome_unknown, the create committed) the
 * retry with the same key and body created a second resource (a review reply, made once, answered 422
 * review_already_replied). Each create now keeps its key with its answer in its own transaction
 * (kept-creates.ts), so the retry answers what the first call made. One case per route family; a relay passes the
 * COMMIT to PostgreSQL and drops the client, as a terminated backend or a failover does.
 */
interface Sent {
  /** Undefined: a POST without a body. */
  body?: string | Uint8Array;
  type?: string;
}

interface Family {
  name: string;
  method: 'POST';
  /** Called after `body` with the same tag. */
  path: (tag: string) => string;
  token: () => string;
  /** The request body for a create named `tag`: the same bytes every time it is called with `tag`. */
  body: (tag: string) => Promise<Sent>;
  /** How many resources named `tag` exist. */
  count: (tag: string) => Promise<number>;
  status: number;
}

const json = (value: unknown): Promise<Sent> =>
  Promise.resolve({ body: JSON.stringify(value), type: 'application/json' });

// The store does not matter (the key is found in the database), but both are run: Redis as in production.
for (const store of ['in-process', 'Redis'] as const)
  describe.skipIf(!process.env.DATABASE_URL || (store === 'Redis' && !process.env.REDIS_URL))(
    `a create retried after write_outcome_unknown (${store} store)`,
    () => {
      let t: TestApp;
      let demo: Demo;
      let groupsToken: string;
      let proxy: TcpProxy;
      let relay: AppBehindRelay;
      const uploads = new Map<string, Sent>();
      const reviews = new Map<string, string>();
      const deliveries = new Map<string, string>();

      /** A delivered delivery of an event to a fresh subscription of the demo customer: its external id. */
      async function givenDelivery(tag: string): Promise<string> {
        const subscribed = await t.request('POST', '/v1/qc/subscriptions', {
          token: partner(),
          body: { url: `https://hooks.example.com/delivered-${tag}`, event_types: ['booking.created'] },
        });
        const [row] = await t.deps.db.sql<{ external_id: string }>`
      with event as (
        insert into outbox_events (type, customer_id, data, created_at, relayed_at)
        values ('booking.created', ${demo.customer_id}, '{}', now(), now()) returning id)
      insert into deliveries (subscription_id, customer_id, outbox_event_id, event_type, body, secret_version, status,
        created_at)
      select s.id, s.customer_id, event.id, 'booking.created', '{}', 1, 'delivered', now()
      from subscriptions s, event where s.external_id = ${subscribed.body.data.id}::uuid
      returning external_id`;
        return row?.external_id as string;
      }

      beforeAll(async () => {
        t = await startTestApp();
        demo = await t.demo();
        groupsToken = (
          await t.client({ customer_id: demo.customer_id, scopes: ['groups.manage'], account_scoped: true })
        ).token;
        relay = await startAppBehindRelay({ redis: store === 'Redis' });
        proxy = relay.proxy;
      });
      afterAll(async () => {
        await relay?.close();
        await t?.close();
      });

      const count = async (sql: Promise<{ n: number }[]>) => (await sql)[0]?.n ?? 0;
      const live = () => demo.properties[0]?.id as string;
      const partner = () => demo.personal_token;

      const families: Family[] = [
        {
          name: 'POST /subscriptions',
          method: 'POST',
          path: () => '/v1/qc/subscriptions',
          token: partner,
          body: (tag) => json({ url: `https://hooks.example.com/${tag}`, event_types: ['booking.created'] }),
          count: (tag) =>
            count(
              t.deps.db
                .sql`select count(*)::int as n from subscriptions where url = ${`https://hooks.example.com/${tag}`}`,
            ),
          status: 201,
        },
        {
          name: 'POST /auto_email_templates',
          method: 'POST',
          path: () => '/v1/qc/auto_email_templates',
          token: partner,
          body: (tag) => json(templateBody(demo, { title: tag })),
          count: (tag) =>
            count(t.deps.db.sql`select count(*)::int as n from auto_email_templates where title = ${tag}`),
          status: 201,
        },
        {
          name: 'POST /properties/{ext}/rate_plans',
          method: 'POST',
          path: () => `/v1/qc/properties/${live()}/rate_plans`,
          token: partner,
          body: (tag) => json({ title: tag, room_type_ids: ['APT'], sell_type: 'per_room' }),
          count: (tag) => count(t.deps.db.sql`select count(*)::int as n from rate_plans where name = ${tag}`),
          status: 201,
        },
        {
          name: 'POST /property-groups',
          method: 'POST',
          path: () => '/v1/qc/property-groups',
          token: () => groupsToken,
          body: (tag) => json({ name: tag }),
          count: (tag) => count(t.deps.db.sql`select count(*)::int as n from property_groups where name = ${tag}`),
          status: 201,
        },
        {
          name: 'POST /gallery',
          method: 'POST',
          path: () => '/v1/qc/gallery',
          token: partner,
          body: async (tag) => {
            // A multipart body's boundary is random: the retry sends the bytes the first call sent.
            const kept = uploads.get(tag);
            if (kept) return kept;
            const form = new FormData();
            form.append('images', new File([PNG_1X1], `${tag}.png`, { type: 'image/png' }));
            const request = new Request('http://localhost/', { method: 'POST', body: form });
            // Read before the body: Bun drops the generated content-type once the body is consumed.
            const type = request.headers.get('content-type') as string;
            const sent = { body: new Uint8Array(await request.arrayBuffer()), type };
            uploads.set(tag, sent);
            return sent;
          },
          count: (tag) =>
            count(t.deps.db.sql`select count(*)::int as n from gallery_images where file_name = ${`${tag}.png`}`),
          status: 201,
        },
        {
          // A partner code taken by the first call's property: the retry's refusal turns into the first answer.
          name: 'POST /properties',
          method: 'POST',
          path: () => '/v1/qc/properties',
          token: partner,
          body: (tag) => json({ name: tag, type_id: 1, currency: 'EUR', timezone: 'Europe/Lisbon', partner_code: tag }),
          count: (tag) => count(t.deps.db.sql`select count(*)::int as n from properties where name = ${tag}`),
          status: 201,
        },
        {
          name: 'POST /properties/{ext}/room_types (no partner code)',
          method: 'POST',
          path: () => `/v1/qc/properties/${live()}/room_types`,
          token: partner,
          body: (tag) => json({ name: tag, qty: 1 }),
          count: (tag) => count(t.deps.db.sql`select count(*)::int as n from room_types where name = ${tag}`),
          status: 201,
        },
        {
          name: 'POST /properties/{ext}/payment_policies (every owned configuration create)',
          method: 'POST',
          path: () => `/v1/qc/properties/${live()}/payment_policies`,
          token: partner,
          body: (tag) => json({ name: tag, pay_type: 'on_res' }),
          count: (tag) => count(t.deps.db.sql`select count(*)::int as n from payment_policies where name = ${tag}`),
          status: 201,
        },
        {
          // Made once (422 review_already_replied after): the retry answers the reply it made.
          name: 'POST /properties/{ext}/reviews/{id}/reply',
          method: 'POST',
          path: (tag) => `/v1/qc/properties/${live()}/reviews/${reviews.get(tag)}/reply`,
          token: partner,
          body: async (tag) => {
            if (!reviews.has(tag)) reviews.set(tag, await givenReview(t, demo, 'BDC'));
            return json({ text: tag });
          },
          count: (tag) => count(t.deps.db.sql`select count(*)::int as n from reviews where reply_text = ${tag}`),
          status: 201,
        },
        {
          name: 'POST /deliveries/{id}/redeliver',
          method: 'POST',
          path: (tag) => `/v1/qc/deliveries/${deliveries.get(tag)}/redeliver`,
          token: partner,
          body: async (tag) => {
            if (!deliveries.has(tag)) deliveries.set(tag, await givenDelivery(tag));
            return {};
          },
          count: (tag) =>
            count(t.deps.db.sql`select count(*)::int as n from deliveries where redelivery_of =
          (select id from deliveries where external_id = ${deliveries.get(tag) as string}::uuid)`),
          status: 202,
        },
        {
          name: 'POST /ops/customers',
          method: 'POST',
          path: () => '/ops/customers',
          token: () => OPERATOR_TOKEN,
          body: (tag) => json({ name: tag }),
          count: (tag) => count(t.deps.db.sql`select count(*)::int as n from customers where name = ${tag}`),
          status: 200,
        },
        {
          name: 'POST /ops/properties',
          method: 'POST',
          path: () => '/ops/properties',
          token: () => OPERATOR_TOKEN,
          body: (tag) => json({ customer_id: demo.customer_id, name: tag, currency: 'EUR', timezone: 'Europe/Berlin' }),
          count: (tag) => count(t.deps.db.sql`select count(*)::int as n from properties where name = ${tag}`),
          status: 200,
        },
      ];

      async function send(app: AppBehindRelay['app'], family: Family, tag: string, key: string) {
        const sent = await family.body(tag);
        const headers: Record<string, string> = { authorization: `Bearer ${family.token()}`, 'idempotency-key': key };
        if (sent.type) headers['content-type'] = sent.type;
        const res = await app.handle(
          new Request(`http://localhost${family.path(tag)}`, { method: family.method, headers, body: sent.body }),
        );
        return { status: res.status, headers: res.headers, body: (await res.json()) as any };
      }

      async function cutDuringCommit(family: Family, tag: string, key: string) {
        proxy.cutWhen = Buffer.from('commit');
        try {
          return await send(relay.app, family, tag, key);
        } finally {
          proxy.cutWhen = undefined;
        }
      }

      for (const family of families) {
        it(`${family.name}: the retry with the same key and body answers the committed create, replayed, and creates nothing more`, async () => {
          const key = crypto.randomUUID();
          const tag = `kept-${key.slice(0, 8)}`;
          const cut = await cutDuringCommit(family, tag, key);
          expect([cut.status, cut.body]).toEqual([503, errorEnvelope('errors.qc.write_outcome_unknown')]);
          // PostgreSQL got the COMMIT (the answer may come before it read the relayed COMMIT, hence the wait).
          for (let i = 0; i < 100 && (await family.count(tag)) === 0; i++) await Bun.sleep(20);
          expect(await family.count(tag)).toBe(1);

          const retry = await send(relay.app, family, tag, key);
          expect(retry.status).toBe(family.status);
          expect(retry.headers.get('idempotency-replayed')).toBe('true');
          expect(Number.isNaN(Date.parse(retry.headers.get('idempotency-original-timestamp') ?? ''))).toBe(false);
          expect(retry.body.status).toBe('ok');
          expect(await family.count(tag)).toBe(1);
          // The store now holds the replay: the next retry answers the same, at the same original time.
          const again = await send(relay.app, family, tag, key);
          expect([again.status, again.body]).toEqual([retry.status, retry.body]);
          expect(again.headers.get('idempotency-original-timestamp')).toBe(
            retry.headers.get('idempotency-original-timestamp'),
          );
          expect(await family.count(tag)).toBe(1);
        });
      }

      it('another body under a key whose create committed is 409 idempotency_conflict and creates nothing', async () => {
        const family = families[1] as Family;
        const key = crypto.randomUUID();
        const tag = `kept-${key.slice(0, 8)}`;
        expect((await cutDuringCommit(family, tag, key)).status).toBe(503);
        for (let i = 0; i < 100 && (await family.count(tag)) === 0; i++) await Bun.sleep(20);
        const other = await send(relay.app, family, `${tag}-other`, key);
        expect([other.status, other.body]).toEqual([409, errorEnvelope('errors.qc.idempotency_conflict')]);
        expect([await family.count(tag), await family.count(`${tag}-other`)]).toEqual([1, 0]);
      });

      it('a retry that reaches a process whose store never saw the key answers the first answer', async () => {
        // The relay's app has a store of its own (its memory, or its own Redis prefix) that never saw this key: as
        // after a Redis record is lost.
        const family = families[0] as Family;
        const key = crypto.randomUUID();
        const tag = `kept-${key.slice(0, 8)}`;
        const first = await send(t.app, family, tag, key);
        expect(first.status).toBe(201);
        const elsewhere = await send(relay.app, family, tag, key);
        expect(elsewhere.status).toBe(201);
        expect(elsewhere.headers.get('idempotency-replayed')).toBe('true');
        expect(elsewhere.body).toEqual(first.body);
        expect(await family.count(tag)).toBe(1);
      });
    },
  );
