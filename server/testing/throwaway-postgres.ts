import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childPort } from './free-port.ts';

/**
 * A private PostgreSQL cluster for outage tests (stopped, hung): the machine's PostgreSQL on 5432 is shared
 * by every test run and is never the one a test stops. initdb into a temporary directory, started on a free
 * port with the machine's binaries (as the `postgres` user when running as root, which initdb refuses).
 * `stop()` is a fast shutdown, `start()` brings it back on the same port, `freeze()`/`thaw()` SIGSTOP and
 * SIGCONT the postmaster and every backend of this cluster only (by process id).
 */
export class ThrowawayPostgres {
  #proc: ReturnType<typeof Bun.spawn> | undefined;
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly bin: string,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async start(): Promise<ThrowawayPostgres> {
    const bin = postgresBin();
    const dir = mkdtempSync(join(tmpdir(), 'qc-throwaway-pg-'));
    if (asRoot()) {
      chmodSync(dir, 0o700);
      const { uid, gid } = postgresUser();
      chownSync(dir, uid, gid);
    }
    const init = Bun.spawnSync(
      command(join(bin, 'initdb'), ['-D', dir, '-U', 'postgres', '-A', 'trust', '--no-sync']),
      {
        stdout: 'ignore',
        stderr: 'pipe',
      },
    );
    if (init.exitCode !== 0) throw new Error(`initdb failed: ${init.stderr.toString()}`);
    const pg = new ThrowawayPostgres(childPort(), dir, bin);
    await pg.start();
    return pg;
  }

  async start(): Promise<void> {
    this.#proc = Bun.spawn(
      command(join(this.bin, 'postgres'), [
        '-D',
        this.dir,
        '-p',
        String(this.port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${this.dir}`,
        '-c',
        'fsync=off',
      ]),
      { stdout: 'ignore', stderr: 'ignore' },
    );
    const deadline = Date.now() + 15_000;
    for (;;) {
      const ready = Bun.spawnSync([join(this.bin, 'pg_isready'), '-h', '127.0.0.1', '-p', String(this.port), '-q']);
      if (ready.exitCode === 0) return;
      if (Date.now() > deadline) throw new Error(`private PostgreSQL on port ${this.port} did not start`);
      await Bun.sleep(50);
    }
  }

  /** Fast shutdown: sessions are terminated, new connections refused, until start(). */
  async stop(): Promise<void> {
    const proc = this.#proc;
    this.#proc = undefined;
    if (!proc) return;
    this.thaw();
    process.kill(this.#postmaster(), 'SIGINT');
    await proc.exited;
  }

  /** Every process of this cluster stops running: connections stay open and nothing answers. */
  freeze(): void {
    for (const pid of this.#processes()) signal(pid, 'SIGSTOP');
  }

  thaw(): void {
    for (const pid of this.#processes()) signal(pid, 'SIGCONT');
    // runuser stops itself when its child stops (as su does): continue it too, or it never reaps the child.
    if (this.#proc && this.#proc.exitCode === null) process.kill(this.#proc.pid, 'SIGCONT');
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The postmaster writes its pid on the first line of postmaster.pid in its data directory. */
  #postmaster(): number {
    return Number(readFileSync(join(this.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  }

  /** The postmaster and its children (backends, background workers), found through /proc by parent pid. */
  #processes(): number[] {
    const postmaster = this.#postmaster();
    const children = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          // Field 4 of /proc/<pid>/stat is the parent pid (the command in field 2 may contain spaces).
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [postmaster, ...children];
  }
}

function postgresBin(): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  return join('/usr/lib/postgresql', versions[0], 'bin');
}

function asRoot(): boolean {
  return process.getuid?.() === 0;
}

function command(program: string, args: string[]): string[] {
  return asRoot() ? ['runuser', '-u', 'postgres', '--', program, ...args] : [program, ...args];
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user to run a private cluster as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Signals one of the cluster's processes, which may have exited since it was listed: a backend or a start-up worker
 * ends on its own (a stop right after start() met one and failed with ESRCH).
 */
function signal(pid: number, name: 'SIGSTOP' | 'SIGCONT'): void {
  try {
    process.kill(pid, name);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ESRCH') throw err;
  }
}
