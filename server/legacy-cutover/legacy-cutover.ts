import { readFileSync } from 'node:fs';
import { IgnoreRules } from '../../harness/compare/index.ts';
import { ConfigError } from '../core/config.ts';
import type { Deps } from '../core/deps.ts';
import { CutoverRouter } from './cutover-router.ts';
import { ShadowComparisons } from './shadow-comparisons.ts';
import { SunsetCache } from './sunset.ts';

/** The cutover's running parts, one set per app: the facade asks the router, the operator routes share the rest. */
export interface LegacyCutoverParts {
  router: CutoverRouter;
  comparisons: ShadowComparisons;
  sunset: SunsetCache;
}

/** Built from the configuration: the comparison queue's size, samples kept, ignore rules (read once, at boot). */
export function createLegacyCutover(deps: Deps): LegacyCutoverParts {
  const { queueCapacity, samplesPerDay, ignoreFile } = deps.config.legacyCutover;
  const comparisons = new ShadowComparisons(deps, {
    capacity: queueCapacity,
    samplesPerDay,
    ignore: ignoreFile ? ignoreRules(ignoreFile) : undefined,
  });
  const sunset = new SunsetCache(deps.db);
  return { router: new CutoverRouter(deps, comparisons, sunset), comparisons, sunset };
}

/** QC_LEGACY_SHADOW_IGNORE_FILE's rules: a file missing or malformed stops start-up naming the variable, in one line. */
function ignoreRules(file: string): IgnoreRules {
  try {
    return IgnoreRules.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`Invalid configuration: QC_LEGACY_SHADOW_IGNORE_FILE ${file}: ${(err as Error).message}`);
  }
}
