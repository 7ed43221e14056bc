/**
 * `npm run lint:openapi` (CI runs it): writes the served OpenAPI document to .artifacts/openapi.json and
 * lints it with Redocly under redocly.yaml. Exits non-zero on any error.
 */
import { mkdirSync } from 'node:fs';
import { openapiDocument } from './openapi-document.ts';

const out = new URL('../.artifacts/openapi.json', import.meta.url).pathname;
mkdirSync(new URL('../.artifacts/', import.meta.url).pathname, { recursive: true });
await Bun.write(out, await openapiDocument('https://qc.partner-api.test'));
const root = new URL('..', import.meta.url).pathname;
const lint = Bun.spawn(['node_modules/.bin/redocly', 'lint', out, '--config', 'redocly.yaml'], {
  cwd: root,
  stdout: 'inherit',
  stderr: 'inherit',
});
process.exit(await lint.exited);
