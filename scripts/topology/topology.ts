import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Haproxy } from './haproxy.ts';
import { attachPgBouncer, type PgBouncer, startPgBouncer } from './pgbouncer.ts';
import { attachPostgresPair, type PostgresPair, startPostgresPair, watchdog } from './postgres.ts';
import { alive, readPid } from './processes.ts';
import { RedisCluster } from './redis-cluster.ts';
import { ServiceProcess } from './services.ts';

/**
 * The production topology on one machine, from Debian's packages, in a private folder on private ports:
 *
 *   clients -> HAProxy (:base) -> N service processes (:base+30...) -> PgBouncer (:base+2, transaction mode)
 *                                   |                                   -> PostgreSQL primary (:base+3)
 *                                   |                                        | streaming, synchronous
 *                                   |  (sessions: LISTEN, migrations) ->  PostgreSQL standby (:base+4)
 *                                   +-> Redis Cluster: 3 masters + 3 replicas (:base+10..15, bus :base+20..25)
 *
 * `Topology.up` starts it all and writes topology.json; `Topology.attach(dir)` finds it again (the CLI's
 * `status` and `down`); `down` stops every process it started, by pid, and removes the folder. Started by a
 * test (keepOnExit false), everything is also stopped when the test process dies.
 */
export interface TopologyOptions {
  dir: string;
  /** Ports base..base+39 are used (see the layout above). */
  basePort: number;
  /** Service processes behind HAProxy. */
  services: number;
  /** PgBouncer between the services and PostgreSQL (DATABASE_URL); false: the multi-host URL directly. */
  pooler: boolean;
  /** COMMIT waits for the standby: no acknowledged write is lost when the primary is. */
  synchronous: boolean;
  /** Leave everything running when this process exits (`npm run topology -- up`). */
  keepOnExit: boolean;
  /** Extra environment for the service processes. */
  env?: Record<string, string>;
}

interface TopologyState {
  options: TopologyOptions;
  operatorToken: string;
  keyEncryptionKey: string;
  /** What the services' DATABASE_URL points at now (PgBouncer follows the primary after a failover). */
  primary: 'primary' | 'standby';
}

const DATABASE = 'qc';
const REPO = resolve(import.meta.dir, '../..');

export class Topology {
  readonly pg: PostgresPair;
  readonly bouncer: PgBouncer | undefined;
  readonly redis: RedisCluster;
  readonly services: ServiceProcess[];
  readonly haproxy: Haproxy;

  private constructor(
    readonly state: TopologyState,
    parts: { pg: PostgresPair; bouncer: PgBouncer | undefined },
    private readonly cancelWatchdog: () => void = () => {},
  ) {
    const { dir, basePort, services } = state.options;
    this.pg = parts.pg;
    this.bouncer = parts.bouncer;
    this.redis = new RedisCluster({
      dir: join(dir, 'redis'),
      ports: [10, 11, 12, 13, 14, 15].map((i) => basePort + i),
      busPorts: [20, 21, 22, 23, 24, 25].map((i) => basePort + i),
      replicas: 1,
      nodeTimeoutMs: 2000,
    });
    this.services = Array.from(
      { length: services },
      (_, i) => new ServiceProcess(`s${i + 1}`, basePort + 30 + i, join(dir, `service-${i + 1}`)),
    );
    this.haproxy = new Haproxy({
      dir: join(dir, 'haproxy'),
      port: basePort,
      statsPort: basePort + 1,
      servers: this.services.map((s) => ({ name: s.name, port: s.port })),
    });
  }

  get url(): string {
    return this.haproxy.url;
  }

  /** The database the services use, for a test's checks (the current primary, directly). */
  get databaseUrl(): string {
    return this.pg.multiHostUrl(DATABASE);
  }

  static async up(options: TopologyOptions): Promise<Topology> {
    if (options.services < 1 || options.services > 9) throw new Error('services: 1 to 9');
    mkdirSync(options.dir, { recursive: true });
    // PostgreSQL and PgBouncer run as the postgres user (when we are root): they must reach their sub-folders.
    chmodSync(options.dir, 0o755);
    const state: TopologyState = {
      options,
      operatorToken: `qcop_${randomBytes(24).toString('base64url')}`,
      keyEncryptionKey: randomBytes(32).toString('base64url'),
      primary: 'primary',
    };
    const pg = await startPostgresPair({
      port: options.basePort + 3,
      dir: join(options.dir, 'postgres'),
      synchronous: options.synchronous,
      databases: [DATABASE],
      keepOnExit: options.keepOnExit,
    });
    let bouncer: PgBouncer | undefined;
    let topology: Topology | undefined;
    try {
      bouncer = options.pooler
        ? await startPgBouncer({
            port: options.basePort + 2,
            upstream: { port: pg.primaryPort },
            dir: join(options.dir, 'pgbouncer'),
            keepOnExit: options.keepOnExit,
          })
        : undefined;
      writeFileSync(join(options.dir, 'topology.json'), JSON.stringify(state, null, 2));
      const cancel = options.keepOnExit ? () => {} : watchdog(killScript(options.dir));
      topology = new Topology(state, { pg, bouncer }, cancel);
      await topology.#start();
      return topology;
    } catch (err) {
      if (topology) await topology.down();
      else {
        await bouncer?.stop();
        await pg.stop();
      }
      throw err;
    }
  }

  /** The topology another command started in `dir`. */
  static attach(dir: string): Topology {
    const state = JSON.parse(readFileSync(join(dir, 'topology.json'), 'utf8')) as TopologyState;
    const pg = attachPostgresPair(join(dir, 'postgres'));
    const bouncer = state.options.pooler ? attachPgBouncer(join(dir, 'pgbouncer')) : undefined;
    return new Topology(state, { pg, bouncer });
  }

  static exists(dir: string): boolean {
    return existsSync(join(dir, 'topology.json'));
  }

  async #start(): Promise<void> {
    await this.redis.start();
    // The first process applies the migrations; the others start on a migrated database.
    const [first, ...others] = this.services;
    await first?.start(this.serviceEnv(), REPO);
    await Promise.all(others.map((s) => s.start(this.serviceEnv(), REPO)));
    await this.haproxy.start();
    await this.waitBalanced();
  }

  /** Resolves once HAProxy sees every running service process as up. */
  async waitBalanced(ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      const states = await this.haproxy.servers().catch(() => ({}) as Record<string, string>);
      const wanted = this.services.filter((s) => s.pid !== undefined).map((s) => s.name);
      if (wanted.every((name) => states[name] === 'UP')) return;
      if (Date.now() > deadline) throw new Error(`HAProxy does not see every process up: ${JSON.stringify(states)}`);
      await Bun.sleep(100);
    }
  }

  /** The environment every service process gets. */
  serviceEnv(): Record<string, string> {
    return {
      // Through PgBouncer (transaction mode) with a direct session URL for LISTEN and migrations, or directly.
      DATABASE_URL: this.bouncer ? this.bouncer.url(DATABASE) : this.pg.multiHostUrl(DATABASE),
      ...(this.bouncer ? { DATABASE_SESSION_URL: this.pg.multiHostUrl(DATABASE) } : {}),
      REDIS_URL: this.redis.url,
      QC_OPERATOR_TOKEN: this.state.operatorToken,
      QC_KEY_ENCRYPTION_KEY: this.state.keyEncryptionKey,
      QC_PUBLIC_URL: this.url,
      QC_WEBHOOK_ALLOW_PRIVATE: '1',
      QC_DEMO_ON_EMPTY: '0',
      QC_LOG_LEVEL: 'warn',
      // HAProxy marks a process down after 2 failed checks 1 s apart (haproxy.ts): drain a little longer.
      QC_DRAIN_MS: '3000',
      // HAProxy (option forwardfor) connects from loopback: its X-Forwarded-For names the client.
      QC_TRUSTED_PROXIES: '127.0.0.1',
      ...this.state.options.env,
    };
  }

  /** Starts a stopped or killed service process again, as an orchestrator would; resolves once HAProxy uses it. */
  async restart(service: ServiceProcess): Promise<void> {
    await service.start(this.serviceEnv(), REPO);
    await this.waitBalanced();
  }

  /** The primary stops, the standby is promoted, PgBouncer is pointed at it (what an orchestrator does). */
  async failover(): Promise<void> {
    await this.pg.stopPrimary();
    await this.pg.promote();
    await this.bouncer?.retarget({ port: this.pg.standbyPort as number });
    this.state.primary = 'standby';
    writeFileSync(join(this.state.options.dir, 'topology.json'), JSON.stringify(this.state, null, 2));
  }

  /** Each part: running, stopped, or (HAProxy's view of a service) its balancer state. */
  async status(): Promise<Record<string, string>> {
    const balancer = await this.haproxy.servers().catch(() => ({}) as Record<string, string>);
    const pid = (file: string) => {
      const p = readPid(file);
      return p !== undefined && alive(p) ? `running (pid ${p})` : 'stopped';
    };
    const status: Record<string, string> = {
      haproxy: pid(this.haproxy.pidFile),
      pgbouncer: this.bouncer ? pid(join(this.bouncer.dir, 'pgbouncer.pid')) : 'not used',
      'postgres primary': pid(join(this.pg.dir, 'primary', 'postmaster.pid')),
      'postgres standby': pid(join(this.pg.dir, 'standby', 'postmaster.pid')),
    };
    for (const port of this.redis.options.ports) {
      const p = this.redis.pid(port);
      status[`redis ${port}`] = p === undefined ? 'stopped' : `running (pid ${p})`;
    }
    for (const s of this.services) {
      status[`service ${s.name}`] =
        `${s.pid === undefined ? 'stopped' : `running (pid ${s.pid})`}, balancer: ${balancer[s.name] ?? 'unknown'}`;
    }
    return status;
  }

  /** Where everything listens. */
  urls(): Record<string, string> {
    return {
      balancer: this.url,
      'balancer stats': `http://127.0.0.1:${this.haproxy.options.statsPort}/stats`,
      ...Object.fromEntries(this.services.map((s) => [`service ${s.name}`, s.url])),
      'DATABASE_URL (services)': this.serviceEnv().DATABASE_URL as string,
      ...(this.bouncer ? { 'DATABASE_SESSION_URL (services)': this.pg.multiHostUrl(DATABASE) } : {}),
      'postgres primary': this.pg.primaryUrl(DATABASE),
      'postgres standby': this.pg.standbyUrl(DATABASE),
      REDIS_URL: this.redis.url,
      'operator token': this.state.operatorToken,
      folder: this.state.options.dir,
    };
  }

  /** Stops everything (services drain first, so nothing in flight is cut) and removes the folder. */
  async down(): Promise<void> {
    await this.haproxy.stop();
    await Promise.all(this.services.map((s) => s.stop()));
    await this.redis.stop();
    await this.bouncer?.stop();
    await this.pg.stop();
    this.cancelWatchdog();
    rmSync(this.state.options.dir, { recursive: true, force: true });
  }
}

/** sh: SIGKILL of every pid file of ours under `dir` (the services, Redis, HAProxy), then the folder goes. */
function killScript(dir: string): string {
  return `for f in '${dir}'/service-*/service.pid '${dir}'/redis/*/redis.pid '${dir}'/haproxy/haproxy.pid; do [ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null; done; rm -rf '${dir}'`;
}
