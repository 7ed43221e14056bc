import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPid, run, stopPid, until } from './processes.ts';

export interface HaproxyOptions {
  /** A private folder: haproxy.cfg, pid, log. */
  dir: string;
  /** Where partners connect (127.0.0.1). */
  port: number;
  /** The statistics page (CSV at /stats;csv), for status and for tests that ask which servers are up. */
  statsPort: number;
  /** The service processes behind it. */
  servers: { name: string; port: number }[];
}

/**
 * The settings, and why (docs/operations.md, "HAProxy", says the same for operators):
 * - `option httpchk GET /readyz`, every 1 s (`inter 1s`), 500 ms while changing state (`fastinter`): a process
 *   whose database is unreachable or that is draining answers 503 and is out after 2 failed checks (`fall 2`,
 *   about 1.5 s), back after 2 good ones (`rise 2`). A dead process fails its checks the same way, and sooner
 *   through `observe layer4` (connection errors of real traffic count as failed checks).
 * - `retry-on conn-failure` with `option redispatch`: a request that could not be sent to a process (killed,
 *   stopped listening) goes to another one. Only connection failures are retried: a request that reached a
 *   process may have been applied, and only the client, with its Idempotency-Key, may send it again.
 * - `timeout server 40s`: longer than anything the service itself waits for (a legacy upstream, 30 s), so the
 *   service answers its own 504 instead of the balancer cutting it.
 * - `balance leastconn`: a process slowed by a long request gets fewer new ones.
 * - `option forwardfor`: every request carries the client's address in an X-Forwarded-For of its own, which the
 *   processes read because they trust HAProxy's address (QC_TRUSTED_PROXIES, topology.ts); without it every
 *   per-address budget would count all clients as one (the balancer).
 */
export function haproxyConfig(options: HaproxyOptions): string {
  const servers = options.servers.map(
    (s) =>
      `  server ${s.name} 127.0.0.1:${s.port} check inter 1s fastinter 500ms fall 2 rise 2 observe layer4 error-limit 5 on-error mark-down`,
  );
  return `global
  maxconn 4096
  pidfile ${join(options.dir, 'haproxy.pid')}

defaults
  mode http
  timeout connect 1s
  timeout client 60s
  timeout server 40s
  timeout http-request 10s
  timeout queue 5s
  timeout check 2s
  retries 2
  option redispatch 1
  retry-on conn-failure
  option forwardfor

frontend qc
  bind 127.0.0.1:${options.port}
  default_backend service

backend service
  balance leastconn
  option httpchk
  http-check send meth GET uri /readyz
  http-check expect status 200
${servers.join('\n')}

frontend stats
  bind 127.0.0.1:${options.statsPort}
  stats enable
  stats uri /stats
  stats refresh 5s
`;
}

/** HAProxy from Debian's package, daemonized (`-D`), its pid in the folder. */
export class Haproxy {
  constructor(readonly options: HaproxyOptions) {}

  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  get pidFile(): string {
    return join(this.options.dir, 'haproxy.pid');
  }

  /** Writes the configuration, checks it (`haproxy -c`) and starts HAProxy; resolves once it answers. */
  async start(): Promise<void> {
    mkdirSync(this.options.dir, { recursive: true });
    const config = join(this.options.dir, 'haproxy.cfg');
    writeFileSync(config, haproxyConfig(this.options));
    await run('haproxy', ['-c', '-q', '-f', config]);
    await run('haproxy', ['-D', '-f', config]);
    await until('HAProxy to answer', async () => (await fetch(this.statsUrl)).ok, 10_000);
  }

  get statsUrl(): string {
    return `http://127.0.0.1:${this.options.statsPort}/stats;csv`;
  }

  /** Each server's state as HAProxy sees it (UP, DOWN, `UP 1/2` while changing, MAINT). */
  async servers(): Promise<Record<string, string>> {
    const csv = await (await fetch(this.statsUrl)).text();
    const [header, ...rows] = csv.replace(/^# /, '').trim().split('\n');
    const columns = (header ?? '').split(',');
    const [px, sv, status] = ['pxname', 'svname', 'status'].map((c) => columns.indexOf(c)) as [number, number, number];
    const states: Record<string, string> = {};
    for (const row of rows) {
      const cells = row.split(',');
      if (cells[px] !== 'service' || cells[sv] === 'BACKEND' || cells[sv] === 'FRONTEND') continue;
      states[cells[sv] as string] = cells[status] as string;
    }
    return states;
  }

  async stop(): Promise<void> {
    await stopPid(readPid(this.pidFile), 'SIGTERM', 5000);
    rmSync(this.pidFile, { force: true });
  }
}
