/**
 * `npm run test:pooler`: the whole functional suite once with DATABASE_URL through PgBouncer in transaction
 * mode, as production runs behind it. A private PostgreSQL and a private PgBouncer (Debian's, in a temporary
 * folder, on ports of 21000-21999) are started for the run and stopped after it; DATABASE_SESSION_URL is the
 * direct URL (LISTEN, migrations, tests' own admin connections). Prints `N passed, N failed` last.
 */
import { startPgBouncer } from './topology/pgbouncer.ts';
import { freePortRun, startPostgresPair } from './topology/postgres.ts';

const DB = 'qc_pooler_suite';
const base = freePortRun(21000, 21999, 2);
const pg = await startPostgresPair({ port: base, standby: false, databases: [DB] });
const bouncer = await startPgBouncer({ port: base + 1, upstream: { port: pg.primaryPort }, poolSize: 40 });
let code = 1;
try {
  const env = {
    ...process.env,
    DATABASE_URL: bouncer.url(DB),
    DATABASE_SESSION_URL: pg.primaryUrl(DB),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QC_CHECK_RESPONSES: '1',
  };
  console.log(`PostgreSQL on ${pg.primaryPort}, PgBouncer (transaction mode) on ${bouncer.port}`);
  const proc = Bun.spawn([process.execPath, 'test', '--timeout=30000', ...process.argv.slice(2)], {
    env,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let tail = '';
  const pump = async (stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const text = decoder.decode(chunk);
      out.write(text);
      tail = (tail + text).slice(-4000);
    }
  };
  const pumped = Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  code = await proc.exited;
  await Promise.race([pumped, Bun.sleep(3000)]);
  const passed = Number(tail.match(/^\s*(\d+) pass/m)?.[1] ?? 0);
  const failed = Number(tail.match(/^\s*(\d+) fail/m)?.[1] ?? 0) || (code !== 0 ? 1 : 0);
  console.log(`\n${passed} passed, ${failed} failed`);
  code = failed ? 1 : 0;
} finally {
  await bouncer.stop();
  await pg.stop();
}
process.exit(code);
