import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePortRun } from '../../server/testing/free-port.ts';
import { alive, readPid, run, stopPid, until } from './processes.ts';

export interface RedisClusterOptions {
  /** A private folder: one sub-folder per node (nodes.conf, pid, log). */
  dir: string;
  /** Client ports, masters first: 3 masters, then (with `replicas: 1`) one replica each. */
  ports: number[];
  /** Cluster bus ports, one per node (Redis would take port + 10000, outside a private range). */
  busPorts: number[];
  /** Replicas per master: 1 lets a master's loss fail over to its replica. */
  replicas: 0 | 1;
  /**
   * cluster-node-timeout: how long a master may not answer before its replica takes over. Failover completes
   * about this plus one second after the loss; lower fails over faster but takes a slow, loaded machine for
   * a dead one more readily.
   */
  nodeTimeoutMs: number;
}

/**
 * A Redis Cluster on this machine (`redis-server --cluster-enabled yes`, `redis-cli --cluster create`) from
 * Debian's redis-server, for `npm run test:cluster`, the topology kit and its faults. No persistence: a node
 * that restarts comes back empty and its nodes.conf makes it a replica of whoever took over its slots.
 */
export class RedisCluster {
  constructor(readonly options: RedisClusterOptions) {}

  /** The service's REDIS_URL for this cluster: every node is a seed. */
  get url(): string {
    return `redis+cluster://${this.options.ports.map((port) => `127.0.0.1:${port}`).join(',')}`;
  }

  static async start(options: RedisClusterOptions): Promise<RedisCluster> {
    const cluster = new RedisCluster(options);
    await cluster.start();
    return cluster;
  }

  /**
   * Three masters and `replicas` each on consecutive free ports in 23000-23999 (client ports, then bus ports),
   * each attempt in its own sub-folder of `dir`. If a node cannot start (its log is in the error: a port taken
   * between the check and its bind), the cluster is tried once more on another run of ports.
   */
  static async startOnFreePorts(options: Omit<RedisClusterOptions, 'ports' | 'busPorts'>): Promise<RedisCluster> {
    const nodes = 3 * (options.replicas + 1);
    for (let attempt = 1; ; attempt++) {
      const base = freePortRun(23000, 23999, 2 * nodes);
      const ports = Array.from({ length: 2 * nodes }, (_, i) => base + i);
      try {
        return await RedisCluster.start({
          ...options,
          dir: join(options.dir, `cluster-${attempt}`),
          ports: ports.slice(0, nodes),
          busPorts: ports.slice(nodes),
        });
      } catch (err) {
        if (attempt === 2) throw err;
        console.warn(`the Redis Cluster on ports ${base}-${base + 2 * nodes - 1} did not start, trying others: ${err}`);
      }
    }
  }

  /** Starts every node, makes them one cluster and waits until it serves; on failure stops what it started. */
  async start(): Promise<void> {
    const { ports, replicas } = this.options;
    try {
      for (const port of ports) await this.startNode(port);
      await run('redis-cli', [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        String(replicas),
        '--cluster-yes',
      ]);
      await this.waitServing();
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  /** Starts (or restarts, keeping its nodes.conf) the node on `port`, daemonized. */
  async startNode(port: number): Promise<void> {
    const index = this.options.ports.indexOf(port);
    const dir = this.#nodeDir(port);
    mkdirSync(dir, { recursive: true });
    await run('redis-server', [
      '--port',
      String(port),
      '--cluster-port',
      String(this.options.busPorts[index]),
      '--bind',
      '127.0.0.1',
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(dir, 'nodes.conf'),
      '--cluster-node-timeout',
      String(this.options.nodeTimeoutMs),
      // A replica takes over however long it was cut off from its master: the alternative is slots nobody serves.
      '--cluster-replica-validity-factor',
      '0',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--daemonize',
      'yes',
      '--pidfile',
      join(dir, 'redis.pid'),
      '--logfile',
      join(dir, 'redis.log'),
    ]);
    try {
      await until(`redis-server on ${port}`, async () => (await this.cli(port, 'PING')).trim() === 'PONG', 10_000);
    } catch (err) {
      // Say why: a node that never answers has almost always logged it (a port taken, a bad option).
      throw new Error(`${(err as Error).message}; the end of its log:\n${this.logTail(port)}`);
    }
  }

  /** The last lines of a node's log, for errors. */
  logTail(port: number, lines = 15): string {
    const log = join(this.#nodeDir(port), 'redis.log');
    return existsSync(log) ? readFileSync(log, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '(no log)';
  }

  /** Waits until every running node says all 16384 slots are served and every master has its replicas. */
  async waitServing(ms = 30_000): Promise<void> {
    await until(
      'the Redis Cluster to serve every slot',
      async () => {
        const running = this.options.ports.filter((port) => this.pid(port) !== undefined);
        for (const port of running) {
          if (!/^cluster_state:ok/m.test(await this.cli(port, 'CLUSTER', 'INFO'))) return false;
        }
        // A master that died is still listed as one until its replica has been promoted in its place.
        const masters = await this.masters();
        const shards = this.options.ports.length / (this.options.replicas + 1);
        if (masters.length !== shards || masters.some((m) => this.pid(m.port) === undefined)) return false;
        const wanted = Math.min(this.options.replicas, Math.floor(running.length / masters.length) - 1);
        return masters.every((m) => m.replicas >= wanted);
      },
      ms,
    );
  }

  /** The masters serving slots now, with their connected replicas and slot ranges (`0-5460`). */
  async masters(): Promise<{ port: number; replicas: number; slots: string[] }[]> {
    const live = this.options.ports.find((port) => this.pid(port) !== undefined);
    if (live === undefined) return [];
    const nodes = (await this.cli(live, 'CLUSTER', 'NODES')).trim().split('\n');
    const parsed = nodes.map((line) => {
      const [id, address, flags, master, , , , link, ...slots] = line.split(' ') as string[];
      return {
        id,
        port: Number(address?.split('@')[0]?.split(':')[1]),
        master: flags?.includes('master') && !flags.includes('fail') && slots.length > 0,
        slots,
        of: master,
        connected: link === 'connected' && !flags?.includes('fail'),
      };
    });
    return parsed
      .filter((n) => n.master)
      .map((m) => ({
        port: m.port,
        replicas: parsed.filter((r) => r.of === m.id && r.connected).length,
        slots: m.slots,
      }));
  }

  /** SIGKILL of a master (a machine lost): the one serving `key` when given, else the first; answers its port. */
  async killMaster(key?: string): Promise<number> {
    const masters = await this.masters();
    const live = masters[0];
    const slot = key === undefined || !live ? undefined : Number(await this.cli(live.port, 'CLUSTER', 'KEYSLOT', key));
    const master =
      slot === undefined
        ? live
        : masters.find((m) =>
            m.slots.some((range) => {
              const [from, to = from] = range.split('-').map(Number) as [number, number?];
              return slot >= from && slot <= to;
            }),
          );
    if (!master) throw new Error('no master to kill');
    await this.stopNode(master.port);
    return master.port;
  }

  pid(port: number): number | undefined {
    const pid = readPid(join(this.#nodeDir(port), 'redis.pid'));
    return pid !== undefined && alive(pid) ? pid : undefined;
  }

  /** One redis-cli command, killed after 5 s: a node that accepts and never answers must not hang a wait loop. */
  cli(port: number, ...args: string[]): Promise<string> {
    return run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], 5_000);
  }

  /** Stops every node (SIGKILL: nothing to save). */
  async stop(): Promise<void> {
    await Promise.all(this.options.ports.map((port) => this.stopNode(port)));
  }

  /** SIGKILL of one node; its pid file goes too, so nothing later signals a pid the system gave to another. */
  async stopNode(port: number): Promise<void> {
    await stopPid(this.pid(port), 'SIGKILL');
    rmSync(join(this.#nodeDir(port), 'redis.pid'), { force: true });
  }

  #nodeDir(port: number): string {
    return join(this.options.dir, `redis-${port}`);
  }
}
