import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LEGACY_ENDPOINTS } from '../legacy/methods.ts';
import { openapiRoutes } from '../server/openapi/routes.ts';
import { routeTable } from '../server/route-table.ts';

/**
 * Keeps the partner's guide and docs/ honest without starting anything: every partner API call shown in a code
 * block names a route the service has (with the method the command uses) or a legacy facade method it has, every
 * `npm run X` names a script of package.json, and every relative link leads to a file and heading that exist. A renamed route or script fails here instead of in a partner's terminal.
 */
const root = join(import.meta.dir, '..');
const guides = [
  'README.md',
  'client/README.md',
  'load/README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const text = (file: string) => readFileSync(join(root, file), 'utf8');

interface Served {
  method: string;
  segments: string[];
}

const served: Served[] = [
  ...routeTable.map((route) => ({ method: route.method, segments: `/v1/qc${route.path}`.split('/') })),
  ...openapiRoutes(undefined).routes.map((route) => ({ method: route.method, segments: route.path.split('/') })),
];

/** A route segment `:name` stands for any value; `$VAR`, `{name}` and `<name>` in the guide are such values. */
function isServed(method: string, path: string): boolean {
  const segments = path.split('/');
  return served.some(
    (route) =>
      route.method === method &&
      route.segments.length === segments.length &&
      route.segments.every((segment, i) => segment.startsWith(':') || segment === segments[i]),
  );
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function headingAnchors(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  return new Set(
    [...prose.matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
      (match[1] ?? '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((match) => match[1] ?? '');
}

/** Shell commands of a code block, continuation lines joined. */
function commands(block: string): string[] {
  return block.replace(/\\\n/g, ' ').split('\n');
}

/** The partner API calls of one command line: the method curl would use and each /v1/qc path, query dropped. */
function apiCalls(command: string): { method: string; path: string }[] {
  const explicit = command.match(/(?:-X|--request)\s+([A-Z]+)/)?.[1];
  const method = explicit ?? (/\s(?:-d|--data[\w-]*|-F)\s/.test(command) ? 'POST' : 'GET');
  return [...command.matchAll(/\/v1\/qc\/[^\s"'?#)]*/g)].map((match) => ({
    method,
    path: match[0].replace(/\/$/, ''),
  }));
}

describe('the partner guide and docs/', () => {
  test('name only partner API routes the service serves, with the method the command uses', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of guides) {
      for (const block of codeBlocks(text(file))) {
        for (const command of commands(block)) {
          // A curl line's method applies to its own URL; a URL in prose-like code (printed output) is read as GET.
          const calls = command.includes('curl')
            ? apiCalls(command)
            : apiCalls(command).map((call) => ({ ...call, method: 'GET' }));
          for (const { method, path } of calls) {
            checked++;
            if (!isServed(method, path)) missing.push(`${file}: ${method} ${path}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(5);
  });

  test('call only legacy facade methods the facade has', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of guides) {
      for (const block of codeBlocks(text(file))) {
        for (const [, endpoint] of block.matchAll(/\/api\/pms\/v1\/(\w+\/\w+)/g)) {
          checked++;
          // Exact spelling: the facade forgives letter case, a partner copying the guide should not need to.
          if (!LEGACY_ENDPOINTS.includes(endpoint ?? '')) missing.push(`${file}: ${endpoint}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });

  test('run only npm scripts package.json defines', () => {
    const scripts = Object.keys(JSON.parse(text('package.json')).scripts as Record<string, string>);
    const missing: string[] = [];
    for (const file of guides) {
      for (const [, name] of text(file).matchAll(/npm run ([\w:*-]+)/g)) {
        const known = name?.endsWith('*')
          ? scripts.some((script) => script.startsWith(name.slice(0, -1)))
          : scripts.includes(name ?? '');
        if (!known) missing.push(`${file}: npm run ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('run commands a newcomer has: npm scripts, never a bare bun (not on the PATH of an npm install)', () => {
    const partnerGuides = guides.filter((file) => !file.startsWith('docs/'));
    const bare = partnerGuides.flatMap((file) =>
      [...text(file).matchAll(/(?:^|[\s`;&|(])((?:node_modules\/\.bin\/)?bun \S+[^`\n]*)/gm)].map(
        (match) => `${file}: ${match[1]}`,
      ),
    );
    expect(bare).toEqual([]);
  });

  test('link only to headings and files that exist', () => {
    const broken: string[] = [];
    for (const file of guides) {
      const markdown = text(file);
      const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
      for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const linked = path ? join(dirname(join(root, file)), path) : join(root, file);
        if (!existsSync(linked)) {
          broken.push(`${file}: ${target}`);
          continue;
        }
        if (anchor && linked.endsWith('.md') && !headingAnchors(readFileSync(linked, 'utf8')).has(anchor)) {
          broken.push(`${file}: ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  test("the README's top states both promises: `npm install && npm start` and `npm install && npm test`", () => {
    const top = text('README.md').split('\n## Quick start')[0] ?? '';
    const blocks = codeBlocks(top).join('\n');
    expect(blocks).toContain('npm install && npm start');
    expect(blocks).toContain('npm install && npm test');
  });

  test('a route the service does not serve, or serves under another method, is reported', () => {
    expect(isServed('POST', '/v1/qc/properties/$PROPERTY/inventory/rates')).toBe(true);
    expect(isServed('GET', '/v1/qc/properties/$PROPERTY/inventory/rates')).toBe(false);
    expect(isServed('GET', '/v1/qc/properties/$PROPERTY/inventory/prices')).toBe(false);
    expect(apiCalls("curl -s -X POST $QC/v1/qc/booking_revisions/$REVISION/ack -H 'A: b'")).toEqual([
      { method: 'POST', path: '/v1/qc/booking_revisions/$REVISION/ack' },
    ]);
    expect(apiCalls('curl -s "$QC/v1/qc/booking_revisions/feed?since=0"')).toEqual([
      { method: 'GET', path: '/v1/qc/booking_revisions/feed' },
    ]);
  });
});
