import type { Db } from '../db/db.ts';
import { errorFields, type Log } from '../log.ts';

export interface Incident {
  requestId: string;
  method: string;
  path: string;
  status: number;
  key: string;
  clientId?: string;
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
 * Logs the incident under its ticket and stores it so `GET /ops/incidents/{ticket}` finds it. Storing is
 * best effort: an error response must still go out when the database is the thing that failed.
 */
export function recordIncident(db: Db, log: Log, ticket: string, incident: Incident): void {
  const fields = { ticket, request_id: incident.requestId, status: incident.status, key: incident.key };
  if (incident.status >= 500) log.error('incident', { ...fields, ...incident.detail });
  else log.info('incident', { ...fields, method: incident.method, path: incident.path });
  db.sql`insert into incidents (ticket, request_id, method, path, status, error_key, client_id, detail)
    values (${ticket}, ${incident.requestId}, ${incident.method}, ${incident.path}, ${incident.status},
      ${incident.key}, ${incident.clientId ?? null}, ${incident.detail ?? null})`.catch((err) =>
    log.warn('incident not stored', { ticket, ...errorFields(err) }),
  );
}
