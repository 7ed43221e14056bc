import type { Demo } from '../demo/demo.ts';
import { perFile, type Reply, type TestApp, testAppPerFile } from '../testing/harness.ts';

export interface PagesTest {
  t: TestApp;
  demo: Demo;
  /** `/v1/qc/properties/<live property partner code>` */
  base: string;
  /** A call under `base` with the demo's personal token. */
  call(method: string, path: string, body?: unknown): Promise<Reply>;
}

/**
 * The test file's app and a demo customer (made in beforeAll, the app closed in afterAll); calls address its
 * live property by partner code.
 */
export function pagesTestPerFile(): PagesTest {
  const t = testAppPerFile();
  return perFile(() => pagesTest(t));
}

async function pagesTest(t: TestApp): Promise<PagesTest> {
  const demo = await t.demo();
  const base = `/v1/qc/properties/${demo.properties[0]?.partner_code}`;
  return {
    t,
    demo,
    base,
    call: (method, path, body) => t.request(method, `${base}${path}`, { token: demo.personal_token, body }),
  };
}
