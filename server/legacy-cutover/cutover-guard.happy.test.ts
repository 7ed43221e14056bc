import { describe, expect, it, spyOn } from 'bun:test';
import { legacyTest, TODAY } from '../../legacy/legacy-test-fixture.ts';
import { addDays } from '../core/days.ts';
import { guardLiveFlip } from './cutover-guard.ts';
import { forceLive, scoredDays, setMode } from './cutover-test-fixture.ts';
import { SHUTDOWN_STREAK_DAYS } from './zero-streak.ts';

/**
 * The flip from shadow to live is earned: spec 9.4 moves a PMS over once its shadow-difference score has stayed
 * at zero, and once live no comparison runs. Histories are written per day (the clock's today is TODAY), so the
 * figures are the test's own; how traffic makes them is shadow-mode.process.test.ts's.
 */
const { t, f } = legacyTest();
/** Nothing listens here: no test sends a legacy request, the URL only lets the key be shadowed. */
const UPSTREAM = 'http://127.0.0.1:9/';

async function shadowKey() {
  const { keyId } = await f.anotherKey();
  await setMode(t, keyId, 'shadow', UPSTREAM);
  return keyId;
}

/** `days` zero-score days ending yesterday, after one day on which 2 of 5 exchanges differed. */
async function streakAfterDifference(keyId: number, days: number) {
  await scoredDays(t, keyId, [
    { date: addDays(TODAY, -days - 1), compared: 5, different: 2 },
    ...Array.from({ length: days }, (_, i) => ({ date: addDays(TODAY, -days + i), compared: 3 })),
  ]);
}

const flipLive = (keyId: number, body: Record<string, unknown> = {}) =>
  t.ops('PUT', `/ops/legacy-keys/${keyId}/cutover`, { mode: 'live', ...body });
const modeOf = async (keyId: number) => (await t.ops('GET', `/ops/legacy-keys/${keyId}`)).body.data.mode;

/** The flip to live is refused with the key's standing against the default rule, and the key stays in shadow. */
async function expectRefused(keyId: number, standing: Record<string, unknown>) {
  const refused = await flipLive(keyId);
  expect(refused.status).toBe(409);
  expect(refused.body).toMatchObject({
    message: 'errors.qc.cutover_not_ready',
    required_streak_days: SHUTDOWN_STREAK_DAYS,
    ...standing,
  });
  expect(await modeOf(keyId)).toBe('shadow');
}

describe('PUT /ops/legacy-keys/{id}/cutover from shadow to live', () => {
  it('defaults the required zero streak to the shutdown rule of spec 9.4', () => {
    expect(t.deps.config.legacyCutover.liveStreakDays).toBe(SHUTDOWN_STREAK_DAYS);
  });

  it('refuses a key whose recent day differed, naming its streak, that day and its score', async () => {
    const keyId = await shadowKey();
    await streakAfterDifference(keyId, 4);
    // Today's difference is not counted yet (the day is not over): the last one is five days ago.
    await scoredDays(t, keyId, [{ date: TODAY, compared: 1, different: 1 }]);

    await expectRefused(keyId, {
      zero_streak_days: 4,
      last_difference: { date: addDays(TODAY, -5), score: 0.4 },
      has_comparisons: true,
    });
  });

  it('refuses a key that never had a comparison', async () => {
    const keyId = await shadowKey();
    // The legacy service never answered: nothing was compared, so nothing was shown to agree.
    await scoredDays(t, keyId, [{ date: addDays(TODAY, -1), compared: 0, unanswered: 7 }]);

    await expectRefused(keyId, { zero_streak_days: 0, last_difference: null, has_comparisons: false });
  });

  it('flips a key at the required streak, and refuses it one day short', async () => {
    const [short, earned] = [await shadowKey(), await shadowKey()];
    await streakAfterDifference(short, SHUTDOWN_STREAK_DAYS - 1);
    await streakAfterDifference(earned, SHUTDOWN_STREAK_DAYS);

    const refused = await flipLive(short);
    const flipped = await flipLive(earned);

    expect([refused.status, refused.body.zero_streak_days]).toEqual([409, SHUTDOWN_STREAK_DAYS - 1]);
    expect(flipped.status).toBe(200);
    expect(flipped.body.data.mode).toBe('live');
    expect(flipped.body.data.forced).toBeUndefined();
    expect(await modeOf(earned)).toBe('live');
  });

  it('flips a key short of its streak with force, logging at warn and answering what it overrode', async () => {
    const keyId = await shadowKey();
    await streakAfterDifference(keyId, 2);
    const warn = spyOn(t.deps.log, 'warn');
    try {
      const flipped = await flipLive(keyId, { force: true });

      const overridden = {
        zero_streak_days: 2,
        required_streak_days: SHUTDOWN_STREAK_DAYS,
        last_difference: { date: addDays(TODAY, -3), score: 0.4 },
        has_comparisons: true,
      };
      expect(flipped.status).toBe(200);
      expect(flipped.body.data).toMatchObject({ mode: 'live', forced: overridden });
      expect(warn.mock.calls.filter(([msg]) => msg === 'legacy cutover forced').map(([, fields]) => fields)).toEqual([
        { key_id: keyId, ...overridden },
      ]);
      expect(await modeOf(keyId)).toBe('live');
    } finally {
      warn.mockRestore();
    }
  });

  it('takes the required days from the configuration (QC_LEGACY_CUTOVER_STREAK_DAYS)', async () => {
    const keyId = await shadowKey();
    await streakAfterDifference(keyId, 3);
    const config = (days: number) => ({
      ...t.deps,
      config: { ...t.deps.config, legacyCutover: { ...t.deps.config.legacyCutover, liveStreakDays: days } },
    });

    expect(await guardLiveFlip(config(3), keyId, false)).toBeUndefined();
    await expect(guardLiveFlip(config(4), keyId, false)).rejects.toMatchObject({
      key: 'errors.qc.cutover_not_ready',
      extra: { zero_streak_days: 3, required_streak_days: 4 },
    });
  });
});

describe('PUT /ops/legacy-keys/{id}/cutover, other flips', () => {
  it('leaves flips to shadow, live to live and keys created live unchecked', async () => {
    // A key created live (no upstream configured), with a history that would never earn the flip.
    const { keyId } = await f.anotherKey();
    await streakAfterDifference(keyId, 1);
    expect(await modeOf(keyId)).toBe('live');
    const liveAgain = await t.ops('PUT', `/ops/legacy-keys/${keyId}/cutover`, { mode: 'live', upstream_url: null });
    expect([liveAgain.status, liveAgain.body.data.forced]).toEqual([200, undefined]);

    const toShadow = await t.ops('PUT', `/ops/legacy-keys/${keyId}/cutover`, {
      mode: 'shadow',
      upstream_url: UPSTREAM,
      allow_private_upstream: true,
    });
    expect([toShadow.status, toShadow.body.data.mode]).toEqual([200, 'shadow']);
    const shadowAgain = await t.ops('PUT', `/ops/legacy-keys/${keyId}/cutover`, { mode: 'shadow' });
    expect(shadowAgain.status).toBe(200);
    // Only the way to live is guarded; the fixture's deliberate flip back passes with force.
    expect((await flipLive(keyId)).status).toBe(409);
    await forceLive(t, keyId);
    expect(await modeOf(keyId)).toBe('live');
  });
});
