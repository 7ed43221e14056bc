import { Elysia } from 'elysia';
import type { Deps } from '../deps.ts';
import { qcPipeline } from './qc-plugin.ts';

/** The modern API instance (/v1/qc). Feature route files receive it and register their routes on it. */
export function createQcApp(deps: Deps) {
  return new Elysia({ prefix: '/v1/qc', name: 'qc-modern' }).use(qcPipeline(deps));
}

export type QcApp = ReturnType<typeof createQcApp>;
