import { ServerProcess } from '../../server/testing/server-process.ts';

/**
 * The port as the harness meets it in production: a separate `bun server/main.ts` process on PostgreSQL and
 * Redis (DATABASE_URL, REDIS_URL), reached only over HTTP, with a fresh demo customer for its legacy api_key.
 * For harness tests, the examples script and the benchmark; the harness itself never imports server code.
 */
export const OPERATOR_TOKEN = 'harness-operator-token-0123456789';

export interface LegacyDemo {
  api_key: string;
  property_id: number;
  room_ids: number[];
  ext_room_ids: Array<{ ext_room_id: string; room_id: number }>;
  bm_code: string;
  bookings: Array<{ booking_id: number; generation: 'old' | 'current' }>;
}

export class LegacyPort {
  private constructor(
    readonly server: ServerProcess,
    readonly url: string,
  ) {}

  static async start(): Promise<LegacyPort> {
    const server = await ServerProcess.start({
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      QC_OPERATOR_TOKEN: OPERATOR_TOKEN,
    });
    return new LegacyPort(server, server.url);
  }

  /** A fresh demo customer (POST /ops/demo): its legacy key, property, rooms, booking button and bookings. */
  async demo(): Promise<LegacyDemo> {
    const res = await fetch(`${this.url}/ops/demo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    if (res.status !== 200) throw new Error(`POST /ops/demo answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { data: { legacy: LegacyDemo } }).data.legacy;
  }

  stop(): Promise<number> {
    return this.server.stop();
  }
}
