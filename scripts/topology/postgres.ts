import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PostgreSQL primary with a streaming standby, from Debian's binaries, in a private folder on two private
 * ports (`port` for the primary, `port + 1` for the standby). The standby is cloned with `pg_basebackup -R`
 * and follows the primary by streaming replication; `synchronous` makes the primary wait for it on COMMIT
 * (synchronous_standby_names), so no commit the primary acknowledged is missing on the standby after a
 * promotion. Servers run daemonized under pg_ctl, so a kit command may start them and another stop them
 * (`attachPostgresPair(dir)`); tests call `stop()` in afterAll and the pair is also stopped when the process
 * exits unless `keepOnExit` is set.
 *
 * initdb and postgres refuse to run as root: as root, every server command runs as the `postgres` user and the
 * folder is handed to it.
 */
export interface PostgresPairOptions {
  /** The primary listens on `port`, the standby on `port + 1` (127.0.0.1 only). */
  port: number;
  /** A folder to create the clusters in (created if missing); default: a fresh temporary folder. */
  dir?: string;
  /** The primary waits for the standby to confirm each COMMIT (synchronous_commit = on, one named standby). */
  synchronous?: boolean;
  /** Without a standby: a lone primary (the PgBouncer suite needs no replication). Default true. */
  standby?: boolean;
  /** Databases created on the primary (replicated to the standby). */
  databases?: string[];
  /** Leave the servers running when this process exits (the topology kit's `up`). */
  keepOnExit?: boolean;
}

export interface PostgresPair {
  readonly dir: string;
  readonly primaryPort: number;
  readonly standbyPort: number | undefined;
  /** postgres://postgres@127.0.0.1:<primary>/<database> */
  primaryUrl(database?: string): string;
  standbyUrl(database?: string): string;
  /** Both hosts, primary first, with target_session_attrs=read-write: a client finds whichever is writable. */
  multiHostUrl(database?: string): string;
  /** pg_ctl promote on the standby; resolves once it accepts writes. */
  promote(): Promise<void>;
  /** Fast shutdown of the primary (sessions terminated, then the server exits). */
  stopPrimary(): Promise<void>;
  /** SIGKILL of the primary's postmaster: its backends exit on their own when they notice. */
  killPrimary(): Promise<void>;
  /** Starts the primary again (after stopPrimary; not after a promotion, which it would fork from). */
  startPrimary(): Promise<void>;
  /** Fast shutdown of the standby (a read replica going away), and starting it again. */
  stopStandby(): Promise<void>;
  startStandby(): Promise<void>;
  /** Stops both servers and removes the folder (unless it was given by the caller and `keepDir`). */
  stop(options?: { keepDir?: boolean }): Promise<void>;
}

const STATE_FILE = 'pair.json';
interface PairState {
  primaryPort: number;
  standbyPort: number | undefined;
  ownDir: boolean;
}

export async function startPostgresPair(options: PostgresPairOptions): Promise<PostgresPair> {
  const bin = postgresBin();
  const ownDir = !options.dir;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'qc-pg-pair-'));
  mkdirSync(dir, { recursive: true });
  giveToPostgres(dir);
  const primaryDir = join(dir, 'primary');
  const standbyDir = join(dir, 'standby');
  const state: PairState = {
    primaryPort: options.port,
    standbyPort: options.standby === false ? undefined : options.port + 1,
    ownDir,
  };

  run(bin, 'initdb', ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '--no-instructions']);
  const primaryConf = [
    "listen_addresses = '127.0.0.1'",
    `port = ${state.primaryPort}`,
    `unix_socket_directories = '${dir}'`,
    'max_connections = 200',
    'wal_level = replica',
    'max_wal_senders = 5',
    'wal_keep_size = 256MB',
    // The machine does not crash in a test; the standby, not fsync, is what keeps acknowledged commits.
    'fsync = off',
    'full_page_writes = off',
    'hot_standby = on',
    // Ask the standby to reply at once, so synchronous commits wait one round trip, not wal_receiver_status_interval.
    'wal_receiver_status_interval = 1s',
  ];
  appendFileSync(join(primaryDir, 'postgresql.conf'), `${primaryConf.join('\n')}\n`);
  const cancelWatchdog = stopOnExit(dir, options.keepOnExit);
  try {
    await startServers();
  } catch (err) {
    stopAll(dir);
    cancelWatchdog();
    if (ownDir) rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  writeFileSync(join(dir, STATE_FILE), JSON.stringify(state));
  return handle(bin, dir, state, cancelWatchdog);

  async function startServers(): Promise<void> {
    await pgCtlStart(bin, primaryDir, state.primaryPort);

    for (const database of options.databases ?? []) {
      run(bin, 'psql', [
        '-h',
        '127.0.0.1',
        '-p',
        String(state.primaryPort),
        '-U',
        'postgres',
        '-qc',
        `create database "${database}"`,
      ]);
    }

    if (state.standbyPort !== undefined) {
      run(bin, 'pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(state.primaryPort),
        '-U',
        'postgres',
        '-D',
        standbyDir,
        '-R',
        '-X',
        'stream',
        '--checkpoint=fast',
        '--no-sync',
      ]);
      // The clone carries the primary's settings: its own port, and a name the primary's synchronous_standby_names
      // knows it by (application_name in primary_conninfo, which -R wrote without one).
      appendFileSync(
        join(standbyDir, 'postgresql.auto.conf'),
        [
          `port = ${state.standbyPort}`,
          `primary_conninfo = 'host=127.0.0.1 port=${state.primaryPort} user=postgres application_name=standby'`,
          // A promoted standby keeps the primary's synchronous setting but has nobody to wait for.
          "synchronous_standby_names = ''",
          '',
        ].join('\n'),
      );
      await pgCtlStart(bin, standbyDir, state.standbyPort);
      // Only now that the standby exists: a synchronous primary without it would hang every COMMIT.
      if (options.synchronous) {
        psql(bin, state.primaryPort, "alter system set synchronous_standby_names = 'standby'");
        psql(bin, state.primaryPort, 'select pg_reload_conf()');
      }
      await waitForStreaming(bin, state.primaryPort, options.synchronous === true);
    }
  }
}

/** Handles on a pair another process started in `dir` (the topology kit's `down`). */
export function attachPostgresPair(dir: string): PostgresPair {
  const state = JSON.parse(readFileSync(join(dir, STATE_FILE), 'utf8')) as PairState;
  return handle(postgresBin(), dir, state, () => {});
}

function handle(bin: string, dir: string, state: PairState, cancelWatchdog: () => void): PostgresPair {
  const primaryDir = join(dir, 'primary');
  const standbyDir = join(dir, 'standby');
  const url = (port: number | undefined, database = 'postgres') => {
    if (port === undefined) throw new Error('this pair has no standby');
    return `postgres://postgres@127.0.0.1:${port}/${database}`;
  };
  return {
    dir,
    primaryPort: state.primaryPort,
    standbyPort: state.standbyPort,
    primaryUrl: (database) => url(state.primaryPort, database),
    standbyUrl: (database) => url(state.standbyPort, database),
    multiHostUrl: (database = 'postgres') =>
      state.standbyPort === undefined
        ? url(state.primaryPort, database)
        : `postgres://postgres@127.0.0.1:${state.primaryPort},127.0.0.1:${state.standbyPort}/${database}?target_session_attrs=read-write`,
    async promote() {
      if (state.standbyPort === undefined) throw new Error('this pair has no standby');
      run(bin, 'pg_ctl', ['-D', standbyDir, 'promote', '-w', '-t', '30']);
      await waitFor(
        async () => psql(bin, state.standbyPort as number, 'select pg_is_in_recovery()') === 'f',
        'promotion',
      );
    },
    async stopPrimary() {
      pgCtlStop(bin, primaryDir, 'fast');
    },
    async killPrimary() {
      const pid = postmasterPid(primaryDir);
      if (pid === undefined) return;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
      // Orphaned backends notice the postmaster's death at their next wait; the port is free once they are gone.
      await waitFor(async () => !answers(bin, state.primaryPort), 'the killed primary to go');
    },
    async startPrimary() {
      await pgCtlStart(bin, primaryDir, state.primaryPort);
    },
    async stopStandby() {
      pgCtlStop(bin, standbyDir, 'fast');
    },
    async startStandby() {
      if (state.standbyPort === undefined) throw new Error('this pair has no standby');
      await pgCtlStart(bin, standbyDir, state.standbyPort);
    },
    async stop(options) {
      stopAll(dir);
      cancelWatchdog();
      if (!options?.keepDir || state.ownDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Immediate shutdown of whatever is still running in `dir` (synchronous: also used at process exit). */
function stopAll(dir: string): void {
  const bin = postgresBin();
  for (const cluster of ['standby', 'primary']) {
    const data = join(dir, cluster);
    if (postmasterPid(data) !== undefined) pgCtlStop(bin, data, 'immediate');
  }
}

/**
 * Stops the servers in `dir` once this process is gone, however it ends: bun's test runner fires no 'exit'
 * event, and a runner killed on a timeout runs no afterAll. A small shell polls our pid; `stop()` cancels it.
 */
function stopOnExit(dir: string, keep: boolean | undefined): () => void {
  if (keep) return () => {};
  const bin = postgresBin();
  const stops = ['standby', 'primary']
    .map((c) => `${command(join(bin, 'pg_ctl'), ['-D', join(dir, c), '-m', 'immediate', '-s', 'stop']).join(' ')}`)
    .join('; ');
  return watchdog(`${stops}; rm -rf '${dir}'`);
}

/** Runs `script` (sh) when this process exits; the returned function cancels it. */
export function watchdog(script: string): () => void {
  const proc = Bun.spawn(['sh', '-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${script}`], {
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'ignore',
    detached: true,
  } as Parameters<typeof Bun.spawn>[1]);
  proc.unref();
  return () => {
    try {
      proc.kill('SIGKILL');
    } catch {}
  };
}

async function waitForStreaming(bin: string, primaryPort: number, synchronous: boolean): Promise<void> {
  const want = synchronous ? 'sync' : 'async';
  await waitFor(
    async () =>
      psql(bin, primaryPort, "select sync_state from pg_stat_replication where application_name = 'standby'") === want,
    `the standby to stream (${want})`,
  );
}

async function pgCtlStart(bin: string, dataDir: string, port: number): Promise<void> {
  // -w waits until it accepts connections; the log stays in the data folder for a failed test to read.
  run(bin, 'pg_ctl', ['-D', dataDir, '-l', join(dataDir, 'server.log'), '-w', '-t', '30', '-s', 'start']);
  if (!answers(bin, port)) throw new Error(`PostgreSQL in ${dataDir} did not start on port ${port}`);
}

function pgCtlStop(bin: string, dataDir: string, mode: 'fast' | 'immediate'): void {
  Bun.spawnSync(command(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', mode, '-w', '-t', '30', '-s', 'stop']), {
    stdout: 'ignore',
    stderr: 'ignore',
  });
}

function postmasterPid(dataDir: string): number | undefined {
  const file = join(dataDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

function answers(bin: string, port: number): boolean {
  return Bun.spawnSync([join(bin, 'pg_isready'), '-h', '127.0.0.1', '-p', String(port), '-q']).exitCode === 0;
}

function psql(bin: string, port: number, query: string): string {
  const out = Bun.spawnSync(
    [join(bin, 'psql'), '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-XAtqc', query],
    { stdout: 'pipe', stderr: 'ignore' },
  );
  return out.stdout.toString().trim();
}

async function waitFor(ok: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

function run(bin: string, program: string, args: string[]): void {
  const out = Bun.spawnSync(command(join(bin, program), args), { stdout: 'pipe', stderr: 'pipe' });
  if (out.exitCode !== 0)
    throw new Error(`${program} ${args.join(' ')} failed: ${out.stderr.toString()}${out.stdout.toString()}`);
}

export function postgresBin(): string {
  const preferred = '/usr/lib/postgresql/15/bin';
  if (existsSync(join(preferred, 'postgres'))) return preferred;
  const found = Bun.spawnSync(['sh', '-c', 'ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1'])
    .stdout.toString()
    .trim();
  if (!found) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  return found;
}

export function asRoot(): boolean {
  return process.getuid?.() === 0;
}

/** As root, the program runs as the `postgres` user (initdb, postgres and pgbouncer refuse root). */
export function command(program: string, args: string[]): string[] {
  return asRoot() ? ['runuser', '-u', 'postgres', '--', program, ...args] : [program, ...args];
}

/** As root, hands a folder to the `postgres` user (mode 0700, which PostgreSQL requires of a data folder's parent too). */
export function giveToPostgres(dir: string): void {
  if (!asRoot()) return;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user to run the servers as');
  const [, , uid, gid] = line.split(':');
  chownSync(dir, Number(uid), Number(gid));
}
