import { connect } from 'node:net';
import { childPort } from './free-port.ts';

/**
 * A private redis-server for tests that stop Redis or need a Redis nobody else writes to: the machine's
 * Redis is shared by every test run, so it is never the one a test stops. Started on a free port without
 * persistence; `stop()` kills this process only, `start()` brings it back on the same port.
 */
export class ThrowawayRedis {
  #proc: ReturnType<typeof Bun.spawn> | undefined;
  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<ThrowawayRedis> {
    const redis = new ThrowawayRedis(childPort());
    await redis.start();
    return redis;
  }

  async start(): Promise<void> {
    this.#proc = Bun.spawn(
      ['redis-server', '--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdout: 'ignore',
        stderr: 'ignore',
      },
    );
    const deadline = Date.now() + 5000;
    while (!(await answers(this.port))) {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${this.port} did not start`);
      await Bun.sleep(20);
    }
  }

  /** SIGSTOP: connections stay open and nothing answers (a hung Redis), until thaw(). */
  freeze(): void {
    this.#proc?.kill('SIGSTOP');
  }

  thaw(): void {
    this.#proc?.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    this.thaw();
    const proc = this.#proc;
    this.#proc = undefined;
    if (!proc) return;
    proc.kill('SIGKILL');
    await proc.exited;
  }
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}
