import { open } from 'node:fs/promises';

/**
 * The UTC day a corpus's recording started (`startedDateTime` of its first entry, read from the file's head
 * whatever its size), or undefined when the corpus does not say. `--shift-dates auto` moves request dates by the
 * days between that day and today.
 */
export async function recordedOn(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(256 * 1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const found = head
      .subarray(0, bytesRead)
      .toString('utf8')
      .match(/"startedDateTime"\s*:\s*"(\d{4}-\d{2}-\d{2})T/);
    return found?.[1];
  } finally {
    await handle.close();
  }
}

/** Whole days from `day` (YYYY-MM-DD) to today, UTC. */
export function daysSince(day: string, now = new Date()): number {
  return Math.round((Date.parse(now.toISOString().slice(0, 10)) - Date.parse(day)) / 86_400_000);
}
