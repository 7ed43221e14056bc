/**
 * What one database's backends are doing, sampled from `pg_stat_activity` every few milliseconds on a connection
 * of its own, split by the side of a comparison the caller says it is in (bench:volume --waits: pushes beside a
 * retention pass against without). A side's figures are how many active backends were seen, on average, per
 * (statement, wait event): 0.96 for the push's upsert on the CPU means one push statement running nearly all the
 * time. It tells where a side's extra time goes (a lock, WAL flushes, another statement on the CPU), which the
 * latencies alone do not.
 */
import postgres from 'postgres';

/** Average active backends per "statement | wait event" on one side. */
export type WaitShares = Map<string, number>;

export interface WaitSampler {
  /** The side the samples from now on count for; undefined: not counted. */
  side(name: string | undefined): void;
  /** Stops sampling; the shares of each side, largest first. */
  stop(): Promise<Map<string, WaitShares>>;
}

/** The statement's first words, enough to tell the calendar upserts, retention's deletes and the rest apart. */
function statementOf(query: string): string {
  return query.replace(/\s+/g, ' ').trim().split(' ').slice(0, 4).join(' ').slice(0, 40);
}

export function sampleWaits(adminUrl: string, database: string, everyMs = 5): WaitSampler {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const counts = new Map<string, Map<string, number>>();
  const ticks = new Map<string, number>();
  let current: string | undefined;
  let running = true;
  const loop = (async () => {
    while (running) {
      const side = current;
      const rows = await sql<{ query: string; wait: string }[]>`
        select query, coalesce(wait_event_type || ':' || wait_event, 'CPU') as wait
        from pg_stat_activity
        where datname = ${database} and state = 'active' and pid <> pg_backend_pid()`;
      if (side !== undefined && side === current) {
        ticks.set(side, (ticks.get(side) ?? 0) + 1);
        const seen = counts.get(side) ?? new Map<string, number>();
        counts.set(side, seen);
        for (const row of rows) {
          const key = `${statementOf(row.query)} | ${row.wait}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }
      }
      await Bun.sleep(everyMs);
    }
  })();
  return {
    side(name) {
      current = name;
    },
    async stop() {
      running = false;
      await loop;
      await sql.end();
      const shares = new Map<string, WaitShares>();
      for (const [side, seen] of counts) {
        const n = ticks.get(side) ?? 1;
        shares.set(side, new Map([...seen].map(([key, c]) => [key, c / n] as const).sort((a, b) => b[1] - a[1])));
      }
      return shares;
    },
  };
}

/** The shares of every side, one line a (statement, wait event) seen on any side, largest first. */
export function formatWaits(shares: Map<string, WaitShares>, top = 12): string {
  const sides = [...shares.keys()];
  const keys = new Map<string, number>();
  for (const side of shares.values()) for (const [key, v] of side) keys.set(key, Math.max(keys.get(key) ?? 0, v));
  const lines = [...keys].sort((a, b) => b[1] - a[1]).slice(0, top);
  const head = `${'statement | wait event'.padEnd(60)}${sides.map((s) => s.padStart(9)).join('')}`;
  return [
    head,
    ...lines.map(
      ([key]) => `${key.padEnd(60)}${sides.map((s) => (shares.get(s)?.get(key) ?? 0).toFixed(3).padStart(9)).join('')}`,
    ),
  ].join('\n');
}
