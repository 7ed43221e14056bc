import type { FieldErrors } from '../core/http/api-error.ts';
import type { ModifierName, OccupancyEntry } from './vocabulary.ts';

/**
 * Explicit occupancies (spec 2.5 wire form) sent on rate plan creation or a pricing-model reset:
 * `{code, pricing?: {derived_from, adjust}}`, plus our additive `kind` (`fee`, `cost_free`, `inactive`) and
 * `fee` for the kinds the wire form cannot express otherwise. A missing `pricing` block means manual.
 */
export interface WireOccupancy {
  code: string;
  pricing?: { derived_from: string; adjust: string };
  kind?: 'manual' | 'fee' | 'cost_free' | 'inactive';
  fee?: number;
}

const ADJUST = /^([+-])(\d+(?:\.\d+)?)(%?)$/;

/** `-10%` -> ['decrease_by_percent', 10]; `+5` -> ['increase_by_amount', 5]; undefined when malformed. */
export function parseAdjust(adjust: string): [ModifierName, number] | undefined {
  const m = ADJUST.exec(adjust.trim());
  if (!m) return undefined;
  const direction = m[1] === '-' ? 'decrease' : 'increase';
  const unit = m[3] === '%' ? 'percent' : 'amount';
  return [`${direction}_by_${unit}`, Number(m[2])];
}

/** The shape problems of an explicit list that a 422 reports (codes unknown to a room are not among them). */
export function explicitOccupancyErrors(wire: readonly WireOccupancy[], resource: string): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, rule: string) => {
    errors[field] = [...(errors[field] ?? []), `customer.${resource}.messages.${rule}`];
  };
  wire.forEach((w, i) => {
    if (w.pricing) {
      if (w.kind && w.kind !== 'manual') add(`occupancies.${i}.kind`, 'conflicts_with_pricing');
      if (!parseAdjust(w.pricing.adjust)) add(`occupancies.${i}.pricing.adjust`, 'format');
      if (w.pricing.derived_from === w.code) add(`occupancies.${i}.pricing.derived_from`, 'self_reference');
    }
    if (w.kind === 'fee' && w.fee === undefined) add(`occupancies.${i}.fee`, 'required');
    if (w.fee !== undefined && w.kind !== 'fee') add(`occupancies.${i}.fee`, 'requires_fee_kind');
  });
  return errors;
}

/**
 * Applies an explicit list to one room's computed vocabulary: the pair then exposes exactly the listed
 * codes valid for the room, in vocabulary order. Unknown codes are dropped silently (spec 4.3 rule 2), and
 * so is a derived entry whose base is not a manual code of the result, since nothing could price it.
 * Returns undefined when nothing valid remains (the caller keeps the computed vocabulary).
 */
export function applyExplicit(
  computed: readonly OccupancyEntry[],
  wire: readonly WireOccupancy[],
): OccupancyEntry[] | undefined {
  const byCode = new Map<string, WireOccupancy>();
  for (const w of wire) if (!byCode.has(w.code)) byCode.set(w.code, w);
  const chosen: OccupancyEntry[] = [];
  for (const entry of computed) {
    const w = byCode.get(entry.code);
    if (w) chosen.push(toEntry(entry, w));
  }
  const manual = new Set(chosen.filter((e) => e.kind === 'manual').map((e) => e.code));
  const kept = chosen.filter((e) => e.kind !== 'derived' || manual.has(e.derived_from ?? ''));
  return kept.length ? kept : undefined;
}

function toEntry(computed: OccupancyEntry, w: WireOccupancy): OccupancyEntry {
  const base: OccupancyEntry = { code: computed.code, kind: 'manual' };
  if (computed.persons !== undefined) base.persons = computed.persons;
  if (computed.from_age !== undefined) base.from_age = computed.from_age;
  if (computed.to_age !== undefined) base.to_age = computed.to_age;
  if (w.pricing) {
    const modifier = parseAdjust(w.pricing.adjust);
    if (modifier) return { ...base, kind: 'derived', derived_from: w.pricing.derived_from, modifier };
  }
  if (w.kind === 'fee') return { ...base, kind: 'fee', fee: w.fee ?? 0 };
  if (w.kind === 'cost_free' || w.kind === 'inactive') return { ...base, kind: w.kind };
  return base;
}
