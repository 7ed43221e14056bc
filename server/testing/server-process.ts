import { childPort } from './free-port.ts';
import { TEST_KEY_ENCRYPTION_KEY } from './harness.ts';

/**
 * `bun server/main.ts` as a separate process on a free port, for tests about several server processes
 * sharing PostgreSQL and Redis. Resolves once /healthz answers; `stop()` sends SIGTERM to this process only.
 */
export class ServerProcess {
  private constructor(
    readonly url: string,
    private readonly proc: ReturnType<typeof Bun.spawn>,
  ) {}

  static async start(env: Record<string, string | undefined>): Promise<ServerProcess> {
    const port = env.PORT ? Number(env.PORT) : childPort();
    const proc = Bun.spawn([process.execPath, 'server/main.ts'], {
      env: {
        ...process.env,
        // The suite's direct URL belongs to the suite's DATABASE_URL: a test naming another database (a private
        // cluster) must not inherit it.
        DATABASE_SESSION_URL:
          env.DATABASE_URL === undefined || env.DATABASE_URL === process.env.DATABASE_URL
            ? process.env.DATABASE_SESSION_URL
            : undefined,
        QC_LOG_LEVEL: 'error',
        QC_DEMO_ON_EMPTY: '0',
        QC_KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdout: 'ignore',
      stderr: 'inherit',
    });
    const server = new ServerProcess(`http://127.0.0.1:${port}`, proc);
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`server/main.ts exited with ${proc.exitCode}`);
      try {
        if ((await fetch(`${server.url}/healthz`)).ok) return server;
      } catch {}
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error('server/main.ts did not answer /healthz within 30 s');
      }
      await Bun.sleep(50);
    }
  }

  /** SIGTERM (graceful shutdown), SIGKILL if it has not exited within 10 s; answers the exit code. */
  async stop(): Promise<number> {
    this.proc.kill('SIGTERM');
    const exited = await Promise.race([this.proc.exited, Bun.sleep(10_000).then(() => undefined)]);
    if (exited !== undefined) return exited;
    this.proc.kill('SIGKILL');
    return this.proc.exited;
  }
}
