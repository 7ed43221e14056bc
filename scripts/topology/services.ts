import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alive, readPid, spawnDetached, stopPid, until } from './processes.ts';

/** One `bun server/main.ts` of the topology: its own port and data folder, the shared environment. */
export class ServiceProcess {
  constructor(
    readonly name: string,
    readonly port: number,
    readonly dir: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    const pid = readPid(this.#pidFile);
    return pid !== undefined && alive(pid) ? pid : undefined;
  }

  get #pidFile(): string {
    return join(this.dir, 'service.pid');
  }

  get logFile(): string {
    return join(this.dir, 'service.log');
  }

  /** Starts it detached (it outlives the command that started it); resolves once /readyz answers 200. */
  async start(env: Record<string, string>, repo: string): Promise<void> {
    mkdirSync(join(this.dir, 'data'), { recursive: true });
    const pid = spawnDetached(process.execPath, ['server/main.ts'], {
      cwd: repo,
      logFile: this.logFile,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        QC_DATA_DIR: join(this.dir, 'data'),
      },
    });
    writeFileSync(this.#pidFile, `${pid}\n`);
    await this.ready(60_000);
  }

  async ready(ms: number): Promise<void> {
    await until(
      `${this.name} to be ready (${this.logFile})`,
      async () => {
        if (this.pid === undefined) throw new Error(`${this.name} exited; see ${this.logFile}`);
        return (await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(2000) })).status === 200;
      },
      ms,
    );
  }

  /** SIGTERM: the service drains (leaves the balancer, finishes what is in flight) and exits; SIGKILL after 20 s. */
  async stop(): Promise<void> {
    await stopPid(this.pid, 'SIGTERM', 20_000);
    rmSync(this.#pidFile, { force: true });
  }

  /** kill -9: a crash. */
  async kill(): Promise<void> {
    await stopPid(this.pid, 'SIGKILL');
    rmSync(this.#pidFile, { force: true });
  }
}
