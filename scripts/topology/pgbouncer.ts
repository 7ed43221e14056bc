import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { command, giveToPostgres, watchdog } from './postgres.ts';

/**
 * Debian's PgBouncer in transaction mode in front of one PostgreSQL (host:port), in a private folder on a
 * private port. Every database name is passed through (`* = host=... port=...`), as user `postgres` with trust
 * authentication (a test machine). PgBouncer 1.18 cannot choose the writable host of a pair by itself (a host
 * list is round-robin, without target_session_attrs), so after a failover `retarget()` rewrites the upstream
 * and reloads it: new server connections go to the promoted standby, clients stay connected.
 *
 * Runs daemonized (pidfile in the folder) so a kit command may start it and another stop it
 * (`attachPgBouncer(dir)`); stopped when this process exits unless `keepOnExit` is set.
 */
export interface PgBouncerOptions {
  /** The port PgBouncer listens on (127.0.0.1). */
  port: number;
  /** The PostgreSQL server it pools connections to. */
  upstream: { host?: string; port: number };
  /** A folder for the configuration, pidfile and log (created if missing); default: a fresh temporary folder. */
  dir?: string;
  /** Server connections per database/user pair (default_pool_size). Default 20. */
  poolSize?: number;
  keepOnExit?: boolean;
}

export interface PgBouncer {
  readonly dir: string;
  readonly port: number;
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  /** Immediate stop (every client and server connection closed) and start again on the same port. */
  restart(): Promise<void>;
  /** Points the pool at another server (after a promotion) and reloads; open client connections stay. */
  retarget(upstream: { host?: string; port: number }): Promise<void>;
  stop(): Promise<void>;
}

interface BouncerState {
  port: number;
  upstream: { host?: string; port: number };
  poolSize: number;
  ownDir: boolean;
}

export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  const ownDir = !options.dir;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'qc-pgbouncer-'));
  mkdirSync(dir, { recursive: true });
  giveToPostgres(dir);
  const state: BouncerState = {
    port: options.port,
    upstream: options.upstream,
    poolSize: options.poolSize ?? 20,
    ownDir,
  };
  writeConfig(dir, state);
  // However this process ends (bun's test runner fires no 'exit' event), the pooler goes with it.
  const pidfile = join(dir, 'pgbouncer.pid');
  const cancelWatchdog = options.keepOnExit
    ? () => {}
    : watchdog(`[ -f '${pidfile}' ] && kill -KILL "$(cat '${pidfile}')"; ${ownDir ? `rm -rf '${dir}'` : 'true'}`);
  try {
    await start(dir, state.port);
  } catch (err) {
    cancelWatchdog();
    throw err;
  }
  return handle(dir, state, cancelWatchdog);
}

export function attachPgBouncer(dir: string): PgBouncer {
  return handle(dir, JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as BouncerState, () => {});
}

function handle(dir: string, state: BouncerState, cancelWatchdog: () => void): PgBouncer {
  return {
    dir,
    port: state.port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${state.port}/${database}`,
    async restart() {
      await stop(dir);
      await start(dir, state.port);
    },
    async retarget(upstream) {
      state.upstream = upstream;
      writeConfig(dir, state);
      // SIGHUP: reload the configuration; a changed host/port applies to new server connections, and the old
      // ones are closed as soon as they are released (PgBouncer marks them for reconnect).
      const pid = pidOf(dir);
      if (pid !== undefined) process.kill(pid, 'SIGHUP');
      await Bun.sleep(100);
    },
    async stop() {
      await stop(dir);
      cancelWatchdog();
      if (state.ownDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function writeConfig(dir: string, state: BouncerState): void {
  const host = state.upstream.host ?? '127.0.0.1';
  const ini = `[databases]
* = host=${host} port=${state.upstream.port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${state.port}
unix_socket_dir = ${dir}
pidfile = ${join(dir, 'pgbouncer.pid')}
logfile = ${join(dir, 'pgbouncer.log')}
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
admin_users = postgres
pool_mode = transaction
default_pool_size = ${state.poolSize}
max_client_conn = 2000
; postgres.js sends no start-up parameter PgBouncer refuses once the service has moved its session settings
; into the transaction; extra_float_digits is what other drivers (psql tools, JDBC) send.
ignore_startup_parameters = extra_float_digits
; A dead server is noticed quickly and its pool refilled from the current upstream.
server_login_retry = 1
server_connect_timeout = 3
query_wait_timeout = 30
log_connections = 0
log_disconnections = 0
`;
  writeFileSync(join(dir, 'pgbouncer.ini'), ini);
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(join(dir, 'state.json'), JSON.stringify(state));
  giveToPostgres(join(dir, 'pgbouncer.ini'));
  giveToPostgres(join(dir, 'userlist.txt'));
}

async function start(dir: string, port: number): Promise<void> {
  const out = Bun.spawnSync(command('/usr/sbin/pgbouncer', ['-d', '-q', join(dir, 'pgbouncer.ini')]), {
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if (out.exitCode !== 0) throw new Error(`pgbouncer failed to start: ${out.stderr.toString()}`);
  const deadline = Date.now() + 10_000;
  while (!(await listening(port))) {
    if (Date.now() > deadline) throw new Error(`pgbouncer on port ${port} did not start: ${tail(dir)}`);
    await Bun.sleep(20);
  }
}

/** SIGTERM: immediate shutdown (SIGINT would wait for clients to disconnect). */
async function stop(dir: string): Promise<void> {
  const pid = pidOf(dir);
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {}
  const deadline = Date.now() + 10_000;
  while (alive(pid) && Date.now() < deadline) await Bun.sleep(20);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

function pidOf(dir: string): number | undefined {
  const file = join(dir, 'pgbouncer.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return alive(pid) ? pid : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function listening(port: number): Promise<boolean> {
  try {
    const socket = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {} } });
    socket.end();
    return true;
  } catch {
    return false;
  }
}

function tail(dir: string): string {
  try {
    return readFileSync(join(dir, 'pgbouncer.log'), 'utf8').slice(-2000);
  } catch {
    return '(no log)';
  }
}
