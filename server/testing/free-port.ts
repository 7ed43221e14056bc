/**
 * Ports for the processes a test, a benchmark or the topology kit starts. A port the OS hands out for `port: 0` is
 * in the kernel's ephemeral range (32768-60999 by default), where any outgoing connection can take it between the
 * check and the child's bind: that once left a CI run's Redis node unable to start. Children that must bind a port
 * themselves take ports from private ranges below it (`childPort`, `freePortRun`); `freePort` is for addresses
 * where nothing should listen.
 */

/** A TCP port nothing listens on right now (the OS picks it): an address a test expects to be refused. */
export function freePort(): number {
  const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

/**
 * The first of `count` consecutive ports in [from, to] that nothing listens on right now, tried from a random
 * start so two test runs on one machine seldom pick the same ones (a run owns a port range, not a port).
 * QC_PORT_SLICE=`k/n` narrows every range to its k-th of n equal parts (from 0): runs started side by side with
 * different slices never pick the same port, even between one's check and its child's bind (.ci/run runs two suites
 * at once so).
 */
export function freePortRun(from: number, to: number, count: number): number {
  [from, to] = portSlice(from, to, process.env.QC_PORT_SLICE);
  const span = to - from + 1 - count;
  const offset = Math.floor(Math.random() * span);
  for (let i = 0; i <= span; i++) {
    const base = from + ((offset + i) % (span + 1));
    const taken: Array<{ stop(force: boolean): void }> = [];
    try {
      for (let p = base; p < base + count; p++)
        taken.push(Bun.listen({ hostname: '127.0.0.1', port: p, socket: { data() {} } }));
      return base;
    } catch {
      // One of them is in use: try the next start.
    } finally {
      for (const server of taken) server.stop(true);
    }
  }
  throw new Error(`no ${count} free consecutive ports in ${from}-${to}`);
}

/** [from, to] narrowed to its `k/n` slice (see freePortRun); the whole range without one. */
export function portSlice(from: number, to: number, slice: string | undefined): [number, number] {
  if (!slice) return [from, to];
  const match = /^(\d+)\/(\d+)$/.exec(slice);
  const [k, n] = match ? [Number(match[1]), Number(match[2])] : [Number.NaN, Number.NaN];
  if (!(n >= 1 && k < n)) throw new Error(`QC_PORT_SLICE must be k/n with 0 <= k < n, not ${slice}`);
  const size = Math.floor((to - from + 1) / n);
  return [from + k * size, from + (k + 1) * size - 1];
}

/** One free port in 24000-24999 for a child process (a service, a receiver, a throwaway server) to bind. */
export function childPort(): number {
  return freePortRun(24000, 24999, 1);
}
