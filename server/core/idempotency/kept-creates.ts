import type { Db } from '../db/db.ts';
import { ApiError } from '../http/api-error.ts';
import { idempotencyReplays } from '../metrics.ts';
import { Answer } from '../routes/route.ts';
import { KEEP_MS } from './idempotency.ts';
import { type RequestKey, requestKey } from './idempotent-request.ts';
import type { StoredResponse } from './store.ts';

/**
 * The Idempotency-Key of a create, kept with its answer in the create's own transaction (migration 1040). The
 * request-level store is a cache in front of the write: it gives a key back on a 5xx and may lose a record (a
 * Redis failover, another process with its own memory). When the connection died during COMMIT (503
 * errors.qc.write_outcome_unknown) the create may have committed, and a retry with the key runs it again: its
 * transaction then meets the committed row, rolls back, and the retry answers what the first call answered.
 * The cost on the way of every keyed create is one insert in the transaction already open; nothing is read first.
 */

/** Thrown inside the create's transaction (so it rolls back) when its key already made something. */
export class AlreadyCreated extends Error {
  constructor(readonly kept: StoredResponse) {
    super('already created under this Idempotency-Key');
  }
}

/** A create's hold on its request's key; on a request without a key, keeping does nothing. */
export interface KeptCreate {
  /**
   * Inside the create's transaction, after its writes: keeps its answer under the key. When the key already made
   * something within 24 hours, throws AlreadyCreated with that answer, or 409 idempotency_conflict for another body.
   */
  keep(tx: Db, status: number, body: unknown, headers?: Record<string, string>): Promise<void>;
}

interface KeptRow {
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  created_at: Date;
}

// Requests whose handler took a KeptCreate, with the time it was taken: their refusals are checked against a
// kept create (replayingKeptCreates).
const keepers = new WeakMap<Request, Date>();

/** `now`: the service clock at the create; the key's 24 hours run from it. */
export function keptCreate(request: Request, now: Date): KeptCreate {
  const key = requestKey(request);
  if (!key) return { keep: async () => {} };
  keepers.set(request, now);
  return {
    async keep(tx, status, body, headers = {}) {
      // A row past the window is another operation's (spec 8.3.6): this create takes its place.
      const [kept] = await tx.sql`
        insert into idempotent_creates (scope, fingerprint, status, headers, body, created_at)
        values (${key.scope}, ${key.fingerprint}, ${status}, ${headers}::jsonb, ${JSON.stringify(body)},
          ${now})
        on conflict (scope) do update set fingerprint = excluded.fingerprint, status = excluded.status,
          headers = excluded.headers, body = excluded.body, created_at = excluded.created_at
        where idempotent_creates.created_at <= ${new Date(now.getTime() - KEEP_MS)}
        returning scope`;
      if (kept) return;
      // Made before under this key: committed, or committing while this insert waited on its row.
      const made = await keptRow(tx, key.scope);
      if (!made) throw new Error('an idempotent create conflicted with a row that is gone');
      throw answerOf(made, key);
    },
  };
}

/**
 * Runs a route's handler (both mounts call it): a create whose key already made something answers what it
 * answered then, with `Idempotency-Replayed: true` and the original time, instead of its rolled-back second write
 * or the refusal the first write caused.
 */
export async function replayingKeptCreates(db: Db, request: Request, handle: () => unknown): Promise<unknown> {
  try {
    return await handle();
  } catch (err) {
    const kept = err instanceof AlreadyCreated ? err.kept : await keptBehindRefusal(db, request, err);
    if (!kept) throw err;
    idempotencyReplays.inc();
    return new Answer(kept.status, JSON.parse(kept.body), {
      ...kept.headers,
      'idempotency-replayed': 'true',
      'idempotency-original-timestamp': kept.at,
    });
  }
}

/**
 * A refusal (4xx) of a keyed create can be the retry meeting what its own first call made, before it reached its
 * keep(): a partner code or legacy file already taken. Then the first answer is the answer; for another body
 * under the key, 409 idempotency_conflict. One read, on refusals only.
 */
async function keptBehindRefusal(db: Db, request: Request, err: unknown): Promise<StoredResponse | undefined> {
  const now = keepers.get(request);
  if (!now || !(err instanceof ApiError) || err.status < 400 || err.status >= 500) return undefined;
  if (err.key === 'errors.qc.idempotency_conflict') return undefined;
  const key = requestKey(request);
  if (!key) return undefined;
  const made = await keptRow(db, key.scope);
  if (!made || made.created_at.getTime() <= now.getTime() - KEEP_MS) return undefined;
  const answer = answerOf(made, key);
  if (answer instanceof ApiError) throw answer;
  return answer.kept;
}

async function keptRow(db: Db, scope: string): Promise<KeptRow | undefined> {
  const [row] = await db.sql<KeptRow>`
    select fingerprint, status, headers, body, created_at from idempotent_creates where scope = ${scope}`;
  return row;
}

function answerOf(made: KeptRow, key: RequestKey): AlreadyCreated | ApiError {
  if (made.fingerprint !== key.fingerprint) return new ApiError('errors.qc.idempotency_conflict');
  return new AlreadyCreated({
    status: made.status,
    headers: made.headers,
    body: made.body,
    at: new Date(made.created_at).toISOString(),
  });
}
