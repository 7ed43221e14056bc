import type { OperatorRouteDefinition } from './core/routes/operator-route.ts';
import { createDemoOp } from './demo/create-demo.ts';
import type { LegacyCutoverParts } from './legacy-cutover/legacy-cutover.ts';
import { operatorRoutes } from './operator/route-table.ts';

/**
 * Every operator and dashboard operation the app mounts: the operator API's table and the demo's POST
 * /ops/demo (the demo is a leaf: only the app, the tools and tests import it). The operator auth walk and
 * fuzz walk read this list.
 */
export function operatorRouteTable(cutover: Pick<LegacyCutoverParts, 'sunset'>): OperatorRouteDefinition[] {
  return [createDemoOp, ...operatorRoutes(cutover)];
}
