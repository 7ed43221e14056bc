/**
 * `npm run revisions:customer-backfill`: the online half of migration 1260 (each booking revision's customer) for
 * a database that held more than 100000 revisions when it was migrated, run while the service serves. Resumable:
 * run it again after an interruption. Until it ends, the account feed reads as before (server/bookings/
 * feed-account.ts); then every account reads its own range of (customer_id, id).
 *
 * 1. Fills customer_id from the revision's property, in batches of `--batch` revisions in id order (default 5000),
 *    each its own short transaction that records how far it got (booking_revision_customer_fill.filled_through),
 *    up to the last revision there was when it started: every revision committed after the migration carries its
 *    customer already (the service names it; the migration's trigger fills it for a writer that does not).
 * 2. Builds booking_revisions_customer with `create index concurrently` (writes go on; an invalid index left by
 *    an interrupted build is dropped and built again), after the fill, so that the fill's updates do not also
 *    write it, then analyzes the table for the planner.
 * 3. Checks through that index that no revision is left without its customer, and marks the fill done: the
 *    service's next poll reads it.
 */
import type { Db } from '../server/core/db/db.ts';
import { openPostgres } from '../server/core/db/postgres.ts';
import { type BackfillCommand, backfillCommand } from './backfill-command.ts';

/** The deadline of each statement: the concurrent index build reads the whole table, twice. */
const STATEMENT_MS = 60 * 60_000;

export async function backfillRevisionCustomers(
  db: Db,
  options: { batch?: number; pauseMs?: number; log?: (line: string) => void } = {},
): Promise<'already done' | 'filled' | 'not migrated'> {
  const log = options.log ?? (() => {});
  const [state] = await db.sql<{ migrated: boolean; upto: number | null }>`
    select to_regclass('booking_revision_customer_fill') is not null as migrated,
      (select max(id) from booking_revisions) as upto`;
  if (!state?.migrated) return 'not migrated';
  const [progress] = await db.sql<{ done: boolean }>`select done from booking_revision_customer_fill`;
  if (progress?.done) return 'already done';
  await fill(db, state.upto ?? 0, options.batch ?? 5000, options.pauseMs ?? 0, log);
  await buildIndex(db, log);
  // The trigger leaves no revision without its customer; were one left (a trigger dropped by hand), it is filled
  // here through the index (`customer_id is null` is one of its ranges) before the feed relies on it.
  const left = await db.affected`
    update booking_revisions r set customer_id = p.customer_id from properties p
    where r.customer_id is null and p.id = r.property_id`;
  if (left) log(`${left} revisions without their customer filled after the index`);
  await db.query('analyze booking_revisions');
  await db.sql`update booking_revision_customer_fill set done = true`;
  return 'filled';
}

async function fill(db: Db, upto: number, batch: number, pauseMs: number, log: (line: string) => void) {
  for (;;) {
    const filled = await db.tx(async (tx) => {
      const [progress] = await tx.sql<{ through: number }>`
        select filled_through as through from booking_revision_customer_fill for update`;
      const from = progress?.through ?? 0;
      if (from >= upto) return undefined;
      const [bound] = await tx.sql<{ last: number | null }>`
        select max(id) as last from (select id from booking_revisions where id > ${from} order by id limit ${batch}) s`;
      const to = Math.min(bound?.last ?? upto, upto);
      const n = await tx.affected`
        update booking_revisions r set customer_id = p.customer_id from properties p
        where r.id > ${from} and r.id <= ${to} and r.customer_id is null and p.id = r.property_id`;
      await tx.sql`update booking_revision_customer_fill set filled_through = ${to}`;
      return { n, to };
    });
    if (!filled) return;
    log(`revisions through ${filled.to} of ${upto}: ${filled.n} filled`);
    if (pauseMs) await Bun.sleep(pauseMs);
  }
}

async function buildIndex(db: Db, log: (line: string) => void) {
  const [index] = await db.sql<{ valid: boolean | null }>`
    select (select indisvalid from pg_index where indexrelid = to_regclass('booking_revisions_customer')) as valid`;
  if (index?.valid === true) return;
  // An interrupted concurrent build leaves the index invalid: kept up on writes, never read, and `if not exists`
  // would keep it so.
  if (index?.valid === false) await db.query('drop index concurrently booking_revisions_customer');
  log('building booking_revisions_customer (concurrently)');
  await db.query('create index concurrently booking_revisions_customer on booking_revisions (customer_id, id)');
}

const USAGE = `usage: DATABASE_URL=postgres://... npm run revisions:customer-backfill -- [--batch N] [--pause-ms N]

Fills each booking revision's customer (migration 1260) on a database that held more than 100000 revisions
when it was migrated, while the service serves, then builds its index; the account feed reads by customer
once it is done (docs/operations.md, "Revisions' customer"). Run it again to resume after an interruption.

  --batch N      revisions filled per transaction, 1 or more (default 5000)
  --pause-ms N   milliseconds to wait between two batches, 0 or more (default 0)
  --help         this text`;

const COMMAND: BackfillCommand = {
  name: 'revisions:customer-backfill',
  usage: USAGE,
  batch: 5000,
  purpose: 'fill (the embedded database is filled by its migration)',
  // Outside a transaction pooler (a concurrent index build is one long statement), with a deadline for it.
  open: (config) => openPostgres(config.databaseSessionUrl ?? config.databaseUrl, { max: 1, timeoutMs: STATEMENT_MS }),
  async run(db, options) {
    const outcome = await backfillRevisionCustomers(db, { ...options, log: console.log });
    if (outcome === 'not migrated')
      return { refused: 'the database has no migration 1260: start the release once first' };
    return {
      done:
        outcome === 'filled'
          ? "every revision carries its customer: the account feed now reads each account's own range"
          : 'every revision already carries its customer: nothing to do',
    };
  },
};

if (import.meta.main) process.exit(await backfillCommand(COMMAND, process.argv.slice(2)));
