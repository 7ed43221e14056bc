import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../server/core/db/db.ts';
import type { PropertyActors as ActorTurns } from '../server/core/deps.ts';
import { actorQueueDepth, actorTurnSeconds } from '../server/core/metrics.ts';
import { dryRun } from './dry-run.ts';

/** Advisory-lock namespace for property calendars (the two-int form: namespace, property id). */
const LOCK_NAMESPACE = 7210;

interface Mailbox {
  tail: Promise<unknown>;
  pending: number;
}

interface Turn {
  propertyId: number;
  tx: Db;
}

/**
 * One serialized executor per property. Every write to a property's calendar (inventory pushes, the
 * per-plan rate write, bookings' booked counts, legacy updateAvailability) runs through `run`, so writes
 * to one property apply one at a time in arrival order (last write wins) while different properties
 * proceed in parallel. Each turn is one transaction that first takes the property's transaction-scoped
 * advisory lock, which keeps the same order across server processes sharing the database.
 * A mailbox is released as soon as it has nothing queued.
 */
export class PropertyActors implements ActorTurns {
  readonly #mailboxes = new Map<number, Mailbox>();
  readonly #current = new AsyncLocalStorage<Turn>();

  constructor(private readonly db: Db) {}

  run<T>(propertyId: number, work: (tx: Db) => Promise<T>): Promise<T> {
    const turn = this.#current.getStore();
    if (turn?.propertyId === propertyId) {
      // Re-entrant call from inside this property's own turn: queueing would wait on ourselves forever.
      return work(turn.tx);
    }
    if (turn) throw new Error(`actor for property ${turn.propertyId} tried to enter property ${propertyId}'s turn`);

    const mailbox = this.#mailboxes.get(propertyId) ?? { tail: Promise.resolve(), pending: 0 };
    this.#mailboxes.set(propertyId, mailbox);
    mailbox.pending++;
    actorQueueDepth.inc();
    const result = mailbox.tail.then(() => {
      const turn = actorTurnSeconds.startTimer();
      return this.db
        .tx(async (tx) => {
          await tx.sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}::int, ${propertyId}::int)`;
          return this.#current.run({ propertyId, tx }, () => work(tx));
        })
        .finally(turn);
    });
    mailbox.tail = result.then(
      () => this.#settle(propertyId, mailbox),
      () => this.#settle(propertyId, mailbox),
    );
    return result;
  }

  /**
   * A whole turn run as a dry run (actors/dry-run.ts): `work` sees and changes the calendar as a real turn
   * would, then everything it wrote is rolled back; answers what `work` returned. Re-entrant like `run`.
   */
  dryRun<T>(propertyId: number, work: (tx: Db) => Promise<T>): Promise<T> {
    return this.run(propertyId, (tx) => dryRun(tx, work));
  }

  /** Live mailboxes (idle ones are released). */
  get size(): number {
    return this.#mailboxes.size;
  }

  /** Resolves once every queued turn has finished (graceful shutdown). */
  async drain(): Promise<void> {
    await Promise.all([...this.#mailboxes.values()].map((m) => m.tail));
  }

  #settle(propertyId: number, mailbox: Mailbox): void {
    mailbox.pending--;
    actorQueueDepth.dec();
    if (mailbox.pending === 0 && this.#mailboxes.get(propertyId) === mailbox) this.#mailboxes.delete(propertyId);
  }
}
