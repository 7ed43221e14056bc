/**
 * A small stand-in for the k6 runtime, enough to smoke-run our load scripts in CI (k6 cannot be installed here):
 *
 *   bun load/k6-stand-in.ts load/reads.k6.js          (env: BASE_URL, CLIENT_ID, ... as k6's -e; ITERATIONS=2)
 *
 * It provides the modules the scripts import (`k6`: check, sleep, group; `k6/http`: get, post, request with
 * k6's synchronous answers, through curl; `k6/metrics`: Counter, Trend, Rate, Gauge), runs setup(), ITERATIONS
 * iterations of every scenario's exec function, then teardown(), and checks `options.thresholds`: every metric
 * named must exist and every expression must parse; `checks` rate thresholds are evaluated on what ran (timings
 * are not: a smoke run measures nothing). It records the tags the script gives (options, scenarios, requests,
 * metrics, checks) and refuses a k6 system tag among them, and a threshold filter that cannot select what the script
 * tagged (below). Any exception, a failed `checks` threshold, an unknown metric or such a tag exits 1, so a broken
 * script fails the test suite (load/k6-scripts.rule.test.ts). It is not k6: no VUs, no arrival rates, no real
 * durations.
 */

import { resolve } from 'node:path';
import { plugin } from 'bun';

type Tags = Record<string, string>;
const metrics = new Map<string, { kind: string; values: number[] }>();
const BUILTIN = [
  'http_req_duration',
  'http_req_failed',
  'http_reqs',
  'iterations',
  'iteration_duration',
  'checks',
  'data_received',
  'data_sent',
  'vus',
];
for (const name of BUILTIN) metrics.set(name, { kind: 'builtin', values: [] });
let checksPassed = 0;
let checksFailed = 0;

/**
 * Tags k6 sets itself on every sample. A script's own tag of one of these names is overwritten (a scenario's
 * `tags: {method: 'getBookings'}` becomes `method=GET` on each request), so a threshold filtering it for the
 * script's value selects nothing and can never fail. From k6's "Tags and Groups"; the last four only when enabled
 * by `systemTags`. `name` is not here: k6 keeps a `name` the script sets (its documented way to group URLs).
 */
const SYSTEM_TAGS = new Set([
  'proto',
  'subproto',
  'status',
  'method',
  'url',
  'group',
  'check',
  'error',
  'error_code',
  'tls_version',
  'scenario',
  'service',
  'expected_response',
  'vu',
  'iter',
  'ip',
  'ocsp_status',
]);
/** The names of the checks run: the values k6 gives the `check` system tag. */
const checkNames = new Set<string>();
/** The script's own tags as it gives them: name -> every value seen. */
const ownTags = new Map<string, Set<string>>();
function recordTags(tags: unknown): void {
  if (!tags || typeof tags !== 'object') return;
  for (const [name, value] of Object.entries(tags)) {
    const values = ownTags.get(name) ?? new Set<string>();
    values.add(String(value));
    ownTags.set(name, values);
  }
}

function metric(kind: string) {
  return class {
    readonly name: string;
    constructor(name: string) {
      this.name = name;
      metrics.set(name, { kind, values: [] });
    }
    add(value: number | boolean, tags?: Tags) {
      if (typeof value !== 'number' && typeof value !== 'boolean') throw new TypeError(`${this.name}.add(${value})`);
      recordTags(tags);
      metrics.get(this.name)?.values.push(Number(value));
    }
  };
}

/** k6's response: status, body, headers in canonical case, json(selector) with a dotted path, timings. */
class Response {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, string>,
    readonly timings: { duration: number },
  ) {}

  json(selector?: string): unknown {
    let value: unknown = JSON.parse(this.body);
    for (const key of selector ? selector.split('.') : []) value = (value as Record<string, unknown> | null)?.[key];
    return value ?? null;
  }
}

interface Params {
  headers?: Record<string, string>;
  tags?: Tags;
}

const canonical = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

/** One synchronous request, as k6 makes them: curl in a child process, so the script's call returns the answer. */
function request(method: string, url: string, body?: unknown, params: Params = {}) {
  recordTags(params.tags);
  const args = ['-s', '-S', '-i', '-X', method, '-H', 'Expect:'];
  for (const [name, value] of Object.entries(params.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (body !== null && body !== undefined) {
    if (typeof body === 'object') {
      args.push('-H', 'Content-Type: application/x-www-form-urlencoded');
      args.push('--data-raw', new URLSearchParams(body as Record<string, string>).toString());
    } else args.push('--data-raw', String(body));
  }
  const started = performance.now();
  const run = Bun.spawnSync(['curl', ...args, url]);
  const duration = performance.now() - started;
  if (run.exitCode !== 0) throw new Error(`request ${method} ${url} failed: ${run.stderr.toString()}`);
  const raw = run.stdout.toString();
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...headerLines] = raw.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      canonical(line.slice(0, line.indexOf(':')).toLowerCase()),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  const status = Number(statusLine.split(' ')[1]);
  metrics.get('http_req_duration')?.values.push(duration);
  metrics.get('http_reqs')?.values.push(1);
  return new Response(status, raw.slice(split + 4), headers, { duration });
}

plugin({
  name: 'k6 stand-in',
  setup(build) {
    build.module('k6', () => ({
      loader: 'object',
      exports: {
        check(value: unknown, checks: Record<string, (v: unknown) => boolean>, tags?: Tags) {
          recordTags(tags);
          let all = true;
          for (const [name, predicate] of Object.entries(checks)) {
            checkNames.add(name);
            const ok = Boolean(predicate(value));
            if (ok) checksPassed++;
            else {
              checksFailed++;
              console.error(`check failed: ${name}`);
            }
            all &&= ok;
          }
          return all;
        },
        // A smoke run waits for nothing.
        sleep(_seconds: number) {},
        group(_name: string, fn: () => unknown) {
          return fn();
        },
      },
    }));
    build.module('k6/http', () => ({
      loader: 'object',
      exports: {
        default: {
          get: (url: string, params?: Params) => request('GET', url, undefined, params),
          post: (url: string, body?: unknown, params?: Params) => request('POST', url, body, params),
          request: (method: string, url: string, body?: unknown, params?: Params) => request(method, url, body, params),
        },
      },
    }));
    build.module('k6/metrics', () => ({
      loader: 'object',
      exports: { Counter: metric('counter'), Trend: metric('trend'), Rate: metric('rate'), Gauge: metric('gauge') },
    }));
  },
});

/** `p(95)<500`, `rate>0.99`, `count>=1`, `avg<200`, `med<=10`, `max<1`, `min>0` */
const EXPRESSION = /^(p\(\d+(\.\d+)?\)|rate|count|avg|med|min|max|value)\s*(<|<=|>|>=|==|!=)\s*-?\d+(\.\d+)?$/;

/**
 * A script's own tag named like a system tag; a threshold filter on a system tag for a value the script gives one
 * of its own tags (the own tag renamed, the threshold not), unless k6 gives the system tag that value too (a
 * scenario's name, a check's); a filter on a tag nothing of the script carries.
 */
function tagProblems(thresholds: Record<string, unknown>, scenarios: string[]): string[] {
  const problems = [...ownTags.keys()]
    .filter((tag) => SYSTEM_TAGS.has(tag))
    .map(
      (tag) => `tag ${tag} is a k6 system tag: k6 sets it on every sample over the script's value; name it otherwise`,
    );
  const ownValues = new Set([...ownTags.values()].flatMap((values) => [...values]));
  const k6Values: Record<string, Set<string>> = { scenario: new Set(scenarios), check: checkNames };
  for (const key of Object.keys(thresholds)) {
    for (const filter of key.match(/\{([^}]*)\}$/)?.[1]?.split(',') ?? []) {
      const [tag = '', value = ''] = filter.split(/:(.*)/s).map((part) => part.trim());
      if (SYSTEM_TAGS.has(tag) && ownValues.has(value) && !k6Values[tag]?.has(value))
        problems.push(
          `threshold ${key} filters the k6 system tag ${tag} for the script's own value ${value}: it selects nothing`,
        );
      else if (!SYSTEM_TAGS.has(tag) && tag !== 'name' && !ownTags.has(tag))
        problems.push(`threshold ${key} filters on tag ${tag}, which nothing of the script carries`);
    }
  }
  return problems;
}

function thresholdProblems(thresholds: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, list] of Object.entries(thresholds)) {
    const name = key.replace(/\{[^}]*\}$/, '');
    if (!metrics.has(name)) problems.push(`threshold on unknown metric ${name}`);
    if (key !== name && !/^\{[\w-]+:[^}]+\}$/.test(key.slice(name.length))) problems.push(`bad tag filter in ${key}`);
    for (const entry of Array.isArray(list) ? list : [list]) {
      const expression = typeof entry === 'string' ? entry : (entry as { threshold?: string }).threshold;
      if (!expression || !EXPRESSION.test(expression.replace(/\s+/g, '')))
        problems.push(`bad expression ${key}: ${expression}`);
      const rate = expression?.replace(/\s+/g, '').match(/^rate>(\d+(\.\d+)?)$/);
      if (name === 'checks' && rate) {
        const total = checksPassed + checksFailed;
        if (total > 0 && checksPassed / total <= Number(rate[1]))
          problems.push(`checks ${checksPassed}/${total} passed: ${expression} not met`);
      }
    }
  }
  return problems;
}

const [script] = process.argv.slice(2);
if (!script) {
  console.error('usage: bun load/k6-stand-in.ts <script.k6.js>');
  process.exit(2);
}
const iterations = Number(process.env.ITERATIONS ?? 2);
const g = globalThis as Record<string, unknown>;
g.__ENV = { ...process.env };
g.__VU = 1;
g.__ITER = 0;

const mod = (await import(resolve(script))) as Record<string, unknown> & {
  options?: {
    scenarios?: Record<string, { exec?: string; tags?: Tags }>;
    thresholds?: Record<string, unknown>;
    tags?: Tags;
  };
  setup?: () => unknown;
  teardown?: (data: unknown) => unknown;
};
recordTags(mod.options?.tags);
for (const scenario of Object.values(mod.options?.scenarios ?? {})) recordTags(scenario.tags);
const data = mod.setup ? JSON.parse(JSON.stringify((await mod.setup()) ?? null)) : undefined;
const execs = Object.values(mod.options?.scenarios ?? { default: {} }).map((s) => s.exec ?? 'default');
let ran = 0;
for (const exec of execs) {
  const fn = mod[exec];
  if (typeof fn !== 'function') throw new Error(`scenario exec ${exec} is not an exported function`);
  for (let i = 0; i < iterations; i++) {
    g.__ITER = i;
    await fn(data);
    metrics.get('iterations')?.values.push(1);
    ran++;
  }
}
if (mod.teardown) await mod.teardown(data);
const thresholds = mod.options?.thresholds ?? {};
const scenarioNames = Object.keys(mod.options?.scenarios ?? { default: {} });
const problems = [...thresholdProblems(thresholds), ...tagProblems(thresholds, scenarioNames)];
console.log(
  `${script}: ${ran} iterations of ${execs.join(', ')}, ${metrics.get('http_reqs')?.values.length ?? 0} requests, checks ${checksPassed} passed / ${checksFailed} failed`,
);
for (const problem of problems) console.error(problem);
process.exit(problems.length ? 1 : 0);
