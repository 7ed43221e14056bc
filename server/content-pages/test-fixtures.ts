import type { Demo } from '../ops/demo.ts';
import { type Reply, startTestApp, type TestApp } from '../testing/harness.ts';

export interface PagesTest {
  t: TestApp;
  demo: Demo;
  /** `/v1/qc/properties/<live property partner code>` */
  base: string;
  /** A call under `base` with the demo's personal token. */
  call(method: string, path: string, body?: unknown): Promise<Reply>;
}

/** An app and a demo customer; calls address its live property by partner code. */
export async function startPagesTest(): Promise<PagesTest> {
  const t = await startTestApp();
  const demo = await t.demo();
  const base = `/v1/qc/properties/${demo.properties[0]?.partner_code}`;
  return {
    t,
    demo,
    base,
    call: (method, path, body) => t.request(method, `${base}${path}`, { token: demo.personal_token, body }),
  };
}
