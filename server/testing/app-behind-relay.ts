import { buildApp } from '../app.ts';
import { createDeps } from '../boot.ts';
import { parseConfig } from '../core/config.ts';
import type { Db } from '../core/db/db.ts';
import { openPostgres } from '../core/db/postgres.ts';
import { createLog } from '../core/log.ts';
import { OPERATOR_TOKEN, TEST_KEY_ENCRYPTION_KEY } from './harness.ts';
import { TcpProxy } from './tcp-proxy.ts';

export interface AppBehindRelay {
  /** The relay between the app and PostgreSQL: `cutWhen` drops the client once a matching message went through. */
  proxy: TcpProxy;
  app: ReturnType<typeof buildApp>;
  close(): Promise<void>;
}

/**
 * The app on the test database through a TCP relay, for writes whose connection dies after COMMIT was sent.
 * Statements go unprepared, as through a transaction pooler (a session URL is given), so every COMMIT carries its
 * text for the relay to recognise. `redis`: the idempotency store on the suite's Redis (a private key prefix)
 * rather than in process.
 */
export async function startAppBehindRelay(options: { redis?: boolean } = {}): Promise<AppBehindRelay> {
  const url = new URL(process.env.DATABASE_URL as string);
  const proxy = TcpProxy.start(Number(url.port || 5432));
  url.host = `127.0.0.1:${proxy.port}`;
  const db: Db = openPostgres(url.toString(), {
    max: 2,
    sessionUrl: process.env.DATABASE_SESSION_URL ?? process.env.DATABASE_URL,
  });
  const config = parseConfig({
    QC_LOG_LEVEL: 'silent',
    QC_OPERATOR_TOKEN: OPERATOR_TOKEN,
    QC_KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
    DATABASE_URL: url.toString(),
    ...(options.redis ? { REDIS_URL: process.env.REDIS_URL } : {}),
    QC_DEMO_ON_EMPTY: '0',
    // As the harness: subscription URLs are not resolved (no DNS in tests).
    QC_WEBHOOK_ALLOW_PRIVATE: '1',
  });
  const deps = await createDeps(config, {
    db,
    log: createLog('silent'),
    enforceRateLimits: false,
    ...(options.redis ? { redisKeyPrefix: `qc-test:${crypto.randomUUID()}:` } : {}),
  });
  const app = buildApp(deps, { operatorToken: OPERATOR_TOKEN });
  return {
    proxy,
    app,
    async close() {
      await db.close();
      proxy.stop();
    },
  };
}
