import { describe, expect, it } from 'bun:test';
import { applyExplicit, explicitOccupancyErrors, parseAdjust } from './explicit-occupancies.ts';
import { DEFAULT_AGE_GROUPS, vocabulary } from './vocabulary.ts';

const room = vocabulary({ regularBeds: 2, extraBeds: 1, extraBedsChildrenOnly: 0 }, 'per_person', DEFAULT_AGE_GROUPS);

describe('explicit occupancies', () => {
  it('reads adjust as a modifier: sign, number, optional percent', () => {
    expect(parseAdjust('-10%')).toEqual(['decrease_by_percent', 10]);
    expect(parseAdjust('+5')).toEqual(['increase_by_amount', 5]);
    expect(parseAdjust('+12.5%')).toEqual(['increase_by_percent', 12.5]);
    expect(parseAdjust('-7.25')).toEqual(['decrease_by_amount', 7.25]);
    for (const bad of ['10%', '-', '-x%', '--1', '+1%%', '']) expect(parseAdjust(bad)).toBeUndefined();
  });

  it('keeps exactly the listed codes valid for the room, in vocabulary order, and drops unknown ones silently', () => {
    const out = applyExplicit(room, [
      { code: 'CNB', kind: 'cost_free' },
      { code: 'A2' },
      { code: 'A3' },
      { code: 'A1', pricing: { derived_from: 'A2', adjust: '-10%' } },
      { code: 'AEB', kind: 'fee', fee: 15 },
      { code: 'IRB', kind: 'inactive' },
    ]);
    expect(out).toEqual([
      { code: 'A1', kind: 'derived', persons: 1, derived_from: 'A2', modifier: ['decrease_by_percent', 10] },
      { code: 'A2', kind: 'manual', persons: 2 },
      { code: 'AEB', kind: 'fee', persons: 1, fee: 15 },
      { code: 'CNB', kind: 'cost_free', persons: 1, from_age: 3, to_age: 11 },
      { code: 'IRB', kind: 'inactive', persons: 1, from_age: 0, to_age: 2 },
    ]);
  });

  it('drops a derived code whose base is not a listed manual code, and answers undefined when nothing is left', () => {
    expect(applyExplicit(room, [{ code: 'A1', pricing: { derived_from: 'A2', adjust: '+5' } }])).toBeUndefined();
    expect(applyExplicit(room, [{ code: 'ROOM' }, { code: 'XYZ' }])).toBeUndefined();
  });

  it('reports malformed adjust, a self reference and fee without its kind', () => {
    expect(
      explicitOccupancyErrors(
        [
          { code: 'A1', pricing: { derived_from: 'A1', adjust: '10' } },
          { code: 'A2', kind: 'fee' },
          { code: 'AEB', fee: 3 },
          { code: 'CNB', kind: 'cost_free', pricing: { derived_from: 'A2', adjust: '-1' } },
        ],
        'rate_plan',
      ),
    ).toEqual({
      'occupancies.0.pricing.adjust': ['customer.rate_plan.messages.format'],
      'occupancies.0.pricing.derived_from': ['customer.rate_plan.messages.self_reference'],
      'occupancies.1.fee': ['customer.rate_plan.messages.required'],
      'occupancies.2.fee': ['customer.rate_plan.messages.requires_fee_kind'],
      'occupancies.3.kind': ['customer.rate_plan.messages.conflicts_with_pricing'],
    });
  });
});
