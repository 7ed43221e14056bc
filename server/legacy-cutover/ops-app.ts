import type { createJsonApp } from '../core/http/json-app.ts';

/** The operator API instance each cutover operation adds its route to. */
export type OpsApp = ReturnType<typeof createJsonApp>;
