import type { Deps } from '../core/deps.ts';
import type { LegacyCutoverParts } from '../legacy-cutover/legacy-cutover.ts';
import { listShadowScores } from '../legacy-cutover/list-shadow-scores.ts';
import type { OpsApp } from '../legacy-cutover/ops-app.ts';
import { setSunsetRoute } from '../legacy-cutover/set-sunset.ts';
import { showLegacyKey } from '../legacy-cutover/show-legacy-key.ts';
import { showReadiness } from '../legacy-cutover/show-readiness.ts';
import { updateCutover } from '../legacy-cutover/update-cutover.ts';

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
