import { compareExchange } from './compare-exchange.ts';
import { type Exchange, endpointKey, endpointOf } from './exchange.ts';
import { generalizePath, pathCovers } from './json-path.ts';

export interface NoiseField {
  /** The field with array indices generalised: `$.data[*].created_at`. */
  path: string;
  /** How many primary/secondary pairs differed in it. */
  count: number;
  example: { recorded?: unknown; replayed?: unknown };
}

export interface EndpointNoise {
  method: string;
  path: string;
  /** Pairs of this endpoint compared while learning. */
  exchanges: number;
  fields: NoiseField[];
}

export class PairingError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(`entry ${index}: ${message}`);
  }
}

/**
 * Noise as Diffy learns it: the legacy service answered the same requests twice (primary and secondary); every
 * field that differs between its own two answers (timestamps, generated ids) varies by itself, so a replay may
 * differ there too without that being held against it. Learnt per endpoint (method and path) and field.
 */
export class NoiseModel {
  /** `headers`: the response headers the runs compare, so that noise in them is learnt too. */
  constructor(private readonly options: { headers?: readonly string[] } = {}) {}

  private readonly endpoints = new Map<
    string,
    { method: string; path: string; exchanges: number; fields: Map<string, NoiseField> }
  >();

  /** Learns from one pair: the primary's and the secondary's answers to the same request. */
  observe(primary: Exchange, secondary: Exchange, index = 0): void {
    const endpoint = endpointOf(primary);
    const other = endpointOf(secondary);
    if (endpoint.method !== other.method || endpoint.path !== other.path) {
      throw new PairingError(
        index,
        `the secondary recorded ${other.method} ${other.path} where the primary has ${endpoint.method} ${endpoint.path}`,
      );
    }
    const key = endpointKey(endpoint);
    let entry = this.endpoints.get(key);
    if (!entry) {
      entry = { ...endpoint, exchanges: 0, fields: new Map() };
      this.endpoints.set(key, entry);
    }
    entry.exchanges++;
    // A pair counts once per field: `$.data[*].at` varying in four elements of one answer is one pair, so a
    // field's count never exceeds the endpoint's pairs (the report shows it as "3 of 5").
    const seen = new Set<string>();
    for (const field of compareExchange(primary, secondary, { headers: this.options.headers }).fields) {
      const path = generalizePath(field.path);
      if (seen.has(path)) continue;
      seen.add(path);
      const known = entry.fields.get(path);
      if (known) known.count++;
      else entry.fields.set(path, { path, count: 1, example: { recorded: field.recorded, replayed: field.replayed } });
    }
  }

  /** Whether a difference in `field` at this endpoint (`GET /path`) is noise. */
  allows(endpointKeyText: string, field: string): boolean {
    const fields = this.endpoints.get(endpointKeyText)?.fields;
    if (!fields || fields.size === 0) return false;
    const general = generalizePath(field);
    if (fields.has(general)) return true;
    for (const noisy of fields.keys()) if (pathCovers(noisy, general)) return true;
    return false;
  }

  /** Endpoints with at least one noisy field, fields by descending count. */
  summary(): EndpointNoise[] {
    return [...this.endpoints.values()]
      .filter((entry) => entry.fields.size > 0)
      .map((entry) => ({
        method: entry.method,
        path: entry.path,
        exchanges: entry.exchanges,
        fields: [...entry.fields.values()].sort((a, b) => b.count - a.count || a.path.localeCompare(b.path)),
      }));
  }
}

/**
 * Learns noise from two recordings of the same requests, paired by position. Both may be arrays or streams
 * (async iterables); a pair whose endpoints differ, or recordings of different lengths, throw a PairingError.
 */
export async function learnNoise(
  primary: Iterable<Exchange> | AsyncIterable<Exchange>,
  secondary: Iterable<Exchange> | AsyncIterable<Exchange>,
  options: { headers?: readonly string[] } = {},
): Promise<NoiseModel> {
  const model = new NoiseModel(options);
  const a = toAsyncIterator(primary);
  const b = toAsyncIterator(secondary);
  for (let index = 0; ; index++) {
    const [x, y] = await Promise.all([a.next(), b.next()]);
    if (x.done && y.done) return model;
    if (x.done || y.done) {
      throw new PairingError(index, `the ${x.done ? 'primary' : 'secondary'} recording ends here, the other goes on`);
    }
    model.observe(x.value, y.value, index);
  }
}

function toAsyncIterator<T>(source: Iterable<T> | AsyncIterable<T>): AsyncIterator<T> {
  if (Symbol.asyncIterator in source) return source[Symbol.asyncIterator]();
  const iterator = source[Symbol.iterator]();
  return { next: async () => iterator.next() };
}
