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
  /** Inside `dryRun`: whatever the turn writes is rolled back. */
  dry?: boolean;
}

/**
 * One customer's turns: how many hold a transaction now, and the ones waiting for a slot in arrival order. A
 * customer with turns waiting is backlogged.
 */
interface CustomerSlots {
  running: number;
  waiting: Array<() => void>;
}

/**
 * Turns one customer may run at once in a process, by default (QC_ACTOR_TURNS_PER_CUSTOMER): under a third of
 * the default pool of ten, so a customer syncing hundreds of properties at once leaves most connections to
 * everyone else.
 */
export const TURNS_PER_CUSTOMER = 3;

/**
 * Longest one statement of a backlogged customer's turn waits for other customers' turns to finish, by default
 * (QC_ACTOR_YIELD_MS; 0: never waits). A few milliseconds: about one light push's turn on an idle database.
 */
export const YIELD_MS = 5;

/**
 * How long after a turn without a backlog ends the backlogged customers still yield: a client sending its pushes
 * one after another spends about this between the end of one turn and the start of the next (its answer, the next
 * request's parsing, authentication and property). Without it the storm took the cores back in every such gap.
 */
export const LINGER_MS = 2;

/**
 * One serialized executor per property. Every write to a property's calendar (inventory pushes, the
 * per-plan rate write, bookings' booked counts, legacy updateAvailability) runs through `run`, so writes
 * to one property apply one at a time in arrival order (last write wins) while different properties
 * proceed in parallel. Each turn is one transaction that first takes the property's transaction-scoped
 * advisory lock, which keeps the same order across server processes sharing the database.
 * A mailbox is released as soon as it has nothing queued.
 *
 * Each turn holds a pooled connection, so one customer pushing full syncs for hundreds of properties at once
 * took every connection and other customers' pushes waited behind the storm (issue 25). At most
 * `turnsPerCustomer` turns of one customer hold a transaction at a time; its next turns wait for a slot in the
 * order they reached the head of their property's mailbox, so each property still applies in arrival order.
 * The bound is per process (each process has its own pool).
 *
 * The bound leaves connections to the others, not the cores and the WAL: on two cores a light customer's push took
 * 3x as long beside a storm's three turns, every round trip of it stretched, although nothing of it queued
 * (docs/performance.md, "Fairness between customers"). So a backlogged customer (turns waiting for a slot:
 * throughput is all it can get) yields to customers without a backlog (latency is what they see): while one of
 * their turns runs, and for LINGER_MS after one ends (the gap before such a client's next push), each statement of
 * a backlogged customer's turn waits before it is sent, until then or until `yieldMs` has passed. COMMIT is never
 * held. Bounded, so the storm always progresses, a statement at a time, however busy the others are; and a wait
 * never deadlocks: different customers share no calendar row or property lock, and a statement that would have
 * released something the other waits on only comes `yieldMs` later. A customer alone, backlogged or not, never
 * waits, nor does one without a backlog. Per process, like the bound.
 */
export class PropertyActors implements ActorTurns {
  readonly #mailboxes = new Map<number, Mailbox>();
  readonly #current = new AsyncLocalStorage<Turn>();
  readonly #slots = new Map<string, CustomerSlots>();
  /** A property's customer never changes: read once per property and process. */
  readonly #customers = new Map<number, Promise<string>>();
  /** Statements of backlogged customers waiting for the others' turns to end (#yieldFor): wakes each one. */
  readonly #yielding = new Set<() => void>();
  /** Until when (performance.now()) backlogged customers yield although no turn without a backlog runs. */
  #lingerUntil = 0;
  /** The customer whose turn set #lingerUntil: it does not wait for itself. */
  #lingerFor = '';
  #lingerTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly db: Db,
    private readonly turnsPerCustomer = TURNS_PER_CUSTOMER,
    private readonly yieldMs = YIELD_MS,
  ) {}

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
    const result = mailbox.tail.then(async () => {
      const customer = await this.#customerOf(propertyId);
      await this.#enter(customer);
      const turn = actorTurnSeconds.startTimer();
      try {
        await this.#yieldFor(customer);
        return await this.db.tx(async (raw) => {
          const tx = this.yieldMs > 0 ? this.#yieldingTx(raw, customer) : raw;
          await tx.sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}::int, ${propertyId}::int)`;
          return this.#current.run({ propertyId, tx }, () => work(tx));
        });
      } finally {
        turn();
        this.#leave(customer);
      }
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
    return this.run(propertyId, (tx) => {
      const turn = this.#current.getStore() as Turn;
      return this.#current.run({ ...turn, dry: true }, () => dryRun(tx, work));
    });
  }

  /** Whether the caller runs inside a dry-run turn (a write there reports what it would have written). */
  inDryRun(): boolean {
    return this.#current.getStore()?.dry === true;
  }

  /** Live mailboxes (idle ones are released). */
  get size(): number {
    return this.#mailboxes.size;
  }

  /** Resolves once every queued turn has finished (graceful shutdown). */
  async drain(): Promise<void> {
    await Promise.all([...this.#mailboxes.values()].map((m) => m.tail));
  }

  /** Turns of `customer` holding a transaction now (tests and the fairness benchmark read it). */
  running(customer: number): number {
    return this.#slots.get(`customer:${customer}`)?.running ?? 0;
  }

  /** Turns of `customer` waiting for a slot: its backlog (tests read it). */
  waiting(customer: number): number {
    return this.#slots.get(`customer:${customer}`)?.waiting.length ?? 0;
  }

  #customerOf(propertyId: number): Promise<string> {
    let known = this.#customers.get(propertyId);
    if (!known) {
      known = this.db.sql<{ customer_id: number }>`select customer_id from properties where id = ${propertyId}`.then(
        // A turn for a property that does not exist (yet) is bounded on its own.
        ([row]) => (row ? `customer:${row.customer_id}` : `property:${propertyId}`),
      );
      // A failed read (the database away) is not remembered: the next turn asks again.
      known.catch(() => this.#customers.delete(propertyId));
      this.#customers.set(propertyId, known);
    }
    return known;
  }

  async #enter(customer: string): Promise<void> {
    let slots = this.#slots.get(customer);
    if (!slots) {
      slots = { running: 0, waiting: [] };
      this.#slots.set(customer, slots);
    }
    if (slots.running < this.turnsPerCustomer) {
      slots.running++;
      return;
    }
    // The slot is handed over by the turn that leaves it (#leave): `running` stays counted.
    await new Promise<void>((resolve) => slots.waiting.push(resolve));
  }

  #leave(customer: string): void {
    const slots = this.#slots.get(customer);
    if (!slots) return;
    const next = slots.waiting.shift();
    if (next) {
      next();
      return;
    }
    // Nothing waits for this customer's slot: a turn without a backlog ended.
    slots.running--;
    if (slots.running === 0) this.#slots.delete(customer);
    if (this.yieldMs <= 0) return;
    this.#lingerUntil = performance.now() + LINGER_MS;
    this.#lingerFor = customer;
    if (this.#othersUnbacklogged(undefined)) return;
    // The statements that yield now or start to within LINGER_MS go on when it ends, unless such a turn runs again
    // (then at its end, plus LINGER_MS).
    clearTimeout(this.#lingerTimer);
    this.#lingerTimer = setTimeout(() => {
      if (!this.#othersUnbacklogged(undefined)) for (const wake of this.#yielding) wake();
    }, LINGER_MS);
  }

  /** Whether a customer other than `customer` without a backlog has a turn running. */
  #othersUnbacklogged(customer: string | undefined): boolean {
    for (const [other, slots] of this.#slots) {
      if (other !== customer && slots.running > 0 && slots.waiting.length === 0) return true;
    }
    return false;
  }

  /**
   * A backlogged customer's next statement waits while others' turns without a backlog run or have just ended,
   * `yieldMs` at most.
   */
  #yieldFor(customer: string): Promise<void> | undefined {
    if (this.yieldMs <= 0 || !this.#slots.get(customer)?.waiting.length) return;
    const lingering = this.#lingerFor !== customer && performance.now() < this.#lingerUntil;
    if (!lingering && !this.#othersUnbacklogged(customer)) return;
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#yielding.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.yieldMs);
      this.#yielding.add(wake);
    });
  }

  /** The turn's transaction, each statement sent once `#yieldFor` lets it (savepoints' statements too). */
  #yieldingTx(tx: Db, customer: string): Db {
    const gate = async <R>(send: () => Promise<R>): Promise<R> => {
      await this.#yieldFor(customer);
      return send();
    };
    return {
      ...tx,
      sql: (strings, ...values) => gate(() => tx.sql(strings, ...values)),
      affected: (strings, ...values) => gate(() => tx.affected(strings, ...values)),
      query: (text, params) => gate(() => tx.query(text, params)),
      savepoint: (fn) => tx.savepoint((sp) => fn(this.#yieldingTx(sp, customer))),
    };
  }

  #settle(propertyId: number, mailbox: Mailbox): void {
    mailbox.pending--;
    actorQueueDepth.dec();
    if (mailbox.pending === 0 && this.#mailboxes.get(propertyId) === mailbox) this.#mailboxes.delete(propertyId);
  }
}
