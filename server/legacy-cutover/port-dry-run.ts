import { dryRunDb } from '../../actors/dry-run-db.ts';
import type { ExchangeAnswer } from '../../harness/compare/index.ts';
import { headerListOf } from '../../harness/proxy/hop-by-hop.ts';
import { portAnswer } from '../../legacy/port-answer.ts';
import type { Deps } from '../core/deps.ts';
import type { LegacyRequestBytes } from './forward-upstream.ts';

/**
 * Legacy methods that write nothing (not even what getBookings stores as sent): a dry run of them is their
 * answer, with no turn or savepoint. A method gaining a write must leave this list
 * (harness/real-corpora.process.test.ts replays every one of them and compares every table after).
 */
export const WRITE_FREE_ENDPOINTS: ReadonlySet<string> = new Set([
  'availability/getAvailability',
  'property/getRoomsDetails',
  'property/getPropertySettings',
  'property/getBookingOffers',
]);

/**
 * The port's answer to a legacy request's exact bytes, computed in the property's actor turn and rolled back
 * whatever it wrote: calendar rows, revisions getBookings stores, acks, room assignments, posted property data.
 * What shadow mode compares with the legacy answer, and what a request asking for a dry run (`X-Qc-Dry-Run: 1`,
 * the compatibility harness's replays) gets back.
 */
export async function portDryRun(deps: Deps, propertyId: number, request: LegacyRequestBytes): Promise<ExchangeAnswer> {
  const [answer] = await portDryRuns(deps, propertyId, [request]);
  return answer as ExchangeAnswer;
}

/**
 * Several requests answered one after the other in one dry-run turn, each seeing what the ones before it would
 * have written (a write, then the read that shows it), all rolled back together.
 */
export function portDryRuns(
  deps: Deps,
  propertyId: number,
  requests: readonly LegacyRequestBytes[],
): Promise<ExchangeAnswer[]> {
  return deps.actors.dryRun(propertyId, async (tx) => {
    const answers: ExchangeAnswer[] = [];
    for (const request of requests) {
      const replayed = new Request(new URL(request.pathAndQuery, 'http://legacy').href, {
        method: request.method,
        headers: new Headers(request.headers.map(([name, value]) => [name, value])),
        // fetch's Request refuses a body on GET and HEAD; the port reads none there either.
        body: request.method === 'GET' || request.method === 'HEAD' ? null : request.body,
      } as RequestInit);
      const answer = await portAnswer({ ...deps, db: dryRunDb(tx) }, replayed);
      answers.push({
        status: answer.status,
        responseHeaders: headerListOf(answer.headers),
        responseBody: new Uint8Array(await answer.arrayBuffer()),
      });
    }
    return answers;
  });
}
