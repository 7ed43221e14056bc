import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';

/**
 * Starting and stopping the kit's processes. Every process is started detached, its own process group, with
 * its pid written where `down` finds it: `npm run topology -- up` returns while they run, and a later `down`
 * (or a test's afterAll) stops exactly these pids, never anything found by name.
 */

/** Starts `command` detached, output appended to `logFile`; answers its pid. */
export function spawnDetached(
  command: string,
  args: readonly string[],
  options: { logFile: string; env?: Record<string, string | undefined>; cwd?: string },
): number {
  const out = openSync(options.logFile, 'a');
  try {
    const child = spawn(command, args, {
      detached: true,
      stdio: ['ignore', out, out],
      env: options.env as NodeJS.ProcessEnv | undefined,
      cwd: options.cwd,
    });
    child.unref();
    if (child.pid === undefined) throw new Error(`${command} did not start`);
    return child.pid;
  } finally {
    closeSync(out);
  }
}

/** Runs `command` to completion (SIGKILL after `timeoutMs`, when given); throws with its output when it fails. */
export async function run(command: string, args: readonly string[], timeoutMs?: number): Promise<string> {
  const proc = Bun.spawn([command, ...args], {
    stdout: 'pipe',
    stderr: 'pipe',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}: ${err || out}`);
  return out;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

/** The pid on the first line of a pid file (PostgreSQL's has more lines), or undefined when there is none. */
export function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]?.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Sends `signal`, then SIGKILL if the process still lives after `graceMs`; resolves once it is gone. */
export async function stopPid(pid: number | undefined, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000) {
  if (pid === undefined || !alive(pid)) return;
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (alive(pid) && Date.now() < deadline) await Bun.sleep(25);
  if (!alive(pid)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {}
  while (alive(pid)) await Bun.sleep(10);
}

/** Waits until `check` holds, polling every 50 ms; throws naming `what` after `ms`. */
export async function until(what: string, check: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await Bun.sleep(50);
  }
}
