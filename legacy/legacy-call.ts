import type { Deps } from '../server/core/deps.ts';
import type { LegacyCaller } from './auth.ts';
import type { PhpArray, PhpValue } from './php-input.ts';

/** What one legacy method receives: no framework context, only the parsed input and the calling PMS. */
export interface LegacyCall {
  deps: Deps;
  caller: LegacyCaller;
  query: PhpArray;
  body: PhpValue;
  request: Request;
}

export type LegacyMethod = (call: LegacyCall) => Promise<Response>;
