import { describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../../testing/harness.ts';
import { ApiError } from '../http/api-error.ts';
import { KEEP_MS } from './idempotency.ts';
import { keyOperatorRequest } from './idempotent-request.ts';
import { AlreadyCreated, keptCreate } from './kept-creates.ts';

/**
 * keptCreate on the suite's database (PostgreSQL, or the embedded PGlite in the smoke run): the one insert a keyed
 * create adds to its transaction, and what a second create under the key meets.
 */
const t = testAppPerFile();

function keyedRequest(fingerprint = 'body-a') {
  const request = new Request('http://localhost/ops/things', { method: 'POST' });
  keyOperatorRequest(request, { scope: `test-${crypto.randomUUID()}`, fingerprint });
  return request;
}

/** Creates a customer named `name` and keeps its answer under the request's key, as a create route does. */
const create = (request: Request, now: Date, name: string) =>
  t.deps.db.tx(async (tx) => {
    await tx.sql`insert into customers (name) values (${name})`;
    await keptCreate(request, now).keep(tx, 201, { data: { name } }, { location: `/things/${name}` });
  });

const customers = async (name: string) =>
  (await t.deps.db.sql<{ n: number }>`select count(*)::int as n from customers where name = ${name}`)[0]?.n;

describe('keptCreate', () => {
  it('keeps the answer once; a second create under the key rolls back and carries the first answer and time', async () => {
    const request = keyedRequest();
    const first = new Date('2030-05-01T08:00:00Z');
    const name = `kept-${crypto.randomUUID()}`;
    await create(request, first, name);
    const again = await create(request, new Date(first.getTime() + 60_000), name).catch((err) => err);
    expect(again).toBeInstanceOf(AlreadyCreated);
    expect((again as AlreadyCreated).kept).toEqual({
      status: 201,
      headers: { location: `/things/${name}` },
      body: JSON.stringify({ data: { name } }),
      at: first.toISOString(),
    });
    expect(await customers(name)).toBe(1);
  });

  it('answers 409 idempotency_conflict to another body under the key, and keeps nothing of it', async () => {
    const request = keyedRequest('body-a');
    const now = new Date('2030-05-01T08:00:00Z');
    const name = `kept-${crypto.randomUUID()}`;
    await create(request, now, name);
    const other = new Request(request.url, { method: 'POST' });
    keyOperatorRequest(other, { scope: (await scopeOf(name)) as string, fingerprint: 'body-b' });
    const refused = await create(other, now, `${name}-b`).catch((err) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).key).toBe('errors.qc.idempotency_conflict');
    expect(await customers(`${name}-b`)).toBe(0);
  });

  it('takes the place of a key kept 24 hours ago or more: that retry is a new operation', async () => {
    const request = keyedRequest();
    const first = new Date('2030-05-01T08:00:00Z');
    const name = `kept-${crypto.randomUUID()}`;
    await create(request, first, name);
    await create(request, new Date(first.getTime() + KEEP_MS), name);
    expect(await customers(name)).toBe(2);
  });

  it('keeps nothing for a request without a key', async () => {
    const name = `kept-${crypto.randomUUID()}`;
    const request = new Request('http://localhost/ops/things', { method: 'POST' });
    await create(request, new Date(), name);
    await create(request, new Date(), name);
    expect(await customers(name)).toBe(2);
  });
});

async function scopeOf(name: string): Promise<string | undefined> {
  const [row] = await t.deps.db.sql<{ scope: string }>`
    select scope from idempotent_creates where body = ${JSON.stringify({ data: { name } })}`;
  return row?.scope;
}
