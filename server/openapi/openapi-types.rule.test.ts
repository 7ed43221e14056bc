import { describe, expect, it } from 'bun:test';
import { typesOf } from '../../tools/openapi-types/index.ts';
import { testAppPerFile } from '../testing/harness.ts';

const t = testAppPerFile();

/**
 * Each operation's block in the generated `operations` interface, by operation id. openapi-typescript writes
 * one `"<operationId>": {` line at four spaces of indentation per operation.
 */
function operationBlocks(types: string): Map<string, string> {
  const body = types.slice(types.indexOf('export interface operations {'));
  const blocks = new Map<string, string>();
  const starts = [...body.matchAll(/^ {4}"?([\w.-]+)"?: \{$/gm)];
  starts.forEach((start, i) => {
    blocks.set(start[1]!, body.slice(start.index, starts[i + 1]?.index ?? body.length));
  });
  return blocks;
}

describe('TypeScript types generated from the OpenAPI document (openapi-typescript)', () => {
  it('give every operation a typed answer: no response, body or error body is never or unknown', async () => {
    const types = await typesOf((await t.request('GET', '/v1/qc/openapi.json')).text);
    const blocks = operationBlocks(types);
    expect(blocks.size).toBeGreaterThan(100);
    const untyped = [...blocks]
      .filter(([, block]) => /responses: (never|unknown);|"application\/json": (never|unknown);/.test(block))
      .map(([id]) => id);
    expect(untyped).toEqual([]);
    // Every operation's error answers are typed too: the envelope with the keys it can answer.
    const withoutErrors = [...blocks].filter(
      ([, block]) => !block.includes('components["schemas"]["ErrorEnvelope"] & {'),
    );
    expect(withoutErrors.map(([id]) => id)).toEqual([]);
  }, 60_000);

  it('type an answer as the service sends it: numbers as numbers, keys as their literal union', async () => {
    const types = await typesOf((await t.request('GET', '/v1/qc/openapi.json')).text);
    const token = operationBlocks(types).get('qc.oauth.token')!;
    expect(token).toContain('expires_in: number;');
    expect(token).toContain('message?: "errors.qc.invalid_client";');
    // The fields an error adds (the RFC 6749 code, a 415's media types) and a second success status are typed too.
    expect(token).toContain('error?: "invalid_client";');
    expect(token).toContain('accepted_content_types?: components["schemas"]["AcceptedContentTypes"];');
    expect(operationBlocks(types).get('qc.bookings.create')).toMatch(/\n {12}200: \{[\s\S]*\n {12}201: \{/);
  }, 60_000);
});
