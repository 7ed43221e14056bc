import { Elysia } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { errorFields } from '../core/log.ts';
import { withTimeout } from '../core/timeout.ts';

export interface ReadinessProbe {
  name: string;
  /** False: a failure is reported (`down`, status `degraded`) but the process stays ready (200). */
  required?: boolean;
  check(): Promise<void>;
}

/**
 * /healthz (liveness): the process answers and can recover by itself: 503 once its database pool has failed
 * for longer than QC_DB_STUCK_LIVENESS_MS although the database answers a fresh connection (the pool is
 * replaced after two statement deadlines first; past the bound a restart is what helps). A database out of
 * reach does not fail it: restarting would not bring the database back.
 * /readyz: the database answers (503 otherwise); Redis, when configured, is
 * reported but optional (see redisProbe); `fail_open` counts the Redis failures the rate limiter and the
 * idempotency store have served through since start.
 */
export function healthRoutes(deps: Deps, probes: readonly ReadinessProbe[]) {
  // Probes seen failing, so a dependency's change of state is logged once (down, then up again): a balancer
  // checks every second, and a line per failed check told nothing the first one had not.
  const down = new Set<string>();
  return new Elysia({ name: 'qc-health' })
    .get('/healthz', ({ set }) => {
      const stuckMs = deps.db.stuckForMs?.() ?? 0;
      if (stuckMs <= deps.config.dbStuckLivenessMs) return { status: 'ok' };
      set.status = 503;
      return { status: 'stuck', database_pool_failing_ms: stuckMs };
    })
    .get('/readyz', async ({ set }) => {
      const checks: Record<string, string> = {};
      const all = [{ name: 'database', check: async () => void (await deps.db.sql`select 1`) }, ...probes];
      await Promise.all(
        all.map(async (probe) => {
          try {
            await withTimeout(probe.check(), 2000);
            checks[probe.name] = 'ok';
            if (down.delete(probe.name)) deps.log.info('readiness probe ok again', { probe: probe.name });
          } catch (err) {
            checks[probe.name] = 'down';
            if (down.has(probe.name)) return;
            down.add(probe.name);
            deps.log.warn('readiness probe failed', { probe: probe.name, ...errorFields(err) });
          }
        }),
      );
      // The read replica is optional: lagging or down, its reads go to the primary (reported, never unready).
      const replica = deps.reads.state?.();
      if (replica) checks.replica = replica;
      const ready = all.every((probe) => checks[probe.name] === 'ok' || probe.required === false);
      const degraded = ready && Object.values(checks).some((v) => v !== 'ok');
      set.status = ready ? 200 : 503;
      // Requests served without rate limiting or deduplication because Redis failed (spec 8.1, 8.3.8).
      const fail_open = { rate_limits: deps.limiter.failures, idempotency: deps.idempotency.failures };
      return { status: ready ? (degraded ? 'degraded' : 'ok') : 'unavailable', checks, fail_open };
    });
}
