import type { Deps } from '../core/deps.ts';
import type { LegacyCutoverParts } from './legacy-cutover.ts';
import { listShadowScores } from './list-shadow-scores.ts';
import type { OpsApp } from './ops-app.ts';
import { setSunsetRoute } from './set-sunset.ts';
import { showLegacyKey } from './show-legacy-key.ts';
import { showReadiness } from './show-readiness.ts';
import { updateCutover } from './update-cutover.ts';

/**
 * The operator's cutover routes (spec 9.4), one operation a file, added onto the operator API instance so its
 * operator-token guard covers them.
 */
export function legacyCutoverOpsRoutes(deps: Deps, cutover: LegacyCutoverParts) {
  return (app: OpsApp): OpsApp => {
    // Each adds its route to this same instance (Elysia registers in place).
    showLegacyKey(app, deps);
    updateCutover(app, deps);
    listShadowScores(app, deps);
    showReadiness(app, deps);
    setSunsetRoute(app, deps, cutover);
    return app;
  };
}
