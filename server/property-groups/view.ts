import type { PropertyGroupWithMembers } from './groups.ts';

export function propertyGroupView(g: PropertyGroupWithMembers) {
  return {
    id: g.external_id,
    name: g.name,
    paused: g.paused,
    property_ids: g.property_ids,
    created_at: new Date(g.created_at).toISOString(),
  };
}
