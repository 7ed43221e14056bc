import { describe, expect, it } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
// The service's format registry, as the relay runs with it (the app loads the OpenAPI plugin, which registers formats).
import '../app.ts';
import { EVENT_CATALOG } from '../core/event-catalog.ts';
import { fitsCatalogue } from './catalogue-check.ts';

describe('the relay catalogue check', () => {
  it("answers as a check against the process's registered formats would, for every event type", () => {
    const bad = ['not-a-uuid', '2025-02-30', '2026-2-1', '2024-02-29', '7d0e1b2a-3c4d-4e5f-8a9b-0c1d2e3f4a5', 42, null];
    let mismatches = 0;
    let misfits = 0;
    for (const spec of EVENT_CATALOG) {
      const variants: Record<string, unknown>[] = [spec.example];
      // One field at a time, so a wrong uuid or day is what decides (the other fields fit).
      for (const [key, value] of Object.entries(spec.example)) {
        for (const b of bad) variants.push({ ...spec.example, [key]: b });
        if (typeof value === 'string') variants.push({ ...spec.example, [key]: value.replace('-', '') });
      }
      for (const data of variants) {
        const expected = Value.Check(spec.data, data);
        if (!expected) misfits++;
        if (fitsCatalogue(spec.type, data) !== expected) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
    // The changes do break data: the comparison above is not between two checks that accept everything.
    expect(misfits).toBeGreaterThan(EVENT_CATALOG.length * 3);
  });

  it('does not know an event type outside the catalogue', () => {
    expect(fitsCatalogue('booking.exploded', {})).toBeUndefined();
  });
});
