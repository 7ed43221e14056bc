import { afterAll, describe, expect, it } from 'bun:test';
import type { Db } from './db.ts';
import { openPglite } from './pglite.ts';

const opened: Db[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

describe('the embedded database (PGlite on this thread)', () => {
  it('lets the event loop turn between two statements of a chain, so a request that came in is answered', async () => {
    const db = await openPglite(undefined);
    opened.push(db);
    // What reading a request off a socket is: a task of the event loop, not a microtask.
    let turns = 0;
    let chaining = true;
    const turn = () => {
      turns++;
      if (chaining) setImmediate(turn);
    };
    setImmediate(turn);
    await db.query('select 1');
    turns = 0;
    for (let i = 0; i < 20; i++) await db.query('select 1');
    chaining = false;
    expect(turns).toBeGreaterThanOrEqual(20);
  });
});
