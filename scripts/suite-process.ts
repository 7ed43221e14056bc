/**
 * One test-runner process, its output passed through (or held, to print when asked), its `N pass` / `N fail` read
 * from the tail. Used by `npm test` (scripts/test.ts) and the suite on the production topology
 * (scripts/test-topology-suite.ts).
 */
export interface SuiteCount {
  passed: number;
  failed: number;
}

export interface SuiteRun extends SuiteCount {
  /** What the runner printed, when `hold` kept it back; empty otherwise. */
  held: string;
}

/** `hold`: keep the runner's output instead of printing it as it comes (a suite running beside another). */
export async function runSuite(
  label: string,
  args: string[],
  env: Record<string, string | undefined>,
  { hold = false }: { hold?: boolean } = {},
): Promise<SuiteRun> {
  const heading = `\n== ${label}: bun ${args.join(' ')}\n`;
  let held = '';
  if (hold) held += heading;
  else process.stdout.write(heading);
  const proc = Bun.spawn([process.execPath, ...args], { env, stdout: 'pipe', stderr: 'pipe' });
  let tail = '';
  const pump = async (stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const text = decoder.decode(chunk);
      if (hold) held += text;
      else out.write(text);
      tail = (tail + text).slice(-4000);
    }
  };
  const pumped = Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  const code = await proc.exited;
  // A server process a failed test left running inherits our pipes and would keep them open for ever: once
  // the test runner itself has exited, read what is buffered and stop waiting.
  await Promise.race([pumped, Bun.sleep(3000)]);
  const passed = Number(tail.match(/^\s*(\d+) pass/m)?.[1] ?? 0);
  const failed = Number(tail.match(/^\s*(\d+) fail/m)?.[1] ?? 0);
  // A crashed runner that printed no summary counts as one failure.
  return { passed, failed: failed || (code !== 0 ? 1 : 0), held };
}
