import type { Db } from '../core/db/db.ts';

/**
 * What `npm start` prints once it listens on a database that already holds customers (a restart): where the
 * docs are, where the operator token is, and how to mint a fresh demo credential. The demo's client secret and
 * tokens are stored only as SHA-256 digests, so the ones printed at the first start cannot be shown again.
 */
export interface RestartFacts {
  base: string;
  /** The file the generated operator token is kept in; undefined when QC_OPERATOR_TOKEN sets it. */
  operatorTokenFile: string | undefined;
  /** The newest demo OAuth client still in use, if any. */
  demoClientId: string | undefined;
}

/** The newest live OAuth client the production demo made (`POST /ops/demo` or the first start). */
export async function newestDemoClient(db: Db): Promise<string | undefined> {
  const [row] = await db.sql<{ client_id: string }>`
    select client_id from api_clients
    where kind = 'oauth' and name = 'demo client' and revoked_at is null
    order by id desc limit 1`;
  return row?.client_id;
}

export function restartBanner({ base, operatorTokenFile, demoClientId }: RestartFacts): string {
  const operator = operatorTokenFile ? `$(cat ${operatorTokenFile})` : '$QC_OPERATOR_TOKEN';
  const auth = `-H "Authorization: Bearer ${operator}"`;
  const lines = [
    '',
    `  Hotel Connectivity Service on ${base}`,
    `    Docs: ${base}/v1/qc/docs   OpenAPI: ${base}/v1/qc/openapi.yaml`,
    `    Operator token (for /ops): ${operatorTokenFile ? `kept in ${operatorTokenFile}` : 'the QC_OPERATOR_TOKEN you set'}`,
  ];
  if (demoClientId) {
    lines.push(
      `    Demo OAuth client_id: ${demoClientId}`,
      '    Its secret and the demo tokens were printed once, at the first start: they are stored only as digests',
      '    and cannot be shown again. A fresh secret for the same demo (the old one still works for 24 hours):',
      `      curl -s -X POST ${base}/ops/clients/${demoClientId}/rotate-secret ${auth}`,
    );
  }
  lines.push(
    '    A whole new demo customer, every credential printed once:',
    `      curl -s -X POST ${base}/ops/demo ${auth}`,
    '',
  );
  return lines.join('\n');
}
