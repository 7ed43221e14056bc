/**
 * The test files the suite on the production topology (scripts/test-topology-suite.ts) leaves out: their outcome
 * cannot depend on its DATABASE_URL or REDIS_URL, so running them there would only repeat what `npm test` ran a
 * moment before (about 75 s of its 7 minutes on the shared 2-core machine). scripts/topology-suite-files.rule.test.ts
 * checks that each still gives it no reason to run them.
 */

/** The embedded database's own tests: they open PGlite (the template's alone 40-80 s). */
export const EMBEDDED_ENGINE = ['server/core/db/pglite*.test.ts', 'scripts/postinstall-pglite-template.test.ts'];

/**
 * Tests on private clusters they start themselves: the topology kit's, and server processes given their URLs
 * explicitly (REDIS_URL empty: no Redis).
 */
export const PRIVATE_ENGINES = [
  'scripts/topology/**',
  'server/core/db/termination-storm.processes.test.ts',
  'server/core/db/failover.processes.test.ts',
  'server/core/db/database-outage.processes.test.ts',
];

/**
 * The OpenAPI document, the pages built from it and the harness's report: they come from code alone, whichever
 * engines serve the app that hands them out. Two of them open Chromium.
 */
export const CODE_ONLY = [
  'server/openapi/docs.browser.test.ts',
  'server/openapi/openapi-document.rule.test.ts',
  'server/openapi/openapi-types.rule.test.ts',
  'harness/report/report.chromium.test.ts',
];
