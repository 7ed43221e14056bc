// autocannon ships no types; this declares the part the benchmarks use.
declare module 'autocannon' {
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    requests?: Request[];
    headers?: Record<string, string>;
    /** Requests per second over all connections (a fixed rate instead of as fast as possible). */
    overallRate?: number;
  }
  interface Histogram {
    p50: number;
    p97_5: number;
    p99: number;
    average: number;
  }
  interface Result {
    '2xx': number;
    /** Responses received in all. */
    requests: Histogram & { total: number };
    non2xx: number;
    errors: number;
    latency: Histogram;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
