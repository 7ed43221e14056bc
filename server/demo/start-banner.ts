import type { Db } from '../core/db/db.ts';
import { DEMO_CLIENT_NAME } from './demo.ts';

/**
 * What `npm start` prints once it listens on a database that already holds customers (a restart): where the
 * docs are, where the operator token is, and how to mint a fresh demo credential. The demo's client secret and
 * tokens are stored only as SHA-256 digests, so the ones printed at the first start cannot be shown again.
 */
export interface RestartFacts {
  base: string;
  /** The file the generated operator token is kept in; undefined when QC_OPERATOR_TOKEN sets it. */
  operatorTokenFile: string | undefined;
  /** The OAuth client of the demo the first start printed, while it is live. */
  demoClientId: string | undefined;
}

/**
 * The OAuth client of the demo the first start made and printed, while it is live. That start makes its demo
 * only on a database without customers, so the demo's customer is the oldest one. Demos from `POST /ops/demo`
 * belong to later customers, and the banner never names theirs: its rotate-secret line would change another
 * customer's secret (it named the newest demo). When the first start made no demo (QC_DEMO_ON_EMPTY=0, or
 * customers made before it), the oldest customer has no demo client and the banner names none.
 */
export async function firstStartDemoClient(db: Db): Promise<string | undefined> {
  const [row] = await db.sql<{ client_id: string }>`
    select client_id from api_clients
    where kind = 'oauth' and name = ${DEMO_CLIENT_NAME} and revoked_at is null
      and customer_id = (select min(id) from customers)
    order by id limit 1`;
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
      `    Demo OAuth client_id (the demo the first start printed): ${demoClientId}`,
      '    Its secret and the demo tokens were printed once, at the first start: they are stored only as digests',
      '    and cannot be shown again. A fresh secret for that demo (the old one still works for 24 hours):',
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
