import type { Db } from '../core/db/db.ts';
import type { Log } from '../core/log.ts';
import { errorFields } from '../core/log.ts';

/**
 * Which legacy endpoints each key calls, per UTC day, whatever its mode: a sunset of an endpoint waits for the
 * keys that use it. Written once per key, endpoint and day per process (a set remembers what this process
 * already wrote today), never awaited by the request.
 */
export class EndpointUsage {
  #day = '';
  readonly #written = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly log: Log,
  ) {}

  note(keyId: number, endpoint: string, day: string): void {
    if (day !== this.#day) {
      this.#day = day;
      this.#written.clear();
    }
    const entry = `${keyId} ${endpoint}`;
    if (this.#written.has(entry)) return;
    this.#written.add(entry);
    this.db.sql`insert into legacy_endpoint_usage (key_id, endpoint, day) values (${keyId}, ${endpoint}, ${day})
      on conflict do nothing`.catch((error) => {
      this.#written.delete(entry);
      this.log.warn('legacy endpoint usage not recorded', { key_id: keyId, endpoint, ...errorFields(error) });
    });
  }
}
