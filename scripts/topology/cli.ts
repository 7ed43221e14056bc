/**
 * `npm run topology -- up|down|status [options]`: the production topology on this machine (HAProxy, N service
 * processes, PgBouncer in transaction mode, a PostgreSQL primary with a synchronous streaming standby, a Redis
 * Cluster of 3 masters and 3 replicas), from Debian's packages, in a private folder on private ports.
 *
 *   --dir <folder>      where everything lives (default: <tmp>/qc-topology)
 *   --base-port <port>  ports base..base+39 (default 22000)
 *   --services <n>      service processes behind HAProxy (default 3)
 *   --no-pooler         services connect to PostgreSQL directly (multi-host URL) instead of through PgBouncer
 *   --async             the standby replicates asynchronously (COMMIT does not wait for it)
 */
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Topology } from './topology.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    dir: { type: 'string', default: join(tmpdir(), 'qc-topology') },
    'base-port': { type: 'string', default: '22000' },
    services: { type: 'string', default: '3' },
    'no-pooler': { type: 'boolean', default: false },
    async: { type: 'boolean', default: false },
  },
});
const dir = resolve(values.dir);
const command = positionals[0];

const print = (title: string, rows: Record<string, string>) => {
  console.log(title);
  const width = Math.max(...Object.keys(rows).map((k) => k.length));
  for (const [key, value] of Object.entries(rows)) console.log(`  ${key.padEnd(width)}  ${value}`);
};

if (command === 'up') {
  if (Topology.exists(dir)) {
    console.error(`A topology already runs in ${dir}: npm run topology -- down${values.dir ? ` --dir ${dir}` : ''}`);
    process.exit(1);
  }
  console.log(`starting the topology in ${dir} ...`);
  const started = Date.now();
  const topology = await Topology.up({
    dir,
    basePort: Number(values['base-port']),
    services: Number(values.services),
    pooler: !values['no-pooler'],
    synchronous: !values.async,
    keepOnExit: true,
  });
  print(`up in ${((Date.now() - started) / 1000).toFixed(1)} s:`, topology.urls());
  console.log(`\nstop it with: npm run topology -- down --dir ${dir}`);
} else if (command === 'status' || command === 'down') {
  if (!Topology.exists(dir)) {
    console.log(`no topology in ${dir}`);
    process.exit(command === 'status' ? 1 : 0);
  }
  const topology = Topology.attach(dir);
  if (command === 'status') {
    print('urls:', topology.urls());
    print('processes:', await topology.status());
  } else {
    await topology.down();
    console.log(`stopped; ${dir} removed`);
  }
} else {
  console.error(
    'usage: npm run topology -- up|down|status [--dir D] [--base-port P] [--services N] [--no-pooler] [--async]',
  );
  process.exit(2);
}
