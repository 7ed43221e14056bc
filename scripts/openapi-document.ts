import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.ts';
import { createDeps } from '../server/boot.ts';
import { parseConfig } from '../server/core/config.ts';
import { createLog } from '../server/core/log.ts';

/**
 * The OpenAPI document exactly as the service serves it, without a running server: a throwaway embedded
 * database (the app needs one to boot; the document reads nothing from it) and one in-process request.
 */
export async function openapiDocument(server = 'http://localhost:8080'): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qc-openapi-'));
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...env } = process.env;
  const deps = await createDeps(parseConfig({ ...env, QC_DATA_DIR: dataDir }), { log: createLog('error') });
  try {
    const app = buildApp(deps, { operatorToken: 'unused-operator-token-0123456789' });
    const res = await app.handle(new Request(`${server}/v1/qc/openapi.json`));
    if (!res.ok) throw new Error(`GET /v1/qc/openapi.json answered ${res.status}`);
    return await res.text();
  } finally {
    await deps.db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
