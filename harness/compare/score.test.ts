import { describe, expect, it } from 'bun:test';
import { jsonExchange } from '../testing/exchanges.ts';
import { compareExchange } from './compare-exchange.ts';
import { IgnoreRules } from './ignore-rules.ts';
import { type ExchangeOutcome, Scoreboard, score } from './score.ts';

const BASE = 'http://legacy/api/pms/v1';
const answer = (body: string, status = 200) => ({
  status,
  responseHeaders: [['content-type', 'application/json']] as const,
  responseBody: new TextEncoder().encode(body),
});

function outcome(index: number, path: string, was: string, is: string, status = 200): ExchangeOutcome {
  const recorded = jsonExchange(`${BASE}/${path}?api_key=k`, was);
  const replayed = answer(is, status);
  return { index, recorded, replayed, comparison: compareExchange(recorded, replayed) };
}

describe('score', () => {
  it('is 0 with no exchange, and 0 when every answer matched', () => {
    expect(score([])).toEqual({
      exchanges: 0,
      identical: 0,
      different: 0,
      noise_only: 0,
      failed: 0,
      score: 0,
      classes: { failed: 0, status: 0, message: 0, field: 0, value: 0, representation: 0 },
      endpoints: [],
      differences: [],
      ignore_rules: [],
    });
    expect(score([outcome(0, 'a/b', '{}', '{}')]).score).toBe(0);
  });

  it('is the share of exchanges that differ or failed, with endpoints, fields and differences most severe first', () => {
    const failed: ExchangeOutcome = { index: 1, recorded: jsonExchange(`${BASE}/a/b`, '{}'), error: 'ECONNREFUSED' };
    const board = new Scoreboard();
    // Out of order, as a concurrent replay finishes.
    for (const o of [
      outcome(3, 'a/b', '{"x":[{"p":1}]}', '{"x":[{"p":2}]}'),
      failed,
      outcome(0, 'a/b', '{}', '{}'),
      outcome(2, 'c/d', '{"x":[{"p":1},{"p":1}]}', '{"x":[{"p":3},{"p":1}]}', 500),
    ]) {
      board.add(o);
    }
    const summary = board.summary();
    expect(summary).toMatchObject({ exchanges: 4, identical: 1, different: 2, noise_only: 0, failed: 1, score: 0.75 });
    expect(summary.classes).toEqual({ failed: 1, status: 1, message: 0, field: 0, value: 1, representation: 0 });
    expect(summary.endpoints).toEqual([
      {
        method: 'GET',
        path: '/api/pms/v1/a/b',
        exchanges: 3,
        different: 2,
        classes: { failed: 1, value: 1 },
        fields: [{ path: '$.x[*].p', count: 1, class: 'value', example: { recorded: 1, replayed: 2 } }],
      },
      {
        method: 'GET',
        path: '/api/pms/v1/c/d',
        exchanges: 1,
        different: 1,
        classes: { status: 1 },
        fields: [
          { path: 'status', count: 1, class: 'status', example: { recorded: 200, replayed: 500 } },
          { path: '$.x[*].p', count: 1, class: 'value', example: { recorded: 1, replayed: 3 } },
        ],
      },
    ]);
    expect(summary.differences.map((d) => [d.index, d.class, d.status, d.fields.map((f) => f.path)])).toEqual([
      [1, 'failed', { recorded: 200, replayed: null }, ['error']],
      [2, 'status', { recorded: 200, replayed: 500 }, ['status', '$.x[0].p']],
      [3, 'value', { recorded: 200, replayed: 200 }, ['$.x[0].p']],
    ]);
    expect(board.keptExchanges().map((k) => k.index)).toEqual([1, 2, 3]);
  });

  it('counts per ignore rule the exchanges it forgave, each once, with the first; the score leaves them out', () => {
    const ignore = IgnoreRules.parse(
      ['GET /api/pms/v1/a/b $.at', 'GET /api/pms/v1/a/b $.x[*].p', '* * $.at', 'GET /api/pms/v1/c/d $.never'].join(
        '\n',
      ),
    );
    const board = new Scoreboard({ ignore });
    const judged = (index: number, path: string, was: string, is: string): ExchangeOutcome => {
      const recorded = jsonExchange(`${BASE}/${path}?api_key=k`, was);
      const replayed = answer(is);
      return { index, recorded, replayed, comparison: compareExchange(recorded, replayed, { ignore }) };
    };
    // Out of order: the sample is still the rule's first exchange. Two elements forgiven in #5 count it once.
    board.add(judged(5, 'a/b', '{"x":[{"p":1},{"p":1}],"at":1}', '{"x":[{"p":2},{"p":2}],"at":2}'));
    board.add(judged(2, 'a/b', '{"x":[{"p":1}]}', '{"x":[{"p":3}]}'));
    board.add(judged(7, 'c/d', '{"at":1,"v":1}', '{"at":2,"v":2}'));
    board.add(judged(8, 'c/d', '{"v":1}', '{"v":1}'));
    const summary = board.summary();
    expect(summary.ignore_rules).toEqual([
      { rule: 'GET /api/pms/v1/a/b $.x[*].p', exchanges: 2, sample: { path: '$.x[0].p', index: 2 } },
      { rule: 'GET /api/pms/v1/a/b $.at', exchanges: 1, sample: { path: '$.at', index: 5 } },
      { rule: '* * $.at', exchanges: 1, sample: { path: '$.at', index: 7 } },
      { rule: 'GET /api/pms/v1/c/d $.never', exchanges: 0 },
    ]);
    // Forgiven is not different: #7 differs in $.v only, the others not at all.
    expect(summary).toMatchObject({ exchanges: 4, identical: 1, noise_only: 2, different: 1, score: 0.25 });
  });

  it('keeps the bodies of only the first differing exchanges of each class it is told to', () => {
    const board = new Scoreboard({ keep: 2 });
    for (let i = 0; i < 5; i++) board.add(outcome(i, 'a/b', '{"v":1}', '{"v":2}'));
    expect(board.summary().differences).toHaveLength(5);
    expect(board.keptExchanges().map((k) => k.index)).toEqual([0, 1]);
  });
});
