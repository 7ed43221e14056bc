import { describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/**
 * Imports point one way: server/core, then actors/, then the features (server/<feature>/ and legacy/), then
 * the app (server/*.ts, server/testing/). legacy/ imports only core and actors (and itself). No module takes
 * part in an import cycle. Tests and test fixtures sit on top of everything and are not checked.
 */
const ROOT = join(import.meta.dir, '..');
const SOURCES = ['server', 'actors', 'pricing', 'legacy'];

function isTestCode(file: string): boolean {
  // Test files, and the kits tests build on (test-support.ts, test-fixtures.ts, test-kit.ts, ...-test-fixture.ts).
  return /\.test\.ts$/.test(file) || /(^|\/|-)test-[a-z-]+\.ts$/.test(file) || /-test-fixture\.ts$/.test(file);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return path.endsWith('.ts') && !isTestCode(path) ? [path] : [];
  });
}

const IMPORT = /^\s*(?:import|export)\b[^'"`]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => normalize(join(dirname(file), m[1] as string)));
}

type Layer = 'core' | 'actors' | 'feature' | 'legacy' | 'app';
const RANK: Record<Layer, number> = { core: 0, actors: 1, feature: 2, legacy: 2, app: 3 };

function layerOf(file: string): Layer {
  if (file.startsWith('server/core/')) return 'core';
  if (file.startsWith('actors/') || file.startsWith('pricing/')) return 'actors';
  if (file.startsWith('legacy/')) return 'legacy';
  if (file.startsWith('server/testing/') || relative('server', dirname(file)) === '') return 'app';
  return 'feature';
}

function allowed(from: string, to: string): boolean {
  const [a, b] = [layerOf(from), layerOf(to)];
  if (a === 'legacy') return b === 'core' || b === 'actors' || b === 'legacy';
  return RANK[b] <= RANK[a];
}

/**
 * TRANSITION: violations found when this test was written, each to be removed by the change that fixes it.
 * The test also fails when an entry here no longer occurs, so the list can only shrink.
 */
const KNOWN_UPWARD: string[] = [];
const KNOWN_CYCLES: string[] = [];

const files = SOURCES.flatMap(sourceFiles);
const graph = new Map(files.map((file) => [file, importsOf(file).filter((to) => !isTestCode(to))]));

/** Strongly connected components of more than one module (Tarjan). */
function cycles(): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, order.get(w) as number));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return found;
}

describe('import graph', () => {
  it('reads the modules it checks', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get('server/app.ts')?.length).toBeGreaterThan(3);
  });

  it('has no upward import (core, actors, features, app; legacy only on core and actors)', () => {
    const upward = [...graph].flatMap(([from, tos]) =>
      tos.filter((to) => graph.has(to) && !allowed(from, to)).map((to) => `${from} -> ${to}`),
    );
    expect(upward.filter((edge) => !KNOWN_UPWARD.includes(edge))).toEqual([]);
    expect(KNOWN_UPWARD.filter((edge) => !upward.includes(edge))).toEqual([]);
  });

  it('has no import cycle', () => {
    const found = cycles();
    const known = (cycle: string[]) => KNOWN_CYCLES.some((member) => cycle.includes(member));
    expect(found.filter((cycle) => !known(cycle))).toEqual([]);
    expect(KNOWN_CYCLES.filter((member) => !found.some((cycle) => cycle.includes(member)))).toEqual([]);
  });
});
