import { afterAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunSummary } from '../compare/score.ts';
import { readCorpus } from '../corpus/read-corpus.ts';
import { runHarness, startHarness } from '../testing/harness-cli.ts';

/** The shipped example corpus reads, covers the nine legacy methods, and serves back what it recorded. */
const corpus = join(import.meta.dir, 'legacy-session.har');
const dir = mkdtempSync(join(tmpdir(), 'qc-harness-examples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('harness/examples', () => {
  it('holds every legacy method, reads and writes', async () => {
    const methods = new Set<string>();
    for await (const exchange of readCorpus(corpus))
      methods.add(new URL(exchange.url).pathname.replace('/api/pms/v1/', ''));
    for (const method of [
      'availability/updateAvailability',
      'availability/getAvailability',
      'booking/getBookings',
      'booking/ackBooking',
      'booking/postRoomAssignment',
      'property/getRoomsDetails',
      'property/getPropertySettings',
      'property/postExternalPropertyData',
      'property/getBookingOffers',
    ]) {
      expect(methods).toContain(method);
    }
  });

  it('scores 0 replayed against `harness serve` of itself, with the example ignore rules', async () => {
    const stand = await startHarness(['serve', corpus]);
    const run = await runHarness([
      'replay',
      corpus,
      '--target',
      stand.url,
      '--ignore',
      join(import.meta.dir, 'ignore-rules.txt'),
      '--json',
      '-',
    ]);
    expect(await stand.stop()).toBe(0);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as RunSummary;
    expect(summary).toMatchObject({ different: 0, failed: 0, score: 0 });
    expect(summary.identical).toBe(summary.exchanges);
  });
});
