import type { Deps } from '../core/deps.ts';
import { ok } from '../core/http/envelope.ts';
import type { OpsApp } from './ops-app.ts';
import { readinessView } from './readiness-view.ts';

/** GET /ops/legacy/readiness: every credential's mode, zero streak and the 90-day rule; who holds the sunset back. */
export const showReadiness = (app: OpsApp, deps: Deps) =>
  app.get('/legacy/readiness', async () => ok(await readinessView(deps)), {
    detail: { summary: 'Which legacy credentials are ready for shutdown' },
  });
