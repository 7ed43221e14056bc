import type { Db } from '../db/db.ts';
import { errorFields, type Log } from '../log.ts';

export interface Incident {
  requestId: string;
  method: string;
  path: string;
  status: number;
  key: string;
  clientId?: string;
  /** The peer address, for refusals of callers that are not a known client. */
  address?: string;
  detail?: Record<string, unknown>;
}

/** A short, unguessable ticket a partner can quote to support. */
export function newTicket(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `QC-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()}`;
}

/**
 * Logs the incident under its ticket and, when an operator needs it, stores it so `GET /ops/incidents/{ticket}`
 * finds it (see `worthStoring`). Storing is best effort: an error response must still go out when the database
 * is the thing that failed.
 */
export function recordIncident(db: Db, log: Log, ticket: string, incident: Incident): void {
  const fields = { ticket, request_id: incident.requestId, status: incident.status, key: incident.key };
  // A 4xx is an expected answer to the caller's request, not our incident: logged as a refusal, so a search
  // for `incident` finds only our failures.
  if (incident.status >= 500) log.error('incident', { ...fields, ...incident.detail });
  else log.info('request refused', { ...fields, method: incident.method, path: incident.path });
  if (!worthStoring(incident)) return;
  db.sql`insert into incidents (ticket, request_id, method, path, status, error_key, client_id, detail)
    values (${ticket}, ${incident.requestId}, ${incident.method}, ${incident.path}, ${incident.status},
      ${incident.key}, ${incident.clientId ?? null}, ${incident.detail ?? null})`.catch((err) =>
    log.warn('incident not stored', { ticket, ...errorFields(err) }),
  );
}

// Refusals of callers without a client that tell an operator something (token guessing, probing).
const SECURITY_REFUSALS = new Set([401, 403, 429]);
/**
 * Sampled refusals stored per minute in this process, overall: addresses are cheap (1,000 loopback or IPv6
 * addresses bought 1,000 rows a minute when the bound was per address), and a few rows a minute already tell an
 * operator that someone is guessing. Past it the refusals are only logged, under their tickets.
 */
export const MAX_SAMPLED_PER_MINUTE = 60;
let sampledMinute = -1;
const sampled = new Set<string>();

/**
 * Every error row used to be stored, forever, so a client without a token grew the table by megabytes a
 * second. Stored now: our failures (5xx, or any incident recorded with its cause), every refusal of a known
 * client (bounded by its rate limits), and the security-relevant refusals of unknown callers, sampled to one per
 * address and error key and MAX_SAMPLED_PER_MINUTE in all a minute. The rest is only logged, under the same
 * ticket. Rows expire after the retention period (purgeIncidents).
 */
export function worthStoring(incident: Incident, now = Date.now()): boolean {
  // Ours: a 5xx, or an answer recorded with the failure behind it (the legacy facade's failed writes are 400s).
  if (incident.status >= 500 || incident.detail || incident.clientId) return true;
  if (!SECURITY_REFUSALS.has(incident.status)) return false;
  const minute = Math.floor(now / 60_000);
  if (minute !== sampledMinute) {
    sampledMinute = minute;
    sampled.clear();
  }
  const key = `${incident.address ?? 'unknown'} ${incident.key}`;
  if (sampled.has(key) || sampled.size >= MAX_SAMPLED_PER_MINUTE) return false;
  sampled.add(key);
  return true;
}

/** Rows per delete statement: a large backlog is removed in short statements, not one long lock. */
const PURGE_BATCH = 5000;

/** Deletes incidents older than the retention period; answers how many went. */
export async function purgeIncidents(
  db: Db,
  now: Date,
  retentionDays: number,
  /** A process shutting down: stop after the batch under way (server/retention/retention-pass.ts). */
  signal?: AbortSignal,
): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * 86_400_000);
  let purged = 0;
  for (;;) {
    if (signal?.aborted) return purged;
    const rows = await db.sql<{ ticket: string }>`
      delete from incidents where ticket in (
        select ticket from incidents where created_at < ${before} limit ${PURGE_BATCH})
      returning ticket`;
    purged += rows.length;
    if (rows.length < PURGE_BATCH) return purged;
  }
}

/** A stored incident by its ticket (the operator reads what a support ticket refers to). */
export async function findIncident(db: Db, ticket: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await db.sql<Record<string, unknown>>`select * from incidents where ticket = ${ticket}`;
  return row;
}
