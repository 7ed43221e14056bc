import { join } from 'node:path';

/** The harness as its users run it: `bun harness/cli.ts ...` in its own process, for tests. */
const CLI = join(import.meta.dir, '..', 'cli.ts');
const ROOT = join(import.meta.dir, '..', '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runHarness(args: string[]): Promise<CliResult> {
  const proc = Bun.spawn([process.execPath, CLI, ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/**
 * A long-running command (`record`, `serve`) on a free port: resolves once it printed its URL; `stop()` sends
 * SIGTERM and answers the exit status, `crash()` kills it outright.
 */
export async function startHarness(
  args: string[],
): Promise<{ url: string; stop(): Promise<number>; crash(): Promise<number> }> {
  const proc = Bun.spawn([process.execPath, CLI, ...args, '--port', '0'], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'inherit',
  });
  const reader = proc.stdout.getReader();
  let seen = '';
  const deadline = Date.now() + 15_000;
  while (!/http:\/\/[\d.]+:\d+/.test(seen)) {
    const { value, done } = await reader.read();
    if (done || Date.now() > deadline) {
      proc.kill();
      throw new Error(`harness ${args[0]} did not start: ${seen}`);
    }
    seen += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  // `recording http://127.0.0.1:PORT -> upstream` / `serving N ... on http://127.0.0.1:PORT`: the harness's own.
  const url = (
    args[0] === 'record' ? seen.match(/recording (http:\/\/[\d.]+:\d+)/) : seen.match(/on (http:\/\/[\d.]+:\d+)/)
  )?.[1];
  if (!url) throw new Error(`no URL in: ${seen}`);
  return {
    url,
    async stop() {
      proc.kill('SIGTERM');
      return proc.exited;
    },
    /** SIGKILL: no chance to flush or close anything. */
    async crash() {
      proc.kill('SIGKILL');
      return proc.exited;
    },
  };
}
