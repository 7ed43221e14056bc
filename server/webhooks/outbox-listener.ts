import postgres from 'postgres';
import { postgresTarget } from '../core/db/postgres-target.ts';
import { errorFields, type Log } from '../core/log.ts';

/** The channel migration 0502 notifies on every outbox insert, at commit. */
export const OUTBOX_CHANNEL = 'qc_outbox';

/**
 * LISTEN for committed outbox events so the relay runs at once instead of at its next poll. LISTEN needs
 * a connection of its own, which the pooled Db does not lend, hence this one postgres.js connection. The
 * poll stays as the safety net: a notification lost while reconnecting only costs one poll interval.
 * PostgreSQL only; embedded PGlite is one process, where the poll alone is the design.
 */
export async function listenForOutbox(
  databaseUrl: string,
  onEvent: () => void,
  log: Log,
): Promise<() => Promise<void>> {
  const { url, host } = postgresTarget(databaseUrl);
  const sql = postgres(url, {
    host,
    max: 1,
    onnotice: () => {},
    connection: { application_name: 'qc-outbox-listener' },
  });
  try {
    await sql.listen(OUTBOX_CHANNEL, onEvent);
  } catch (err) {
    log.warn('outbox LISTEN unavailable; the relay polls only', errorFields(err));
    await sql.end({ timeout: 1 });
    return async () => {};
  }
  return () => sql.end({ timeout: 1 });
}
